"""What a seat of M may see: the only code that decides what leaves the server.

Hidden in M (docs/rules.md M-22): the other hands (only their sizes show), the order of the draw pile
(only its size), the cards removed at setup (only how many), and the PRNG state.
Everything else — table, tokens, collections — lies face up on the real table.

The view, a JSON object (a renderer relies on this shape)::

    {
      "game": "m",
      "players": 3,
      "seat": 0,                     # the seat looking; null for a spectator
      "phase": "play",               # "play" | "line" | "take" | "over"
      "turn": 1,                     # whose turn it is (the placer during a scoring phase)
      "to_act": [1],                 # who must move now ([] once over)
      "expect": "place_or_pass",     # "place_or_pass" | "line" | "take" | null (over)
      "hand": [Card, ...],           # the looking seat's cards; null for a spectator
      "hand_sizes": [4, 4, 4],
      "pile": 41,                    # cards left to draw
      "removed": 30,                 # cards put away unseen at setup
      "tokens": [6, 6, 6],
      "collections": [[Card, ...], [], []],   # face up, in the order taken
      "table": [{"at": [r, c], "card": Card}, ...],   # sorted by row, then column
      "box": {"top": 0, "left": 0, "bottom": 1, "right": 4,
              "height": 2, "width": 5, "limit": 6},
      "open_cells": [[r, c], ...],   # empty cells beside a card that keep the table
                                     # within 6x6 (matching not checked: that depends
                                     # on the card; the legal moves say which fit)
      "pays": null | [{"at": [r, c], "owed": 2, "earned": 2,
                       "paid_by": [{"seat": 2, "tokens": 2}], "lost": 0}, ...],
                                     # per open cell, in the same order: the tokens a
                                     # card placed there now would bring the seat
                                     # looking (the same for every card); null for a
                                     # spectator
      "last": [r, c] | null,         # the latest placement, while its card is there
      "choice": null | {"lines": {"row": [[r, c], ...], "col": [[r, c], ...]}},
                                     # phase "line": the two runs the placer chooses from
      "scoring": null | {            # phase "take"
        "line": "row" | "col",
        "placer": 1, "taker": 2,
        "final": false,              # true: the pile is empty, this phase ends the game
        "run": [{"at": [r, c], "card": Card, "takeable": true}, ...]
      },
      "scores": [{"tokens": 6, "token_points": 60, "colours": {"red": 30},
                  "best": ["red"], "total": 90}, ...],   # preview per seat
      "ended": null | "final_scoring" | "hands_empty" | "all_passed" | "jammed" | "guard"
               | "resigned",         # ("stalled" only in games of rules version 1)
      "resigned": null | 2,          # the seat that resigned (it ranks last)
      "result": null | {"scores": [...], "ranks": [...]}
    }

``Card`` is ``{"id": "red-20-cube", "colour": "red", "value": 20, "symbol": "cube"}``
(``symbol`` is null on the 0-cards).
"""

from __future__ import annotations

from engines.base import JSON, ranks_with_last, shared_ranks
from engines.m import table
from engines.m.cards import BOX, DECK
from engines.m.moves import Line, Move, Pass, Place
from engines.m.rules import pay, qualifying_lines, takeable, to_act
from engines.m.scoring import breakdown, score
from engines.m.state import State

_EXPECT = {"play": "place_or_pass", "line": "line", "take": "take", "over": None}


def _card(card: int) -> dict[str, object]:
    return DECK[card].describe()


def result(state: State) -> JSON | None:
    """Scores and shared ranks once the game is over (docs/rules.md M-21, ALL-4)."""
    if state.phase != "over":
        return None
    scores = [score(state.tokens[s], state.collections[s]) for s in range(state.players)]
    if state.resigned is not None:  # docs/rules.md M-23
        return {"scores": scores, "ranks": ranks_with_last(scores, state.resigned)}
    return {"scores": scores, "ranks": shared_ranks(scores)}


def _scoring(state: State) -> JSON | None:
    if state.phase != "take" or state.line is None:
        return None
    grid = state.grid
    free = set(takeable(state))
    return {
        "line": state.line,
        "placer": state.turn,
        "taker": state.taker,
        "final": not state.pile,
        "run": [
            {"at": list(cell), "card": _card(grid[cell]), "takeable": cell in free}
            for cell in state.run
        ],
    }


def _choice(state: State) -> JSON | None:
    if state.phase != "line" or state.last is None:
        return None
    lines = {
        line: [list(c) for c in table.run(state.grid, state.last, line)] for line in state.lines
    }
    return {"lines": lines}


def _tokens(tokens: tuple[int, ...], placer: int, owed: int) -> JSON:
    """Who pays ``placer`` what for a placement owing ``owed`` tokens
    (docs/rules.md M-6); shared by the view's ``pays`` and the log."""
    _, paid = pay(tokens, placer, owed)
    return {
        "owed": owed,
        "earned": sum(paid),
        "paid_by": [{"seat": s, "tokens": t} for s, t in enumerate(paid) if t],
        "lost": owed - sum(paid),
    }


def _pays(state: State, seat: int | None) -> list[JSON] | None:
    """For each open cell, what a card placed there now would pay ``seat``.

    docs/rules.md M-6: k orthogonal neighbours owe k-1 tokens, so the
    payment depends on the cell and the (public) tokens, never on the card or on
    anything hidden. The browser holds no rules, so the server says it.
    """
    if seat is None:
        return None
    return [
        {"at": list(cell), **_tokens(state.tokens, seat, near.bit_count() - 1)}
        for cell, near in state.spots
    ]


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` (``None``: a spectator) may see of ``state``; shape in the module doc."""
    top, left, bottom, right = table.bounds(state.grid)
    looking = seat if seat is not None and 0 <= seat < state.players else None
    return {
        "game": "m",
        "players": state.players,
        "seat": looking,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": to_act(state),
        "expect": _EXPECT[state.phase],
        "hand": [_card(c) for c in state.hands[looking]] if looking is not None else None,
        "hand_sizes": [len(hand) for hand in state.hands],
        "pile": len(state.pile),
        "removed": len(state.removed),
        "tokens": list(state.tokens),
        "collections": [[_card(c) for c in cards] for cards in state.collections],
        "table": [{"at": [r, c], "card": _card(card)} for r, c, card in state.table],
        "box": {
            "top": top,
            "left": left,
            "bottom": bottom,
            "right": right,
            "height": bottom - top + 1,
            "width": right - left + 1,
            "limit": BOX,
        },
        "open_cells": [list(cell) for cell, _ in state.spots],
        "pays": _pays(state, looking),
        # the latest placement, while its card is still on the table
        "last": list(state.last) if state.last in state.grid else None,
        "choice": _choice(state),
        "scoring": _scoring(state),
        "scores": [breakdown(state.tokens[s], state.collections[s]) for s in range(state.players)],
        "ended": state.ended,
        "resigned": state.resigned,
        "result": result(state),
    }


def log_line(before: State, seat: int, move: Move, after: State) -> JSON:
    """A public account of one move for the room's log.

    ``{"seat": s, "type": "place", "card": Card, "at": [r, c], "neighbours": k,
    "tokens": {"owed": k-1, "earned": e, "paid_by": [{"seat": p, "tokens": t}], "lost": l},
    "scoring": null | "row" | "col" | "choose", "drew": bool}`` ·
    ``{"seat": s, "type": "pass", "swapped": bool, "gave": null | {"seat": r, "tokens": 1}}`` ·
    ``{"seat": s, "type": "line", "line": "row" | "col"}`` ·
    ``{"seat": s, "type": "take", "card": Card, "at": [r, c], "phase_over": bool,
    "drew": bool}`` (``drew``: the placer drew, the phase being over);
    each gets ``"ended": reason`` when the move ended the game. A swapped card goes
    face down under the pile, so which card it was never appears; nor does whether
    the pass was forced, since that would tell what the hand holds.
    """
    line: JSON = {"seat": seat}
    if isinstance(move, Place):
        grid = dict(before.grid)
        grid[move.at] = move.card
        owed = len(table.neighbours(grid, move.at)) - 1
        lines = qualifying_lines(grid, move.at)
        line.update(
            type="place",
            card=_card(move.card),
            at=list(move.at),
            neighbours=owed + 1,
            tokens=_tokens(before.tokens, seat, owed),
            scoring=None if not lines else lines[0] if len(lines) == 1 else "choose",
            drew=len(after.pile) < len(before.pile),
        )
    elif isinstance(move, Pass):
        gave = before.tokens[seat] > 0
        right = (seat - 1) % before.players
        line.update(
            type="pass",
            swapped=move.swap is not None,
            gave={"seat": right, "tokens": 1} if gave else None,
        )
    elif isinstance(move, Line):
        line.update(type="line", line=move.line)
    else:
        cell = next(cell for cell, card in before.grid.items() if card == move.card)
        line.update(
            type="take",
            card=_card(move.card),
            at=list(cell),
            phase_over=after.phase != "take",
            drew=len(after.pile) < len(before.pile),  # the placer, once the phase is over
        )
    if after.phase == "over":
        line["ended"] = after.ended
    return line


def draws(before: State, after: State) -> list[JSON]:
    """The cards that came into a hand between ``before`` and ``after`` (card ids are
    unique, so a card new to a hand was drawn, by the mover or, after a scoring
    phase, by the placer). Hidden while the game runs."""
    out: list[JSON] = []
    for seat in range(after.players):
        held = set(before.hands[seat])
        out.extend({"seat": seat, "card": _card(c)} for c in after.hands[seat] if c not in held)
    return out
