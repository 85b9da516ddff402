"""The server's one clock: tests move it forward instead of sleeping."""

from __future__ import annotations

from pathlib import Path

from app.core.clock import Clock


def test_advance_moves_the_clock_forward_by_that_many_seconds() -> None:
    clock = Clock()
    before = clock.now()
    clock.advance(3600)
    assert (clock.now() - before).total_seconds() >= 3600
    clock.reset()
    assert (clock.now() - before).total_seconds() < 3600


def test_an_offset_file_moves_a_server_process_clock(tmp_path: Path) -> None:
    offset = tmp_path / "offset"
    clock = Clock(str(offset))
    before = clock.now()
    offset.write_text("86400")
    assert (clock.now() - before).total_seconds() >= 86400
    offset.write_text("not a number")
    assert (clock.now() - before).total_seconds() < 86400
