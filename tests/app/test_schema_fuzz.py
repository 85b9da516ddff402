"""Schemathesis against a real server's /openapi.json: no request may get a 5xx.

The run itself is slow (``make test-long``): every operation of the schema, on SQLite
and PostgreSQL, with what schemathesis makes of the schema and, through the hooks of
``tests/app/schema_hooks.py``, real values (a card-game table with finished games and
a running one, the tokens of every kind of caller) and hostile ones (NUL, lone
surrogates, escape sequences, huge numbers, JSON nested thousands deep). Afterwards
every operation must have been tried, and a bystander can still play.

The quick tests (``make test``) check what the run relies on: every HTTP API route is
in the schema (the websocket and the pages are the route-wide test's), and the hooks
do make each kind of hostile value.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from starlette.routing import Mount

from app.services import create_app
from tests.app import schema_hooks
from tests.app.routes import declared, route_table
from tests.app.test_every_route import FORMATS, Setup, Table, _bodies, bystander
from tests.server import ServerProcess

EXAMPLES = os.environ.get("SCHEMATHESIS_EXAMPLES", "200")
HOOKS = Path(schema_hooks.__file__).resolve()
# routes the schema leaves out on purpose: the schema and its pages, the site's pages,
# the service worker and the web app manifest, health and metrics (the route-wide test calls them all)
NOT_IN_SCHEMA = {
    "/openapi.json",
    "/docs",
    "/docs/oauth2-redirect",
    "/redoc",
    "/",
    "/sw.js",
    "/manifest.webmanifest",
    "/r/{room}",
    "/r/{room}/games/{game_no}",
    "/healthz",
    "/metrics",
}


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path / "data",
        env={
            "DATABASE_URL": database_url,
            "SEAT_BUDGET_MESSAGES": "1000000",
            "ROOMS_PER_MINUTE": "1000000",
        },
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def fuzz_table(table: Table) -> dict[str, Any]:
    """The real values the hooks mix in (``FUZZ_TABLE``)."""
    return {
        "path": {
            "room": [table.room, table.room, table.other],  # the table in play, mostly
            "game_no": [1, table.running],
            "step": sorted({0, 1, table.steps[table.running], table.steps[1]}),
            "seat": list(range(table.players)),
            "format": FORMATS,
        },
        "tokens": list(table.tokens.values()),
        "bodies": {
            f"{method} {path}": [b for b in bodies if not isinstance(b, tuple)]
            for (method, path), bodies in _bodies(table).items()
        },
    }


def _schemathesis(server: ServerProcess, workdir: Path, table: dict[str, Any]) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "table.json").write_text(json.dumps(table))
    binary = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert binary, "schemathesis is in the dev extras: make .venv/.installed-dev"
    run = subprocess.run(
        [
            binary,
            "run",
            f"{server.url}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            EXAMPLES,
            "--workers",
            "1",
            "--no-color",
            "--report",
            "ndjson",
            "--report-dir",
            str(workdir / "report"),
        ],
        cwd=workdir,
        env={
            **os.environ,
            "SCHEMATHESIS_HOOKS": str(HOOKS),
            "FUZZ_TABLE": str(workdir / "table.json"),
        },
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    return {"stdout": run.stdout, "events": sorted((workdir / "report").glob("*.ndjson"))}


def _operations_tried(events: list[Path]) -> set[str]:
    """The operations (``METHOD /path``) the run finished a scenario of."""
    tried = set()
    for path in events:
        for line in path.read_text().splitlines():
            finished = json.loads(line).get("ScenarioFinished")
            label = finished.get("recorder", {}).get("label") if finished else None
            if isinstance(label, str) and " /" in label:
                tried.add(label)
    return tried


def _operations() -> set[str]:
    schema = create_app().openapi()
    return {f"{method.upper()} {path}" for path, ops in schema["paths"].items() for method in ops}


@pytest.mark.slow
def test_schemathesis_finds_no_server_error(server: ServerProcess, tmp_path: Path) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as http:
        table = Setup(http).build()
    run = _schemathesis(server, tmp_path / "run", fuzz_table(table))
    missing = _operations() - _operations_tried(run["events"])
    assert not missing, f"schemathesis never tried {sorted(missing)}\n{run['stdout'][-3000:]}"

    async def play() -> None:  # and the server still serves everyone
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
            await bystander(client, "Bo")

    asyncio.run(play())
    events = httpx.get(f"{server.url}/api/rooms/{table.room}/events")
    assert events.status_code == 200, events.text


# -- quick: what the long run relies on -------------------------------------------------


def test_every_http_api_route_is_in_the_schema_the_fuzzing_reads() -> None:
    in_schema = _operations()
    for route in route_table():
        methods = set(getattr(route, "methods", None) or ()) - {"HEAD"}
        if not methods or route.path in NOT_IN_SCHEMA or isinstance(declared(route), Mount):
            continue  # the websocket, the static files, the pages
        for method in methods:
            assert f"{method} {route.path}" in in_schema, (
                f"{method} {route.path} is not in /openapi.json, so schemathesis never calls"
                " it: put it in the schema, or in NOT_IN_SCHEMA if it is no API"
            )


def test_the_routes_that_read_their_own_body_get_one_to_fuzz() -> None:
    raw = create_app().openapi()
    schema_hooks.before_load_schema(None, raw)
    for path in schema_hooks.READ_BY_THEMSELVES:
        assert "requestBody" in raw["paths"][path]["post"], path


def _draws(strategy: Any, count: int = 300) -> list[Any]:
    found: list[Any] = []

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def test_the_hooks_make_nul_surrogates_nesting_and_huge_numbers() -> None:
    body = {"name": "Anna", "players": 2}
    drawn = _draws(schema_hooks.flatmap_body(None, body))
    texts = [json.dumps(d) if not isinstance(d, bytes) else d.decode() for d in drawn]
    assert any("\\u0000" in t for t in texts), "NUL"
    assert any("\\ud800" in t or "\\udfff" in t for t in texts), "lone surrogates"
    assert any("[" * 1000 in t for t in texts), "deep nesting"
    assert any("9" * 5000 in t or str(10**400) in t for t in texts), "huge numbers"
    paths = _draws(schema_hooks.flatmap_path_parameters(None, {"room": "abc", "step": 1}))
    assert any(p["room"] == "\x00" for p in paths) and any(p["step"] == 2**63 for p in paths)
    assert any(p["room"] == "abc" for p in paths)
    sgf = _draws(schema_hooks.flatmap_body(None, "(;GM[Blokus])"))
    assert any(isinstance(d, bytes) and b"\xed\xa0\x80" in d for d in sgf), "broken UTF-8"
