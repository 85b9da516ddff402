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
from sqlalchemy import text

from app.core.config import Settings
from app.history.verify import verify
from app.play.fairness import commitment
from app.services import create_app
from engines import get_engine
from tests.app.records_help import bot_record
from tests.calls import auth

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
    for key in ("engine", "players", "options", "names", "moves", "result"):
        assert first[key] == record[key], key
    assert first["seed"] == str(record["seed"])
    assert first["imported"] is True and first["seed_from"] == "record"
    assert verify(first).ok
    again = client.get(f"/api/rooms/{_import(client, first)}/games/1/record").json()
    # the same game; only the salt (and so the commitment) is the new server's own
    fresh = ("game_no", "salt", "commitment")
    assert {k: v for k, v in again.items() if k not in fresh} == {
        k: v for k, v in first.items() if k not in fresh
    }
    assert again["salt"] != first["salt"]


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


def test_a_file_format_the_games_engine_lacks_is_a_404_naming_the_ones_it_has(
    client: TestClient,
) -> None:
    room = _import(client, bot_record("m", 2, {}, seed=3))
    for name in ("blksgf", "bogus", "json"):
        refused = _error(
            client.get(f"/api/rooms/{room}/games/1/record.{name}"), 404, "unknown_format"
        )
        assert "none" in refused["message"]
    blokus = _import(client, bot_record("blokus", 2, {"variant": "duo"}, seed=3))
    refused = _error(client.get(f"/api/rooms/{blokus}/games/1/record.bogus"), 404, "unknown_format")
    assert "blksgf" in refused["message"]


def test_an_import_in_a_format_no_engine_has_is_a_404_and_leaves_nothing_behind(
    client: TestClient,
) -> None:
    before = _counts(client)
    for name in ("bogus", "json", "BLKSGF"):
        refused = _error(
            client.post(f"/api/records/{name}", content=b"(;GM[Blokus Duo];B[e10])"),
            404,
            "unknown_format",
        )
        assert "blksgf" in refused["message"]
    assert _counts(client) == before


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
        mover = auth(tokens[state["to_act"][0]])
        mine = client.get(f"/api/rooms/{room}/state", headers=mover).json()
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][-1]},
            headers=mover,
        ).json()
    return dict(client.get(f"/api/rooms/{room}/games/1/record").json())


def test_verification_passes_on_a_real_game_and_says_where_a_changed_one_differs(
    client: TestClient, tmp_path: Path
) -> None:
    record = _finished_room_record(client)
    assert record["commitment"] == commitment(int(record["seed"]), record["salt"])
    checked = client.post("/api/records/verify", json=record).json()
    assert checked["ok"] is True and checked["imported"] is False
    assert checked["seed_from"] == "server" and checked["note"] is None

    changed = str(int(record["seed"]) + 1)
    seed = client.post("/api/records/verify", json={**record, "seed": changed}).json()
    assert seed["ok"] is False and seed["where"] == "commitment"
    salt = client.post("/api/records/verify", json={**record, "salt": "00" + record["salt"]}).json()
    assert salt["ok"] is False and salt["where"] == "commitment"

    engine = get_engine("m")
    state = engine.new_game(2, int(record["seed"]), record["options"])
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


# -- imported tables say so (issue 20, item 9) ------------------------------------------


def _play_out(client: TestClient, room: str, tokens: list[str]) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/rooms/{room}/state").json()
    while state["result"] is None:
        mover = auth(tokens[state["to_act"][0]])
        mine = client.get(f"/api/rooms/{room}/state", headers=mover).json()
        state = client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mine["seq"], "move": mine["legal_moves"][0]},
            headers=mover,
        ).json()
    return state


def test_a_dealt_but_unplayed_import_says_it_was_imported_everywhere_the_table_shows(
    client: TestClient,
) -> None:
    # the attack: a chosen seed and no moves deals hands the importer knows
    record = bot_record("m", 3, {}, seed=4242)
    record["moves"], record["result"] = [], None
    made = client.post("/api/records", json=record).json()
    room, tokens = made["room"], [s["token"] for s in made["seats"]]

    info = client.get(f"/api/rooms/{room}").json()
    assert info["imported"] is True and info["game_imported"] is True
    state = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[1])).json()
    assert state["room"]["imported"] is True and state["room"]["game_imported"] is True
    log = client.get(f"/api/rooms/{room}/events").json()["events"]
    assert log[0]["kind"] == "room_created" and log[0]["imported"] is True
    started = next(e for e in log if e["kind"] == "game_started")
    assert started["imported"] is True and started["seed_from"] == "record"
    assert "seed" not in started and "salt" not in started
    history = client.get(f"/api/rooms/{room}/games").json()["games"]
    assert history[0]["imported"] is True and history[0]["seed_from"] == "record"
    game = client.get(f"/api/rooms/{room}/games/1").json()
    assert game["imported"] is True and game["seed_from"] == "record"

    _play_out(client, room, tokens)
    exported = client.get(f"/api/rooms/{room}/games/1/record").json()
    assert exported["imported"] is True and exported["seed_from"] == "record"
    assert exported["seed"] == "4242"
    checked = client.post("/api/records/verify", json=exported).json()
    assert checked["ok"] is True
    assert checked["imported"] is True and checked["seed_from"] == "record"
    assert "seed came from that file" in checked["note"]

    # a rematch is dealt by the server: the table stays marked, its new game is not
    client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).raise_for_status()
    info = client.get(f"/api/rooms/{room}").json()
    assert info["imported"] is True and info["game_imported"] is False
    second = client.get(f"/api/rooms/{room}/games/2").json()
    assert second["imported"] is False and "seed_from" not in second


def test_an_imported_table_says_so_when_loaded_from_a_snapshot(client: TestClient) -> None:
    record = bot_record("m", 2, {}, seed=12)
    record["moves"], record["result"] = record["moves"][:13], None  # snapshots every 5 moves
    room = client.post("/api/records", json=record).json()["room"]
    services = client.app.state.services  # type: ignore[attr-defined]
    services.rooms.cache.clear()  # the next load starts from the newest snapshot
    info = client.get(f"/api/rooms/{room}").json()
    assert info["imported"] is True and info["game_imported"] is True
    assert client.get(f"/api/rooms/{room}/games/1").json()["steps"] == 13


def test_a_table_made_here_says_it_was_not_imported(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "m", "players": 2, "name": "Anna"}).json()
    room = made["room"]
    info = client.get(f"/api/rooms/{room}").json()
    assert info["imported"] is False and info["game_imported"] is False
    client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).raise_for_status()
    client.post(f"/api/rooms/{room}/start", headers=auth(made["token"])).raise_for_status()
    assert client.get(f"/api/rooms/{room}/games/1").json()["imported"] is False
    created = client.get(f"/api/rooms/{room}/events").json()["events"][0]
    assert "imported" not in created


def test_an_import_recomputes_the_commitment_with_a_salt_of_the_servers_own(
    client: TestClient,
) -> None:
    record = bot_record("maedn", 2, {}, seed=77)
    # a commitment that belongs to no seed: it was stored as given
    record["commitment"] = "ab" * 32
    room = _import(client, record)
    stored = client.get(f"/api/rooms/{room}/games/1").json()
    assert stored["commitment"] != record["commitment"]
    assert stored["salt"].startswith("imported-")
    assert stored["commitment"] == commitment(77, stored["salt"])

    # a seed, salt and commitment that don't belong together: the record was changed
    real = _finished_room_record(client)
    forged = {**real, "seed": str(int(real["seed"]) + 1)}
    refused = _error(client.post("/api/records", json=forged), 400, "bad_record")
    assert "commitment" in refused["message"]
    # a consistent one imports, but the game gets a fresh salt: the file's is known to all
    room = _import(client, real)
    again = client.get(f"/api/rooms/{room}/games/1").json()
    assert again["salt"] != real["salt"] and again["salt"].startswith("imported-")
    assert again["seed"] == real["seed"]


def test_the_salt_tells_an_imported_game_even_from_a_record_that_hides_it(
    client: TestClient, tmp_path: Path
) -> None:
    room = _import(client, bot_record("m", 2, {}, seed=31))
    record = client.get(f"/api/rooms/{room}/games/1/record").json()
    hidden = {k: v for k, v in record.items() if k not in ("imported", "seed_from")}
    checked = client.post("/api/records/verify", json=hidden).json()
    assert checked["ok"] is True and checked["imported"] is True
    assert checked["seed_from"] == "record" and "imported" in checked["note"]
    # and saying the server drew the seed does not hide it either
    claimed = {**hidden, "imported": False, "seed_from": "server"}
    assert client.post("/api/records/verify", json=claimed).json()["seed_from"] == "record"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(claimed))
    run = [sys.executable, "-m", "app", "verify", str(path)]
    said = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, check=False)
    assert said.returncode == 0 and said.stdout.startswith("verified:"), said.stderr
    assert "note: This game was imported from a file" in said.stdout
    # renaming the salt to hide the mark breaks the commitment instead
    renamed = {**hidden, "salt": hidden["salt"].removeprefix("imported-")}
    broken = client.post("/api/records/verify", json=renamed).json()
    assert broken["ok"] is False and broken["where"] == "commitment"


def test_a_blokus_record_without_a_seed_gets_one_drawn_by_the_server(client: TestClient) -> None:
    record = bot_record("blokus", 2, {"variant": "duo"}, seed=5)
    del record["seed"]
    room = _import(client, record)
    game = client.get(f"/api/rooms/{room}/games/1").json()
    assert game["imported"] is True and game["seed_from"] == "server"
    exported = client.get(f"/api/rooms/{room}/games/1/record").json()
    checked = verify(exported)
    assert checked.ok and checked.imported and checked.seed_from == "server"


# -- imports never answer 500 nor leave half a room (issue 20, item 10) ------------------


def _counts(client: TestClient) -> tuple[int, ...]:
    """How many rooms, seats, events and snapshots the app's database holds."""
    services = client.app.state.services  # type: ignore[attr-defined]

    async def count() -> tuple[int, ...]:
        async with services.rooms.db.transaction() as session:
            return tuple(
                [
                    (await session.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one()
                    for table in ("rooms", "seats", "events", "snapshots")
                ]
            )

    return client.portal.call(count)  # type: ignore[union-attr,no-any-return]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


M3 = bot_record("m", 3, {}, seed=5)
M3_TEXT = json.dumps(M3)


def _with(**change: Any) -> bytes:
    return json.dumps({**M3, **change}).encode()


def _raw(key: str, value: str) -> bytes:
    """The record with ``key`` set to ``value`` as JSON text of its own."""
    others = json.dumps({k: v for k, v in M3.items() if k != key})
    return (others[:-1] + f', "{key}": {value}}}').encode()


BAD_RECORDS = {
    "a lone surrogate in the first name": _with(names=["\ud800", "Ben", "Cara"]),
    "a lone surrogate in a later name": _with(names=["Anna", "Ben", "Ca\udfffra"]),
    "a lone surrogate in the salt": _with(salt="\ud800"),
    "NUL in a later name": _with(names=["Anna", "Ben\x00", "Cara"]),
    "a control character in a name": _with(names=["Anna", "Ben\x1b[31m", "Cara"]),
    "a bidi override in a name": _with(names=["Anna", "\u202eneB", "Cara"]),
    "an invisible-only name": _with(names=["Anna", "\u200b\u2800", "Cara"]),
    "a name too long": _with(names=["Anna", "B" * 300, "Cara"]),
    "engine as a list": _with(engine=["m"]),
    "engine as a number": _with(engine=5),
    "options as a string": _with(options="x"),
    "options as a list": _with(options=[1]),
    "players as a string": _with(players="3"),
    "players as true": _with(players=True),
    "names as a string": _with(names="Anna"),
    "a seat as true": _with(moves=[{"seat": True, "move": {}}]),
    "a move as a list": _with(moves=[{"seat": 0, "move": []}]),
    "options nested past the parser's limit": _raw(
        "options", "{" + '"a":' + _nested(100_000)[1:-1] + "}"
    ),
    "a move nested too deep": _with(moves=[{"seat": 0, "move": {"a": json.loads(_nested(40))}}]),
    "a result nested too deep": _raw("result", '{"a": ' + _nested(300) + "}"),
    "a number of thousands of digits in the options": _raw("options", '{"a": 1' + "0" * 5000 + "}"),
    "a number past 64 bits in a move": _with(moves=[{"seat": 0, "move": {"type": 10**30}}]),
    "an infinite number in a move": _raw("moves", '[{"seat": 0, "move": {"at": 1e999}}]'),
    "NUL in a move": _with(moves=[{"seat": 0, "move": {"type": "pa\x00ss"}}]),
    "a seed too large": _with(seed=2**64),
    "a seed of letters": _with(seed="12ab"),
    "a negative seed": _with(seed=-1),
    "a seed as true": _with(seed=True),
    "a seed of thousands of digits": _raw("seed", '"' + "9" * 5000 + '"'),
    "a salt too long": _with(salt="a" * 1000),
    "a commitment as a number": _with(commitment=5),
    "too many moves": _with(moves=[{"seat": 0, "move": {}}] * 6000),
    "invalid UTF-8": M3_TEXT.encode()[:-1] + b"\xff}",
}


@pytest.mark.parametrize("body", BAD_RECORDS.values(), ids=BAD_RECORDS.keys())
def test_a_bad_record_is_a_clear_400_and_leaves_nothing_behind(
    client: TestClient, body: bytes
) -> None:
    before = _counts(client)
    refused = _error(client.post("/api/records", content=body), 400, "bad_record")
    assert len(refused["message"]) < 400
    assert _counts(client) == before


@pytest.mark.parametrize(
    "body",
    [
        # a seed, salt and commitment that match: the options are the first thing wrong
        _with(options="x", salt="ab", commitment=commitment(5, "ab")),
        _raw("options", "{" + '"a":' + _nested(100_000)[1:-1] + "}"),
        _raw("moves", "[" + _nested(5000) + "]"),
        _with(salt="\ud800", seed="5"),
        _with(seed=2**70),
        _with(engine={"m": 1}),
        b"[]",
        b"not json",
    ],
    ids=["options", "nesting", "nested moves", "surrogate", "huge seed", "engine", "list", "text"],
)
def test_verify_answers_a_bad_record_with_a_clear_400(client: TestClient, body: bytes) -> None:
    _error(client.post("/api/records/verify", content=body), 400, "bad_record")


def test_an_import_is_one_transaction_however_late_it_fails(
    client: TestClient,
) -> None:
    """A write inside the import's transaction fails after the room, its seats and
    its start are written: nothing of the room stays."""
    services = client.app.state.services  # type: ignore[attr-defined]

    async def refuse_the_start(session: Any, before: Any, after: Any) -> None:
        if after.status != "lobby":
            raise RuntimeError("the database refused the game's start")

    services.rooms.on_append.append(refuse_the_start)
    before = _counts(client)
    with pytest.raises(RuntimeError):
        client.post("/api/records", json=M3)
    assert _counts(client) == before
    services.rooms.on_append.remove(refuse_the_start)
    assert client.post("/api/records", json=M3).status_code == 201


BAD_SGF = {
    "a point of thousands of digits": b"(;GM[Blokus Duo];B[e" + b"1" * 5000 + b"])",
    "a point of unicode digits": "(;GM[Blokus Duo];B[e\u0661\u0660])".encode(),
    "NUL in PB": b"(;GM[Blokus Duo]PB[An\x00na];B[e10,e11,e12,f12,g12])",
    "a bidi override in PW": "(;GM[Blokus Duo]PW[\u202eoB];B[e10,e11,e12,f12,g12])".encode(),
    "a control character in PB, in Latin-1": b"(;GM[Blokus Duo]PB[\xe9\x07];B[e10])",
    "an invisible-only PB": "(;GM[Blokus Duo]PB[\u3164];B[e10,e11,e12,f12,g12])".encode(),
    "a long property name": b"(;GM[Blokus Duo]" + b"X" * 5000 + b"[1];B[e10])",
    "a move of a thousand squares": b"(;GM[Blokus Duo];B[" + b"e10," * 1000 + b"e11])",
}


@pytest.mark.parametrize("body", BAD_SGF.values(), ids=BAD_SGF.keys())
def test_a_bad_blksgf_is_a_clear_400_and_leaves_nothing_behind(
    client: TestClient, body: bytes
) -> None:
    before = _counts(client)
    refused = _error(client.post("/api/records/blksgf", content=body), 400, "bad_sgf")
    assert len(refused["message"]) < 400
    assert _counts(client) == before


def test_blksgf_names_follow_the_rules_of_typed_names(client: TestClient) -> None:
    text = "(;GM[Blokus Duo]PB[  An\u0301na   Maria ]PW[" + "B" * 60 + "];B[e10,e11,e12,f12,g12])"
    made = client.post("/api/records/blksgf", content=text.encode())
    assert made.status_code == 201, made.text
    names = client.get(f"/api/rooms/{made.json()['room']}/games/1").json()["names"]
    assert names == ["Ańna Maria", "B" * 40]


UNREADABLE = {
    "nested": b'{"format": "spieltisch-record", "options": ' + _nested(100_000).encode() + b"}",
    "options as a string": M3_TEXT.replace('"options": {}', '"options": "x"').encode(),
    "a lone surrogate": M3_TEXT.replace('"Ben"', '"\\ud800"').encode(),
    "a huge number": M3_TEXT.replace('"seed": 5', '"seed": 1' + "0" * 5000).encode(),
    "invalid UTF-8": b'{"format": "\xff"}',
    "a list": b"[1, 2]",
    "not JSON": b"{nope",
}


@pytest.mark.parametrize("body", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_verify_on_the_command_line_calls_a_bad_file_unreadable(
    tmp_path: Path, body: bytes
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(body)
    run = subprocess.run(
        [sys.executable, "-m", "app", "verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.startswith("unreadable: ") and "Traceback" not in run.stderr
    assert len(run.stderr) < 600


# -- seeds above 2^53 travel as strings (issue 20, item 11) ------------------------------


BIG = 2**62 + 12_345  # a JavaScript number rounds it


def test_seeds_go_out_as_strings_and_come_back_as_either(client: TestClient) -> None:
    record = bot_record("m", 2, {}, seed=BIG)
    room = _import(client, record)
    exported = client.get(f"/api/rooms/{room}/games/1/record")
    assert f'"seed": "{BIG}"' in exported.text
    assert client.get(f"/api/rooms/{room}/games/1").json()["seed"] == str(BIG)
    body = exported.json()
    assert client.post("/api/records/verify", json=body).json()["ok"] is True
    # a record written before seeds were strings carries a number, and still verifies
    old = {**body, "seed": BIG}
    assert client.post("/api/records/verify", json=old).json()["ok"] is True
    # what a browser sent back, having read the seed as a JavaScript number
    rounded = {**body, "seed": float(BIG)}
    _error(client.post("/api/records/verify", json=rounded), 400, "bad_record")
    assert (
        client.post("/api/records/verify", json={**body, "seed": int(float(BIG))}).json()["ok"]
        is False
    )
    again = client.get(f"/api/rooms/{_import(client, old)}/games/1").json()
    assert again["seed"] == str(BIG)
