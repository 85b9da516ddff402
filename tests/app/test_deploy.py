"""Self-hosting: the compose stack is valid by the Compose specification's schema, keeps
its secrets in .env, goes in through Caddy and matches the app's settings; the image's
start-up command (migrations, then the server) really starts the app. Docker itself
can't run here, so the same command runs as a process.

The schema in tests/schemas/compose_spec.json is the Compose Specification's JSON
schema as the docker-compose 1.29.2 package on PyPI ships it (compose/config/), kept
byte for byte so no test downloads anything."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import jsonschema
import pytest
import yaml

from app.core.config import Settings
from tests.server import ROOT, free_port

COMPOSE_TEXT = (ROOT / "docker-compose.yml").read_text()
COMPOSE = yaml.safe_load(COMPOSE_TEXT)
DOCKERFILE = (ROOT / "Dockerfile").read_text()
CADDYFILE = (ROOT / "Caddyfile").read_text()
ENV_EXAMPLE = (ROOT / ".env.example").read_text()
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "compose_spec.json").read_text())
# what a self-hoster's .env holds; the values are only for these tests
DOT_ENV = {"DOMAIN": "games.example.org", "POSTGRES_PASSWORD": "0123456789abcdef"}
# uvicorn reads this one itself: the addresses whose X-Forwarded-* headers it believes
SERVER_VARIABLES = {"FORWARDED_ALLOW_IPS"}

INTERPOLATION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?([-?])([^}]*))?\}")


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}, as `docker compose` reads them."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        name, kind, arg = match.groups()
        if env.get(name):
            return env[name]
        if kind == "?":
            raise LookupError(arg)
        return arg if kind == "-" else ""

    return INTERPOLATION.sub(one, value)


def _compose(env: dict[str, str] = DOT_ENV) -> dict[str, Any]:
    compose = dict(interpolate(COMPOSE, env))
    # after interpolation, Compose reads a number where its schema wants one
    for service in compose["services"].values():
        deploy = service.get("deploy", {})
        if isinstance(deploy.get("replicas"), str):
            deploy["replicas"] = int(deploy["replicas"])
    return compose


def _env_example() -> dict[str, str]:
    """The .env.example's live lines and commented-out settings, as a .env would hold them."""
    found = {}
    for line in ENV_EXAMPLE.splitlines():
        match = re.match(r"^#? ?([A-Z][A-Z0-9_]*)=(.*)$", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_the_compose_file_is_valid_by_the_compose_specification_schema() -> None:
    validator = jsonschema.Draft201909Validator(SCHEMA)
    validator.validate(_compose())
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**_compose(), "servics": {}})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"services": {"app": {"ports": [{"target": "8000"}]}}})


def test_compose_has_caddy_app_database_and_redis_with_healthchecks() -> None:
    services = COMPOSE["services"]
    assert set(services) >= {"caddy", "app", "db", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no healthcheck"
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["caddy"]["depends_on"]["app"]["condition"] == "service_healthy"
    assert any(v.endswith(":/data") for v in services["app"]["volumes"])
    assert set(COMPOSE["volumes"]) >= {"appdata", "pgdata", "caddydata"}


def test_no_password_is_written_into_the_compose_file() -> None:
    assert DOT_ENV["POSTGRES_PASSWORD"] not in COMPOSE_TEXT
    db_env = COMPOSE["services"]["db"]["environment"]
    assert db_env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    app_db = COMPOSE["services"]["app"]["environment"]["DATABASE_URL"]
    assert app_db.startswith("postgresql+asyncpg://spieltisch:${POSTGRES_PASSWORD:?")
    with pytest.raises(LookupError, match="POSTGRES_PASSWORD"):
        _compose({"DOMAIN": "games.example.org"})
    assert COMPOSE["services"]["app"]["env_file"] == ".env"
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert ".env" in ignored
    assert ".env" in (ROOT / ".dockerignore").read_text().splitlines()


def test_only_caddy_is_reachable_from_outside_and_the_app_only_on_the_hosts_loopback() -> None:
    services = _compose()["services"]
    assert sorted(services["caddy"]["ports"]) == ["443:443", "443:443/udp", "80:80"]
    for port in services["app"]["ports"]:
        assert port.startswith("127.0.0.1:"), port
    assert "ports" not in services["db"] and "ports" not in services["redis"]
    # Caddy reaches the app on its own network, not PostgreSQL or Redis
    assert set(services["caddy"]["networks"]) == {"edge"}
    assert "edge" in services["app"]["networks"]


def test_the_app_trusts_forwarded_headers_from_caddys_address_alone() -> None:
    services = _compose()["services"]
    env = services["app"]["environment"]
    assert env["TRUST_PROXY_HEADERS"] == "true"
    caddy_address = services["caddy"]["networks"]["edge"]["ipv4_address"]
    assert env["FORWARDED_ALLOW_IPS"] == caddy_address
    assert "trusted_proxies" not in CADDYFILE  # so Caddy overwrites what a client claims


def test_caddy_serves_the_domain_from_the_environment_and_proxies_to_the_app() -> None:
    sites = re.findall(r"^(\S+) \{$", CADDYFILE, re.M)
    assert sites == ["{$DOMAIN}"]
    assert COMPOSE["services"]["caddy"]["environment"]["DOMAIN"].startswith("${DOMAIN")
    # every replica of the app service, by the name Docker's DNS answers for all of them
    upstream = re.search(
        r"dynamic a \{\$APP_UPSTREAM_HOST:(\S+)\} \{\$APP_UPSTREAM_PORT:(\d+)\}", CADDYFILE
    )
    assert upstream is not None
    host, port = upstream.groups()
    assert host in COMPOSE["services"] and port == "8000"
    assert re.search(r"^\s+lb_policy least_conn$", CADDYFILE, re.M)
    assert any(
        v.startswith("./Caddyfile:/etc/caddy/Caddyfile")
        for v in COMPOSE["services"]["caddy"]["volumes"]
    )
    assert _compose()["services"]["app"]["environment"]["PUBLIC_URL"] == "https://games.example.org"


def test_the_app_service_runs_as_many_replicas_and_workers_as_env_says() -> None:
    from app.workers import refusal

    app = _compose()["services"]["app"]
    assert app["deploy"]["replicas"] == 1
    assert Settings(workers=app["environment"]["WORKERS"]).workers == 1
    # a replica has no fixed name or address (a list of networks: no ipv4_address)
    assert "container_name" not in app
    assert isinstance(app["networks"], list)

    scaled = _compose({**DOT_ENV, "APP_REPLICAS": "3", "WORKERS": "4", "APP_PORT": "8000-8002"})
    app = scaled["services"]["app"]
    jsonschema.Draft201909Validator(SCHEMA).validate(scaled)
    assert app["deploy"]["replicas"] == 3
    # one loopback port per replica from the range
    assert app["ports"] == ["127.0.0.1:8000-8002:8000"]
    env = app["environment"]
    settings = Settings(
        **{k.lower(): v for k, v in env.items() if k.lower() in Settings.model_fields}
    )
    assert settings.workers == 4
    assert refusal(settings, settings.workers) is None  # PostgreSQL and Redis: allowed


def test_compose_environment_is_the_apps_settings() -> None:
    env = _compose()["services"]["app"]["environment"]
    fields = {name.upper() for name in Settings.model_fields}
    assert set(env) - SERVER_VARIABLES <= fields, f"unknown settings: {set(env) - fields}"
    settings = Settings(
        **{k.lower(): v for k, v in env.items() if k.lower() in Settings.model_fields}
    )
    db = urlparse(settings.effective_database_url)
    assert db.scheme == "postgresql+asyncpg"
    assert db.hostname in COMPOSE["services"]
    pg = _compose()["services"][db.hostname]["environment"]
    assert (db.username, db.password, db.path.lstrip("/")) == (
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
        pg["POSTGRES_DB"],
    )
    assert settings.redis_url is not None
    assert urlparse(settings.redis_url).hostname in COMPOSE["services"]
    assert str(settings.data_dir) == "/data"


def test_env_example_documents_every_setting_and_what_compose_needs() -> None:
    example = _env_example()
    for name in Settings.model_fields:
        assert name.upper() in example, f"{name.upper()} is not in .env.example"
    needed = set(INTERPOLATION.findall(COMPOSE_TEXT)) and {
        m[0] for m in INTERPOLATION.findall(COMPOSE_TEXT)
    }
    assert needed <= set(example), needed - set(example)
    # the commented-out defaults are the real defaults
    defaults = Settings()
    for name in ("SNAPSHOT_EVERY", "BOT_WORKERS", "RETENTION_DAYS", "LOG_FORMAT"):
        assert example[name] == str(getattr(defaults, name.lower())), name


def test_settings_docs_are_generated_from_the_settings() -> None:
    check = subprocess.run(
        [sys.executable, "tools/settings_doc.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr


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
