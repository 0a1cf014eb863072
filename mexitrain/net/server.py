"""The table server: the only authority on one game played over the network (docs/protocol.md).

:class:`TableServer` listens for WebSockets and runs each client's session: the Hello, taking a
seat (or taking it back with its token), the messages after it. It holds the table's game and
seats (:mod:`mexitrain.net.game`: every intent checked with the rules, each seat sent its own
view only), plays the computer seats on their own view (in a thread, so the event loop never
waits on a search), and keeps the table on disk (:mod:`mexitrain.net.files`: every move
journalled before it is announced, the full save at each round's end, the seats and tokens in
``table.json``). Each client has its own bounded send queue and token bucket
(:mod:`mexitrain.net.links`), so nothing a client sends or fails to read stops the table or
reaches another seat. What strangers may cost it together is bounded per address and per
seat (:mod:`mexitrain.net.guard`, docs/threat-model/flood.md): the connections held, how
often one address connects and one seat is taken back, a wrong code answered late; seats
that come, go and come back within :attr:`Limits.coalesce` make one lobby and one update
each, and none when nothing the others see changed. :class:`ServerThread` runs a table on its
own event loop in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ..game_setup import GameSetup, random_seed, seat_seed
from ..rules import GameState, IllegalAction, new_game
from ..storage.savefile import SaveError
from ..text.names import unused_name
from . import files
from .chat import ChatRoom
from .game import Seat, ServerGame, token_hash
from .guard import FD_RESERVE, Admission, Buckets, Refusals, address_key, open_files_limit
from .links import FATAL, Connection, Limits
from .protocol import (
    MAX_SEATS,
    MAX_WATCHERS,
    PROTOCOL_VERSION,
    Bye,
    Chat,
    Error,
    GameRecord,
    HandOver,
    Hello,
    Intent,
    Lobby,
    ProtocolError,
    Refused,
    Rematch,
    Remove,
    Say,
    Seen,
    StartGame,
    Watch,
    Watching,
    Welcome,
    decode_client,
    encode,
    new_code,
    normalise_code,
)

__all__ = ["FATAL", "Limits", "ServerThread", "TableServer", "run_in_thread"]

log = logging.getLogger(__name__)

#: on_event(kind, **values): "joined", "back", "left", "started", "over", "timed" (name, seat:
#: the turn timer played that seat's tip), "results_timed" (name, seat: the next round went on
#: without waiting longer for that person to see the results), "rematch" (name, seat: accepted a new game),
#: "rematch_started", "watching" (count: someone began watching; how many watch now), and "refused" (why, who, count and the limit's values: what was refused,
#: said once per window)
Event = Callable[..., None]

#: The turn timer plays a seat's expert tip seeded with ``seat_seed(game seed, seat, TIMER_STRIDE)``:
#: the same game, the same choice, whatever the machine's speed (the expert's budget is counted
#: in actions, not seconds).
TIMER_STRIDE = 101
#: A rematch's seed is drawn afresh until its first seat is the one after the last game's (the
#: rules draw round 1's first seat from the seed): a seat of n in n draws on average; after
#: this many the last one drawn is taken.
REMATCH_DRAWS = 1000


class _Guarded(ServerConnection):
    """A WebSocket connection counted in as the TCP connection is accepted: over a cap
    (:class:`~mexitrain.net.guard.Admission`) it is closed before a byte is read."""

    def __init__(self, table: TableServer, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.address = ""
        self.refused = False

    def connection_made(self, transport: Any) -> None:
        if not self.table._accepted(self, transport):
            self.refused = True  # never a WebSocket: no handler task, no handshake
            transport.abort()
            return
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refused:
            return
        self.table._admission.close(self, self.address)
        super().connection_lost(exc)


class TableServer:
    """One table. ``setup`` gives the rules, the seed and each seat's name and kind; seats in
    ``open_seats`` wait for people to join, ``host_seat`` is the host's (its token is
    :attr:`host_token`), the other seats are computer players of their setup's level.
    ``pace``: seconds between two computer moves (0 in tests). ``turn_time``: the turn timer in
    seconds (None: none; a person's turn that runs past it is played with that seat's expert
    tip), read on ``clock`` (tests inject one and call :meth:`check_clock`). ``absent``: what a
    rematch does with a person who left ("computer" or "wait")."""

    def __init__(
        self,
        setup: GameSetup,
        *,
        data_dir: str | Path,
        open_seats: tuple[int, ...],
        host_seat: int | None,
        code: str | None = None,
        pace: float = 0.0,
        limits: Limits | None = None,
        rng: random.Random | None = None,
        on_event: Event | None = None,
        start_when_full: str | None = None,
        turn_time: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        absent: str = "computer",
    ) -> None:
        self.root = Path(data_dir)
        self.pace = pace
        self.limits = limits or Limits()
        self.on_event = on_event
        #: the level the open seats get when the last open seat is taken (None: wait for StartGame)
        self.start_when_full = start_when_full
        rng = rng or random.SystemRandom()
        self.code = normalise_code(code) if code else new_code(rng)
        if self.code is None:
            raise ValueError(f"not a table code: {code!r}")
        self.game = ServerGame.new(setup, open_seats, host_seat, secrets.token_urlsafe(24), turn_time=turn_time, clock=clock)
        self.game.absent = absent
        self.port: int | None = None
        self.files = files.TableFiles(self.root, self.code, lambda: self.game.table_file(self.code, self.port))
        self._server: Server | None = None
        self._conns: set[Connection] = set()
        self._kick = asyncio.Event()
        self._driver: asyncio.Task | None = None
        #: the turn timer's task, woken by :meth:`check_clock` whenever a turn may have changed
        self._timer: asyncio.Task | None = None
        self._clock_kick = asyncio.Event()
        #: the rematch being dealt (once everyone accepted)
        self._restarting: asyncio.Task | None = None
        #: the finished game's save to saves/, in a thread, started once (stop() awaits it)
        self._keeping: asyncio.Future | None = None
        #: the game is started on disk too (table.json): until then nobody is sent it or moves
        self._live = False
        self.errors = 0  # internal errors (tests)
        lim = self.limits
        #: the TCP connections held (the total is lowered to the open-file limit at start)
        self._admission = Admission(lim.max_connections, lim.per_address)
        #: connections each address opened lately, and Hellos with each seat's token
        self._attempts = Buckets(lim.attempts_burst, lim.attempts_rate, lim.tracked)
        self._seat_attempts = Buckets(lim.seat_burst, lim.seat_rate, MAX_SEATS + 1)
        #: each seat's messages (a connection that takes the seat takes its bucket)
        self._messages = Buckets(lim.burst, lim.rate, MAX_SEATS + 1)
        self._refusals: Refusals | None = None
        #: lobby and updates owed to everyone, sent together at the end of a short tick
        self._owe_lobby = False
        self._owe_updates = False
        self._flush_at: asyncio.TimerHandle | None = None
        #: the table's chat: the last lines, each seat's rate limit (on ``clock``)
        self.chat = ChatRoom(clock=clock)

    # -- the game and seats (mexitrain.net.game) ------------------------------------------------
    @property
    def setup(self) -> GameSetup:
        return self.game.setup

    @property
    def seats(self) -> list[Seat]:
        return self.game.seats

    @property
    def state(self) -> GameState | None:
        return self.game.state

    @property
    def seq(self) -> int:
        return self.game.seq

    @property
    def started(self) -> bool:
        return self.game.started

    @property
    def host_seat(self) -> int | None:
        return self.game.host_seat

    @property
    def host_token(self) -> str:
        return self.game.host_token

    @property
    def game_path(self) -> Path:
        return self.files.game_path

    def lobby(self) -> Lobby:
        return self.game.lobby(self.watchers())

    def watchers(self) -> int:
        """How many watch the table now (:class:`Watch`)."""
        return min(MAX_WATCHERS, sum(1 for c in self._conns if c.watcher and not c.closing))

    def _away(self):
        return self.game.away()

    @classmethod
    def resume(cls, data_dir: str | Path, code: str | None = None, **kwargs: Any) -> TableServer:
        """Reopen a table from ``tables/<CODE>/`` (the newest one without ``code``): the same
        code, tokens and seats, the game where it stopped, its turn timer and rematch choice
        (``turn_time`` and ``absent`` given here replace them). Raises :class:`SaveError`
        (``code`` "no_table" when there is none, "busy" when another server holds it)."""
        root = Path(data_dir)
        if code:
            code = normalise_code(code)
            if not code:
                raise SaveError("no table to reopen", action="load", code="no_table")
        meta, setup, state = files.load(root, code)
        server = cls(setup, data_dir=root, open_seats=(), host_seat=meta.host_seat, code=meta.code, **kwargs)
        seats = [Seat(i, s.name, s.kind, level=s.level, token=s.token, handed=s.handed) for i, s in enumerate(meta.seats)]
        for s in seats:
            if s.kind == "person":
                s.away_since = time.monotonic()
        old = server.game
        # the table's own timer and rematch choice, unless this reopening gives others
        turn_time = old.turn_time if old.turn_time is not None else meta.turn_time
        server.game = ServerGame(setup, seats, meta.host_seat, meta.host_token, turn_time=turn_time, clock=old.clock)
        server.game.absent = kwargs["absent"] if "absent" in kwargs else meta.absent
        server.port = meta.port
        server.chat.restore(server.files.chat_lines())  # what was said, for who comes back
        server.game.removed_hashes = server.files.removed_hashes()  # who was removed stays so
        if state is not None:
            server.game.state = state
            server.game.seq = files.count_actions(state)
            server.files.resumed(state, setup, server.game.seq)
            server._live = True
            server.game.note_turn()  # a resumed turn starts its clock afresh
        return server

    # -- lifetime -------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port bound."""
        lim = self.limits
        nofile = open_files_limit()
        if nofile is not None:
            self._admission.total = max(1, min(lim.max_connections, nofile - FD_RESERVE))
        self._server = await serve(
            self._handle,
            host,
            port,
            create_connection=functools.partial(_Guarded, self),  # type: ignore[arg-type]
            open_timeout=lim.open_timeout,
            max_size=lim.frame_cap,
            max_queue=8,
            ping_interval=lim.ping_interval,
            ping_timeout=lim.ping_timeout,
            close_timeout=lim.close_timeout,
            compression=None,
            write_limit=lim.write_limit,
        )
        sock = next(iter(self._server.sockets))
        self.port = sock.getsockname()[1]
        self.files.hold()  # the table's lock, lobby included (mexitrain.storage.inplay)
        await self.files.table_saved()
        self._driver = asyncio.create_task(self._drive())
        self._timer = asyncio.create_task(self._time_turns())
        if self.state is not None:
            self._kick.set()
        return self.port

    async def stop(self, *, closed: bool = True) -> None:
        """Close the table: every client is told ``table_closed`` (fatal: it stops retrying;
        ``values.resumable`` says whether ``mexitrain host --resume`` can reopen it, false once
        the game is over), after what was queued for it; then stop listening and write out the
        game's full save and the table file. ``closed=False`` (a restart) tells them
        ``server_closing`` instead: they reconnect by themselves."""
        for task in (self._driver, self._timer, self._restarting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._flush()  # what was owed goes before the goodbye
        if self._refusals is not None:
            self._refusals.flush()
            self._refusals.cancel()
        if closed:
            err = Error(code="table_closed", values={"resumable": self.resumable}, fatal=True)
        else:
            err = Error(code="server_closing")
        conns = list(self._conns)
        if conns:
            await asyncio.gather(*(conn.finish(err) for conn in conns), return_exceptions=True)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        if self._keeping is not None:  # the finished game is in saves/ before stop() returns
            with contextlib.suppress(Exception):
                await self._keeping
        await self.files.close(self.state, self.setup, self.seq)

    @property
    def kept(self) -> Path | None:
        """Where the finished game was kept in ``saves/`` (None: not over, or not kept)."""
        return self.files.kept

    @property
    def resumable(self) -> bool:
        """Whether ``mexitrain host --resume`` can reopen this table once stopped: until its
        game is over."""
        return not (self.state is not None and self.state.over)

    # -- a table of a table service (mexitrain serve: mexitrain.net.service) ----------------------
    async def open_unlistened(self) -> None:
        """Start the table without a port of its own (:meth:`start` without ``serve``): its
        connections come from a table service listening for many tables (:meth:`take`)."""
        self.files.hold()  # the table's lock, as start()
        await self.files.table_saved()
        self._driver = asyncio.create_task(self._drive())
        self._timer = asyncio.create_task(self._time_turns())
        if self.state is not None:
            self._kick.set()

    @property
    def connections(self) -> int:
        """The connections this table holds now (a table service closes idle tables)."""
        return len(self._conns)

    async def take(self, ws: Any, address: str) -> None:
        """Run the session of a connection a table service accepted and routed here: ``ws``
        has a websockets connection's ``recv``/``send``/``close`` and async iteration, its
        Hello read again by the first ``recv``. It counts in this table's caps (connections
        held, per address, attempts) as one accepted on its own port would."""
        ws.address = address_key(address)
        over = self._admission.open(ws, ws.address)
        if over is not None:
            self._refused("full" if over == "full" else "connections", ws.address)
            with contextlib.suppress(Exception):
                await ws.close(1013, "too_many")
            return
        try:
            await self._handle(ws)
        finally:
            self._admission.close(ws, ws.address)

    # -- the host's decisions -------------------------------------------------------------------
    def start_game(self, level: str = "planner", turn_time: int | None = None, absent: str | None = None) -> bool:
        """Start now: the open seats become computer players of ``level``. False if started.
        ``turn_time``: the turn timer in seconds, 0 for none (None: the table's own);
        ``absent``: what a rematch does with a person who left (None: the table's own)."""
        if self.started:
            return False
        if turn_time is not None:
            self.game.turn_time = float(turn_time) if turn_time else None
        if absent is not None:
            self.game.absent = absent
        if not self.game.start(level):
            return False
        assert self.state is not None
        self.files.dealt(self.state, self.setup)
        self._event("started", level=level)
        asyncio.get_running_loop().create_task(self._go_live())
        return True

    async def _go_live(self) -> None:
        """Announce the game once table.json says it started: a server killed after the first
        move is then resumed with it, never back in the lobby."""
        await self.files.table_saved()
        self._live = True
        self.game.note_turn()  # the first turn's clock starts as the game is announced
        self._announce()
        self._kick.set()
        self.check_clock()

    def hand_over(self, seat: int, level: str = "planner") -> bool:
        """A person's seat whose person is away is played by a computer of ``level`` until they
        come back. False when the seat is not a person's who is away."""
        if not self.game.hand_over(seat, level):
            return False
        self.files.table_changed()
        self._announce()
        self._kick.set()
        self.check_clock()
        return True

    # -- the turn timer -------------------------------------------------------------------------
    def check_clock(self) -> None:
        """Look at the turn's clock again now (a turn may have begun, or the clock moved on:
        tests call it after moving their clock)."""
        self.game.note_turn()
        self._clock_kick.set()

    async def _time_turns(self) -> None:
        """Wait for the timed turn to run out, then play that seat's expert tip for it, one
        action at a time until the turn is over (a seat away is played the same way)."""
        while True:
            self._clock_kick.clear()
            self.game.note_turn()
            left = self.game.turn_remaining() if self._live else None
            results = self.game.results_remaining() if self._live else None
            if results is not None and results <= 0:  # nobody holds the next round up longer than a turn
                self._results_timed_out()
                continue
            if left is None or left > 0:
                wait = min((t for t in (left, results) if t is not None), default=None)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._clock_kick.wait(), wait)
                continue
            try:
                await self._play_for_timer()
            except asyncio.CancelledError:
                raise
            except Exception:  # the tip's bug must not stop the table (the person may still move)
                self.errors += 1
                log.exception("turn timer")
                await asyncio.sleep(1)

    def _results_timed_out(self) -> None:
        """The round's results waited a turn's time for some people: the next round goes on
        without waiting for them (their screens still show the results until they go on)."""
        for seat in self.game.results_timed_out():
            self._event("results_timed", name=self.seats[seat].name, seat=seat)
        self._announce(lobby=False)
        self._kick.set()

    async def _play_for_timer(self) -> None:
        """The turn ran out: play the seat's expert tip, chosen on its own view only with a
        seed drawn from the game's (deterministic), unless the game moved on meanwhile."""
        from ..players.hint import hint

        seat = self.game.timed_seat()
        if seat is None:
            return
        seq = self.seq
        seed = seat_seed(self.setup.seed, seat, TIMER_STRIDE)
        action, _why = await asyncio.to_thread(hint, self.game.seat_view(seat), None, seed)
        left = self.game.turn_remaining()
        if self.seq != seq or self.game.timed_seat() != seat or left is None or left > 0:
            return  # the person moved, came back to a seat handed over, or the game went on
        try:
            new = self.game.apply(action)
        except IllegalAction:  # a bug of the tip: the seat's first legal action keeps the game going
            self.errors += 1
            log.exception("turn timer: the tip of seat %d was refused", seat)
            legal = self.game.seat_view(seat).legal
            if not legal:
                await asyncio.sleep(1)
                return
            action = legal[0]
            new = self.game.apply(action)
        self._event("timed", name=self.seats[seat].name, seat=seat)
        self._moved(new, action, timed=seat)

    # -- the rematch ----------------------------------------------------------------------------
    def _on_rematch(self, conn: Connection, msg: Rematch) -> None:
        """A person accepts a new game (the host may also say what happens to who left)."""
        if msg.absent is not None and not conn.host:
            conn.send(Error(code="not_host"))
            return
        state = self.state
        if msg.absent is not None and msg.absent != self.game.absent:
            self.game.absent = msg.absent
            self._announce(updates=False)
        if state is None or not state.over:
            if msg.absent is None:
                conn.send(Error(code="not_over"))
            return
        if self.game.accept_rematch(conn.seat):
            assert conn.seat is not None
            self._event("rematch", name=self.seats[conn.seat].name, seat=conn.seat)
            self._announce(lobby=False)
        self._rematch_check()

    def _rematch_check(self) -> None:
        """Deal the new game once every person it waits for has accepted."""
        if self._restarting is None and self.game.rematch_ready():
            self._restarting = asyncio.get_running_loop().create_task(self._restart())

    def _rematch_seed(self, starter: int, players: int) -> int:
        """A fresh seed (:func:`random_seed`, as any new game's) whose first seat is ``starter``."""
        seed = random_seed()
        for _ in range(REMATCH_DRAWS):
            if new_game(self.setup.rules, players=players, seed=seed).starter == starter:
                break
            seed = random_seed()
        return seed

    async def _restart(self) -> None:
        """Everyone accepted: the finished game is kept (saves/), the new one is dealt with a
        new seed and the next first seat, journalled afresh, and announced."""
        try:
            if self._keeping is not None:
                with contextlib.suppress(Exception):
                    await self._keeping
            state = self.state
            if state is None or not self.game.rematch_ready():
                return
            n = len(self.seats)
            seed = await asyncio.to_thread(self._rematch_seed, (state.starter + 1) % n, n)
            if not self.game.rematch_ready():
                return  # someone came back meanwhile and is waited for
            self._live = False
            new = self.game.restart(seed)
            self._keeping = None
            self.files.next_game(new, self.setup)
            self.files.table_changed()
            self._event("rematch_started")
            await self._go_live()
        finally:
            self._restarting = None

    # -- sending ----------------------------------------------------------------------------------
    def _announce(self, lobby: bool = True, updates: bool = True) -> None:
        """Who sits where changed (or the game started, or a seat was handed over): everyone
        is sent the lobby and their update at the end of the tick (:attr:`Limits.coalesce`),
        once however many changes it holds."""
        self._owe_lobby |= lobby
        self._owe_updates |= updates
        if self._flush_at is None:
            with contextlib.suppress(RuntimeError):  # no running loop: stop() flushes
                self._flush_at = asyncio.get_running_loop().call_later(self.limits.coalesce, self._flush)

    def _flush(self) -> None:
        """Send what is owed now: the lobby first, then each seat's update."""
        if self._flush_at is not None:
            self._flush_at.cancel()
            self._flush_at = None
        lobby, updates = self._owe_lobby, self._owe_updates
        self._owe_lobby = self._owe_updates = False
        if lobby:
            self._broadcast_lobby()
        if updates:
            self._broadcast_updates()

    def _broadcast_updates(self) -> None:
        """Each seated connection its update, unless it is the very one it was sent last."""
        if not self._live:
            return
        self._broadcast_onlooker()
        conns = [c for c in self._conns if c.seat is not None and not c.closing]
        texts = self.game.updates({c.seat for c in conns if c.seat is not None})
        record = self.game.record_text()
        for conn in conns:
            text = texts.get(conn.seat)  # type: ignore[arg-type]
            if text is not None and text != conn.last_update:
                self._send_record(conn, record)
                conn.last_update = text
                conn.send(text)

    @staticmethod
    def _send_record(conn: Connection, record: str | None) -> None:
        """A finished game's record text (:meth:`ServerGame.record_text`, None while the game
        runs) to ``conn`` as a :class:`GameRecord`, once a game, right before the update that
        shows the game over."""
        if record is not None and record is not conn.last_record:
            conn.last_record = record
            conn.send(encode(GameRecord(record=record)))

    def _broadcast_onlooker(self) -> None:
        """Each watcher the onlooker's view (built and encoded once for them all), unless it
        is the very one it was sent last."""
        conns = [c for c in self._conns if c.watcher and not c.closing]
        if not conns or self.state is None:
            return
        text = encode(self.game.onlooker_update())
        record = self.game.record_text()
        for conn in conns:
            if text != conn.last_update:
                self._send_record(conn, record)
                conn.last_update = text
                conn.send(text)

    def _broadcast_lobby(self) -> None:
        text = encode(self.lobby())
        for conn in list(self._conns):
            if (conn.seat is not None or conn.host or conn.watcher) and text != conn.last_lobby:
                conn.last_lobby = text
                conn.send(text)

    def _event(self, kind: str, **values: Any) -> None:
        if self.on_event is not None:
            try:
                self.on_event(kind, **values)
            except Exception:  # pragma: no cover
                log.exception("on_event")

    # -- the game -------------------------------------------------------------------------------
    def _moved(self, new: GameState, action: Any, timed: int | None = None) -> None:
        """Take ``new`` (after ``action``; ``timed``: the seat the turn timer played it for):
        journal it, tell every seat, let the computers play on."""
        before = self.game.state
        assert before is not None
        self.game.state = new
        self.game.seq += 1
        self.game.timed = timed
        self.game.round_ended(before, new)
        self.game.note_turn()
        self.files.moved(self.seq, action, before, new, self.setup)
        self._owe_updates = True
        self._flush()  # a move is sent at once (with whatever else was owed)
        if new.over and self._keeping is None:
            self.files.table_changed()
            self._event("over")
            self._keeping = asyncio.ensure_future(asyncio.to_thread(self.files.keep, new, self.setup))
        self._kick.set()
        self._clock_kick.set()

    async def _drive(self) -> None:
        """Play the computer seats, one action at a time, off the event loop."""
        while True:
            await self._kick.wait()
            self._kick.clear()
            while True:
                state = self.state
                if state is None or state.over or not self._live:
                    break
                s = self.seats[state.turn]
                if not s.computer_plays or self.game.waiting:
                    break  # a person's turn, or the round's results not seen by everyone yet
                seq = self.seq
                player = self.game.player(s)
                try:
                    action = await asyncio.to_thread(player.choose, self.game.seat_view(state.turn))
                    if self.pace:
                        await asyncio.sleep(self.pace)
                    if self.seq != seq or not s.computer_plays or self.game.waiting:
                        continue  # the game moved on meanwhile (a person came back)
                    new = self.game.apply(action)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a computer player's bug must not stop the table
                    self.errors += 1
                    log.exception("computer player in seat %d", s.index)
                    await asyncio.sleep(1)
                    continue
                self._moved(new, action)

    # -- a connection -------------------------------------------------------------------------
    def _accepted(self, ws: _Guarded, transport: Any) -> bool:
        """A TCP connection is accepted: counted in (True), or False over a cap (it is
        closed at once)."""
        peer = transport.get_extra_info("peername")
        ws.address = address_key(str(peer[0] if isinstance(peer, tuple) and peer else peer or "?"))
        # an address told "too_many" a moment ago and still over: closed without a word (it
        # was told why; a real client waits longer than that before trying again)
        b = self._attempts.peek(ws.address)
        now = time.monotonic()
        if b is not None and now - b.told < self.limits.hush and b.empty(now):
            self._refused("attempts", ws.address)
            return False
        over = self._admission.open(ws, ws.address)
        if over == "full":
            self._refused("full", None, limit=self._admission.total)
        elif over is not None:
            self._refused("connections", ws.address, limit=self._admission.per_address)
        return over is None

    def _refused(self, why: str, who: str | None, **values: Any) -> None:
        """Say what a limit refused: at once the first time, then once per window."""
        if self._refusals is None:
            loop = asyncio.get_running_loop()
            self._refusals = Refusals(
                self.limits.log_window,
                lambda why, who, count, values: self._event("refused", why=why, who=who, count=count, **values),
                loop.call_later,
            )
        self._refusals.note(why, who, **values)

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self.limits)
        conn.address = getattr(ws, "address", "") or "?"
        self._conns.add(conn)
        conn.open()
        try:
            if not self._attempts.take(conn.address):  # this address connects too often
                self._attempts.get(conn.address).told = time.monotonic()
                self._refused("attempts", conn.address)
                await conn.fail("too_many")
                return
            await self._session(conn)
        except ConnectionClosed:
            pass
        except Exception:  # a bug: this connection ends, the table goes on
            self.errors += 1
            log.exception("connection")
        finally:
            self._conns.discard(conn)
            conn.ended()
            self._left(conn)

    async def _session(self, conn: Connection) -> None:
        try:
            first = await asyncio.wait_for(conn.ws.recv(), self.limits.hello_timeout)
        except TimeoutError:
            await conn.fail("hello_first")
            return
        try:
            hello = decode_client(first)
        except ProtocolError as exc:
            await conn.fail(exc.code, fatal=True, **exc.values)  # a broken Hello: retrying cannot help
            return
        if isinstance(hello, Watch):
            if not await self._watch(conn, hello):
                return
        elif not isinstance(hello, Hello):
            await conn.fail("hello_first")
            return
        elif not await self._join(conn, hello):
            return
        async for text in conn.ws:
            if not conn.allow():
                self._refused("flood", conn.address)
                await conn.fail("flood")
                return
            try:
                msg = decode_client(text)
            except ProtocolError as exc:
                conn.send(Error(code=exc.code, values=exc.values, server_version=PROTOCOL_VERSION if exc.code == "version" else None))
                continue
            if isinstance(msg, Bye):
                await conn.close(1000, "bye")
                return
            try:
                self._on_message(conn, msg)
            except Exception:
                self.errors += 1
                log.exception("message %s", type(msg).__name__)
                conn.send(Error(code="internal"))

    async def _join(self, conn: Connection, hello: Hello) -> bool:
        code = normalise_code(hello.code) or ""
        if not hmac.compare_digest(code.encode(), self.code.encode()):
            # answered late: guessing codes takes time (the connection counts in its address's
            # cap meanwhile, so waiting costs nobody else a slot)
            self._refused("wrong_code", conn.address)
            await asyncio.sleep(self.limits.wrong_code_delay)
            await conn.fail("wrong_code")
            return False
        if hello.token is not None and self.game.is_removed(hello.token):
            self._refused("bad_token", conn.address)
            await conn.fail("removed", fatal=True)  # the host removed this person: no way back in
            return False
        if hello.token is not None:
            seat = self.game.seat_of_token(hello.token)
            host = seat is None and hmac.compare_digest(hello.token.encode(), self.host_token.encode())
            if seat is None and not host:
                self._refused("bad_token", conn.address)
                await conn.fail("bad_token")
                return False
            key = "host" if seat is None else seat
            if not self._seat_attempts.take(key):  # this seat is taken back too often
                name = None if seat is None else self.seats[seat].name
                self._refused("seat", conn.address, seat=seat, name=name)
                await conn.fail("too_many")
                return False
            conn.bucket = self._messages.get(key)
            if seat is None:
                conn.host = True  # the host of a table where the host has no seat
            else:
                self._take_back(conn, self.seats[seat], hello)
        else:
            s = None if self.started else self.game.open_seat()
            if s is None:
                await conn.fail("table_full")
                return False
            # the seat is this person's from now on; they learn its token once it is on disk
            s.kind, s.token, s.conn = "person", secrets.token_urlsafe(24), conn
            s.name = self._own_name(s, hello.name)
            self._event("joined", name=s.name, seat=s.index)
            conn.bucket = self._messages.get(s.index)
            try:
                await self.files.table_saved()
            finally:
                conn.seat = s.index
        token = self.host_token if conn.seat is None else self.seats[conn.seat].token
        assert token is not None
        conn.send(Welcome(seat=conn.seat, token=token, host=conn.host, table=self.code))
        if self.chat.lines:  # what was said lately, for who comes (back)
            conn.send(Chat(lines=tuple(self.chat.lines), recent=True))
        # the others see the seat is back, this one gets the lobby and its view (at the tick's end)
        self._announce(updates=self.started)
        if not self.started and self.start_when_full and self.game.open_seat() is None:
            self.start_game(self.start_when_full)
        self._kick.set()
        return True

    async def _watch(self, conn: Connection, watch: Watch) -> bool:
        """Someone watches the table: no seat, no token; sent the lobby and the onlooker's
        view (:meth:`ServerGame.onlooker_update`) from now on. At most ``Limits.watchers``
        at once (``watchers_full``, fatal); a wrong code is answered late, as a Hello's."""
        code = normalise_code(watch.code) or ""
        if not hmac.compare_digest(code.encode(), self.code.encode()):
            self._refused("wrong_code", conn.address)
            await asyncio.sleep(self.limits.wrong_code_delay)
            await conn.fail("wrong_code")
            return False
        limit = min(self.limits.watchers, MAX_WATCHERS)
        if self.watchers() >= limit:
            self._refused("watchers", conn.address, limit=limit)
            await conn.fail("watchers_full", limit=limit)
            return False
        conn.watcher = True
        conn.send(Watching(table=self.code))
        if self.chat.lines:  # what was said lately, as a seat that comes is sent it
            conn.send(Chat(lines=tuple(self.chat.lines), recent=True))
        self._event("watching", count=self.watchers())
        self._announce(updates=self.started)  # the lobby's count, and this watcher's view
        return True

    def _take_back(self, conn: Connection, s: Seat, hello: Hello) -> None:
        """The person of seat ``s`` is back on ``conn`` (another connection of theirs is closed)."""
        old = s.conn
        if old is not None and old is not conn:
            old.seat = None
            old.host = False
            asyncio.get_running_loop().create_task(old.kill(Error(code="replaced", fatal=True)))
        was_away = s.away_since is not None
        s.conn, s.away_since = conn, None
        if s.handed:
            s.handed, s.player = False, None
            s.level = None
            self.files.table_changed()
            self.check_clock()  # their turn is timed again
        conn.seat = s.index
        conn.host = s.index == self.host_seat
        if not self.started and hello.name and s.name != hello.name and s.index != self.host_seat:
            s.name = self._own_name(s, hello.name)
        if s.index == self.host_seat and not self.started:
            s.name = self._own_name(s, hello.name)
        self._event("back" if was_away else "joined", name=s.name, seat=s.index)

    def _own_name(self, s: Seat, name: str) -> str:
        """``name`` for seat ``s``, or "name 2"… when a person's or computer's seat already has
        it: one name, one player, at the table and in each one's statistics. (An open seat's
        placeholder does not count: the open seats are named afresh at the deal.)"""
        taken = (t.name for t in self.seats if t is not s and t.kind != "open")
        return unused_name(name, taken)

    def _left(self, conn: Connection) -> None:
        if conn.watcher:  # nothing waits for a watcher: only the lobby's count changes
            conn.watcher = False
            self._announce(updates=False)
            return
        if conn.seat is None:
            return
        s = self.seats[conn.seat]
        if s.conn is not conn:
            return
        s.conn, s.away_since = None, time.monotonic()
        conn.seat = None
        if s.index in self.game.waiting:  # the round does not wait for who left
            self.game.waiting.discard(s.index)
            self._kick.set()
            self.check_clock()
        self._event("left", name=s.name, seat=s.index, over=not self.resumable)
        self._announce()
        self._rematch_check()  # a rematch may have waited only for them

    def _on_message(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, Hello | Watch):
            conn.send(Error(code="hello_first"))
        elif isinstance(msg, Intent) and conn.watcher:
            conn.send(Refused(seq=msg.seq, code="watching"))  # someone who watches makes no move
        elif isinstance(msg, Intent):
            result = self.game.check(conn.seat, msg)
            if not self._live and not isinstance(result, Refused):  # dealt, not yet announced
                result = Refused(seq=msg.seq, code="not_started")
            if isinstance(result, Refused):
                conn.send(result)
            else:
                conn.refund()
                self._moved(result, msg.action)
        elif isinstance(msg, StartGame):
            if not conn.host:
                conn.send(Error(code="not_host"))
            elif not self.start_game(msg.level, msg.turn_time, msg.absent):
                conn.send(Error(code="started"))
        elif isinstance(msg, Seen):
            if self.game.seen(conn.seat, msg.round):  # (a repeat costs nothing)
                self._announce(lobby=False)
                if not self.game.waiting:
                    self._kick.set()  # the next round goes on
                    self.check_clock()
        elif isinstance(msg, Rematch):
            self._on_rematch(conn, msg)
        elif isinstance(msg, HandOver):
            if not conn.host:
                conn.send(Error(code="not_host"))
            elif not self.hand_over(msg.seat, msg.level):
                conn.send(Error(code="bad_seat", values={"seat": msg.seat}))
        elif isinstance(msg, Say):
            self._on_say(conn, msg)
        elif isinstance(msg, Remove):
            if not conn.host:
                conn.send(Error(code="not_host"))
            elif not self.remove(msg.seat, msg.level):
                conn.send(Error(code="bad_remove", values={"seat": msg.seat}))

    # -- chat and removing a person (issue 35 item 4) ---------------------------------------------
    def _on_say(self, conn: Connection, msg: Say) -> None:
        """A line from ``conn``'s seat: refused (no seat, empty, too long, too fast) or kept and
        sent to everyone with a seat, the host and the watchers (who read it, and say nothing)."""
        if conn.seat is None:
            conn.send(Refused(seq=msg.seq, code="no_seat"))
            return
        s = self.seats[conn.seat]
        said = self.chat.say(s.index, s.name, msg)
        if isinstance(said, Refused):
            conn.send(said)
            return
        self.files.said(said)
        text = encode(Chat(lines=(said,)))
        for c in list(self._conns):
            if (c.seat is not None or c.host or c.watcher) and not c.closing:
                c.send(text)

    def remove(self, seat: int, level: str = "planner") -> bool:
        """The host removes the person of ``seat`` (never the host's own seat): a computer of
        ``level`` plays it from now on, their token stops working and their connection is
        closed with ``removed``. False when ``seat`` is not another person's seat."""
        s = self.seats[seat] if 0 <= seat < len(self.seats) else None
        conn = None if s is None else s.conn
        name = None if s is None else s.name
        token = None if s is None else s.token
        if not self.game.remove(seat, level):
            return False
        if token is not None:
            self.files.removed(token_hash(token))
        self.chat.forget(seat)
        if conn is not None:
            conn.seat, conn.host = None, False  # its end is no longer the seat's leaving
            asyncio.get_running_loop().create_task(conn.kill(Error(code="removed", fatal=True)))
        self.files.table_changed()
        self._event("removed", name=name, seat=seat)
        self._announce()
        self._kick.set()
        self.check_clock()
        self._rematch_check()
        return True


# the server on its own thread (mexitrain host, Host a table…) is told in .thread
from .thread import ServerThread, run_in_thread  # noqa: E402
