"""Game records and .blksgf files: export, import, round trips, refusals and verification."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.fairness import commitment, verify
from app.main import create_app
from engines import get_engine
from tests.app.records_help import bot_record

ROOT = Path(__file__).resolve().parents[2]
SETUPS = [
    *[("blokus", n, {"variant": "classic"}) for n in (2, 3, 4)],
    ("blokus", 2, {"variant": "duo"}),
    *[("m", n, {}) for n in range(2, 7)],
    *[("maedn", n, {}) for n in range(2, 5)],
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


def _import(client: TestClient, record: dict[str, Any]) -> str:
    made = client.post("/api/records", json=record)
    assert made.status_code == 201, made.text
    return str(made.json()["room"])


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_export_then_import_gives_the_same_game_for_every_game_and_player_count(
    client: TestClient, game: str, players: int, options: dict[str, Any]
) -> None:
    record = bot_record(game, players, options, seed=40 + players)
    room = _import(client, record)
    exported = client.get(f"/api/rooms/{room}/games/1/record")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    first = exported.json()
    for key in ("engine", "players", "options", "names", "moves", "seed", "result"):
        assert first[key] == record[key], key
    assert verify(first).ok
    again = client.get(f"/api/rooms/{_import(client, first)}/games/1/record").json()
    assert {k: v for k, v in again.items() if k != "game_no"} == {
        k: v for k, v in first.items() if k != "game_no"
    }


def test_an_imported_room_gives_every_seat_a_token_and_its_game_can_go_on(
    client: TestClient,
) -> None:
    record = bot_record("blokus", 2, {"variant": "duo"}, seed=3)
    record["moves"] = record["moves"][:6]
    record["result"] = None
    made = client.post("/api/records", json=record).json()
    assert made["status"] == "playing" and len(made["seats"]) == 2
    token = made["seats"][0]["token"]
    state = client.get(
        f"/api/rooms/{made['room']}/state", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert state["to_act"] == [0] and state["legal_moves"]
    moved = client.post(
        f"/api/rooms/{made['room']}/moves",
        json={"seq": state["seq"], "move": state["legal_moves"][0]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.text


@pytest.mark.parametrize(
    ("players", "variant"), [(4, "classic"), (3, "classic"), (2, "classic"), (2, "duo")]
)
def test_a_blokus_game_written_as_blksgf_reads_back_move_for_move(
    client: TestClient, players: int, variant: str
) -> None:
    record = bot_record("blokus", players, {"variant": variant}, seed=8)
    room = _import(client, record)
    text = client.get(f"/api/rooms/{room}/games/1/record.blksgf")
    assert text.status_code == 200
    assert text.headers["content-type"].startswith("application/x-blokus-sgf")
    body = text.text
    expected = {
        (4, "classic"): "GM[Blokus]",
        (3, "classic"): "GM[Blokus Three-Player]",
        (2, "classic"): "GM[Blokus Two-Player]",
        (2, "duo"): "GM[Blokus Duo]",
    }[(players, variant)]
    assert expected in body and body.startswith("(;FF[4]")
    made = client.post("/api/records/blksgf", content=body.encode())
    assert made.status_code == 201, made.text
    back = client.get(f"/api/rooms/{made.json()['room']}/games/1/record").json()

    def shape(moves: list[dict[str, Any]]) -> list[Any]:
        return [(m["seat"], m["move"]["piece"], sorted(m["move"]["cells"])) for m in moves]

    assert shape(back["moves"]) == shape(record["moves"])
    assert back["result"] == record["result"]


@pytest.mark.parametrize(("players", "variant"), [(4, "classic"), (3, "classic"), (2, "duo")])
def test_a_free_corners_blokus_game_keeps_its_option_through_blksgf(
    client: TestClient, players: int, variant: str
) -> None:
    options = {"variant": variant, "free_corners": True}
    record = bot_record("blokus", players, options, seed=11)
    room = _import(client, record)
    body = client.get(f"/api/rooms/{room}/games/1/record.blksgf").text
    assert "XFREECORNERS[1]" in body
    made = client.post("/api/records/blksgf", content=body.encode())
    assert made.status_code == 201, made.text
    back = client.get(f"/api/rooms/{made.json()['room']}/games/1/record").json()
    assert back["options"]["free_corners"] is True
    assert back["options"]["variant"] == variant
    assert [(m["seat"], sorted(m["move"]["cells"])) for m in back["moves"]] == [
        (m["seat"], sorted(m["move"]["cells"])) for m in record["moves"]
    ]
    assert back["result"] == record["result"]


def test_a_blksgf_without_the_free_corners_mark_is_played_with_fixed_corners(
    client: TestClient,
) -> None:
    plain = "(;GM[Blokus Duo];B[j5,k5])"
    refused = _error(
        client.post("/api/records/blksgf", content=plain.encode()), 422, "illegal_move"
    )
    assert refused["move"] == 1
    free = "(;GM[Blokus Duo]XFREECORNERS[1];B[j5,k5])"
    made = client.post("/api/records/blksgf", content=free.encode())
    assert made.status_code == 201, made.text
    refused = _error(
        client.post("/api/records/blksgf", content=b"(;GM[Blokus Duo]XFREECORNERS[yes];B[j5])"),
        400,
        "bad_sgf",
    )
    assert "XFREECORNERS" in refused["message"]


def test_a_pentobi_duo_file_with_variations_and_lowercase_points_reads_its_main_line(
    client: TestClient,
) -> None:
    text = (
        "(;FF[4]CA[UTF-8]AP[Pentobi:20]GM[Blokus Duo]PB[Ann]PW[Bo]\n"
        ";B[E10,e11,e12,f12,g12];W[j5,k5]"
        "(;B[e8,f8,f9,g9,h9])(;B[d9])))"
    )
    made = client.post("/api/records/blksgf", content=text.encode())
    assert made.status_code == 201, made.text
    info = client.get(f"/api/rooms/{made.json()['room']}/games/1").json()
    assert info["names"] == ["Ann", "Bo"] and info["steps"] == 3


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"format": "chess"}).encode(), "not a game record"),
        (json.dumps({"format": "spieltisch-record", "engine": "go"}).encode(), "unknown game"),
    ],
)
def test_a_malformed_record_is_refused_with_a_clear_400(
    client: TestClient, body: bytes, needle: str
) -> None:
    refused = _error(client.post("/api/records", content=body), 400, "bad_record")
    assert needle in refused["message"]


def test_a_record_with_a_broken_part_is_refused_naming_it(client: TestClient) -> None:
    record = bot_record("m", 3, {}, seed=5)
    for change, needle in [
        ({"players": 9}, "players"),
        ({"names": ["A"]}, "names"),
        ({"moves": {"a": 1}}, "moves"),
        ({"moves": [{"seat": "x", "move": {}}]}, "Move 1"),
        ({"seed": None}, "seed"),
    ]:
        refused = _error(client.post("/api/records", json={**record, **change}), 400, "bad_record")
        assert needle in refused["message"]


def test_an_illegal_move_in_a_record_is_named_with_its_reason(client: TestClient) -> None:
    record = bot_record("blokus", 2, {"variant": "duo"}, seed=6)
    moves = [dict(m) for m in record["moves"]]
    moves[4] = moves[2]
    refused = _error(
        client.post("/api/records", json={**record, "moves": moves, "result": None}),
        422,
        "illegal_move",
    )
    assert refused["move"] == 5 and refused["message"].startswith("Move 5")
    assert refused["reason"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("GM[Blokus]", "not an SGF game"),
        ("(;FF[4]GM[1]SZ[19];B[pd])", "GM[1]"),
        ("(;GM[Blokus Duo];B[9e])", "not a point"),
        ("(;GM[Blokus Duo];B[e10,e11,q12])", "off the"),
        ("(;GM[Blokus Duo];B[e10,g12])", "form no Blokus piece"),
        ("(;GM[Blokus Duo]AB[e10];W[j5])", "Setup"),
        ("(;GM[Blokus Duo];B[e10", "not closed"),
        ("(;GM[Blokus Duo];3[a1])", "not a colour"),
    ],
)
def test_a_malformed_blksgf_is_refused_with_a_clear_400(
    client: TestClient, text: str, needle: str
) -> None:
    refused = _error(client.post("/api/records/blksgf", content=text.encode()), 400, "bad_sgf")
    assert needle in refused["message"]


def test_a_blksgf_move_out_of_turn_is_named(client: TestClient) -> None:
    refused = _error(
        client.post("/api/records/blksgf", content=b"(;GM[Blokus Duo];W[j5,k5])"),
        422,
        "illegal_move",
    )
    assert refused["move"] == 1


def _finished_room_record(client: TestClient) -> dict[str, Any]:
    """A real two-player M game: started by the server (its own seed and commitment)."""
    made = client.post("/api/rooms", json={"game": "m", "players": 2, "name": "Anna"}).json()
    room, tokens = made["room"], [made["token"]]
    tokens.append(client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"])
    state = client.post(
        f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    ).json()
    while state["result"] is None:
        auth = {"Authorization": f"Bearer {tokens[state['to_act'][0]]}"}
        mine = client.get(f"/api/rooms/{room}/state", headers=auth).json()
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][-1]},
            headers=auth,
        ).json()
    return dict(client.get(f"/api/rooms/{room}/games/1/record").json())


def test_verification_passes_on_a_real_game_and_says_where_a_changed_one_differs(
    client: TestClient, tmp_path: Path
) -> None:
    record = _finished_room_record(client)
    assert record["commitment"] == commitment(record["seed"], record["salt"])
    assert client.post("/api/records/verify", json=record).json()["ok"] is True

    seed = client.post("/api/records/verify", json={**record, "seed": record["seed"] + 1}).json()
    assert seed["ok"] is False and seed["where"] == "commitment"
    salt = client.post("/api/records/verify", json={**record, "salt": "00" + record["salt"]}).json()
    assert salt["ok"] is False and salt["where"] == "commitment"

    engine = get_engine("m")
    state = engine.new_game(2, record["seed"], record["options"])
    for entry in record["moves"][:3]:
        state = engine.play(state, entry["seat"], entry["move"])
    seat = record["moves"][3]["seat"]
    others = [m for m in engine.legal_moves(state, seat) if m != record["moves"][3]["move"]]
    changed = [dict(m) for m in record["moves"]]
    changed[3] = {"seat": seat, "move": others[0]}
    moved = client.post("/api/records/verify", json={**record, "moves": changed}).json()
    assert moved["ok"] is False and moved["where"] in ("moves", "result")
    if moved["where"] == "moves":
        assert moved["move"] > 3

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps({**record, "salt": "x"}))
    run = [sys.executable, "-m", "app", "verify"]
    ok = subprocess.run([*run, str(good)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith("verified:"), ok.stdout + ok.stderr
    no = subprocess.run([*run, str(bad)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert no.returncode == 1 and "commitment" in no.stdout


def test_verification_of_a_changed_move_names_the_first_illegal_one() -> None:
    record = bot_record("maedn", 2, {}, seed=9)
    record["salt"] = "ab" * 16
    record["commitment"] = commitment(record["seed"], record["salt"])
    assert verify(record).ok
    changed = [dict(m) for m in record["moves"]]
    changed[10] = {"seat": changed[10]["seat"], "move": {"type": "discard", "die": 99}}
    check = verify({**record, "moves": changed})
    assert not check.ok and check.where == "moves" and check.move == 11
    assert "Move 11" in check.message


def test_imports_count_against_the_new_room_limit(settings: Settings) -> None:
    record = bot_record("blokus", 2, {"variant": "duo"}, seed=4)
    limited = settings.model_copy(update={"rooms_per_minute": 2})
    with TestClient(create_app(limited)) as client:
        assert (
            client.post("/api/rooms", json={"game": "m", "players": 2, "name": "A"}).status_code
            == 201
        )
        assert client.post("/api/records", json=record).status_code == 201
        _error(client.post("/api/records", json=record), 429, "too_many_rooms")
