"""The room use cases on a real database: the log, races, snapshots, bots, replay."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.core.errors import ApiError
from app.play import store
from app.play.access import seat_in
from app.play.rooms import RoomRules
from app.play.state import RoomState, fold
from app.play.views import seat_state
from app.services import Services

NO_RULES = RoomRules()


async def _two_seats(
    svc: Services, game: str = "secret", players: int = 2
) -> tuple[str, list[str]]:
    state, token0 = await svc.rooms.create(game, players, {}, "Anna", 0, {}, NO_RULES)
    tokens = [token0]
    for seat in range(1, players):
        _, token = await svc.rooms.claim(state.room.id, seat, f"P{seat}", None)
        tokens.append(token)
    return state.room.id, tokens


async def test_a_game_is_played_to_the_end_and_logged(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    assert state.status == "playing"
    while state.status == "playing":
        seat = state.engine.to_act(state.game)[0]
        state = await services.rooms.move(room, tokens[seat], state.seq, {"n": 3})
    assert state.status == "finished"
    events = await services.rooms.events(room, 0)
    assert [e.seq for e in events] == list(range(1, state.seq + 1))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["room_created", "seat_claimed", "game_started"]
    assert kinds[-1] == "game_over"


async def test_stale_move_is_refused_with_the_current_seq(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    old = state.seq
    state = await services.rooms.move(room, tokens[0], old, {"n": 1})
    with pytest.raises(ApiError) as excinfo:
        await services.rooms.move(room, tokens[1], old, {"n": 1})
    assert excinfo.value.status == 409
    assert excinfo.value.code == "stale"
    assert excinfo.value.extra["seq"] == state.seq


async def test_chat_never_makes_a_move_stale(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    await services.rooms.chat(room, tokens[1], "hello <b>there</b>", 500)
    after = await services.rooms.move(room, tokens[0], state.seq, {"n": 2})
    assert after.game.total == 2


async def test_racing_moves_for_one_seq_store_exactly_one(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    results = await asyncio.gather(
        *(services.rooms.move(room, tokens[0], state.seq, {"n": n}) for n in (1, 2, 3)),
        return_exceptions=True,
    )
    stored = [r for r in results if isinstance(r, RoomState)]
    refused = [r for r in results if isinstance(r, ApiError)]
    assert len(stored) == 1
    assert len(refused) == 2
    assert all(r.code in {"stale", "illegal_move"} for r in refused)
    moves = [e for e in await services.rooms.events(room, 0) if e.kind == "move"]
    assert len(moves) == 1


async def test_racing_moves_from_two_stores_on_one_database(settings: Any) -> None:
    """Two app instances (as two processes would) share one database; one move wins."""
    first, second = Services.build(settings), Services.build(settings)
    await first.start()
    await second.start()
    try:
        room, tokens = await _two_seats(first)
        state = await first.rooms.start(room, tokens[0], None)
        await second.rooms.load(room)
        results = await asyncio.gather(
            first.rooms.move(room, tokens[0], state.seq, {"n": 1}),
            second.rooms.move(room, tokens[0], state.seq, {"n": 2}),
            return_exceptions=True,
        )
        assert sum(isinstance(r, RoomState) for r in results) == 1
        assert sum(isinstance(r, ApiError) and r.code == "stale" for r in results) == 1
        a, b = await first.rooms.load(room), await second.rooms.load(room)
        assert a.seq == b.seq and a.game == b.game
    finally:
        await first.stop()
        await second.stop()


async def test_two_claims_for_one_seat_give_it_to_one(services: Services) -> None:
    state, _ = await services.rooms.create("secret", 3, {}, "Anna", 0, {}, NO_RULES)
    results = await asyncio.gather(
        services.rooms.claim(state.room.id, 1, "Ben", None),
        services.rooms.claim(state.room.id, 1, "Cleo", None),
        return_exceptions=True,
    )
    winners = [r for r in results if not isinstance(r, BaseException)]
    losers = [r for r in results if isinstance(r, ApiError)]
    assert len(winners) == 1
    assert [e.code for e in losers] == ["seat_taken"]


async def test_state_loads_from_snapshot_and_later_events_without_full_replay(
    services: Services,
) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    for _ in range(7):
        seat = state.engine.to_act(state.game)[0]
        state = await services.rooms.move(room, tokens[seat], state.seq, {"n": 1})
    async with services.rooms.db.transaction() as session:
        snapshot = await store.latest_snapshot(session, room)
    assert snapshot is not None
    assert 0 < snapshot.seq < state.seq
    services.rooms.cache.clear()
    reloaded = await services.rooms.load(room)
    assert reloaded.game == state.game
    assert reloaded.seq == state.seq


async def test_the_stored_game_replays_bit_for_bit_from_seed_and_moves(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    while state.status == "playing":
        seat = state.engine.to_act(state.game)[0]
        state = await services.rooms.move(room, tokens[seat], state.seq, {"n": 2})
    events = await services.rooms.events(room, 0)
    started = next(e for e in events if e.kind == "game_started")
    assert started.data["engine"] == "secret"
    assert started.data["version"] == "1"
    replayed = fold(RoomState(room=state.room), events)
    assert replayed.game == state.game
    assert replayed.engine.dump(replayed.game) == state.engine.dump(state.game)


async def test_the_seed_is_never_in_a_public_event_or_state(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    assert state.seed is not None
    events = await services.rooms.events(room, 0)
    seats = await services.rooms.seats(room)
    for seat in (None, 0, 1):
        text = json.dumps(seat_state(state, seats, {}, seat, events))
        assert str(state.seed) not in text
        for other in (0, 1):
            if other != seat:
                assert state.game.words[other] not in text


async def test_bots_play_a_bots_only_game_to_the_end(services: Services) -> None:
    state, token = await services.rooms.create(
        "secret", 3, {}, "Anna", 0, {1: "one", 2: "one"}, NO_RULES
    )
    room = state.room.id
    state = await services.rooms.start(room, token, None)
    for _ in range(50):
        if state.status != "playing":
            break
        if 0 in state.engine.to_act(state.game):
            state = await services.rooms.move(room, token, state.seq, {"n": 1})
        await asyncio.sleep(0.05)
        state = await services.rooms.load(room)
    assert state.status == "finished"


async def test_rematch_keeps_the_seats_and_starts_a_new_game(services: Services) -> None:
    room, tokens = await _two_seats(services)
    state = await services.rooms.start(room, tokens[0], None)
    while state.status == "playing":
        seat = state.engine.to_act(state.game)[0]
        state = await services.rooms.move(room, tokens[seat], state.seq, {"n": 3})
    rematch = await services.rooms.start(room, tokens[0], None)
    assert rematch.status == "playing"
    assert rematch.game_no == 2
    assert rematch.game.total == 0
    assert seat_in(await services.rooms.load(room), tokens[1]) == 1


async def test_shuffled_seats_move_tokens_with_their_players(services: Services) -> None:
    room, tokens = await _two_seats(services, players=4)
    names = {
        seat_in(await services.rooms.load(room), t): s.name
        for t, s in zip(tokens, await services.rooms.seats(room), strict=True)
    }
    await services.rooms.start(room, tokens[0], True)
    seats = await services.rooms.seats(room)
    for token in tokens:
        seat = seat_in(await services.rooms.load(room), token)
        assert seat is not None
        assert seats[seat].name in names.values()
    assert sorted(s.name or "" for s in seats) == sorted(n or "" for n in names.values())


async def test_only_the_creator_starts_unless_the_room_says_so(services: Services) -> None:
    room, tokens = await _two_seats(services)
    with pytest.raises(ApiError) as excinfo:
        await services.rooms.start(room, tokens[1], None)
    assert excinfo.value.code == "not_creator"
    state, _ = await services.rooms.create(
        "secret", 2, {}, "Anna", 0, {}, RoomRules(anyone_can_start=True)
    )
    _, token1 = await services.rooms.claim(state.room.id, 1, "Ben", None)
    started = await services.rooms.start(state.room.id, token1, None)
    assert started.status == "playing"


async def test_room_starts_by_itself_when_the_last_seat_fills(services: Services) -> None:
    state, _ = await services.rooms.create(
        "secret", 2, {}, "Anna", 0, {}, RoomRules(start_when_full=True)
    )
    after, _ = await services.rooms.claim(state.room.id, 1, "Ben", None)
    assert after.status == "playing"


async def test_a_game_cannot_start_with_free_seats(services: Services) -> None:
    state, token = await services.rooms.create("secret", 3, {}, "Anna", 0, {}, NO_RULES)
    with pytest.raises(ApiError) as excinfo:
        await services.rooms.start(state.room.id, token, None)
    assert excinfo.value.code == "seats_free"


async def test_bad_tokens_are_refused(services: Services) -> None:
    room, _ = await _two_seats(services)
    with pytest.raises(ApiError) as excinfo:
        await services.rooms.move(room, "not-a-token", 0, {"n": 1})
    assert excinfo.value.status == 401


async def test_unknown_room_is_404(services: Services) -> None:
    with pytest.raises(ApiError) as excinfo:
        await services.rooms.load("no-such-room")
    assert excinfo.value.status == 404
