"""What a seat may believe about the other hands, read from the game's public history.

Everything a player did at the table is seen by all (docs/rules.md M-22): which card
they placed where, that they passed, that they swapped (never which card went under
the pile, M-8), what they took. A player who places a card worth little while a card
worth much more would have fitted probably does not hold that other card; one who
passes without a token holds no card that fits anywhere (the pass was forced, M-7).

The reading replays the history with the public facts alone (the table, the tokens, the
collections, whether cards are left to draw) and, at each of another seat's last
``TURNS`` turns, values the best placement every card then unseen could have made, by
the greedy estimate of ``engines.m.bots``. A card whose best placement beats what the
player did by ``d`` points was held with likelihood ``1 / (1 + e^(d / TEMPERATURE))``
against a card that fits nowhere; after a forced pass a card that fitted was not held
at all. The temperature keeps the reading sane against people, who do not play the
greedy's moves: a choice that may have been a matter of taste makes a card less
likely, never impossible.

A card held now was held at an earlier turn only if it was not drawn since; each draw
since that turn put a new card in the hand (``SURVIVAL`` is how often a card held
survives one draw, measured in games of the greedy bot: 0.73). The weight of a card
for a seat is the likelihood of the turns it was held for, mixed over how many of the
last turns that was. The search deals the other hands in proportion to these weights
(``engines.m.search``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engines.m import bots
from engines.m.cards import CLASHES, DECK, HAND_SIZE, KEEP, START_CELLS, TOKENS_EACH
from engines.m.moves import Place
from engines.m.rules import pay, qualifying_lines
from engines.m.state import PLACED, SWAPPED, TOOK, Entry, State, table_of
from engines.m.table import Cell

TEMPERATURE = 3.0  # points: a token is worth 15 to the greedy estimate
TURNS = 4  # the last turns of each seat read; older ones weigh little (SURVIVAL^draws)
SURVIVAL = 0.73  # a held card's chance to stay in the hand through one draw

Weights = tuple[float, ...]  # per card index of the deck


@dataclass(frozen=True)
class Turn:
    """A turn of the history: who, what they saw (table, tokens, collections, whether
    the pile had cards) and what they did (the history's entry)."""

    seat: int
    table: tuple[tuple[int, int, int], ...]
    tokens: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]
    pile: bool
    entry: Entry


def replay(state: State) -> tuple[list[Turn], list[list[int]]] | None:
    """The turns of ``state``'s history and, per seat, after which turns (their index)
    it drew a card, from the public facts alone; ``None`` when the history is missing or
    does not lead to the public state (a position built by hand, an old snapshot)."""
    history = state.history
    if history is None:
        return None
    n = state.players
    placed = {entry[2] for entry in history if entry[1] == PLACED}
    taken = {entry[2]: (entry[3], entry[4]) for entry in history if entry[1] == TOOK}
    start = {cell: card for cell, card in state.grid.items() if card not in placed}
    start.update((cell, card) for card, cell in taken.items() if card not in placed)
    if sorted(start) != sorted(START_CELLS):
        return None
    grid: dict[Cell, int] = dict(start)
    tokens = (TOKENS_EACH,) * n
    collections: list[tuple[int, ...]] = [()] * n
    pile = KEEP[n] - len(START_CELLS) - HAND_SIZE * n
    turns: list[Turn] = []
    drew: list[list[int]] = [[] for _ in range(n)]
    placer: int | None = None  # whose draw waits for the end of a scoring phase

    def draw(seat: int) -> None:
        nonlocal pile
        if pile > 0:
            pile -= 1
            drew[seat].append(len(turns) - 1)

    for entry in history:
        seat, kind = entry[0], entry[1]
        if kind == TOOK:
            cell = (entry[3], entry[4])
            if grid.get(cell) != entry[2]:
                return None
            del grid[cell]
            collections[seat] = (*collections[seat], entry[2])
            continue
        if placer is not None:  # the phase is over: the placer drew (M-13)
            draw(placer)
            placer = None
        turns.append(Turn(seat, table_of(grid), tokens, tuple(collections), pile > 0, entry))
        if kind == PLACED:
            cell = (entry[3], entry[4])
            grid[cell] = entry[2]
            owed = sum((cell[0] + dr, cell[1] + dc) in grid for dr, dc in _SIDES) - 1
            tokens, _ = pay(tokens, seat, owed)
            if qualifying_lines(grid, cell):
                placer = seat
            else:
                draw(seat)
        else:
            if tokens[seat]:
                moved = list(tokens)
                moved[seat] -= 1
                moved[(seat - 1) % n] += 1
                tokens = tuple(moved)
            if kind == SWAPPED:
                drew[seat].append(len(turns) - 1)
    if placer is not None and state.phase == "play":
        draw(placer)
    if (
        grid != state.grid
        or tokens != state.tokens
        or tuple(collections) != state.collections
        or pile != len(state.pile)
    ):
        return None
    return turns, drew


_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


@lru_cache(maxsize=4096)
def reading(turn: Turn) -> Weights:
    """Per card, the likelihood that the seat of ``turn`` did what it did holding that
    card (1 for a card that fitted nowhere, or one seen on the table or taken)."""
    seat, entry = turn.seat, turn.entry
    public = {card for _, _, card in turn.table}
    public.update(card for cards in turn.collections for card in cards)
    chosen = entry[2] if entry[1] == PLACED else None
    held = tuple(card for card in range(len(DECK)) if card not in public)
    hands: list[tuple[int, ...]] = [()] * len(turn.tokens)
    hands[seat] = held
    context = State(
        players=len(turn.tokens),
        rng=0,
        pile=held[:1] if turn.pile else (),  # only whether one is left matters here
        removed=(),
        hands=tuple(hands),
        table=turn.table,
        tokens=turn.tokens,
        collections=turn.collections,
        turn=seat,
        taker=seat,
    )
    unseen = sum(1 << card for card in held)
    exposure = bots._Exposure(context, unseen)
    forced = False
    if chosen is not None:
        did = bots._place_value(context, seat, Place(chosen, (entry[3], entry[4])), exposure)
    else:
        forced = turn.tokens[seat] == 0  # without a token only a forced pass is allowed
        did = -bots.TOKEN_VALUE
    found = [1.0] * len(DECK)
    for card in held:
        if card == chosen:
            continue
        cells = [cell for cell, near in context.spots if not near & CLASHES[card]]
        if not cells:
            continue
        if forced:
            found[card] = 0.0
            continue
        best = max(bots._place_value(context, seat, Place(card, cell), exposure) for cell in cells)
        found[card] = 1.0 / (1.0 + math.exp(min((best - did) / TEMPERATURE, 50.0)))
    return tuple(found)


def weights(state: State, seat: int) -> dict[int, Weights] | None:
    """For every other seat holding cards, the weight of each card being in its hand
    now, from ``seat``'s view of ``state`` (the history and the public facts only);
    ``None`` when the history can't be read (``replay``)."""
    replayed = replay(state)
    if replayed is None:
        return None
    turns, drew = replayed
    found: dict[int, Weights] = {}
    for other in range(state.players):
        if other == seat or not state.hands[other]:
            continue
        mine = [index for index, turn in enumerate(turns) if turn.seat == other][-TURNS:]
        total = [0.0] * len(DECK)
        likely = [1.0] * len(DECK)
        held_before = 1.0  # the chance a card held now was held at the turn looked at
        for index in reversed(mine):
            draws = sum(1 for after in drew[other] if after >= index)
            held = SURVIVAL**draws
            # the cards drawn since this turn: held now, not then
            gone = held_before - held
            for card in range(len(DECK)):
                total[card] += gone * likely[card]
            read = reading(turns[index])
            likely = [a * b for a, b in zip(likely, read, strict=True)]
            held_before = held
        for card in range(len(DECK)):
            total[card] += held_before * likely[card]
        found[other] = tuple(total)
    return found
