"""The hard bot for M: a determinized search over what the seat cannot see.

The seat knows its own hand, the table, every collection and the tokens; it does not
know the other hands, the order of the pile or the cards removed at setup
(docs/rules.md M-22). The search samples *worlds*: the cards it has not seen (the
deck minus its hand, the table and the collections) dealt at random into the other
hands, the pile and the removed cards, each with the size the view shows. The other
hands are dealt by what their players did (``engines.m.beliefs``): a card that would
have paid a player more than the move they made is dealt to them less often. In every
world each candidate move is played, followed by the greedy (medium) bot's reply for
the next player (so a card that hands them a scoring phase or tokens is punished in
the worlds where their sampled hand can do it) and, at two players, the seat's own
greedy move after it; the position is then valued as the seat's score against the
best opponent's, a finished game by who won. The move with the best mean over the
worlds is played. With three or four players the playout stops after that one reply:
the players further on move from hands that are guesses, and playing them too made
the search no better than the greedy (docs/benchmarks.md, "Bot levels: M and MÄDN").

Near the end (``ENDGAME_PILE`` cards or fewer left in the pile) the playout goes on
with greedy moves for everyone until the game is over, and is valued by who won: the
game ends at the first scoring phase completed with the pile empty (docs/rules.md
M-16), so whether a move lets the seat or someone else trigger that last phase, and
who is ahead when it comes, decides the game. A won or lost game is a noisy value, so
such a move samples ``ENDGAME_WORLDS`` times the budget's worlds; the moves left are
few and the time cap still holds.

Fair by construction: a world is built from the public facts (the game's public
history among them) and the seat's own hand alone (every hidden field of the state is
replaced), and the sampling seed is the
bot's seed mixed with those facts, so two states that differ only in what the seat
cannot see give the same worlds and the same move. Every world is shared by all
candidates (common random numbers), which keeps the comparison between moves fair
with few worlds.
"""

from __future__ import annotations

from dataclasses import replace

from engines import determinized
from engines.base import JSON, Budget
from engines.m import beliefs, bots, rules
from engines.m.cards import DECK
from engines.m.moves import Move, Pass, Place, parse
from engines.m.scoring import score
from engines.m.state import State
from engines.prng import below, shuffled

HARD_BUDGET = Budget(iterations=8, seconds=1.0)
"""Worlds sampled per move at two and three players (on four placements and the
passes; from four players on ``CROWDED_WORLDS`` times as many on more placements; three
times as many once the end is played out, ``ENDGAME_WORLDS``), capped at 1 s of wall
clock. CPU time a move, the history's reading kept from move to move (2026-12-05, 200
games a count, 2 and 3 players): p50 0.03-0.05 s, p90 0.13-0.14 s, at most 1.4 s,
reached only by a few moves that play the end out, where the cap then stops the
search early; at 4 players (2026-12-06) p50 0.16 s, p90 0.57 s. On four placements 16
worlds were measured no stronger than 8 (docs/benchmarks.md, "Bot levels: M and
MÄDN")."""

CANDIDATES = 4  # placements kept for the search, the greedy estimate's best first
# From four players on, the greedy's ranking is the least sure (three or more others
# move before the seat again): the search keeps more placements and samples more
# worlds. At four players that won first place 1.53x its share over 400 fresh deals,
# where four placements on 8 worlds had won 1.27x over 600 others; on the deals it was
# chosen on, 1.58x against 1.43x for 8 placements (docs/benchmarks.md, 2026-12-06).
CROWDED = 4  # players
CROWDED_CANDIDATES = 12
CROWDED_WORLDS = 2  # times the budget's worlds
WIN = 1000.0  # a won game outweighs any score margin
REPLIES = 1  # the other seats' turns a playout plays: the next player's
PLAYOUT_PLIES = 40  # a bound on one playout's moves (scoring phases take several)
ENDGAME_PILE = 4  # at this pile size or less a playout goes on to the end of the game
ENDGAME_PLIES = 200  # a bound on such a playout (M-18 to M-20 end the game well before)
ENDGAME_WORLDS = 3  # times the budget's worlds for such a move


def _public(state: State, seat: int) -> tuple[object, ...]:
    """The facts ``seat`` may see (docs/rules.md M-22): what the sampling seed mixes in."""
    return (
        state.players,
        seat,
        tuple(sorted(state.hands[seat])),
        state.table,
        state.collections,
        state.tokens,
        tuple(len(hand) for hand in state.hands),
        len(state.pile),
        len(state.removed),
        state.turn,
        state.phase,
        state.last,
        state.lines,
        state.line,
        state.run,
        state.taker,
        state.idle,
        state.history,
    )


def unseen(state: State, seat: int) -> list[int]:
    """The cards ``seat`` has not seen, in deck order: not in its hand, on the table
    or in any collection."""
    seen = set(state.hands[seat]) | set(state.grid.values())
    seen.update(card for cards in state.collections for card in cards)
    return [card for card in range(len(DECK)) if card not in seen]


def sample_world(
    state: State, seat: int, rng: int, weights: dict[int, beliefs.Weights] | None = None
) -> tuple[State, int]:
    """One world: the unseen cards dealt into the other hands, the pile and the removed
    cards at the sizes the view shows; every hidden field of ``state`` replaced. With
    ``weights`` (``beliefs.weights``) each other hand is drawn card by card in proportion
    to its weights, else uniformly."""
    cards, rng = shuffled(rng, unseen(state, seat))
    if weights is None:
        hands, at = determinized.deal(state.hands, seat, cards)
        rest = cards[at:]
    else:
        dealt: list[tuple[int, ...]] = []
        for other, hand in enumerate(state.hands):
            if other == seat or other not in weights:
                dealt.append(hand if other == seat else ())
                continue
            drawn, rng = _draw(rng, cards, weights[other], len(hand))
            dealt.append(drawn)
        hands, rest = tuple(dealt), cards
    pile = tuple(rest[: len(state.pile)])
    removed = tuple(rest[len(state.pile) :])
    # the history is no use inside a world, and keeping it would cost every playout move
    return replace(state, hands=hands, pile=pile, removed=removed, rng=0, history=None), rng


def _draw(
    rng: int, cards: list[int], weights: beliefs.Weights, size: int
) -> tuple[tuple[int, ...], int]:
    """``size`` cards taken out of ``cards``, each in proportion to its weight (uniformly
    once the weights left add up to nothing)."""
    drawn = []
    for _ in range(size):
        total = sum(weights[card] for card in cards)
        point, rng = below(rng, 1 << 53)
        if total > 0:
            aim = point / (1 << 53) * total
            pick = len(cards) - 1
            for index, card in enumerate(cards):
                aim -= weights[card]
                if aim < 0:
                    pick = index
                    break
        else:
            pick = point % len(cards)
        drawn.append(cards.pop(pick))
    return tuple(drawn), rng


def _value(state: State, seat: int) -> float:
    """The seat's score minus the best opponent's; a finished game adds who won."""
    scores = [score(state.tokens[s], state.collections[s]) for s in range(state.players)]
    mine = scores[seat]
    best = max(s for other, s in enumerate(scores) if other != seat)
    value = float(mine - best)
    if state.phase == "over":
        if state.resigned is None and mine >= best:
            value += WIN if mine > best else WIN / 2
        else:
            value -= WIN
    return value


def _playout(state: State, seat: int, seed: int, to_end: bool = False) -> float:
    """Greedy moves for everyone (scoring phases included) until a second turn of
    another seat, or a second own turn of ``seat``, would begin; then the value.
    With ``to_end`` the greedy plays on until the game is over (or for at most
    ``ENDGAME_PLIES`` moves)."""
    own_turns = replies = 0
    for ply in range(ENDGAME_PLIES if to_end else PLAYOUT_PLIES):
        acting = rules.to_act(state)
        if not acting:
            break
        mover = acting[0]
        if state.phase == "play" and not to_end:
            if mover == seat:
                if own_turns == 1:
                    break
                own_turns += 1
            else:
                if replies == REPLIES:
                    break
                replies += 1
        state = rules.play(state, mover, parse(bots._strong(state, mover, seed + ply)))
    return _value(state, seat)


def candidates(state: State, seat: int) -> list[Move]:
    """The moves worth searching: every line and take; the best placements by the greedy
    estimate, and the passes (a swap keeps only the hand card that fits least)."""
    moves = rules.legal_moves(state, seat)
    if state.phase != "play":
        return moves
    exposure = bots._Exposure(state, bots._unseen(state, seat))
    places = [m for m in moves if isinstance(m, Place)]
    ranked = sorted(places, key=lambda m: -bots._place_value(state, seat, m, exposure))
    ranked = ranked[: CROWDED_CANDIDATES if state.players >= CROWDED else CANDIDATES]
    fits = {m.card for m in places}
    passes = [m for m in moves if isinstance(m, Pass)]
    if passes:
        spare = min(state.hands[seat], key=lambda card: (card in fits, DECK[card].value))
        passes = [m for m in passes if m.swap is None or m.swap == spare]
    found: list[Move] = [*ranked, *passes]
    return found


def choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    """The move the search picks for ``seat`` within ``budget``, from what the seat may see."""
    moves = candidates(state, seat)
    if len(moves) == 1:
        return moves[0].json()
    weights = beliefs.weights(state, seat)
    to_end = len(state.pile) <= ENDGAME_PILE
    if budget.iterations is not None:
        worlds = budget.iterations * (CROWDED_WORLDS if state.players >= CROWDED else 1)
        budget = replace(budget, iterations=worlds * (ENDGAME_WORLDS if to_end else 1))
    best = determinized.best(
        len(moves),
        budget,
        determinized.seeded(seed, _public(state, seat)),
        lambda rng: sample_world(state, seat, rng, weights),
        lambda world, index, play_seed: _playout(
            rules.play(world, seat, moves[index]), seat, play_seed, to_end
        ),
    )
    return moves[best].json()
