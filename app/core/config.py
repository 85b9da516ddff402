"""One place for every setting, read from the environment (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Spieltisch's settings. Every field is an environment variable of the same name."""

    model_config = SettingsConfigDict(
        env_prefix="", extra="ignore", case_sensitive=False, populate_by_name=True
    )

    data_dir: Path = Field(Path("data"), description="Where the embedded SQLite file lives.")
    database_url: str | None = Field(
        None,
        description=(
            "SQLAlchemy URL (postgresql://… or postgresql+asyncpg://…); unset means the SQLite "
            "file DATA_DIR/spieltisch.db (WAL mode)."
        ),
    )
    redis_url: str | None = Field(
        None,
        description=(
            "Redis for the cross-process doorbell and presence; unset: in-process (one app process)."
        ),
    )
    auto_migrate: bool = Field(True, description="Run Alembic migrations when the app starts.")
    workers: int = Field(
        1,
        ge=1,
        description=(
            "App processes `python -m app` serves on its one port (`--workers` overrides it); "
            "more than 1 needs PostgreSQL and Redis. One per CPU core is a good start."
        ),
    )
    public_url: str = Field(
        "",
        description=(
            "The address people reach the site at (https://games.example.org): every share and "
            "resume link uses it; empty: the address the browser used. Alert mails need it: "
            "their links are built from it alone, never from a request."
        ),
    )
    snapshot_every: int = Field(25, ge=1, description="Store a state snapshot every N game events.")
    bot_delay_ms: int = Field(
        400, ge=0, description=("Pause before a bot moves, so people can follow.")
    )
    bot_workers: int = Field(
        1, ge=0, description=("Worker processes for bots; `0` runs them in threads.")
    )
    bot_think_seconds: float = Field(
        1.0,
        gt=0,
        description=(
            "The longest a bot thinks about one move; a searching (hard) bot stops there "
            "and plays the best it found."
        ),
    )
    bot_grace_seconds: float = Field(
        30.0, gt=0, description="A bot turn untouched this long is taken over by any process."
    )
    catch_up_seconds: float = Field(
        5.0,
        gt=0,
        description="How often each process re-checks its sockets' rooms and bot turns.",
    )
    max_body_bytes: int = Field(
        16_384, ge=1024, description=("Largest accepted HTTP request body (413 above).")
    )
    max_record_bytes: int = Field(
        1_048_576,
        ge=1024,
        description="Largest game record (JSON, or a file of a game's own format) to import.",
    )
    max_ws_message_bytes: int = Field(
        8_192, ge=256, description=("Largest websocket message (closed with 1009 above).")
    )
    sqlite_synchronous: Literal["normal", "full"] = Field(
        "normal",
        description=(
            "How SQLite syncs its write-ahead log to disk. normal: every acknowledged "
            "move survives the server process crashing or being killed, the last few "
            "may be lost if the machine loses power; full: a sync at every commit, "
            "which survives a power cut too and costs more a move (docs/self-hosting.md)."
        ),
    )
    ws_compression: bool = Field(
        False,
        description=(
            "Compress websocket messages (permessage-deflate): a tenth of the bytes for "
            "Blokus' legal moves, for more CPU and memory per socket (docs/benchmarks.md)."
        ),
    )
    keep_alive_seconds: float = Field(
        75.0,
        gt=0,
        description=(
            "How long an idle HTTP connection stays open for the next request. Longer than "
            "the idle time of the clients and proxies that reuse connections (5 s for most "
            "HTTP libraries, Caddy's 2 min are cut short by the Caddyfile), so the server "
            "never closes one just as a request arrives on it."
        ),
    )
    chat_max_chars: int = Field(500, ge=1, description="Longest chat message.")
    name_max_chars: int = Field(
        40, ge=1, le=80, description=("Longest display name (at most 80, the stored column).")
    )
    catch_up_events: int = Field(
        300,
        ge=1,
        le=1000,
        description=(
            "Most events one websocket state message carries (at most 1000); a client "
            "further behind is told to fetch the rest from `/events`."
        ),
    )
    seat_budget_messages: int = Field(
        30,
        ge=1,
        validation_alias=AliasChoices("seat_budget_messages", "ws_budget_messages"),
        description="Messages one seat may send per window: websocket messages, REST moves and chat.",
    )
    seat_budget_seconds: float = Field(
        10.0,
        gt=0,
        validation_alias=AliasChoices("seat_budget_seconds", "ws_budget_seconds"),
        description="The seat budget's window.",
    )
    ws_budget_strikes: int = Field(
        5, ge=1, description=("Over-budget messages before the socket is closed (1008).")
    )
    rooms_per_minute: int = Field(
        20, ge=1, description=("Rooms one client address may create per minute (429 above).")
    )
    deadline_poll_seconds: float = Field(
        30.0,
        gt=0,
        description=(
            "Longest wait before a process looks for deadlines another process set (its own wake "
            "it at once)."
        ),
    )
    trust_proxy_headers: bool = Field(
        False,
        description=(
            "Take the client address from `X-Forwarded-For` (only behind your own proxy). Only "
            "entries added by the proxies in `FORWARDED_ALLOW_IPS` count: the address is the last "
            "one they did not add, never what a client wrote in the header itself."
        ),
    )
    metrics_enabled: bool = Field(False, description="Serve Prometheus metrics at /metrics.")
    metrics_token: str = Field(
        "",
        description=(
            "If set, /metrics wants 'Authorization: Bearer <this token>'; unset: /metrics "
            "answers clients on this machine's loopback only."
        ),
    )
    log_format: Literal["text", "json"] = Field(
        "text", description="Log lines as plain text, or as one JSON object per line."
    )
    log_client_addresses: bool = Field(
        False, description="Write client addresses into the logs (off: they are left out)."
    )
    retention_days: int = Field(
        0, ge=0, description="Delete rooms with no activity for this many days; 0 keeps all."
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description=(
            "The proxies (comma-separated addresses or networks, `*` for any) whose "
            "`X-Forwarded-For` and `X-Forwarded-Proto` are believed when `TRUST_PROXY_HEADERS` is on."
        ),
    )
    alert_delay_minutes: float = Field(
        5.0,
        ge=0,
        description=(
            "Turn alerts go out only if it is still the player's turn after this long; while they have the room open an alert waits, and goes this long after their last tab closed."
        ),
    )
    alert_room_hourly_cap: int = Field(
        20,
        ge=1,
        description=(
            "Most alerts one room sends per hour on each channel (push, mail, webhook); more wait for a free slot."
        ),
    )
    alert_address_hourly_cap: int = Field(
        10,
        ge=1,
        description=(
            "Most mails one e-mail address gets per hour, over every room (confirmation mails "
            "too); more wait for a free slot."
        ),
    )
    alert_confirm_daily_cap: int = Field(
        3,
        ge=1,
        description=(
            "Most confirmation mails one e-mail address gets per day, over every room; more "
            "wait for a free slot. An address gets turn mails only once its owner confirmed it."
        ),
    )
    alert_attempts: int = Field(
        5, ge=1, description=("Tries per alert before it is given up (and logged).")
    )
    alert_retry_seconds: float = Field(
        30.0,
        gt=0,
        description=("Wait before the first retry of a failed alert; it doubles with each try."),
    )
    alert_poll_seconds: float = Field(
        2.0,
        gt=0,
        description=("How often each process's alert worker looks for alerts that are due."),
    )
    alert_concurrency: int = Field(
        8,
        ge=1,
        le=1000,
        description=(
            "Most alerts one process sends at the same time; a slow receiver holds one of these for at most its deadline and delays no other room's alerts."
        ),
    )
    alert_secret: str | None = Field(
        None,
        description=(
            'Fernet key (`python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`) for the resume tokens kept beside mail addresses; unset: made on first start and kept in the database. Set it so that a copy of the database alone yields no token.'
        ),
    )
    vapid_private_key: str | None = Field(
        None,
        description=(
            "Web Push VAPID private key (PEM, or base64url of the raw key); unset: made on first start and kept in the database."
        ),
    )
    vapid_subject: str = Field(
        "mailto:admin@localhost",
        description="Contact the push services may use (mailto: or https:).",
    )
    smtp_host: str | None = Field(
        None,
        description=(
            "SMTP server for alert mails; unset: no mails (the e-mail option is hidden). Mail "
            "also needs `PUBLIC_URL`."
        ),
    )
    smtp_port: int = Field(587, ge=1, le=65535, description="SMTP port.")
    smtp_user: str | None = Field(None, description="SMTP login name, if the server wants one.")
    smtp_password: str | None = Field(None, description="SMTP password.")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        "starttls", description=("`starttls` (port 587), `tls` (implicit TLS, port 465) or `none`.")
    )
    smtp_sender: str = Field(
        "Spieltisch <spieltisch@localhost>", description="The From: of alert mails."
    )
    smtp_timeout_seconds: float = Field(15.0, gt=0, description="SMTP connect and send timeout.")
    webhook_timeout_seconds: float = Field(
        5.0,
        gt=0,
        description=(
            "Deadline of one webhook or push-service call as a whole: looking up, connecting, sending and reading the answer (of which only the first 4 KB are kept)."
        ),
    )
    webhook_allow_private: bool = Field(
        False,
        description=(
            "Allow webhook URLs and push endpoints that resolve to private, loopback or link-local addresses (only for a server on your own network)."
        ),
    )

    @property
    def link_base(self) -> str:
        """The start of every link the server writes into a mail or a webhook call:
        ``PUBLIC_URL``, or empty when it is unset or no http(s) address (then no link is
        written: none ever comes from a request's headers)."""
        base = self.public_url.strip().rstrip("/")
        return base if base.startswith(("http://", "https://")) else ""

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return async_url(self.database_url)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'spieltisch.db').as_posix()}"


def async_url(url: str) -> str:
    """Accept the usual ``postgresql://`` spelling and pick the async driver for it."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


@lru_cache
def get_settings() -> Settings:
    return Settings()
