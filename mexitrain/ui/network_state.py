"""What this terminal knows of a table on the network: plain Python, no Textual (issue 23).

:class:`TableRequest` is the table to sit at (address, code, name, the host's rights);
:class:`NetworkState` is the last Welcome, Lobby and Update the server sent, the link's state, and
what is due on screen (a knock, a round's results, the final standings, a forced marker or
pass); :meth:`NetworkState.bar_text` is the line under the status line. The network
table (:mod:`mexitrain.ui.network`, the app's source at a table) owns one.

It lives in ui/ beside :mod:`.board` (the same kind of thing: what the screens show, as
values) rather than in net/ or at the session's level: it is the state of one screen's
connection (notices, the bar's countdown, the seat called "you"), not of the table itself,
which the server holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ..i18n import _
from ..net.protocol import (
    CHAT_KEEP,
    Away,
    Chat,
    ChatLine,
    Lobby,
    Onlooker,
    Update,
    Watching,
    Welcome,
)
from ..rules import Action, SeatView, watched
from ..session import Notice, knock_notice, knocked
from ..session import forced_notice as session_forced_notice
from ..text.chat import reaction_text
from ..text.guest import disconnected_text, problem_text
from ..text.net import (
    away_text,
    back_text,
    link_text,
    rematch_text,
    timed_text,
    turn_clock_text,
    waiting_results_text,
)


@dataclass
class TableRequest:
    """A table to sit at: its address (HOST:PORT), code, this person's name; ``host_token``
    gives host rights (the host's own client); ``join_line`` is what the host's lobby shows
    others; ``server`` is a server this app runs in a thread (stopped when the app leaves)."""

    address: str
    code: str
    name: str
    host_token: str | None = None
    join_line: str | None = None
    server: Any = None
    #: a table of ``mexitrain serve`` (New table…, a ``/t/CODE`` page): the serve process
    #: holds it, and it stays open when this page leaves (until nobody is at it for a while)
    served: bool = False
    #: watch the table rather than sit at it (``mexitrain join --watch``, Watch in the join form)
    watch: bool = False

    @property
    def runs_server(self) -> bool:
        """Whether this process runs the table's server, which ends with the app: the host's
        rights come only with it (``mexitrain host``, whose command stops it; Host a table…,
        whose ``server`` the app stops); never a served table (:attr:`served`)."""
        return (self.server is not None or self.host_token is not None) and not self.served


def checked_record(text: str, view: Any) -> Any:
    """The final state of a finished game's record (a GameRecord's text), replayed strictly
    (:func:`mexitrain.rules.record.replay`: every move checked by the rules), when it is the
    game of ``view`` (a finished game's view): the seed the view revealed, its rules, seats and
    every round's scores; else None (a host cannot hand a guest another game to review)."""
    from ..rules.record import load_record, replay

    try:
        state = replay(load_record(text))
    except Exception:  # noqa: BLE001 - anything a record could hold is "not this game"
        return None
    same = (
        state.over
        and state.seed == view.revealed_seed
        and state.rules == view.rules
        and state.players == view.players
        and [list(r.scores) for r in state.results] == [list(r.scores) for r in view.results]
    )
    return state if same else None


@dataclass
class NetworkState:
    """The table as this terminal knows it: the last Welcome, Lobby and Update, the link,
    and what is due on screen (a round's results, the final standings). Plain Python."""

    request: TableRequest
    welcome: Welcome | Watching | None = None
    lobby: Lobby | None = None
    update: Update | None = None
    link: Any = None
    link_at: float = 0.0
    update_at: float = 0.0
    fatal: str | None = None  # the fatal error that ended the link, in words
    level: str = "planner"  # the computer level the host chose in the lobby
    seq: int = 0  # intents sent
    auto_events: set[int] = field(default_factory=set)
    forced_sent: int | None = None  # the update seq a forced move was sent for
    round_over_pending: bool = False
    game_over_shown: bool = False
    #: the deal's seal in the first update this guest got (docs/fair-deal.md): the seed the
    #: host reveals at the end is checked against it, not against the last update's
    first_seal: str | None = None
    #: the update seq whose timed move was told (an update repeats ``timed`` until the next move)
    timed_seq: int | None = None
    #: a new game started at the table (a rematch: a new seal) since the app last looked
    new_game: bool = False
    #: the chat lines the table sent, oldest first (at most CHAT_KEEP), and whether this
    #: screen hides the others' lines (the mute key, v)
    chat: list[ChatLine] = field(default_factory=list)
    muted: bool = False
    #: the finished game's record as the table sent it (a GameRecord's text, the last one
    #: only), and what :meth:`finished_game` made of it
    record: str | None = None
    _finished: tuple[str, Any] | None = field(default=None, repr=False)

    def finished_game(self) -> tuple[Any, tuple[str, ...]] | None:
        """(the full final snapshot, kinds: "human" for a person's seat) of the game that is
        over, from the record the table sent; None when there is none, or when it is not the
        game this terminal's views showed (:func:`checked_record`). Replayed once a record."""
        update, record = self.update, self.record
        if update is None or record is None or update.view.phase != "game_over":
            return None
        if self._finished is None or self._finished[0] is not record:
            self._finished = (record, checked_record(record, update.view))
        state = self._finished[1]
        if state is None:
            return None
        return state, tuple("human" if k == "person" else "computer" for k in update.kinds)

    @property
    def seat(self) -> int | None:
        return None if self.welcome is None else self.welcome.seat

    @property
    def host(self) -> bool:
        return self.welcome is not None and self.welcome.host

    @property
    def watching(self) -> bool:
        """This terminal watches the table (no seat, no move)."""
        return self.request.watch

    @property
    def connected(self) -> bool:
        return self.link is not None and self.link.state == "connected" and self.fatal is None

    def names(self) -> tuple[str, ...]:
        return () if self.update is None else self.update.names

    def kinds(self) -> tuple[str, ...]:
        """Each seat as the board knows seats: "human" for a person, else its computer level
        (the lobby says which; "planner" until it does)."""
        if self.update is None:
            return ()
        levels: dict[int, str] = {}
        if self.lobby is not None:
            levels = {s.seat: s.level for s in self.lobby.seats if s.level}
        return tuple("human" if k == "person" else levels.get(i, "planner") for i, k in enumerate(self.update.kinds))

    def take(self, update: Update, now: float) -> list[Notice]:
        """Take a new Update: the knocks to tell (a seat down to one tile), and the round's
        results or the final standings become due."""
        old_update = self.update
        old = old_update.view if old_update is not None else None
        new = update.view
        if old is not None and old.phase == "game_over" and new.phase != "game_over" and new.seal != old.seal:
            # a rematch: a new game after the last one ended, with its own seal (a seal that
            # changes during a game is not taken: the seed revealed is checked against the first)
            old_update = old = None
            self.first_seal = None
            self.forced_sent = self.timed_seq = None
            self.round_over_pending = self.game_over_shown = False
            self.new_game = True
        self.update, self.update_at = update, now
        if self.first_seal is None:
            self.first_seal = new.seal
        if old is None or new.round != old.round or len(new.results) != len(old.results):
            self.auto_events = set()
        if old is not None and len(new.results) > len(old.results):
            self.round_over_pending = True
        names = update.names
        notices = [
            knock_notice(names[seat] if seat < len(names) else str(seat + 1), seat == new.seat and not self.watching)
            for seat in knocked(old, new)
        ]
        if update.timed is not None and update.seq != self.timed_seq and update.timed < len(names):
            self.timed_seq = update.seq  # the turn timer played this seat's tip
            notices.append(Notice(timed_text(names[update.timed]), _("Turn timer"), "warning", 6))
        if old_update is not None:  # a person whose link had dropped is back
            now_away = {a.seat for a in update.away}
            for a in old_update.away:
                if a.seat not in now_away and (self.watching or a.seat != new.seat) and a.seat < len(names):
                    notices.append(Notice(back_text(names[a.seat]), _("Back at the table"), timeout=4))
        return notices

    def forced(self) -> Action | None:
        """The only move left to this seat when it is a marker or a pass (made for the
        person, as in a local game), once per update."""
        update = self.update
        if update is None or self.seat is None or self.forced_sent == update.seq:
            return None
        view = update.view
        if not view.my_turn or self.kinds()[view.seat] != "human":
            return None
        if view.forced is not None:  # the core's fact, sent with the view
            self.forced_sent = update.seq
        return view.forced

    def bar_text(self, now: float) -> str:
        """The game screen's and lobby's line: the link while it is not up, else who is away
        (the clocks counting from the last update), else nothing."""
        if self.fatal is not None:
            return self.fatal
        link = self.link
        if link is not None and link.state != "connected":
            retry = link.retry_in
            if link.state == "retrying" and retry is not None:
                retry = max(0.0, retry - (now - self.link_at))
            if link.state == "closed":  # "Disconnected: <why>" whenever a link ends
                return disconnected_text(problem_text(link.error) if link.error else None)
            text = link_text(SimpleNamespace(state=link.state, attempt=link.attempt, retry_in=retry, error=None))
            if link.state == "connecting" and not self.request.served:
                # a served table's address is the serve process's own, inside the machine
                text = f"{text} ({self.request.address})"
            if link.error:  # the reason of the last attempt, in the words of this client
                text = f"{text} {problem_text(link.error)}"
            return text
        if self.update is None:
            return ""
        unseen = self.waiting_results()
        lines = [waiting_results_text(unseen)] if unseen else []
        if self.update.turn_left is not None:  # counted down from the update, every second
            lines.insert(0, turn_clock_text(max(0, round(self.update.turn_left - (now - self.update_at)))))
        if self.update.view.phase == "game_over" and self.update.rematch:
            lines.append(self.rematch_line())
        if not self.update.away:
            return " · ".join(lines)
        gone = now - self.update_at
        waiting = self.waiting()
        lines += [away_text(SimpleNamespace(name=a.name, seconds=a.seconds + gone)) for a in waiting]
        lines += [
            _("{name}'s seat is played by a computer until they come back").format(name=a.name)
            for a in self.update.away if a not in waiting
        ]
        if self.host and waiting:
            lines.append(_("c hands the seat to a computer"))
        return " · ".join(lines)

    def rematch_line(self) -> str:
        """Who accepted a new game at the table and whom it waits for (once the game is over)."""
        update = self.update
        if update is None:
            return ""
        names = update.names
        people = [s for s, k in enumerate(update.kinds) if k == "person"]
        accepted = [names[s] for s in update.rematch if s < len(names)]
        waiting = [names[s] for s in people if s not in update.rematch and s < len(names)]
        return rematch_text(accepted, waiting)

    def waiting_results(self) -> tuple[str, ...]:
        """The names of the other people the next round waits for (to see the results)."""
        update = self.update
        if update is None:
            return ()
        names = update.names
        return tuple(names[s] for s in update.waiting if s != self.seat and s < len(names))

    def waiting(self) -> tuple[Away, ...]:
        """The away seats the game waits for: those not handed to a computer player (a seat
        handed over stays away, its kind "computer", until its person comes back)."""
        if self.update is None:
            return ()
        kinds = self.update.kinds
        return tuple(a for a in self.update.away if a.seat >= len(kinds) or kinds[a.seat] == "person")

    # -- chat (issue #35 item 4) -------------------------------------------------------------
    def take_chat(self, msg: Chat) -> list[ChatLine]:
        """Take the table's chat lines: the recent ones after a welcome replace what was
        kept, new ones are added (a line already had, by its number, is not added twice).
        Returns the lines that are new to this terminal."""
        if msg.recent:
            known = {line.n for line in self.chat}
            self.chat = list(msg.lines)
            new = [line for line in msg.lines if line.n not in known]
        else:
            last = self.chat[-1].n if self.chat else -1
            new = [line for line in msg.lines if line.n > last]
            self.chat.extend(new)
        del self.chat[:-CHAT_KEEP]
        return new

    def chat_rows(self) -> tuple[tuple[int, str, str, bool], ...]:
        """The chat lines this screen shows, as ``(seat, name, words, reaction)``: all of
        them, or only this seat's own while muted. A reaction in this language."""
        rows = []
        for line in self.chat:
            if self.muted and line.seat != self.seat:
                continue
            if line.reaction is not None:
                rows.append((line.seat, line.name, reaction_text(line.reaction), True))
            else:
                rows.append((line.seat, line.name, line.text or "", False))
        return tuple(rows)

    def people_to_remove(self) -> list[tuple[int, str]]:
        """The seats the host may remove: every person's but the host's own (seat, name)."""
        lobby = self.lobby
        if lobby is None or not self.host:
            return []
        return [(s.seat, s.name) for s in lobby.seats if s.kind == "person" and not s.host and s.seat != self.seat]

    def link_closed(self) -> None:
        """The client stopped: the link is closed (unless a fatal error already says why),
        with the last problem the link had, if any."""
        if self.fatal is None and (self.link is None or self.link.state != "closed"):
            error = getattr(self.link, "error", None)
            self.link = SimpleNamespace(state="closed", attempt=0, retry_in=None, error=error)


def board_update(msg: Onlooker) -> Update:
    """A watcher's :class:`Onlooker` in the form the network table keeps a seat's Update: its
    view as the screens read one (:func:`mexitrain.rules.watched`: no hand, no move), every
    other field as sent. Local only: never sent, never checked again (the message was)."""
    return Update.model_construct(
        seq=msg.seq, view=watched(msg.view), names=msg.names, kinds=msg.kinds, away=msg.away,
        waiting=msg.waiting, turn_time=msg.turn_time, turn_left=msg.turn_left, timed=msg.timed,
        rematch=msg.rematch,
    )


def forced_notice(view: SeatView, action: Action) -> Notice:
    """What a forced move made for the person says (the words of a local game)."""
    return session_forced_notice(view.drawn, action)


__all__ = ["NetworkState", "TableRequest", "board_update", "forced_notice"]
