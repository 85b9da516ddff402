"""Log lines: plain text or JSON, each with its request id and room id; no secrets.

A middleware gives every HTTP request and websocket a request id (the client's
``X-Request-ID`` when it is a sane one, else a fresh one, echoed in the response)
and notes the room its path names. A filter stamps both on every record logged
while that request runs, including the server's access lines. Secrets never
reach a line: bearer headers, ``token`` fields and resume fragments are masked, and
so is the value of every query parameter whose name says it holds a secret
(``SECRET_PARAM``: the ``key`` of the stop and confirmation links in mails, any
``…token``, ``…secret``, ``…password``). Client addresses are left out unless
``LOG_CLIENT_ADDRESSES`` is set.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote_plus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import Settings

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
room_id: ContextVar[str | None] = ContextVar("room_id", default=None)

ROOM_PATH = re.compile(r"^/(?:api/rooms|r)/([^/?#]+)")
GIVEN_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# the name of a query parameter whose value is a secret
SECRET_PARAM = re.compile(r"(?i)^[\w.-]*(?:key|token|secret|password)[\w.-]*$")
SECRETS = [
    (re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"), r"\1***"),
    (re.compile(r"(?i)([\"']?token[\"']?\s*[:=]\s*[\"']?)[^\s\"',;&}]+"), r"\1***"),
    (
        re.compile(r"(?i)([?&;][\w.-]*(?:key|token|secret|password)[\w.-]*=)[^\s&\"'#;]+"),
        r"\1***",
    ),
]
# uvicorn's access and websocket lines start with the client's "host:port"
ADDRESS_FIRST = re.compile(r"^%s - ")


def scrub(text: str) -> str:
    for pattern, mask in SECRETS:
        text = pattern.sub(mask, text)
    return text


def mask_query(path: str) -> str:
    """A request path with the value of each secret query parameter masked; the names
    are read as the server reads them (``k%65y`` is ``key``)."""
    base, mark, query = path.partition("?")
    if not mark:
        return path
    parts = []
    for part in query.split("&"):
        name, equals, _ = part.partition("=")
        parts.append(f"{name}=***" if equals and SECRET_PARAM.match(unquote_plus(name)) else part)
    return f"{base}?{'&'.join(parts)}"


class RequestContext:
    """ASGI middleware: a request id and the room id for everything a request logs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = ""
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
        rid = given if GIVEN_ID.match(given) else secrets.token_hex(8)
        match = ROOM_PATH.match(scope.get("path", ""))
        rid_token = request_id.set(rid)
        room_token = room_id.set(match.group(1) if match else None)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(rid_token)
            room_id.reset(room_token)


def note_room(room: str) -> None:
    """After a commit: a request that had no room in its path (creating one) now has one."""
    if room_id.get() is None:
        room_id.set(room)


class ContextFilter(logging.Filter):
    """Stamps request and room ids on each record; drops client addresses unless allowed."""

    def __init__(self, addresses: bool) -> None:
        super().__init__()
        self.addresses = addresses

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        record.room_id = room_id.get()
        if (
            record.name.startswith("uvicorn")
            and isinstance(record.msg, str)
            and ADDRESS_FIRST.match(record.msg)
            and isinstance(record.args, tuple)
            and record.args
        ):
            record.client = record.args[0] if self.addresses else None
            if not self.addresses:
                record.args = ("-", *record.args[1:])
        if record.name.startswith("uvicorn") and isinstance(record.args, tuple):
            record.args = tuple(
                mask_query(arg) if isinstance(arg, str) and "?" in arg else arg
                for arg in record.args
            )
        return True


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s [%(request_id)s %(room_id)s] %(message)s"
        )

    def format(self, record: logging.LogRecord) -> str:
        for name in ("request_id", "room_id"):
            if getattr(record, name, None) is None:
                setattr(record, name, "-")
        return scrub(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id, room_id."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
            "request_id": getattr(record, "request_id", None),
            "room_id": getattr(record, "room_id", None),
        }
        client = getattr(record, "client", None)
        if client:
            line["client"] = client
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


def configure(settings: Settings, level: int = logging.INFO) -> None:
    """Route every logger (the server's own included) through one handler on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_format == "json" else TextFormatter())
    handler.addFilter(ContextFilter(settings.log_client_addresses))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    logging.captureWarnings(True)
