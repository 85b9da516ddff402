"""Alert mails over SMTP (aiosmtplib): plain text, the resume link and a stop link.

Every mail carries ``List-Unsubscribe`` (with the one-click POST of RFC 8058) so a
mail client can offer "unsubscribe" itself; the same link works when opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

import aiosmtplib

from app.alert_texts import text, title
from app.config import Settings


class MailFailed(Exception):
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


def compose(settings: Settings, mail: AlertMail) -> EmailMessage:
    lang = mail.lang
    message = EmailMessage()
    message["From"] = settings.smtp_sender
    message["To"] = mail.to
    message["Subject"] = title(lang, mail.kind, mail.game, mail.others)
    message["Message-ID"] = make_msgid(domain="spieltisch")
    message["Content-Language"] = lang
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{mail.stop_link}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    line = "mail_reminder" if mail.kind == "reminder" else "mail_turn"
    message.set_content(
        "\n".join(
            [
                text(lang, "mail_hello", name=mail.name),
                "",
                text(lang, line, game=mail.game),
                "",
                text(lang, "mail_link"),
                mail.resume_link,
                "",
                "-- ",
                text(lang, "mail_stop"),
                mail.stop_link,
                "",
            ]
        )
    )
    return message


async def send(settings: Settings, mail: AlertMail) -> None:
    if not settings.smtp_host:
        raise MailFailed("no SMTP server is set up (SMTP_HOST)")
    try:
        await aiosmtplib.send(
            compose(settings, mail),
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
    return bool(settings.smtp_host)
