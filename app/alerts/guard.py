"""The guard on calls out: the one place that decides whether a URL or address may be contacted.

A room's webhook URL and a browser's push endpoint make the server call a host chosen
by someone else. The guard looks the name up once per connection, refuses it when any
of the addresses is private, loopback, link-local or otherwise not public (an IPv6
address that carries an IPv4 one is judged by the IPv4 it carries), and the connection
then goes to exactly the addresses that were checked, never to a second lookup's answer:
a name that answers a public address to the check and a private one a moment later (DNS
rebinding) can't steer the call into the server's own network. The pin lives in the
connection pool's network backend (httpcore's own extension point), so the URL's host
stays the ``Host`` header, the TLS server name and the name the certificate must match.
``WEBHOOK_ALLOW_PRIVATE`` lifts the judgement, not the pin.

Each call has one deadline for the whole exchange — looking up, connecting, sending and
reading the answer — and keeps at most ``ANSWER_BYTES`` of the answer: the rest is never
read, the connection is closed instead. Redirects are not followed. No proxy is used:
a proxy would look the name up again, out of the guard's sight.

``check_url`` judges a URL when it is set (a webhook, a push endpoint), so the person
setting it hears at once why it can't be used; ``Outbound`` judges it again on every call.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import ssl
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httpcore
import httpx

ANSWER_BYTES = 4096
MAX_URL = 2000
KEEPALIVE_SECONDS = 30.0
USER_AGENT = "Spieltisch alerts"

Resolve = Callable[[str, int], Awaitable[list[str]]]

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
_COMPATIBLE = ipaddress.IPv6Network("::/96")

_FAILURES = (
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    httpx.InvalidURL,
    OSError,
)


class Refused(Exception):
    """The host has an address the guard refuses: no call goes there."""


class Unreachable(Exception):
    """The call failed in a way that may pass (no answer in time, no connection, no name)."""


class NotFound(Unreachable):
    """The name has no address (now)."""


class BadUrl(Exception):
    """The URL can't be used; the message says why (for the person setting it)."""


PRIVATE = "Webhooks can't go to private, loopback or link-local addresses on this server."


async def system_resolve(host: str, port: int) -> list[str]:
    """The system resolver's addresses for ``host``, in its order, each once."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


resolve: Resolve = system_resolve
"""The one place names are looked up; a test puts a resolver it drives here."""


def _embedded(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for, if it is a form that carries one.

    IPv4-mapped (``::ffff:a.b.c.d``), IPv4-compatible (``::a.b.c.d``), NAT64 (the
    well-known ``64:ff9b::/96`` and the local-use ``64:ff9b:1::/48``, whose prefix length
    is the network's choice, so every length it may have is read), 6to4 (``2002::/16``)
    and Teredo (``2001::/32``: its server and its client).
    """
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    if ip in _NAT64 or ip in _COMPATIBLE:
        return [ipaddress.IPv4Address(ip.packed[12:])]
    if ip in _NAT64_LOCAL:
        return [_rfc6052(ip, length) for length in (48, 56, 64, 96)]
    return []


def _rfc6052(ip: ipaddress.IPv6Address, prefix: int) -> ipaddress.IPv4Address:
    """The IPv4 address in a NAT64 address of that prefix length (RFC 6052, section 2.2)."""
    raw = ip.packed
    if prefix == 96:
        return ipaddress.IPv4Address(raw[12:])
    # bits 64 to 71 (the "u" octet) never carry address bits
    return ipaddress.IPv4Address((raw[prefix // 8 : 8] + raw[9:])[:4])


def blocked(address: str) -> bool:
    """Whether the guard refuses ``address`` (an IPv4 or IPv6 address as text)."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv4Address):
        return not ip.is_global or ip.is_multicast
    carried = _embedded(ip)
    if carried:
        return any(blocked(str(v4)) for v4 in carried)
    return not ip.is_global or ip.is_multicast or ip.is_site_local or ip.is_reserved


def _literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


async def addresses(host: str, port: int, allow_private: bool) -> list[str]:
    """Where ``host`` may be reached: every address of one lookup, all of them checked.

    Raises ``NotFound`` when the name has no address and ``Refused`` when any of its
    addresses is one the guard refuses (unless ``allow_private``).
    """
    if _literal(host):
        found = [host]
    else:
        try:
            found = await resolve(host, port)
        except (OSError, UnicodeError) as exc:
            raise NotFound(f"the host {host!r} can't be found") from exc
    if not found:
        raise NotFound(f"the host {host!r} can't be found")
    if not allow_private and any(blocked(a) for a in found):
        raise Refused(f"the host {host!r} has a private, loopback or link-local address")
    return found


def url_parts(url: str) -> tuple[str, int]:
    """The host and port of a usable URL; ``BadUrl`` says what is wrong with another."""
    if len(url) > MAX_URL:
        raise BadUrl(f"A webhook URL has at most {MAX_URL} characters.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadUrl("A webhook URL starts with https:// (or http://) and names a host.")
    if parts.username or parts.password:
        raise BadUrl("A webhook URL can't carry a user name or password before the host.")
    return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


async def check_url(url: str, allow_private: bool) -> None:
    """Raise ``BadUrl`` unless ``url`` is http(s) and resolves to public addresses only."""
    host, port = url_parts(url)
    if allow_private:
        return
    try:
        await addresses(host, port, allow_private=False)
    except NotFound as exc:
        raise BadUrl(f"The host {host!r} can't be found.") from exc
    except Refused as exc:
        raise BadUrl(PRIVATE) from exc


class _Pinned(httpcore.AsyncNetworkBackend):
    """Connects to the addresses the guard checked for the host, tried in their order."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._net = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception | None = None
        for address in await addresses(host, port, self.allow_private):
            try:
                return await self._net.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("alert calls go over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._net.sleep(seconds)


@dataclass(frozen=True)
class Answer:
    status: int
    head: bytes
    """At most ``ANSWER_BYTES`` of the body; the rest was never read."""


class Outbound:
    """The HTTP client of the alert worker: pinned connections, one deadline per call."""

    def __init__(self, allow_private: bool, ssl_context: ssl.SSLContext | None = None) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            network_backend=_Pinned(allow_private),
            max_connections=None,
            max_keepalive_connections=20,
            keepalive_expiry=KEEPALIVE_SECONDS,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()

    async def post(
        self, url: str, body: bytes, headers: Mapping[str, str], seconds: float
    ) -> Answer:
        """POST ``body`` to ``url``: the status and the start of the answer, within ``seconds``.

        Raises ``Refused`` (the guard said no) or ``Unreachable``.
        """
        try:
            async with asyncio.timeout(seconds):
                return await self._post(url, body, headers, seconds)
        except TimeoutError as exc:
            raise Unreachable(f"no whole answer within {seconds:g} s") from exc
        except _FAILURES as exc:
            raise Unreachable(f"{type(exc).__name__}: {exc}") from exc

    async def _post(
        self, url: str, body: bytes, headers: Mapping[str, str], seconds: float
    ) -> Answer:
        target = httpx.URL(url)
        sent = [
            (b"Host", target.netloc),
            (b"User-Agent", USER_AGENT.encode()),
            (b"Accept-Encoding", b"identity"),
            *((name.encode(), value.encode()) for name, value in headers.items()),
        ]
        core_url = httpcore.URL(
            scheme=target.raw_scheme,
            host=target.raw_host,
            port=target.port,
            target=target.raw_path,
        )
        timeouts = dict.fromkeys(("connect", "read", "write", "pool"), seconds)
        async with self._pool.stream(
            "POST", core_url, headers=sent, content=body, extensions={"timeout": timeouts}
        ) as response:
            return Answer(response.status, await _head(response))


async def _head(response: httpcore.Response) -> bytes:
    """Up to ``ANSWER_BYTES`` of the body; leaving early closes the connection unread."""
    kept = bytearray()
    chunks = cast(AsyncGenerator[bytes, None], response.aiter_stream())
    async with contextlib.aclosing(chunks):
        async for chunk in chunks:
            kept += chunk[: ANSWER_BYTES - len(kept)]
            if len(kept) >= ANSWER_BYTES:
                break
    return bytes(kept)
