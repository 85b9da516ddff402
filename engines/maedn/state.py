"""The position of a game of Mensch ärgere Dich nicht: Das Kartenspiel.

A ``State`` is an immutable value: who is to play, every hand, the draw pile in
order, the discard pile, the figures in the middle, every seat's open rows in
the order they were started, the finished rows and scores, and the PRNG state
that shuffles the discard pile when the draw pile runs out. Nothing else is
needed to go on, so ``dump``/``load`` round-trip it exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines import prng
from engines.maedn import cards

Row = tuple[int, ...]
Rows = tuple[Row, ...]

END_TARGET = "target"
END_STALLED = "stalled"
END_RESIGNED = "resigned"  # a player resigned: the game ends with them last


@dataclass(frozen=True)
class State:
    """One moment of a game.

    ``middle[v]`` counts the copies of figure ``v`` lying in the middle
    (index 0 unused). ``rows[s]`` are seat ``s``'s open rows, oldest first: the
    index in that tuple is the ``row`` a move names. The draw pile is drawn from
    its end. ``quiet`` counts turns since a row was last finished (the stall rule
    in ``engines.maedn.rules``). ``end`` is ``None`` while the game runs, then
    ``"target"`` (someone reached the winning points) or ``"stalled"``.
    """

    players: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    discard: tuple[int, ...]
    middle: tuple[int, ...]
    rows: tuple[Rows, ...]
    finished: tuple[Rows, ...]
    scores: tuple[int, ...]
    quiet: int
    rng: int
    winner: int | None = None
    end: str | None = None
    resigned: int | None = None  # the seat that resigned, once one did

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def target(self) -> int:
        return cards.TARGETS[self.players]


def new_state(players: int, seed: int) -> State:
    """Shuffle the dice cards with the game's PRNG and deal two to each seat.

    All figures start in the middle; seat 0 plays first (docs/rules.md ALL-3: the
    seat the room names first stands for the rulebook's youngest player). The
    shuffle comes from the seed (ALL-5, MAEDN-3).
    """
    pile, rng = prng.shuffled(prng.seed_state(seed), cards.dice_deck())
    hands: list[tuple[int, ...]] = []
    for _ in range(players):
        hand = sorted(pile.pop() for _ in range(cards.HAND_SIZE))
        hands.append(tuple(hand))
    empty: tuple[Rows, ...] = tuple(() for _ in range(players))
    return State(
        players=players,
        turn=0,
        hands=tuple(hands),
        pile=tuple(pile),
        discard=(),
        middle=cards.figure_counts(players),
        rows=empty,
        finished=empty,
        scores=(0,) * players,
        quiet=0,
        rng=rng,
    )


def draw_up(
    hand: Sequence[int], pile: Sequence[int], discard: Sequence[int], rng: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Draw back to two dice (docs/rules.md MAEDN-6).

    When a card is needed and the draw pile is empty, the whole discard pile —
    including the dice just played — is shuffled with the game's PRNG into a new
    draw pile. Both piles empty at once cannot happen (130 cards, at most 8 in
    hands); should it, the hand simply stays short.
    """
    new_hand = list(hand)
    new_pile = list(pile)
    new_discard = tuple(discard)
    while len(new_hand) < cards.HAND_SIZE:
        if not new_pile:
            if not new_discard:
                break
            new_pile, rng = prng.shuffled(rng, new_discard)
            new_discard = ()
        new_hand.append(new_pile.pop())
    return tuple(sorted(new_hand)), tuple(new_pile), new_discard, rng


def dump_state(state: State) -> dict[str, Any]:
    """A complete JSON-ready snapshot of ``state``."""
    data: dict[str, Any] = {
        "players": state.players,
        "turn": state.turn,
        "hands": [list(hand) for hand in state.hands],
        "pile": list(state.pile),
        "discard": list(state.discard),
        "middle": list(state.middle),
        "rows": [[list(row) for row in rows] for rows in state.rows],
        "finished": [[list(row) for row in rows] for rows in state.finished],
        "scores": list(state.scores),
        "quiet": state.quiet,
        "rng": state.rng,
        "winner": state.winner,
        "end": state.end,
    }
    if state.resigned is not None:  # only then: older snapshots and transcripts stay as they were
        data["resigned"] = state.resigned
    return data


def _ints(values: Any) -> tuple[int, ...]:
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise ValueError(f"expected a list of whole numbers, got {values!r}")
    out = []
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"expected a whole number, got {value!r}")
        out.append(value)
    return tuple(out)


def _rows(values: Any) -> tuple[Rows, ...]:
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise ValueError(f"expected rows per seat, got {values!r}")
    return tuple(tuple(_ints(row) for row in rows) for rows in values)


def load_state(data: Mapping[str, Any]) -> State:
    """The state a ``dump_state`` snapshot describes."""
    try:
        winner = data["winner"]
        end = data["end"]
        state = State(
            players=int(data["players"]),
            turn=int(data["turn"]),
            hands=tuple(_ints(hand) for hand in data["hands"]),
            pile=_ints(data["pile"]),
            discard=_ints(data["discard"]),
            middle=_ints(data["middle"]),
            rows=_rows(data["rows"]),
            finished=_rows(data["finished"]),
            scores=_ints(data["scores"]),
            quiet=int(data["quiet"]),
            rng=int(data["rng"]),
            winner=None if winner is None else int(winner),
            end=None if end is None else str(end),
            # snapshots from before resigning existed have no such key
            resigned=None if data.get("resigned") is None else int(data["resigned"]),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a Mensch ärgere Dich nicht snapshot: {exc}") from None
    if state.players not in cards.TARGETS or len(state.hands) != state.players:
        raise ValueError("not a Mensch ärgere Dich nicht snapshot: wrong number of seats")
    return state
