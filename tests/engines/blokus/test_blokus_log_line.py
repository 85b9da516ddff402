"""Blokus's log line when nothing was placed: only the seat (pinned after the
mutation run of `make mutate` found the guard unchecked)."""

from __future__ import annotations

from engines.blokus import ENGINE, view


def test_a_log_line_without_a_new_piece_names_only_the_seat() -> None:
    state = ENGINE.new_game(4, 3)
    assert view.log_line(state, 0, state) == {"seat": 0}
    move = ENGINE.legal_moves(state, 0)[0]
    after = ENGINE.play(state, 0, move)
    assert view.log_line(after, 1, after) == {"seat": 1}
    line = view.log_line(state, 0, after)
    assert line["seat"] == 0 and line["piece"] == move["piece"] and line["blocked"] == []
