"""The REST API in process: paths, bodies, and one error shape for every failure."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from tests.calls import auth


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings.model_copy(update={"rooms_per_minute": 5}))) as client:
        yield client


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    return dict(body)


def _room(client: TestClient, players: int = 2, **extra: Any) -> tuple[str, str]:
    response = client.post(
        "/api/rooms", json={"game": "secret", "players": players, "name": "Anna", **extra}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["url"].endswith(f"/r/{body['room']}")
    return body["room"], body["token"]


def test_healthz_and_games(client: TestClient) -> None:
    health = client.get("/healthz").json()
    assert health["status"] == "ok"
    assert health["checks"]["database"] == {"status": "ok"}
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert "blokus" in games
    for game in games.values():
        assert game["min_players"] <= game["max_players"]
        assert game["player_counts"]
        assert isinstance(game["options"], list)


def test_games_say_whether_they_hide_information_and_which_files_they_write(
    client: TestClient,
) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["blokus"]["hidden_information"] is False
    assert games["m"]["hidden_information"] is True
    assert games["maedn"]["hidden_information"] is True
    assert games["blokus"]["record_formats"] == [
        {
            "name": "blksgf",
            "title": "Pentobi file (.blksgf)",
            "media_type": "application/x-blokus-sgf",
            "suffix": ".blksgf",
        }
    ]
    assert games["m"]["record_formats"] == games["maedn"]["record_formats"] == []


def test_a_whole_game_over_rest(client: TestClient) -> None:
    room, anna = _room(client)
    claimed = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"})
    assert claimed.status_code == 200
    ben = claimed.json()["token"]
    state = client.post(f"/api/rooms/{room}/start", headers=auth(anna)).json()
    tokens = [anna, ben]
    while state["result"] is None:
        seat = state["to_act"][0]
        mine = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[seat])).json()
        assert mine["you"] == seat
        move = mine["legal_moves"][-1]
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": move},
            headers=auth(tokens[seat]),
        ).json()
    assert state["room"]["status"] == "finished"
    log = client.get(f"/api/rooms/{room}/events", params={"after": 0}).json()
    assert [e["kind"] for e in log["events"]][-1] == "game_over"
    assert all("seed" not in e for e in log["events"])


def test_spectator_state_has_no_hand_and_no_moves(client: TestClient) -> None:
    room, anna = _room(client)
    client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"})
    client.post(f"/api/rooms/{room}/start", headers=auth(anna))
    state = client.get(f"/api/rooms/{room}/state").json()
    assert state["you"] is None
    assert state["view"]["mine"] is None, "the spectator received a seat's secret word"
    assert state["legal_moves"] == []


def test_errors_have_one_shape(client: TestClient) -> None:
    room, anna = _room(client)
    _error(client.get("/api/rooms/nope"), 404, "room_not_found")
    _error(client.post("/api/rooms", json={"game": "secret"}), 400, "malformed")
    _error(
        client.post(
            "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
        ),
        400,
        "malformed",
    )
    _error(
        client.post("/api/rooms", json={"game": "chess", "players": 2, "name": "A"}),
        400,
        "unknown_game",
    )
    _error(
        client.post("/api/rooms", json={"game": "secret", "players": 9, "name": "A"}),
        400,
        "bad_players",
    )
    _error(
        client.post(
            "/api/rooms", json={"game": "secret", "players": 2, "name": "A", "options": {"x": 1}}
        ),
        400,
        "unknown_option",
    )
    _error(
        client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "   "}),
        400,
        "bad_name",
    )
    _error(
        client.get(f"/api/rooms/{room}/state", headers={"Authorization": "Bearer wrong"}),
        401,
        "bad_token",
    )
    _error(
        client.get(f"/api/rooms/{room}/state", headers={"Authorization": "Basic xyz"}),
        401,
        "bad_token",
    )
    _error(client.post(f"/api/rooms/{room}/start", headers=auth(anna)), 409, "seats_free")
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    _error(client.post(f"/api/rooms/{room}/seats/1", json={"name": "Cleo"}), 409, "seat_taken")
    _error(
        client.post(f"/api/rooms/{room}/seats/0", json={"name": "Ben"}, headers=auth(ben)),
        409,
        "already_seated",
    )
    _error(client.post(f"/api/rooms/{room}/seats/7", json={"name": "Dan"}), 404, "no_such_seat")
    _error(client.post(f"/api/rooms/{room}/start", headers=auth(ben)), 403, "not_creator")
    state = client.post(f"/api/rooms/{room}/start", headers=auth(anna)).json()
    seq = state["seq"]
    _error(
        client.post(f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 2}}),
        401,
        "no_token",
    )
    _error(
        client.post(
            f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 2}}, headers=auth(ben)
        ),
        422,
        "illegal_move",
    )
    _error(
        client.post(
            f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 9}}, headers=auth(anna)
        ),
        400,
        "malformed_move",
    )
    _error(
        client.post(f"/api/rooms/{room}/moves", json={"seq": seq}, headers=auth(anna)),
        400,
        "malformed",
    )
    _error(
        client.post(
            f"/api/rooms/{room}/moves", json={"seq": seq + 5, "move": {"n": 1}}, headers=auth(anna)
        ),
        400,
        "bad_seq",
    )
    client.post(f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 1}}, headers=auth(anna))
    stale = _error(
        client.post(
            f"/api/rooms/{room}/moves", json={"seq": seq, "move": {"n": 1}}, headers=auth(ben)
        ),
        409,
        "stale",
    )
    assert stale["seq"] == seq + 1
    _error(
        client.post(f"/api/rooms/{room}/chat", json={"text": "x" * 501}, headers=auth(ben)),
        413,
        "chat_too_long",
    )
    _error(client.post(f"/api/rooms/{room}/chat", json={"text": "hi"}), 401, "no_token")
    _error(
        client.post(
            "/api/rooms", content=b"x" * 20_000, headers={"content-type": "application/json"}
        ),
        413,
        "too_large",
    )


def test_room_creation_is_limited_per_client_address(client: TestClient) -> None:
    for _ in range(5):
        _room(client)
    _error(
        client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "A"}),
        429,
        "too_many_rooms",
    )


def test_chat_is_stored_as_plain_text(client: TestClient) -> None:
    room, anna = _room(client)
    response = client.post(
        f"/api/rooms/{room}/chat", json={"text": "<script>x</script>"}, headers=auth(anna)
    )
    assert response.status_code == 200
    events = client.get(f"/api/rooms/{room}/events").json()["events"]
    assert events[-1] == {
        **events[-1],
        "kind": "chat",
        "seat": 0,
        "name": "Anna",
        "text": "<script>x</script>",
    }


def test_creator_marks_free_seats_as_bots(client: TestClient) -> None:
    room, anna = _room(client, players=3)
    info = client.post(
        f"/api/rooms/{room}/seats/2/bot", json={"bot": "one"}, headers=auth(anna)
    ).json()
    assert info["seats"][2]["kind"] == "bot"
    _error(
        client.post(f"/api/rooms/{room}/seats/2/bot", json={"bot": "nope"}, headers=auth(anna)),
        400,
        "unknown_bot",
    )
    _error(
        client.post(f"/api/rooms/{room}/seats/0/bot", json={"bot": "one"}, headers=auth(anna)),
        409,
        "seat_taken",
    )
    ben = client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    _error(
        client.post(f"/api/rooms/{room}/seats/2/bot", json={"bot": None}, headers=auth(ben)),
        403,
        "not_creator",
    )
    freed = client.post(
        f"/api/rooms/{room}/seats/2/bot", json={"bot": None}, headers=auth(anna)
    ).json()
    assert freed["seats"][2]["kind"] == "empty"


def test_openapi_documents_every_public_path(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in [
        "/api/games",
        "/api/rooms",
        "/api/rooms/{room}",
        "/api/rooms/{room}/seats/{seat}",
        "/api/rooms/{room}/start",
        "/api/rooms/{room}/state",
        "/api/rooms/{room}/moves",
        "/api/rooms/{room}/events",
    ]:
        assert path in paths


def test_pages_and_answers_carry_security_headers(client: TestClient) -> None:
    for path in ["/", "/api/games", "/r/some-room"]:
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
