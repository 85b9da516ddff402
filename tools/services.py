"""Run a command with throwaway PostgreSQL and Redis servers, when this machine has them.

    python tools/services.py -- pytest -q

For each of TEST_DATABASE_URL and TEST_REDIS_URL that is not set already, and whose
server binaries are here (``initdb``/``pg_ctl``/``postgres`` on PATH or in Debian's
/usr/lib/postgresql/*/bin, ``redis-server``), a server is started on a free port in a
temporary directory, the variable is exported to the command, and the server is
stopped and its directory removed when the command ends. CI sets both variables and
so keeps using the machine's own services. Without the binaries the command runs
as it is, and the test run says at its end what it skipped.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

READY_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin() -> Path | None:
    """The folder holding initdb and postgres: PATH first, then Debian's versioned ones."""
    found = shutil.which("initdb")
    if found and shutil.which("postgres"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    return None


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited at start:\n{log.read_text()[-2000:]}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not open port {port}:\n{log.read_text()[-2000:]}")


def _wait_until_accepting(
    bindir: Path, port: int, proc: subprocess.Popen[bytes], log: Path
) -> None:
    """A listening PostgreSQL may still be starting up: ask it until it says it is ready."""
    ready = bindir / "pg_isready"
    if not ready.exists():
        return
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"PostgreSQL exited at start:\n{log.read_text()[-2000:]}")
        asked = subprocess.run(
            [str(ready), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres"], capture_output=True
        )
        if asked.returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError(f"PostgreSQL did not get ready:\n{log.read_text()[-2000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # PostgreSQL: fast shutdown; Redis: exit
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def postgres(folder: Path, bindir: Path) -> Iterator[str]:
    """A PostgreSQL cluster in ``folder`` on a free port; yields its URL."""
    data, sockets, log = folder / "data", folder / "sockets", folder / "postgres.log"
    sockets.mkdir()
    user: str | None = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        user = "nobody"
        uid = pwd.getpwnam(user).pw_uid
        for path in (folder, sockets):
            os.chown(path, uid, -1)
        os.chmod(folder.parent, 0o711)  # the temporary directory is root's alone
    initdb = subprocess.run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        ],
        capture_output=True,
        text=True,
        user=user,
        cwd=folder,
    )
    if initdb.returncode != 0:
        raise RuntimeError(f"initdb failed:\n{initdb.stdout}{initdb.stderr}")
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(bindir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(sockets),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            user=user,
            cwd=folder,
        )
    try:
        _wait_for_port(port, proc, log, "PostgreSQL")
        _wait_until_accepting(bindir, port, proc, log)
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        _stop(proc)


@contextlib.contextmanager
def redis(folder: Path, server: str) -> Iterator[str]:
    """A Redis server without persistence on a free port; yields its URL."""
    port, log = free_port(), folder / "redis.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                server,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, proc, log, "Redis")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


def main(argv: list[str]) -> int:
    if "--" in argv:
        argv = argv[argv.index("--") + 1 :]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    env = dict(os.environ)
    with (
        tempfile.TemporaryDirectory(prefix="spieltisch-services-") as tmp,
        contextlib.ExitStack() as stack,
    ):
        started = []
        bindir = postgres_bin()
        if not env.get("TEST_DATABASE_URL") and bindir is not None:
            folder = Path(tmp) / "pg"
            folder.mkdir()
            env["TEST_DATABASE_URL"] = stack.enter_context(postgres(folder, bindir))
            started.append(f"PostgreSQL ({bindir / 'postgres'})")
        server = shutil.which("redis-server")
        if not env.get("TEST_REDIS_URL") and server is not None:
            folder = Path(tmp) / "redis"
            folder.mkdir()
            env["TEST_REDIS_URL"] = stack.enter_context(redis(folder, server))
            started.append("Redis")
        if started:
            print(f"services: started throwaway {' and '.join(started)} for this run", flush=True)
        return subprocess.run(argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
