"""The state cache: recently used room states with their newest events, so a load is one
query (or none) and a push can hand a socket what it hasn't seen without a read."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from app.play import store
from app.play.state import RoomState


class StateCache:
    """Recently used room states, each with its newest events; only a cache: the log is
    the truth.

    The events kept are consecutive and end at the state's ``seq``, so a push can hand
    a socket what it hasn't seen without asking the database.
    """

    def __init__(self, size: int = 2000, events: int = 16) -> None:
        self._size = size
        self._keep = events
        self._items: OrderedDict[str, tuple[RoomState, tuple[store.EventRecord, ...]]] = (
            OrderedDict()
        )

    def get(self, room_id: str) -> RoomState | None:
        item = self._items.get(room_id)
        if item is None:
            return None
        self._items.move_to_end(room_id)
        return item[0]

    def put(self, state: RoomState, events: Sequence[store.EventRecord] = ()) -> None:
        """Keep ``state``; ``events`` are the ones that led to it (ending at its seq)."""
        room_id = state.room.id
        current = self._items.get(room_id)
        if current is not None and current[0].seq > state.seq:
            return
        kept: tuple[store.EventRecord, ...] = ()
        if events and events[-1].seq == state.seq:
            if current is not None and current[1] and current[1][-1].seq == events[0].seq - 1:
                kept = (*current[1], *events)
            else:
                kept = tuple(events)
            kept = kept[-self._keep :]
        elif current is not None and current[0].seq == state.seq:
            kept = current[1]
        self._items[room_id] = (state, kept)
        self._items.move_to_end(room_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def events(self, room_id: str, after: int, upto: int) -> list[store.EventRecord] | None:
        """The events ``after < seq <= upto`` if all of them are kept, else ``None``."""
        item = self._items.get(room_id)
        if item is None or after >= upto:
            return [] if after >= upto else None
        kept = item[1]
        if not kept or kept[0].seq > after + 1 or kept[-1].seq < upto:
            return None
        return [e for e in kept if after < e.seq <= upto]

    def clear(self) -> None:
        self._items.clear()
