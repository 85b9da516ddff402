"""docs/self-hosting.md and the README tell a self-hoster what the code does."""

from __future__ import annotations

import re

from app.web.metrics import Metrics
from tests.server import ROOT

GUIDE = (ROOT / "docs" / "self-hosting.md").read_text()
README = (ROOT / "README.md").read_text()


def test_the_guide_covers_domain_proxies_upgrades_backups_operating_and_scaling() -> None:
    headings = re.findall(r"^## (.+)$", GUIDE, re.M)
    assert headings == [
        "The compose stack",
        "Your own domain, with HTTPS",
        "Behind an nginx or Caddy you already run",
        "Upgrading",
        "Backups and restore",
        "Operating it",
        "Scaling out",
    ]
    for needed in [
        "cp .env.example .env",
        "docker compose up -d",
        "proxy_set_header Upgrade $http_upgrade",
        "proxy_set_header Connection $connection_upgrade",
        "proxy_set_header X-Forwarded-For $remote_addr",
        "TRUST_PROXY_HEADERS",
        "FORWARDED_ALLOW_IPS",
        "alembic upgrade head",
        "pg_dump",
        "pg_restore",
        "python -m app backup",
        "python -m app restore",
        "python -m app check",
        "METRICS_TOKEN",
        "LOG_FORMAT=json",
        "RETENTION_DAYS",
        "(scaling.md)",
    ]:
        assert needed in GUIDE, needed


def test_every_metric_is_described_in_the_guide() -> None:
    for family in Metrics().registry.collect():
        name = family.name + ("_total" if family.type == "counter" else "")
        assert f"`{name}" in GUIDE, name


def test_the_readme_says_how_to_move_the_port_and_start_the_test_services() -> None:
    assert "make run HOST=0.0.0.0 PORT=8080" in README
    assert "docker run -d --rm -p 5432:5432" in README and "redis:7" in README
    assert "export TEST_DATABASE_URL=" in README
    assert "(docs/self-hosting.md)" in README
