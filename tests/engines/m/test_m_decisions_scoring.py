"""docs/rules.md M-9 to M-21, the scoring trigger to the score: one named test (or a few)
per item. The end tests keep the letters of their items: end (a) is M-16, (b) M-17,
(c) M-18 and (d) M-19. Each test's docstring names the items it checks."""

from __future__ import annotations

from engines.m import ENGINE, rules
from tests.engines.m.m_moves import Builder, ids, place, refused, take

# The rulebook's red 20 cube: fifth card of a lone row, two characteristics with (0, 4).
LONE_ROW = {
    (0, 0): "blue-10-circle",
    (0, 1): "brown-40-cross",
    (0, 2): "red-40-triangle",
    (0, 4): "yellow-20-cube",
}

# A cross whose centre (2, 2) completes a row and a column that both qualify for red-20-cube.
CROSS = {
    (2, 0): "blue-0-a",
    (2, 1): "red-20-triangle",  # colour and value: two
    (2, 3): "brown-10-cube",
    (2, 4): "brown-0-a",
    (0, 2): "green-0-a",
    (1, 2): "yellow-20-cube",  # value and symbol: two
    (3, 2): "red-40-moebius",
    (4, 2): "green-0-b",
}


ROW5 = {
    (1, 0): "blue-10-cube",
    (1, 1): "blue-20-cube",
    (1, 2): "blue-30-cube",
    (1, 3): "blue-40-cube",
    (1, 4): "blue-10-triangle",
}


STUCK = {(0, 0): "blue-40-cube"}  # red-10-triangle shares nothing with it


# --- M-9 Scoring trigger, M-10 both lines -----------------------------------------


def test_m_decision_trigger_needs_two_characteristics_with_a_run_neighbour(
    build: Builder,
) -> None:
    """docs/rules.md M-9."""
    # five in a row, but only one characteristic with each neighbour in the row; the
    # yellow 20 cube below shares two, yet it is not in the row and its column is short
    row = {**LONE_ROW, (0, 4): "blue-20-circle", (1, 3): "yellow-20-cube"}
    state = build(row, [["red-20-cube"], ["brown-0-a"], ["green-0-a"]])
    after = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert after.phase == "play" and ENGINE.to_act(after) == [1]
    assert after.tokens == (8, 6, 4)  # three neighbours: two tokens


def test_m_decision_trigger_looks_only_at_the_two_cards_beside_it(build: Builder) -> None:
    """docs/rules.md M-9."""
    # the yellow 20 cube two cells to the left shares two characteristics, the
    # neighbours only one each: no scoring
    row = {
        (0, 0): "blue-10-circle",
        (0, 1): "yellow-20-cube",
        (0, 2): "red-40-triangle",
        (0, 4): "blue-10-cube",
    }
    state = build(row, [["red-20-cube"], ["brown-0-a"]])
    after = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert after.phase == "play" and ENGINE.to_act(after) == [1]


def test_m_decision_trigger_counts_the_first_card_of_the_run_as_a_neighbour(
    build: Builder,
) -> None:
    """docs/rules.md M-9."""
    # LONE_ROW mirrored: the card goes second in the row and shares two
    # characteristics only with the first card, (0, 0)
    mirrored = {(0, 4 - c): card for (_, c), card in LONE_ROW.items()}
    state = build(mirrored, [["red-20-cube"], ["brown-0-a"]])
    after = ENGINE.play(state, 0, place("red-20-cube", (0, 1)))
    assert after.phase == "take" and after.line == "row"


def test_m_decision_trigger_needs_a_run_of_five_or_six(build: Builder) -> None:
    """docs/rules.md M-9."""
    short = {cell: c for cell, c in LONE_ROW.items() if cell != (0, 0)}
    state = build(short, [["red-20-cube"], ["brown-0-a"]])
    assert ENGINE.play(state, 0, place("red-20-cube", (0, 3))).phase == "play"
    full = build(LONE_ROW, [["red-20-cube"], ["brown-0-a"]])
    assert ENGINE.play(full, 0, place("red-20-cube", (0, 3))).phase == "take"


def test_m_decision_trigger_both_lines_the_placer_chooses(build: Builder) -> None:
    """docs/rules.md M-10 and M-12."""
    state = build(CROSS, [["blue-0-b"], ["red-20-cube"], ["brown-0-b"]], turn=1)
    after = ENGINE.play(state, 1, place("red-20-cube", (2, 2)))
    assert after.phase == "line"
    assert ENGINE.to_act(after) == [1]
    assert ENGINE.legal_moves(after, 1) == [
        {"type": "line", "line": "row"},
        {"type": "line", "line": "col"},
    ]
    assert ENGINE.view(after, 0)["expect"] == "line"
    assert refused(after, 1, take("blue-0-a")).code == "wrong_phase"
    col = ENGINE.play(after, 1, {"type": "line", "line": "col"})
    assert col.phase == "take" and col.line == "col"
    assert col.run == ((0, 2), (1, 2), (2, 2), (3, 2), (4, 2))
    # the centre may go (diagonals hold the table), the inner ones may not
    assert [m["card"] for m in ENGINE.legal_moves(col, 1)] == [
        "green-0-a",
        "red-20-cube",
        "green-0-b",
    ]


# --- M-11 to M-13 Scoring phase ---------------------------------------------------


def test_m_decision_phase_placer_first_then_to_the_left(build: Builder) -> None:
    """docs/rules.md M-11."""
    state = build(LONE_ROW, [["green-0-a"], ["red-20-cube", "blue-0-a"], ["brown-0-a"]], turn=1)
    state = ENGINE.play(state, 1, place("red-20-cube", (0, 3)))
    order = []
    while state.phase == "take":
        seat = ENGINE.to_act(state)[0]
        order.append(seat)
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert order == [1, 2, 0, 1]  # four takes leave the last card of five
    assert len(state.grid) == 1
    assert [len(c) for c in state.collections] == [1, 2, 1]


def test_m_decision_phase_connectivity_rule(build: Builder) -> None:
    """docs/rules.md M-12."""
    # (2, 5) touches only (1, 4), corner to corner: taking (1, 4) would cut it off
    row = ROW5
    state = build(
        {**row, (2, 5): "red-0-a"},
        [["green-0-a"], ["brown-0-a"]],
        phase="take",
        line="row",
        run=tuple(sorted(row)),
        last=(1, 2),
    )
    assert refused(state, 0, take("blue-10-triangle")).code == "would_split"
    assert refused(state, 0, take("blue-30-cube")).code == "would_split"
    assert refused(state, 0, take("red-0-a")).code == "not_in_run"
    assert [m["card"] for m in ENGINE.legal_moves(state, 0)] == ["blue-10-cube"]


def test_m_decision_phase_ends_when_no_card_can_be_taken(build: Builder) -> None:
    """docs/rules.md M-13."""
    # (2, 0) leans on (1, 1) once (1, 0) is gone; (2, 5) leans on (1, 4): one take, then none
    row = ROW5
    state = build(
        {**row, (2, 0): "red-0-a", (2, 5): "red-0-b"},
        [["green-0-a"], ["brown-0-a"]],
        pile=["yellow-0-a"],
        phase="take",
        line="row",
        run=tuple(sorted(row)),
        last=(1, 2),
    )
    assert [m["card"] for m in ENGINE.legal_moves(state, 0)] == ["blue-10-cube"]
    after = ENGINE.play(state, 0, take("blue-10-cube"))
    assert after.phase == "play"  # four cards of the run left, none may go
    assert ids(after.hands[0]) == ["green-0-a", "yellow-0-a"]  # the placer draws
    assert ENGINE.to_act(after) == [1]


def test_m_decision_phase_ends_with_one_card_of_the_run_left(build: Builder) -> None:
    """docs/rules.md M-12 and M-13."""
    # seat 1's yellow 0 fits beside the card left, so the table is not jammed
    state = build(LONE_ROW, [["red-20-cube"], ["yellow-0-a"]], pile=["blue-0-a"])
    state = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    for seat in (0, 1, 0):
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
        assert state.phase == "take"
    state = ENGINE.play(state, 1, ENGINE.legal_moves(state, 1)[0])
    assert state.phase == "play" and len(state.grid) == 1


# --- M-14 Turn order --------------------------------------------------------------


def test_m_decision_turn_order_place_tokens_draw_then_left(build: Builder) -> None:
    """docs/rules.md M-14."""
    state = build(
        {(0, 1): "red-30-triangle", (1, 2): "green-40-circle"},
        [["blue-0-a"], ["green-20-triangle"], ["green-0-a"]],
        pile=["yellow-0-a", "yellow-0-b"],
        turn=1,
    )
    after = ENGINE.play(state, 1, place("green-20-triangle", (1, 1)))
    assert after.tokens == (5, 7, 6)  # seat 0 is seat 1's right
    assert ids(after.hands[1]) == ["yellow-0-a"]
    assert ENGINE.to_act(after) == [2]
    line = ENGINE.log_line(state, 1, place("green-20-triangle", (1, 1)), after)
    assert line["drew"] is True and line["scoring"] is None


def test_m_decision_turn_order_after_a_scoring_phase_the_placer_draws(build: Builder) -> None:
    """docs/rules.md M-13 and M-14."""
    state = build(
        LONE_ROW,
        [["blue-0-a"], ["red-20-cube"], ["brown-0-a"]],
        pile=["yellow-0-a"],
        turn=1,
    )
    state = ENGINE.play(state, 1, place("red-20-cube", (0, 3)))
    while state.phase == "take":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[-1])
    assert ids(state.hands[1]) == ["yellow-0-a"]
    assert ENGINE.to_act(state) == [2]


def test_m_decision_turn_order_seats_play_in_increasing_order() -> None:
    """docs/rules.md ALL-2 and ALL-3."""
    state = ENGINE.new_game(4, 5)
    seen = []
    while len(seen) < 8 and state.phase == "play":
        seat = ENGINE.to_act(state)[0]
        seen.append(seat)
        moves = [m for m in ENGINE.legal_moves(state, seat) if m["type"] == "place"]
        move = moves[0] if moves else ENGINE.legal_moves(state, seat)[0]
        state = ENGINE.play(state, seat, move)
        while state.phase in ("line", "take"):
            actor = ENGINE.to_act(state)[0]
            state = ENGINE.play(state, actor, ENGINE.legal_moves(state, actor)[0])
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3][: len(seen)]


# --- M-15 Empty hands -------------------------------------------------------------


def test_m_decision_empty_hands_are_skipped_and_pay_nothing(build: Builder) -> None:
    """docs/rules.md M-15."""
    state = build(
        {(0, 0): "blue-30-cube"},
        [["brown-30-triangle", "blue-0-a"], [], ["green-30-cross"]],
        pile=[],
    )
    after = ENGINE.play(state, 0, place("brown-30-triangle", (0, 1)))
    assert ENGINE.to_act(after) == [2]  # seat 1 holds nothing
    assert after.tokens == state.tokens


def test_m_decision_empty_hands_still_pay_for_placements_and_take_in_phases(
    build: Builder,
) -> None:
    """docs/rules.md M-15."""
    # a player without cards still pays and receives tokens and still takes a card
    # in every scoring phase; being skipped is no pass
    state = build(LONE_ROW, [["red-20-cube", "blue-0-a"], ["green-0-a"], []], pile=[])
    after = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert after.tokens == (7, 6, 5)  # seat 2, on the right, pays though its hand is empty
    takers = []
    while after.phase == "take":
        seat = ENGINE.to_act(after)[0]
        takers.append(seat)
        after = ENGINE.play(after, seat, ENGINE.legal_moves(after, seat)[0])
    assert takers == [0, 1, 2, 0]
    assert len(after.collections[2]) == 1  # and takes a card


# --- M-16 to M-20 The end ---------------------------------------------------------


def test_m_decision_end_a_scoring_phase_begun_on_an_empty_pile(build: Builder) -> None:
    """docs/rules.md M-16."""
    state = build(LONE_ROW, [["red-20-cube", "blue-0-a"], ["brown-0-a"]], pile=[])
    state = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert ENGINE.view(state, 1)["scoring"]["final"] is True
    while state.phase == "take":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert state.phase == "over" and state.ended == "final_scoring"
    assert ENGINE.to_act(state) == [] and ENGINE.result(state) is not None


def test_m_decision_guard_a_placement_that_scores_resets_the_rounds_without_one(
    build: Builder,
) -> None:
    """docs/rules.md M-20."""
    # three passes before; the placement starts a scoring phase, and once it ends the
    # count of turns without a placement starts again from nothing
    state = build(LONE_ROW, [["red-20-cube", "blue-0-a"], ["yellow-0-a"]], idle=3)
    state = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    while state.phase == "take":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert state.phase == "play" and state.idle == 0


def test_m_decision_end_a_not_while_the_pile_still_has_a_card(build: Builder) -> None:
    """docs/rules.md M-16."""
    state = build(LONE_ROW, [["red-20-cube", "blue-0-a"], ["yellow-0-a"]], pile=["green-0-a"])
    state = ENGINE.play(state, 0, place("red-20-cube", (0, 3)))
    assert ENGINE.view(state, 1)["scoring"]["final"] is False
    while state.phase == "take":
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert state.phase == "play" and not state.pile  # the placer drew the last card
    assert ids(state.hands[0]) == ["blue-0-a", "green-0-a"]


def test_m_decision_end_b_every_hand_empty(build: Builder) -> None:
    """docs/rules.md M-17."""
    state = build({(0, 0): "blue-30-cube"}, [["brown-30-triangle"], []], pile=[])
    after = ENGINE.play(state, 0, place("brown-30-triangle", (0, 1)))
    assert after.phase == "over" and after.ended == "hands_empty"
    assert ENGINE.log_line(state, 0, place("brown-30-triangle", (0, 1)), after)["ended"] == (
        "hands_empty"
    )


def test_m_decision_end_c_everyone_holding_cards_passed_a_round(build: Builder) -> None:
    """docs/rules.md M-18."""
    # both could place a blue card, and both pass by choice: (c) applies as written
    state = build(
        {(0, 0): "blue-40-cube"}, [["blue-0-a"], [], ["blue-10-circle"]], pile=[], tokens=[6, 6, 6]
    )
    once = ENGINE.play(state, 0, {"type": "pass"})
    assert once.phase == "play" and ENGINE.to_act(once) == [2]
    twice = ENGINE.play(once, 2, {"type": "pass"})
    assert twice.phase == "over" and twice.ended == "all_passed"


def test_m_decision_end_c_a_placement_restarts_the_round(build: Builder) -> None:
    """docs/rules.md M-18."""
    state = build(
        {(0, 0): "blue-40-cube"},
        [["red-10-triangle", "blue-10-circle"], ["blue-0-a", "green-0-a"]],
        pile=[],
    )
    state = ENGINE.play(state, 0, {"type": "pass"})
    state = ENGINE.play(state, 1, place("blue-0-a", (0, 1)))
    state = ENGINE.play(state, 0, {"type": "pass"})
    assert state.phase == "play"


def test_m_decision_end_d_a_jammed_table_ends_the_game_with_cards_in_the_pile(
    build: Builder,
) -> None:
    """docs/rules.md M-19."""
    # nothing in either hand nor in the pile shares a thing with the blue 40 cube
    state = build(STUCK, [["red-10-triangle"], ["red-20-triangle"]], pile=["red-30-triangle"])
    after = ENGINE.play(state, 0, {"type": "pass"})
    assert after.phase == "over" and after.ended == "jammed"
    assert after.pile  # the card left in the pile could never be placed
    assert ENGINE.to_act(after) == [] and ENGINE.result(after) is not None
    assert ENGINE.log_line(state, 0, {"type": "pass"}, after)["ended"] == "jammed"


def test_m_decision_end_d_is_checked_after_a_placement_too(build: Builder) -> None:
    """docs/rules.md M-19."""
    state = build(
        {(0, 0): "blue-40-cube"},
        [["blue-0-a"], ["red-20-triangle"]],
        pile=["red-30-triangle"],
    )
    after = ENGINE.play(state, 0, place("blue-0-a", (0, 1)))
    # the placer drew the red 30; no red triangle matches a blue 40 cube or a blue 0
    assert after.phase == "over" and after.ended == "jammed"


def test_m_decision_end_d_a_card_in_the_pile_that_fits_keeps_the_game_going(
    build: Builder,
) -> None:
    """docs/rules.md M-19."""
    # no hand card fits, but the pile still holds a blue 0: passes and swaps go on,
    # for longer than the two idle rounds that used to end such a game
    state = build(
        STUCK, [["red-10-triangle"], ["red-20-triangle"]], pile=["red-30-triangle", "blue-0-a"]
    )
    for step in range(5):
        assert state.phase == "play", step
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, {"type": "pass"})
    assert state.phase == "play" and state.idle == 5
    swapped = ENGINE.play(state, 1, {"type": "pass", "swap": "red-20-triangle"})
    assert ids(swapped.hands[1]) == ["red-30-triangle"] and swapped.phase == "play"


def test_m_decision_end_d_seed_1002005_two_strong_bots_play_the_drawn_moebius() -> None:
    """docs/rules.md M-19."""
    # Seen with rules version 1: seat 0's swap drew a green 20 Moebius that fit at
    # (1, 1), yet two idle rounds ended the game with four cards in the pile.
    seed = 1002005
    bot = ENGINE.bots()["medium"]
    state = ENGINE.new_game(2, seed)
    moves = []
    while acting := ENGINE.to_act(state):
        move = bot.choose(state, acting[0], seed * 100_003 + len(moves))
        moves.append(move)
        state = ENGINE.play(state, acting[0], move)
    assert {"type": "place", "card": "green-20-moebius", "at": [1, 1]} in moves
    assert state.ended == "jammed" and state.pile
    assert rules.jammed(state)


def test_m_decision_end_termination_guard_ten_rounds_without_a_placement(
    build: Builder,
) -> None:
    """docs/rules.md M-20."""
    # The pile holds cards that fit, so the table is not jammed; nobody's hand fits.
    state = build(STUCK, [["red-10-triangle"], ["red-20-triangle"], ["red-30-triangle"]])
    for step in range(rules.GUARD_ROUNDS * 3):
        assert state.phase == "play", step
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.play(state, seat, {"type": "pass"})
    assert state.phase == "over" and state.ended == "guard"
    assert state.pile  # it ends with cards left in the pile


# --- M-21 Final score -------------------------------------------------------------


def test_m_decision_score_tokens_best_two_colours_minus_the_rest(build: Builder) -> None:
    """docs/rules.md M-21."""
    state = build(
        {(0, 0): "blue-30-cube"},
        [["red-0-a"], ["red-0-b"], ["blue-0-b"]],
        tokens=[5, 6, 7],
        collections=[
            ["blue-40-cube", "red-30-cube", "green-10-cross", "green-30-cross"],
            ["brown-40-cube", "brown-10-cube"],
            ["yellow-10-cube"],
        ],
        phase="over",
        ended="guard",
    )
    result = ENGINE.result(state)
    # seat 0: 50 + blue 40 + green 40 - red 30; seat 1: 60 + 50 = 110; seat 2: 70 + 10
    assert result == {"scores": [100, 110, 80], "ranks": [2, 1, 3]}
    preview = ENGINE.view(state, None)["scores"][0]
    assert preview["best"] == ["blue", "green"] and preview["colours"]["red"] == 30


def test_m_decision_score_equal_totals_share_a_rank(build: Builder) -> None:
    """docs/rules.md M-21 and ALL-4."""
    state = build(
        {(0, 0): "blue-30-cube"},
        [["red-0-a"], ["red-0-b"], ["blue-0-b"]],
        tokens=[6, 7, 5],
        collections=[["blue-10-cube"], [], ["red-20-cube"]],
        phase="over",
        ended="guard",
    )
    assert ENGINE.result(state) == {"scores": [70, 70, 70], "ranks": [1, 1, 1]}
