"""Blokus's refusals, word for word: each is a sentence, and it names the right cell,
field or start points (pinned after the mutation run of 2026-11-30 found the
wording and the named cell unchecked; see docs/testing.md)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.blokus import ENGINE
from engines.blokus.rules import State


def _refusal(state: State, seat: int, move: Any) -> IllegalMove:
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.play(state, seat, move)
    return excinfo.value


def _opened() -> State:
    """Every colour of a four-player game has placed its I1 on its corner."""
    state = ENGINE.new_game(4, 1)
    for seat, cell in enumerate(([0, 0], [0, 19], [19, 19], [19, 0])):
        state = ENGINE.play(state, seat, {"piece": "I1", "cells": [cell]})
    return state


CASES: list[tuple[str, int, Any]] = [
    ("new", 0, "F"),
    ("new", 0, {"piece": "I1", "cells": [[0, 0]], "colour": "red"}),
    ("new", 0, {"piece": "Q", "cells": [[0, 0]]}),
    ("new", 0, {"piece": "I1"}),
    ("new", 0, {"piece": "I1", "cells": [[0]]}),
    ("new", 0, {"piece": "I1", "cells": [[0, 20]]}),
    ("new", 0, {"piece": "I2", "cells": [[0, 0], [0, 0]]}),
    ("new", 0, {"piece": "I2", "cells": [[0, 0], [1, 1]]}),
    ("new", 0, {"piece": "I1", "cells": [[5, 5]]}),
    ("new", 1, {"piece": "I1", "cells": [[0, 0]]}),
    ("over", 0, {"piece": "I1", "cells": [[0, 0]]}),
    ("opened", 0, {"piece": "I1", "cells": [[1, 1]]}),
    ("opened", 0, {"piece": "I2", "cells": [[0, 19], [1, 19]]}),
    ("opened", 0, {"piece": "I2", "cells": [[0, 1], [0, 2]]}),
    ("opened", 0, {"piece": "I2", "cells": [[5, 5], [5, 6]]}),
]


def _position(name: str) -> State:
    new = ENGINE.new_game(4, 1)
    return {"new": new, "over": dataclasses.replace(new, turn=None), "opened": _opened()}[name]


@pytest.mark.parametrize(("position", "seat", "move"), CASES)
def test_every_refusal_is_a_sentence_a_person_reads(position: str, seat: int, move: Any) -> None:
    message = _refusal(_position(position), seat, move).message
    assert isinstance(message, str) and message, "a refusal without a sentence"
    assert message[0].isupper(), f"does not start as a sentence: {message!r}"
    assert message.endswith("."), f"does not end as a sentence: {message!r}"
    assert not re.search(r"[A-Z]{3,}", message), f"shouts: {message!r}"


def test_refusals_word_for_word() -> None:
    new = ENGINE.new_game(4, 1)
    assert (
        _refusal(dataclasses.replace(new, turn=None), 0, {"piece": "I1", "cells": [[0, 0]]}).message
        == "The game is over: no colour can place any more."
    )
    assert (
        _refusal(new, 0, "F").message
        == 'A move is an object like {"piece": "F", "cells": [[0, 0], ...]}.'
    )
    assert (
        _refusal(new, 0, {"piece": "I1"}).message
        == 'A move needs "cells": a list of [row, column] pairs.'
    )
    assert _refusal(new, 0, {"piece": "Q", "cells": [[0, 0]]}).message == (
        "Unknown piece 'Q'; the pieces are I1, I2, I3, V3, I4, L4, T4, O4, Z4, F, I5, L5, N, "
        "P, T5, U, V5, W, X, Y, Z5."
    )
    edge = _refusal(_opened(), 0, {"piece": "I2", "cells": [[0, 1], [0, 2]]})
    assert edge.message == (
        "I2 would touch blue along an edge at [0, 1]; "
        "pieces of one colour may meet only at corners."
    )


def test_an_unknown_field_is_named() -> None:
    refused = _refusal(ENGINE.new_game(4, 1), 0, {"piece": "I1", "cells": [[0, 0]], "colour": 1})
    assert refused.code == "unknown_field"
    assert refused.message == 'A move has only "piece" and "cells", not \'colour\'.'


def test_an_overlap_names_the_first_covered_cell_in_reading_order() -> None:
    # yellow holds [0, 18] and [0, 19]; blue's own [0, 0] comes first on the board
    # but is not under the piece, so it must not be the cell named
    state = ENGINE.play(ENGINE.new_game(4, 1), 0, {"piece": "I1", "cells": [[0, 0]]})
    state = ENGINE.play(state, 1, {"piece": "I2", "cells": [[0, 18], [0, 19]]})
    state = ENGINE.play(state, 2, {"piece": "I1", "cells": [[19, 19]]})
    state = ENGINE.play(state, 3, {"piece": "I1", "cells": [[19, 0]]})
    refused = _refusal(state, 0, {"piece": "I3", "cells": [[0, 17], [0, 18], [0, 19]]})
    assert refused.code == "overlap"
    assert refused.message == "I3 would cover [0, 18], which is already taken."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        # Duo's start points lie past the first two rows of the board
        ({"variant": "duo"}, "Purple's first piece must cover a start point: [4, 4]."),
        (
            {"free_corners": True},
            "Blue's first piece must cover a start point: [0, 0], [0, 19], [19, 0], [19, 19].",
        ),
    ],
)
def test_the_first_piece_message_lists_every_start_point(
    options: dict[str, Any], message: str
) -> None:
    refused = _refusal(ENGINE.new_game(2, 1, options), 0, {"piece": "I1", "cells": [[5, 5]]})
    assert refused.code == "not_on_start"
    assert refused.message == message


def test_covering_the_colours_own_earlier_piece_is_an_overlap() -> None:
    # not only the piece placed last counts as taken: blue's first piece too
    state = _opened()
    for seat, cells in enumerate(
        ([[1, 1], [1, 2]], [[1, 17], [1, 18]], [[18, 17], [18, 18]], [[18, 1], [18, 2]])
    ):
        state = ENGINE.play(state, seat, {"piece": "I2", "cells": cells})
    refused = _refusal(state, 0, {"piece": "I3", "cells": [[0, 0], [0, 1], [0, 2]]})
    assert refused.code == "overlap"
    assert refused.message == "I3 would cover [0, 0], which is already taken."
