"""a person away: their seats' deadlines paused with the time they had left

Revision ID: 0005_away
Revises: 0004_mail_confirm
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_away"
down_revision = "0004_mail_confirm"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deadlines") as batch:
        batch.add_column(sa.Column("paused_left", sa.Float(), nullable=True))
    op.create_table(
        "aways",
        sa.Column(
            "room_id",
            sa.String(64),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_aways_until", "aways", ["until"])


def downgrade() -> None:
    op.drop_index("ix_aways_until", table_name="aways")
    op.drop_table("aways")
    with op.batch_alter_table("deadlines") as batch:
        batch.drop_column("paused_left")
