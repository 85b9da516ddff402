"""``python -m app``: migrate the database, then serve with uvicorn."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from app.config import get_settings
from app.main import create_app
from app.migrate import upgrade


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description="Serve Spieltisch.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-migrate", action="store_true", help="skip Alembic on start")
    args = parser.parse_args()
    settings = get_settings()
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if settings.data_dir and not settings.database_url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    if not args.no_migrate:
        upgrade(settings.effective_database_url)
    app = create_app(settings.model_copy(update={"auto_migrate": False}))
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=settings.max_ws_message_bytes,
        # behind a proxy, only the X-Forwarded-For entries added by the proxies listed in
        # FORWARDED_ALLOW_IPS count: the client address is the last one they did not add
        proxy_headers=settings.trust_proxy_headers,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_level="info",
    )


if __name__ == "__main__":
    main()
