"""Real receivers for alert tests: an SMTP server (aiosmtpd) and HTTP endpoints.

They run in threads of the test process on free ports, keep what they receive,
and let a test wait for a number of deliveries without sleeping blindly. Besides
the plain HTTP endpoint (optionally over TLS, on another loopback address) there
are two hostile ones: one that trickles its answer a byte at a time until the test
lets it finish, and one whose answer is far larger than anything should read.
"""

from __future__ import annotations

import email
import email.policy
import json
import socketserver
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller

from tests.server import free_port

WAIT_SECONDS = 30.0


def wait_for(check: Any, what: str, seconds: float = WAIT_SECONDS) -> None:
    """Poll ``check()`` until it is true; fail with ``what`` after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class _Inbox:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.rcpt: list[list[str]] = []
        self.raw: list[bytes] = []  # each mail as the SMTP server got it
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.mails.append(message)  # type: ignore[arg-type]
            self.rcpt.append(list(envelope.rcpt_tos))
            self.raw.append(bytes(envelope.original_content or envelope.content))
        return "250 OK"


@dataclass
class SmtpServer:
    port: int
    inbox: _Inbox

    @property
    def mails(self) -> list[EmailMessage]:
        with self.inbox.lock:
            return list(self.inbox.mails)

    @property
    def raw(self) -> list[bytes]:
        with self.inbox.lock:
            return list(self.inbox.raw)

    def wait(self, count: int) -> list[EmailMessage]:
        wait_for(lambda: len(self.mails) >= count, f"{count} mails (have {len(self.mails)})")
        return self.mails

    def take(self, to: str, containing: str) -> EmailMessage:
        """Wait for a mail to ``to`` whose text holds ``containing``, and take it out of
        the inbox (so a test can go on counting the other mails)."""
        taken: list[EmailMessage] = []

        def look() -> bool:
            with self.inbox.lock:
                for i, mail in enumerate(self.inbox.mails):
                    if mail["To"] == to and containing in mail.get_content():
                        taken.append(self.inbox.mails.pop(i))
                        self.inbox.rcpt.pop(i)
                        self.inbox.raw.pop(i)
                        return True
            return False

        wait_for(look, f"a mail to {to} with {containing!r}")
        return taken[0]


@contextmanager
def smtp_server(utf8: bool = False) -> Iterator[SmtpServer]:
    """A real SMTP server; ``utf8`` offers SMTPUTF8 (addresses beyond ASCII)."""
    inbox = _Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, enable_SMTPUTF8=utf8)
    controller.start()
    try:
        yield SmtpServer(port, inbox)
    finally:
        controller.stop()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class HttpReceiver:
    """Answers POSTs with the next status in ``statuses`` (then 201) and keeps each request."""

    port: int
    host: str = "127.0.0.1"
    scheme: str = "http"
    requests: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    server_names: list[str | None] = field(default_factory=list)  # TLS SNI of each handshake
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str = "/hook", name: str | None = None) -> str:
        """The URL of ``path``; ``name`` puts a host name in place of the address."""
        return f"{self.scheme}://{name or self.host}:{self.port}{path}"

    def got(self) -> list[Received]:
        with self.lock:
            return list(self.requests)

    def wait(self, count: int) -> list[Received]:
        wait_for(lambda: len(self.got()) >= count, f"{count} requests (have {len(self.got())})")
        return self.got()


@contextmanager
def http_receiver(
    host: str = "127.0.0.1", port: int | None = None, tls: ssl.SSLContext | None = None
) -> Iterator[HttpReceiver]:
    """A receiver on ``host`` (any loopback address) and ``port`` (default: a free one);
    with ``tls`` (a server context) it speaks HTTPS and notes the server name asked for."""
    receiver = HttpReceiver(
        port=port or free_port(), host=host, scheme="https" if tls is not None else "http"
    )

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length)
            with receiver.lock:
                receiver.requests.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                status = receiver.statuses.pop(0) if receiver.statuses else 201
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer((host, receiver.port), Handler)
    if tls is not None:

        def note(sock: Any, name: str | None, context: Any) -> None:
            with receiver.lock:
                receiver.server_names.append(name)

        tls.sni_callback = note
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    with _serving(server):
        yield receiver


@contextmanager
def _serving(server: socketserver.BaseServer) -> Iterator[None]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class TricklingReceiver:
    """Answers 200 and then one byte of body every ``interval`` seconds until ``release``."""

    port: int
    interval: float
    started: threading.Event = field(default_factory=threading.Event)  # a request came
    release: threading.Event = field(default_factory=threading.Event)  # set by the test
    finished: threading.Event = field(default_factory=threading.Event)  # answer completed
    hung_up: threading.Event = field(default_factory=threading.Event)  # the caller left

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def trickling_receiver(interval: float = 1.0) -> Iterator[TricklingReceiver]:
    receiver = TricklingReceiver(port=free_port(), interval=interval)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            receiver.started.set()
            self.send_response(200)
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            try:
                while not receiver.release.wait(receiver.interval):
                    self.wfile.write(b"1\r\nx\r\n")
                self.wfile.write(b"0\r\n\r\n")
                receiver.finished.set()
            except OSError:
                receiver.hung_up.set()
            self.close_connection = True

        def log_message(self, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", receiver.port), Handler)
    try:
        with _serving(server):
            yield receiver
    finally:
        receiver.release.set()  # no handler thread outlives the test


@dataclass
class HugeReceiver:
    """Answers 200 with a body of ``size`` bytes, made as it is written (never held whole)."""

    port: int
    size: int
    written: int = 0  # bytes of body the socket took
    done: threading.Event = field(default_factory=threading.Event)
    hung_up: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def huge_receiver(size: int) -> Iterator[HugeReceiver]:
    receiver = HugeReceiver(port=free_port(), size=size)
    piece = bytes(64 * 1024)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(200)
            self.send_header("content-length", str(receiver.size))
            self.end_headers()
            try:
                while receiver.written < receiver.size:
                    chunk = piece[: receiver.size - receiver.written]
                    self.wfile.write(chunk)
                    receiver.written += len(chunk)
            except OSError:
                receiver.hung_up.set()
            finally:
                receiver.done.set()

        def log_message(self, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", receiver.port), Handler)
    with _serving(server):
        yield receiver
