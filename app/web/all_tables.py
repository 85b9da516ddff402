"""One alert set-up for every table a device holds a seat at: ``POST /api/alerts``.

The browser sends the seats it holds (room and token, in the body, never in a URL)
and one channel: this device's push subscription or an e-mail address. Each seat
whose token still sits at its table gets the channel, as the room's own alert routes
would set it, each table in a transaction of its own (a table's first channel also
notes ``alerts_on`` in that table's log); a seat that doesn't (an unknown room, a
freed seat's old token, a token of another room) is answered ``set: false`` with one
code for every such case, so the answer tells nothing the caller did not know.

An address is asked to be confirmed once for the whole request: the new channels
share one ``group`` and one confirmation mail, whose link confirms them all. A
device that proves it holds a seat whose channel for the same address is confirmed
already (a ``proof`` seat, or one of the seats set up) is not asked again: the new
channels start confirmed. That is what lets a table joined later get the mails
without another confirmation: the device shows it asked, and was answered, before.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.alerts import confirm as mail_confirm
from app.alerts import store as alert_store
from app.alerts.store import CONFIRM
from app.core.clock import clock
from app.core.errors import ApiError
from app.core.text import storable
from app.play.access import hash_token
from app.play.state import RoomState
from app.web.alerts import (
    Choices,
    Lang,
    PushSubscription,
    checked_address,
    checked_push,
    push_writer,
    with_alerts_on,
)
from app.web.deps import ERRORS, Backend, Svc

router = APIRouter(prefix="/api/alerts", responses=ERRORS, tags=["alerts"])

MAX_SEATS = 100  # seats in one request: more than any device holds


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatRef(Strict):
    room: str = Field(min_length=1, max_length=64)
    token: str = Field(min_length=1, max_length=200)


class PushSetup(Strict):
    kind: Literal["push"]
    subscription: PushSubscription
    kinds: Choices | None = None


class EmailSetup(Strict):
    kind: Literal["email"]
    address: str = Field(min_length=3, max_length=254, examples=["anna@example.org"])
    each_turn: bool | None = None  # one mail per turn rather than the daily digest
    kinds: Choices | None = None


class SetUp(Strict):
    seats: list[SeatRef] = Field(min_length=1, max_length=MAX_SEATS)
    proof: list[SeatRef] = Field(default_factory=list, max_length=MAX_SEATS)
    lang: Lang | None = None
    channel: Annotated[PushSetup | EmailSetup, Field(discriminator="kind")]


async def _seated(svc: Backend, ref: SeatRef) -> tuple[RoomState, int, str] | None:
    """The table, seat and token hash of a seat the token still holds; else None."""
    if not (storable(ref.room) and storable(ref.token)):
        return None
    try:
        state = await svc.rooms.load(ref.room)
    except ApiError:
        return None
    person = hash_token(ref.token)
    seat = state.seat_with(person)
    return (state, seat, person) if seat is not None else None


@router.post("", summary="Set up one alert channel for many seats at once")
async def set_up(body: SetUp, svc: Svc) -> dict[str, Any]:
    channel = body.channel
    chosen = channel.kinds.model_dump(exclude_none=True) if channel.kinds else {}
    push = channel if isinstance(channel, PushSetup) else None
    keys = await checked_push(svc, push.subscription) if push else None
    address = checked_address(svc, channel.address) if isinstance(channel, EmailSetup) else None
    found: dict[tuple[str, str], tuple[RoomState, int, str, str]] = {}
    answers: list[dict[str, Any]] = []
    for ref in body.seats:
        seated = await _seated(svc, ref)
        if seated is None:
            answers.append({"room": ref.room, "set": False, "code": "not_seated"})
            continue
        state, seat, person = seated
        found.setdefault((state.room.id, person), (state, seat, person, ref.token))
        answers.append({"room": ref.room, "set": True})
    proven = False
    if address is not None:
        vouching = [(s.room.id, p) for s, _, p, _ in found.values()]
        for ref in body.proof:
            seated = await _seated(svc, ref)
            if seated is not None:
                vouching.append((seated[0].room.id, seated[2]))
        async with svc.rooms.db.transaction() as session:
            proven = await alert_store.confirmed_address(session, vouching, address)
    group = secrets.token_hex(8)
    asked = False
    for state, seat, person, token in found.values():
        room = state.room.id
        if push is not None and keys is not None:
            endpoint = push.subscription.endpoint
            write = push_writer(room, person, endpoint, keys, body.lang, chosen)
            await with_alerts_on(svc, room, write)
            continue
        assert address is not None and isinstance(channel, EmailSetup)
        data: dict[str, Any] = {"sealed": svc.outbox.keys.seal(token), "group": group}
        if channel.each_turn is not None:
            data["each_turn"] = channel.each_turn
        mailing = _Mailing(room, seat, person, state.game_no, address, data, chosen, body.lang)
        mailing.proven, mailing.ask = proven, not asked
        await with_alerts_on(svc, room, mailing.write)
        asked = asked or mailing.done == "asked"
    return {"seats": answers, "email_confirmed": proven if address is not None else None}


class _Mailing:
    """One table's address in a set-up for many: kept, confirmed at once, asked or grouped."""

    def __init__(
        self,
        room: str,
        seat: int,
        person: str,
        game_no: int,
        address: str,
        data: dict[str, Any],
        chosen: dict[str, bool],
        lang: str | None,
    ) -> None:
        self.room, self.seat, self.person, self.game_no = room, seat, person, game_no
        self.address, self.data, self.chosen, self.lang = address, data, chosen, lang
        self.proven = False  # the device showed the address is confirmed: no asking
        self.ask = True  # this table's channel carries the one confirmation mail
        self.done = ""

    async def write(self, session: Any) -> None:
        room, person = self.room, self.person
        await alert_store.save_seat_settings(session, room, person, self.lang)
        kept = await alert_store.email_channel(session, room, person)
        queued = kept is not None and await alert_store.confirmation_queued(session, kept.id)
        if mail_confirm.keeps(kept, queued, self.address, clock.now()):
            assert kept is not None
            changes = {k: v for k, v in self.data.items() if k == "each_turn"}
            if self.chosen:
                changes["kinds"] = {**(kept.data.get("kinds") or {}), **self.chosen}
            await alert_store.set_channel_data(session, kept.id, changes)
            self.done = "kept"
            return
        kinds = {**await alert_store.chosen_kinds(session, room, person, "email"), **self.chosen}
        channel_id = await alert_store.add_channel(
            session,
            room,
            person,
            "email",
            self.address,
            {**self.data, **({"kinds": kinds} if kinds else {})},
            replace_all=True,
        )
        if self.proven:
            await alert_store.confirm(session, channel_id, clock.now())
            self.done = "confirmed"
        elif self.ask:
            now = clock.now()
            ask = alert_store.NewAlert(room, channel_id, self.seat, self.game_no, 0, CONFIRM, now)
            await alert_store.enqueue(session, [ask])
            self.done = "asked"
        else:
            self.done = "grouped"
