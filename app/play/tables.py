"""The tables: rooms, their seats, the append-only event log and state snapshots."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON}


class Room(Base):
    """What a link points to. ``status`` mirrors the log: lobby, playing or finished."""

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    creator_seat: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="lobby", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Seat(Base):
    """One seat of a room: empty, a person (token hash) or a bot."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # a bot playing for the seat's person (or for nobody, once the seat is freed)
    stand_in: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Event(Base):
    """One row of a room's log. ``seq`` is gapless per room; (room, seq) is unique.

    ``data`` is the full record (it may hold the seed or a hidden choice) and never
    leaves the server as is; ``public`` is what anyone in the room may read.
    """

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("room_id", "seq", name="uq_events_room_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Snapshot(Base):
    """An engine ``dump`` of the game in progress as of ``seq``, so loading stays short."""

    __tablename__ = "snapshots"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class Deadline(Base):
    """When a seat to act runs out of time; ``seq`` is the room's seq when it was set.

    ``remind_at`` is when a quarter of the time is left; it is cleared once the
    reminder went out. ``paused_left``: the seat's person is away, the deadline waits
    with these seconds left (``due_at`` is then when the away time ends).
    """

    __tablename__ = "deadlines"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    remind_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    paused_left: Mapped[float | None] = mapped_column(Float, nullable=True)


class Away(Base):
    """A seat whose person is away, mirrored from the log (app/play/away.py), so the
    scheduler finds the away times that run out without reading every room."""

    __tablename__ = "aways"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
