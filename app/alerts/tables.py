"""The alert tables: who wants which alerts, keys the server keeps, and the outbox.

Personal channels belong to a seat's token hash, not to a seat number: seats are
shuffled when a game starts, and a freed seat gets a new token, so an alert
always finds the person who asked for it (or no one).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.play.tables import Base


class AlertKey(Base):
    """A secret the server made on first start (the VAPID key pair, the resume key)."""

    __tablename__ = "alert_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class AlertSeat(Base):
    """A seated person's alert settings in one room: language and the stop-link secret."""

    __tablename__ = "alert_seats"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    lang: Mapped[str] = mapped_column(String(5), default="en")
    stop_key: Mapped[str] = mapped_column(String(64), unique=True)


class AlertChannel(Base):
    """One way to reach someone: a push subscription, an e-mail address or the room's webhook.

    ``target`` is the endpoint, address or URL; ``data`` holds what sending needs
    besides (push keys; the encrypted resume token; webhook shape and language).
    ``token_hash`` is empty for the room-wide webhook. An address gets turn mails
    only once ``confirmed_at`` is set: ``confirm_hash`` is the SHA-256 of the key in
    the last confirmation mail (made when that mail went out, at ``confirm_sent_at``).
    """

    __tablename__ = "alert_channels"
    __table_args__ = (
        Index("ix_alert_channels_room", "room_id", "token_hash"),
        Index("ix_alert_channels_confirm", "confirm_hash", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    kind: Mapped[str] = mapped_column(String(8))
    target: Mapped[str] = mapped_column(Text)
    data: Mapped[dict[str, Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    confirm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    confirm_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AlertAddress(Base):
    """The mails one e-mail address got lately, over every room, for the per-address caps.

    Keyed by a hash of the address in its usual form (lower case, no ``+tag``), so
    the count survives the channels that asked for the mails, and no address is
    kept here in clear. ``sends`` lists ``[when (ISO), kind, id]`` for the last day.
    The row is locked while a mail is counted in, so two processes can't both take
    the last slot.
    """

    __tablename__ = "alert_addresses"

    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    sends: Mapped[list[Any]] = mapped_column(JSON)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class OutboxRow(Base):
    """One alert to send on one channel. Rows stay until sent, given up or no longer due.

    (channel, seat, turn_seq, kind) is unique: at most one alert per seat and turn.
    """

    __tablename__ = "alert_outbox"
    __table_args__ = (
        UniqueConstraint("channel_id", "seat", "turn_seq", "kind", name="uq_alert_outbox_turn"),
        Index("ix_alert_outbox_due", "status", "next_at"),
        Index("ix_alert_outbox_room", "room_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    channel_id: Mapped[int] = mapped_column(ForeignKey("alert_channels.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer)
    turn_seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="pending")
    next_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
