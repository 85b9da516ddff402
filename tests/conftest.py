"""Shared test set-up: hypothesis profiles, per-test time budgets, the paths tests rely on."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.receivers import HttpReceiver, SmtpServer, http_receiver, smtp_server

settings.register_profile(
    "default",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    """A real SMTP server on a free local port that keeps every mail it is sent."""
    with smtp_server() as server:
        yield server


@pytest.fixture
def receiver() -> Iterator[HttpReceiver]:
    """A local HTTP server that records each push and webhook request."""
    with http_receiver() as r:
        yield r


# what each variable's tests need, and how to get it on a developer's machine
SERVICES = {
    "TEST_DATABASE_URL": "PostgreSQL",
    "TEST_REDIS_URL": "Redis",
}
START_BOTH = (
    "docker run -d --rm -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16 && "
    "docker run -d --rm -p 6379:6379 redis:7"
)
EXPORT_BOTH = (
    "export TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/postgres "
    "TEST_REDIS_URL=redis://127.0.0.1:6379/0"
)


def skipped_for_services(reports: list[pytest.TestReport]) -> dict[str, int]:
    """How many tests were skipped for want of each service variable."""
    counts = dict.fromkeys(SERVICES, 0)
    for report in reports:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        for variable in SERVICES:
            if variable in reason:
                counts[variable] += 1
    return {variable: n for variable, n in counts.items() if n}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = skipped_for_services(terminalreporter.stats.get("skipped", []))
    if not skipped:
        return
    terminalreporter.section("services not tested", yellow=True, bold=True)
    for variable, n in skipped.items():
        terminalreporter.write_line(
            f"{n} {SERVICES[variable]} test(s) skipped: {variable} is not set.", yellow=True
        )
    terminalreporter.write_line(
        "`make test` starts throwaway servers itself when PostgreSQL's and Redis's programs "
        "are installed (Debian: apt-get install postgresql redis-server). Or start both with"
    )
    terminalreporter.write_line(f"  {START_BOTH}")
    terminalreporter.write_line(f"  {EXPORT_BOTH}")


# Seconds a test may run before pytest-timeout stops the run (`timeout` in
# pyproject.toml is the budget of every other test; the long hypothesis profile
# gives every test the slow budget). Generous: they catch hangs
# on a slow, shared machine, they never time what should be fast.
BUDGETS = {"e2e": 900, "slow": 3600}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("timeout") is not None:
            continue
        budgets = [s for marker, s in BUDGETS.items() if item.get_closest_marker(marker)]
        if os.environ.get("HYPOTHESIS_PROFILE") == "long":
            budgets.append(BUDGETS["slow"])
        if budgets:
            item.add_marker(pytest.mark.timeout(max(budgets)))


_config: pytest.Config | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _config
    _config = config


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Say a failure's cause the moment it happens, not only in the summary at the end."""
    if not report.failed:
        return
    crash = getattr(report.longrepr, "reprcrash", None)
    reason = crash.message.splitlines()[0] if crash is not None and crash.message else ""
    if crash is not None and getattr(crash, "path", None):
        # where it was raised: a run killed before its summary still tells the line
        reason = f"{reason} (raised at {crash.path}:{crash.lineno})"
    reporter = _config.pluginmanager.get_plugin("terminalreporter") if _config else None
    if reporter is not None:
        reporter.write_line(f"\nFAILED {report.nodeid} ({report.when}): {reason}", red=True)
