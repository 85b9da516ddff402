"""The hard bot: a Monte Carlo tree search over the placement tables (issue 24).

Following the published shape of the strongest Blokus programs, the search is
guided by cheap move features rather than uniform chance:

- Each tree node lists the colour to move's legal placements, scores them with the
  features the greedy bot uses (piece size, own corners opened and spent, rivals'
  corners taken, teammates' corners spared, the way to the centre in the opening),
  keeps the best ``_WIDTH`` and turns the scores into priors for a PUCT rule.
  Progressive widening lets a node consider only its first few children at first
  and more as its visit count grows. On Duo's board the priors add two features in
  the spirit of Pentobi's: squares beside a rival's corners (``_DUO_NEAR``; a piece
  there narrows what fits the rival) and the free squares a placement closes to its
  own colour (``_DUO_SELF``); measured against Pentobi's GTP engine
  (docs/benchmarks.md "Bot levels: Blokus").
- Playouts pick each move by a small tournament: a few legal placements drawn at
  random, the best by the same features (cheaper ones) wins. Big pieces go first,
  as good players place them.
- A playout stops after ``_CUT`` moves on a four-colour board, ``_DUO_CUT`` on
  Duo's, and the position is scored per colour by squares placed plus
  ``_CORNER_WEIGHT`` per open corner (a playout to the end of a 20x20 game cost
  some 10 ms, and of a Duo game from its opening over 1 ms, so the time cap allowed
  too few iterations).
- A playout runs on a compact state of its own (integer
  masks and per-colour candidate lists), never the engine's ``place``: a
  placement stays in a colour's list while it misses the colour's forbidden mask,
  new ones come only from the new corners of the colour's own piece, and a list is
  filtered only when its colour is to move.

The result of a playout is, for each seat, a win (1), draw (0.5) or loss (0) by
first place over every other seat, nudged by the score margin, so the search
prefers winning by more. Each node backs up the value of the seat that moves
there (the shared green of a three-player game is moved by its seat in turn and
counts for nobody, docs/rules.md BLOKUS-10). Randomness comes only from
``engines.prng``, seeded by the bot's seed and the position (``bots.stream``), so
a budget without a time limit gives the same move every time.
"""

from __future__ import annotations

import heapq
import math
import time
from functools import cache

from engines.base import JSON, Budget
from engines.blokus import bots, rules
from engines.blokus.pieces import (
    ALL_PIECES_SQUARES,
    MONOMINO,
    PIECE_SIZES,
    Placements,
    piece_bit,
    placements,
)
from engines.blokus.rules import GREEN, State, gather

# The time cap decides: a move searches until 0.9 s have passed or its choice is
# settled (the iteration count only bounds the tree's memory), which keeps every move
# under a second on the project's machine (docs/benchmarks.md "Bot levels: Blokus").
HARD_BUDGET = Budget(iterations=20_000, seconds=0.9)

_WIDTH = 24  # children kept per node, best priors first
_WIDEN = 3  # children open at a node's first visit; one more per doubling of visits
_PUCT = 1.2  # exploration constant
_PRIOR_TEMPERATURE = 8.0  # feature-score points per factor e of the prior
_TOURNAMENT = 6  # placements drawn per playout move
_MARGIN_WEIGHT = 0.1  # share of a playout's value that the score margin decides
_CUT = 24  # four-colour boards: playout moves before the evaluation decides
_DUO_CUT = 16  # Duo: the same, even so that both colours have moved as often
_CORNER_WEIGHT = 1.0  # squares an open corner of one's own is worth at the cut
_DUO_NEAR = 8  # Duo priors: per empty square beside a rival's corner a placement covers
_DUO_SELF = 2  # Duo priors: per free square it closes to its own colour (edge contact)

_SETTLED_EVERY = 32  # iterations between checks whether the root's choice is settled

_MASK64 = (1 << 64) - 1
_REFILL = 1 << 16  # fewer random bits left than this: draw a fresh word


class _Board:
    """A compact, mutable position for the search: one int or list per colour."""

    __slots__ = ("attach", "count", "forbidden", "last", "lists", "out", "squares", "turn")

    def __init__(self) -> None:
        self.forbidden: list[int] = []
        self.attach: list[int] = []
        self.lists: list[list[int]] = []
        self.out: list[bool] = []
        self.squares: list[int] = []
        self.count: list[int] = []
        self.last: list[int] = []
        self.turn: int | None = None

    def copy(self) -> _Board:
        other = _Board.__new__(_Board)
        other.forbidden = self.forbidden[:]
        other.attach = self.attach[:]
        # Lists are replaced, never changed in place, so sharing them is safe.
        other.lists = self.lists[:]
        other.out = self.out[:]
        other.squares = self.squares[:]
        other.count = self.count[:]
        other.last = self.last[:]
        other.turn = self.turn
        return other


def board_of(state: State) -> _Board:
    """The search's compact copy of an engine position."""
    table = state.table
    board = _Board()
    board.forbidden = list(state.forbidden)
    board.attach = list(state.attach)
    board.lists = [
        [] if state.out[colour] else rules.legal_placements(state, colour)
        for colour in range(state.colours)
    ]
    board.out = list(state.out)
    board.squares = [sum(PIECE_SIZES[table.piece[pid]] for pid in ids) for ids in state.placed]
    board.count = [len(ids) for ids in state.placed]
    board.last = [table.piece[ids[-1]] if ids else -1 for ids in state.placed]
    board.turn = state.turn
    return board


def legal(board: _Board, colour: int, table: Placements) -> list[int]:
    """The colour's legal placements now: its list, stale entries dropped (kept so)."""
    forbidden = board.forbidden[colour]
    masks = table.check_mask
    found = [pid for pid in board.lists[colour] if not masks[pid] & forbidden]
    board.lists[colour] = found
    return found


def play(board: _Board, colour: int, pid: int, table: Placements) -> None:
    """``colour`` places ``pid`` (legal); its new corners bring new candidates."""
    cells = table.cell_mask[pid]
    forbidden = board.forbidden
    attach = board.attach
    for other in range(len(forbidden)):
        forbidden[other] |= cells
        attach[other] &= ~cells
    piece = table.piece[pid]
    own = forbidden[colour] | table.adj[pid] | piece_bit(table.size, piece)
    forbidden[colour] = own
    if board.count[colour]:
        old = attach[colour] & ~own
        found = board.lists[colour][:]
    else:
        # The first piece leaves the start points behind: later pieces need a corner.
        old = 0
        found = []
    fresh = table.corner[pid] & ~own & ~old
    attach[colour] = old | fresh
    # A placement through an old attach cell is in the list already.
    gather(found, table, own, fresh, own | old)
    board.lists[colour] = found
    board.squares[colour] += PIECE_SIZES[piece]
    board.count[colour] += 1
    board.last[colour] = piece


def advance(board: _Board, colour: int, table: Placements) -> None:
    """Pass the turn on from ``colour`` to the next colour that can place."""
    count = len(board.out)
    for step in range(1, count + 1):
        candidate = (colour + step) % count
        if board.out[candidate]:
            continue
        if legal(board, candidate, table):
            board.turn = candidate
            return
        board.out[candidate] = True
    board.turn = None


class _Rules:
    """What the search needs to know of the variant: seats, teams and scoring."""

    def __init__(self, state: State) -> None:
        self.colours = state.colours
        self.players = state.players
        self.three = state.variant == "classic" and state.players == 3
        self.teams = [rules.owned_colours(state, seat) for seat in range(state.players)]
        owner = [-1] * state.colours
        for seat, colours in enumerate(self.teams):
            for colour in colours:
                owner[colour] = seat
        self.owner = owner
        size = state.table.size
        self.size = size
        self.centre = size // 2

    def controller(self, board: _Board, colour: int) -> int:
        if self.three and colour == GREEN:
            return board.count[GREEN] % 3
        return self.owner[colour]

    def values(self, board: _Board, final: bool = True) -> list[float]:
        """Each seat's value of the position: first place, nudged by the margin.

        A position cut short (not ``final``) is scored by squares placed plus
        ``_CORNER_WEIGHT`` per open corner of each colour still in the game.
        """
        scores: list[float] = []
        for colours in self.teams:
            total = 0.0
            for colour in colours:
                if not final:
                    total += board.squares[colour]
                    if not board.out[colour]:
                        total += _CORNER_WEIGHT * board.attach[colour].bit_count()
                elif board.count[colour] == len(PIECE_SIZES):
                    total += 15 + (5 if board.last[colour] == MONOMINO else 0)
                else:
                    total += board.squares[colour] - ALL_PIECES_SQUARES
            scores.append(total)
        values = []
        for seat, mine in enumerate(scores):
            best = max(score for other, score in enumerate(scores) if other != seat)
            margin = mine - best
            win = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            nudge = 0.5 + margin / (2 * (abs(margin) + 10))
            values.append((1 - _MARGIN_WEIGHT) * win + _MARGIN_WEIGHT * nudge)
        return values


def feature_scores(
    board: _Board, colour: int, ids: list[int], table: Placements, variant: _Rules
) -> list[int]:
    """The greedy features' score of each placement (higher is better)."""
    seat = variant.owner[colour]
    live = [c for c in range(variant.colours) if not board.out[c] and variant.owner[c] >= 0]
    team = variant.teams[seat] if seat >= 0 else []
    rivals = 0
    friends = 0
    for other in live:
        if other in team:
            if other != colour:
                friends |= board.attach[other]
        else:
            rivals |= board.attach[other]
    forbidden = board.forbidden[colour]
    attach = board.attach[colour]
    opening = board.count[colour] < 4
    distance = centre_distance(table.size)
    cell_mask, adj, corner, piece = table.cell_mask, table.adj, table.corner, table.piece
    scores = []
    if variant.colours == 2:
        # Duo: also count the squares beside a rival's corners that both colours may
        # still use (a piece there narrows what fits the rival's corner) and the free
        # squares a placement closes to its own colour by touching them along an edge.
        taken = 0
        for mask in board.forbidden:
            taken |= mask
        rival_near = table.edges(rivals) & ~taken & ~rivals
        free = ~forbidden & table.board
        for pid in ids:
            cells = cell_mask[pid]
            near = adj[pid]
            score = (
                12 * PIECE_SIZES[piece[pid]]
                + 3 * (corner[pid] & ~(forbidden | near | cells | attach)).bit_count()
                - 2 * (attach & (cells | near)).bit_count()
                + 4 * (rivals & cells).bit_count()
                + _DUO_NEAR * (rival_near & cells).bit_count()
                - _DUO_SELF * (free & near).bit_count()
            )
            if opening:
                score -= 6 * distance[pid]
            scores.append(score)
        return scores
    for pid in ids:
        cells = cell_mask[pid]
        near = adj[pid]
        fresh = (corner[pid] & ~(forbidden | near | cells | attach)).bit_count()
        spent = (attach & (cells | near)).bit_count()
        score = (
            12 * PIECE_SIZES[piece[pid]]
            + 3 * fresh
            - 2 * spent
            + 4 * (rivals & cells).bit_count()
            - 4 * (friends & cells).bit_count()
        )
        if opening:
            score -= 6 * distance[pid]
        scores.append(score)
    return scores


@cache
def centre_distance(size: int) -> tuple[int, ...]:
    """Per placement id, the distance (in steps) from its nearest cell to the board's middle."""
    table = placements(size)
    centre = size // 2
    return tuple(
        min(abs(i // size - centre) + abs(i % size - centre) for i in cells)
        for cells in table.cells
    )


class _Node:
    """A position in the tree: the colour to move there, its best moves and their edges.

    A node is made when the search first reaches its position, but its moves are
    scored only when the search comes back to go through it (``expand``): most nodes
    at the tree's edge are never visited again, and scoring every legal placement
    costs as much as a playout.
    """

    __slots__ = (
        "board",
        "children",
        "colour",
        "edge_n",
        "edge_w",
        "moves",
        "priors",
        "seat",
        "visits",
    )

    def __init__(self, board: _Board, variant: _Rules) -> None:
        colour = board.turn
        self.visits = 0
        self.children: list[_Node | None] = []
        self.moves: list[int] = []
        self.priors: list[float] = []
        self.edge_n: list[int] = []
        self.edge_w: list[float] = []
        self.colour = -1 if colour is None else colour
        self.seat = -1 if colour is None else variant.controller(board, colour)
        self.board: _Board | None = None if colour is None else board.copy()

    def expand(self, table: Placements, variant: _Rules) -> None:
        """Score the colour's legal placements; keep the best as moves, with priors."""
        board = self.board
        assert board is not None
        self.board = None
        colour = self.colour
        ids = board.lists[colour]
        scores = feature_scores(board, colour, ids, table, variant)
        ranked = sorted(zip(scores, ids, strict=True), key=lambda pair: (-pair[0], pair[1]))
        ranked = ranked[:_WIDTH]
        top = ranked[0][0]
        weights = [math.exp((score - top) / _PRIOR_TEMPERATURE) for score, _ in ranked]
        total = sum(weights)
        self.moves = [pid for _, pid in ranked]
        self.priors = [weight / total for weight in weights]
        self.edge_n = [0] * len(ranked)
        self.edge_w = [0.0] * len(ranked)
        self.children = [None] * len(ranked)

    def select(self) -> int:
        visits = self.visits
        open_count = min(len(self.moves), _WIDEN + max(0, visits).bit_length())
        root = math.sqrt(visits + 1)
        mean = sum(self.edge_w) / visits if visits else 0.5
        best = 0
        best_value = -1e18
        edge_n, edge_w, priors = self.edge_n, self.edge_w, self.priors
        for index in range(open_count):
            n = edge_n[index]
            q = edge_w[index] / n if n else mean
            value = q + _PUCT * priors[index] * root / (1 + n)
            if value > best_value:
                best_value, best = value, index
        return best


def _playout(
    board: _Board, table: Placements, variant: _Rules, rng: int
) -> tuple[list[float], int]:
    """Play the board out with the tournament policy; each seat's value and the rng state.

    The lists are not filtered here: a drawn placement that has gone stale is dropped
    from its list on the spot (each at most once), and a colour whose list runs dry
    at its turn is out.
    """
    cell_mask, corner, piece, check = table.cell_mask, table.corner, table.piece, table.check_mask
    forbidden_all = board.forbidden
    attach_all = board.attach
    lists = board.lists = [ids[:] for ids in board.lists]
    out = board.out
    colours = len(out)
    owner = variant.owner
    teams = variant.teams
    colour = board.turn
    draw = 0
    left = _CUT if colours == 4 else _DUO_CUT
    while colour is not None:
        if left == 0:
            board.turn = colour
            return variant.values(board, final=False), rng
        left -= 1
        ids = lists[colour]
        forbidden = forbidden_all[colour]
        attach = attach_all[colour]
        seat = owner[colour]
        team = teams[seat] if seat >= 0 else ()
        rivals = 0
        for other in range(colours):
            if other not in team and not out[other] and owner[other] >= 0:
                rivals |= attach_all[other]
        best = -1
        best_score = -1
        picked = 0
        while picked < _TOURNAMENT and ids:
            if draw < _REFILL:
                # prng.next_u64 (SplitMix64), inlined
                rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
                z = rng
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                draw = (z ^ (z >> 31)) | 1 << 64
            n = len(ids)
            index = draw % n
            draw //= n
            pid = ids[index]
            if check[pid] & forbidden:
                ids[index] = ids[-1]
                ids.pop()
                continue
            picked += 1
            cells = cell_mask[pid]
            score = (
                16 * PIECE_SIZES[piece[pid]]
                + 2 * (corner[pid] & ~(forbidden | cells | attach)).bit_count()
                + 3 * (rivals & cells).bit_count()
            )
            if score > best_score:
                best_score, best = score, pid
        if best < 0:
            out[colour] = True
        else:
            play(board, colour, best, table)
        nxt = None
        for step in range(1, colours + 1):
            candidate = (colour + step) % colours
            if not out[candidate]:
                nxt = candidate
                break
        colour = nxt
    board.turn = None
    return variant.values(board), rng


def choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    """The move the search picks for ``seat`` within ``budget``, from what the seat may see."""
    bots._check_turn(state, seat)
    return bots._move(state, search(state, seed, budget))


def search(state: State, seed: int, budget: Budget) -> int:
    """The placement id the tree search settles on for the colour to move."""
    table = state.table
    variant = _Rules(state)
    start = board_of(state)
    root = _Node(start, variant)
    root.expand(table, variant)
    if len(root.moves) == 1:
        return root.moves[0]
    rng = bots.stream(state, seed)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    iterations = budget.iterations
    started = time.perf_counter()
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if (
            done % _SETTLED_EVERY == 0
            and done
            and _settled(root, done, iterations, started, deadline)
        ):
            break
        done += 1
        board = start.copy()
        node = root
        path: list[tuple[_Node, int]] = []
        while node.colour >= 0:
            if node.board is not None:
                node.expand(table, variant)
            index = node.select()
            path.append((node, index))
            play(board, node.colour, node.moves[index], table)
            advance(board, node.colour, table)
            child = node.children[index]
            if child is None:
                node.children[index] = _Node(board, variant)
                break
            node = child
        values, rng = _playout(board, table, variant, rng)
        for parent, index in path:
            parent.visits += 1
            parent.edge_n[index] += 1
            parent.edge_w[index] += values[parent.seat]
    best = max(range(len(root.moves)), key=lambda i: (root.edge_n[i], -i))
    return root.moves[best]


def _settled(
    root: _Node, done: int, iterations: int | None, started: float, deadline: float | None
) -> bool:
    """Whether no other root move can catch up with the most visited one in what is left.

    What is left is the iterations the budget still allows and, under a time limit, as
    many as the time left runs at the pace so far (an estimate). With an iteration
    budget alone the search picks the same move as if it had run them all.
    """
    left = math.inf if iterations is None else iterations - done
    if deadline is not None:
        now = time.perf_counter()
        left = min(left, done * (deadline - now) / max(now - started, 1e-9))
    first, second = heapq.nlargest(2, root.edge_n)
    return first - second > left
