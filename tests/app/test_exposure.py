"""What the operating endpoints tell strangers: /healthz names no host or port, /metrics
without a token answers only this machine, and settings that leave something off or
open are said at start-up and by ``python -m app check``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.config import Settings
from app.services import create_app
from app.web import health
from tests.server import ROOT, ServerProcess, free_port

# -- /healthz ------------------------------------------------------------------------


def test_healthz_names_no_host_or_port_of_a_redis_that_is_down(settings: Settings) -> None:
    port = free_port()
    nowhere = settings.model_copy(update={"redis_url": f"redis://:pw-9@127.0.0.1:{port}/0"})
    with TestClient(create_app(nowhere)) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["degraded"] == ["redis"]
    message = body["checks"]["redis"]["message"]
    assert message.endswith(": Redis does not answer"), message
    for detail in (str(port), "127.0.0.1", "pw-9", "localhost", "redis://"):
        assert detail not in response.text, detail


async def test_healthz_names_no_host_port_or_user_of_a_database_that_is_down() -> None:
    port = free_port()
    engine = create_async_engine(f"postgresql+asyncpg://spieltisch:pw-9@127.0.0.1:{port}/games")
    try:
        found = await health.database(engine)
    finally:
        await engine.dispose()
    assert found["status"] == "down"
    assert found["message"].endswith(": the database does not answer"), found
    for detail in (str(port), "127.0.0.1", "spieltisch", "pw-9", "games"):
        assert detail not in found["message"], detail


# -- /metrics without a token ----------------------------------------------------------


@pytest.fixture
def open_metrics(settings: Settings) -> Settings:
    return settings.model_copy(update={"metrics_enabled": True})


def _scrape(settings: Settings, client: tuple[str, int], **headers: str) -> httpx.Response:
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8000", client=client) as http:
        return http.get("/metrics", headers=headers)


def test_metrics_without_a_token_answer_a_scrape_from_this_machine(open_metrics: Settings) -> None:
    assert _scrape(open_metrics, ("127.0.0.1", 40000)).status_code == 200
    assert _scrape(open_metrics, ("::1", 40000), Host="localhost:8000").status_code == 200


@pytest.mark.parametrize(
    ("client", "headers"),
    [
        (("203.0.113.7", 40000), {}),
        (("10.0.0.8", 40000), {}),
        # through a proxy on this machine: the peer is local, the client is not
        (("127.0.0.1", 40000), {"X-Forwarded-For": "203.0.113.7"}),
        (("127.0.0.1", 40000), {"X-Forwarded-For": "127.0.0.1"}),  # not trusted: anyone's
        (("127.0.0.1", 40000), {"X-Real-IP": "203.0.113.7"}),
        (("127.0.0.1", 40000), {"Forwarded": "for=203.0.113.7"}),
        (("127.0.0.1", 40000), {"Host": "games.example.org"}),
    ],
)
def test_metrics_without_a_token_refuse_everyone_else(
    open_metrics: Settings, client: tuple[str, int], headers: dict[str, str]
) -> None:
    response = _scrape(open_metrics, client, **headers)
    assert response.status_code == 403
    assert response.json()["code"] == "metrics_local_only"
    assert "METRICS_TOKEN" in response.json()["message"]


@pytest.fixture
def proxied_metrics(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    allowed = getattr(request, "param", "127.0.0.1")
    server = ServerProcess(
        tmp_path / "data",
        env={
            "METRICS_ENABLED": "true",
            "TRUST_PROXY_HEADERS": "true",
            "FORWARDED_ALLOW_IPS": allowed,
            "BOT_WORKERS": "0",
        },
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_behind_a_trusted_proxy_the_forwarded_address_decides(
    proxied_metrics: ServerProcess,
) -> None:
    url = f"{proxied_metrics.url}/metrics"
    # the proxy forwards a stranger (and maybe what the stranger wrote, before it)
    for forwarded in ("203.0.113.7", "127.0.0.1, 203.0.113.7"):
        refused = httpx.get(url, headers={"X-Forwarded-For": forwarded, "Host": "games.example"})
        assert refused.status_code == 403, forwarded
    # a scraper on this machine, straight or through the proxy
    assert httpx.get(url).status_code == 200
    assert httpx.get(url, headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200


@pytest.mark.parametrize("proxied_metrics", ["*"], indirect=True)
def test_trusting_every_proxy_never_lets_a_client_claim_to_be_local(
    proxied_metrics: ServerProcess,
) -> None:
    url = f"{proxied_metrics.url}/metrics"
    claimed = httpx.get(url, headers={"X-Forwarded-For": "127.0.0.1"})
    assert claimed.status_code == 403
    assert httpx.get(url).status_code == 200


def test_metrics_with_a_token_answer_anyone_who_has_it(open_metrics: Settings) -> None:
    with_token = open_metrics.model_copy(update={"metrics_token": "t0ken"})
    stranger = ("203.0.113.7", 40000)
    assert _scrape(with_token, stranger).status_code == 401
    ok = _scrape(with_token, stranger, Authorization="Bearer t0ken")
    assert ok.status_code == 200


# -- said at start-up and by `python -m app check` ----------------------------------------


def test_start_up_warns_of_mail_without_public_url_and_of_open_metrics(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    risky = settings.model_copy(
        update={"smtp_host": "127.0.0.1", "public_url": "", "metrics_enabled": True}
    )
    with (
        caplog.at_level(logging.WARNING, logger="spieltisch.settings"),
        TestClient(create_app(risky)),
    ):
        pass
    said = [r.getMessage() for r in caplog.records if r.name == "spieltisch.settings"]
    assert any(s.startswith("NOT WORKING: mail: SMTP_HOST is set but PUBLIC_URL") for s in said)
    assert any(
        s.startswith("CAUTION: metrics: METRICS_ENABLED without METRICS_TOKEN") for s in said
    )
    caplog.clear()
    with (
        caplog.at_level(logging.WARNING, logger="spieltisch.settings"),
        TestClient(create_app(settings)),
    ):
        pass
    assert not [r for r in caplog.records if r.name == "spieltisch.settings"]


def _check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SMTP_HOST", "PUBLIC_URL", "METRICS_ENABLED"}
    }
    return subprocess.run(
        [sys.executable, "-m", "app", "check"],
        cwd=ROOT,
        env={**clean, "DATA_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_fails_on_mail_without_public_url(tmp_path: Path) -> None:
    result = _check(tmp_path, SMTP_HOST="127.0.0.1")
    assert result.returncode == 1, result.stdout
    assert "FAIL mail: SMTP_HOST is set but PUBLIC_URL is not" in result.stdout
    fixed = _check(tmp_path, SMTP_HOST="127.0.0.1", PUBLIC_URL="https://games.example.org")
    assert fixed.returncode == 0, fixed.stdout
    assert "mail:" not in fixed.stdout


def test_check_warns_of_metrics_without_a_token(tmp_path: Path) -> None:
    result = _check(tmp_path, METRICS_ENABLED="true")
    assert result.returncode == 0, result.stdout
    assert "WARN metrics: METRICS_ENABLED without METRICS_TOKEN" in result.stdout
    assert "everything looks right, 1 warning(s) to read" in result.stdout
