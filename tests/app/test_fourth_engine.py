"""A fourth game, registered at run time, goes through the whole server unchanged.

``tests/app/pile_engine.py`` is a game the server has never heard of: it is
registered with ``engines.register`` before the app is built, and then played over
the app's real HTTP routes and websockets (on SQLite and PostgreSQL) to the end,
replayed step by step, exported as a JSON record and in its own ``.pile`` format,
imported from both, and verified. Nothing of the server was changed for it; the last
tests here read ``app/`` and ``static/js`` and find no game named where behaviour is
decided, so that stays true.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.core.errors import ApiError
from app.services import create_app
from app.web.history import _read_file
from engines import ENGINES, register
from tests.app.inprocess_socket import receive_text
from tests.app.pile_engine import ENGINE, FORMAT, NAME, PileEngine, read
from tests.app.routes import route_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pile() -> Iterator[PileEngine]:
    assert NAME not in ENGINES
    register(ENGINE)
    try:
        yield ENGINE
    finally:
        del ENGINES[NAME]


@pytest.fixture
def client(settings: Settings, pile: PileEngine) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def _next_state(ws: Any, who: str, after: int) -> dict[str, Any]:
    """The first state message of ``ws`` past ``after`` (acks and presence skipped)."""
    while True:
        message = json.loads(receive_text(ws, who))
        assert message["type"] != "error", message
        if message["type"] == "state" and message["seq"] > after:
            return dict(message)


def _play_to_the_end_over_websockets(client: TestClient, room: str, tokens: list[str]) -> int:
    """Both seats on their own socket; each takes the most it may. The moves played."""
    with (
        client.websocket_connect(f"/api/rooms/{room}/ws") as anna,
        client.websocket_connect(f"/api/rooms/{room}/ws") as ben,
    ):
        sockets = [anna, ben]
        seen = []
        for seat, ws in enumerate(sockets):
            ws.send_json({"type": "hello", "token": tokens[seat]})
            seen.append(_next_state(ws, f"seat {seat}", -1))
        assert [state["you"] for state in seen] == [0, 1]
        played = 0
        while seen[0]["result"] is None:
            seat = seen[0]["to_act"][0]
            mine = seen[seat]
            assert mine["view"]["turn"] == seat and mine["legal_moves"]
            move = mine["legal_moves"][-1]
            sockets[seat].send_json(
                {"type": "move", "seq": mine["seq"], "move": move, "id": played}
            )
            seq = mine["seq"]
            seen = [_next_state(ws, f"seat {s}", seq) for s, ws in enumerate(sockets)]
            played += 1
        assert seen[0]["result"] == seen[1]["result"]
        assert seen[0]["view"]["left"] == 0
        return played


def test_a_game_the_server_never_heard_of_is_played_replayed_exported_and_imported(
    client: TestClient,
) -> None:
    listed = {game["name"]: game for game in _ok(client.get("/api/games"))}
    assert listed[NAME]["hidden_information"] is False
    assert listed[NAME]["record_formats"] == [
        {
            "name": "pile",
            "title": "Pile file (.pile)",
            "media_type": "text/x-pile",
            "suffix": ".pile",
        }
    ]

    body = {"game": NAME, "players": 2, "name": "Anna", "options": {"size": "15"}}
    made = _ok(client.post("/api/rooms", json=body), 201)
    room, anna = made["room"], made["token"]
    ben = _ok(client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}))["token"]
    started = _ok(client.post(f"/api/rooms/{room}/start", headers=_auth(anna)))
    assert started["view"] == {"left": 15, "turn": started["to_act"][0]}

    # a move over REST first: nothing is hidden, so the running game's records are there
    first = _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(anna)))
    tokens = [anna, ben]
    seat = first["to_act"][0]
    mover = _ok(client.get(f"/api/rooms/{room}/state", headers=_auth(tokens[seat])))
    _ok(
        client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": mover["seq"], "move": {"take": 1}},
            headers=_auth(tokens[seat]),
        )
    )
    running = _ok(client.get(f"/api/rooms/{room}/games/1"))
    assert running["status"] == "playing" and running["record"] is True
    assert _ok(client.get(f"/api/rooms/{room}/games/1/record"))["result"] is None
    assert client.get(f"/api/rooms/{room}/games/1/record.pile").status_code == 200

    played = 1 + _play_to_the_end_over_websockets(client, room, tokens)

    info = _ok(client.get(f"/api/rooms/{room}/games/1"))
    assert info["status"] == "finished" and info["steps"] == played
    assert [move["log"]["left"] for move in info["moves"]][-1] == 0
    lefts = [
        _ok(client.get(f"/api/rooms/{room}/games/1/steps/{step}"))["view"]["left"]
        for step in range(played + 1)
    ]
    assert lefts[0] == 15 and lefts[-1] == 0 and lefts == sorted(lefts, reverse=True)
    history = _ok(client.get(f"/api/rooms/{room}/games"))
    assert history["games"][0]["engine"] == NAME and history["tally"][0]["wins"] == 1

    record = _ok(client.get(f"/api/rooms/{room}/games/1/record"))
    assert record["engine"] == NAME and len(record["moves"]) == played
    verified = _ok(client.post("/api/records/verify", content=json.dumps(record)))
    assert verified["ok"] is True, verified

    again = _ok(client.post("/api/records", content=json.dumps(record)), 201)
    copy = _ok(client.get(f"/api/rooms/{again['room']}/games/1/record"))
    assert copy["moves"] == record["moves"] and copy["result"] == record["result"]

    # its own format, written by the engine and read back by it
    file = client.get(f"/api/rooms/{room}/games/1/record.pile")
    assert file.status_code == 200
    assert file.headers["content-type"].startswith("text/x-pile")
    assert f'filename="pile-{room[:8]}-1.pile"' in file.headers["content-disposition"]
    assert file.text.startswith("PILE 1\nsize 15\nplayer Anna\nplayer Ben\n")
    back = _ok(client.post("/api/records/pile", content=file.content), 201)
    assert [seat["name"] for seat in back["seats"]] == ["Anna", "Ben"]
    read = _ok(client.get(f"/api/rooms/{back['room']}/games/1/record"))
    assert read["moves"] == record["moves"] and read["result"] == record["result"]
    assert read["seed_from"] == "server"  # a game without hidden information needs no seed

    # its own refusals, mapped as every format's are
    refused = client.post("/api/records/pile", content=b"PILE 2\n")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_pile"
    too_many = b"PILE 1\nsize 10\nplayer A\nplayer B\ntake 3\ntake 3\ntake 3\ntake 2\n"
    refused = client.post("/api/records/pile", content=too_many)
    assert refused.status_code == 422, refused.text
    assert refused.json() | {"message": ""} == {
        "code": "illegal_move",
        "message": "",
        "move": 4,
        "reason": "too_many",
    }
    nul = b"PILE 1\nsize 10\nplayer A\x00\nplayer B\n"
    refused = client.post("/api/records/pile", content=nul)
    assert refused.status_code == 400 and refused.json()["code"] == "bad_pile"
    # and the formats of other engines are not this game's
    other = client.get(f"/api/rooms/{room}/games/1/record.blksgf")
    assert other.status_code == 404 and other.json()["code"] == "unknown_format"
    assert "pile" in other.json()["message"]


def test_a_readers_names_that_are_not_text_are_refused_with_the_formats_code() -> None:
    """An engine's reader is trusted code, but what it returns still goes through the
    record's checks: a name that is no text is a 400 of the format, not a crash."""
    sloppy = replace(
        FORMAT, read=lambda text, name_max: {**read(text, name_max), "names": [7, "B"]}
    )
    with pytest.raises(ApiError) as refused:
        _read_file(sloppy, b"PILE 1\nsize 10\nplayer A\nplayer B\n", 40)
    assert (refused.value.status, refused.value.code) == (400, "bad_pile")


# -- nothing of the server names a game ------------------------------------------------

# the games of engines/, and the formats they write: the words no server code decides by
GAMES = sorted(p.name for p in (ROOT / "engines").iterdir() if (p / "__init__.py").is_file())
FORMATS = sorted(fmt.name for name in GAMES for fmt in ENGINES[name].record_formats())
# where naming a game is the point (under static/js): a renderer per game, and the
# words of each game's keys
BY_GAME = ("games/", "locales/")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constants that are docstrings (prose, not code)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def python_naming_games(root: Path) -> list[str]:
    """Imports of a game's package, and strings in code (not docstrings) that are a
    game's name or hold a format's name, under ``root``."""
    words = re.compile("|".join(FORMATS), re.IGNORECASE) if FORMATS else None
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        prose = _docstrings(tree)
        where = path.relative_to(root)
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for module in modules:
                if module.split(".")[:2] in (["engines", game] for game in GAMES):
                    found.append(f"{where}:{node.lineno}: imports {module}")
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in prose
                and (node.value.lower() in GAMES or (words and words.search(node.value)))
            ):
                found.append(f"{where}:{node.lineno}: {node.value[:60]!r}")
    return found


COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL)


def javascript_naming_games(root: Path) -> list[str]:
    """Quoted game names, and formats' names anywhere in code (comments aside), in the
    browser's modules, the renderers and the words per game left out."""
    names = "|".join(re.escape(game) for game in GAMES)
    quoted = re.compile(rf"""(["'`])(?:{names})\1""", re.IGNORECASE)
    formats = re.compile("|".join(FORMATS), re.IGNORECASE) if FORMATS else None
    found = []
    for path in sorted(root.rglob("*.js")):
        where = str(path.relative_to(root))
        if where.startswith(BY_GAME):
            continue
        code = COMMENTS.sub("", path.read_text())
        for line in code.splitlines():
            if quoted.search(line) or (formats and formats.search(line)):
                found.append(f"{where}: {line.strip()[:80]}")
    return found


def test_no_server_code_names_a_game() -> None:
    assert GAMES == ["blokus", "m", "maedn"] and "blksgf" in FORMATS
    assert python_naming_games(ROOT / "app") == []
    for route in route_table():
        words = set(re.split(r"[/.{}]", route.path.lower()))
        assert not words & {*GAMES, *FORMATS}, route.path


def test_no_page_decides_by_a_games_name() -> None:
    assert javascript_naming_games(ROOT / "static" / "js") == []


def test_the_scans_find_what_they_look_for(tmp_path: Path) -> None:
    """Without this, a scan that matches nothing would pass for ever."""
    (tmp_path / "bad.py").write_text(
        '"""Blokus is named in prose: fine."""\n'
        "from engines.blokus import sgf\n"
        "OPEN = {'blokus'}\n"
        "ROUTE = '/record.blksgf'\n"
    )
    (tmp_path / "bad.js").write_text(
        '// "blokus" in a comment is prose\n'
        'if (game === "blokus") links.push(`record.blksgf`);\n'
        "const key = `game.${name}.title`;\n"
    )
    found = python_naming_games(tmp_path)
    assert sorted(line.split(": ", 1)[1] for line in found) == [
        "'/record.blksgf'",
        "'blokus'",
        "imports engines.blokus",
        "imports engines.blokus.sgf",
    ]
    found = javascript_naming_games(tmp_path)
    assert found == ['bad.js: if (game === "blokus") links.push(`record.blksgf`);']
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "blokus.js").write_text('const name = "blokus";\n')
    assert javascript_naming_games(tmp_path) == found
