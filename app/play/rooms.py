"""The use cases: create a room, claim a seat, start, move, chat.

Each one loads the room's state (cache, else snapshot plus later events), lets
the engine decide, appends to the log at the expected ``seq`` and only then
rings the doorbell. A lost race is retried against the new state or refused as
stale; it is never half-written.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from app.core.errors import ApiError, busy, not_found, seat_taken, stale
from app.play import store
from app.play.access import hash_token, is_host, require_host
from app.play.actor import Actor
from app.play.cache import StateCache
from app.play.fairness import commitment, new_salt
from app.play.kinds import CHAT, GAME_OVER, GAME_STARTED, MOVE, ROOM_CREATED, SEAT_BOT, SEAT_CLAIMED
from app.play.state import RoomState, fold, from_snapshot, to_snapshot
from app.play.store import Conflict, RoomRecord, SeatRecord, Store
from engines import ENGINES, get_engine
from engines.base import BadOptions, Engine, IllegalMove

log = logging.getLogger(__name__)

RETRIES = 8

Publish = Callable[[str, dict[str, Any]], Awaitable[None]]
# the events a doorbell may carry to the other processes: the frequent ones, which hold
# no secret (a game's start holds its seed, a seat's claim its token hash)
BELL_CARRIES = frozenset({MOVE, GAME_OVER, CHAT})
# called inside the append's transaction with (session, state before, state after):
# what must be written atomically with an event (an alert due, a deadline) goes here
OnAppend = Callable[[Any, "RoomState", "RoomState"], Awaitable[None]]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_room_id() -> str:
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class RoomRules:
    """How a room runs, chosen when it is created."""

    start_when_full: bool = False
    anyone_can_start: bool = False
    shuffle_seats: bool = False
    # time per move (None: no limit) and what happens when it runs out (see app/play/deadlines.py)
    turn_seconds: int | None = None
    on_timeout: str = "bot_move"
    # the bot that plays for a person who leaves or runs out of time (None: the strongest)
    stand_in: str | None = None
    # a move that can't be taken back asks for a second click (None: with a time per move)
    confirm_moves: bool | None = None


def level_of(engine: Engine[Any], bot: object) -> str:
    """The bot level a name asked for in an API call stands for (an old name such as
    ``strong`` gives the level it means now, ``Engine.bot_name``); an unknown one is
    refused."""
    level = engine.bot_name(bot)
    if level is None:
        raise ApiError(
            400, "unknown_bot", f"Unknown bot {bot!r}; known: {', '.join(engine.bots())}."
        )
    return level


def confirms_moves(rules: Mapping[str, Any]) -> bool:
    """Whether a room asks to confirm the moves that can't be taken back: as the host
    set it, else when the table has a time per move (app/play/undo.py)."""
    chosen = rules.get("confirm_moves")
    return bool(rules.get("turn_seconds")) if chosen is None else bool(chosen)


@dataclass(frozen=True)
class NewRoom:
    """A room about to be created: its empty state, the creator's token, its first event
    and the writes (room row, seats) that go in the same transaction."""

    state: RoomState
    token: str
    event: tuple[str, dict[str, Any], dict[str, Any]]
    setup: Callable[[Any], Awaitable[None]]


Event = tuple[str, dict[str, Any], dict[str, Any]]  # (kind, data, public) of one log row


@dataclass(frozen=True)
class Append:
    """What one change appends right after the state it was planned on.

    ``extra``: writes in the same transaction (a seat row, a deadline); raising
    ``Conflict`` there means the state was behind the database (the change is planned
    again on a newer one), raising ``ApiError`` refuses the change. ``status``: the
    room's new status. ``played``: the game state the move among ``events`` leads to,
    if already known. ``grouped``: the store may commit it together with other rooms'
    appends (``Store.write``); for moves and chat, whose writes depend on nothing but
    the states before and after.
    """

    events: list[Event]
    extra: Callable[[Any], Awaitable[None]] | None = None
    status: str | None = None
    played: Any = None
    grouped: bool = False


# a change planned on a state: what to append, or ``ApiError`` when it is refused there
Plan = Callable[[RoomState], Append]


class Rooms:
    """The room use cases over one store; ``publish`` rings the doorbell after commit."""

    def __init__(
        self,
        db: Store,
        publish: Publish,
        snapshot_every: int = 25,
        bells_travel: bool = True,
    ) -> None:
        self.db = db
        self.cache = StateCache()
        self._publish = publish
        # bells reach other processes (Redis): a move's bell carries its events then
        self.bells_travel = bells_travel
        self.snapshot_every = snapshot_every
        self.after_commit: list[Callable[[RoomState], None]] = []
        self.on_append: list[OnAppend] = []

    # -- loading ---------------------------------------------------------------

    async def load(self, room_id: str, session: Any = None) -> RoomState:
        """The room's current state: cached and caught up, else the newest snapshot
        plus the events after it. One query when the room is cached.

        ``session``: read with the caller's open session instead of one of our own
        (the store refuses a session inside another of the same task). What such a
        session read is not cached: it may see writes of its own not yet committed.
        """
        if session is not None:
            state, _ = await self._read(session, room_id)
            return state
        async with self.db.reading() as own:
            state, events = await self._read(own, room_id)
        if events is not None:
            self.cache.put(state, events)
        return state

    async def _read(
        self, session: Any, room_id: str
    ) -> tuple[RoomState, list[store.EventRecord] | None]:
        """The state and the events read to reach it (``None``: the cached state is current)."""
        cached = self.cache.get(room_id)
        if cached is not None:
            events = await store.events_after(session, room_id, cached.seq)
            if not events:
                return cached, None
            return fold(cached, events), events
        room = await store.get_room(session, room_id)
        if room is None:
            raise not_found(room_id)
        snapshot = await store.latest_snapshot(session, room_id)
        if snapshot is not None:
            state = from_snapshot(room, snapshot.seq, snapshot.state)
            if state.host is None:  # a snapshot older than the host in snapshots
                created = await store.events_after(session, room_id, 0, limit=1)
                state = replace(state, host=fold(RoomState(room=room), created).host)
        else:
            state = RoomState(room=room)
        events = await store.events_after(session, room_id, state.seq)
        return fold(state, events), events

    async def at_least(self, room_id: str, seq: int) -> RoomState:
        """The room's state at ``seq`` or later: from the cache when it is that far,
        without asking the database (a doorbell names the seq it rang for)."""
        cached = self.cache.get(room_id)
        if cached is not None and cached.seq >= seq:
            return cached
        return await self.load(room_id)

    def offer(self, room_id: str, events: Any) -> bool:
        """Events another process appended, as its doorbell carried them: folded into
        the cached state when they follow on from it, so the push they ring for reads
        nothing. Anything else (no cached state, a gap, a bell already heard, a bell
        this process can't read) leaves the cache as it is, and the push loads from
        the log. True when the cache took them."""
        cached = self.cache.get(room_id)
        if cached is None or not isinstance(events, list) or not events:
            return False
        first = events[0]
        if isinstance(first, dict) and first.get("seq") != cached.seq + 1:
            return False  # heard already (this process rang it), or a gap: nothing to fold
        try:
            records = [store.event_from_bell(item) for item in events]
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("ignoring the events of a bell for room %s: %s", room_id, exc)
            return False
        seqs = [r.seq for r in records]
        if seqs != list(range(cached.seq + 1, cached.seq + 1 + len(records))):
            return False
        try:
            state = fold(cached, records)
        except Exception:
            log.exception("events of a bell for room %s did not fold; loading instead", room_id)
            return False
        self.cache.put(state, records)
        return True

    async def seats(self, room_id: str) -> list[SeatRecord]:
        return (await self.load(room_id)).seat_records()

    async def events(self, room_id: str, after: int, limit: int = 500) -> list[store.EventRecord]:
        async with self.db.reading() as session:
            return await store.events_after(session, room_id, after, limit)

    async def events_upto(self, room_id: str, after: int, upto: int) -> list[store.EventRecord]:
        """The events ``after < seq <= upto``: kept ones from the cache, else the log's."""
        kept = self.cache.events(room_id, after, upto)
        if kept is not None:
            return kept
        rows = await self.events(room_id, after, limit=upto - after)
        return [e for e in rows if e.seq <= upto]

    # -- writing ---------------------------------------------------------------

    async def append(self, state: RoomState, change: Append) -> RoomState:
        """Append ``change`` right after ``state.seq`` in one transaction, or ``Conflict``;
        then keep the new state, ring the doorbell and tell the after-commit hooks.

        Use cases go through ``change``, which plans again after a lost race; this is
        for an append that has no newer state to try (a new room, an import).
        """
        events, extra, status = change.events, change.extra, change.status
        records = [
            store.EventRecord(seq=state.seq + 1 + i, kind=k, data=d, public=p, created_at=None)
            for i, (k, d, p) in enumerate(events)
        ]
        folded = fold(state, records, change.played)

        async def write(session: Any) -> tuple[list[store.EventRecord], RoomState]:
            new_state = folded
            if extra is not None:
                await extra(session)
            written = await store.append_events(session, state.room.id, state.seq + 1, events)
            if status is not None and status != state.status:
                await store.set_status(session, state.room.id, status)
            for within in self.on_append:
                await within(session, state, new_state)
            if new_state.game is not None and new_state.moves_since_snapshot >= self.snapshot_every:
                new_state = replace(new_state, moves_since_snapshot=0)
                await store.save_snapshot(
                    session, state.room.id, new_state.seq, new_state.game_no, to_snapshot(new_state)
                )
            return written, new_state

        if change.grouped:
            records, new_state = await self.db.write(state.room.id, write)
        else:
            async with self.db.transaction() as session:
                records, new_state = await write(session)
        self.cache.put(new_state, records)
        # the bell of a move or chat carries its events: a process holding the state
        # before them folds them in and pushes with no read of its own (``offer``);
        # others (a game's seed, a seat's token hash) stay in the log
        bell: dict[str, Any] = {"seq": new_state.seq}
        if self.bells_travel and all(r.kind in BELL_CARRIES for r in records):
            bell["events"] = [store.event_to_bell(r) for r in records]
        try:
            await self._publish(state.room.id, bell)
        except Exception:
            # committed is committed: the bell is only a hint, and the catch-up heals it
            log.exception("doorbell for room %s at seq %s failed", state.room.id, new_state.seq)
        for hook in self.after_commit:
            hook(new_state)
        return new_state

    async def change(
        self, room_id: str, plan: Plan, state: RoomState | None = None, cached: bool = False
    ) -> RoomState:
        """Plan a change on the room's newest state and append it; after a lost race
        (``Conflict``), plan it again on the state read from the log, ``RETRIES`` times
        at most (then 409 ``busy``). Every check a change makes lives in ``plan``, so it
        is made again on each state the change is tried on.

        ``state``: the state to plan on first (one the caller read). ``cached``: try the
        cached state without asking the database; a refusal there is asked again on the
        log's state, which may know better (another process moved).
        """
        checked = not cached
        if state is None:
            state = self.cache.get(room_id) if cached else None
            if state is None:
                state, checked = await self.load(room_id), True
        for _ in range(RETRIES):
            try:
                step = plan(state)
            except ApiError:
                if checked:
                    raise
                state, checked = await self.load(room_id), True
                continue
            try:
                return await self.append(state, step)
            except Conflict:
                state, checked = await self.load(room_id), True
        raise busy()

    async def create(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        name: str,
        seat: int,
        bots: Mapping[int, str],
        rules: RoomRules,
    ) -> tuple[RoomState, str]:
        """A new room with the creator in ``seat``; returns its state and the creator's token."""
        new = self.new_room(game, players, options, name, seat, bots, rules)
        state = await self.append(new.state, Append([new.event], extra=new.setup))
        return state, new.token

    def new_room(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        name: str,
        seat: int,
        bots: Mapping[int, str],
        rules: RoomRules,
        imported: bool = False,
    ) -> NewRoom:
        """A room not yet written: its ``room_created`` event and the writes that go with
        it, for ``create``, or for an import that appends a whole game after it in the
        same transaction. ``imported``: the room is made from a game record."""
        if game not in ENGINES:
            raise ApiError(
                400,
                "unknown_game",
                f"There is no game called {game!r}. Known games: {', '.join(sorted(ENGINES))}.",
            )
        engine = get_engine(game)
        try:
            normalized = engine.normalize_options(players, options)
            if players not in engine.player_counts(normalized):
                raise BadOptions(
                    f"With these options {engine.title} is played by "
                    f"{', '.join(map(str, engine.player_counts(normalized)))} players."
                )
        except BadOptions as exc:
            raise ApiError(400, exc.code, exc.message) from exc
        if not 0 <= seat < players:
            raise ApiError(400, "bad_seat", f"Seats are numbered 0 to {players - 1}.")
        levels: dict[int, str] = {}
        for bot_seat, bot in bots.items():
            if not 0 <= bot_seat < players:
                raise ApiError(400, "bad_seat", f"Seats are numbered 0 to {players - 1}.")
            if bot_seat == seat:
                raise ApiError(400, "bad_seat", "Your own seat cannot be a bot.")
            levels[bot_seat] = level_of(engine, bot)
        bots = levels
        if rules.stand_in is not None:
            rules = replace(rules, stand_in=level_of(engine, rules.stand_in))
        room = RoomRecord(
            id=new_room_id(),
            game=game,
            players=players,
            options=normalized,
            rules=asdict(rules),
            creator_seat=seat,
            status="lobby",
            created_at=None,
        )
        token = new_token()
        state = RoomState(room=room)

        async def setup(session: Any) -> None:
            await store.create_room(session, room)
            await store.claim_seat(session, room.id, seat, name, hash_token(token))
            for bot_seat, bot in bots.items():
                await store.set_bot(session, room.id, bot_seat, bot)

        public = {
            "game": game,
            "players": players,
            "options": normalized,
            "creator_seat": seat,
            "name": name,
            "bots": {str(k): v for k, v in bots.items()},
        }
        if imported:
            public["imported"] = True
        data = {**public, "token_hash": hash_token(token)}
        return NewRoom(state, token, (ROOM_CREATED, data, public), setup)

    async def claim(
        self, room_id: str, seat: int, name: str, token: str | None
    ) -> tuple[RoomState, str]:
        """Sit down in a free seat; returns the new state and the seat token."""
        state = await self.load(room_id)
        if not 0 <= seat < state.room.players:
            raise ApiError(
                404, "no_such_seat", f"This room has seats 0 to {state.room.players - 1}."
            )
        if token is not None:
            mine = state.seat_with(hash_token(token))
            if mine is not None:
                raise ApiError(
                    409, "already_seated", f"You already sit in seat {mine + 1}.", seat=mine
                )
        new = new_token()

        async def sit(session: Any) -> None:
            if not await store.claim_seat(session, room_id, seat, name, hash_token(new)):
                raise seat_taken()

        def plan(state: RoomState) -> Append:
            if state.status == "playing":
                raise ApiError(409, "game_running", "Seats can't change while a game is running.")
            if not 0 <= seat < state.room.players:  # the host may have made the table smaller
                raise ApiError(
                    404, "no_such_seat", f"This room has seats 0 to {state.room.players - 1}."
                )
            if state.seats[seat].taken:
                raise seat_taken()
            public = {"seat": seat, "name": name}
            data = {**public, "token_hash": hash_token(new)}
            return Append([(SEAT_CLAIMED, data, public)], extra=sit)

        state = await self.change(room_id, plan, state)
        if state.room.rules.get("start_when_full") and all(s.taken for s in state.seats):
            # someone else may have started it a moment earlier: that is fine
            with contextlib.suppress(ApiError):
                state = await self._start(
                    state, shuffle=bool(state.room.rules.get("shuffle_seats"))
                )
        return state, new

    async def set_bot(
        self, room_id: str, token: str | None, seat: int, bot: str | None
    ) -> RoomState:
        """The host makes a free seat a bot (or frees a bot seat) before a game starts.

        Who may, and whether seats may change, is checked again on every state the
        change is tried on: a start that wins the race leaves no seat to free.
        """

        def plan(state: RoomState) -> Append:
            require_host(state, token, "change the seats")
            if state.status == "playing":
                raise ApiError(409, "game_running", "Seats can't change while a game is running.")
            if not 0 <= seat < state.room.players:
                raise ApiError(
                    404, "no_such_seat", f"This room has seats 0 to {state.room.players - 1}."
                )
            level = None if bot is None else level_of(state.engine, bot)

            async def sit(session: Any) -> None:
                if not await store.set_bot(session, room_id, seat, level):
                    raise ApiError(409, "seat_taken", "A person sits in this seat.")

            public = {"seat": seat, "bot": level}
            return Append([(SEAT_BOT, public, public)], extra=sit)

        return await self.change(room_id, plan)

    async def start(self, room_id: str, token: str | None, shuffle: bool | None) -> RoomState:
        """Start the first game, or a rematch once a game is over, with the same seats."""
        state = await self.load(room_id)
        if token is None:
            raise ApiError(401, "no_token", "Sit down first: only players can start the game.")
        if shuffle is None:
            shuffle = bool(state.room.rules.get("shuffle_seats"))
        return await self._start(state, shuffle, Actor.holding(token))

    async def _start(
        self, state: RoomState, shuffle: bool, actor: Actor | None = None
    ) -> RoomState:
        """Start a game on ``state`` (retried on newer ones); ``actor`` must be allowed to."""
        room_id = state.room.id

        def plan(state: RoomState) -> Append:
            if actor is not None:
                actor.seat_in(state)
                if not is_host(state, actor.token_hash) and not state.room.rules.get(
                    "anyone_can_start"
                ):
                    raise ApiError(403, "not_creator", "Only the room's host can start the game.")
            if state.status == "playing":
                raise ApiError(409, "game_running", "The game is already running.")
            empty = [i for i, s in enumerate(state.seats) if not s.taken]
            if empty:
                raise ApiError(
                    409,
                    "seats_free",
                    f"Every seat needs a player or a bot first; free: "
                    f"{', '.join(str(s + 1) for s in empty)}.",
                )
            order = list(range(state.room.players))
            if shuffle:
                secrets.SystemRandom().shuffle(order)
            engine = state.engine
            seed = secrets.randbits(63)
            salt = new_salt()
            data = {
                "engine": engine.name,
                "version": engine.version,
                "players": state.room.players,
                "options": state.room.options,
                "seed": seed,
                "game_no": state.game_no + 1,
                "order": order,
                "salt": salt,
                "commitment": commitment(seed, salt),
            }
            # seed and salt stay private until the game is over (app/play/fairness.py)
            public = {k: v for k, v in data.items() if k not in ("seed", "salt")}

            async def reseat(session: Any, order: list[int] = order) -> None:
                if order != sorted(order):
                    await store.permute_seats(session, room_id, order)

            return Append([(GAME_STARTED, data, public)], extra=reseat, status="playing")

        return await self.change(room_id, plan, state)

    async def move(
        self, room_id: str, token: str | None, seq: int, move: Mapping[str, Any]
    ) -> RoomState:
        """A seat token's move, based on what its holder saw at ``seq``."""
        if token is None:
            await self.load(room_id)  # an unknown room is reported as such first
            raise ApiError(401, "no_token", "Spectators can't move; sit down first.")
        return await self.move_by(room_id, Actor.holding(token), seq, move)

    async def move_by(
        self, room_id: str, actor: Actor, seq: int, move: Mapping[str, Any]
    ) -> RoomState:
        """``actor``'s move, played for the seat it holds in the very state it is played on.

        After a lost race the seat is looked up again: a shuffled start may have
        moved the token, and the move then goes to the token's new seat or nowhere.
        The cached state is tried without asking the database first: if another
        process moved meanwhile, the unique (room, seq) key refuses the append and
        the move is tried again on the state read from the log.
        """

        def plan(state: RoomState) -> Append:
            events, status, after = self._judge(state, actor, seq, move)
            return Append(events, status=status, played=after, grouped=True)

        cached = self.cache.get(room_id)
        # a seq past the cached state: the cache is behind, read the log at once
        return await self.change(room_id, plan, cached=cached is not None and seq <= cached.seq)

    @staticmethod
    def _judge(
        state: RoomState, actor: Actor, seq: int, move: Mapping[str, Any]
    ) -> tuple[list[Event], str | None, Any]:
        """The move played on ``state`` for the actor's seat there: the events to append,
        the room's new status (or ``None``) and the game state after it; ``ApiError``
        if refused."""
        seat = actor.seat_in(state)
        if seq > state.seq:
            raise ApiError(400, "bad_seq", f"seq {seq} is ahead of the room (at {state.seq}).")
        if seq < state.game_seq:
            raise stale(state.seq)
        if state.status != "playing":
            raise ApiError(409, "not_playing", "No game is running in this room.")
        engine = state.engine
        try:
            after = engine.play(state.game, seat, move)
        except IllegalMove as exc:
            if exc.malformed:
                raise ApiError(400, "malformed_move", exc.message, reason=exc.code) from exc
            raise ApiError(422, "illegal_move", exc.message, reason=exc.code) from exc
        line = engine.log_line(state.game, seat, move, after)
        public: dict[str, Any] = {"seat": seat, "log": line}
        stand_in = state.seats[seat].stand_in
        if actor.bot_seat is not None and stand_in is not None:
            public["stand_in"] = stand_in  # the bot's move, not the away person's
        events: list[Event] = [("move", {"seat": seat, "move": dict(move)}, public)]
        result = engine.result(after)
        status = None
        if result is not None:
            events.append((GAME_OVER, {"result": result}, {"result": result}))
            status = "finished"
        return events, status, after

    async def note(
        self, room_id: str, kind: str, extra: Callable[[Any], Awaitable[None]]
    ) -> RoomState:
        """Append a bookkeeping event ``kind`` (nothing in it for anyone to read) with
        ``extra``'s writes in the same transaction; retried on the newer state after a
        lost race, so whatever folds the event is never behind those writes."""
        return await self.change(room_id, lambda state: Append([(kind, {}, {})], extra=extra))

    async def chat(self, room_id: str, token: str | None, text: str, max_chars: int) -> RoomState:
        """A short message from a seated player to everyone in the room."""
        if token is None:
            raise ApiError(401, "no_token", "Only seated players can chat.")
        return await self.chat_by(room_id, Actor.holding(token), text, max_chars)

    async def chat_by(self, room_id: str, actor: Actor, text: str, max_chars: int) -> RoomState:
        """``actor``'s chat line, signed with the seat and name it holds where it is appended."""
        state = await self.load(room_id)
        actor.seat_in(state)
        text = text.strip()
        if not text:
            raise ApiError(400, "empty_chat", "A chat message needs some text.")
        if len(text) > max_chars:
            raise ApiError(
                413, "chat_too_long", f"Chat messages are at most {max_chars} characters."
            )

        def plan(state: RoomState) -> Append:
            seat = actor.seat_in(state)
            public = {"seat": seat, "name": state.seats[seat].name, "text": text}
            return Append([(CHAT, public, public)], grouped=True)

        return await self.change(room_id, plan, state)
