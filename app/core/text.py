"""What text the server accepts from people: display names, chat, and strings in JSON.

Every string a client sends can end up in the log, and the log must always be
readable back: no lone surrogates (JSON can carry ``"\\ud800"``, UTF-8 cannot),
no NUL (PostgreSQL refuses it). Names are shown beside every seat, so they are
normalised (NFC) and may hold no control characters, no bidi overrides that flip
what follows, and at least one visible character. The REST routes and the websocket
use these same checks.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import orjson

from app.core.errors import ApiError

# explicit direction marks and overrides: they reorder the text around a name
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# letters that render as nothing: Hangul fillers, the braille blank, the grapheme joiner
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
CHAT_WHITESPACE = frozenset("\n\t")
# room ids are URL-safe base64 (``secrets.token_urlsafe``), and the column holds 64
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# how JSON text writes a NUL (a text holding a backslash and "u0000" shows it too)
NUL_ESCAPE = b"\\u0000"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def storable(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 and stored by every database: no lone
    surrogates, no NUL."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def unstorable(value: Any) -> str | None:
    """The first string anywhere in a JSON value that ``storable`` refuses, if any."""
    return next((s for s in _strings(value) if not storable(s)), None)


def check_json(value: Any) -> Any:
    """``value`` itself, or ``ValueError`` if it holds a string no database can keep."""
    # Most values are plainly fine: orjson writes them (it refuses lone surrogates) and
    # its text holds no escaped NUL. Anything else is judged string by string.
    try:
        plain = NUL_ESCAPE not in orjson.dumps(value)
    except orjson.JSONEncodeError:
        plain = False
    if not plain and unstorable(value) is not None:
        raise ValueError("text must be valid Unicode without NUL or lone surrogates")
    return value


def _visible(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category[0] in "CZ" or category in ("Mn", "Me") or char in BLANK_LETTERS)


def display_name(raw: str, max_chars: int) -> str:
    """A name as shown beside a seat: NFC, runs of whitespace as one space.

    Raises ``bad_name`` for control characters, direction overrides, broken text, a
    name of only invisible characters, or one longer than ``max_chars``.
    """
    if not storable(raw):
        raise ApiError(
            400, "bad_name", "A display name must be readable text (no NUL, no broken characters)."
        )
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise ApiError(400, "bad_name", "A display name can't hold control characters.")
    if any(c in BIDI_CONTROLS for c in name):
        raise ApiError(
            400,
            "bad_name",
            "A display name can't hold direction overrides (they flip the text around it).",
        )
    if not any(_visible(c) for c in name):
        raise ApiError(400, "bad_name", "A display name needs at least one visible character.")
    if len(name) > max_chars:
        raise ApiError(400, "bad_name", f"Display names are at most {max_chars} characters.")
    return name


def chat_text(raw: str) -> str:
    """A chat message as stored: NFC, without control characters but for new lines and
    tabs. Raises ``bad_text``; emptiness and length are the room's to judge."""
    if not storable(raw):
        raise ApiError(
            400, "bad_text", "A chat message must be readable text (no NUL, no broken characters)."
        )
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n"))
    if any(unicodedata.category(c) == "Cc" and c not in CHAT_WHITESPACE for c in text):
        raise ApiError(
            400,
            "bad_text",
            "A chat message can't hold control characters, only text, new lines and tabs.",
        )
    return text


# control characters (ESC starts the terminal's escape sequences), invisible formatting
# (zero-width, direction overrides) and the Unicode line breaks: in no address
NOT_IN_ADDRESSES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def address_problem(text: str) -> str | None:
    """Why ``text`` can't be an address (an e-mail address, a push endpoint, a webhook
    URL), as the end of a sentence; ``None`` if it can be. Addresses are stored, and
    shown to operators in logs and tables: no NUL, no broken characters, no control
    characters or escape sequences, nothing invisible."""
    if not storable(text):
        return "must be readable text (no NUL, no broken characters)."
    if any(unicodedata.category(c) in NOT_IN_ADDRESSES for c in text):
        return "can't hold control characters, escape sequences or invisible characters."
    return None


def is_room_id(text: str) -> bool:
    """Whether ``text`` could name a room at all; anything else is no room."""
    return ROOM_ID.fullmatch(text) is not None
