"""Shared steps for the alert tests: a table of two or three people, moves, the worker,
the server clock. The ``smtp`` and ``receiver`` fixtures are in ``conftest.py``."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from app.core.migrate import upgrade
from app.services import Services, create_app
from tests.calls import auth
from tests.receivers import SmtpServer

CONFIRM_PATH = "/alerts/confirm?key="
CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/api/rooms/[\w-]+/alerts/confirm\?key=[\w-]+)")


@contextlib.contextmanager
def mail_client(
    settings: Settings, smtp: SmtpServer, delay_minutes: float, **more: object
) -> Iterator[TestClient]:
    """The app in this process, its mail going to ``smtp`` and its links built from a
    public address; alerts wait ``delay_minutes``, and the worker and deadline loop run
    only when a test runs them (``work``). ``more``: other settings. The server clock
    starts and ends at the real time."""
    values: dict[str, object] = {
        "smtp_host": "127.0.0.1",
        "smtp_port": smtp.port,
        "smtp_security": "none",
        "smtp_sender": "Spieltisch <tisch@example.org>",
        "alert_delay_minutes": delay_minutes,
        "alert_poll_seconds": 3600,
        "public_url": "https://play.example.org",
        **more,
    }
    clock.reset()
    try:
        with TestClient(create_app(settings.model_copy(update=values))) as client:
            yield client
    finally:
        clock.reset()


def own_database(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """``settings`` with a PostgreSQL database of this test's alone.

    The session's shared PostgreSQL database keeps other tests' waiting alerts; a test
    that moves the clock on would send them too, so a test that counts every mail its
    SMTP server got needs the outbox to hold only its own rooms' alerts. SQLite databases
    are the test's own already.
    """
    if not settings.database_url.startswith("postgresql"):
        return settings
    url: str = request.getfixturevalue("fresh_pg")
    upgrade(url)
    return settings.model_copy(update={"database_url": url})


def advance(clock_file: Path, minutes: float) -> None:
    """Move a server's clock (its ``CLOCK_OFFSET_FILE``) on by ``minutes``."""
    current = float(clock_file.read_text() or 0) if clock_file.exists() else 0.0
    clock_file.write_text(str(current + minutes * 60))


def table(client: TestClient, names: tuple[str, ...] = ("Anna", "Ben")) -> tuple[str, list[str]]:
    """A started "secret" game with one person per name; returns the room and their tokens."""
    created = client.post(
        "/api/rooms", json={"game": "secret", "players": len(names), "name": names[0]}
    ).json()
    room = created["room"]
    tokens = [created["token"]]
    for seat, name in enumerate(names[1:], start=1):
        response = client.post(f"/api/rooms/{room}/seats/{seat}", json={"name": name})
        tokens.append(response.json()["token"])
    started = client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    assert started.status_code == 200, started.text
    return room, tokens


def move(client: TestClient, room: str, token: str) -> dict[str, Any]:
    state = client.get(f"/api/rooms/{room}/state", headers=auth(token)).json()
    response = client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": state["seq"], "move": {"n": 1}},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def services(client: TestClient) -> Services:
    svc: Services = client.app.state.services  # type: ignore[attr-defined]
    return svc


def work(client: TestClient) -> int:
    """Let the alert worker handle everything due now; returns how many alerts it took."""
    svc = services(client)
    total = 0
    while True:
        taken = client.portal.call(svc.outbox.run_once)  # type: ignore[union-attr]
        if not taken:
            return total
        total += taken


def outbox(client: TestClient, room: str) -> list[dict[str, Any]]:
    """The room's outbox rows, oldest first, as plain dicts."""
    from sqlalchemy import select

    from app.alerts.tables import OutboxRow

    svc = services(client)

    async def rows() -> list[dict[str, Any]]:
        async with svc.rooms.db.transaction() as session:
            found = await session.scalars(
                select(OutboxRow).where(OutboxRow.room_id == room).order_by(OutboxRow.id)
            )
            return [
                {"seat": r.seat, "kind": r.kind, "status": r.status, "attempts": r.attempts}
                for r in found
            ]

    result: list[dict[str, Any]] = client.portal.call(rows)  # type: ignore[union-attr]
    return result


def confirm_path(mail: EmailMessage) -> str:
    """The path (with its key) of the confirmation link in ``mail``."""
    found = CONFIRM_LINK.search(mail.get_content())
    assert found is not None, mail.get_content()
    return found.group(1)


def leave_address(
    http: TestClient | httpx.Client,
    smtp: SmtpServer,
    room: str,
    token: str,
    address: str,
    lang: str | None = None,
    each_turn: bool = False,
) -> None:
    """Leave an address for the seat and confirm it, as its owner does: the confirmation
    mail arrives, its page's button is pressed. That mail is taken out of ``smtp``'s
    inbox, so the test goes on counting turn mails only. With a ``TestClient`` the
    alert worker is run here; a server process runs its own."""
    body: dict[str, Any] = {"address": address, **({"lang": lang} if lang else {})}
    if each_turn:  # one mail per turn, not the daily digest
        body["each_turn"] = True
    response = http.put(f"/api/rooms/{room}/alerts/email", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["email_confirmed"] is False
    if isinstance(http, TestClient):
        work(http)
    mail = smtp.take(address, CONFIRM_PATH)
    confirmed = http.post(confirm_path(mail))
    assert confirmed.status_code == 200, confirmed.text
    settings = http.get(f"/api/rooms/{room}/alerts", headers=auth(token)).json()
    assert settings["email_confirmed"] is True, settings


def drop_addresses(http: TestClient | httpx.Client, room: str, tokens: list[str]) -> None:
    """Remove the seats' addresses, and with them any confirmation mail still queued: on
    PostgreSQL the session's tests share one database, and another test's alert worker
    would send it."""
    for token in tokens:
        http.delete(f"/api/rooms/{room}/alerts/email", headers=auth(token))
