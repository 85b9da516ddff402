"""REST routes for turn alerts: push subscriptions, e-mail, the room webhook, language.

Every route but the VAPID key and the links in mails needs the caller's seat token.
An address, endpoint or URL is never sent back to anyone: the owner learns only
that one is set. An address gets one mail asking to confirm it and nothing else
until that mail's link is used (``app.alerts.confirm``). The stop link in every mail
is bound to the seat by a random per-seat secret, and works as a plain GET from a
mail client; the confirmation link's GET only shows a button that POSTs.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from app.alerts import confirm as mail_confirm
from app.alerts import kinds as alert_kinds
from app.alerts import mail as mailer
from app.alerts import push
from app.alerts import store as alert_store
from app.alerts.confirm import CONFIRM_VALID, key_hash
from app.alerts.guard import BadUrl, check_url
from app.alerts.store import CONFIRM, Confirmation
from app.alerts.texts import LANGS, text
from app.alerts.webhooks import SHAPES
from app.core.clock import clock
from app.core.errors import ApiError
from app.core.text import address_problem, storable
from app.play.access import hash_token, is_host, seat_in
from app.play.kinds import ALERTS_ON
from app.web import pages as alert_pages
from app.web.deps import ERRORS, Backend, Svc, Token

# the room id is checked for the whole app, as on every room route (app/web/rooms.py room_id)
router = APIRouter(prefix="/api/rooms/{room}/alerts", responses=ERRORS, tags=["alerts"])

Lang = Literal["en", "de", "fr"]
MAX_DEVICES = 10  # push subscriptions per seat; the oldest goes when one more comes
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SetLang(Strict):
    lang: Lang


class PushKeys(BaseModel):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class PushSubscription(BaseModel):
    """What ``PushSubscription.toJSON()`` gives in the browser (extra fields are ignored)."""

    endpoint: str = Field(min_length=8, max_length=2000)
    keys: PushKeys
    lang: Lang | None = None


class RemovePush(BaseModel):
    endpoint: str = Field(min_length=8, max_length=2000)


class SetEmail(Strict):
    address: str = Field(min_length=3, max_length=254, examples=["anna@example.org"])
    lang: Lang | None = None
    # one mail per turn; by default turn mails come as one digest a day (app/alerts/digest.py)
    each_turn: bool | None = None


class Choices(Strict):
    """Alert kinds a channel carries besides turn alerts; a kind left out stays as it was."""

    game_over: bool | None = None
    bot_took_seat: bool | None = None
    chat: bool | None = None


class SetKinds(Strict):
    channel: Literal["push", "email", "webhook"]
    kinds: Choices


class SetWebhook(Strict):
    url: str = Field(min_length=8, max_length=2000)
    shape: Literal["discord", "slack", "json"] = "json"
    lang: Lang | None = None


def _address(value: str, code: str, what: str) -> str:
    """``value`` if it can be an address; else 400 ``code``, saying why, for ``what``."""
    problem = address_problem(value)
    if problem is not None:
        raise ApiError(400, code, f"{what} {problem}")
    return value


def _url(value: str, code: str, what: str) -> str:
    """An address that must read as a URL (a broken port or bracket is refused, not a crash)."""
    _address(value, code, what)
    try:
        _ = urlsplit(value).port
    except ValueError as exc:
        raise ApiError(400, code, f"{what} is not a URL ({exc}).") from exc
    return value


async def checked_push(svc: Backend, body: PushSubscription) -> dict[str, Any]:
    """The subscription's keys, once its endpoint and keys proved usable; else 400."""
    _url(body.endpoint, "bad_subscription", "A push endpoint")
    keys = body.keys.model_dump()
    if not push.valid_subscription(body.endpoint, keys):
        raise ApiError(400, "bad_subscription", "This push subscription has no usable endpoint.")
    try:
        await check_url(body.endpoint, svc.settings.webhook_allow_private)
    except BadUrl as exc:
        raise ApiError(400, "bad_subscription", f"This push endpoint can't be used: {exc}") from exc
    try:
        push.encrypt(body.endpoint, keys, {"check": True})
    except Exception as exc:
        raise ApiError(
            400, "bad_subscription", "This push subscription's keys are not valid."
        ) from exc
    return keys


def checked_address(svc: Backend, value: str) -> str:
    """The address, once it reads as one and this server sends mail; else 400 or 409."""
    if not svc.settings.smtp_host:
        raise ApiError(409, "mail_unavailable", "This server does not send mail.")
    if not svc.settings.link_base:
        raise ApiError(
            409,
            "mail_needs_public_url",
            "This server sends no mail until its operator sets PUBLIC_URL, the address "
            "the links in mails are built from.",
        )
    address = _address(value, "bad_email", "An e-mail address").strip()
    if not EMAIL.match(address):
        raise ApiError(400, "bad_email", "This does not look like an e-mail address.")
    return address


async def _person(svc: Backend, room: str, token: str | None) -> tuple[int, str]:
    state = await svc.rooms.load(room)
    seat = seat_in(state, token)
    if seat is None or token is None:
        raise ApiError(401, "no_token", "Only seated players can choose alerts; sit down first.")
    return seat, hash_token(token)


async def _settings(svc: Backend, room: str, seat: int, person: str) -> dict[str, Any]:
    """The caller's own alert settings; addresses are told as set, never shown."""
    state = await svc.rooms.load(room)
    async with svc.rooms.db.transaction() as session:
        mine = await alert_store.seat_settings(session, room, person)
        found = await alert_store.channels(session, room, [person])
    kinds = [c.kind for c in found]
    body: dict[str, Any] = {
        "lang": mine.lang if mine else None,
        "push": kinds.count("push"),
        "email": "email" in kinds,
        "email_confirmed": any(c.kind == "email" and c.confirmed for c in found),
        "each_turn": any(c.kind == "email" and bool(c.data.get("each_turn")) for c in found),
        "mail_available": mailer.enabled(svc.settings),
        "host": is_host(state, person),
    }
    body["kinds"] = {
        kind: alert_kinds.choices(kind, next(c for c in found if c.kind == kind).data)
        for kind in ("push", "email")
        if kind in kinds
    }
    if body["host"]:
        hook = next((c for c in found if c.kind == "webhook"), None)
        body["webhook"] = {
            "set": hook is not None,
            "shape": hook.data.get("shape") if hook else None,
            "kinds": alert_kinds.choices("webhook", hook.data) if hook else None,
        }
    return body


@router.get("/vapid-key", summary="The server's Web Push (VAPID) public key")
async def vapid_key(room: str, svc: Svc) -> dict[str, str]:
    return {"key": svc.outbox.keys.vapid_public_key}


@router.get("", summary="The caller's alert settings in this room")
async def get_alerts(room: str, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    return await _settings(svc, room, seat, person)


@router.put("/lang", summary="The language of the caller's alerts")
async def set_lang(room: str, body: SetLang, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    await svc.rooms.db.retried(
        lambda session: alert_store.save_seat_settings(session, room, person, body.lang)
    )
    return await _settings(svc, room, seat, person)


@router.post("/push", summary="Add this browser's push subscription")
async def add_push(room: str, body: PushSubscription, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    keys = await checked_push(svc, body)
    await with_alerts_on(svc, room, push_writer(room, person, body.endpoint, keys, body.lang))
    return await _settings(svc, room, seat, person)


def push_writer(
    room: str,
    person: str,
    endpoint: str,
    keys: dict[str, Any],
    lang: str | None,
    chosen: dict[str, bool] | None = None,
) -> Callable[[Any], Awaitable[None]]:
    """What adds a subscription to a person's channels: the kinds they chose before for
    push, with ``chosen`` over them, and no more than ``MAX_DEVICES`` devices."""

    async def write(session: Any) -> None:
        await alert_store.save_seat_settings(session, room, person, lang)
        kept = await alert_store.chosen_kinds(session, room, person, "push")
        kinds = {**kept, **(chosen or {})}
        data: dict[str, Any] = {"keys": keys, **({"kinds": kinds} if kinds else {})}
        await alert_store.add_channel(
            session, room, person, "push", endpoint, data, replace_all=False
        )
        await alert_store.keep_newest(session, room, person, "push", MAX_DEVICES)

    return write


@router.delete("/push", summary="Remove a push subscription")
async def remove_push(room: str, body: RemovePush, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    _address(body.endpoint, "bad_subscription", "A push endpoint")
    await svc.rooms.db.retried(
        lambda session: alert_store.remove_channels(session, room, person, "push", body.endpoint)
    )
    return await _settings(svc, room, seat, person)


@router.put("/email", summary="Leave an e-mail address for this room's alerts")
async def set_email(room: str, body: SetEmail, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    address = checked_address(svc, body.address)
    assert token is not None
    data: dict[str, Any] = {"sealed": svc.outbox.keys.seal(token)}
    if body.each_turn is not None:
        data["each_turn"] = body.each_turn
    game_no = (await svc.rooms.load(room)).game_no

    async def write(session: Any) -> None:
        await alert_store.save_seat_settings(session, room, person, body.lang)
        kept = await alert_store.email_channel(session, room, person)
        queued = kept is not None and await alert_store.confirmation_queued(session, kept.id)
        if mail_confirm.keeps(kept, queued, address, clock.now()):
            assert kept is not None
            if body.each_turn is not None:
                await alert_store.set_channel_data(session, kept.id, {"each_turn": body.each_turn})
            return  # confirmed, or just asked: nothing to ask (again)
        chosen = await alert_store.chosen_kinds(session, room, person, "email")
        channel_id = await alert_store.add_channel(
            session,
            room,
            person,
            "email",
            address,
            {**data, **({"kinds": chosen} if chosen else {})},
            replace_all=True,
        )
        # the first mail to it only asks to confirm it (the worker's next look, within
        # ALERT_POLL_SECONDS, sends it); turn mails wait for that
        confirm = alert_store.NewAlert(room, channel_id, seat, game_no, 0, CONFIRM, clock.now())
        await alert_store.enqueue(session, [confirm])

    await with_alerts_on(svc, room, write)
    return await _settings(svc, room, seat, person)


@router.delete("/email", summary="Remove the e-mail address")
async def remove_email(room: str, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    await svc.rooms.db.retried(
        lambda session: alert_store.remove_channels(session, room, person, "email", None)
    )
    return await _settings(svc, room, seat, person)


@router.put("/kinds", summary="What a channel carries besides turn alerts")
async def set_kinds(room: str, body: SetKinds, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    chosen = body.kinds.model_dump(exclude_none=True)
    offered = alert_kinds.DEFAULTS[body.channel]
    refused = sorted(set(chosen) - set(offered))
    if refused:
        raise ApiError(
            400,
            "bad_alert_kind",
            f"The room's webhook can't carry {', '.join(refused)} alerts: "
            "what the table writes stays among the people at it.",
        )
    owner: str | None = person
    if body.channel == "webhook":
        await _host(svc, room, person)
        owner = None
    changed = await svc.rooms.db.retried(
        lambda session: alert_store.choose_kinds(session, room, owner, body.channel, chosen)
    )
    if not changed:
        raise ApiError(
            409, "no_channel", f"Set up {body.channel} alerts first, then choose what they say."
        )
    return await _settings(svc, room, seat, person)


@router.get("/stop", summary="Stop the mails (the link in every mail)", response_class=HTMLResponse)
async def stop_mails_link(
    room: str, svc: Svc, key: Annotated[str, Query(max_length=100)]
) -> HTMLResponse:
    return await stop_mails(room, svc, key)


@router.post("/stop", summary="One-click stop of the mails (RFC 8058)", response_class=HTMLResponse)
async def stop_mails(
    room: str, svc: Svc, key: Annotated[str, Query(max_length=100)]
) -> HTMLResponse:
    async def stop(session: Any) -> Any:
        # a key no database can hold (NUL, a broken character) is no seat's key
        mine = await alert_store.seat_by_stop_key(session, room, key) if storable(key) else None
        if mine is not None:
            kept = await alert_store.email_channel(session, room, mine.token_hash)
            if kept is not None and not kept.confirmed:  # a request for many tables: all go
                await alert_store.drop_group(session, kept.id)
            await alert_store.remove_channels(session, room, mine.token_hash, "email", None)
        return mine

    mine = await svc.rooms.db.retried(stop)
    lang = mine.lang if mine else "en"
    return alert_pages.page(
        lang,
        room,
        "stopped_title",
        text(lang, "stopped" if mine else "stop_unknown"),
        status=200 if mine else 404,
        code="stopped" if mine else "unknown_key",
        message_id="stop-message",
    )


ConfirmKey = Annotated[str, Query(max_length=100)]


@router.get(
    "/confirm",
    summary="The confirmation link in a mail: a page with a button (a GET confirms nothing)",
    response_class=HTMLResponse,
)
async def confirm_page(room: str, svc: Svc, key: ConfirmKey) -> HTMLResponse:
    async with svc.rooms.db.transaction() as session:
        found, lang = await _confirmation(session, room, key)
    refused = _refused(room, found, lang)
    if refused is not None:
        return refused
    game = (await svc.rooms.load(room)).engine.title
    return alert_pages.page(
        lang,
        room,
        "confirm_title",
        text(lang, "confirm_page", game=game),
        code="confirm",
        button=(f"/api/rooms/{room}/alerts/confirm?key={key}", "confirm_button"),
        message_id="confirm-message",
    )


@router.post(
    "/confirm",
    summary="Confirm the address a confirmation mail went to",
    response_class=HTMLResponse,
)
async def confirm_address(room: str, svc: Svc, key: ConfirmKey) -> HTMLResponse:
    async def confirm(session: Any) -> tuple[HTMLResponse | None, Any, str]:
        found, lang = await _confirmation(session, room, key)
        refused = _refused(room, found, lang)
        if refused is not None:
            return refused, None, lang
        assert found is not None
        return None, await alert_store.confirm_group(session, found.channel_id, clock.now()), lang

    refused, tables, lang = await svc.rooms.db.retried(confirm)
    if refused is not None:
        return refused
    return alert_pages.page(
        lang,
        room,
        "confirmed_title",
        text(lang, "confirmed") if tables == 1 else text(lang, "confirmed_many", count=str(tables)),
        code="confirmed",
        message_id="confirm-message",
    )


async def _confirmation(session: Any, room: str, key: str) -> tuple[Confirmation | None, str]:
    """The address the key was mailed to (None for no such key), and its seat's language."""
    found = await alert_store.confirmation(session, room, key_hash(key)) if storable(key) else None
    mine = None
    if found is not None and found.token_hash is not None:
        mine = await alert_store.seat_settings(session, room, found.token_hash)
    return found, mine.lang if mine else "en"


def _refused(room: str, found: Confirmation | None, lang: str) -> HTMLResponse | None:
    """The page for a key that can't confirm: unknown (404), used (409) or expired (410)."""
    if found is None:
        problem = (404, "unknown_key", "confirm_unknown")
    elif found.confirmed:
        problem = (409, "key_used", "confirm_used")
    elif found.sent_at is None or clock.now() - found.sent_at > CONFIRM_VALID:
        problem = (410, "key_expired", "confirm_expired")
    else:
        return None
    status, code, message = problem
    return alert_pages.page(
        lang,
        room,
        "confirm_title",
        text(lang, message),
        status=status,
        code=code,
        message_id="confirm-message",
    )


@router.put("/webhook", summary="Set the room's webhook (host only)")
async def set_webhook(room: str, body: SetWebhook, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    await _host(svc, room, person)
    _url(body.url, "bad_webhook", "A webhook URL")
    try:
        await check_url(body.url, svc.settings.webhook_allow_private)
    except BadUrl as exc:
        raise ApiError(400, "bad_webhook", str(exc)) from exc

    async def write(session: Any) -> None:
        mine = await alert_store.save_seat_settings(session, room, person, body.lang)
        chosen = await alert_store.chosen_kinds(session, room, None, "webhook")
        data: dict[str, Any] = {"shape": body.shape, "lang": body.lang or mine.lang}
        if chosen:
            data["kinds"] = chosen
        await alert_store.add_channel(
            session, room, None, "webhook", body.url, data, replace_all=True
        )

    await with_alerts_on(svc, room, write)
    return await _settings(svc, room, seat, person)


@router.delete("/webhook", summary="Remove the room's webhook (host only)")
async def remove_webhook(room: str, svc: Svc, token: Token) -> dict[str, Any]:
    seat, person = await _person(svc, room, token)
    await _host(svc, room, person)
    await svc.rooms.db.retried(
        lambda session: alert_store.remove_channels(session, room, None, "webhook", None)
    )
    return await _settings(svc, room, seat, person)


async def with_alerts_on(svc: Backend, room: str, write: Callable[[Any], Awaitable[None]]) -> None:
    """Add a channel with ``write``. The room's first one also appends ``alerts_on`` in
    the same transaction: moves skip all alert work in rooms without it, and a move
    raced against this is tried again on the state that has it."""
    if (await svc.rooms.load(room)).alerts:
        await svc.rooms.db.retried(write)
        return
    await svc.rooms.note(room, ALERTS_ON, write)


async def _host(svc: Backend, room: str, person: str) -> None:
    if not is_host(await svc.rooms.load(room), person):
        raise ApiError(403, "not_creator", "Only the room's host can set its webhook.")


assert set(SHAPES) == {"discord", "slack", "json"} and set(LANGS) == {"en", "de", "fr"}
