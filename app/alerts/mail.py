"""Alert mails over SMTP (aiosmtplib): plain text, the resume link and a stop link.

Every mail carries a plain ``List-Unsubscribe`` (never RFC 2047-encoded, with the
one-click POST of RFC 8058) so a mail client can offer "unsubscribe" itself; the same
link works when opened. The first mail to an address only asks to confirm it
(``ConfirmMail``): it names the site and the game, never anything a player typed.
Every link in a mail starts with ``PUBLIC_URL``: without it the server sends no mail
at all. Each mail counts against its address's caps (``app.alerts.confirm``) before it goes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from urllib.parse import urlsplit

import aiosmtplib

from app.alerts import confirm
from app.alerts import store as alert_store
from app.alerts.delivery import Failed, Later, Sending, chat_news, others
from app.alerts.kinds import BOT_TOOK_SEAT, CHAT, GAME_OVER, REMINDER
from app.alerts.store import CONFIRM, Due
from app.alerts.texts import text, title
from app.core.clock import clock
from app.core.config import Settings
from app.play.state import RoomState


class MailFailed(Failed):
    """The SMTP server could not be reached or refused the mail: try again later."""


@dataclass(frozen=True)
class AlertMail:
    to: str
    lang: str
    kind: str
    game: str
    name: str
    others: list[str]
    resume_link: str
    stop_link: str
    news: str = ""  # a chat alert's quote


@dataclass(frozen=True)
class ConfirmMail:
    """The one mail an address gets before its owner confirms it."""

    to: str
    lang: str
    game: str
    site: str
    confirm_link: str
    stop_link: str
    tables: int = 1  # one request for many tables asks once for them all


# SMTP's line ends, and headers folded only at RFC 5322's hard limit of 998 characters: a
# long token such as the stop link is otherwise RFC 2047-encoded whole, and mail clients
# then offer no one-click unsubscribe. aiosmtplib flattens a message object with its own
# policy, so the mail is flattened here (``_flat``); 7-bit bodies (quoted-printable where
# a text needs it) go to every server, with or without 8BITMIME.
MAIL_POLICY = policy.SMTP.clone(max_line_length=998, cte_type="7bit")
MAIL_LINES = (REMINDER, GAME_OVER, BOT_TOOK_SEAT, CHAT)  # kinds with a line of their own


def headers(settings: Settings, to: str, subject: str, stop: str) -> EmailMessage:
    message = EmailMessage(policy=MAIL_POLICY)
    message["From"] = settings.smtp_sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="spieltisch")
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{stop}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def with_text(message: EmailMessage, lang: str, lines: list[str]) -> EmailMessage:
    message.set_content("\n".join(lines))
    message["Content-Language"] = lang  # after set_content, which drops every Content-* header
    return message


def compose_confirm(settings: Settings, mail: ConfirmMail) -> EmailMessage:
    lang = mail.lang
    message = headers(settings, mail.to, text(lang, "confirm_subject"), mail.stop_link)
    return with_text(
        message,
        lang,
        [
            text(lang, "confirm_asked", site=mail.site, game=mail.game)
            if mail.tables == 1
            else text(lang, "confirm_asked_many", site=mail.site, count=str(mail.tables)),
            "",
            text(lang, "confirm_do"),
            mail.confirm_link,
            "",
            text(lang, "confirm_ignore"),
            "",
            "-- ",
            text(lang, "confirm_stop"),
            mail.stop_link,
            "",
        ],
    )


def compose(settings: Settings, mail: AlertMail | ConfirmMail) -> EmailMessage:
    if isinstance(mail, ConfirmMail):
        return compose_confirm(settings, mail)
    lang = mail.lang
    subject = title(lang, mail.kind, mail.game, mail.others)
    message = headers(settings, mail.to, subject, mail.stop_link)
    line = f"mail_{mail.kind}" if mail.kind in MAIL_LINES else "mail_turn"
    news = [mail.news] if mail.news else []
    return with_text(
        message,
        lang,
        [
            text(lang, "mail_hello", name=mail.name),
            "",
            text(lang, line, game=mail.game),
            *news,
            "",
            text(lang, "mail_link"),
            mail.resume_link,
            "",
            "-- ",
            text(lang, "mail_stop"),
            mail.stop_link,
            "",
        ],
    )


def _flat(message: EmailMessage, sender: str, to: str) -> tuple[bytes, list[str]]:
    """The mail's bytes and the MAIL options it needs: an address with letters beyond
    ASCII (``jürgen@example.org``) goes with SMTPUTF8 and its headers unencoded; a
    server without SMTPUTF8 then refuses it cleanly."""
    if f"{sender}{to}".isascii():
        return message.as_bytes(), []
    return message.as_bytes(policy=MAIL_POLICY.clone(utf8=True)), ["SMTPUTF8"]


async def send(settings: Settings, mail: AlertMail | ConfirmMail) -> None:
    await send_message(settings, compose(settings, mail), mail.to)


async def send_message(settings: Settings, message: EmailMessage, to: str) -> None:
    if not settings.smtp_host:
        raise MailFailed("no SMTP server is set up (SMTP_HOST)")
    sender = parseaddr(settings.smtp_sender)[1]
    content, options = _flat(message, sender, to)
    try:
        await aiosmtplib.send(
            content,
            sender=sender,
            recipients=[to],
            mail_options=options,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_user,
            password=settings.smtp_password,
            use_tls=settings.smtp_security == "tls",
            start_tls=settings.smtp_security == "starttls",
            timeout=settings.smtp_timeout_seconds,
        )
    except (aiosmtplib.SMTPException, OSError) as exc:
        raise MailFailed(f"{type(exc).__name__}: {exc}") from exc


def enabled(settings: Settings) -> bool:
    """Mail goes out only with an SMTP server and the site's own address for its links."""
    return bool(settings.smtp_host and settings.link_base)


async def deliver(out: Sending, state: RoomState, due: Due) -> None:
    """Mail ``due`` (a turn alert, or the mail asking to confirm the address), if the
    address's caps have room; ``Later`` when one is reached."""
    slot, frees = await confirm.take_slot(out.db, out.settings, due, clock.now())
    if frees is not None:
        raise Later(frees, "address cap")
    assert slot is not None
    try:
        await deliver_now(out, state, due)
    except Failed:
        await confirm.give_back(out.db, due, slot)
        raise


async def deliver_now(out: Sending, state: RoomState, due: Due) -> None:
    """Mail ``due`` now, its slot under the address's caps already taken."""
    base = out.settings.link_base
    if not base:
        raise MailFailed("PUBLIC_URL is not set, and mail links need it")
    settings = await out.seat_settings(state, due)
    if settings is None:
        raise MailFailed("the seat's alert settings are gone")
    lang = settings.lang
    if due.kind == CONFIRM:
        await _ask_to_confirm(out, state, due, lang, settings.stop_key)
        return
    token = out.keys.open(str(due.channel.data.get("sealed", "")))
    if token is None:
        raise MailFailed("the resume token for this address can't be read")
    mail = AlertMail(
        to=due.channel.target,
        lang=lang,
        kind=due.kind,
        game=state.engine.title,
        name=state.seats[due.seat].name or "",
        others=others(state, due.seat),
        resume_link=f"{out.room_url(state)}#token={token}",
        stop_link=f"{base}/api/rooms/{state.room.id}/alerts/stop?key={settings.stop_key}",
        news=await chat_news(out, state, due, lang) if due.kind == CHAT else "",
    )
    await send(out.settings, mail)


async def _ask_to_confirm(
    out: Sending, state: RoomState, due: Due, lang: str, stop_key: str
) -> None:
    """Make a fresh confirmation key (any earlier one is void), then mail the link with it."""
    base = out.settings.link_base
    key = secrets.token_urlsafe(32)
    async with out.db.transaction() as session:
        noted = await alert_store.confirmation_mailed(
            session, due.channel.id, confirm.key_hash(key), clock.now()
        )
        tables = len(await alert_store.group_of(session, due.channel.id))
    if not noted:
        raise MailFailed("the address was removed or confirmed meanwhile")
    alerts = f"{base}/api/rooms/{state.room.id}/alerts"
    await send(
        out.settings,
        ConfirmMail(
            to=due.channel.target,
            lang=lang,
            game=state.engine.title,
            site=urlsplit(base).netloc,
            confirm_link=f"{alerts}/confirm?key={key}",
            stop_link=f"{alerts}/stop?key={stop_key}",
            tables=max(1, tables),
        ),
    )
