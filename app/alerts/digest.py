"""One mail a day about turns: a digest listing every table that waits for the person.

Someone at many tables would get a mail for every turn at each of them. So a turn
mail (``turn`` or ``reminder``) on an address that did not choose ``each_turn`` counts
as the address's digest (``kinds.DIGEST``), and an address gets at most one digest a
day (``app.alerts.confirm`` counts them with the other caps). When one falls due it
lists every table whose turn alert waits for the same address (in any case of its
letters; ``+tag`` spellings are different addresses here), each with its own resume
link, stop link and time left, and the alerts it told of are closed with it. A turn
mail that falls due within a day of the last digest waits until that day is over
(``Later``), and then the first of those still due sends the next digest: a table
where the person has moved meanwhile is dropped by the outbox's check, and left out
of another's digest by the same check, and a table the person has open (or closed
only lately) waits for the next digest. One table alone gets the usual turn mail.

Other mails (game over, a bot in the seat, chat, the confirmation mail) go one by one
as before, through ``app.alerts.mail``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage

from app.alerts import confirm, mail
from app.alerts import store as alert_store
from app.alerts.delivery import Failed, Later, Sending, others
from app.alerts.due import still_due
from app.alerts.kinds import DIGEST, TURN_KINDS, digested
from app.alerts.store import Due
from app.alerts.texts import names_list, text
from app.core.clock import clock
from app.core.errors import ApiError
from app.play import store
from app.play.state import RoomState


@dataclass(frozen=True)
class Table:
    """One table a digest tells of."""

    game: str
    others: list[str]
    resume_link: str
    stop_link: str
    left: timedelta | None  # till the move's deadline, if the table has one


@dataclass(frozen=True)
class DigestMail:
    to: str
    lang: str
    name: str
    tables: list[Table]


async def deliver(out: Sending, state: RoomState, due: Due) -> None:
    """The e-mail channel's sender: turn mails as digests, every other mail as before."""
    if not digested(due.channel.kind, due.channel.data, due.kind):
        await mail.deliver(out, state, due)
        return
    slot, frees = await confirm.take_slot(out.db, out.settings, due, clock.now(), DIGEST)
    if frees is not None:
        raise Later(frees, "one digest a day")
    assert slot is not None
    try:
        await _send(out, state, due)
    except Failed:
        await confirm.give_back(out.db, due, slot)
        raise


async def _send(out: Sending, state: RoomState, due: Due) -> None:
    async with out.db.transaction() as session:
        waiting = await alert_store.waiting_mails(session, due.channel.target, TURN_KINDS, due.id)
    told = {(due.room_id, due.seat)}
    folded: list[int] = []
    tables: list[tuple[RoomState, Due]] = [(state, due)]
    for other in waiting:
        there = await _state(out, other.room_id)
        if there is None or still_due(there, other) is not None:
            continue  # no longer waits: the outbox drops it when its time comes
        if out.held is not None and await out.held(there, other) is not None:
            continue  # the person has that table open (or just had): the next digest
        folded.append(other.id)
        if (other.room_id, other.seat) not in told:  # a turn and its reminder: one line
            told.add((other.room_id, other.seat))
            tables.append((there, other))
    if len(tables) == 1:
        await mail.deliver_now(out, state, due)
    else:
        settings = await out.seat_settings(state, due)
        if settings is None:
            raise mail.MailFailed("the seat's alert settings are gone")
        listed = [await _table(out, there, alert) for there, alert in tables]
        digest = DigestMail(
            to=due.channel.target,
            lang=settings.lang,
            name=state.seats[due.seat].name or "",
            tables=listed,
        )
        await mail.send_message(out.settings, compose(out, digest), digest.to)
    async with out.db.transaction() as session:
        await alert_store.fold_in(session, folded, clock.now(), f"told in the digest of {due.id}")


async def _state(out: Sending, room_id: str) -> RoomState | None:
    if out.load is None:
        return None
    try:
        return await out.load(room_id)
    except ApiError:
        return None  # the room is gone


async def _table(out: Sending, state: RoomState, due: Due) -> Table:
    token = out.keys.open(str(due.channel.data.get("sealed", "")))
    if token is None:
        raise mail.MailFailed("the resume token for this address can't be read")
    async with out.db.reading() as session:
        deadlines = await store.deadlines_of(session, state.room.id)
        settings = await alert_store.seat_settings(
            session, state.room.id, due.channel.token_hash or ""
        )
    running = next((d for d in deadlines if d.seat == due.seat), None)
    base = out.settings.link_base
    stop_key = settings.stop_key if settings else ""
    return Table(
        game=state.engine.title,
        others=others(state, due.seat),
        resume_link=f"{out.room_url(state)}#token={token}",
        stop_link=f"{base}/api/rooms/{state.room.id}/alerts/stop?key={stop_key}",
        left=max(timedelta(), d.due_at - clock.now()) if (d := running) else None,
    )


def span(lang: str, left: timedelta) -> str:
    """Time left in words a mail can say: minutes under two hours, hours under two days."""
    minutes = int(left.total_seconds() // 60)
    if minutes < 120:
        return text(lang, "minutes", n=str(minutes))
    if minutes < 48 * 60:
        return text(lang, "hours", n=str(minutes // 60))
    return text(lang, "days", n=str(minutes // (24 * 60)))


def compose(out: Sending, digest: DigestMail) -> EmailMessage:
    """The digest: a line per table with its resume link, time left and stop link. The
    ``List-Unsubscribe`` header stops the mails of the first table listed."""
    lang = digest.lang
    subject = text(lang, "digest_subject", count=str(len(digest.tables)))
    message = mail.headers(out.settings, digest.to, subject, digest.tables[0].stop_link)
    lines = [text(lang, "mail_hello", name=digest.name), "", text(lang, "digest_lead"), ""]
    for table in digest.tables:
        game = table.game
        if table.others:
            game = f"{game} — {names_list(lang, table.others)}"
        lines.append(f"* {game}")
        if table.left is not None:
            lines.append("  " + text(lang, "digest_left", time=span(lang, table.left)))
        lines += ["  " + table.resume_link, "  " + text(lang, "mail_stop"), "  " + table.stop_link]
        lines.append("")
    lines += ["-- ", text(lang, "digest_once"), ""]
    return mail.with_text(message, lang, lines)
