"""Push and webhook alerts against a local HTTP receiver, and the rules every alert follows."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from py_vapid import Vapid02

from app.core.clock import clock
from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import auth, move, outbox, table, work
from tests.pushkeys import PushKeys
from tests.receivers import HttpReceiver

DELAY_MINUTES = 3


def _client(settings: Settings, **update: object) -> TestClient:
    values: dict[str, object] = {
        "alert_delay_minutes": DELAY_MINUTES,
        "alert_poll_seconds": 3600,
        "alert_retry_seconds": 30,
        "webhook_allow_private": True,
        "public_url": "https://play.example.org",
        **update,
    }
    return TestClient(create_app(settings.model_copy(update=values)))


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    try:
        with _client(settings) as client:
            yield client
    finally:
        clock.reset()


def _later(minutes: float = DELAY_MINUTES + 1) -> None:
    clock.advance(minutes * 60)


# -- Web Push ------------------------------------------------------------------


def test_a_push_is_encrypted_to_the_subscription_and_signed_with_the_servers_key(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben, _) = table(client, ("Anna", "Ben", "Cleo"))
    keys = PushKeys.make()
    added = client.post(
        f"/api/rooms/{room}/alerts/push",
        json={**keys.subscription(receiver.url("/push/ben")), "lang": "en"},
        headers=auth(ben),
    )
    assert added.status_code == 200, added.text
    assert added.json()["push"] == 1
    assert "/push/ben" not in added.text
    move(client, room, anna)
    _later()
    work(client)
    (request,) = receiver.wait(1)
    assert request.path == "/push/ben"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert b"Your turn" not in request.body, "the body is encrypted"
    payload = keys.decrypt(request.body)
    assert payload["title"] == "Your turn — Secret count with Anna and Cleo"
    assert payload["url"] == f"/r/{room}"
    vapid_key = client.get(f"/api/rooms/{room}/alerts/vapid-key").json()["key"]
    assert f"k={vapid_key}" in request.headers["authorization"]
    assert Vapid02.verify(request.headers["authorization"])


def test_a_subscription_the_push_service_forgot_is_dropped(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    receiver.statuses.append(410)
    client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription(receiver.url()),
        headers=auth(ben),
    )
    move(client, room, anna)
    _later()
    work(client)
    receiver.wait(1)
    assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["push"] == 0


def test_a_removed_subscription_gets_nothing(client: TestClient, receiver: HttpReceiver) -> None:
    room, (anna, ben) = table(client)
    sub = PushKeys.make().subscription(receiver.url())
    client.post(f"/api/rooms/{room}/alerts/push", json=sub, headers=auth(ben))
    move(client, room, anna)
    removed = client.request(
        "DELETE",
        f"/api/rooms/{room}/alerts/push",
        json={"endpoint": sub["endpoint"]},
        headers=auth(ben),
    )
    assert removed.json()["push"] == 0
    _later()
    work(client)
    assert receiver.got() == []
    assert outbox(client, room) == []


def test_bad_subscriptions_are_refused(client: TestClient) -> None:
    room, (anna, _) = table(client)
    for body in (
        {
            "endpoint": "ftp://push.example/x",
            "keys": {"p256dh": PushKeys.make().p256dh, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
        },
        {"endpoint": "https://push.example/x", "keys": {"p256dh": "bm90IGEga2V5", "auth": "AAAA"}},
    ):
        response = client.post(f"/api/rooms/{room}/alerts/push", json=body, headers=auth(anna))
        assert response.status_code == 400 and response.json()["code"] == "bad_subscription"


# -- rules ---------------------------------------------------------------------


def test_an_alert_waits_while_the_player_has_the_room_open_and_goes_after_it_closes(
    client: TestClient, receiver: HttpReceiver
) -> None:
    from app.alerts.outbox import WATCH

    room, (anna, ben) = table(client)
    client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription(receiver.url()),
        headers=auth(ben),
    )
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": ben})
        assert ws.receive_json()["type"] == "state"
        move(client, room, anna)
        _later()
        work(client)
        assert receiver.got() == []
        _later(60)  # an hour with the tab open: still waiting, not dropped
        work(client)
        assert receiver.got() == []
        assert [r["status"] for r in outbox(client, room)] == ["pending"]
    # the tab closed just now: the usual delay runs from here
    clock.advance(WATCH.total_seconds())
    work(client)
    assert receiver.got() == []
    _later(DELAY_MINUTES - 1)
    work(client)
    assert receiver.got() == [], "not before the delay has passed since the tab closed"
    _later(1)
    work(client)
    assert len(receiver.wait(1)) == 1
    assert [r["status"] for r in outbox(client, room)] == ["sent"]


def test_a_turn_played_while_the_room_was_open_is_never_alerted(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription(receiver.url("/push/ben")),
        headers=auth(ben),
    )
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": ben})
        assert ws.receive_json()["type"] == "state"
        move(client, room, anna)
        _later()
        work(client)
        move(client, room, ben)
    _later(2 * DELAY_MINUTES)
    work(client)
    assert "/push/ben" not in [r.path for r in receiver.got()]
    ben_rows = [r["status"] for r in outbox(client, room) if r["seat"] == 1]
    assert ben_rows == ["cancelled"]


async def test_when_a_seats_last_tab_closed_is_known_to_every_process(redis_url: str) -> None:
    """Two processes' presence over one Redis: the tab closes on one, the other's
    outbox learns when (the time its alert delay runs from)."""
    import uuid

    from app.core.redislink import RedisLink
    from app.live.presence import RedisPresence

    room = f"room-{uuid.uuid4().hex}"
    here, there = RedisLink(redis_url), RedisLink(redis_url)
    try:
        holding, asking = RedisPresence(here), RedisPresence(there)
        await holding.join(room, 1, "tab-1")
        assert await asking.online(room, 2) == {0: False, 1: True}
        assert await asking.closed_at(room, 2) == {}
        clock.advance(90)
        await holding.leave(room, 1, "tab-1")
        assert await asking.online(room, 2) == {0: False, 1: False}
        closed = (await asking.closed_at(room, 2))[1]
        assert abs((closed - clock.now()).total_seconds()) < 5
    finally:
        clock.reset()
        await here.close()
        await there.close()


def test_bots_get_no_alerts(client: TestClient, receiver: HttpReceiver) -> None:
    created = client.post(
        "/api/rooms",
        json={"game": "secret", "players": 2, "name": "Anna", "bots": {"1": "one"}},
    ).json()
    room, anna = created["room"], created["token"]
    client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription(receiver.url()),
        headers=auth(anna),
    )
    client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url("/hook"), "shape": "json"},
        headers=auth(anna),
    )
    client.post(f"/api/rooms/{room}/start", headers=auth(anna))
    rows = outbox(client, room)
    assert {(r["seat"], r["kind"]) for r in rows} == {(0, "turn")}, "Anna's turn, not the bot's"
    _later()
    work(client)
    assert {r.path for r in receiver.wait(1)} <= {"/hook"}


def test_a_finished_game_leaves_no_turn_alert_behind_and_a_rematch_alerts_afresh(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, tokens = table(client)
    for token in tokens:
        client.post(
            f"/api/rooms/{room}/alerts/push",
            json=PushKeys.make().subscription(receiver.url()),
            headers=auth(token),
        )
    state = client.get(f"/api/rooms/{room}/state").json()
    while state["result"] is None:
        state = move(client, room, tokens[state["to_act"][0]])
    rows = outbox(client, room)
    turns = [r for r in rows if r["kind"] == "turn"]
    assert turns and {r["status"] for r in turns} == {"cancelled"}
    # what is left is the end of the game, for the one who did not make the last move
    assert [(r["kind"], r["status"]) for r in rows if r["kind"] != "turn"] == [
        ("game_over", "pending")
    ]
    client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    rows = outbox(client, room)
    assert [r["status"] for r in rows].count("pending") == 1
    assert [r["status"] for r in rows if r["kind"] == "game_over"] == ["cancelled"]
    _later()
    work(client)
    assert len(receiver.wait(1)) == 1


def test_at_most_one_alert_per_seat_and_turn_even_when_queued_twice(client: TestClient) -> None:
    from app.alerts import due as alerts
    from tests.app.alerting import services

    room, (anna, ben) = table(client)
    client.put(f"/api/rooms/{room}/alerts/lang", json={"lang": "de"}, headers=auth(ben))
    client.post(
        f"/api/rooms/{room}/alerts/push",
        json=PushKeys.make().subscription("https://push.example.org/ben"),
        headers=auth(ben),
    )
    move(client, room, anna)
    svc = services(client)

    async def again() -> None:
        state = await svc.rooms.load(room)
        async with svc.rooms.db.transaction() as session:
            await alerts.enqueue_turn_alert(session, state, 1, "turn", turn_seq=state.seq)
            await alerts.enqueue_turn_alert(session, state, 1, "reminder", turn_seq=state.seq)
            await alerts.enqueue_turn_alert(session, state, 1, "reminder", turn_seq=state.seq)

    client.portal.call(again)  # type: ignore[union-attr]
    assert sorted(r["kind"] for r in outbox(client, room)) == ["reminder", "turn"]


# -- webhooks ------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["discord", "slack", "json"])
def test_webhook_shapes(client: TestClient, receiver: HttpReceiver, shape: str) -> None:
    room, (anna, _) = table(client)
    response = client.put(
        f"/api/rooms/{room}/alerts/webhook",
        json={"url": receiver.url(), "shape": shape, "lang": "de"},
        headers=auth(anna),
    )
    assert response.status_code == 200, response.text
    assert response.json()["webhook"] == {
        "set": True,
        "shape": shape,
        "kinds": {"game_over": False, "bot_took_seat": False},
    }
    assert receiver.url() not in response.text
    move(client, room, anna)
    _later()
    work(client)
    body = receiver.wait(1)[0].json()
    link = f"https://play.example.org/r/{room}"
    if shape == "discord":
        assert body == {
            "username": "Spieltisch",
            "content": f"Ben ist in Secret count am Zug. {link}",
        }
    elif shape == "slack":
        assert body == {"text": f"Ben ist in Secret count am Zug. <{link}|Zum Tisch>"}
    else:
        assert body == {
            "event": "turn",
            "room": room,
            "game": "Secret count",
            "seat": 1,
            "player": "Ben",
            "url": link,
            "text": "Ben ist in Secret count am Zug.",
        }


def test_a_failing_webhook_is_retried_with_backoff_and_delivered_once(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, _) = table(client)
    receiver.statuses.extend([500, 503])
    client.put(
        f"/api/rooms/{room}/alerts/webhook", json={"url": receiver.url()}, headers=auth(anna)
    )
    move(client, room, anna)
    _later()
    work(client)
    assert len(receiver.wait(1)) == 1
    _later(0.6)  # 30 s after the first failure
    work(client)
    assert len(receiver.wait(2)) == 2
    _later(0.6)  # the second retry waits 60 s: not yet
    work(client)
    assert len(receiver.got()) == 2
    _later(0.6)
    work(client)
    assert len(receiver.wait(3)) == 3
    assert outbox(client, room)[-1]["status"] == "sent"
    _later(120)
    work(client)
    assert len(receiver.got()) == 3


def test_only_the_host_sets_the_webhook_and_no_one_sees_it(
    client: TestClient, receiver: HttpReceiver
) -> None:
    room, (anna, ben) = table(client)
    refused = client.put(
        f"/api/rooms/{room}/alerts/webhook", json={"url": receiver.url()}, headers=auth(ben)
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    client.put(
        f"/api/rooms/{room}/alerts/webhook", json={"url": receiver.url()}, headers=auth(anna)
    )
    assert "webhook" not in client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()
    removed = client.request("DELETE", f"/api/rooms/{room}/alerts/webhook", headers=auth(anna))
    assert removed.json()["webhook"] == {"set": False, "shape": None, "kinds": None}


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://localhost/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "ftp://example.org/hook",
        "https://user:secret@example.org/hook",
    ],
)
async def test_webhooks_to_private_addresses_are_refused(url: str) -> None:
    from app.alerts import guard

    with pytest.raises(guard.BadUrl):
        await guard.check_url(url, allow_private=False)


def test_the_api_refuses_a_private_webhook_with_a_clear_error(settings: Settings) -> None:
    with _client(settings, webhook_allow_private=False) as client:
        room, (anna, _) = table(client)
        response = client.put(
            f"/api/rooms/{room}/alerts/webhook",
            json={"url": "http://169.254.169.254/latest"},
            headers=auth(anna),
        )
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "bad_webhook" and "private" in body["message"]


def test_a_public_address_passes_the_guard(settings: Settings) -> None:
    with _client(settings, webhook_allow_private=False) as client:
        room, (anna, _) = table(client)
        response = client.put(
            f"/api/rooms/{room}/alerts/webhook",
            json={"url": "https://93.184.215.14/hook", "shape": "slack"},
            headers=auth(anna),
        )
        assert response.status_code == 200, response.text


async def test_the_guard_is_checked_again_before_each_call() -> None:
    from app.alerts import guard, webhooks

    client = guard.Outbound(allow_private=False)
    try:
        with pytest.raises(webhooks.WebhookFailed, match="private"):
            await webhooks.send(client, "http://127.0.0.1:9/hook", {}, 1.0)
    finally:
        await client.aclose()


def test_push_endpoints_on_private_addresses_are_refused(settings: Settings) -> None:
    with _client(settings, webhook_allow_private=False) as client:
        room, (anna, _) = table(client)
        response = client.post(
            f"/api/rooms/{room}/alerts/push",
            json=PushKeys.make().subscription("http://169.254.169.254/latest"),
            headers=auth(anna),
        )
        assert response.status_code == 400 and response.json()["code"] == "bad_subscription"


def test_closed_alerts_are_forgotten_after_a_week_and_pending_ones_kept(
    client: TestClient, receiver: HttpReceiver
) -> None:
    from app.alerts import store as alert_store
    from tests.app.alerting import services

    room, (anna, ben) = table(client)
    client.put(
        f"/api/rooms/{room}/alerts/webhook", json={"url": receiver.url()}, headers=auth(anna)
    )
    move(client, room, anna)
    _later()
    work(client)
    receiver.wait(1)
    move(client, room, ben)  # Anna's turn: pending
    svc = services(client)

    async def prune() -> None:
        async with svc.rooms.db.transaction() as session:
            await alert_store.prune(session, clock.now() + timedelta(days=8))

    client.portal.call(prune)  # type: ignore[union-attr]
    assert [r["status"] for r in outbox(client, room)] == ["pending"]


def test_a_seat_keeps_at_most_ten_push_subscriptions(client: TestClient) -> None:
    room, (anna, _) = table(client)
    for device in range(12):
        body = client.post(
            f"/api/rooms/{room}/alerts/push",
            json=PushKeys.make().subscription(f"https://push.example.org/device-{device}"),
            headers=auth(anna),
        ).json()
    assert body["push"] == 10
    kept = client.request(
        "DELETE",
        f"/api/rooms/{room}/alerts/push",
        json={"endpoint": "https://push.example.org/device-11"},
        headers=auth(anna),
    ).json()
    assert kept["push"] == 9, "the newest one was kept"
