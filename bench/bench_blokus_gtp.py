"""Blokus Duo: our bots against an outside engine that speaks GTP (issue 24's yardstick).

    nice -n 19 .venv/bin/python bench/bench_blokus_gtp.py \\
        --engine "ENGINE-COMMAND ... --level {level}" [--levels 1 3 5] [--games N] \\
        [--bot hard|medium] [--iterations N]

The engine is any program that reads GTP commands on stdin, as Pentobi's GTP engine
does (the commands used: ``set_game Blokus Duo``, ``clear_board``, ``play b|w MOVE``,
``genmove b|w``, ``reg_genmove``, ``final_score``); ``{level}`` in the
command is replaced by each of ``--levels`` and one engine process plays all the games
of a level. For Pentobi the command would be something like
``pentobi-gtp --game duo --nobook --threads 1 --noresign --quiet --level {level}``.

Moves go both ways in Pentobi's notation (``engines.blokus.sgf.move_text`` /
``placement_of``): the squares a piece covers, column letter and row number from
``a1`` at the lower left. Our board's row 0 is the top row, so our start points
(4, 4) purple and (9, 9) orange are Pentobi's e10 (Black, moves first) and j5 (White).

Seats alternate: in game ``g`` our bot plays purple (first) when ``g`` is even. Every
move the engine sends must be legal in our rules, every move we send must be accepted,
the engine must agree when a colour is out (``pass``, or for ``reg_genmove`` the refusal
``failed to generate a move``), and its final score must equal
ours; any disagreement stops the run with the game so far (a bug to report, not a
result). A win is the higher score (a tie counts half); the margin is our score minus
the engine's. Our hard bot plays its ``HARD_BUDGET`` (``engines/blokus/search.py``)
unless ``--iterations N`` gives it N iterations a move with no time cap. One JSON line
per level on stdout, progress on stderr. ``GTP_ENGINE`` in the environment stands for
``--engine``; with neither (``make bench``, which runs every script) there is nothing
to play against, and the script says so and ends.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.common import percentile, say, wilson
from engines.base import Budget
from engines.blokus import bots, rules, search
from engines.blokus.pieces import placements
from engines.blokus.sgf import SgfError, move_text, placement_of

VARIANT = "duo"
COLOURS = ("b", "w")  # GTP's names of Duo's purple (moves first) and orange


class Disagreement(RuntimeError):
    """The engine and our rules disagree: a bug in one of them, never a game result."""


class GtpEngine:
    """A GTP engine in a child process: one command at a time, its answer back."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def ask(self, command: str) -> str:
        """The engine's answer to ``command``; ``Disagreement`` if it answers with ``?``."""
        answer = self.send(command)
        if answer.startswith("?"):
            raise Disagreement(f"the engine refused {command!r}: {answer[1:].strip()}")
        return answer[1:].strip()

    def send(self, command: str) -> str:
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(command + "\n")
        process.stdin.flush()
        lines: list[str] = []
        while True:
            line = process.stdout.readline()
            if not line:
                raise Disagreement(f"the engine closed its output after {command!r}")
            line = line.rstrip("\r\n")
            if not lines and not line:
                continue  # blank lines before an answer
            if lines and not line:
                return "\n".join(lines)
            lines.append(line)

    def close(self) -> None:
        with contextlib.suppress(Disagreement, OSError):
            self.send("quit")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def final_margin(answer: str) -> float:
    """Black's (purple's) lead from a two-player ``final_score`` answer: B+n, W+n or 0."""
    text = answer.strip().upper()
    if text in ("0", "DRAW"):
        return 0.0
    if text[:2] in ("B+", "W+"):
        value = float(text[2:])
        return value if text[0] == "B" else -value
    raise Disagreement(f"unreadable final score {answer!r}")


Picker = Callable[[rules.State, int], int]


def play_game(
    engine: GtpEngine, number: int, pick: Picker, record: list[str]
) -> tuple[float, int, list[float], list[float]]:
    """One game: (our result 1 / 0.5 / 0, our margin, our move ms, the engine's move ms)."""
    table = placements(rules.LAYOUTS[VARIANT].size)
    ours = number % 2
    state = rules.new_state(VARIANT, 2, False)
    engine.ask("clear_board")
    our_ms: list[float] = []
    engine_ms: list[float] = []
    move = 0
    while state.turn is not None:
        colour = state.turn
        name = COLOURS[colour]
        if colour == ours:
            start = time.perf_counter()
            pid = pick(state, number * 1000 + move)
            our_ms.append((time.perf_counter() - start) * 1000)
            text = move_text(table, pid)
            record.append(f"{name} {text}")
            engine.ask(f"play {name} {text}")
        else:
            start = time.perf_counter()
            answer = engine.ask(f"genmove {name}")
            engine_ms.append((time.perf_counter() - start) * 1000)
            record.append(f"{name} {answer}")
            if answer.lower() == "resign":
                raise Disagreement("the engine resigned; run it with resigning off")
            if answer.lower() == "pass":
                raise Disagreement(f"the engine passes for {name}, but our rules have a move")
            try:
                pid = placement_of(table, answer)
            except SgfError as error:
                raise Disagreement(f"the engine's move {answer!r}: {error.message}") from error
            if pid not in rules.legal_placements(state):
                raise Disagreement(f"the engine's move {answer!r} is illegal in our rules")
        state = rules.place(state, pid)
        move += 1
    # Our rules say no colour can place: the engine must find no move either.
    for name in COLOURS:
        try:
            answer = engine.ask(f"reg_genmove {name}")
        except Disagreement as refusal:
            # Pentobi's engine answers a colour without a move with a refusal, not a pass
            if "failed to generate a move" not in str(refusal):
                raise
            answer = "pass"
        if answer.lower() != "pass":
            raise Disagreement(f"game over in our rules, but the engine still plays {answer!r}")
    scores = rules.seat_scores(state)
    if final_margin(engine.ask("final_score")) != scores[0] - scores[1]:
        raise Disagreement(f"the engine's final score differs from ours {scores}")
    margin = scores[ours] - scores[1 - ours]
    return (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0), margin, our_ms, engine_ms


def ms(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {
        "p50": round(statistics.median(values), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1),
        "n": len(values),
    }


def run_level(args: argparse.Namespace, level: int, pick: Picker, budget: Budget | None) -> None:
    command = args.engine.replace("{level}", str(level))
    engine = GtpEngine(command)
    started = time.perf_counter()
    try:
        name = engine.ask("name")
        version = engine.ask("version")
        engine.ask("set_game Blokus Duo")
        results = []
        for number in range(args.games):
            record: list[str] = []
            try:
                results.append(play_game(engine, number, pick, record))
            except Disagreement as error:
                say(f"level {level}, game {number}: {error}")
                say("moves: " + "; ".join(record))
                raise
            if len(results) % 10 == 0 or len(results) == args.games:
                wins = sum(result[0] for result in results)
                say(f"level {level}: {wins}/{len(results)}")
    finally:
        engine.close()
    games = len(results)
    wins = sum(result[0] for result in results)
    low, high = wilson(wins, games)
    print(
        json.dumps(
            {
                "bench": f"blokus.gtp.{VARIANT}.level{level}",
                "unit": "games",
                "engine": {"name": name, "version": version, "level": level},
                "ours": args.bot,
                "budget": None
                if budget is None
                else {"iterations": budget.iterations, "seconds": budget.seconds},
                "games": games,
                "wins": wins,
                "ties": sum(1 for result in results if result[0] == 0.5),
                "win_rate": round(wins / games, 4),
                "wilson95": [round(low, 4), round(high, 4)],
                "mean_margin": round(sum(result[1] for result in results) / games, 2),
                "our_move_ms": ms([t for result in results for t in result[2]]),
                "engine_move_ms": ms([t for result in results for t in result[3]]),
                "seconds": round(time.perf_counter() - started, 1),
                "cores": os.cpu_count(),
                "load_avg": [round(x, 2) for x in os.getloadavg()],
                "python": sys.version.split()[0],
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--engine", default=os.environ.get("GTP_ENGINE"), help="the GTP engine's command line"
    )
    parser.add_argument("--levels", type=int, nargs="+", default=[1], help="engine levels")
    parser.add_argument("--games", type=int, default=100, help="games per level")
    parser.add_argument("--bot", choices=("hard", "medium"), default="hard", help="our bot")
    parser.add_argument("--iterations", type=int, help="hard bot: iterations a move, no cap")
    args = parser.parse_args()
    if not args.engine:
        say("no GTP engine given (--engine or GTP_ENGINE): nothing to play against")
        return
    if len(args.levels) > 1 and "{level}" not in args.engine:
        parser.error("with several --levels the engine command needs a {level} to fill in")
    budget: Budget | None = None
    if args.bot == "hard":
        budget = search.HARD_BUDGET
        if args.iterations is not None:
            budget = Budget(iterations=args.iterations, seconds=None)
        hard_budget = budget

        def pick(state: rules.State, seed: int) -> int:
            return search.search(state, seed, hard_budget)

    else:
        pick = bots.strong_placement
    for level in args.levels:
        run_level(args, level, pick, budget)


if __name__ == "__main__":
    main()
