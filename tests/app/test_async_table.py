"""A table that plays one move a day, with a friend gone for good, to the end.

Three people play M with a day per move; Cleo never comes back. Everyone asked for
mail and push, the host set the room's webhook. Each turn of a person brings one mail,
one push and one webhook call, through two ``kill -9`` restarts of the server; Cleo
gets one reminder when a quarter of her day is left, then her seat goes to a bot
(the host's choice), which she is told of by mail and push (not by the webhook, which
carries turns only unless the host chooses more), and the game runs on to its result. Time moves by the server's
clock file: nobody sleeps through a day.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from tests.app.alerting import advance, auth, leave_address
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer, wait_for
from tests.server import ServerProcess

DELAY_MINUTES = 10
DAY_HOURS = 24
GONE = 2  # Cleo's seat


class DailyTable:
    """Anna, Ben and Cleo at M with a day per move; a bot takes a seat whose day ran out."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        created = self.http.post(
            "/api/rooms",
            json={
                "game": "m",
                "players": 3,
                "name": "Anna",
                "turn_seconds": DAY_HOURS * 3600,
                "on_timeout": "bot_seat",
            },
        )
        assert created.status_code == 201, created.text
        self.room: str = created.json()["room"]
        self.tokens = [created.json()["token"]]
        for seat, name in ((1, "Ben"), (2, "Cleo")):
            claimed = self.http.post(f"/api/rooms/{self.room}/seats/{seat}", json={"name": name})
            self.tokens.append(claimed.json()["token"])
        started = self.http.post(f"/api/rooms/{self.room}/start", headers=auth(self.tokens[0]))
        assert started.status_code == 200, started.text

    def use(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)

    def state(self, seat: int | None = None) -> dict[str, Any]:
        headers = auth(self.tokens[seat]) if seat is not None else {}
        response = self.http.get(f"/api/rooms/{self.room}/state", headers=headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def alerts(self, seat: int, path: str, body: dict[str, Any]) -> None:
        method = "POST" if path == "push" else "PUT"
        response = self.http.request(
            method,
            f"/api/rooms/{self.room}/alerts/{path}",
            json=body,
            headers=auth(self.tokens[seat]),
        )
        assert response.status_code == 200, response.text

    def move(self, seat: int) -> None:
        state = self.state(seat)
        response = self.http.post(
            f"/api/rooms/{self.room}/moves",
            json={"seq": state["seq"], "move": state["legal_moves"][0]},
            headers=auth(self.tokens[seat]),
        )
        assert response.status_code == 200, response.text

    def stand_in(self, seat: int) -> str | None:
        seats = self.state()["room"]["seats"]
        return seats[seat]["stand_in"]  # type: ignore[no-any-return]

    def events(self) -> list[dict[str, Any]]:
        response = self.http.get(f"/api/rooms/{self.room}/events", params={"limit": 1000})
        return list(response.json()["events"])


def test_a_day_per_move_table_with_a_friend_gone_for_good_plays_to_the_end(
    tmp_path: Path, smtp: SmtpServer, receiver: HttpReceiver
) -> None:
    clock_file = tmp_path / "clock"
    clock_file.write_text("0")
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'game.db'}",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp.port),
        "SMTP_SECURITY": "none",
        "WEBHOOK_ALLOW_PRIVATE": "true",
        "ALERT_DELAY_MINUTES": str(DELAY_MINUTES),
        "ALERT_POLL_SECONDS": "0.2",
        "ALERT_ROOM_HOURLY_CAP": "100",
        "DEADLINE_POLL_SECONDS": "0.2",
        "CLOCK_OFFSET_FILE": str(clock_file),
        "PUBLIC_URL": "https://play.example.org",
    }
    server = ServerProcess(tmp_path / "data", env=env)
    server.start()
    try:
        table = DailyTable(server)
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

        turns: Counter[int] = Counter()  # turns people were asked to play, by seat
        reminders = 0
        told = 0  # "a bot plays for you": Cleo's mail and push, not the webhook
        previous: int | None = table.state()["to_act"][0]  # began before anyone subscribed
        moves = 0
        while (state := table.state())["result"] is None:
            (seat,) = state["to_act"]
            if table.stand_in(seat) is not None:
                # the bot plays Cleo's seat now: no alert, just wait for its move
                seq = state["seq"]
                wait_for(lambda seq=seq: table.state()["seq"] > seq, "the stand-in's move")
                previous = seat
                continue
            if seat != previous:
                turns[seat] += 1
                advance(clock_file, DELAY_MINUTES + 1)
                total = sum(turns.values()) + reminders
                smtp.wait(total + told)
                wait_for(
                    lambda total=total, told=told: len(receiver.got()) >= 2 * total + told,
                    f"turn {total}",
                )
            previous = seat
            if seat == GONE:
                # Cleo never answers: a reminder with a quarter of her day left, then a bot
                advance(clock_file, DAY_HOURS * 60 * 3 / 4)
                reminders += 1
                total = sum(turns.values()) + reminders
                smtp.wait(total)
                wait_for(lambda total=total: len(receiver.got()) >= 2 * total, "the reminder")
                advance(clock_file, DAY_HOURS * 60 / 4)
                wait_for(lambda: table.stand_in(GONE) is not None, "a bot for Cleo's seat")
                told += 1
                continue
            table.move(seat)
            moves += 1
            if moves in (5, 17):
                server.stop(kill=True)  # the next turn's alerts wait in the outbox
                server.start()
                table.use(server)

        assert state["room"]["status"] == "finished"
        assert reminders == 1 and turns[GONE] == 1 and told == 1
        assert any("A bot plays for you" in str(m["Subject"]) for m in smtp.mails)
        assert moves > 10
        # a moment for anything sent twice to arrive before counting
        time.sleep(1)
        mails = Counter(m["To"] for m in smtp.mails)
        assert mails == Counter(
            {
                f"seat{s}@example.org": n + (reminders + told if s == GONE else 0)
                for s, n in turns.items()
            }
        )
        assert any("Time is running out" in str(m["Subject"]) for m in smtp.mails)
        got = Counter(r.path for r in receiver.got())
        assert got == Counter(
            {
                **{
                    f"/push/{s}": n + (reminders + told if s == GONE else 0)
                    for s, n in turns.items()
                },
                "/hook": sum(turns.values()) + reminders,
            }
        )
        log = table.events()
        assert [e["seat"] for e in log if e["kind"] == "seat_stand_in"] == [GONE]
        bot_moves = [e for e in log if e["kind"] == "move" and e["seat"] == GONE]
        assert bot_moves, "the stand-in played Cleo's turns"
        server.stop()
    finally:
        server.stop()
