"""A push delivered to the page's service worker through DevTools, and the
notifications it showed (no real push service is reachable from the tests)."""

from __future__ import annotations

import json
import time
from typing import Any


def notifications(page: Any) -> list[dict[str, Any]]:
    """The notifications the site's service worker shows now: title, body and link."""
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const reg = await navigator.serviceWorker.getRegistration("/r/");
          if (!reg) return [];
          const shown = await reg.getNotifications();
          return shown.map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url }));
        }"""
    )
    return found


def worker_active(page: Any) -> bool:
    """Whether the site's service worker is installed and running."""
    active: bool = page.evaluate(
        """async () => {
          const reg = await navigator.serviceWorker.getRegistration("/r/");
          return Boolean(reg && reg.active && reg.active.state === "activated");
        }"""
    )
    return active


def deliver(page: Any, cdp: Any, origin: str, registration: str, payload: Any) -> list[Any]:
    """Hand ``payload`` to the worker of ``registration`` as a push message, and return
    the notifications shown once one is. DevTools starts a sleeping worker for it; on a
    loaded machine a hand-over can be lost while the worker starts, so an unanswered one
    is made again (the notification's tag makes a repeat replace, not add, one)."""
    shown: list[dict[str, Any]] = []
    for _ in range(3):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": registration, "data": json.dumps(payload)},
        )
        end = time.monotonic() + 10
        while not shown and time.monotonic() < end:
            shown = notifications(page)
            page.wait_for_timeout(100)
        if shown:
            break
    return shown
