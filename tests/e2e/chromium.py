"""Debian's Chromium for Playwright: where it is and the flags a headless box needs.

Playwright never downloads a browser in this project (no ``playwright install``);
``make browser`` installs Debian's package. Shared by the e2e tests and
``tools/screenshots.py``.
"""

from __future__ import annotations

import os
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(playwright: Any) -> Any:
    """Launch the system Chromium through a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
