"""An idle HTTP connection stays open longer than the clients that reuse it expect.

HTTP libraries keep an idle connection about 5 s for the next request (httpx, the race
suite's client, exactly 5 s). A server that closes idle connections after the same 5 s
closes some just as a request goes out on them, and that request fails with a reset
(httpx.ReadError) though nothing was wrong with it. The server's keep-alive
(KEEP_ALIVE_SECONDS) is longer than that, and the setting is what it obeys.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server import BrowserTransport, ServerProcess

Starter = Callable[[dict[str, str]], ServerProcess]
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Starter]:
    servers: list[ServerProcess] = []

    def _start(env: dict[str, str]) -> ServerProcess:
        server = ServerProcess(tmp_path / f"data{len(servers)}", env=env)
        servers.append(server)
        server.start()
        return server

    yield _start
    for server in servers:
        server.stop(kill=True)


def _answer(sock: socket.socket) -> bytes:
    """One whole response to /healthz (its body is short), or b"" once the server closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def _second_request_after(server: ServerProcess, idle: float) -> bytes:
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(REQUEST)
        assert _answer(sock).startswith(b"HTTP/1.1 200"), "the first request failed"
        time.sleep(idle)
        try:
            sock.sendall(REQUEST)
            return _answer(sock)
        except (ConnectionResetError, BrokenPipeError):
            return b""


def test_a_connection_idle_longer_than_clients_keep_theirs_is_still_open(start: Starter) -> None:
    server = start({})
    # 6 s: past the 5 s an HTTP library keeps a connection for reuse
    assert _second_request_after(server, 6.0).startswith(b"HTTP/1.1 200")


def test_the_server_closes_idle_connections_after_keep_alive_seconds(start: Starter) -> None:
    server = start({"KEEP_ALIVE_SECONDS": "1"})
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(REQUEST)
        assert _answer(sock).startswith(b"HTTP/1.1 200"), "the first request failed"
        # the server closes the idle connection by itself, however slow the machine (the
        # 75 s default would outlast the 30 s this waits)
        sock.settimeout(30)
        try:
            closed = sock.recv(1) == b""
        except ConnectionResetError:
            closed = True
        assert closed


async def test_the_suites_client_sends_a_read_again_when_its_connection_closes_unanswered() -> None:
    """The race suite's client (tests/server.py BrowserTransport) does what a browser
    does when a server closes a reused connection just as a request goes out on it: a
    GET goes again on a new connection, anything else fails. A server that drops each
    connection's second request unanswered shows both."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        answered = 0
        while await reader.readuntil(b"\r\n\r\n"):
            if answered == 1:  # the second request on this connection: drop it
                break
            answered += 1
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = BrowserTransport()
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport) as c:
            assert (await c.get("/a")).text == "ok"
            assert (await c.get("/b")).text == "ok"  # dropped, then sent again
            assert transport.retried == [
                "GET /b: RemoteProtocolError: Server disconnected without sending a response."
            ]
            with pytest.raises(httpx.RemoteProtocolError):
                await c.post("/c")  # the second on the new connection: not sent again
    finally:
        server.close()
        await server.wait_closed()
