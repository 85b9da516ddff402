"""Alerts survive a killed server, and several processes never send one alert twice.

Real server processes (``python -m app``), a real SMTP server, a local HTTP
receiver for push and webhooks, and the server clock moved through its offset file.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.alerting import advance, auth, leave_address
from tests.pg import admin_dsn
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer, wait_for
from tests.server import ServerProcess

DELAY_MINUTES = 10


def _env(database_url: str, smtp: SmtpServer, clock_file: Path) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "SMTP_SECURITY": "none",
        "WEBHOOK_ALLOW_PRIVATE": "true",
        "ALERT_DELAY_MINUTES": str(DELAY_MINUTES),
        "ALERT_POLL_SECONDS": "0.2",
        "ALERT_ROOM_HOURLY_CAP": "100",
        "CLOCK_OFFSET_FILE": str(clock_file),
        "PUBLIC_URL": "https://play.example.org",
    }


class Table:
    """A started game of M for three people over REST."""

    def __init__(self, server: ServerProcess, names: tuple[str, ...] = ("Anna", "Ben", "Cleo")):
        self.http = httpx.Client(base_url=server.url, timeout=30)
        created = self.http.post(
            "/api/rooms", json={"game": "m", "players": len(names), "name": names[0]}
        ).json()
        self.room: str = created["room"]
        self.tokens = [created["token"]]
        for seat, name in enumerate(names[1:], start=1):
            claimed = self.http.post(f"/api/rooms/{self.room}/seats/{seat}", json={"name": name})
            self.tokens.append(claimed.json()["token"])
        started = self.http.post(f"/api/rooms/{self.room}/start", headers=auth(self.tokens[0]))
        assert started.status_code == 200, started.text

    def use(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)

    def acting(self) -> int:
        """The one seat the game waits for; -1 once it is over."""
        state = self.http.get(f"/api/rooms/{self.room}/state").json()
        to_act: list[int] = state["to_act"]
        assert len(to_act) <= 1, to_act
        return to_act[0] if to_act else -1

    def move(self) -> int:
        """The seat to act plays its first legal move; returns the seat that acts next."""
        seat = self.acting()
        token = self.tokens[seat]
        state = self.http.get(f"/api/rooms/{self.room}/state", headers=auth(token)).json()
        response = self.http.post(
            f"/api/rooms/{self.room}/moves",
            json={"seq": state["seq"], "move": state["legal_moves"][0]},
            headers=auth(token),
        )
        assert response.status_code == 200, response.text
        return self.acting()

    def alerts(self, seat: int, path: str, body: dict[str, Any]) -> None:
        method = "POST" if path == "push" else "PUT"
        response = self.http.request(
            method,
            f"/api/rooms/{self.room}/alerts/{path}",
            json=body,
            headers=auth(self.tokens[seat]),
        )
        assert response.status_code == 200, response.text


def test_alerts_queued_before_a_kill_are_delivered_once_after_the_restart(
    tmp_path: Path, database_url: str, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    clock_file = tmp_path / "clock"
    clock_file.write_text("0")
    server = ServerProcess(tmp_path / "data", env=_env(database_url, smtp, clock_file))
    server.start()
    try:
        table = Table(server)
        keys = {seat: PushKeys.make() for seat in range(3)}
        for seat in range(3):
            leave_address(
                table.http, smtp, table.room, table.tokens[seat], f"seat{seat}@example.org", "de"
            )
            table.alerts(seat, "push", keys[seat].subscription(receiver.url(f"/push/{seat}")))
        table.alerts(0, "webhook", {"url": receiver.url("/hook"), "shape": "json"})
        waiting = table.move()
        server.stop(kill=True)  # kill -9: the alert for ``waiting`` sits in the outbox
        advance(clock_file, DELAY_MINUTES + 1)
        server.start()
        table.use(server)
        mails = smtp.wait(1)
        wait_for(lambda: len(receiver.got()) >= 2, "a push and a webhook call")
        assert [m["To"] for m in mails] == [f"seat{waiting}@example.org"]
        assert mails[0]["Subject"].startswith("Du bist dran — M mit ")
        paths = sorted(r.path for r in receiver.got())
        assert paths == sorted([f"/push/{waiting}", "/hook"])
        push = next(r for r in receiver.got() if r.path.startswith("/push/"))
        assert keys[waiting].decrypt(push.body)["url"] == f"/r/{table.room}"

        # the next turn, through a second kill: still one alert per channel and turn
        nxt = table.move()
        server.stop(kill=True)
        advance(clock_file, DELAY_MINUTES + 1)
        server.start()
        mails = smtp.wait(2)
        wait_for(lambda: len(receiver.got()) >= 4, "the second push and webhook call")
        server.stop()  # a clean stop: nothing is left claimed or half-sent
        assert Counter(m["To"] for m in mails) == Counter(
            [f"seat{waiting}@example.org", f"seat{nxt}@example.org"]
        )
        assert len(smtp.mails) == 2
        assert Counter(r.path for r in receiver.got()) == Counter(
            [f"/push/{waiting}", f"/push/{nxt}", "/hook", "/hook"]
        )
    finally:
        server.stop()


def test_two_processes_on_one_database_send_each_alert_once(
    tmp_path: Path, postgres_url: str | None, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    if postgres_url is None:
        pytest.skip("TEST_DATABASE_URL not set")
    clock_file = tmp_path / "clock"
    clock_file.write_text("0")
    env = _env(postgres_url, smtp, clock_file)
    servers = [ServerProcess(tmp_path / f"data{i}", env=env) for i in range(2)]
    for server in servers:
        server.start()
    try:
        tables = [Table(servers[i % 2], ("A", "B")) for i in range(6)]
        for table in tables:
            for seat in range(2):
                table.alerts(
                    seat,
                    "push",
                    PushKeys.make().subscription(receiver.url(f"/{table.room}/{seat}")),
                )
                leave_address(
                    table.http,
                    smtp,
                    table.room,
                    table.tokens[seat],
                    f"{table.room}.{seat}@example.org",
                )
        expected = Counter()
        for table in tables:
            waiting = table.move()
            expected[f"/{table.room}/{waiting}"] += 1
        advance(clock_file, DELAY_MINUTES + 1)
        wait_for(lambda: len(receiver.got()) >= len(tables), "one push per table")
        smtp.wait(len(tables))
        for server in servers:
            server.stop()
        assert Counter(r.path for r in receiver.got()) == expected
        assert len(smtp.mails) == len(tables)
        asyncio.run(_all_sent(postgres_url, [t.room for t in tables]))
    finally:
        for server in servers:
            server.stop()


async def _all_sent(url: str, rooms: list[str]) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_dsn(url))
    try:
        rows = await conn.fetch(
            "SELECT status, count(*) AS n FROM alert_outbox WHERE room_id = ANY($1) GROUP BY status",
            rooms,
        )
    finally:
        await conn.close()
    # per table: two confirmation mails, then one mail and one push for the seat to move
    assert {r["status"]: r["n"] for r in rows} == {"sent": 4 * len(rooms)}


def test_a_three_player_m_game_to_the_end_alerts_once_per_turn_on_every_channel(
    tmp_path: Path, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    """Mail, push and webhook for every turn of a whole game, through two kill -9 restarts."""
    clock_file = tmp_path / "clock"
    clock_file.write_text("0")
    url = f"sqlite+aiosqlite:///{tmp_path / 'game.db'}"
    server = ServerProcess(tmp_path / "data", env=_env(url, smtp, clock_file))
    server.start()
    try:
        table = Table(server)
        keys = {seat: PushKeys.make() for seat in range(3)}
        for seat in range(3):
            leave_address(  # one mail per turn (the daily digest is the default)
                table.http,
                smtp,
                table.room,
                table.tokens[seat],
                f"seat{seat}@example.org",
                each_turn=True,
            )
            table.alerts(seat, "push", keys[seat].subscription(receiver.url(f"/push/{seat}")))
        table.alerts(0, "webhook", {"url": receiver.url("/hook"), "shape": "json"})
        turns: Counter[int] = Counter()
        # the first turn began before anyone asked for alerts: it has none
        previous: int | None = table.acting()
        moves = 0
        while True:
            state = table.http.get(f"/api/rooms/{table.room}/state").json()
            if state["result"] is not None:
                break
            (seat,) = state["to_act"]
            if seat != previous:
                turns[seat] += 1
                advance(clock_file, DELAY_MINUTES + 1)
                total = sum(turns.values())
                smtp.wait(total)
                wait_for(lambda total=total: len(receiver.got()) >= 2 * total, f"turn {total}")
            previous = seat
            table.move()
            moves += 1
            if moves in (7, 23):
                server.stop(kill=True)  # the next turn's alerts wait in the outbox
                server.start()
                table.use(server)
        server.stop()
        assert moves > 20
        assert Counter(m["To"] for m in smtp.mails) == Counter(
            {f"seat{s}@example.org": n for s, n in turns.items()}
        )
        got = Counter(r.path for r in receiver.got())
        assert got == Counter(
            {**{f"/push/{s}": n for s, n in turns.items()}, "/hook": sum(turns.values())}
        )
    finally:
        server.stop()
