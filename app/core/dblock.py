"""Who is using the SQLite database: a lock file beside it, held shared by every server
for as long as it runs, and exclusively by ``python -m app restore``.

A restore under a running server breaks room logs even when the server is idle:
its state cache still holds each room at the seq it last saw, so its next move is
appended after that seq on a log the backup has cut shorter, leaving a gap. So
the signal must be "a server process is alive on this file", not "a transaction
is open", which is all SQLite's own locks tell. A lock file with ``flock`` says
exactly that: the kernel drops the lock when the process ends, however it ends
(``kill -9``, a crash, an OOM kill), so it never goes stale the way a pid file or
a heartbeat row does, and there is no timeout to guess. The file itself stays (a
new one would be another inode, and locks on the old one would count for nothing).

Only SQLite needs this; PostgreSQL is restored with its own tools (docs/self-hosting.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

SUFFIX = ".serving"


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (absolute), or None for any other database."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(str(parsed.database)).resolve()


def lock_file(database: Path) -> Path:
    return database.with_name(database.name + SUFFIX)


@dataclass
class Held:
    """A lock on the lock file, held until ``release`` (or the process ends)."""

    path: Path
    fd: int

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the file drops its flock
            self.fd = -1

    def __del__(self) -> None:
        # a start-up that failed half-way lets go too
        self.release()


def _open(database: Path) -> tuple[Path, int]:
    path = lock_file(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path, os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


def hold_shared(database: Path) -> Held | None:
    """The server's lock: shared, so tests and tools may open the file beside it. Waits
    while a restore holds it exclusively (the restore ends, or dies, and lets go).
    None, with a warning, when the lock file can't be opened: serving goes on, but a
    restore can't tell it is running."""
    try:
        path, fd = _open(database)
    except OSError as exc:
        log.warning("can't open %s (%s): a restore could not tell this server runs", database, exc)
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        log.warning("waiting for `python -m app restore` to finish with %s", database)
        fcntl.flock(fd, fcntl.LOCK_SH)
    return Held(path, fd)


def try_exclusive(database: Path) -> Held | None:
    """The restore's lock, or None while any server holds the database."""
    path, fd = _open(database)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return Held(path, fd)


def holders(database: Path) -> list[int]:
    """The ids of the processes holding the lock file, as far as ``/proc/locks`` tells
    (Linux; a process in another container may show another id or none)."""
    with contextlib.suppress(OSError):
        info = os.stat(lock_file(database))
        device = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
        pids = []
        for line in Path("/proc/locks").read_text().splitlines():
            parts = line.split()
            # "1: FLOCK  ADVISORY  READ  1234 08:01:5678 0 EOF"
            if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == device:
                with contextlib.suppress(ValueError):
                    pids.append(int(parts[4]))
        return sorted(set(pids))
    return []
