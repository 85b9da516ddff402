"""A real server process for websocket and browser tests: ``python -m app`` on a free port."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


class BrowserTransport(httpx.AsyncHTTPTransport):
    """httpx's transport, retrying a GET once when the server closed the pooled
    connection it went out on before answering, as browsers do (RFC 9112 9.3.1: a
    request with an idempotent method may be sent again on a new connection). Anything
    else fails as before. ``retried`` counts the second tries, for the test to report."""

    def __init__(self) -> None:
        super().__init__()
        self.retried: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            if request.method != "GET":
                raise
            self.retried.append(f"GET {request.url.path}: {type(exc).__name__}: {exc}")
            return await super().handle_async_request(request)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """Start, stop and restart the app as its own process, on one database."""

    def __init__(
        self,
        data_dir: Path,
        env: Mapping[str, str] | None = None,
        port: int | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.data_dir = data_dir
        # a command the server runs under (a profiler), before the interpreter
        self.prefix = list(prefix)
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "DATA_DIR": str(data_dir),
            "BOT_DELAY_MS": "50",
            "BOT_WORKERS": "1",
            # a searching bot thinks briefly: the tests wait for bot moves, not for good ones
            "BOT_THINK_SECONDS": "0.05",
            "PYTHONUNBUFFERED": "1",
            # tests go as fast as the machine goes: limits no machine outruns, so no test
            # depends on its speed (the tests of the limits themselves narrow them on purpose)
            "ROOMS_PER_MINUTE": "1000000",
            "SEAT_BUDGET_MESSAGES": "1000000",
            **(env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    *self.prefix,
                    sys.executable,
                    *("-m", "app", "--host", "127.0.0.1", "--port", str(self.port)),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                # its own process group: a kill takes its bot workers with it, as a crash would
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log.read_text()[-4000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not come up:\n{self.log.read_text()[-4000:]}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def tail(self, chars: int = 4000) -> str:
        """How the process stands and the end of its log, for a failing test to show."""
        if self.proc is None:
            state = "not started"
        elif self.proc.poll() is None:
            state = f"running (pid {self.proc.pid})"
        else:
            state = f"exited with code {self.proc.returncode}"
        try:
            log = self.log.read_text(errors="replace")[-chars:]
        except OSError as exc:
            log = f"(no log: {exc})"
        return f"server on port {self.port}, {state}; its log ends:\n{log}"

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        group = self.proc.pid
        if kill:
            self._kill_group(group)
        else:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self._kill_group(group)
            self.proc.wait()
        self.proc = None

    @staticmethod
    def _kill_group(group: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)

    def restart(self, kill: bool = True) -> None:
        self.stop(kill=kill)
        self.start()
