"""No secret carried in a URL reaches a log line: every query parameter of every route
is either known to be harmless or is masked, in text and in JSON logs, on a real server."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from pydantic import BaseModel

from app.core.config import Settings
from app.core.logs import SECRET_PARAM, mask_query, scrub
from app.services import create_app
from tests.app.alerting import CONFIRM_PATH, auth, confirm_path
from tests.receivers import SmtpServer
from tests.server import ServerProcess, free_port

# query parameters that hold nothing secret; any other must be masked in the logs
PUBLIC_QUERY = {"after", "limit", "legal_form", "as", "turn_seconds", "on_timeout", "stand_in"}


def _query_names(dependant: Dependant) -> set[str]:
    """By the names sent: a query model's fields one by one."""
    names = set()
    for param in dependant.query_params:
        model = param.field_info.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            names |= {f.alias or n for n, f in model.model_fields.items()}
        else:
            names.add(param.alias)
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def _routes(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route of the table with its full path, through included routers."""
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI's included router
        if included is not None:
            context = getattr(route, "include_context", None)
            yield from _routes(included.routes, prefix + getattr(context, "prefix", ""))
        else:
            yield prefix + getattr(route, "path", ""), route


def _routes_with_query() -> dict[tuple[str, str], set[str]]:
    """(method, path) → the query parameters it reads, from the app's route table."""
    found: dict[tuple[str, str], set[str]] = {}
    for path, route in _routes(create_app(Settings()).routes):
        if isinstance(route, APIRoute):
            for method in route.methods:
                found[(method, path)] = _query_names(route.dependant)
        elif isinstance(route, APIWebSocketRoute):
            found[("WS", path)] = _query_names(route.dependant)
    assert ("GET", "/api/rooms/{room}/state") in found, "the route table was not read"
    return found


def _secret_routes() -> list[tuple[str, str, str]]:
    return sorted(
        (method, path, name)
        for (method, path), names in _routes_with_query().items()
        for name in names
        if name not in PUBLIC_QUERY
    )


def test_every_query_parameter_is_harmless_or_masked() -> None:
    secret = _secret_routes()
    assert secret, "the mail links' keys are query parameters"
    for method, path, name in secret:
        assert SECRET_PARAM.match(name), (
            f"{method} {path} reads ?{name}=: name it as a secret (…key, …token) so the "
            "logs mask it, or add it to PUBLIC_QUERY if it holds nothing secret"
        )
    assert {(m, p) for m, p, _ in secret} >= {
        ("GET", "/api/rooms/{room}/alerts/stop"),
        ("POST", "/api/rooms/{room}/alerts/stop"),
        ("GET", "/api/rooms/{room}/alerts/confirm"),
        ("POST", "/api/rooms/{room}/alerts/confirm"),
    }


def test_secret_query_values_are_masked_however_they_are_spelled() -> None:
    for line in [
        '127.0.0.1:5 - "GET /api/rooms/r/alerts/stop?key=S3CR3T HTTP/1.1" 200',
        "POST /api/rooms/r/alerts/confirm?after=1&key=S3CR3T",
        "GET /x?stop_key=S3CR3T&limit=2",
        "GET /x?api_token=S3CR3T",
    ]:
        assert "S3CR3T" not in scrub(line), line
    assert mask_query("/a?k%65y=S3CR3T&after=2") == "/a?k%65y=***&after=2"
    assert mask_query("/a?after=2&limit=5") == "/a?after=2&limit=5"


@pytest.fixture(params=["text", "json"])
def mail_server(
    request: pytest.FixtureRequest, tmp_path: Path, smtp: SmtpServer
) -> Iterator[ServerProcess]:
    port = free_port()
    server = ServerProcess(
        tmp_path / "data",
        port=port,
        env={
            "LOG_FORMAT": request.param,
            "PUBLIC_URL": f"http://127.0.0.1:{port}",
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": str(smtp.port),
            "SMTP_SECURITY": "none",
            "ALERT_POLL_SECONDS": "0.2",
            "BOT_WORKERS": "0",
        },
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_no_key_or_token_from_a_url_reaches_the_log(
    mail_server: ServerProcess, smtp: SmtpServer
) -> None:
    http = httpx.Client(base_url=mail_server.url, timeout=30)
    created = http.post("/api/rooms", json={"game": "blokus", "players": 2, "name": "Anna"})
    room, anna = created.json()["room"], created.json()["token"]
    ben = http.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"}).json()["token"]
    address = f"ben.{room}@example.org"
    put = http.put(f"/api/rooms/{room}/alerts/email", json={"address": address}, headers=auth(ben))
    assert put.status_code == 200, put.text
    mail = smtp.take(address, CONFIRM_PATH)
    confirm = confirm_path(mail)
    stop = re.sub(r"^<https?://[^/]+|>$", "", mail["List-Unsubscribe"])
    real_keys = [confirm.split("key=")[1], stop.split("key=")[1]]

    # the real links, as a person and a mail scanner use them
    for path in (confirm, stop):
        for method in ("GET", "POST"):
            assert http.request(method, path).status_code < 500
    # every secret parameter of every route, with a made-up value, spelled two ways
    markers = []
    for method, path, name in _secret_routes():
        assert method != "WS", "a socket with a secret in its URL: give it its own check"
        assert re.fullmatch(r"[^{}]*(\{room\}[^{}]*)?", path), f"{path}: fill its parameters"
        for spelled in (name, name.replace("e", "%65", 1)):
            marker = f"M{secrets.token_hex(8)}"
            markers.append(marker)
            url = f"{path.replace('{room}', room)}?after=1&{spelled}={marker}"
            assert http.request(method, url).status_code < 500
    # a token where none belongs: in the query, as a client might put it by mistake
    http.get(f"/api/rooms/{room}/state?token={anna}")
    http.get(f"/api/rooms/{room}/state", headers=auth(anna))
    mail_server.stop()

    log = mail_server.log.read_text()
    for secret in [*real_keys, *markers, anna, ben]:
        assert secret not in log
    access = [line for line in log.splitlines() if "/alerts/stop?" in line]
    assert access and all("y=***" in line for line in access), "no access line to check"
    if "json" in mail_server.env["LOG_FORMAT"]:
        for line in log.splitlines():
            if line.startswith("{"):
                json.loads(line)
