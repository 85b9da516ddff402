"""Blokus engine benchmarks: one JSON line per figure (see docs/benchmarks.md).

    .venv/bin/python bench/bench_blokus.py [--games N] [--duels N]

The corpus is every position of N seeded random 4-colour games (the random bot,
seeds 0..N-1), so runs on one machine compare like with like. Timings are wall
clock per call; tables are built (and the candidate memo warmed) by generating the
corpus before anything is timed, except ``blokus.table_build`` which is timed cold.
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engines import prng
from engines.blokus import ENGINE, bots, rules
from engines.blokus.pieces import placements
from engines.blokus.rules import State


def emit(bench: str, unit: str, **figures: Any) -> None:
    print(json.dumps({"bench": bench, "unit": unit, **figures}), flush=True)


def percentiles(samples_ns: list[int]) -> dict[str, float]:
    ordered = sorted(samples_ns)
    n = len(ordered)
    return {
        "p50": round(ordered[n // 2] / 1e6, 4),
        "p99": round(ordered[min(n - 1, (n * 99) // 100)] / 1e6, 4),
        "max": round(ordered[-1] / 1e6, 4),
        "n": n,
    }


def time_each(
    states: list[State], call: Callable[[State], object], *, pause_gc: bool = False
) -> list[int]:
    samples = []
    for state in states:
        if pause_gc:
            gc.disable()
        start = time.perf_counter_ns()
        call(state)
        samples.append(time.perf_counter_ns() - start)
        gc.enable()
    return samples


def random_game(seed: int, players: int = 4) -> list[State]:
    state = rules.new_state("classic", players, False)
    states = [state]
    stream = prng.seed_state(seed)
    while state.turn is not None:
        ids = rules.legal_placements(state)
        index, stream = prng.below(stream, len(ids))
        state = rules.place(state, ids[index])
        states.append(state)
    return states


def bench_tables() -> None:
    for size in (20, 14):
        start = time.perf_counter_ns()
        table = placements(size)
        emit(
            "blokus.table_build",
            "ms",
            size=size,
            placements=len(table),
            value=round((time.perf_counter_ns() - start) / 1e6, 1),
        )


def bench_positions(games: int) -> None:
    corpus = [s for seed in range(games) for s in random_game(seed) if s.turn is not None]
    emit(
        "blokus.legal_placements",
        "ms",
        **percentiles(time_each(corpus, rules.legal_placements)),
        target={"p50": 1.0, "p99": 3.0},
        note="internal API: sorted placement ids of the colour to move",
    )

    def contract(state: State) -> object:
        return ENGINE.legal_moves(state, ENGINE.to_act(state)[0])

    emit(
        "blokus.legal_moves",
        "ms",
        **percentiles(time_each(corpus, contract)),
        target={"p50": 1.0, "p99": 3.0},
        note="contract API: JSON-ready move dicts",
    )
    emit(
        "blokus.legal_moves_gc_paused",
        "ms",
        **percentiles(time_each(corpus, contract, pause_gc=True)),
        note="the same with the cyclic GC paused around each call: its share of the tail",
    )
    # The server freezes its start-up heap (gc.freeze) so full collections skip it;
    # doing the same with the corpus shows the call's own cost, without the
    # collector walking 2 000 stored positions that a server never holds.
    gc.freeze()
    emit(
        "blokus.legal_moves_frozen_heap",
        "ms",
        **percentiles(time_each(corpus, contract)),
        target={"p50": 1.0, "p99": 3.0},
        note="contract API after gc.freeze(), as in the server process",
    )
    gc.unfreeze()
    emit(
        "blokus.has_any_move",
        "ms",
        **percentiles(time_each(corpus, rules.has_any_move)),
        target={"p50": 0.1},
    )
    moves = [(s, rules.legal_placements(s)[0]) for s in corpus]
    samples = []
    for state, pid in moves:
        start = time.perf_counter_ns()
        rules.place(state, pid)
        samples.append(time.perf_counter_ns() - start)
    emit(
        "blokus.place",
        "ms",
        **percentiles(samples),
        note="one placement, including every colour's blocked check",
    )
    counts = sorted(len(rules.legal_placements(s)) for s in corpus)
    emit(
        "blokus.corpus",
        "positions",
        games=games,
        n=len(corpus),
        moves_p50=counts[len(counts) // 2],
        moves_max=counts[-1],
    )


def bench_playouts(seconds: float = 5.0) -> None:
    done, seed = 0, 10_000
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_game(seed)
        done += 1
        seed += 1
    rate = done / (time.perf_counter() - start)
    emit(
        "blokus.random_playouts",
        "games/s",
        value=round(rate, 1),
        n=done,
        target=20,
        stretch=50,
        note="4 colours from the empty board, uniform random placements",
    )


def duel(game: int) -> tuple[bool, list[int]]:
    """A 2-player classic game, strong bot in seat ``game % 2``: (won outright, its move times)."""
    strong = game % 2
    state = rules.new_state("classic", 2, False)
    times: list[int] = []
    move = 0
    while state.turn is not None:
        seed = 7_000_000 + game * 1000 + move
        if rules.controller(state, state.turn) == strong:
            begin = time.perf_counter_ns()
            pid = bots.strong_placement(state, seed)
            times.append(time.perf_counter_ns() - begin)
        else:
            pid = bots.random_placement(state, seed)
        state = rules.place(state, pid)
        move += 1
    scores = rules.seat_scores(state)
    return scores[strong] > scores[1 - strong], times


def bench_bots(games: int) -> None:
    wins = 0
    times: list[int] = []
    for game in range(games):
        won, spent = duel(game)
        wins += won
        times.extend(spent)
    emit(
        "blokus.strong_vs_random",
        "win_rate",
        value=wins / games,
        wins=wins,
        n=games,
        target=0.9,
        note="2 players, strong bot alternating seats 0 and 1",
    )
    emit("blokus.strong_move", "ms", **percentiles(times), note="strong bot, one move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="random games in the corpus")
    parser.add_argument("--duels", type=int, default=100, help="strong vs random games")
    args = parser.parse_args()
    bench_tables()
    bench_positions(args.games)
    bench_playouts()
    bench_bots(args.duels)


if __name__ == "__main__":
    main()
