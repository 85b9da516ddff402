"""The small HTML pages the links in alert mails open: stop the mails, confirm an address.

They are read by people who clicked a link in a mail, so they answer HTML in the
seat's language; the status code and the ``data-code`` of ``<main>`` say the same
for a program. Everything in them is escaped.
"""

from __future__ import annotations

import html

from fastapi.responses import HTMLResponse

from app.alerts.texts import text


def page(
    lang: str,
    room: str,
    title_key: str,
    message: str,
    *,
    status: int = 200,
    code: str = "ok",
    button: tuple[str, str] | None = None,
    message_id: str = "alert-message",
) -> HTMLResponse:
    """``button`` is (form action, label key): a POST form, for what a plain GET must not do."""
    title = html.escape(text(lang, title_key))
    form = ""
    if button is not None:
        action, label = button
        form = (
            f'<form method="post" action="{html.escape(action)}">'
            f'<button type="submit" class="btn btn-primary">{html.escape(text(lang, label))}'
            "</button></form>"
        )
    body = (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        f"<title>{title}</title>"
        '<link rel="stylesheet" href="/static/css/base.css"></head>'
        f'<body><main class="card notice" data-code="{html.escape(code)}"><h1>{title}</h1>'
        f'<p id="{message_id}">{html.escape(message)}</p>{form}'
        f'<p><a href="/r/{html.escape(room)}">{html.escape(text(lang, "open"))}</a></p>'
        "</main></body></html>"
    )
    return HTMLResponse(body, status_code=status)
