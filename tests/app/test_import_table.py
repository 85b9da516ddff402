"""An unfinished game imported as a table: every seat's token for the importer to hand
out, and the time per move the importer chose running from the next move on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.history.records import import_record
from app.play.rooms import RoomRules
from app.services import Services, create_app
from tests.app.records_help import bot_record
from tests.calls import auth

HOUR = 3600


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture(autouse=True)
def test_clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


def _unfinished(game: str = "blokus", players: int = 2, moves: int = 6) -> dict[str, Any]:
    options = {"variant": "duo"} if game == "blokus" else {}
    record = bot_record(game, players, options, seed=3)
    record["moves"] = record["moves"][:moves]
    record["result"] = None
    return record


def test_every_seat_of_an_imported_game_gets_its_own_token_and_plays(
    client: TestClient,
) -> None:
    made = client.post("/api/records", json=_unfinished("m", 3, moves=4)).json()
    room, seats = made["room"], made["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert len({s["token"] for s in seats}) == 3
    for seat in seats:
        state = client.get(f"/api/rooms/{room}/state", headers=auth(seat["token"])).json()
        assert state["you"] == seat["seat"], "each link opens its own seat"


def test_an_imported_table_keeps_the_time_per_move_it_was_given(client: TestClient) -> None:
    made = client.post(
        "/api/records?turn_seconds=86400&on_timeout=bot_seat&stand_in=random",
        json=_unfinished(),
    )
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    info = client.get(f"/api/rooms/{room}").json()
    assert info["rules"]["turn_seconds"] == 86400 and info["rules"]["on_timeout"] == "bot_seat"
    clocks = client.get(f"/api/rooms/{room}/deadlines").json()
    assert clocks["turn_seconds"] == 86400
    assert [d["seat"] for d in clocks["deadlines"]] == [0], "the seat to move has a deadline"
    assert 86000 < clocks["deadlines"][0]["left"] <= 86400


@pytest.mark.parametrize(
    "query",
    [
        "turn_seconds=5",
        "turn_seconds=99999999999999999999",
        "on_timeout=nap",
        "stand_in=clever",
        "stand_in=%00",
        "turn_seconds=3600&turn_seconds=7200",
        "colour=red",
    ],
)
def test_an_import_with_settings_out_of_range_is_refused_and_makes_no_room(
    client: TestClient, query: str
) -> None:
    refused = client.post(f"/api/records?{query}", json=_unfinished())
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] in ("malformed", "unknown_bot") and refused.json()["message"]


async def test_an_imported_games_deadline_fires_and_the_stand_in_plays(
    services: Services,
) -> None:
    rules = RoomRules(turn_seconds=HOUR, on_timeout="bot_seat", stand_in="random")
    state, tokens = await import_record(services.rooms, _unfinished(), rules=rules)
    assert len(tokens) == 2
    clock.advance(HOUR + 1)
    await services.deadlines.tick()
    events = [e.public for e in await services.rooms.events(state.room.id, state.seq)]
    # the old name "random" is taken as the level it stands for
    assert {"seat": 0, "name": "Anna", "bot": "easy", "reason": "timeout", "once": False} in (
        events
    )
