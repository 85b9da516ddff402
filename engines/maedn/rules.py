"""The rules of Mensch ärgere Dich nicht: Das Kartenspiel (docs/rules.md MAEDN-1 to MAEDN-18).

On your turn you do exactly one thing: start a row, extend a row, or — only when
neither is possible — discard a die. Then you draw back to two dice. The figure a
play asks for is taken from the middle if a copy lies there, else from your own
rows, else stolen from another player. Reaching exactly 40 finishes a row for
points; enough points win at once.

Judgements where the rulebook is silent (each an item of docs/rules.md, also named
where it is applied):

* A figure always exists somewhere: finished rows return to the middle, and the
  40 never stays in a row, so every legal play can take its figure (docs/rules.md
  MAEDN-7).
* Taking from your own rows is never a steal, and needs no ``"from"``. Starting a
  row may take the figure from one of your own rows too; if it was that row's
  only figure, the row vanishes and the figure opens a new row at the end
  (docs/rules.md MAEDN-11).
* The three-row limit is counted before the move: with three open rows you may
  not start, even if taking the figure would empty one of them (docs/rules.md
  MAEDN-4).
* If one other player holds both copies of a figure (in two rows), there is no
  choice of player: it comes from that player's row started first (docs/rules.md
  MAEDN-10).
* ``"from"`` is accepted only when two other players hold the figure; naming a
  seat when there is no choice is refused, so every legal move has one spelling
  (docs/rules.md MAEDN-8). The two dice of a start may come in either order; their
  sum is what counts (docs/rules.md MAEDN-4).
* A dead end needs three open rows: with fewer, a one-die start is always legal
  (docs/rules.md MAEDN-14).
* Termination guard (docs/rules.md MAEDN-17): if ``QUIET_ROUNDS``
  full rounds pass without anyone finishing a row, the game ends with the current
  scores (ranked by points, no winner).
  Every finish scores at least two points, so with this rule every game ends.
  The longest stretches without a finish measured were 63 rounds over 3,000
  random games and 105 rounds over 150 four-player games of the strong bot
  against itself (it keeps stealing from whoever is close), so at 300 rounds
  the rule only ends games in which nobody is getting anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engines.base import IllegalMove
from engines.maedn import cards
from engines.maedn.moves import DISCARD, EXTEND, START, Move, parse_move
from engines.maedn.state import END_STALLED, END_TARGET, Row, Rows, State, draw_up

MIDDLE = "middle"
OWN = "own_row"
STEAL = "stolen"

QUIET_ROUNDS = 300
"""Full rounds without a finished row after which the game ends as it stands."""


@dataclass(frozen=True)
class Take:
    """Where a figure comes from: the middle, or row ``row`` of seat ``owner``.

    ``row`` counts the owner's open rows before the move, oldest first.
    """

    figure: int
    source: str
    owner: int | None = None
    row: int | None = None


@dataclass(frozen=True)
class Board:
    """The public part of a position after a play, before anyone draws."""

    rows: tuple[Rows, ...]
    middle: tuple[int, ...]
    finished: tuple[Rows, ...]
    scores: tuple[int, ...]
    completed: Row | None
    row: int | None


def _holders(state: State, figure: int) -> list[tuple[int, int]]:
    """(seat, row) for each seat holding ``figure``, seats ascending, each seat's oldest row."""
    found = []
    for seat, rows in enumerate(state.rows):
        for index, row in enumerate(rows):
            if figure in row:
                found.append((seat, index))
                break
    return found


def takes(state: State, seat: int, figure: int) -> list[Take]:
    """Every way ``seat`` may take ``figure`` (docs/rules.md MAEDN-7 to MAEDN-10).

    From the middle if a copy lies there; else from your own row (started first,
    if both copies are yours); else from the other player who has it - one
    ``Take`` per holder, so two entries mean the mover chooses the victim. A
    player holding both copies gives up the copy in the row they started first.
    """
    if state.middle[figure] > 0:
        return [Take(figure, MIDDLE)]
    holders = _holders(state, figure)
    for owner, row in holders:
        if owner == seat:
            return [Take(figure, OWN, seat, row)]
    if not holders:
        raise RuntimeError(f"figure {figure} is nowhere: the state is corrupt")
    return [Take(figure, STEAL, owner, row) for owner, row in holders]


def _with_takes(state: State, seat: int, move: Move, figure: int) -> list[tuple[Move, Take]]:
    options = takes(state, seat, figure)
    if len(options) == 1:
        return [(move, options[0])]
    return [(replace(move, source=take.owner), take) for take in options]


def plays(state: State, seat: int) -> list[tuple[Move, Take]]:
    """Every start and extend ``seat`` may make now, each with the figure's source.

    Start (docs/rules.md MAEDN-4): only with fewer than three open rows —
    finished rows don't count — with one die or both (their sum). Extend: one die
    added to a row's last figure, never past 40 (docs/rules.md MAEDN-5).
    """
    if state.over or seat != state.turn:
        return []
    hand = state.hands[seat]
    rows = state.rows[seat]
    faces = sorted(set(hand))
    found: list[tuple[Move, Take]] = []
    if len(rows) < cards.MAX_OPEN_ROWS:
        starts: list[tuple[int, ...]] = [(face,) for face in faces]
        if len(hand) == cards.HAND_SIZE:
            starts.append(hand)
        for dice in starts:
            found += _with_takes(state, seat, Move(START, dice), sum(dice))
    for index, row in enumerate(rows):
        for face in faces:
            figure = row[-1] + face
            if figure <= cards.GOAL:
                extend = Move(EXTEND, (face,), row=index)
                found += _with_takes(state, seat, extend, figure)
    return found


def has_play(state: State, seat: int) -> bool:
    """Whether ``seat`` holds any start or extend (the must-play rule's test)."""
    hand = state.hands[seat]
    if not hand:
        return False
    rows = state.rows[seat]
    if len(rows) < cards.MAX_OPEN_ROWS:
        return True
    return any(row[-1] + min(hand) <= cards.GOAL for row in rows)


def legal(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat``: its plays, or else one discard per distinct die.

    Must play (docs/rules.md MAEDN-13): a discard is legal only when no start or
    extend is (MAEDN-14).
    """
    if state.over or seat != state.turn:
        return []
    found = [move for move, _ in plays(state, seat)]
    if found:
        return found
    return [Move(DISCARD, (face,)) for face in sorted(set(state.hands[seat]))]


def _refuse(message: str, code: str) -> IllegalMove:
    return IllegalMove(message, code=code)


def _check_dice(hand: tuple[int, ...], dice: tuple[int, ...]) -> None:
    left = list(hand)
    for die in dice:
        if die not in left:
            shown = " and ".join(str(d) for d in hand) or "nothing"
            raise _refuse(f"You hold no {die} to play (your dice: {shown}).", "die_not_in_hand")
        left.remove(die)


def _choose_take(state: State, seat: int, move: Move, figure: int) -> Take:
    options = takes(state, seat, figure)
    if len(options) == 1:
        if move.source is not None:
            raise _refuse(
                f"Figure {figure} can only come from one place; leave out 'from'.",
                "from_not_allowed",
            )
        return options[0]
    victims = [take.owner for take in options]
    names = " or ".join(f"seat {victim}" for victim in victims)
    if move.source is None:
        raise _refuse(
            f"Two players hold figure {figure}: say whom you take it from ({names}).",
            "from_required",
        )
    for take in options:
        if take.owner == move.source:
            return take
    raise _refuse(
        f"Seat {move.source} does not hold figure {figure}; take it from {names}.", "bad_from"
    )


def check(state: State, seat: int, raw: object) -> tuple[Move, Take | None]:
    """The parsed move and its figure's source, or ``IllegalMove`` with a reason."""
    move = parse_move(raw)
    if state.over:
        raise _refuse("The game is over.", "game_over")
    if seat != state.turn:
        raise _refuse(f"It is seat {state.turn}'s turn, not seat {seat}'s.", "not_your_turn")
    hand = state.hands[seat]
    _check_dice(hand, move.dice)
    rows = state.rows[seat]
    if move.kind == DISCARD:
        if has_play(state, seat):
            raise _refuse(
                "You may only discard when you can neither start nor extend a row.", "must_play"
            )
        return move, None
    if move.kind == START:
        if len(rows) >= cards.MAX_OPEN_ROWS:
            raise _refuse(
                f"You already have {cards.MAX_OPEN_ROWS} open rows; extend one instead.",
                "too_many_rows",
            )
        figure = sum(move.dice)
    else:
        assert move.row is not None
        if move.row >= len(rows):
            raise _refuse(
                f"You have no row {move.row}; your open rows are numbered 0 to {len(rows) - 1}."
                if rows
                else "You have no open row to extend; start one.",
                "unknown_row",
            )
        figure = rows[move.row][-1] + move.dice[0]
        if figure > cards.GOAL:
            raise _refuse(
                f"Row {move.row} ends at {rows[move.row][-1]}; a {move.dice[0]} would pass 40.",
                "past_40",
            )
    return move, _choose_take(state, seat, move, figure)


def settle(state: State, seat: int, move: Move, take: Take | None) -> Board:
    """Lay the figure: remove it from its source, add it to the row, score a finish.

    Taking from inside a row closes the gap; a row whose only figure is taken
    ceases to exist and the rows after it move up one place (docs/rules.md
    MAEDN-12). A row reaching exactly 40 is finished: it scores 1 per figure plus 1
    per star and its figures return to the middle (docs/rules.md MAEDN-15).
    """
    if take is None:
        return Board(state.rows, state.middle, state.finished, state.scores, None, None)
    rows = [list(seat_rows) for seat_rows in state.rows]
    middle = list(state.middle)
    finished = list(state.finished)
    scores = list(state.scores)
    target = move.row
    if take.source == MIDDLE:
        middle[take.figure] -= 1
    else:
        assert take.owner is not None and take.row is not None
        owner_rows = rows[take.owner]
        rest = tuple(figure for figure in owner_rows[take.row] if figure != take.figure)
        if rest:
            owner_rows[take.row] = rest
        else:
            del owner_rows[take.row]
            if take.owner == seat and target is not None and take.row < target:
                target -= 1
    mine = rows[seat]
    completed: Row | None = None
    if target is None:
        mine.append((take.figure,))
        target = len(mine) - 1
    else:
        grown = (*mine[target], take.figure)
        if take.figure == cards.GOAL:
            completed = grown
            del mine[target]
            for figure in grown:
                middle[figure] += 1
            finished[seat] = (*finished[seat], grown)
            scores[seat] += cards.row_points(grown)
        else:
            mine[target] = grown
    return Board(
        tuple(tuple(seat_rows) for seat_rows in rows),
        tuple(middle),
        tuple(finished),
        tuple(scores),
        completed,
        target,
    )


def advance(state: State, seat: int, move: Move, take: Take | None) -> State:
    """The whole turn: lay the figure, discard the dice played, draw back to two.

    The game ends at once when the mover reaches the target (docs/rules.md
    MAEDN-16): the winner does not draw back. It also ends by the termination
    guard (docs/rules.md MAEDN-17) after ``QUIET_ROUNDS`` rounds
    without a finished row; that turn is complete, draw included.
    """
    board = settle(state, seat, move, take)
    left = list(state.hands[seat])
    for die in move.dice:
        left.remove(die)
    discard = (*state.discard, *move.dice)
    quiet = 0 if board.completed is not None else state.quiet + 1
    winner: int | None = None
    end: str | None = None
    pile, rng = state.pile, state.rng
    if board.scores[seat] >= state.target:
        # the winning move ends the game at once: nobody draws after it
        winner, end = seat, END_TARGET
        hand = tuple(sorted(left))
    else:
        if quiet >= QUIET_ROUNDS * state.players:
            end = END_STALLED
        hand, pile, discard, rng = draw_up(left, state.pile, discard, state.rng)
    hands = tuple(hand if other == seat else held for other, held in enumerate(state.hands))
    return State(
        players=state.players,
        turn=state.turn if end else (seat + 1) % state.players,
        hands=hands,
        pile=pile,
        discard=discard,
        middle=board.middle,
        rows=board.rows,
        finished=board.finished,
        scores=board.scores,
        quiet=quiet,
        rng=rng,
        winner=winner,
        end=end,
    )


def play(state: State, seat: int, raw: object) -> State:
    """The state after ``seat`` plays ``raw``; ``IllegalMove`` if it may not."""
    move, take = check(state, seat, raw)
    return advance(state, seat, move, take)
