"""``python -m app``: serve (the default; ``--workers N`` for N processes on one port),
``backup PATH``, ``restore PATH``, ``check``.

``backup`` and ``restore`` work on the embedded SQLite database through SQLite's
online backup API, so a backup taken while the server runs is consistent. A backup
holds secrets (sealed resume tokens, stop keys, and without ``ALERT_SECRET`` the key
that opens the tokens), so its file is the owner's alone (0600) from the moment it
exists. For PostgreSQL they say which ``pg_dump`` / ``pg_restore`` line does the job
instead.
``check`` reads the settings, reaches the database (and Redis) and says in plain
words what is wrong; its exit status is 0 only when nothing is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy.engine import make_url

from app.core.backup import backup, restore
from app.core.config import Settings, get_settings
from app.core.errors import Problem
from app.core.logs import configure as configure_logs

VERBS = ("serve", "backup", "restore", "check", "verify")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["verify"]:
        from app.history.verify_cli import main as verify_main

        return verify_main(args[1:])
    if not args or args[0] not in (*VERBS, "-h", "--help"):
        args.insert(0, "serve")  # `python -m app --port 8001` still serves
    parsed = _parser().parse_args(args)
    try:
        if parsed.verb == "serve":
            serve(parsed.host, parsed.port, migrate=not parsed.no_migrate, workers=parsed.workers)
            return 0
        if parsed.verb == "check":
            return check(sys.stdout)
        settings = get_settings()
        if parsed.verb == "backup":
            print(backup(settings, Path(parsed.path)))
        else:
            print(restore(settings, Path(parsed.path)))
        return 0
    except Problem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except ValidationError as exc:
        print("error: the settings are not valid:", file=sys.stderr)
        for line in settings_problems(exc):
            print(f"  {line}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m app", description="Spieltisch.")
    verbs = parser.add_subparsers(dest="verb", required=True)
    serve_ = verbs.add_parser("serve", help="migrate the database, then serve (the default)")
    serve_.add_argument("--host", default="127.0.0.1")
    serve_.add_argument("--port", type=int, default=8000)
    serve_.add_argument("--no-migrate", action="store_true", help="skip Alembic on start")
    serve_.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="serve N app processes on this one port (default: WORKERS, 1); N > 1 needs "
        "PostgreSQL and Redis",
    )
    backup_ = verbs.add_parser("backup", help="copy the SQLite database to PATH, consistently")
    backup_.add_argument("path")
    restore_ = verbs.add_parser(
        "restore",
        help="replace the SQLite database with a backup (refused while a server runs on it; "
        "exit status 3)",
    )
    restore_.add_argument("path")
    verbs.add_parser("check", help="check the settings, the database and Redis")
    verbs.add_parser(
        "verify", help="check a game record's deal and moves (app/history/verify_cli.py)"
    )
    return parser


# -- serve ---------------------------------------------------------------------------


def serve(host: str, port: int, migrate: bool, workers: int | None = None) -> None:
    # the metrics' shared directory is this run's to make (several workers) or to go
    # without (one process, its own registry): one named from outside is not this run's,
    # and prometheus_client reads the variable when first imported, just below
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    import uvicorn

    from app.core.dblock import hold_shared, sqlite_path
    from app.core.migrate import upgrade
    from app.workers import refusal

    settings = get_settings()
    workers = settings.workers if workers is None else workers
    if workers < 1:
        raise Problem(f"--workers must be 1 or more (it is {workers}).")
    refused = refusal(settings, workers)
    if refused is not None:
        raise Problem(refused)
    configure_logs(settings)
    if settings.data_dir and not settings.database_url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    database = sqlite_path(settings.effective_database_url)
    # held until the process ends: a restore is refused meanwhile (app/core/dblock.py)
    held = hold_shared(database) if database is not None else None  # noqa: F841
    if migrate:
        upgrade(settings.effective_database_url)  # once, before any worker starts
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws_max_size": settings.max_ws_message_bytes,
        "ws_per_message_deflate": settings.ws_compression,
        "timeout_keep_alive": settings.keep_alive_seconds,
        # behind a proxy, only the X-Forwarded-For entries added by the proxies listed in
        # FORWARDED_ALLOW_IPS count: the client address is the last one they did not add
        "proxy_headers": settings.trust_proxy_headers,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        "log_config": None,
        "log_level": "info",
        # named, not left to "auto": uvloop's loop, httptools' parser and the sans-I/O
        # websockets protocol, which measured cheapest per move (docs/benchmarks.md);
        # a missing one stops the start instead of quietly serving on a slower one
        "loop": "uvloop",
        "http": "httptools",
        "ws": "websockets-sansio",
    }
    if workers > 1:
        # each worker builds its own app (app.workers.worker_app) with migrations off; they
        # count metrics and beat in a fresh directory of this run's (app/workers.py)
        from app.workers import serve as serve_workers

        serve_workers(workers, options)
        return
    from app.services import create_app

    uvicorn.run(create_app(settings.model_copy(update={"auto_migrate": False})), **options)


# -- check ------------------------------------------------------------------------------


def settings_problems(exc: ValidationError) -> list[str]:
    lines = []
    for error in exc.errors():
        name = ".".join(str(part) for part in error["loc"]).upper() or "settings"
        value = os.environ.get(name)
        got = f" (it is {value!r})" if value is not None else ""
        lines.append(f"{name}: {error['msg']}{got}")
    return lines


def check(out: object = sys.stdout) -> int:
    """Print one line per thing checked; 0 when all is well, 1 otherwise."""
    lines: list[tuple[bool | None, str]] = []
    try:
        settings = Settings()
    except ValidationError as exc:
        lines += [(False, f"setting {line}") for line in settings_problems(exc)]
        _print(lines, out)
        return 1
    lines.append((True, "settings: read"))
    lines += _check_settings(settings)
    lines += asyncio.run(_check_services(settings))
    _print(lines, out)
    return 0 if all(ok is not False for ok, _ in lines) else 1


WARN = None  # a line's state besides True (ok) and False (a problem): works, but mind it


def _print(lines: list[tuple[bool | None, str]], out: object) -> None:
    for ok, text in lines:
        state = "WARN" if ok is WARN else "ok  " if ok else "FAIL"
        print(f"{state} {text}", file=out)  # type: ignore[call-overload]
    failed = sum(ok is False for ok, _ in lines)
    warned = sum(ok is WARN for ok, _ in lines)
    summary = "everything looks right" if not failed else f"{failed} problem(s) found"
    if warned:
        summary += f", {warned} warning(s) to read"
    print(summary, file=out)  # type: ignore[call-overload]


def _check_settings(settings: Settings) -> list[tuple[bool | None, str]]:
    lines: list[tuple[bool | None, str]] = []
    if settings.public_url and not settings.public_url.startswith(("http://", "https://")):
        lines.append(
            (
                False,
                f"PUBLIC_URL must start with http:// or https:// (it is {settings.public_url!r})",
            )
        )
    url = settings.effective_database_url
    if not url.startswith(("sqlite", "postgresql")):
        lines.append(
            (
                False,
                f"DATABASE_URL must be a postgresql:// or sqlite:/// URL (it starts {url.split(':')[0]!r})",
            )
        )
    from app.workers import refusal

    refused = refusal(settings, settings.workers)
    if refused is not None:
        lines.append((False, f"WORKERS={settings.workers}: {refused}"))
    from app.core.cautions import cautions

    lines += [(False if c.fault else WARN, c.text) for c in cautions(settings)]
    return lines


async def _check_services(settings: Settings) -> list[tuple[bool, str]]:
    lines = [await _check_database(settings)]
    if settings.redis_url:
        lines.append(await _check_redis(settings.redis_url))
    else:
        lines.append((True, "redis: not set; one app process with an in-process doorbell"))
    return lines


async def _check_database(settings: Settings) -> tuple[bool, str]:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.core.migrate import alembic_config

    url = settings.effective_database_url
    shown = make_url(url).render_as_string(hide_password=True)
    if url.startswith("sqlite"):
        folder = settings.data_dir
        if not settings.database_url and not _writable(folder):
            return False, f"database: DATA_DIR {folder} can't be created or written to"
    try:
        engine = create_async_engine(url, connect_args={"timeout": 5})
    except Exception as exc:
        return False, f"database: {shown} is not a usable URL ({exc})"
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
            current = await conn.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision()
            )
    except Exception as exc:
        return False, f"database: can't reach {shown}: {type(exc).__name__}: {exc}"
    finally:
        await engine.dispose()
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    if current == head:
        return True, f"database: {shown} reached, schema up to date ({head})"
    where = f"at revision {current}" if current else "empty"
    if settings.auto_migrate:
        return True, f"database: {shown} reached, {where}; the app migrates it to {head} on start"
    return False, (
        f"database: {shown} is {where}, not {head}, and AUTO_MIGRATE is off: "
        "run `alembic upgrade head` first"
    )


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


async def _check_redis(url: str) -> tuple[bool, str]:
    import redis.asyncio as redis

    shown = re.sub(r"(//[^/@]*?:)[^/@]*@", r"\1***@", url)
    client = redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        await client.ping()
    except Exception as exc:
        return False, f"redis: can't reach {shown}: {type(exc).__name__}: {exc}"
    finally:
        await client.aclose()
    return True, f"redis: {shown} reached"
