"""The one clock the server reads wall time from: deadlines, alert delays, caps.

Tests move it instead of sleeping. In one process they call ``clock.advance``; a
server process started by a test reads an extra offset in seconds from the file named
by the ``CLOCK_OFFSET_FILE`` environment variable (unset in production), so a test
can move a running server's time forward by writing that file.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path


class Clock:
    """Wall time in UTC, shifted by an offset that only tests ever set."""

    def __init__(self, offset_file: str | None = None) -> None:
        self._offset = timedelta()
        self._file = Path(offset_file) if offset_file else None

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset + self._file_offset()

    def advance(self, seconds: float) -> None:
        self._offset += timedelta(seconds=seconds)

    def reset(self) -> None:
        self._offset = timedelta()

    def _file_offset(self) -> timedelta:
        if self._file is None:
            return timedelta()
        try:
            return timedelta(seconds=float(self._file.read_text().strip() or 0))
        except (OSError, ValueError):
            return timedelta()


clock = Clock(os.environ.get("CLOCK_OFFSET_FILE"))
