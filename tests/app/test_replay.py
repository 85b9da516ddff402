"""Replay through the API: every step equals the engine's state, and shows only what it may."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.history.records import import_record
from app.history.replay import Replays, tally
from app.services import Services, create_app
from engines import get_engine
from tests.app.records_help import digest, from_golden, golden
from tests.calls import auth

GOLDEN_FILES = [
    "blokus-4p.json",
    "blokus-2p-duo.json",
    "m-3p.json",
    "m-6p.json",
    "maedn-2p.json",
    "maedn-4p.json",
]


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    return dict(body)


@pytest.mark.parametrize("name", GOLDEN_FILES)
async def test_every_golden_step_rebuilt_by_the_replay_equals_the_engine_state(
    services: Services, name: str
) -> None:
    data = golden(name)
    state, _ = await import_record(services.rooms, from_golden(data))
    engine = get_engine(data["game"])
    replays = Replays(services.rooms)
    entry = await replays.game(state.room.id, 1)
    assert entry.steps == len(data["steps"]) and entry.over
    # backwards, then every third step from a cold cache: snapshots and the cache both used
    for step in range(entry.steps, 0, -1):
        game = await replays.state_at(state.room.id, entry, step)
        assert digest(engine.dump(game)) == data["steps"][step - 1]["state"], f"step {step}"
    cold = Replays(services.rooms)
    for step in range(1, entry.steps + 1, 3):
        game = await cold.state_at(state.room.id, entry, step)
        assert digest(engine.dump(game)) == data["steps"][step - 1]["state"], f"step {step}"
    start = await cold.state_at(state.room.id, entry, 0)
    assert start == engine.new_game(data["players"], data["seed"], data["options"])


@pytest.mark.parametrize("name", ["m-3p.json", "blokus-2p-duo.json", "maedn-2p.json"])
def test_every_golden_step_served_over_rest_is_the_engine_view(
    client: TestClient, name: str
) -> None:
    data = golden(name)
    made = client.post("/api/records", json=from_golden(data))
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    token = made.json()["seats"][1]["token"]
    engine = get_engine(data["game"])
    state = engine.new_game(data["players"], data["seed"], data["options"])
    for step in range(len(data["steps"]) + 1):
        if step:
            played = data["steps"][step - 1]
            state = engine.play(state, played["seat"], played["move"])
        got = client.get(f"/api/rooms/{room}/games/1/steps/{step}", headers=auth(token)).json()
        assert got["view"] == engine.view(state, 1)
        assert got["to_act"] == engine.to_act(state)
        seen = client.get(f"/api/rooms/{room}/games/1/steps/{step}?as=0").json()
        assert seen["view"] == engine.view(state, 0)
    assert got["result"] == data["result"]


def _play_room(client: TestClient, game: str, players: int, moves: int | None) -> dict[str, Any]:
    """A room of people playing the first legal move; stops after ``moves`` (None: the end)."""
    made = client.post("/api/rooms", json={"game": game, "players": players, "name": "Anna"})
    room, tokens = made.json()["room"], [made.json()["token"]]
    for seat in range(1, players):
        claimed = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": f"P{seat}"})
        tokens.append(claimed.json()["token"])
    state = client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).json()
    played = 0
    while state["result"] is None and (moves is None or played < moves):
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[seat])).json()
        sent = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=auth(tokens[seat]),
        )
        assert sent.status_code == 200, sent.text
        state = sent.json()
        played += 1
    return {"room": room, "tokens": tokens, "played": played}


def test_a_running_card_game_replays_only_what_each_seat_may_see(client: TestClient) -> None:
    game = _play_room(client, "m", 3, 12)
    room, tokens = game["room"], game["tokens"]
    info = client.get(f"/api/rooms/{room}/games/1", headers=auth(tokens[1])).json()
    assert info["status"] == "playing" and info["you"] == 1 and info["steps"] == 12
    assert "seed" not in info and "salt" not in info and len(info["commitment"]) == 64
    for step in (0, 5, 12):
        spectator = client.get(f"/api/rooms/{room}/games/1/steps/{step}").json()
        assert spectator["view"]["hand"] is None and spectator["seen_as"] is None
        own = client.get(f"/api/rooms/{room}/games/1/steps/{step}", headers=auth(tokens[1]))
        assert own.json()["view"]["hand"] is not None and own.json()["seen_as"] == 1
        # no draw is told before the end, not even the asker's own
        assert spectator["draws"] is None and own.json()["draws"] is None
        for other in (0, 2):
            _error(
                client.get(
                    f"/api/rooms/{room}/games/1/steps/{step}?as={other}",
                    headers=auth(tokens[1]),
                ),
                403,
                "hidden_until_over",
            )
        _error(client.get(f"/api/rooms/{room}/games/1/steps/{step}?as=0"), 403, "hidden_until_over")
    assert all("draws" not in move for move in info["moves"])
    _error(client.get(f"/api/rooms/{room}/games/1/record"), 409, "game_running")
    log = client.get(f"/api/rooms/{room}/events").json()["events"]
    started = next(e for e in log if e["kind"] == "game_started")
    assert "seed" not in started and "salt" not in started
    assert started["commitment"] == info["commitment"]


def test_a_finished_card_game_reveals_every_hand_at_every_step(client: TestClient) -> None:
    game = _play_room(client, "m", 2, None)
    room = game["room"]
    record = client.get(f"/api/rooms/{room}/games/1/record").json()
    engine = get_engine("m")
    state = engine.new_game(2, int(record["seed"]), record["options"])
    for step, entry in enumerate(record["moves"], start=1):
        state = engine.play(state, entry["seat"], entry["move"])
        if step % 7 and step != len(record["moves"]):
            continue
        for seat in (0, 1):
            seen = client.get(f"/api/rooms/{room}/games/1/steps/{step}?as={seat}").json()
            assert seen["view"] == engine.view(state, seat)
            assert seen["view"]["hand"] is not None
    info = client.get(f"/api/rooms/{room}/games/1").json()
    assert info["status"] == "finished" and info["seed"] == record["seed"]
    assert info["moves"][0]["step"] == 1 and "log" in info["moves"][0]


@pytest.mark.parametrize(("game", "players"), [("maedn", 2), ("m", 3)])
def test_a_finished_card_game_reveals_each_draw_only_after_the_end(
    client: TestClient, game: str, players: int
) -> None:
    running = _play_room(client, game, players, 9)
    room, tokens = running["room"], running["tokens"]
    for step in range(10):
        for headers in ({}, auth(tokens[0])):
            got = client.get(f"/api/rooms/{room}/games/1/steps/{step}", headers=headers).json()
            assert got["draws"] is None
    info = client.get(f"/api/rooms/{room}/games/1", headers=auth(tokens[0])).json()
    assert all("draws" not in move for move in info["moves"])
    # the same table plays on to the end: now every draw is told, step by step and in the list
    state = client.get(f"/api/rooms/{room}/state").json()
    while state["result"] is None:
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[seat])).json()
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=auth(tokens[seat]),
        ).json()
    record = client.get(f"/api/rooms/{room}/games/1/record").json()
    engine = get_engine(game)
    before = engine.new_game(players, int(record["seed"]), record["options"])
    expected = []
    for entry in record["moves"]:
        after = engine.play(before, entry["seat"], entry["move"])
        expected.append(engine.draws(before, entry["seat"], entry["move"], after))
        before = after
    assert sum(len(d) for d in expected) > 0
    info = client.get(f"/api/rooms/{room}/games/1").json()
    assert [move["draws"] for move in info["moves"]] == expected
    # a step's draws are the cards its move drew, in whoever's hand they went
    for step in [0, 1, 2, 5, len(expected) // 2, len(expected)]:
        got = client.get(f"/api/rooms/{room}/games/1/steps/{step}").json()
        assert got["draws"] == ([] if step == 0 else expected[step - 1]), f"step {step}"
    assert all(d["seat"] in range(players) and d["card"] is not None for d in expected[0])


def test_room_history_lists_every_game_with_results_and_a_running_tally(
    client: TestClient,
) -> None:
    game = _play_room(client, "blokus", 2, None)
    room, tokens = game["room"], game["tokens"]
    client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    history = client.get(f"/api/rooms/{room}/games").json()
    assert [g["status"] for g in history["games"]] == ["finished", "playing"]
    first = history["games"][0]
    assert first["names"] == ["Anna", "P1"] and first["result"]["ranks"]
    winners = [n for n, r in zip(first["names"], first["result"]["ranks"], strict=True) if r == 1]
    tally = {t["name"]: t["wins"] for t in history["tally"]}
    assert tally == {n: (1 if n in winners else 0) for n in ("Anna", "P1")}
    assert first["bots"] == [None, None]
    assert all("bot" not in entry for entry in history["tally"])
    moves = [
        e for e in client.get(f"/api/rooms/{room}/events").json()["events"] if e["kind"] == "move"
    ]
    assert moves and all("stand_in" not in e for e in moves), "people's own moves are theirs"
    _error(client.get(f"/api/rooms/{room}/games/3"), 404, "no_such_game")
    _error(client.get(f"/api/rooms/{room}/games/1/steps/9999"), 404, "no_such_step")
    _error(client.get("/api/rooms/nope/games"), 404, "room_not_found")


def test_the_tally_says_which_names_are_bots_for_the_page_to_translate() -> None:
    names = [("Anna", "Strong"), ("Anna", "Strong")]
    bots = [(None, "strong"), (None, "strong")]
    results = [{"ranks": [2, 1]}, None]
    assert tally(names, results, bots) == [
        {"name": "Strong", "wins": 1, "bot": "strong"},
        {"name": "Anna", "wins": 0},
    ]


def test_a_replay_shows_each_game_as_the_seats_were_in_it(client: TestClient) -> None:
    """A finished game knows who sat where at its end; a running one follows today's
    seats, so after a shuffled rematch each token sees its own seat in each game."""
    made = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "Anna"})
    room, anna = made.json()["room"], made.json()["token"]
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    client.post(f"/api/rooms/{room}/start", headers=auth(anna)).raise_for_status()
    for game_no in range(1, 40):
        state = client.get(f"/api/rooms/{room}/state").json()
        while state["result"] is None:
            mover = [anna, ben][state["to_act"][0]] if game_no == 1 else None
            if mover is None:  # after a rematch: whoever the shuffle put in the seat to act
                mover = next(
                    t
                    for t in (anna, ben)
                    if client.get(f"/api/rooms/{room}/state", headers=auth(t)).json()["you"]
                    == state["to_act"][0]
                )
            state = client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": state["seq"], "move": {"n": 3}},
                headers=auth(mover),
            ).json()
        rematch = client.post(
            f"/api/rooms/{room}/start", json={"shuffle": True}, headers=auth(anna)
        )
        if rematch.json()["you"] == 1:
            break
    else:
        raise AssertionError("no shuffle ever moved Anna to seat 1")
    latest = rematch.json()["room"]["game_no"]
    words = client.portal.call(client.app.state.services.rooms.load, room).game.words  # type: ignore[attr-defined]
    for token, before, now in ((anna, 0, 1), (ben, 1, 0)):
        assert client.get(f"/api/rooms/{room}/games/1", headers=auth(token)).json()["you"] == before
        running = client.get(f"/api/rooms/{room}/games/{latest}", headers=auth(token)).json()
        assert running["you"] == now
        step = client.get(f"/api/rooms/{room}/games/{latest}/steps/0", headers=auth(token)).json()
        assert step["seen_as"] == now and step["view"]["mine"] == words[now]
        _error(
            client.get(
                f"/api/rooms/{room}/games/{latest}/steps/0?as={before}", headers=auth(token)
            ),
            403,
            "hidden_until_over",
        )
