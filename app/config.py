"""One place for every setting, read from the environment (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Spieltisch's settings. Every field is an environment variable of the same name."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", case_sensitive=False)

    data_dir: Path = Field(Path("data"), description="Where the embedded SQLite file lives.")
    database_url: str | None = Field(
        None,
        description="SQLAlchemy async URL; unset means sqlite+aiosqlite:///DATA_DIR/spieltisch.db.",
    )
    redis_url: str | None = Field(
        None, description="Redis for the cross-process doorbell and presence; unset: in-process."
    )
    auto_migrate: bool = Field(True, description="Run Alembic migrations when the app starts.")
    public_url: str = Field("", description="Base URL used in share links; empty: the request's.")
    snapshot_every: int = Field(25, ge=1, description="Store a state snapshot every N game events.")
    bot_delay_ms: int = Field(400, ge=0, description="Pause before a bot moves, so people can see.")
    bot_workers: int = Field(1, ge=0, description="Processes for bots; 0 runs them in threads.")
    bot_grace_seconds: float = Field(
        30.0, gt=0, description="A bot turn untouched this long is taken over by any process."
    )
    catch_up_seconds: float = Field(
        5.0,
        gt=0,
        description="How often each process re-checks its sockets' rooms and bot turns.",
    )
    max_body_bytes: int = Field(16_384, ge=1024, description="Largest accepted HTTP request body.")
    max_ws_message_bytes: int = Field(8_192, ge=256, description="Largest websocket message.")
    chat_max_chars: int = Field(500, ge=1, description="Longest chat message.")
    name_max_chars: int = Field(
        40, ge=1, le=80, description="Longest display name (the column holds 80)."
    )
    catch_up_events: int = Field(
        300, ge=1, le=1000, description="Most events one state message carries (see /events)."
    )
    ws_budget_messages: int = Field(30, ge=1, description="Messages a socket may send per window.")
    ws_budget_seconds: float = Field(10.0, gt=0, description="The socket budget's window.")
    ws_budget_strikes: int = Field(5, ge=1, description="Over-budget messages before closing.")
    rooms_per_minute: int = Field(20, ge=1, description="Rooms one client address may create.")
    trust_proxy_headers: bool = Field(
        False, description="Take the client address from X-Forwarded-For (behind a proxy)."
    )
    alert_delay_minutes: float = Field(
        5.0, ge=0, description="Alert a player only if it is still their turn after this long."
    )
    alert_room_hourly_cap: int = Field(
        20, ge=1, description="Most alerts one room sends per hour on each channel."
    )
    alert_attempts: int = Field(5, ge=1, description="Tries per alert before it is given up.")
    alert_retry_seconds: float = Field(
        30.0, gt=0, description="Wait before the first retry; it doubles with each try."
    )
    alert_poll_seconds: float = Field(
        2.0, gt=0, description="How often the alert worker looks for alerts that are due."
    )
    alert_secret: str | None = Field(
        None,
        description="Key (Fernet, urlsafe base64) for resume tokens kept for mails; "
        "unset: made on first start and kept in the database.",
    )
    vapid_private_key: str | None = Field(
        None,
        description="Web Push VAPID private key (PEM or base64url); unset: made on first start.",
    )
    vapid_subject: str = Field(
        "mailto:admin@localhost",
        description="Contact the push services may use (mailto: or https:).",
    )
    smtp_host: str | None = Field(None, description="SMTP server for alert mails; unset: no mails.")
    smtp_port: int = Field(587, ge=1, le=65535, description="SMTP port.")
    smtp_user: str | None = Field(None, description="SMTP login name, if the server wants one.")
    smtp_password: str | None = Field(None, description="SMTP password.")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        "starttls", description="starttls (port 587), tls (implicit, port 465) or none."
    )
    smtp_sender: str = Field(
        "Spieltisch <spieltisch@localhost>", description="The From: of alert mails."
    )
    smtp_timeout_seconds: float = Field(15.0, gt=0, description="SMTP connect and send timeout.")
    webhook_timeout_seconds: float = Field(5.0, gt=0, description="Timeout of one webhook call.")
    webhook_allow_private: bool = Field(
        False,
        description="Allow webhook URLs and push endpoints on private, loopback and "
        "link-local addresses.",
    )

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
