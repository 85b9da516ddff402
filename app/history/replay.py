"""Replay: any step of any game of a room, as a seat (or a spectator) may see it.

A step is the game after its first ``step`` moves. It is rebuilt from the
nearest snapshot of that game at or before the step (or from the deal) plus the
moves after it, and kept in a small cache, so stepping back and forth costs a
few engine moves at most. What a step shows is decided by app/play/access.py, as for
the live views: while the game runs, the person holding a seat *now* sees that
seat's hand as it was at each step, and everyone else (a freed seat's old token
too) the public view; once the game is over every seat's view may be asked for,
and each step also says which cards its move drew (``Engine.draws``), never before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from app.core.errors import ApiError, not_found
from app.history import queries
from app.play import access, store
from app.play.access import hash_token
from app.play.kinds import CHAT, GAME_OVER, GAME_STARTED, MOVE, UNDO
from app.play.rooms import Rooms
from app.play.state import RoomState, apply, from_snapshot
from engines import get_engine
from engines.base import Engine, is_resign

# how far back the step cache is searched before asking the database for a snapshot
NEAR = 12


@dataclass(frozen=True)
class GameEntry:
    """Where one game of a room lies in its log."""

    game_no: int
    start_seq: int
    move_seqs: tuple[int, ...]
    over_seq: int | None
    # a move of it was taken back (app/play/undo.py): ``move_seqs`` are the moves that
    # stand, and its snapshots may hold a position taken back, so none is used
    rewound: bool = False

    @property
    def over(self) -> bool:
        return self.over_seq is not None

    @property
    def steps(self) -> int:
        return len(self.move_seqs)

    def seq_of(self, step: int) -> int:
        return self.start_seq if step == 0 else self.move_seqs[step - 1]


@dataclass(frozen=True)
class Started:
    """A game's ``game_started`` facts and who sat where when it began."""

    data: dict[str, Any]
    names: tuple[str, ...]
    bots: tuple[str | None, ...]

    @property
    def engine(self) -> Engine[Any]:
        return get_engine(self.data["engine"])


class _Lru:
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


class Replays:
    """Game lists, starts and step states of rooms, read from the log and cached."""

    def __init__(self, rooms: Rooms, size: int = 4096) -> None:
        self.rooms = rooms
        self._index = _Lru(256)
        self._starts = _Lru(512)
        self._states = _Lru(size)
        self._moves = _Lru(size)
        self._draws = _Lru(64)
        self._ends = _Lru(512)

    def clear(self) -> None:
        for cache in (
            self._index,
            self._starts,
            self._states,
            self._moves,
            self._draws,
            self._ends,
        ):
            cache.items.clear()

    @asynccontextmanager
    async def _session(self, session: Any) -> AsyncIterator[Any]:
        """The caller's session, or a transaction of our own."""
        if session is not None:
            yield session
            return
        async with self.rooms.db.transaction() as own:
            yield own

    async def games(self, room_id: str, session: Any = None) -> list[GameEntry]:
        """Every game of the room, oldest first (the last may still run)."""
        async with self._session(session) as db:
            rows = await queries.game_index(db, room_id)
            if not rows and await store.get_room(db, room_id) is None:
                raise not_found(room_id)
            back_to: dict[int, int] = {}
            if any(kind == UNDO for _, kind in rows):
                undos = await queries.events_between(db, room_id, 0, rows[-1][0], kinds=(UNDO,))
                back_to = {e.seq: int(e.public["to"]) for e in undos}
        entries: list[GameEntry] = []
        start: int | None = None
        moves: list[int] = []
        rewound = False
        for seq, kind in rows:
            if kind == GAME_STARTED:
                if start is not None:
                    entries.append(GameEntry(len(entries) + 1, start, tuple(moves), None, rewound))
                start, moves, rewound = seq, [], False
            elif kind == MOVE and start is not None:
                moves.append(seq)
            elif kind == UNDO and start is not None:
                moves = [m for m in moves if m <= back_to[seq]]
                rewound = True
            elif kind == GAME_OVER and start is not None:
                entries.append(GameEntry(len(entries) + 1, start, tuple(moves), seq, rewound))
                start, moves, rewound = None, [], False
        if start is not None:
            entries.append(GameEntry(len(entries) + 1, start, tuple(moves), None, rewound))
        self._index.put(room_id, tuple(entries))
        return entries

    async def game(self, room_id: str, game_no: int, session: Any = None) -> GameEntry:
        known: tuple[GameEntry, ...] | None = self._index.get(room_id)
        if known is not None and 1 <= game_no <= len(known) and known[game_no - 1].over:
            return known[game_no - 1]  # a finished game never changes
        games = await self.games(room_id, session)
        if not 1 <= game_no <= len(games):
            raise ApiError(
                404,
                "no_such_game",
                f"This room has no game {game_no}"
                + (f"; its games are 1 to {len(games)}." if games else "; none has started yet."),
            )
        return games[game_no - 1]

    async def started(self, room_id: str, entry: GameEntry, session: Any = None) -> Started:
        """The start of a game: its private ``game_started`` data and the seats then."""
        key = (room_id, entry.game_no)
        cached: Started | None = self._starts.get(key)
        if cached is not None:
            return cached
        state, last = await self._seats_at(room_id, entry.start_seq, session)
        data = last.data if last is not None and last.kind == GAME_STARTED else None
        if data is None:
            raise RuntimeError(f"room {room_id}: no game_started at seq {entry.start_seq}")
        engine = get_engine(data["engine"])
        # a bot by its level, also where the log names it by an old name
        levels = tuple(
            None if s.bot is None else engine.bot_name(s.bot) or s.bot for s in state.seats
        )
        started = Started(
            data=data,
            names=tuple(
                s.name or (_bot_title(engine, bot) if bot is not None else f"Seat {i + 1}")
                for i, (s, bot) in enumerate(zip(state.seats, levels, strict=True))
            ),
            bots=levels,
        )
        self._starts.put(key, started)
        return started

    async def _seats_at(
        self, room_id: str, seq: int, session: Any = None
    ) -> tuple[RoomState, store.EventRecord | None]:
        """The room's seats as they were at ``seq`` (the game is not rebuilt: moves and
        chat are skipped), and the event at ``seq``."""
        async with self._session(session) as db:
            room = await store.get_room(db, room_id)
            if room is None:
                raise not_found(room_id)
            snapshot = await queries.latest_snapshot_before(db, room_id, seq)
            state = (
                from_snapshot(room, snapshot.seq, snapshot.state)
                if snapshot is not None
                else RoomState(room=room)
            )
            events = await queries.events_between(
                db, room_id, state.seq, seq, skip=(MOVE, CHAT, UNDO)
            )
        for event in events:
            state = apply(state, event)
        return state, (events[-1] if events and events[-1].seq == seq else None)

    async def ended(
        self, room_id: str, entry: GameEntry, session: Any = None
    ) -> tuple[str | None, ...]:
        """The token hash holding each seat when a finished game ended."""
        assert entry.over_seq is not None
        key = (room_id, entry.game_no)
        cached: tuple[str | None, ...] | None = self._ends.get(key)
        if cached is None:
            state, _ = await self._seats_at(room_id, entry.over_seq, session)
            cached = tuple(s.token_hash for s in state.seats)
            self._ends.put(key, cached)
        return cached

    async def seat_of(
        self, room_id: str, entry: GameEntry, token: str | None, session: Any = None
    ) -> int | None:
        """The seat ``token`` holds in that game: in a running game the seat it holds now
        (app/play/access.py), in a finished one the seat it held at the end. ``None`` for a
        spectator, a freed seat's old token and another room's token."""
        if token is None:
            return None
        wanted = hash_token(token)
        if entry.over:
            ended = await self.ended(room_id, entry, session)
            return ended.index(wanted) if wanted in ended else None
        now = await self.rooms.load(room_id, session)
        return access.perspective(now, wanted, None, entry.game_no)

    async def state_at(
        self, room_id: str, entry: GameEntry, step: int, session: Any = None, lead: int = 0
    ) -> Any:
        """The engine state after the first ``step`` moves of the game.

        Built from the nearest cached step or stored snapshot at or before step
        ``step - lead``, plus the moves after that (one query each); every step passed
        on the way is cached too, with its move, so the ``lead`` steps just before
        (the one a step's draws are told from, or the next one back) cost nothing.
        """
        if not 0 <= step <= entry.steps:
            raise ApiError(
                404, "no_such_step", f"Game {entry.game_no} has steps 0 to {entry.steps}."
            )
        key = _key(room_id, entry, step)
        cached = self._states.get(key)
        lead = min(lead, step)
        if cached is not None and all(
            _key(room_id, entry, step - back) in self._states.items
            and _key(room_id, entry, step - back + 1) in self._moves.items
            for back in range(1, lead + 1)
        ):
            return cached
        started = await self.started(room_id, entry, session)
        engine = started.engine
        base_step, game = None, None
        for back in range(max(lead, 1), NEAR + 1):
            if step - back < 0:
                break
            game = self._states.get(_key(room_id, entry, step - back))
            if game is not None:
                base_step = step - back
                break
        target = entry.seq_of(step)
        async with self._session(session) as db:
            if base_step is None:
                upto = entry.seq_of(step - lead)
                snapshot = await queries.snapshot_at_or_before(db, room_id, upto, entry.game_no)
                if snapshot is not None and snapshot.seq >= entry.start_seq and not entry.rewound:
                    game = engine.load(snapshot.state["game"])
                    base_seq = snapshot.seq
                else:
                    data = started.data
                    game = engine.new_game(data["players"], data["seed"], data["options"])
                    base_seq = entry.start_seq
            else:
                base_seq = entry.seq_of(base_step)
            moves = _standing(
                entry, await queries.events_between(db, room_id, base_seq, target, kinds=(MOVE,))
            )
        at = step - len(moves)
        self._states.put(_key(room_id, entry, at), game)
        for event in moves:
            game = engine.apply(game, event.data["seat"], event.data["move"])
            at += 1
            self._states.put(_key(room_id, entry, at), game)
            self._moves.put(_key(room_id, entry, at), (event.data["seat"], event.data["move"]))
        self._states.put(key, game)
        return game

    async def drawn(
        self, room_id: str, entry: GameEntry, step: int, session: Any = None
    ) -> list[dict[str, Any]]:
        """The cards drawn by move ``step`` (``[{"seat", "card"}]``). Hidden facts: only
        for a finished game, which the caller checks."""
        if step == 0:
            return []
        after = await self.state_at(room_id, entry, step, session, lead=1)
        # state_at has just cached both (nothing ran in between to push them out)
        before = self._states.get(_key(room_id, entry, step - 1))
        played = self._moves.get(_key(room_id, entry, step))
        if before is None or played is None:
            raise RuntimeError(f"room {room_id}: step {step} came without the step before it")
        started = await self.started(room_id, entry, session)
        if is_resign(played[1]):
            return []
        return started.engine.draws(before, played[0], played[1], after)

    async def all_draws(self, room_id: str, entry: GameEntry) -> list[list[dict[str, Any]]]:
        """The draws of every move of a finished game, one list per move (one pass, cached)."""
        key = (room_id, entry.game_no)
        cached: list[list[dict[str, Any]]] | None = self._draws.get(key)
        if cached is not None:
            return cached
        started = await self.started(room_id, entry)
        engine, data = started.engine, started.data
        game = engine.new_game(data["players"], data["seed"], data["options"])
        out: list[list[dict[str, Any]]] = []
        for played in await self.private_moves(room_id, entry):
            after = engine.apply(game, played["seat"], played["move"])
            drawn = [] if is_resign(played["move"]) else engine.draws(game, **played, after=after)
            out.append(drawn)
            game = after
        self._draws.put(key, out)
        return out

    async def step(
        self, room_id: str, game_no: int, step: int, token: str | None, seen_as: int | None
    ) -> dict[str, Any]:
        """What step ``step`` of game ``game_no`` shows to the caller (one transaction).

        In a running game the caller's seat is the one its token holds in the room
        now, read in the same transaction as the game's steps: a seat freed since is
        nobody's, a seat claimed since is its newcomer's."""
        async with self.rooms.db.transaction() as session:
            entry = await self.game(room_id, game_no, session)
            started = await self.started(room_id, entry, session)
            players = len(started.names)
            if seen_as is not None and not 0 <= seen_as < players:
                raise ApiError(400, "bad_seat", f"Seats are numbered 0 to {players - 1}.")
            if entry.over:
                you = await self.seat_of(room_id, entry, token, session)
                perspective = you if seen_as is None else seen_as
            else:
                now = await self.rooms.load(room_id, session)
                wanted = hash_token(token) if token is not None else None
                you = access.perspective(now, wanted, None, game_no)
                perspective = access.perspective(now, wanted, seen_as, game_no)
            # a finished game tells the step's draws: built from the step before it
            game = await self.state_at(room_id, entry, step, session, lead=int(entry.over))
            draws = await self.drawn(room_id, entry, step, session) if entry.over else None
        engine = started.engine
        return {
            "game_no": game_no,
            "step": step,
            "steps": entry.steps,
            "over": entry.over,
            "you": you,
            "seen_as": perspective,
            "view": engine.view(game, perspective),
            "to_act": engine.to_act(game),
            "result": engine.result(game),
            # hidden while the game runs: which card each seat drew with this step's move
            "draws": draws,
        }

    async def moves(self, room_id: str, entry: GameEntry) -> list[dict[str, Any]]:
        """The public log line of every move of a game, in order."""
        last = entry.over_seq or (entry.move_seqs[-1] if entry.move_seqs else entry.start_seq)
        async with self.rooms.db.transaction() as session:
            rows = await queries.events_between(
                session, room_id, entry.start_seq, last, kinds=(MOVE,)
            )
        return [
            {"step": i + 1, "seq": e.seq, **e.public} for i, e in enumerate(_standing(entry, rows))
        ]

    async def private_moves(self, room_id: str, entry: GameEntry) -> list[dict[str, Any]]:
        """Every move as played (``{seat, move}``): may name hidden cards, so the caller checks."""
        last = entry.over_seq or (entry.move_seqs[-1] if entry.move_seqs else entry.start_seq)
        async with self.rooms.db.transaction() as session:
            rows = await queries.events_between(
                session, room_id, entry.start_seq, last, kinds=(MOVE,)
            )
        return [{"seat": e.data["seat"], "move": e.data["move"]} for e in _standing(entry, rows)]

    async def result(self, room_id: str, entry: GameEntry) -> dict[str, Any] | None:
        if entry.over_seq is None:
            return None
        async with self.rooms.db.transaction() as session:
            rows = await queries.events_between(
                session, room_id, entry.over_seq - 1, entry.over_seq
            )
        over = rows[-1] if rows else None
        # an aborted game ended with no result (docs/protocol.md, ending a game early)
        result = over.public.get("result") if over is not None else None
        return dict(result) if result is not None else None


def _key(room_id: str, entry: GameEntry, step: int) -> tuple[str, int, int, int]:
    """A step's cache key: the seq of its last move too, as a take-back in a running game
    gives a step number to another move (a move's seq names the position it leads to)."""
    return (room_id, entry.game_no, step, entry.seq_of(step))


def _standing(entry: GameEntry, moves: list[store.EventRecord]) -> list[store.EventRecord]:
    """The moves of ``moves`` that were not taken back."""
    if not entry.rewound:
        return moves
    kept = set(entry.move_seqs)
    return [move for move in moves if move.seq in kept]


def tally(
    names: Sequence[Sequence[str]],
    results: Sequence[dict[str, Any] | None],
    bots: Sequence[Sequence[str | None]],
) -> list[Any]:
    """Wins per player name over the finished games: rank 1 wins (shared firsts both count).
    A bot's entry carries its id as ``bot``, for the page to name it in its language."""
    wins: dict[str, int] = {}
    bot_of: dict[str, str] = {}
    for seat_names, result, seat_bots in zip(names, results, bots, strict=True):
        for name, bot in zip(seat_names, seat_bots, strict=True):
            wins.setdefault(name, 0)
            if bot is not None:
                bot_of[name] = bot
        if result is None:
            continue
        for name, rank in zip(seat_names, result["ranks"], strict=True):
            if rank == 1:
                wins[name] += 1
    ranked = sorted(wins.items(), key=lambda i: (-i[1], i[0]))
    return [
        {"name": n, "wins": w, **({"bot": bot_of[n]} if n in bot_of else {})} for n, w in ranked
    ]


def _bot_title(engine: Engine[Any], name: str) -> str:
    """A bot seat's name in a replay: its level's title (the name itself if unknown)."""
    bot = engine.bot(name)
    return bot.title if bot is not None else name
