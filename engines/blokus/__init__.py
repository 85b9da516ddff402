"""Blokus behind the engine contract: options, dict moves, snapshots, views, bots.

The rules live in ``rules`` (fast, in placement ids), the pieces and placement
tables in ``pieces``, what a seat sees in ``view``, the bots in ``bots``. Blokus
has no chance and nothing hidden, so the game seed is not kept in the state
(docs/rules.md ALL-5 and BLOKUS-13: the seed never reaches a view; here it never
reaches the state).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engines.base import JSON, BadOptions, Bot, Engine, Option, RecordFormat, is_resign
from engines.blokus import bots, rules, view
from engines.blokus.pieces import placements
from engines.blokus.rules import LAYOUTS, State

DUO = "duo"


@cache
def move_texts(size: int) -> tuple[bytes, ...]:
    """Every placement of a ``size`` board as the JSON text of its move dict, by
    placement id: built once, so a state's legal moves are joined, not encoded."""
    table = placements(size)
    return tuple(
        json.dumps(
            {"piece": table.name[pid], "cells": [[r, c] for r, c in table.xy[pid]]},
            separators=(",", ":"),
        ).encode()
        for pid in range(len(table.name))
    )


COMPACT_FORM = "shapes"


@dataclass(frozen=True)
class CompactTexts:
    """The compact legal-move form's parts for one board size, built once.

    Placement ids run shape by shape (a shape is a piece in one orientation), so
    sorted legal ids fall into runs of one shape. ``opening[pid]`` is the text that
    starts a run at ``pid`` (closing the run before: the first one's closing is cut
    off), ``following[pid]`` the text of ``pid`` further on in a run: its anchor, the
    board index ``row * size + col`` of its top-left corner."""

    shape_of: tuple[int, ...]
    opening: tuple[bytes, ...]
    following: tuple[bytes, ...]


# what ``opening`` puts before a run's head: the end of the run before it
_RUN_END = b"]}"
_CUT = len(_RUN_END) + 1


@cache
def compact_texts(size: int) -> CompactTexts:
    table = placements(size)
    shape_ids: dict[tuple[str, tuple[tuple[int, int], ...]], int] = {}
    heads: list[bytes] = []
    shape_of: list[int] = []
    opening: list[bytes] = []
    following: list[bytes] = []
    for pid, name in enumerate(table.name):
        xy = table.xy[pid]
        top, left = min(r for r, _ in xy), min(c for _, c in xy)
        key = (name, tuple((r - top, c - left) for r, c in xy))
        shape = shape_ids.get(key)
        if shape is None:
            shape = shape_ids[key] = len(heads)
            cells = json.dumps([list(cell) for cell in key[1]], separators=(",", ":"))
            heads.append(f'{{"piece":"{name}","cells":{cells},"at":['.encode())
        shape_of.append(shape)
        anchor = str(top * size + left).encode()
        opening.append(_RUN_END + b"," + heads[shape] + anchor)
        following.append(b"," + anchor)
    return CompactTexts(tuple(shape_of), tuple(opening), tuple(following))


def compact_shapes(size: int, ids: list[int]) -> bytes:
    """The ``shapes`` list of the compact form of the sorted placement ids ``ids``."""
    if not ids:
        return b"[]"
    texts = compact_texts(size)
    shape_of, opening, following = texts.shape_of, texts.opening, texts.following
    parts: list[bytes] = []
    add = parts.append
    last = -1
    # a plain loop: measured three times faster than grouping the runs with groupby
    for pid in ids:
        shape = shape_of[pid]
        if shape == last:
            add(following[pid])
        else:
            add(opening[pid])
            last = shape
    return b"[" + b"".join(parts)[_CUT:] + _RUN_END + b"]"


class BlokusEngine(Engine[State]):
    """Classic Blokus for 2-4 players on 20x20, or Blokus Duo for 2 on 14x14."""

    name = "blokus"
    title = "Blokus"
    version = "1"
    min_players = 2
    max_players = 4
    hidden_information = False  # every piece on the board and in every supply is seen
    options = (
        Option(
            "variant",
            "choice",
            "classic",
            ("classic", DUO),
            "Classic: 20x20, four colours. Duo: 14x14, two colours, two players.",
        ),
        Option(
            "free_corners",
            "bool",
            False,
            description="A colour's first piece may cover any start point nobody has covered.",
        ),
    )

    def record_formats(self) -> tuple[RecordFormat, ...]:
        """Pentobi's ``.blksgf`` (``engines.blokus.sgf``)."""
        from engines.blokus import sgf

        return (sgf.FORMAT,)

    def player_counts(self, options: Mapping[str, Any] | None = None) -> list[int]:
        """Duo is for exactly two players; classic for two, three or four."""
        if options and options.get("variant") == DUO:
            return [2]
        return super().player_counts(options)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        opts = self.normalize_options(players, options)
        if opts["variant"] == DUO and players != 2:
            raise BadOptions(
                f"Blokus Duo is played by exactly 2 players, not {players}.", code="bad_players"
            )
        return rules.new_state(opts["variant"], players, opts["free_corners"])

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[JSON]:
        if seat not in rules.to_act(state):
            return []
        table = state.table
        names, xy = table.name, table.xy
        return [
            {"piece": names[pid], "cells": [[r, c] for r, c in xy[pid]]}
            for pid in rules.legal_placements(state)
        ]

    def legal_moves_json(self, state: State, seat: int) -> bytes:
        if seat not in rules.to_act(state):
            return b"[]"
        texts = move_texts(state.layout.size)
        return b"[" + b",".join([texts[pid] for pid in rules.legal_placements(state)]) + b"]"

    def legal_moves_compact(self, state: State, seat: int) -> bytes | None:
        """``{"form": "shapes", "size": n, "shapes": [{"piece", "cells", "at"}, ...]}``: each
        shape's cells once, counted from its top-left corner, and the board index
        ``row * n + col`` of that corner for every spot where it may go. The legal moves
        come back in their usual order; early in a game this is about a third of the list.
        """
        size = state.layout.size
        head = b'{"form":"%s","size":%d,"shapes":' % (COMPACT_FORM.encode(), size)
        if seat not in rules.to_act(state):
            return head + b"[]}"
        return head + compact_shapes(size, rules.legal_placements(state)) + b"}"

    def expand_compact(self, compact: JSON) -> list[JSON]:
        if compact.get("form") != COMPACT_FORM:
            raise ValueError(f"not a Blokus compact form: {compact.get('form')!r}")
        size = compact["size"]
        moves: list[JSON] = []
        for group in compact["shapes"]:
            for anchor in group["at"]:
                top, left = divmod(anchor, size)
                cells = [[top + r, left + c] for r, c in group["cells"]]
                moves.append({"piece": group["piece"], "cells": cells})
        return moves

    def play(self, state: State, seat: int, move: Mapping[str, Any]) -> State:
        pid = rules.parse_move(state.table, move)
        rules.check_placement(state, seat, pid)
        return rules.place(state, pid)

    def view(self, state: State, seat: int | None) -> JSON:
        return view.view(state, seat)

    def result(self, state: State) -> JSON | None:
        return view.result(state)

    def log_line(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> JSON:
        return view.log_line(before, seat, after)

    def resign(self, state: State, seat: int) -> State:
        return rules.resign(state, seat)

    def undoable(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> bool:
        """Every placement: nothing is hidden or drawn (docs/rules.md BLOKUS-15)."""
        return not is_resign(move)

    def all_final(self, state: State, seat: int) -> bool | None:
        return False  # every placement may be taken back (docs/rules.md BLOKUS-15)

    def dump(self, state: State) -> JSON:
        table = state.table
        return {
            "variant": state.variant,
            "players": state.players,
            "free_corners": state.free_corners,
            "placed": [
                [{"piece": table.name[pid], "cells": table.coords(pid)} for pid in ids]
                for ids in state.placed
            ],
            "out": list(state.out),
            "turn": state.turn,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        variant = data["variant"]
        if variant not in LAYOUTS:
            raise ValueError(f"Unknown Blokus variant {variant!r} in a snapshot.")
        table = placements(LAYOUTS[variant].size)
        placed = tuple(
            tuple(rules.parse_move(table, move) for move in ids) for ids in data["placed"]
        )
        out = tuple(bool(flag) for flag in data["out"])
        colours = len(LAYOUTS[variant].colours)
        if not len(placed) == len(out) == colours:
            raise ValueError("A Blokus snapshot needs one entry per colour.")
        turn = data["turn"]
        if turn is not None and not (isinstance(turn, int) and 0 <= turn < colours):
            raise ValueError(f"A Blokus snapshot names no colour to move: {turn!r}.")
        return rules.rebuild(
            variant, int(data["players"]), bool(data["free_corners"]), placed, out, turn
        )

    def bots(self) -> Mapping[str, Bot[State]]:
        return bots.BOTS

    def random_bot(self) -> Bot[State]:
        return bots.RANDOM


ENGINE = BlokusEngine()

__all__ = ["ENGINE", "BlokusEngine", "State"]
