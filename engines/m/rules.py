"""The rules of M: setup, placing, tokens, passing, scoring phases, the end.

Every rule here is the M rulebook as docs/rules.md M-1 to M-22 settle it (with
ALL-1 to ALL-5 for every game); each function names the items it implements.
Functions take a ``State`` and return a new one; parsed moves come from
``engines.m.moves``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.base import IllegalMove
from engines.m import table
from engines.m.cards import CLASHES, DECK, HAND_SIZE, KEEP, SHARED, START_CELLS, TOKENS_EACH
from engines.m.moves import Line, Move, Pass, Place, Take
from engines.m.state import (
    LINES,
    PASSED,
    PLACED,
    RESIGNED,
    SWAPPED,
    TOOK,
    Entry,
    State,
    table_of,
)
from engines.m.table import Cell
from engines.prng import seed_state, shuffled


def new_game(players: int, seed: int) -> State:
    """docs/rules.md M-3: keep 30 + 10·N cards for N players (removed unseen), lay
    the start M face up (M-4), deal four cards each, six tokens each; seat 0 begins
    (ALL-3). The shuffle comes from the seed (ALL-5).

    The count kept is the rulebook's table (50/60/70/80/90), see ``cards.KEEP``.
    """
    rng = seed_state(seed)
    order, rng = shuffled(rng, range(len(DECK)))
    drop = len(DECK) - KEEP[players]
    removed, rest = order[:drop], order[drop:]
    start, rest = rest[: len(START_CELLS)], rest[len(START_CELLS) :]
    hands = tuple(tuple(rest[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players))
    return State(
        players=players,
        rng=rng,
        pile=tuple(rest[players * HAND_SIZE :]),
        removed=tuple(removed),
        hands=hands,
        table=table_of(dict(zip(START_CELLS, start, strict=True))),
        tokens=(TOKENS_EACH,) * players,
        collections=((),) * players,
        history=(),
    )


def to_act(state: State) -> list[int]:
    """Who may move: the player whose turn it is, or during a scoring phase the taker."""
    if state.phase == "over":
        return []
    if state.phase == "take":
        return [state.taker]
    return [state.turn]


# --- placing ---------------------------------------------------------------------


def placements(state: State, seat: int) -> list[tuple[int, Cell]]:
    """Every (card, cell) ``seat`` may place: docs/rules.md M-2 and M-5.

    A cell qualifies when it is empty, orthogonally next to a card, keeps the table
    within 6x6, and the card matches each orthogonal neighbour.
    """
    spots = state.spots
    return [
        (card, cell)
        for card in state.hands[seat]
        for cell, near in spots
        if not near & CLASHES[card]
    ]


def can_place(state: State, seat: int) -> bool:
    """Whether ``seat`` has any placement at all (which decides if a pass is forced)."""
    hand = state.hands[seat]
    return any(not near & CLASHES[card] for _, near in state.spots for card in hand)


def _refuse(message: str, code: str) -> IllegalMove:
    return IllegalMove(message, code=code)


def _check_place(state: State, seat: int, card: int, cell: Cell) -> None:
    """Refuse a placement the rules forbid, saying why (and which neighbour clashes)."""
    grid = state.grid
    name = DECK[card].words()
    if card not in state.hands[seat]:
        raise _refuse(f"The {name} is not in your hand.", "not_in_hand")
    if cell in grid:
        raise _refuse(f"There is already a card at {list(cell)}.", "occupied")
    near = table.neighbours(grid, cell)
    if not near:
        raise _refuse(
            f"A card must touch the side of a card on the table; {list(cell)} touches none.",
            "not_adjacent",
        )
    if not table.fits(table.bounds(grid), cell):
        raise _refuse(
            f"A card at {list(cell)} would stretch the table past 6 by 6.", "box_exceeded"
        )
    for other_cell, other, where in near:
        if not SHARED[card][other]:
            raise _refuse(
                f"The {name} shares no colour, value or symbol with the "
                f"{DECK[other].words()} {where} (at {list(other_cell)}).",
                "mismatch",
            )


def pay(tokens: tuple[int, ...], placer: int, owed: int) -> tuple[tuple[int, ...], list[int]]:
    """docs/rules.md M-6: ``owed`` tokens go to the placer, first from
    the player on the right, then from that player's right, never from the placer;
    what nobody can pay is lost. Returns the new tokens and what each seat paid.
    A player with an empty hand pays and receives like anyone (docs/rules.md M-15).
    """
    n = len(tokens)
    after = list(tokens)
    paid = [0] * n
    for step in range(1, n):
        if owed == 0:
            break
        payer = (placer - step) % n
        give = min(owed, after[payer])
        after[payer] -= give
        paid[payer] = give
        after[placer] += give
        owed -= give
    return tuple(after), paid


def qualifying_lines(grid: dict[Cell, int], cell: Cell) -> tuple[str, ...]:
    """docs/rules.md M-9: the lines through the placed card whose run has
    5 or 6 cards and in which the card shares two characteristics with a neighbour.
    """
    card = grid[cell]
    found = []
    for line in LINES:
        cells = table.run(grid, cell, line)
        if len(cells) < 5:
            continue
        i = cells.index(cell)
        beside = cells[max(i - 1, 0) : i] + cells[i + 1 : i + 2]
        if any(SHARED[card][grid[other]] >= 2 for other in beside):
            found.append(line)
    return tuple(found)


def _place(state: State, seat: int, card: int, cell: Cell) -> State:
    """docs/rules.md M-14: place, collect tokens, then maybe a scoring phase; the
    placer chooses the line when both qualify (M-10)."""
    _check_place(state, seat, card, cell)
    grid = dict(state.grid)
    grid[cell] = card
    hands = list(state.hands)
    hands[seat] = tuple(c for c in state.hands[seat] if c != card)
    owed = len(table.neighbours(grid, cell)) - 1
    tokens, _ = pay(state.tokens, seat, owed)
    placed: dict[str, Any] = {
        "table": table_of(grid),
        "hands": tuple(hands),
        "tokens": tokens,
        "last": cell,
    }
    lines = qualifying_lines(grid, cell)
    if not lines:
        return _end_turn(state, scored=False, idle=0, **placed)
    after = replace(state, idle=0, **placed)
    if len(lines) == 1:
        return _start_scoring(after, lines[0])
    return replace(after, phase="line", lines=lines)


# --- scoring phase ---------------------------------------------------------------


def takeable(state: State) -> list[Cell]:
    """docs/rules.md M-12: the run cells whose card may be taken now — none
    once a single card is left, and never one whose removal splits the table into
    groups (orthogonal or diagonal contact).
    """
    if state.phase != "take" or len(state.run) <= 1:
        return []
    return [cell for cell in state.run if cell not in state.pinned]


def _start_scoring(state: State, line: str) -> State:
    """docs/rules.md M-11: the placer takes first, then the players to the left,
    each in turn, an empty hand or not (M-15). A phase with nothing to take is over
    at once (M-13)."""
    assert state.last is not None
    run = tuple(table.run(state.grid, state.last, line))
    scoring = replace(state, phase="take", lines=(), line=line, run=run, taker=state.turn)
    if not takeable(scoring):
        return _end_turn(scoring, scored=True)
    return scoring


def _take(state: State, seat: int, card: int) -> State:
    """docs/rules.md M-11 and M-13: the taker moves a card of the run into their
    collection; the phase goes on with the next player to the left, or ends (the
    placer draws, play goes on) once one card of the run is left or none may go.
    """
    cell = next((cell for cell, c in state.grid.items() if c == card), None)
    name = DECK[card].words()
    if cell is None:
        raise _refuse(f"The {name} is not on the table.", "not_on_table")
    if cell not in state.run:
        raise _refuse(f"The {name} is not part of the {state.line} being scored.", "not_in_run")
    if cell in state.pinned:
        raise _refuse(
            f"Taking the {name} would split the cards on the table into separate groups.",
            "would_split",
        )
    grid = dict(state.grid)
    del grid[cell]
    collections = list(state.collections)
    collections[seat] = (*collections[seat], card)
    after = replace(
        state,
        table=table_of(grid),
        collections=tuple(collections),
        run=tuple(c for c in state.run if c != cell),
        taker=(seat + 1) % state.players,
    )
    if not takeable(after):
        return _end_turn(after, scored=True)
    return after


# --- passing, turn end and game end ----------------------------------------------


def _pass(state: State, seat: int, swap: int | None) -> State:
    """docs/rules.md M-7 and M-8: forced when nothing can be placed, otherwise only
    with a token; one token (if any) goes to the right; with cards in the pile the
    passer may put a hand card face down under it and draw the top card.
    """
    if state.tokens[seat] == 0 and can_place(state, seat):
        raise _refuse(
            "You can still place a card; passing by choice costs a token and you have none.",
            "pass_needs_token",
        )
    hands = list(state.hands)
    pile = state.pile
    if swap is not None:
        if swap not in state.hands[seat]:
            raise _refuse(f"The {DECK[swap].words()} is not in your hand.", "not_in_hand")
        if not pile:
            raise _refuse("The draw pile is empty: there is nothing to swap with.", "empty_pile")
        pile = (*pile, swap)
        hands[seat] = (*(c for c in state.hands[seat] if c != swap), pile[0])
        pile = pile[1:]
    tokens = list(state.tokens)
    if tokens[seat]:
        tokens[seat] -= 1
        tokens[(seat - 1) % state.players] += 1
    return _advance(state, hands=tuple(hands), pile=pile, tokens=tuple(tokens), idle=state.idle + 1)


def _end_turn(state: State, scored: bool, **changes: Any) -> State:
    """docs/rules.md M-14 and M-16: after a placement (and its scoring
    phase) the placer draws if the pile has a card; a scoring phase completed with
    the pile already empty ends the game.

    ``changes`` are updates of ``state`` not yet applied (one ``replace`` at the end
    is much cheaper than one per step).
    """
    changes.update(phase="play", lines=(), line=None, run=())
    pile: tuple[int, ...] = state.pile
    if scored and not pile:
        return replace(state, **{**changes, "phase": "over"}, ended="final_scoring")
    if pile:
        hands = list(changes.get("hands", state.hands))
        hands[state.turn] = (*hands[state.turn], pile[0])
        changes.update(hands=tuple(hands), pile=pile[1:])
    return _advance(state, **changes)


GUARD_ROUNDS = 10
"""docs/rules.md M-20, the termination guard: full rounds without a placement, counted
over the players holding cards, after which the game ends in any case."""


def jammed(state: State) -> bool:
    """docs/rules.md M-19: no card still in play — in a hand or in the pile — fits
    on any open cell of the table, so no placement can ever happen again.

    Removed and collected cards are out of play. Checked after every turn.
    """
    spots = [near for _, near in state.spots]
    for held in (*state.hands, state.pile):
        for card in held:
            clashes = CLASHES[card]
            if any(not near & clashes for near in spots):
                return False
    return True


def _advance(state: State, **changes: Any) -> State:
    """docs/rules.md M-15, M-17, M-18, M-19 and M-20 (the termination guard):
    pass the turn to the next player on the left who holds cards, unless the game is
    over.

    While the pile has cards, passes alone never end the game: only a jammed table
    (d) or ``GUARD_ROUNDS`` rounds without a placement do.
    """
    hands: tuple[tuple[int, ...], ...] = changes.get("hands", state.hands)
    pile: tuple[int, ...] = changes.get("pile", state.pile)
    idle: int = changes.get("idle", state.idle)
    holders = sum(1 for hand in hands if hand)
    if holders == 0:
        return replace(state, **{**changes, "phase": "over"}, ended="hands_empty")
    if not pile and idle >= holders:
        return replace(state, **{**changes, "phase": "over"}, ended="all_passed")
    n = state.players
    seat = next(
        (state.turn + step) % n for step in range(1, n + 1) if hands[(state.turn + step) % n]
    )
    after = replace(state, **changes, turn=seat, taker=seat)
    if jammed(after):
        return replace(state, **{**changes, "phase": "over"}, ended="jammed")
    if idle >= GUARD_ROUNDS * holders:
        return replace(state, **{**changes, "phase": "over"}, ended="guard")
    return after


# --- the moves -------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` right now (none if it is not that seat's to make)."""
    if seat not in to_act(state):
        return []
    if state.phase == "line":
        return [Line(line) for line in state.lines]
    if state.phase == "take":
        grid = state.grid
        return [Take(grid[cell]) for cell in takeable(state)]
    moves: list[Move] = [Place(card, cell) for card, cell in placements(state, seat)]
    if not moves or state.tokens[seat] > 0:
        moves.append(Pass())
        if state.pile:
            moves.extend(Pass(card) for card in state.hands[seat])
    return moves


_EXPECTED = {
    "play": ("place", "pass"),
    "line": ("line",),
    "take": ("take",),
}
_ASK = {
    "play": "It is your turn to place a card or pass.",
    "line": "Choose the row or the column to score first.",
    "take": "Take a card from the line being scored first.",
}


def play(state: State, seat: int, move: Move) -> State:
    """The state after ``seat`` makes ``move``; ``IllegalMove`` if the rules forbid it.

    A placement, a pass (with a swap or not, never naming the card put under the pile)
    and a take go into the public history (``State.history``), when the game keeps one:
    what every seat at the table saw happen (docs/rules.md M-22)."""
    if state.phase == "over":
        raise _refuse("The game is over.", "game_over")
    if seat not in to_act(state):
        raise _refuse("It is not your turn.", "not_your_turn")
    kind = type(move).__name__.lower()
    if kind not in _EXPECTED[state.phase]:
        raise _refuse(_ASK[state.phase], "wrong_phase")
    if isinstance(move, Line):
        if move.line not in state.lines:
            raise _refuse(f"The {move.line} does not qualify for scoring.", "line_not_offered")
        # the line chosen says nothing the take that follows does not: not kept
        return _start_scoring(replace(state, lines=()), move.line)
    entry: Entry
    if isinstance(move, Place):
        after = _place(state, seat, move.card, move.at)
        entry = (seat, PLACED, move.card, *move.at)
    elif isinstance(move, Pass):
        after = _pass(state, seat, move.swap)
        entry = (seat, PASSED if move.swap is None else SWAPPED)
    else:
        cell = next((cell for cell, c in state.grid.items() if c == move.card), None)
        after = _take(state, seat, move.card)
        assert cell is not None  # _take refuses a card that is not on the table
        entry = (seat, TOOK, move.card, *cell)
    if state.history is None:
        return after
    return replace(after, history=(*state.history, entry))


def resign(state: State, seat: int) -> State:
    """``seat`` resigns: the game ends at once and the seat ranks last; the others are
    ranked by the points they hold now (docs/rules.md M-23)."""
    if state.phase == "over":
        raise IllegalMove("The game is over.", code="game_over")
    return replace(state, phase="over", ended=RESIGNED, resigned=seat)
