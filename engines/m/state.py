"""The position of a game of M, and its JSON snapshot.

A ``State`` is an immutable value: every rule in ``engines.m.rules`` returns a new
one. Cards are indices into ``engines.m.cards.DECK``; a snapshot spells them as ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engines.base import JSON
from engines.m.cards import DECK, INDEX
from engines.m.table import Cell, holding, open_cells

PHASES = ("play", "line", "take", "over")
LINES = ("row", "col")
# The ends of docs/rules.md M-16 to M-20, in that order.
END_REASONS = ("final_scoring", "hands_empty", "all_passed", "jammed", "guard")
# A player resigned: the game ends with them last (docs/rules.md M-23).
RESIGNED = "resigned"
# Version 1 of the rules ended a game after two idle rounds; its snapshots still load.
LEGACY_END_REASONS = ("stalled",)

# The kinds of entry in a game's public history (``State.history``), by their number there
# and their word in a snapshot.
PLACED, PASSED, SWAPPED, TOOK = 0, 1, 2, 3
HISTORY_KINDS = ("place", "pass", "swap", "take")
Entry = tuple[int, ...]
"""One entry of the public history: ``(seat, PLACED, card, row, col)``, ``(seat, PASSED)``,
``(seat, SWAPPED)`` or ``(seat, TOOK, card, row, col)``."""


@dataclass(frozen=True)
class State:
    """Everything about one game of M, hidden parts included.

    ``turn`` is the seat whose turn it is; during a line choice or a scoring phase
    it stays the placer's, and ``taker`` says who takes next. ``idle`` counts the
    turns played since the last placement (all of them passes), which is what the
    end condition (c) and the termination guard look at. ``history`` is public: every
    seat saw each of its entries happen.
    """

    players: int
    rng: int
    pile: tuple[int, ...]  # top card first
    removed: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    table: tuple[tuple[int, int, int], ...]  # (row, col, card), sorted by cell
    tokens: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]
    turn: int = 0
    phase: str = "play"
    last: Cell | None = None  # the cell of the latest placement
    lines: tuple[str, ...] = ()  # what the placer may choose from (phase "line")
    line: str | None = None  # the line being scored (phase "take")
    run: tuple[Cell, ...] = ()  # its cells still on the table, in order
    taker: int = 0
    idle: int = 0
    ended: str | None = None
    resigned: int | None = None  # the seat that resigned, once one did
    # what every seat saw happen, in order (``Entry``): placements, passes with or
    # without a swap (never which card went under the pile), takes. ``None`` for a game
    # loaded from a snapshot written before the history was kept: its start is unknown.
    history: tuple[Entry, ...] | None = None

    @cached_property
    def grid(self) -> dict[Cell, int]:
        """The table as ``{(row, col): card}``; a cache, never to be changed."""
        return {(r, c): card for r, c, card in self.table}

    @cached_property
    def pinned(self) -> frozenset[Cell]:
        """The run cells whose card holds the table together (``table.holding``); a cache."""
        return frozenset(holding(self.grid, self.run)) if self.run else frozenset()

    @cached_property
    def spots(self) -> tuple[tuple[Cell, int], ...]:
        """Each open cell with its orthogonal neighbours as a bitmask of cards; a cache."""
        grid = self.grid
        found = []
        for cell in open_cells(grid):
            r, c = cell
            near = 0
            for other in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                card = grid.get(other)
                if card is not None:
                    near |= 1 << card
            found.append((cell, near))
        return tuple(found)


def table_of(grid: Mapping[Cell, int]) -> tuple[tuple[int, int, int], ...]:
    """The canonical (sorted) table tuple of a grid."""
    return tuple(sorted((r, c, card) for (r, c), card in grid.items()))


def _ids(cards: tuple[int, ...]) -> list[str]:
    return [DECK[card].id for card in cards]


def dump(state: State) -> JSON:
    """A complete, JSON-ready snapshot of ``state``."""
    data: JSON = {
        "players": state.players,
        "rng": state.rng,
        "pile": _ids(state.pile),
        "removed": _ids(state.removed),
        "hands": [_ids(hand) for hand in state.hands],
        "table": [{"at": [r, c], "card": DECK[card].id} for r, c, card in state.table],
        "tokens": list(state.tokens),
        "collections": [_ids(cards) for cards in state.collections],
        "turn": state.turn,
        "phase": state.phase,
        "last": list(state.last) if state.last is not None else None,
        "lines": list(state.lines),
        "line": state.line,
        "run": [list(cell) for cell in state.run],
        "taker": state.taker,
        "idle": state.idle,
        "ended": state.ended,
    }
    if state.resigned is not None:  # only then: older snapshots and transcripts stay as they were
        data["resigned"] = state.resigned
    if state.history is not None:
        data["history"] = [_entry_json(entry) for entry in state.history]
    return data


def _entry_json(entry: Entry) -> list[Any]:
    seat, kind, *rest = entry
    if kind in (PLACED, TOOK):
        card, r, c = rest
        return [seat, HISTORY_KINDS[kind], DECK[card].id, r, c]
    return [seat, HISTORY_KINDS[kind]]


def _entry(value: Any) -> Entry:
    seat, word, *rest = value
    kind = HISTORY_KINDS.index(word)
    if kind in (PLACED, TOOK):
        card_id, r, c = rest
        return (int(seat), kind, INDEX[card_id], int(r), int(c))
    if rest:
        raise ValueError(f"a {word!r} entry of the history names nothing more")
    return (int(seat), kind)


def _cards(value: Any) -> tuple[int, ...]:
    return tuple(INDEX[card_id] for card_id in value)


def _cell(value: Any) -> Cell:
    r, c = value
    return int(r), int(c)


def load(data: Mapping[str, Any]) -> State:
    """The state a ``dump`` describes; a snapshot that is not one raises ``ValueError``."""
    try:
        state = State(
            players=int(data["players"]),
            rng=int(data["rng"]),
            pile=_cards(data["pile"]),
            removed=_cards(data["removed"]),
            hands=tuple(_cards(hand) for hand in data["hands"]),
            table=tuple(
                sorted((*_cell(item["at"]), INDEX[item["card"]]) for item in data["table"])
            ),
            tokens=tuple(int(n) for n in data["tokens"]),
            collections=tuple(_cards(cards) for cards in data["collections"]),
            turn=int(data["turn"]),
            phase=str(data["phase"]),
            last=_cell(data["last"]) if data["last"] is not None else None,
            lines=tuple(str(line) for line in data["lines"]),
            line=str(data["line"]) if data["line"] is not None else None,
            run=tuple(_cell(cell) for cell in data["run"]),
            taker=int(data["taker"]),
            idle=int(data["idle"]),
            ended=str(data["ended"]) if data["ended"] is not None else None,
            # snapshots from before resigning existed have no such key
            resigned=int(data["resigned"]) if data.get("resigned") is not None else None,
            # snapshots from before the history was kept have no such key
            history=(
                tuple(_entry(entry) for entry in data["history"])
                if data.get("history") is not None
                else None
            ),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"Not a snapshot of a game of M: {exc}") from exc
    _check(state)
    return state


def _check(state: State) -> None:
    """Refuse snapshots that cannot be a game: every card once, sane seats and phase."""
    n = state.players
    every = [
        *state.pile,
        *state.removed,
        *(card for _, _, card in state.table),
        *(card for hand in state.hands for card in hand),
        *(card for cards in state.collections for card in cards),
    ]
    problems = []
    if not 2 <= n <= 6:
        problems.append("M is played by 2 to 6 players")
    if sorted(every) != list(range(len(DECK))):
        problems.append("every card must appear exactly once")
    if not (len(state.hands) == len(state.tokens) == len(state.collections) == n):
        problems.append("hands, tokens and collections need one entry per seat")
    if not (0 <= state.turn < n and 0 <= state.taker < n):
        problems.append("turn and taker must be seats")
    if state.phase not in PHASES or any(line not in LINES for line in state.lines):
        problems.append("unknown phase or line")
    if state.ended is not None and state.ended not in (*END_REASONS, RESIGNED, *LEGACY_END_REASONS):
        problems.append("unknown end reason")
    if len({(r, c) for r, c, _ in state.table}) != len(state.table):
        problems.append("two cards share a cell")
    if state.history is not None and any(not 0 <= entry[0] < n for entry in state.history):
        problems.append("the history names a seat that is not in the game")
    if problems:
        raise ValueError("Not a snapshot of a game of M: " + "; ".join(problems) + ".")
