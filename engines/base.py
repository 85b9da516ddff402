"""The contract every rule engine implements.

An engine is a pure library: it knows the rules of one game and nothing of the
server. States are immutable values; ``play`` returns a new one. All randomness
comes from the game's seed through the PRNG whose state lives in the game state
(see ``engines.prng``), so replaying the moves from the seed rebuilds the game
bit for bit.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

S = TypeVar("S")

JSON = dict[str, Any]

# the move a room's log holds for a seat that resigned (``Engine.apply``); no engine's
# own moves look like it, and no legal move list offers it
RESIGN: JSON = {"type": "resign"}

# The bot levels every engine offers, strongest first (``Engine.bots``).
LEVELS = ("hard", "medium", "easy")
# Names rooms and API calls used before the levels: their logs and rules still say them.
LEGACY_BOTS = {"strong": "medium", "random": "easy"}


def is_resign(move: Mapping[str, Any]) -> bool:
    """Whether a move of the log is a resignation (it draws nothing, names no piece)."""
    return isinstance(move, Mapping) and dict(move) == RESIGN


def resign_line(seat: int) -> JSON:
    """The public log line of a resignation, the same for every game."""
    return {"seat": seat, "resigned": True}


class IllegalMove(ValueError):
    """A move the engine refuses, with a sentence a person can read.

    ``malformed`` tells a move that is not a move of this game at all (wrong
    shape, unknown piece, off the board) from a well-formed move the rules
    forbid right now. ``code`` is a stable, machine-readable reason.
    """

    def __init__(self, message: str, *, code: str = "illegal", malformed: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.malformed = malformed


class BadOptions(ValueError):
    """Options or a player count that the engine cannot start a game with."""

    def __init__(self, message: str, *, code: str = "bad_options") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Option:
    """One option a room may set when it creates a game of this engine."""

    name: str
    kind: Literal["bool", "choice"]
    default: bool | str
    choices: tuple[str, ...] = ()
    description: str = ""

    def describe(self) -> JSON:
        data: JSON = {"name": self.name, "kind": self.kind, "default": self.default}
        if self.choices:
            data["choices"] = list(self.choices)
        data["description"] = self.description
        return data


class UnreadableFile(ValueError):
    """A file a record format can't read as a game, with a sentence a person can read.

    ``code`` is the format's ``error_code`` for a file that is not one of its games, or
    ``illegal_move`` for a game whose move number ``move`` (from 1) breaks the rules,
    ``reason`` then being the engine's code for why, where it gave one.
    """

    def __init__(
        self, message: str, *, code: str, move: int | None = None, reason: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.move = move
        self.reason = reason


@dataclass(frozen=True)
class RecordFormat:
    """A file format of an engine's own that its games are written in and read from,
    beside the JSON game record every engine has.

    ``write(record)`` turns a game record (the JSON record as a dict: engine, options,
    players, names, moves) into the file's text; ``read(text, name_max)`` turns a file
    back into such a record, names cut to ``name_max`` characters, and raises
    ``UnreadableFile`` for a file it can't read. ``name`` is a lowercase word, unique
    over the registered engines: the file is ``record.<name>`` and is read at
    ``/records/<name>``. ``error_code`` is the stable code of a file that is none.
    """

    name: str
    title: str
    media_type: str
    suffix: str
    error_code: str
    write: Callable[[Mapping[str, Any]], str] = field(repr=False)
    read: Callable[[str, int], JSON] = field(repr=False)

    def describe(self) -> JSON:
        return {
            "name": self.name,
            "title": self.title,
            "media_type": self.media_type,
            "suffix": self.suffix,
        }


@dataclass(frozen=True)
class Budget:
    """How much a searching bot may think about one move: it stops at whichever limit it
    reaches first. ``iterations`` alone keeps a bot deterministic (the same state, seat,
    seed and budget give the same move on any machine); ``seconds`` caps the wall clock,
    so a busy machine makes the bot weaker, never slower. Bots that don't search ignore
    both."""

    iterations: int | None = None
    seconds: float | None = 1.0

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("A bot's budget needs a number of iterations or a time limit.")


@dataclass(frozen=True)
class Bot(Generic[S]):
    """A named strategy: ``choose(state, seat, seed, budget)`` returns a legal move of
    ``seat``, from what that seat may see alone.

    Deterministic for a budget without a time limit: the same state, seat, seed and
    budget give the same move.
    """

    name: str
    title: str
    think: Callable[[S, int, int, Budget], JSON] = field(repr=False)
    # the budget the bot thinks with when nobody gives one
    budget: Budget = field(default_factory=Budget)
    # one sentence on how it plays, for the host choosing a level
    description: str = ""

    def choose(self, state: S, seat: int, seed: int, budget: Budget | None = None) -> JSON:
        return self.think(state, seat, seed, budget or self.budget)


class Engine(ABC, Generic[S]):
    """The rules of one game, behind the contract the server and tests rely on."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    # whether a seat may know what another may not (hands, a shuffled pile): a running
    # game's moves then stay private, and a record must bring the seed that dealt it.
    # Hidden unless the engine says otherwise: forgetting it can't leak a hand.
    hidden_information: bool = True

    def record_formats(self) -> tuple[RecordFormat, ...]:
        """The file formats of this engine's own (``RecordFormat``); none by default."""
        return ()

    def record_format(self, name: str) -> RecordFormat | None:
        """This engine's format called ``name``, or ``None``."""
        return next((fmt for fmt in self.record_formats() if fmt.name == name), None)

    def normalize_options(self, players: int, options: Mapping[str, Any] | None) -> JSON:
        """Fill defaults and check every option; raise ``BadOptions`` on nonsense."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise BadOptions("The number of players must be a whole number.", code="bad_players")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}.",
                code="bad_players",
            )
        given = dict(options or {})
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise BadOptions(
                f"Unknown option {unknown[0]!r} for {self.title}; known options: "
                f"{', '.join(sorted(known)) or 'none'}.",
                code="unknown_option",
            )
        result: JSON = {}
        for opt in self.options:
            value = given.get(opt.name, opt.default)
            if opt.kind == "bool" and not isinstance(value, bool):
                raise BadOptions(f"Option {opt.name!r} must be true or false.")
            if opt.kind == "choice" and value not in opt.choices:
                raise BadOptions(
                    f"Option {opt.name!r} must be one of {', '.join(opt.choices)}, not {value!r}."
                )
            result[opt.name] = value
        return result

    def player_counts(self, options: Mapping[str, Any] | None = None) -> list[int]:
        """The player counts this engine accepts (with these options, where they matter)."""
        return list(range(self.min_players, self.max_players + 1))

    def describe(self) -> JSON:
        """What ``GET /api/games`` shows of this engine."""
        return {
            "name": self.name,
            "title": self.title,
            "version": self.version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [self._describe_option(opt) for opt in self.options],
            "bots": [
                {"name": bot.name, "title": bot.title, "description": bot.description}
                for bot in self.bots().values()
            ],
            "hidden_information": self.hidden_information,
            "record_formats": [fmt.describe() for fmt in self.record_formats()],
        }

    def _describe_option(self, opt: Option) -> JSON:
        data = opt.describe()
        if opt.kind == "choice":
            data["player_counts"] = {
                choice: self.player_counts({opt.name: choice}) for choice in opt.choices
            }
        return data

    @abstractmethod
    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> S:
        """A fresh game. Raises ``BadOptions`` for a player count or options it can't take."""

    @abstractmethod
    def to_act(self, state: S) -> list[int]:
        """Seats that may act now; ``[]`` once the game is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[JSON]:
        """Every legal move of ``seat``, JSON-ready; ``[]`` when it may not act."""

    def legal_moves_json(self, state: S, seat: int) -> bytes:
        """``legal_moves(state, seat)`` as compact JSON text (UTF-8): what a server
        sends. An engine with many moves may build it faster from text kept per move;
        it must stay equal to ``legal_moves`` (the contract tests check)."""
        return json.dumps(self.legal_moves(state, seat), separators=(",", ":")).encode()

    def legal_moves_compact(self, state: S, seat: int) -> bytes | None:
        """The legal moves in the engine's own compact form, as JSON text, for clients that
        ask for it (a list of many similar moves can be written much shorter); ``None``
        when the engine has no such form, and those clients get ``legal_moves``.
        ``expand_compact`` must turn it back into ``legal_moves`` (the contract tests check).
        """
        return None

    def expand_compact(self, compact: JSON) -> list[JSON]:
        """The move list a compact form (parsed) stands for; see ``legal_moves_compact``."""
        raise NotImplementedError(f"{self.name} has no compact form of its legal moves")

    @abstractmethod
    def play(self, state: S, seat: int, move: Mapping[str, Any]) -> S:
        """The state after ``seat`` plays ``move``. Pure; raises ``IllegalMove``."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """What ``seat`` may see; ``None`` is a spectator. JSON-ready, never the seed."""

    @abstractmethod
    def result(self, state: S) -> JSON | None:
        """``{"scores": [...], "ranks": [...]}`` per seat once the game is over."""

    @abstractmethod
    def dump(self, state: S) -> JSON:
        """A complete JSON-ready snapshot: ``load(dump(s)) == s``."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """The state a ``dump`` describes."""

    @abstractmethod
    def bots(self) -> Mapping[str, Bot[S]]:
        """The bots this engine offers, by name, strongest first: the first is the default
        stand-in for a person who leaves or runs out of time (docs/architecture.md). The
        games' engines offer the levels ``LEVELS``."""

    def bot_name(self, name: object) -> str | None:
        """The name of the offered bot ``name`` stands for, or ``None``: an offered name
        itself, or the level an old name (``LEGACY_BOTS``) now means. Every check and
        lookup of a bot's name goes through here, so a room whose log says ``strong``
        plays and shows the medium level."""
        if not isinstance(name, str):
            return None
        bots = self.bots()
        if name in bots:
            return name
        level = LEGACY_BOTS.get(name)
        return level if level in bots else None

    def bot(self, name: object) -> Bot[S] | None:
        """The offered bot ``name`` stands for (see ``bot_name``), or ``None``."""
        level = self.bot_name(name)
        return None if level is None else self.bots()[level]

    def random_bot(self) -> Bot[S]:
        """A bot playing a uniformly random legal move: for tests and benches, never
        offered to a room."""
        raise NotImplementedError(f"{self.name} has no random bot")

    def log_line(self, before: S, seat: int, move: Mapping[str, Any], after: S) -> JSON:
        """A short public description of a move, for the room's log (never hidden facts)."""
        return {"seat": seat}

    def draws(self, before: S, seat: int, move: Mapping[str, Any], after: S) -> list[JSON]:
        """The cards drawn during ``move``: ``[{"seat": s, "card": ...}]``, ``card`` as the
        view shows a card in a hand. Hidden facts: only a finished game's replay shows
        them. A game without a draw pile draws nothing."""
        return []

    # -- taking a move back ----------------------------------------------------

    def undoable(self, before: S, seat: int, move: Mapping[str, Any], after: S) -> bool:
        """Whether ``seat``'s ``move`` (from ``before`` to ``after``) may be taken back:
        only a move that showed nobody anything hidden (no card drawn, none revealed
        from a hand, no die rolled), so going back to ``before`` teaches no seat what it
        could not know there (docs/rules.md ALL-7). Never, unless the engine says so."""
        return False

    def final(self, state: S, seat: int, move: Mapping[str, Any]) -> bool:
        """Whether ``move``, played now, could not be taken back (``undoable``): what a
        room that confirms moves asks a second click for. By default the move is played
        to see; an engine may answer faster. An illegal move is final."""
        try:
            return not self.undoable(state, seat, move, self.play(state, seat, move))
        except IllegalMove:
            return True

    def all_final(self, state: S, seat: int) -> bool | None:
        """``final`` for every legal move of ``seat`` at once, when it is the same for all
        (``None``: it depends on the move, ask ``final`` for each)."""
        return None

    # -- resigning ------------------------------------------------------------

    def resign(self, state: S, seat: int) -> S:
        """The state after ``seat`` resigns, at any moment of a running game: the seat
        drops out as the game's rules allow, or the game ends with it last (each
        engine's choice is written in docs/rules.md ALL-6). Pure; raises
        ``IllegalMove`` when the seat can't resign now (the game is over, or it is out)."""
        raise IllegalMove(f"{self.title} has no way to resign.", code="no_resign")

    def apply(self, state: S, seat: int, move: Mapping[str, Any]) -> S:
        """What a ``move`` of the log does: ``RESIGN`` resigns, anything else is played."""
        if is_resign(move):
            return self.resign(state, seat)
        return self.play(state, seat, move)


def shared_ranks(scores: Sequence[int | float]) -> list[int]:
    """Rank 1 is best; equal scores share a rank (1, 1, 3 …)."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def ranks_with_last(scores: Sequence[int | float], last: int) -> list[int]:
    """Ranks when seat ``last`` resigned: the others by ``shared_ranks`` among themselves,
    ``last`` after all of them whatever its score (docs/rules.md ALL-6)."""
    others = [score for seat, score in enumerate(scores) if seat != last]
    ranked = iter(shared_ranks(others))
    return [len(others) + 1 if seat == last else next(ranked) for seat in range(len(scores))]
