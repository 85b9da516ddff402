"""turn deadlines; a seat's stand-in bot

Revision ID: 0003_deadlines
Revises: 0002_alerts
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_deadlines"
down_revision = "0002_alerts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column(
            "room_id",
            sa.String(64),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_deadlines_due_at", "deadlines", ["due_at"])
    op.create_index("ix_deadlines_remind_at", "deadlines", ["remind_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("stand_in")
    op.drop_index("ix_deadlines_remind_at", table_name="deadlines")
    op.drop_index("ix_deadlines_due_at", table_name="deadlines")
    op.drop_table("deadlines")
