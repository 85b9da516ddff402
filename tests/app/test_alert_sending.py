"""How alerts travel: the address guard against DNS rebinding, one deadline per call, a
bounded read of the answer, and alerts sent side by side.

Real receivers on loopback (plain, TLS, trickling, huge), a real SMTP server, and the
guard's resolver (``app.alerts.guard.resolve``) driven by the test: a name whose answers
change with every lookup, as a name with a TTL of 0 can.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import trustme
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient
from py_vapid import Vapid

from app.alerts import guard, push, webhooks
from app.alerts.keys import AlertKeys
from app.core.clock import clock
from app.core.config import Settings
from app.services import create_app
from tests.app.alerting import auth, move, outbox, services, table, work
from tests.pushkeys import PushKeys
from tests.receivers import (
    HttpReceiver,
    SmtpServer,
    http_receiver,
    huge_receiver,
    trickling_receiver,
    wait_for,
)

DELAY_MINUTES = 3
# A public address by every rule the guard knows, in a block no network routes (2d00::/8
# is not handed out): a call the guard lets through fails there, it never reaches anyone.
PUBLIC = "2d00::5:1"
LOOPBACK = "127.0.0.1"
HANG_GUARD = 60.0


class Names:
    """A resolver the test drives: each name answers its addresses in turn, one per
    lookup, and the last one from then on; other names go to the system's resolver."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers
        self.lookups: dict[str, int] = dict.fromkeys(answers, 0)

    async def __call__(self, host: str, port: int) -> list[str]:
        if host not in self.answers:
            return await guard.system_resolve(host, port)
        turns = self.answers[host]
        answer = turns[min(self.lookups[host], len(turns) - 1)]
        self.lookups[host] += 1
        return [answer]


def _client(settings: Settings, **update: object) -> TestClient:
    values: dict[str, object] = {
        "alert_delay_minutes": DELAY_MINUTES,
        "alert_poll_seconds": 3600,
        "alert_retry_seconds": 30,
        "webhook_allow_private": False,
        "public_url": "https://play.example.org",
        **update,
    }
    return TestClient(create_app(settings.model_copy(update=values)))


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    yield
    clock.reset()


def _later(minutes: float = DELAY_MINUTES + 1) -> None:
    clock.advance(minutes * 60)


def _second_loopback(port: int) -> str:
    """127.0.0.2, where this system lets a test listen on it (Linux does)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.2", port))
        except OSError as exc:
            pytest.skip(f"can't listen on 127.0.0.2 here: {exc}")
    return "127.0.0.2"


# -- DNS rebinding ---------------------------------------------------------------


@pytest.mark.parametrize(
    "answers",
    [[PUBLIC, PUBLIC, LOOPBACK], [PUBLIC, LOOPBACK, PUBLIC, LOOPBACK]],
    ids=["public-twice-then-loopback", "flipping"],
)
def test_a_rebinding_webhook_name_never_reaches_loopback_at_put_or_at_retry(
    settings: Settings,
    receiver: HttpReceiver,
    monkeypatch: pytest.MonkeyPatch,
    answers: list[str],
) -> None:
    """The PUT and then three tries (the first and two retries). Where the one lookup of a
    try answers the public address, the call goes there (and fails: nothing listens);
    where it answers 127.0.0.1, the guard refuses. No call reaches 127.0.0.1."""
    name = "hook.rebind.test"
    names = Names({name: answers})
    monkeypatch.setattr(guard, "resolve", names)
    with _client(settings) as client:
        room, (anna, _) = table(client)
        put = client.put(
            f"/api/rooms/{room}/alerts/webhook",
            json={"url": receiver.url(name=name)},
            headers=auth(anna),
        )
        assert put.status_code == 200, "the check at PUT saw the public answer"
        move(client, room, anna)
        _later()
        work(client)
        _later(0.6)  # the first retry, 30 s after the first try
        work(client)
        _later(1.1)  # the second, 60 s after the first retry
        work(client)
        assert receiver.got() == [], "a call reached the receiver on 127.0.0.1"
        (row,) = outbox(client, room)
        assert row["status"] == "pending" and row["attempts"] == 3
        assert names.lookups[name] == 4, "one lookup at PUT and exactly one per try"


def test_a_rebinding_push_endpoint_never_reaches_loopback_and_is_dropped(
    settings: Settings, receiver: HttpReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "push.rebind.test"
    names = Names({name: [PUBLIC, PUBLIC, LOOPBACK]})
    monkeypatch.setattr(guard, "resolve", names)
    with _client(settings) as client:
        room, (anna, ben) = table(client)
        added = client.post(
            f"/api/rooms/{room}/alerts/push",
            json=PushKeys.make().subscription(receiver.url("/push/ben", name=name)),
            headers=auth(ben),
        )
        assert added.status_code == 200, added.text
        move(client, room, anna)
        _later()
        work(client)  # to the public address: unreachable, tried again later
        assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["push"] == 1
        _later(0.6)
        work(client)  # 127.0.0.1: refused, and the subscription is dropped
        assert receiver.got() == []
        assert client.get(f"/api/rooms/{room}/alerts", headers=auth(ben)).json()["push"] == 0
        assert names.lookups[name] == 3


def test_webhooks_and_pushes_connect_to_the_address_the_guard_looked_up(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With private addresses allowed the guard judges nothing but still pins: the one
    lookup's answer (127.0.0.2) gets the call, a later answer (127.0.0.1) never does, and
    the Host header keeps the URL's name."""
    with ExitStack() as stack:
        first = stack.enter_context(http_receiver())
        pinned = stack.enter_context(
            http_receiver(host=_second_loopback(first.port), port=first.port)
        )
        hook, endpoint = "hook.pinned.test", "push.pinned.test"
        names = Names({hook: [pinned.host, first.host], endpoint: [pinned.host, first.host]})
        monkeypatch.setattr(guard, "resolve", names)
        client = stack.enter_context(_client(settings, webhook_allow_private=True))
        room, (anna, ben) = table(client)
        client.put(
            f"/api/rooms/{room}/alerts/webhook",
            json={"url": pinned.url(name=hook)},
            headers=auth(anna),
        )
        client.post(
            f"/api/rooms/{room}/alerts/push",
            json=PushKeys.make().subscription(pinned.url("/push/ben", name=endpoint)),
            headers=auth(ben),
        )
        move(client, room, anna)
        _later()
        work(client)
        got = sorted(pinned.wait(2), key=lambda r: r.path)
        assert [(r.path, r.headers["host"]) for r in got] == [
            ("/hook", f"{hook}:{pinned.port}"),
            ("/push/ben", f"{endpoint}:{pinned.port}"),
        ]
        assert first.got() == []
        assert names.lookups == {hook: 1, endpoint: 1}


async def test_tls_keeps_the_urls_name_for_sni_and_the_certificate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    authority = trustme.CA()
    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    serving = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("hook.test").configure_cert(serving)
    client = guard.Outbound(allow_private=True, ssl_context=trusting)
    try:
        with http_receiver(tls=serving) as receiver:
            names = Names({"hook.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]})
            monkeypatch.setattr(guard, "resolve", names)
            async with asyncio.timeout(HANG_GUARD):
                await webhooks.send(client, receiver.url(name="hook.test"), {"n": 1}, 10.0)
                with pytest.raises(webhooks.WebhookFailed, match="CERTIFICATE_VERIFY_FAILED"):
                    await webhooks.send(client, receiver.url(name="other.test"), {}, 10.0)
            (request,) = receiver.got()
            assert request.headers["host"] == f"hook.test:{receiver.port}"
            assert receiver.server_names == ["hook.test", "other.test"]
    finally:
        await client.aclose()


# -- IPv6 forms that carry an IPv4 address ---------------------------------------

EMBEDDING_PRIVATE = [
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::127.0.0.1",
    "::a00:1",  # IPv4-compatible 10.0.0.1
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:a9fe:a9fe",  # IPv4-mapped 169.254.169.254
    "64:ff9b::7f00:1",  # NAT64 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 169.254.169.254
    "64:ff9b::c0a8:1",  # NAT64 192.168.0.1
    "64:ff9b:1::7f00:1",  # local-use NAT64, /96 layout
    "64:ff9b:1:7f00:0:100::",  # local-use NAT64, /48 layout: 127.0.0.1
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:1::",  # 6to4 of 10.0.0.1
    "2002:c0a8:1::1",  # 6to4 of 192.168.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2001:0:a00:1::1",  # Teredo, server 10.0.0.1
]
EMBEDDING_PUBLIC = [
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo, server and client public
]
OTHER_PRIVATE = ["::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "fec0::1", "ff02::1"]


@pytest.mark.parametrize("address", EMBEDDING_PRIVATE + OTHER_PRIVATE)
async def test_ipv6_forms_of_private_addresses_are_refused(address: str) -> None:
    assert guard.blocked(address)
    with pytest.raises(guard.BadUrl, match="private"):
        await guard.check_url(f"http://[{address}]:8080/hook", allow_private=False)


@pytest.mark.parametrize("address", [*EMBEDDING_PUBLIC, "2606:4700:4700::1111"])
async def test_ipv6_forms_of_public_addresses_pass(address: str) -> None:
    assert not guard.blocked(address)
    await guard.check_url(f"https://[{address}]/hook", allow_private=False)


async def test_a_name_with_an_embedding_address_is_refused_at_connect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(guard, "resolve", Names({"v6.test": [PUBLIC, "::ffff:7f00:1"]}))
    client = guard.Outbound(allow_private=False)
    try:
        await guard.check_url("http://v6.test/hook", allow_private=False)
        with pytest.raises(webhooks.WebhookFailed, match="private"):
            await webhooks.send(client, "http://v6.test/hook", {}, 10.0)
    finally:
        await client.aclose()


# -- one deadline per call, a bounded read of the answer ----------------------------


async def _push(client: guard.Outbound, url: str, seconds: float) -> None:
    vapid = Vapid()
    vapid.generate_keys()
    keys = AlertKeys(vapid=vapid, fernet=Fernet(Fernet.generate_key()))
    sub = PushKeys.make().subscription(url)
    await push.send(client, keys, "mailto:t@example.org", url, sub["keys"], {"title": "t"}, seconds)


@pytest.mark.parametrize("channel", ["webhook", "push"])
async def test_an_answer_trickled_a_byte_a_second_is_cut_off_at_the_calls_deadline(
    channel: str,
) -> None:
    client = guard.Outbound(allow_private=True)
    try:
        with trickling_receiver(interval=1.0) as slow:
            failure = webhooks.WebhookFailed if channel == "webhook" else push.DeliveryFailed
            async with asyncio.timeout(HANG_GUARD):
                with pytest.raises(failure, match="within 3 s"):
                    if channel == "webhook":
                        await webhooks.send(client, slow.url(), {"n": 1}, 3.0)
                    else:
                        await _push(client, slow.url(), 3.0)
            assert slow.started.is_set()
            assert await asyncio.to_thread(slow.hung_up.wait, HANG_GUARD), (
                "the receiver never saw the call give up"
            )
            assert not slow.finished.is_set()
    finally:
        await client.aclose()


async def test_a_huge_answer_is_read_only_up_to_a_few_kb() -> None:
    size = 1 << 30  # 1 GiB, made as it is sent
    client = guard.Outbound(allow_private=True)
    try:
        with huge_receiver(size) as huge:
            async with asyncio.timeout(HANG_GUARD):
                answer = await client.post(huge.url(), b"{}", {}, 30.0)
            assert answer.status == 200
            assert answer.head == bytes(guard.ANSWER_BYTES)
            assert await asyncio.to_thread(huge.done.wait, HANG_GUARD)
            assert huge.hung_up.is_set(), "the caller closed the connection mid-answer"
            # what the receiver got rid of is what the caller read plus the two sockets'
            # buffers (a few MB); reading the whole answer would have taken all of it
            assert huge.written < size // 8, f"{huge.written} bytes of the answer were taken"
        with huge_receiver(size) as huge:
            async with asyncio.timeout(HANG_GUARD):
                await webhooks.send(client, huge.url(), {"n": 1}, 30.0)
            assert await asyncio.to_thread(huge.done.wait, HANG_GUARD)
            assert huge.written < size // 8
    finally:
        await client.aclose()


# -- alerts side by side ---------------------------------------------------------


def test_a_stalled_webhook_in_one_room_does_not_hold_back_another_rooms_mail(
    settings: Settings, smtp: SmtpServer
) -> None:
    """Room A's receiver stalls until the test lets it go; room B's mail, due at the same
    time and claimed after it, still arrives — while A's call is still stalled."""
    configured = {
        "smtp_host": "127.0.0.1",
        "smtp_port": smtp.port,
        "smtp_security": "none",
        "alert_poll_seconds": 0.2,  # the worker's own loop does the sending here
        "webhook_allow_private": True,
        "webhook_timeout_seconds": 3600,  # A's call ends when the test says, not before
    }
    with trickling_receiver(interval=1.0) as stalled, _client(settings, **configured) as client:
        try:
            room_a, (anna, _) = table(client)
            client.put(
                f"/api/rooms/{room_a}/alerts/webhook",
                json={"url": stalled.url()},
                headers=auth(anna),
            )
            room_b, (cleo, dora) = table(client, ("Cleo", "Dora"))
            mail = client.put(
                f"/api/rooms/{room_b}/alerts/email",
                json={"address": "dora@example.org"},
                headers=auth(dora),
            )
            assert mail.status_code == 200, mail.text
            move(client, room_a, anna)  # due first, so a one-at-a-time worker takes it first
            move(client, room_b, cleo)
            _later()
            wait_for(stalled.started.is_set, "room A's webhook call")
            (sent,) = smtp.wait(1)
            assert sent["To"] == "dora@example.org"
            assert not stalled.finished.is_set() and not stalled.hung_up.is_set(), (
                "room A's call is still stalled"
            )
            stalled.release.set()
            wait_for(lambda: outbox(client, room_a)[0]["status"] == "sent", "room A's alert")
        finally:
            stalled.release.set()


def test_alerts_of_one_room_sent_side_by_side_keep_its_hourly_cap(
    settings: Settings, receiver: HttpReceiver
) -> None:
    """A turn alert and a reminder for one room's webhook, due together and claimed in one
    batch: with a cap of one an hour exactly one goes out, the other waits."""
    from app.alerts import due as alerts

    with _client(settings, webhook_allow_private=True, alert_room_hourly_cap=1) as client:
        room, (anna, _) = table(client)
        client.put(
            f"/api/rooms/{room}/alerts/webhook", json={"url": receiver.url()}, headers=auth(anna)
        )
        move(client, room, anna)
        svc = services(client)

        async def remind() -> None:
            state = await svc.rooms.load(room)
            async with svc.rooms.db.transaction() as session:
                await alerts.enqueue_turn_alert(session, state, 1, "reminder")

        client.portal.call(remind)  # type: ignore[union-attr]
        _later()
        assert work(client) == 2
        assert len(receiver.got()) == 1
        assert sorted(row["status"] for row in outbox(client, room)) == ["pending", "sent"]
