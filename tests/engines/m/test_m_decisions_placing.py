"""docs/rules.md M-1 to M-8, the deck to passing: one named test (or a few) per item.

Each test's docstring names the items it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.m import ENGINE
from engines.m.cards import DECK, INDEX, KEEP, MISSING_SYMBOL, START_CELLS, shared
from tests.engines.m.m_moves import Builder, ids, place, refused, take


def card(card_id: str) -> int:
    return INDEX[card_id]


# --- M-1 The deck (reconstructed data) --------------------------------------------


def test_m_decision_deck_has_90_cards_18_per_colour_with_one_symbol_missing_each() -> None:
    """docs/rules.md M-1."""
    assert len(DECK) == 90
    assert len({c.id for c in DECK}) == 90
    assert Counter(c.colour for c in DECK) == dict.fromkeys(MISSING_SYMBOL, 18)
    for colour, missing in MISSING_SYMBOL.items():
        mine = [c for c in DECK if c.colour == colour]
        zeros = [c for c in mine if c.value == 0]
        assert len(zeros) == 2 and all(c.symbol is None for c in zeros)
        symbols = Counter(c.symbol for c in mine if c.value)
        assert missing not in symbols and len(symbols) == 4
        assert all(n == 4 for n in symbols.values())
        assert {c.value for c in mine if c.symbol == next(iter(symbols))} == {10, 20, 30, 40}
    for named in ("blue-40-cube", "brown-30-triangle", "red-30-triangle", "red-20-moebius",
                  "red-20-cube", "green-20-triangle"):  # fmt: skip
        assert named in INDEX


# --- M-2 Matching -----------------------------------------------------------------


def test_m_decision_matching_colour_value_or_symbol_and_never_a_blank_symbol() -> None:
    """docs/rules.md M-2."""

    def cards(a: str, b: str) -> int:
        return shared(DECK[card(a)], DECK[card(b)])

    assert cards("red-20-cube", "red-40-triangle") == 1  # colour
    assert cards("red-20-cube", "blue-20-circle") == 1  # value
    assert cards("red-20-cube", "yellow-40-cube") == 1  # symbol
    assert cards("red-20-cube", "blue-40-triangle") == 0
    # two blanks of different colours share their value 0, never a "no symbol"
    assert cards("red-0-a", "green-0-b") == 1
    assert cards("red-0-a", "red-0-b") == 2


def test_m_decision_matching_each_orthogonal_neighbour_and_no_diagonal(build: Builder) -> None:
    """docs/rules.md M-2."""
    # the blue 40 at (0, 0) is only diagonal to (1, 1): it imposes nothing
    state = build(
        {(0, 0): "blue-40-cube", (0, 1): "red-10-triangle", (1, 2): "red-30-circle"},
        [["red-20-moebius", "green-30-cross"], ["brown-0-a"]],
    )
    assert place("red-20-moebius", (1, 1)) in ENGINE.legal_moves(state, 0)
    # green 30 cross matches the red 30 circle to its right but not the red 10 above
    error = refused(state, 0, place("green-30-cross", (1, 1)))
    assert error.code == "mismatch" and "red 10 triangle above" in error.message
    assert refused(state, 0, place("red-20-moebius", (2, 0))).code == "not_adjacent"
    assert refused(state, 0, place("red-20-moebius", (0, 1))).code == "occupied"
    assert refused(state, 0, place("brown-0-a", (1, 1))).code == "not_in_hand"


# --- M-3 Setup, M-4 where the cards lie -------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_m_decision_setup_cards_tokens_start_m_and_hands(players: int) -> None:
    """docs/rules.md M-3, M-4, ALL-1, ALL-3 and ALL-5."""
    state = ENGINE.new_game(players, 99)
    kept = 90 - len(state.removed)
    assert kept == KEEP[players] == 30 + 10 * players  # docs/rules.md M-3: 30 + 10·N
    assert sorted(state.grid) == sorted(START_CELLS)
    assert all(len(hand) == 4 for hand in state.hands)
    assert len(state.pile) == kept - 5 - 4 * players
    assert state.tokens == (6,) * players
    assert ENGINE.to_act(state) == [0]
    view = ENGINE.view(state, None)
    assert view["removed"] == 90 - kept and view["pile"] == len(state.pile)
    assert ENGINE.new_game(players, 100) != state


# --- M-5 The 6x6 limit ------------------------------------------------------------


def test_m_decision_box_at_most_6_by_6_and_it_shrinks_after_takes(build: Builder) -> None:
    """docs/rules.md M-5."""
    row = {
        (0, 0): "red-10-triangle",
        (0, 1): "red-20-triangle",
        (0, 2): "red-30-triangle",
        (0, 3): "red-40-triangle",
        (0, 4): "red-40-circle",
    }
    state = build(row, [["red-40-cube", "blue-0-a"], ["red-20-moebius", "green-0-a"]])
    # (0, 5) makes the row 6 long: allowed; (0, -1) next would make it 7
    after = ENGINE.play(state, 0, place("red-40-cube", (0, 5)))
    assert after.phase == "take"  # 6-run, two characteristics with its neighbour
    blocked = after
    # take from the right end until the run is down to one card
    for seat in (0, 1, 0, 1, 0):
        rightmost = max(c for r, c in after.grid)
        after = ENGINE.play(after, seat, take(DECK[after.grid[(0, rightmost)]].id))
    assert after.phase == "play" and len(after.grid) == 1
    assert ENGINE.view(after, 1)["box"]["width"] == 1
    wide = build(
        {**row, (0, 5): "red-40-cube"}, [["blue-0-a"], ["red-20-moebius", "green-0-a"]], turn=1
    )
    assert refused(wide, 1, place("red-20-moebius", (0, -1))).code == "box_exceeded"
    assert blocked.grid == wide.grid
    # same card, same cell, legal now that the box shrank
    assert place("red-20-moebius", (0, -1)) in ENGINE.legal_moves(after, 1)


# --- M-6 Tokens for placing -------------------------------------------------------

FOUR_SIDES = {
    (0, 1): "red-40-circle",
    (2, 1): "red-10-triangle",
    (1, 0): "blue-20-circle",
    (1, 2): "yellow-30-cube",
}


def test_m_decision_tokens_from_the_right_then_further_right(build: Builder) -> None:
    """docs/rules.md M-6 and ALL-2."""
    # seat 1 places beside four cards: three tokens; seat 0 (right) has one, seat 2 pays two
    state = build(
        FOUR_SIDES, [["green-0-a"], ["red-20-cube"], ["brown-0-a"]], tokens=[1, 6, 6], turn=1
    )
    after = ENGINE.play(state, 1, place("red-20-cube", (1, 1)))
    assert after.tokens == (0, 9, 4)
    line = ENGINE.log_line(state, 1, place("red-20-cube", (1, 1)), after)
    assert line["tokens"] == {
        "owed": 3,
        "earned": 3,
        "paid_by": [{"seat": 0, "tokens": 1}, {"seat": 2, "tokens": 2}],
        "lost": 0,
    }


def test_m_decision_tokens_never_from_oneself_and_unpaid_ones_are_lost(build: Builder) -> None:
    """docs/rules.md M-6."""
    state = build(FOUR_SIDES, [["red-20-cube"], ["brown-0-a"]], tokens=[6, 1])
    after = ENGINE.play(state, 0, place("red-20-cube", (1, 1)))
    assert after.tokens == (7, 0)  # three owed, one paid, two lost; none created
    assert sum(after.tokens) == sum(state.tokens)
    assert ENGINE.log_line(state, 0, place("red-20-cube", (1, 1)), after)["tokens"]["lost"] == 2


def test_m_decision_tokens_one_neighbour_earns_nothing(build: Builder) -> None:
    """docs/rules.md M-6."""
    state = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle"], ["red-0-a"]])
    assert ENGINE.play(state, 0, place("brown-30-triangle", (0, 1))).tokens == (6, 6)


# --- M-7 Passing, M-8 swapping ----------------------------------------------------

STUCK = {(0, 0): "blue-40-cube"}  # red-10-triangle shares nothing with it


def test_m_decision_passing_voluntary_needs_a_token(build: Builder) -> None:
    """docs/rules.md M-7."""
    state = build(STUCK, [["blue-10-cross"], ["red-0-a"]], tokens=[0, 12])
    assert refused(state, 0, {"type": "pass"}).code == "pass_needs_token"
    rich = build(STUCK, [["blue-10-cross"], ["red-0-a"]], tokens=[1, 11])
    after = ENGINE.play(rich, 0, {"type": "pass"})
    assert after.tokens == (0, 12)  # the token goes to the right
    assert after.hands == rich.hands  # no draw on a pass


def test_m_decision_passing_the_token_goes_right_not_left(build: Builder) -> None:
    """docs/rules.md M-7 and ALL-2."""
    # with two players right and left are the same seat; with three they are not
    state = build(STUCK, [["blue-10-cross"], ["red-0-a"], ["green-0-a"]], tokens=[6, 6, 6])
    after = ENGINE.play(state, 0, {"type": "pass"})
    assert after.tokens == (5, 6, 7)  # seat 2 is seat 0's right
    after = ENGINE.play(after, 1, {"type": "pass"})
    assert after.tokens == (6, 5, 7)  # seat 0 is seat 1's right


def test_m_decision_passing_forced_is_always_allowed(build: Builder) -> None:
    """docs/rules.md M-7."""
    state = build(STUCK, [["red-10-triangle"], ["red-0-a"]], tokens=[0, 12])
    moves = ENGINE.legal_moves(state, 0)
    assert moves == [{"type": "pass"}, {"type": "pass", "swap": "red-10-triangle"}]
    after = ENGINE.play(state, 0, {"type": "pass"})
    assert after.tokens == (0, 12)  # nothing to give
    assert ENGINE.to_act(after) == [1]


def test_m_decision_passing_swap_goes_under_the_pile(build: Builder) -> None:
    """docs/rules.md M-8."""
    state = build(
        STUCK,
        [["red-10-triangle", "red-0-b"], ["red-0-a"]],
        pile=["green-0-a", "blue-0-b"],  # the blue 0 fits: the table is not jammed
    )
    after = ENGINE.play(state, 0, {"type": "pass", "swap": "red-10-triangle"})
    assert ids(after.hands[0]) == ["red-0-b", "green-0-a"]
    assert ids(after.pile) == ["blue-0-b", "red-10-triangle"]
    assert after.tokens == (5, 7)
    line = ENGINE.log_line(state, 0, {"type": "pass", "swap": "red-10-triangle"}, after)
    assert line == {"seat": 0, "type": "pass", "swapped": True, "gave": {"seat": 1, "tokens": 1}}
    # a pile of one: the card goes under it, the passer draws the card that was there
    one = build(STUCK, [["red-10-triangle"], ["red-0-a"]], pile=["green-0-a"])
    after = ENGINE.play(one, 0, {"type": "pass", "swap": "red-10-triangle"})
    assert ids(after.hands[0]) == ["green-0-a"] and ids(after.pile) == ["red-10-triangle"]


def test_m_decision_passing_no_swap_once_the_pile_is_empty(build: Builder) -> None:
    """docs/rules.md M-8."""
    state = build(STUCK, [["red-10-triangle"], ["red-0-a"]], pile=[])
    assert ENGINE.legal_moves(state, 0) == [{"type": "pass"}]
    assert refused(state, 0, {"type": "pass", "swap": "red-10-triangle"}).code == "empty_pile"
