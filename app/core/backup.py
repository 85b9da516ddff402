"""``python -m app backup PATH`` and ``restore PATH``: the SQLite database copied to
a private file while the server runs, and a copy put back in its place.

A backup is made with SQLite's online backup, into a file only its owner can read
(it holds the sealed resume tokens, docs/self-hosting.md). A restore is
refused while a server holds the database (``app.core.dblock``): a running server's
cache would append after the seqs it remembers and cut gaps into the restored
logs. There is no flag to force it, because there is no safe way to: stop the
server, restore, start it again. The backup's logs are checked before anything is
replaced (a backup with a gap is refused and the database left as it is), and the
restored database's logs again after the copy and its migration: every room's
events are numbered 1..n without a hole.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from app.core.config import Settings
from app.core.dblock import holders, try_exclusive
from app.core.errors import Problem


def sqlite_file(settings: Settings) -> Path:
    url = make_url(settings.effective_database_url)
    if not url.drivername.startswith("sqlite") or not url.database:
        raise Problem(
            "backup and restore work on the embedded SQLite database; this server uses "
            f"{url.drivername.split('+')[0]}. For PostgreSQL use "
            '`pg_dump --format=custom --file=spieltisch.dump "$DATABASE_URL"` and '
            '`pg_restore --clean --if-exists --dbname="$DATABASE_URL" spieltisch.dump` '
            "(see docs/self-hosting.md)."
        )
    return Path(url.database)


def count_rooms(rooms: int) -> str:
    return f"{rooms} room" if rooms == 1 else f"{rooms} rooms"


def _rooms(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM rooms").fetchone()[0])


def backup(settings: Settings, target: Path) -> str:
    source = sqlite_file(settings)
    if not source.is_file():
        raise Problem(
            f"there is no database at {source} to back up (DATA_DIR={settings.data_dir})."
        )
    if target.is_dir():
        raise Problem(f"{target} is a directory; name the file the backup should go to.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_file(partial)
    with (
        contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
        contextlib.closing(sqlite3.connect(partial)) as dst,
    ):
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        rooms = _rooms(dst)
    os.replace(partial, target)
    return f"backed up {count_rooms(rooms)} from {source} to {target}"


def private_file(path: Path) -> None:
    """Make an empty file only its owner may read or write, for SQLite to fill: its
    journal takes the same mode, and there is never a moment it is readable by others."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask, not even the owner's group
    finally:
        os.close(fd)


def readable_backup(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise Problem(f"there is no backup file at {path}.")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        ok = conn.execute("PRAGMA quick_check").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise Problem(f"{path} is not an SQLite database ({exc}).") from exc
    if ok != "ok":
        conn.close()
        raise Problem(f"{path} is damaged: {ok}.")
    if not {"rooms", "events", "alembic_version"} <= tables:
        conn.close()
        raise Problem(f"{path} is an SQLite file, but not a Spieltisch database.")
    return conn


# what an operator needs to find the room, without printing its link in full
SHOWN = 8


class InUse(Problem):
    """A server is using the database; the command must wait until it is stopped."""

    exit_code = 3


@dataclass(frozen=True)
class Gap:
    """A room whose log is not numbered 1..n: ``missing`` seqs (the first few), or none."""

    room: str
    events: int
    missing: tuple[int, ...]

    def describe(self) -> str:
        room = self.room[:SHOWN] + "…"
        if not self.events:
            return f"room {room} has no events"
        shown = ", ".join(str(seq) for seq in self.missing[:5])
        more = " …" if len(self.missing) > 5 else ""
        return f"room {room} misses seq {shown}{more}"


def gaps(conn: sqlite3.Connection) -> list[Gap]:
    """Every room whose log is not gapless (its seqs are unique, so 1..n means
    min 1 and max = count), and events of rooms that don't exist."""
    rows = conn.execute(
        "SELECT r.id, count(e.seq), coalesce(min(e.seq), 0), coalesce(max(e.seq), 0) "
        "FROM rooms r LEFT JOIN events e ON e.room_id = r.id GROUP BY r.id "
        "HAVING count(e.seq) = 0 OR min(e.seq) != 1 OR max(e.seq) != count(e.seq) "
        "ORDER BY r.id"
    ).fetchall()
    found = []
    for room, count, _, top in rows:
        seqs = {row[0] for row in conn.execute("SELECT seq FROM events WHERE room_id = ?", (room,))}
        missing = tuple(seq for seq in range(1, top + 1) if seq not in seqs)
        found.append(Gap(room, count, missing))
    orphans = conn.execute(
        "SELECT DISTINCT room_id FROM events WHERE room_id NOT IN (SELECT id FROM rooms)"
    ).fetchall()
    found += [Gap(room, 0, ()) for (room,) in orphans]
    return found


def _summary(found: list[Gap]) -> str:
    lines = "; ".join(gap.describe() for gap in found[:5])
    more = f"; and {len(found) - 5} more" if len(found) > 5 else ""
    return f"{count_rooms(len(found))} with a broken log: {lines}{more}"


def _events(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])


def restore(settings: Settings, backup_file: Path) -> str:
    """Replace the database with ``backup_file``, migrate it to this version, and check
    that every room's log is gapless; ``InUse`` while a server holds the database."""
    from app.core.migrate import upgrade

    target = sqlite_file(settings).resolve()
    lock = try_exclusive(target)
    if lock is None:
        pids = holders(target)
        who = f" (process {', '.join(map(str, pids))})" if pids else ""
        raise InUse(
            f"a Spieltisch server is using {target}{who}. Stop it first "
            "(`docker compose stop app`, `systemctl stop spieltisch`, or Ctrl-C), then run "
            "restore again, and start the server after it. Restoring under a running "
            "server would leave gaps in room logs: it keeps appending after what it "
            "remembers, not after what the backup holds."
        )
    try:
        with contextlib.closing(readable_backup(backup_file)) as src:
            broken = gaps(src)
            if broken:
                raise Problem(
                    f"{backup_file} is not restored: it has {_summary(broken)}. "
                    f"{target} is left as it was."
                )
            rooms = _rooms(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                private_file(target)
            with contextlib.closing(sqlite3.connect(target, timeout=30)) as dst:
                src.backup(dst)
        upgrade(settings.effective_database_url)
        with contextlib.closing(sqlite3.connect(f"file:{target}?mode=ro", uri=True)) as done:
            broken = gaps(done)
            events = _events(done)
        if broken:
            raise Problem(f"restored {backup_file} into {target}, but it has {_summary(broken)}.")
    finally:
        lock.release()
    return (
        f"restored {count_rooms(rooms)} from {backup_file} into {target}; "
        f"every room's log is gapless ({events} events, each room's numbered 1..n)"
    )
