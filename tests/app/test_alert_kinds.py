"""Alerts besides "your turn": the game ended, a bot took your seat, and chat, each chosen
per channel, through the same outbox. Real HTTP receivers for push and webhooks, a real
SMTP server for mail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.clock import clock
from app.core.config import Settings
from tests.app.alerting import (
    auth,
    leave_address,
    mail_client,
    move,
    outbox,
    own_database,
    table,
    work,
)
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver, SmtpServer

DELAY_MINUTES = 3


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    return own_database(settings, request)


@pytest.fixture
def client(settings: Settings, smtp: SmtpServer) -> Iterator[TestClient]:
    more = {"webhook_allow_private": True, "bot_delay_ms": 0}
    with mail_client(settings, smtp, DELAY_MINUTES, **more) as client:
        yield client


def _later(minutes: float = DELAY_MINUTES + 1) -> None:
    clock.advance(minutes * 60)


def _subscribe(client: TestClient, room: str, token: str, url: str) -> PushKeys:
    keys = PushKeys.make()
    added = client.post(
        f"/api/rooms/{room}/alerts/push", json=keys.subscription(url), headers=auth(token)
    )
    assert added.status_code == 200, added.text
    return keys


def _choose(client: TestClient, room: str, token: str, channel: str, **kinds: bool) -> Any:
    response = client.put(
        f"/api/rooms/{room}/alerts/kinds",
        json={"channel": channel, "kinds": kinds},
        headers=auth(token),
    )
    assert response.status_code == 200, response.text
    return response.json()


def _chat(client: TestClient, room: str, token: str, text: str) -> None:
    response = client.post(f"/api/rooms/{room}/chat", json={"text": text}, headers=auth(token))
    assert response.status_code == 200, response.text


def _pushes(receiver: HttpReceiver, keys: PushKeys, path: str) -> list[dict[str, Any]]:
    return [keys.decrypt(r.body) for r in receiver.got() if r.path == path]


def _play_to_the_end(client: TestClient, room: str, tokens: list[str]) -> None:
    """The secret game ends when the total reaches 12: twelve moves of one."""
    for n in range(12):
        move(client, room, tokens[n % len(tokens)])
    state = client.get(f"/api/rooms/{room}/state", headers=auth(tokens[0])).json()
    assert state["room"]["status"] == "finished"


def test_the_settings_tell_each_channels_kinds_with_chat_off_by_default(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (_, ben) = table(client)
    before = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
    assert before["kinds"] == {}
    _subscribe(client, room, ben, receiver.url("/push/ben"))
    mine = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
    assert mine["kinds"] == {"push": {"game_over": True, "bot_took_seat": True, "chat": False}}
    chosen = _choose(client, room, ben, "push", chat=True, game_over=False)
    assert chosen["kinds"]["push"] == {"game_over": False, "bot_took_seat": True, "chat": True}
    # a second device of the same person carries what they chose
    _subscribe(client, room, ben, receiver.url("/push/ben-phone"))
    again = client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
    assert again["kinds"]["push"]["chat"] is True


def test_choosing_kinds_needs_the_channel_and_the_webhook_never_carries_chat(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    missing = client.put(
        f"/api/rooms/{room}/alerts/kinds",
        json={"channel": "email", "kinds": {"chat": True}},
        headers=auth(ben),
    )
    assert missing.status_code == 409 and missing.json()["code"] == "no_channel"
    client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url("/hook"), "shape": "json"},
        headers=auth(anna),
    )
    chat = client.put(
        f"/api/rooms/{room}/alerts/kinds",
        json={"channel": "webhook", "kinds": {"chat": True}},
        headers=auth(anna),
    )
    assert chat.status_code == 400 and chat.json()["code"] == "bad_alert_kind"
    not_host = client.put(
        f"/api/rooms/{room}/alerts/kinds",
        json={"channel": "webhook", "kinds": {"game_over": True}},
        headers=auth(ben),
    )
    assert not_host.status_code == 403
    unknown = client.put(
        f"/api/rooms/{room}/alerts/kinds",
        json={"channel": "push", "kinds": {"secret_word": True}},
        headers=auth(ben),
    )
    assert unknown.status_code in (400, 422)
    hook = _choose(client, room, anna, "webhook", game_over=True)
    assert hook["webhook"]["kinds"] == {"game_over": True, "bot_took_seat": False}
    moved = client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url("/other-hook"), "shape": "slack"},
        headers=auth(anna),
    )
    assert moved.json()["webhook"]["kinds"]["game_over"] is True, "a new URL keeps the choice"


def test_the_end_of_a_game_is_pushed_to_those_who_did_not_make_the_last_move(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    anna_keys = _subscribe(client, room, anna, receiver.url("/push/anna"))
    ben_keys = _subscribe(client, room, ben, receiver.url("/push/ben"))
    client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url("/hook"), "shape": "json"},
        headers=auth(anna),
    )
    _choose(client, room, anna, "webhook", game_over=True)
    _play_to_the_end(client, room, [anna, ben])  # Ben's move ends it
    _later()
    work(client)
    receiver.wait(2)
    (pushed,) = _pushes(receiver, anna_keys, "/push/anna")
    assert pushed["kind"] == "game_over"
    assert pushed["title"] == "Game over — Secret count with Ben"
    assert _pushes(receiver, ben_keys, "/push/ben") == [], "Ben saw the end himself"
    (hook,) = [r.json() for r in receiver.got() if r.path == "/hook"]
    assert hook["event"] == "game_over" and hook["text"] == "The Secret count game is over."
    assert hook["seat"] is None and hook["player"] is None


def test_a_channel_that_switched_game_over_off_hears_nothing_of_the_end(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    _subscribe(client, room, anna, receiver.url("/push/anna"))
    _choose(client, room, anna, "push", game_over=False)
    _play_to_the_end(client, room, [anna, ben])
    _later()
    work(client)
    assert receiver.got() == []
    assert [r for r in outbox(client, room) if r["kind"] == "game_over"] == []


def test_a_bot_taking_the_seat_is_mailed_but_not_when_the_person_left_themself(
    client: TestClient, smtp: SmtpServer
) -> None:
    room, (anna, ben, cleo) = table(client, ("Anna", "Ben", "Cleo"))
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org", "de")
    leave_address(client, smtp, room, cleo, f"cleo.{room}@example.org")
    handed = client.post(f"/api/rooms/{room}/seats/1/hand-over", headers=auth(anna))
    assert handed.status_code == 200, handed.text
    left = client.post(f"/api/rooms/{room}/leave", headers=auth(cleo))
    assert left.status_code == 200, left.text
    _later()
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["To"] == f"ben.{room}@example.org"
    assert mail["Subject"] == "Ein Bot spielt für dich — Secret count mit Anna und Cleo"
    assert "spielt jetzt ein Bot deinen Platz" in mail.get_content()
    kinds = {(r["seat"], r["kind"]) for r in outbox(client, room)}
    assert (2, "bot_took_seat") not in kinds, "Cleo handed her seat over herself"


def test_taking_the_seat_back_first_drops_the_bot_alert(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben, _) = table(client, ("Anna", "Ben", "Cleo"))
    _subscribe(client, room, ben, receiver.url("/push/ben"))
    client.post(f"/api/rooms/{room}/seats/1/hand-over", headers=auth(anna))
    back = client.post(f"/api/rooms/{room}/seats/1/take-back", headers=auth(ben))
    assert back.status_code == 200, back.text
    _later()
    work(client)
    assert [r.path for r in receiver.got()] == []


def test_a_burst_of_chat_is_one_alert_never_for_the_writer_and_quotes_the_last_line(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    anna_keys = _subscribe(client, room, anna, receiver.url("/push/anna"))
    ben_keys = _subscribe(client, room, ben, receiver.url("/push/ben"))
    _choose(client, room, anna, "push", chat=True)
    _choose(client, room, ben, "push", chat=True)
    _chat(client, room, anna, "Are you there?")
    _chat(client, room, anna, "Your move, I think")
    _chat(client, room, anna, "Long words " + "x" * 200)
    chats = [r for r in outbox(client, room) if r["kind"] == "chat"]
    assert [r["seat"] for r in chats] == [1], "one alert for Ben, none for Anna, the writer"
    _later()
    work(client)
    receiver.wait(1)
    assert _pushes(receiver, anna_keys, "/push/anna") == []
    (pushed,) = _pushes(receiver, ben_keys, "/push/ben")
    assert pushed["kind"] == "chat"
    assert pushed["title"] == "New in the chat — Secret count with Anna"
    assert pushed["body"].startswith("3 new messages; the last from Anna: Long words xxx")
    assert pushed["body"].endswith("…") and len(pushed["body"]) < 140


def test_chat_alerts_are_off_by_default_and_the_readers_reply_drops_them(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben, cleo) = table(client, ("Anna", "Ben", "Cleo"))
    _subscribe(client, room, ben, receiver.url("/push/ben"))
    _subscribe(client, room, cleo, receiver.url("/push/cleo"))
    _choose(client, room, ben, "push", chat=True)
    _chat(client, room, anna, "Hello")
    assert {r["seat"] for r in outbox(client, room) if r["kind"] == "chat"} == {1}
    _chat(client, room, ben, "Hi Anna")  # Ben has read it
    _later()
    work(client)
    assert [r.path for r in receiver.got()] == [], "Cleo never chose chat; Ben replied"


def test_a_chat_alert_waits_while_the_readers_tab_is_open_and_mails_the_quote(
    client: TestClient, smtp: SmtpServer
) -> None:
    from app.alerts.outbox import WATCH

    room, (anna, ben) = table(client)
    leave_address(client, smtp, room, ben, f"ben.{room}@example.org", "fr")
    _choose(client, room, ben, "email", chat=True)
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": ben})
        assert ws.receive_json()["type"] == "state"
        _chat(client, room, anna, "On joue ce soir ?")
        _later()
        work(client)
        assert smtp.mails == []
    clock.advance(WATCH.total_seconds())
    work(client)
    _later()
    work(client)
    (mail,) = smtp.wait(1)
    assert mail["Subject"] == "Nouveau dans le chat — Secret count avec Anna"
    body = mail.get_content()
    assert "il y a du nouveau dans le chat" in body
    assert "Anna : On joue ce soir ?" in body
