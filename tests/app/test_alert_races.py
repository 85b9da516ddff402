"""A seat's alert settings changed from two places at once: its phone and its laptop.

Against a real server on SQLite and on PostgreSQL, the same person's requests race:
what a channel carries is chosen while the channel is removed, two choices are made
at once, and a seat's very first settings are written twice at once. Each answer is
one a person can read (never a 5xx), and nothing chosen is lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.migrate import upgrade
from tests.calls import auth
from tests.pushkeys import PushKeys
from tests.server import ServerProcess, free_port

ROUNDS = 12
# a hang guard, never a speed limit
GUARD = 20.0
CLOSED = f"http://127.0.0.1:{free_port()}"


@pytest.fixture
def server(tmp_path: Path, empty_database_url: str) -> Iterator[ServerProcess]:
    upgrade(empty_database_url)
    env = {"DATABASE_URL": empty_database_url, "WEBHOOK_ALLOW_PRIVATE": "true"}
    proc = ServerProcess(tmp_path / "data", env=env)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop(kill=True)


async def _seat(client: httpx.AsyncClient) -> tuple[str, str]:
    created = await client.post("/api/rooms", json={"game": "m", "players": 2, "name": "Anna"})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["room"], body["token"]


async def _subscribe(client: httpx.AsyncClient, room: str, token: str, endpoint: str) -> None:
    added = await client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription(endpoint),
        headers=auth(token),
    )
    assert added.status_code == 200, added.text


async def _at_once(*calls: Any) -> list[httpx.Response]:
    return list(await asyncio.wait_for(asyncio.gather(*calls), GUARD))


def _readable(response: httpx.Response, *allowed: tuple[int, str | None]) -> None:
    assert response.status_code < 500, f"{response.status_code}: {response.text}"
    code = response.json().get("code") if response.status_code != 200 else None
    assert (response.status_code, code) in allowed, response.text


def test_choosing_kinds_while_the_channel_is_removed(server: ServerProcess) -> None:
    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=None) as client:
            room, token = await _seat(client)
            base = f"/api/rooms/{room}/alerts"
            for n in range(ROUNDS):
                endpoint = f"{CLOSED}/push/{n}"
                await _subscribe(client, room, token, endpoint)
                chosen, removed = await _at_once(
                    client.put(
                        f"{base}/kinds",
                        json={"channel": "push", "kinds": {"chat": True}},
                        headers=auth(token),
                    ),
                    client.request(
                        "DELETE", f"{base}/push", json={"endpoint": endpoint}, headers=auth(token)
                    ),
                )
                _readable(chosen, (200, None), (409, "no_channel"))
                _readable(removed, (200, None))
                settings = (await client.get(base, headers=auth(token))).json()
                assert settings["push"] == 0, settings

    asyncio.run(run())
    assert "Traceback" not in server.log.read_text()


def test_two_choices_at_once_both_count(server: ServerProcess) -> None:
    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=None) as client:
            room, token = await _seat(client)
            base = f"/api/rooms/{room}/alerts"
            for n in range(3):
                await _subscribe(client, room, token, f"{CLOSED}/push/{n}")
            for n in range(ROUNDS):
                on = n % 2 == 0
                answers = await _at_once(
                    client.put(
                        f"{base}/kinds",
                        json={"channel": "push", "kinds": {"chat": on}},
                        headers=auth(token),
                    ),
                    client.put(
                        f"{base}/kinds",
                        json={"channel": "push", "kinds": {"game_over": not on}},
                        headers=auth(token),
                    ),
                )
                for answer in answers:
                    _readable(answer, (200, None))
                kinds = (await client.get(base, headers=auth(token))).json()["kinds"]["push"]
                assert kinds["chat"] is on and kinds["game_over"] is (not on), kinds

    asyncio.run(run())
    assert "Traceback" not in server.log.read_text()


def test_a_seats_first_settings_written_twice_at_once(server: ServerProcess) -> None:
    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=None) as client:
            for _ in range(ROUNDS):
                room, token = await _seat(client)
                base = f"/api/rooms/{room}/alerts"
                answers = await _at_once(
                    client.put(f"{base}/lang", json={"lang": "de"}, headers=auth(token)),
                    client.put(f"{base}/lang", json={"lang": "fr"}, headers=auth(token)),
                    client.post(
                        f"{base}/push",
                        json=PushKeys.make().subscription(f"{CLOSED}/push/{room}"),
                        headers=auth(token),
                    ),
                )
                for answer in answers:
                    _readable(answer, (200, None))
                settings = (await client.get(base, headers=auth(token))).json()
                assert settings["lang"] in ("de", "fr", "en"), settings
                assert settings["push"] == 1, settings

    asyncio.run(run())
    assert "Traceback" not in server.log.read_text()


def test_one_set_up_for_many_tables_twice_at_once_and_against_a_removal(
    server: ServerProcess,
) -> None:
    """ "Notify me" for all my tables pressed on two devices at once, while one table's
    own page turns its push off: every answer readable, no table with a device twice."""

    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=None) as client:
            for _ in range(ROUNDS // 2):
                seats = [await _seat(client) for _ in range(3)]
                body = {"seats": [{"room": r, "token": t} for r, t in seats]}
                phone = PushKeys.make().subscription(f"{CLOSED}/push/phone")
                laptop = PushKeys.make().subscription(f"{CLOSED}/push/laptop")
                room, token = seats[0]
                answers = await _at_once(
                    client.post(
                        "/api/alerts",
                        json={**body, "channel": {"kind": "push", "subscription": phone}},
                    ),
                    client.post(
                        "/api/alerts",
                        json={**body, "channel": {"kind": "push", "subscription": laptop}},
                    ),
                    client.post(
                        "/api/alerts",
                        json={**body, "channel": {"kind": "push", "subscription": phone}},
                    ),
                    client.request(
                        "DELETE",
                        f"/api/rooms/{room}/alerts/push",
                        json={"endpoint": phone["endpoint"]},
                        headers=auth(token),
                    ),
                )
                for answer in answers:
                    _readable(answer, (200, None))
                for r, t in seats[1:]:
                    mine = (await client.get(f"/api/rooms/{r}/alerts", headers=auth(t))).json()
                    assert mine["push"] == 2, mine  # the phone once, the laptop once
                first = await client.get(f"/api/rooms/{room}/alerts", headers=auth(token))
                assert first.json()["push"] in (1, 2), first.text

    asyncio.run(run())
    assert "Traceback" not in server.log.read_text()


def test_a_game_ending_while_a_players_channel_is_removed(server: ServerProcess) -> None:
    """The game over alert is queued for Anna's channel as she removes it: one of the two
    waits for the other, and neither breaks (the outbox's foreign key once did)."""

    async def run() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=None) as client:
            for n in range(ROUNDS):
                room, anna = await _seat(client)
                claimed = await client.post(f"/api/rooms/{room}/seats/1", json={"name": "Ben"})
                ben = claimed.json()["token"]
                endpoint = f"{CLOSED}/push/{room}"
                await _subscribe(client, room, anna, endpoint)
                await _subscribe(client, room, ben, f"{CLOSED}/push/{room}/ben")
                started = await client.post(f"/api/rooms/{room}/start", headers=auth(anna))
                assert started.status_code == 200, started.text
                voted = await client.post(f"/api/rooms/{room}/abort", headers=auth(anna))
                assert voted.status_code == 200, voted.text
                ended, removed = await _at_once(
                    client.post(f"/api/rooms/{room}/abort", headers=auth(ben)),
                    client.request(
                        "DELETE",
                        f"/api/rooms/{room}/alerts/push",
                        json={"endpoint": endpoint},
                        headers=auth(anna),
                    ),
                )
                _readable(ended, (200, None))
                _readable(removed, (200, None))
                state = (await client.get(f"/api/rooms/{room}")).json()
                assert state["status"] == "finished", (n, state)

    asyncio.run(run())
    assert "Traceback" not in server.log.read_text()
