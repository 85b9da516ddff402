"""Self-hosting: the compose file matches the app's settings, and the image's start-up
command (migrations, then the server) really starts the app. Docker itself can't run
here, so the same command runs as a process."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
import yaml

from app.config import Settings
from tests.server import ROOT, free_port

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_compose_has_app_database_and_redis_with_healthchecks() -> None:
    services = COMPOSE["services"]
    assert set(services) >= {"app", "db", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no healthcheck"
    assert "8000:8000" in services["app"]["ports"]
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert any(v.endswith(":/data") for v in services["app"]["volumes"])
    assert set(COMPOSE["volumes"]) >= {"appdata", "pgdata"}


def test_compose_environment_is_the_apps_settings() -> None:
    env = COMPOSE["services"]["app"]["environment"]
    fields = {name.upper() for name in Settings.model_fields}
    assert set(env) <= fields, f"unknown settings in compose: {set(env) - fields}"
    settings = Settings(**{k.lower(): v for k, v in env.items() if "${" not in str(v)})
    db = urlparse(settings.effective_database_url)
    assert db.scheme == "postgresql+asyncpg"
    assert db.hostname in COMPOSE["services"]
    pg = COMPOSE["services"][db.hostname]["environment"]
    assert (db.username, db.password, db.path.lstrip("/")) == (
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
        pg["POSTGRES_DB"],
    )
    assert settings.redis_url is not None
    assert urlparse(settings.redis_url).hostname in COMPOSE["services"]
    assert str(settings.data_dir) == "/data"


def test_dockerfile_exposes_8000_and_checks_health() -> None:
    assert re.search(r"^EXPOSE 8000$", DOCKERFILE, re.M)
    assert "/healthz" in DOCKERFILE
    assert "VOLUME" in DOCKERFILE


def _start_command(port: int) -> str:
    match = re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.M)
    assert match, "the Dockerfile has no exec-form CMD"
    argv = yaml.safe_load(match.group(1))
    assert argv[:2] == ["sh", "-c"]
    command: str = argv[2]
    assert "alembic upgrade head" in command
    return command.replace("--host 0.0.0.0", "--host 127.0.0.1").replace(
        "--port 8000", f"--port {port}"
    )


def test_the_images_start_command_migrates_and_serves(database_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DATA_DIR": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    log = (tmp_path / "start.log").open("wb")
    proc = subprocess.Popen(
        ["sh", "-c", _start_command(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "start.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail((tmp_path / "start.log").read_text())
        games = httpx.get(f"http://127.0.0.1:{port}/api/games").json()
        assert any(g["name"] == "blokus" for g in games)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)


def test_alembic_cli_works_on_its_own(tmp_path: Path) -> None:
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    alembic = Path(sys.executable).parent / "alembic"
    subprocess.run(
        shlex.split(f"{alembic} upgrade head"), cwd=ROOT, env=env, check=True, capture_output=True
    )
    assert (tmp_path / "spieltisch.db").exists()
