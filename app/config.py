"""One place for every setting, read from the environment (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

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
