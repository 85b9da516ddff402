"""Shared test set-up: hypothesis profiles, per-test time budgets, the paths tests rely on."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

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
    reporter = _config.pluginmanager.get_plugin("terminalreporter") if _config else None
    if reporter is not None:
        reporter.write_line(f"\nFAILED {report.nodeid} ({report.when}): {reason}", red=True)
