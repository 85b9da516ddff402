"""The move path's shortcuts, each held to what it must keep true.

A move on a cached room writes one INSERT, past SQLAlchemy, and reads nothing back; the cache keeps
each room's newest events for pushes; a refusal on an unchecked cache is checked
against the log first; rooms without alerts skip the outbox; the in-process
doorbell of a Redis process does not push twice; another process folds in the events
a bell carries instead of reading them (a bell carries them only when it travels); the
seat to act gets each push first.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from app.core.errors import ApiError
from app.live.hub import Connection
from app.play import store as store_module
from app.play.access import hash_token
from app.play.cache import StateCache
from app.play.rooms import RoomRules
from app.play.state import RoomState, from_snapshot, to_snapshot
from app.play.store import EventRecord, RoomRecord
from app.services import Services

NO_RULES = RoomRules()


class RoomyCache(StateCache):
    def __init__(self) -> None:
        super().__init__(size=1_000_000)


async def _started(svc: Services) -> tuple[RoomState, list[str]]:
    # the database is shared with other tests' rooms, which background work may load:
    # a cache that can't overflow keeps this room in it
    if not isinstance(svc.rooms.cache, RoomyCache):
        svc.rooms.cache = RoomyCache()
    state, anna = await svc.rooms.create("secret", 2, {}, "Anna", 0, {}, NO_RULES)
    _, ben = await svc.rooms.claim(state.room.id, 1, "Ben", None)
    return await svc.rooms.start(state.room.id, anna, None), [anna, ben]


@contextmanager
def statements(svc: Services, room: str) -> Iterator[list[str]]:
    """Every SQL statement about ``room`` that ``svc`` sends while the block runs
    (the database is shared: background work on other rooms is left out)."""
    seen: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if room in repr(parameters):
            seen.append(" ".join(statement.split()).upper())

    event.listen(svc.engine.sync_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(svc.engine.sync_engine, "before_cursor_execute", note)


async def test_a_move_on_a_cached_room_goes_past_sqlalchemy_and_its_push_reads_nothing(
    services: Services,
) -> None:
    state, tokens = await _started(services)
    seat = state.engine.to_act(state.game)[0]
    with statements(services, state.room.id) as sent:
        after = await services.rooms.move(state.room.id, tokens[seat], state.seq, {"n": 1})
        # what a push to this room's sockets asks for: the state and the new events
        pushed = await services.rooms.at_least(state.room.id, after.seq)
        events = await services.rooms.events_upto(state.room.id, state.seq, after.seq)
    assert pushed is after
    assert [e.kind for e in events] == ["move"]
    assert [e.seq for e in events] == [after.seq]
    # the append goes in on the store's own connection (SQLite's store._InlineWriter,
    # PostgreSQL's store._HeldConnection), out of SQLAlchemy's sight: nothing at all
    # goes through SQLAlchemy (test_store_staged.py reads the rows back)
    assert sent == []


async def test_a_move_refused_on_a_stale_cache_is_judged_again_on_the_log(
    settings: Any,
) -> None:
    """Process B's cache is a move behind: B answers what the log says (stale), not
    what its old state would (not your turn), and a stale move is refused as stale."""
    first, second = Services.build(settings), Services.build(settings)
    await first.start()
    await second.start()
    try:
        state, tokens = await _started(first)
        room = state.room.id
        await second.rooms.load(room)  # B caches the room at the start
        mover = state.engine.to_act(state.game)[0]
        moved = await first.rooms.move(room, tokens[mover], state.seq, {"n": 1})
        other = 1 - mover
        # the other seat saw the start only: on B's cache it is not its turn yet
        with pytest.raises(ApiError) as refused:
            await second.rooms.move(room, tokens[other], state.seq, {"n": 1})
        assert refused.value.code == "stale"
        assert refused.value.body().get("seq") == moved.seq
        # the mover again, from the same old seq: legal on B's cache, lost on the log
        with pytest.raises(ApiError) as again:
            await second.rooms.move(room, tokens[mover], state.seq, {"n": 1})
        assert again.value.code == "stale"
        # and B now has the log's state: the right seat moves on it at once
        done = await second.rooms.move(room, tokens[other], moved.seq, {"n": 2})
        assert done.seq == moved.seq + 1
        assert (await first.rooms.load(room)).game == done.game
    finally:
        await first.stop()
        await second.stop()


async def test_another_process_folds_the_events_its_bell_carries_and_reads_nothing(
    settings: Any,
) -> None:
    """The bell of a move on process A carries the events; process B, holding the room
    at the seq before, folds them in: the push on B reads nothing from the database,
    and B's state and events are the ones the log reads back."""
    first, second = Services.build(settings), Services.build(settings)
    bells: list[dict[str, Any]] = []

    async def heard(room_id: str, message: dict[str, Any]) -> None:
        bells.append(message)

    first.doorbell.listen(heard)
    # the two share no Redis here: say bells travel, as they do with REDIS_URL
    first.rooms.bells_travel = True
    await first.start()
    await second.start()
    try:
        state, tokens = await _started(first)
        room = state.room.id
        # creating, claiming and starting ring bare bells: a seed or a token hash never
        # leaves the database for Redis
        assert [sorted(bell) for bell in bells] == [["seq"]] * 3
        second.rooms.cache = RoomyCache()
        await second.rooms.load(room)
        for n in (1, 2, 3):
            before = await first.rooms.load(room)
            mover = before.engine.to_act(before.game)[0]
            moved = await first.rooms.move(room, tokens[mover], before.seq, {"n": n})
            bell = bells[-1]
            assert bell["seq"] == moved.seq and [e["seq"] for e in bell["events"]] == [moved.seq]
            with statements(second, room) as sent:
                assert second.rooms.offer(room, bell["events"])
                pushed = await second.rooms.at_least(room, moved.seq)
                events = await second.rooms.events_upto(room, before.seq, moved.seq)
            assert sent == [], sent
            assert pushed.seq == moved.seq and pushed.game == moved.game
            assert to_snapshot(pushed) == to_snapshot(moved)
            assert events == await first.rooms.events(room, before.seq)
        # a bell heard already, one with a gap and one nobody can read change nothing
        assert not second.rooms.offer(room, bells[-1]["events"])
        assert not second.rooms.offer(room, [{**bells[-1]["events"][0], "seq": moved.seq + 2}])
        assert not second.rooms.offer(room, [{"seq": moved.seq + 1}])
        assert not second.rooms.offer(room, "junk")
        assert (await second.rooms.at_least(room, moved.seq)).seq == moved.seq
        # with no other process to hear it, a move's bell is bare: nobody folds its events
        first.rooms.bells_travel = False
        before = await first.rooms.load(room)
        mover = before.engine.to_act(before.game)[0]
        await first.rooms.move(room, tokens[mover], before.seq, {"n": 1})
        assert bells[-1] == {"seq": before.seq + 1}
    finally:
        await first.stop()
        await second.stop()


async def test_a_room_without_alerts_queues_none_and_one_with_them_does(
    services: Services,
) -> None:
    state, tokens = await _started(services)
    assert not state.alerts
    seat = state.engine.to_act(state.game)[0]
    with statements(services, state.room.id) as sent:
        state = await services.rooms.move(state.room.id, tokens[seat], state.seq, {"n": 1})
    assert not [s for s in sent if "ALERT" in s], sent

    async def nothing(_session: Any) -> None:
        return None

    noted = await services.rooms.note(state.room.id, "alerts_on", nothing)
    assert noted.alerts and noted.seq == state.seq + 1
    seat = noted.engine.to_act(noted.game)[0]
    with statements(services, noted.room.id) as sent:
        await services.rooms.move(noted.room.id, tokens[seat], noted.seq, {"n": 1})
    assert [s for s in sent if "ALERT" in s], sent
    # the flag survives a snapshot, and a snapshot written before it existed assumes alerts
    kept = to_snapshot(noted)
    assert from_snapshot(noted.room, noted.seq, kept).alerts
    del kept["alerts"]
    assert from_snapshot(noted.room, noted.seq, kept).alerts


def _record(seq: int) -> EventRecord:
    return EventRecord(seq=seq, kind="chat", data={}, public={}, created_at=None)


def test_the_cache_keeps_a_rooms_newest_events_without_gaps() -> None:
    room = RoomRecord(
        id="r",
        game="secret",
        players=2,
        options={},
        rules={},
        creator_seat=0,
        status="lobby",
        created_at=None,
    )
    cache = StateCache(events=4)
    cache.put(RoomState(room=room, seq=2), [_record(1), _record(2)])
    assert [e.seq for e in cache.events("r", 0, 2) or []] == [1, 2]
    for seq in range(3, 8):
        cache.put(RoomState(room=room, seq=seq), [_record(seq)])
    assert [e.seq for e in cache.events("r", 3, 7) or []] == [4, 5, 6, 7]
    assert cache.events("r", 2, 7) is None  # seq 3 is no longer kept: ask the log
    assert cache.events("r", 7, 7) == []
    # a state put without the events that led to it drops the kept ones
    cache.put(RoomState(room=room, seq=9), [])
    assert cache.events("r", 8, 9) is None
    # an older state never replaces a newer one
    cache.put(RoomState(room=room, seq=5), [_record(5)])
    cached = cache.get("r")
    assert cached is not None and cached.seq == 9


async def test_what_a_push_hands_on_equals_what_the_log_reads_back(services: Services) -> None:
    """The appended rows travel from the cache; the log, read back, says the same."""
    state, tokens = await _started(services)
    seat = state.engine.to_act(state.game)[0]
    after = await services.rooms.move(state.room.id, tokens[seat], state.seq, {"n": 2})
    kept = await services.rooms.events_upto(state.room.id, state.seq, after.seq)
    read = await services.rooms.events(state.room.id, state.seq)
    assert [(e.seq, e.kind, e.data, e.public) for e in kept] == [
        (e.seq, e.kind, e.data, e.public) for e in read
    ]
    for mine, logged in zip(kept, read, strict=True):
        assert mine.created_at is not None and logged.created_at is not None
        assert logged.created_at.utcoffset() is not None  # UTC, with its offset
        # PostgreSQL keeps microseconds, as SQLite's text does
        assert abs((mine.created_at - logged.created_at).total_seconds()) < 0.001


async def test_moves_of_many_rooms_at_once_are_all_kept_and_a_failing_one_alone_is_lost(
    services: Services,
) -> None:
    """Concurrent appends share a commit (Store.write); a write that fails
    spoils only itself, and two moves racing in one room still end with one winner."""
    tables = [await _started(services) for _ in range(6)]
    doomed = tables[0][0].room.id

    async def refuse(_session: Any, _before: RoomState, after: RoomState) -> None:
        if after.room.id == doomed and after.seq > tables[0][0].seq:
            raise RuntimeError("this room's write fails")

    services.rooms.on_append.append(refuse)
    try:

        def move(i: int, n: int) -> Any:
            state, tokens = tables[i]
            seat = state.engine.to_act(state.game)[0]
            return services.rooms.move(state.room.id, tokens[seat], state.seq, {"n": n})

        results = await asyncio.gather(
            *(move(i, 1) for i in range(6)), move(1, 2), return_exceptions=True
        )
    finally:
        services.rooms.on_append.remove(refuse)
    assert isinstance(results[0], RuntimeError)
    # room 1 had two moves for one seq: exactly one of them is kept, the other is stale
    racing = [results[1], results[6]]
    assert sum(isinstance(r, RoomState) for r in racing) == 1
    assert sum(isinstance(r, ApiError) and r.code == "stale" for r in racing) == 1
    for i in range(2, 6):
        assert isinstance(results[i], RoomState), results[i]
    for i, (state, _) in enumerate(tables):
        services.rooms.cache.clear()
        logged = await services.rooms.load(state.room.id)
        assert logged.seq == state.seq + (0 if i == 0 else 1)
        moves = [e for e in await services.rooms.events(state.room.id, 0) if e.kind == "move"]
        assert len(moves) == (0 if i == 0 else 1)


async def test_moves_of_several_rooms_share_one_insert_and_commit(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [await _started(services) for _ in range(5)]
    inserts: list[int] = []
    # the rows of a group go in one way of four: through SQLAlchemy (a write that needs
    # its session), on the event loop's own SQLite connection, through the SQLite
    # driver's thread when the database is busy, or on PostgreSQL's held connection
    real = store_module._insert_rows
    real_inline = store_module._InlineWriter.write
    real_driver = store_module._commit_on_sqlite
    real_held = store_module._HeldConnection.write

    async def counting(connection: Any, rows: list[dict[str, Any]]) -> None:
        inserts.append(len(rows))
        await real(connection, rows)

    def counting_inline(writer: Any, rows: list[dict[str, Any]]) -> bool:
        written = real_inline(writer, rows)
        if written:
            inserts.append(len(rows))
        return written

    async def counting_driver(engine: Any, rows: list[dict[str, Any]]) -> None:
        inserts.append(len(rows))
        await real_driver(engine, rows)

    async def counting_held(writer: Any, rows: list[dict[str, Any]]) -> None:
        inserts.append(len(rows))
        await real_held(writer, rows)

    monkeypatch.setattr(store_module, "_insert_rows", counting)
    monkeypatch.setattr(store_module._HeldConnection, "write", counting_held)
    monkeypatch.setattr(store_module._InlineWriter, "write", counting_inline)
    monkeypatch.setattr(store_module, "_commit_on_sqlite", counting_driver)
    results = await asyncio.gather(
        *(
            services.rooms.move(
                state.room.id, tokens[state.engine.to_act(state.game)[0]], state.seq, {"n": 1}
            )
            for state, tokens in tables
        )
    )
    assert all(r.seq == t[0].seq + 1 for r, t in zip(results, tables, strict=True))
    assert inserts == [5]  # one statement (and one commit) for all five rooms


class _Socket:
    """A socket's far end that writes down what it is sent, in one list for all."""

    def __init__(
        self, seat: int, sent: list[tuple[int, dict[str, Any]]], arrived: asyncio.Event
    ) -> None:
        self.seat, self.sent, self.arrived = seat, sent, arrived

    async def send_text(self, text: str) -> None:
        self.sent.append((self.seat, json.loads(text)))
        self.arrived.set()

    async def close(self, code: int = 1000) -> None:
        raise AssertionError(f"seat {self.seat}'s socket closed ({code})")


async def test_the_seat_to_act_gets_each_push_first(services: Services) -> None:
    """After every move the player who must move next is sent the new state before the
    one who just moved: whichever order the hub holds their sockets in, each of two
    moves in a row (one by each seat) reaches the next mover first."""
    state, tokens = await _started(services)
    room = state.room.id
    sent: list[tuple[int, dict[str, Any]]] = []
    arrived = asyncio.Event()
    services.hub._conns[room] = {
        Connection(
            ws=_Socket(seat, sent, arrived),  # type: ignore[arg-type]
            room_id=room,
            token_hash=hash_token(tokens[seat]),
            last_seq=state.seq,
            seat=seat,
        )
        for seat in (0, 1)
    }
    try:
        for n in (1, 2):
            mover = state.engine.to_act(state.game)[0]
            state = await services.rooms.move(room, tokens[mover], state.seq, {"n": n})
            async with asyncio.timeout(10):  # a hang guard: the push comes at once
                while len([s for s, m in sent if m["seq"] == state.seq]) < 2:
                    await arrived.wait()
                    arrived.clear()
            order = [s for s, m in sent if m["seq"] == state.seq]
            assert order == [1 - mover, mover], (n, order)
    finally:
        services.hub._conns.pop(room, None)
