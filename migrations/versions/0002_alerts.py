"""alert settings, channels, keys and the outbox

Revision ID: 0002_alerts
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_alerts"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "alert_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.create_table(
        "alert_seats",
        sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("lang", sa.String(5), nullable=False),
        sa.Column("stop_key", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "alert_channels",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("ix_alert_channels_room", "alert_channels", ["room_id", "token_hash"])
    op.create_table(
        "alert_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel_id", sa.Integer(), sa.ForeignKey("alert_channels.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("turn_seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.UniqueConstraint("channel_id", "seat", "turn_seq", "kind", name="uq_alert_outbox_turn"),
    )
    op.create_index("ix_alert_outbox_due", "alert_outbox", ["status", "next_at"])
    op.create_index("ix_alert_outbox_room", "alert_outbox", ["room_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_alert_outbox_room", table_name="alert_outbox")
    op.drop_index("ix_alert_outbox_due", table_name="alert_outbox")
    op.drop_table("alert_outbox")
    op.drop_index("ix_alert_channels_room", table_name="alert_channels")
    op.drop_table("alert_channels")
    op.drop_table("alert_seats")
    op.drop_table("alert_keys")
