"""e-mail addresses are confirmed before turn mails; per-address mail counts

Revision ID: 0004_mail_confirm
Revises: 0003_deadlines
Create Date: 2026-12-02

Addresses left before this version were never confirmed: each gets one
confirmation mail (queued here) and no turn mail until its owner confirms.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0004_mail_confirm"
down_revision = "0003_deadlines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("alert_channels") as batch:
        batch.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("confirm_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("confirm_sent_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_alert_channels_confirm", ["confirm_hash"], unique=True)
    op.create_table(
        "alert_addresses",
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("sends", sa.JSON(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_alert_addresses_last_at", "alert_addresses", ["last_at"])
    channels = sa.table(
        "alert_channels",
        sa.column("id", sa.Integer()),
        sa.column("room_id", sa.String()),
        sa.column("kind", sa.String()),
    )
    outbox = sa.table(
        "alert_outbox",
        sa.column("room_id", sa.String()),
        sa.column("channel_id", sa.Integer()),
        sa.column("seat", sa.Integer()),
        sa.column("game_no", sa.Integer()),
        sa.column("turn_seq", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("status", sa.String()),
        sa.column("next_at", sa.DateTime(timezone=True)),
        sa.column("attempts", sa.Integer()),
    )
    found = op.get_bind().execute(
        sa.select(channels.c.id, channels.c.room_id).where(channels.c.kind == "email")
    )
    now = datetime.now(UTC)
    rows = [
        {
            "room_id": room_id,
            "channel_id": channel_id,
            "seat": 0,
            "game_no": 0,
            "turn_seq": 0,
            "kind": "confirm",
            "status": "pending",
            "next_at": now,
            "attempts": 0,
        }
        for channel_id, room_id in found
    ]
    if rows:
        op.bulk_insert(outbox, rows)


def downgrade() -> None:
    op.execute("DELETE FROM alert_outbox WHERE kind = 'confirm'")
    op.drop_index("ix_alert_addresses_last_at", table_name="alert_addresses")
    op.drop_table("alert_addresses")
    with op.batch_alter_table("alert_channels") as batch:
        batch.drop_index("ix_alert_channels_confirm")
        batch.drop_column("confirm_sent_at")
        batch.drop_column("confirm_hash")
        batch.drop_column("confirmed_at")
