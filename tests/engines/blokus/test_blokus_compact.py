"""Blokus' compact legal-move form: what the server writes, the browser reads back.

The server joins the form from text kept per placement; the browser expands it with
``expandCompact`` in static/js/messages.js. Whole games on both boards check that the
browser's reading equals ``legal_moves``, move for move and in order.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from engines import ENGINES

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ENGINES["blokus"]
EXPAND = """
import { expandCompact } from "./static/js/messages.js";
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(expandCompact)));
});
"""


def _positions(variant: str, players: int, seed: int) -> list[tuple[bytes, list[dict]]]:
    """Every position of one random game: the compact text and the listed moves."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, {"variant": variant})
    found = []
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        moves = ENGINE.legal_moves(state, seat)
        compact = ENGINE.legal_moves_compact(state, seat)
        assert compact is not None
        found.append((compact, moves))
        state = ENGINE.play(state, seat, rng.choice(moves))
    return found


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("classic", 4), ("classic", 3)])
def test_the_compact_form_stands_for_the_legal_moves_in_their_order(
    variant: str, players: int
) -> None:
    for compact, moves in _positions(variant, players, seed=11):
        form = json.loads(compact)
        assert form["form"] == "shapes"
        assert ENGINE.expand_compact(form) == moves
        # each shape once, its cells counted from its top-left corner
        shapes = [(group["piece"], json.dumps(group["cells"])) for group in form["shapes"]]
        assert len(shapes) == len(set(shapes))
        for group in form["shapes"]:
            assert min(r for r, _ in group["cells"]) == 0
            assert min(c for _, c in group["cells"]) == 0
            assert group["at"]


def test_a_seat_not_to_act_gets_an_empty_form() -> None:
    state = ENGINE.new_game(2, 3, {"variant": "duo"})
    compact = ENGINE.legal_moves_compact(state, 1)
    assert compact is not None
    assert json.loads(compact) == {"form": "shapes", "size": 14, "shapes": []}


def test_early_in_a_game_the_form_is_a_fraction_of_the_list() -> None:
    state = ENGINE.new_game(2, 3, {"variant": "duo"})
    listed = ENGINE.legal_moves_json(state, 0)
    compact = ENGINE.legal_moves_compact(state, 0)
    assert compact is not None and len(compact) * 3 < len(listed)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_reads_the_form_back_into_the_same_moves() -> None:
    positions = _positions("duo", 2, seed=5) + _positions("classic", 4, seed=6)
    compact = "[" + ",".join(text.decode() for text, _ in positions) + "]"
    run = subprocess.run(
        ["node", "--input-type=module", "-e", EXPAND],
        input=compact,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    expanded = json.loads(run.stdout)
    assert len(expanded) == len(positions)
    for got, (_, moves) in zip(expanded, positions, strict=True):
        assert got == moves
