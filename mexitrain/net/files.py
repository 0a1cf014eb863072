"""A network table on disk, ``tables/<CODE>/`` (:mod:`mexitrain.storage.tokens`): when each
file is written, and reading them back for ``mexitrain host --resume``.

- ``moves.jsonl``, the journal: each move is appended (a whole line) before it is announced,
  so a process killed at any moment loses only the move in flight. ``--resume`` cuts off a line
  a crash left torn before it appends, and refuses a journal damaged otherwise, naming the line
  (:func:`~mexitrain.storage.tokens.read_journal`). If the disk refuses a line, the journal is
  given up for the rest of the game and every move is fully saved instead.
- ``game.json``, the game's full save (:class:`~mexitrain.storage.autosaver.Autosaver`, in
  its own thread): at the deal, at each round's end and when the table closes. A full save late
  in a game takes tens of milliseconds and, in a thread, still holds the interpreter that the
  event loop needs; the journal already keeps every move, so the full save is not rewritten
  after each one. ``--resume`` plays the journal's moves past it again.
- ``table.json`` (the code, the host's token, the seats and their tokens, the port): written
  atomically in a worker thread whenever a seat changes, the newest seats each time; a person
  is told their seat's token only once it is on disk (:meth:`TableFiles.table_saved`).
- a finished game is kept in ``saves/`` and counted in the statistics; a rematch at the table
  (:meth:`TableFiles.next_game`) leaves it there and starts a fresh journal and full save.
- ``chat.jsonl``, the chat (issue #35 item 4): each line said is appended, one JSON
  :class:`~mexitrain.net.protocol.ChatLine` a line; past twice
  :data:`~mexitrain.net.protocol.CHAT_KEEP` lines the file is rewritten with the last
  ``CHAT_KEEP``, so it never holds more than that. ``--resume`` reads it back (at most
  :data:`CHAT_FILE_MAX` bytes; a line it cannot read is skipped). A finished game kept in
  ``saves/`` gets the chat said at the table beside it (``<save>.chat.jsonl``).
- ``removed.txt``: the SHA-256 of each token of a person the host removed, one a line (at
  most one a seat: a removed seat is a computer's), so that ``--resume`` still answers it
  ``removed``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..game_setup import GameSetup
from ..rules import ACTION_ADAPTER, GameState, IllegalAction, apply, new_game
from ..storage import inplay, locks, tokens
from ..storage.autosaver import Autosaver
from ..storage.paths import saves_dir
from ..storage.savefile import SaveError, load_save
from ..storage.saves import save_game
from ..text import journal as tj
from .protocol import CHAT_KEEP, ChatLine

log = logging.getLogger(__name__)

#: The chat's file in the table's folder, and the most of it read back.
CHAT_FILE = "chat.jsonl"
CHAT_FILE_MAX = 2 * CHAT_KEEP * 2048
#: The removed tokens' hashes, and the most of that file read back (99 seats, 65 bytes each).
REMOVED_FILE = "removed.txt"
REMOVED_FILE_MAX = 100 * 65


class TableFiles:
    """The files of table ``code`` in the data folder ``root``; ``describe()`` gives the
    table file as it should be now (called on the event loop, just before each write)."""

    def __init__(self, root: Path, code: str, describe: Callable[[], tokens.TableFile]) -> None:
        self.root = root
        self.code = code
        self.describe = describe
        self.saver = Autosaver(root)
        self.journal: tokens.Journal | None = None
        #: the journal failed (could not be opened or written): every move is fully saved
        self.unjournalled = False
        self.saved_seq: int | None = None  # the action count of the last full save handed in
        self._dirty = False
        self._done: asyncio.Future[None] | None = None
        self._writer: asyncio.Task | None = None
        #: where :meth:`keep` put the finished game (None: not yet, or it could not)
        self.kept: Path | None = None
        #: the chat lines said lately (as the file keeps them), and the lines in the file now
        self._chat: list[ChatLine] = []
        self._chat_in_file = 0

    @property
    def game_path(self) -> Path:
        return tokens.game_path(self.root, self.code)

    def hold(self) -> bool:
        """Take the table's lock (``tables/<CODE>/table.lock``, :mod:`mexitrain.storage.inplay`)
        until :meth:`close`: no other process reopens the table, and no other game lists or
        opens its files, lobby included. False when another process holds it."""
        try:
            return inplay.hold_table(self.root, self.code)
        except OSError:  # a read-only folder: nothing can be written there, by anyone
            return True

    # -- table.json -------------------------------------------------------------------------------
    def table_changed(self) -> asyncio.Future[None]:
        """Write ``table.json`` again, in a worker thread; the future is done once a write that
        holds this change is over (written or failed: a failure is logged, the game goes on)."""
        loop = asyncio.get_running_loop()
        self._dirty = True
        if self._done is None:
            self._done = loop.create_future()
        done = self._done
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_tables())
        return done

    async def table_saved(self) -> None:
        """Wait until the table file holds every change made so far."""
        await asyncio.shield(self.table_changed())

    async def _write_tables(self) -> None:
        while self._dirty:
            self._dirty = False
            done, self._done = self._done, None
            table = self.describe()
            try:
                await asyncio.to_thread(tokens.save_table, self.root, table)
            except SaveError as exc:  # the game goes on; a resume would miss the latest seat change
                log.warning("table file: %s", exc)
            finally:
                if done is not None and not done.done():
                    done.set_result(None)

    # -- the game -------------------------------------------------------------------------------
    def dealt(self, state: GameState, setup: GameSetup) -> None:
        """A new game: a fresh journal, and its first full save (the deal)."""
        self._open_journal(fresh=True)
        self.saver.adopt(self.game_path, setup)
        self._save(state, setup, 0)

    def next_game(self, state: GameState, setup: GameSetup) -> None:
        """A rematch dealt ``state``: the finished game stays where :meth:`keep` put it (in
        ``saves/``), its journal is closed, and the new game starts a fresh journal (the
        journal is tried again even if the last game's gave up) and its own full save."""
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        self.unjournalled = False
        self.dealt(state, setup)

    def resumed(self, state: GameState, setup: GameSetup, seq: int) -> None:
        """A game read back by :func:`load`: its save continues, with the moves replayed, and its
        journal goes on, once the torn line a crash may have left at its end is cut off (the
        host's log says so, in one line)."""
        self._open_journal(fresh=False)
        self.saver.adopt(self.game_path, setup)
        self._save(state, setup, seq)

    def _open_journal(self, *, fresh: bool) -> None:
        try:
            self.journal = tokens.Journal(self.root, self.code, fresh=fresh)
        except OSError as exc:
            self._journal_failed(exc)
            return
        if self.journal.trimmed:
            log.warning("%s", tj.journal_trimmed_line(str(self.journal.path), self.journal.trimmed))

    def _journal_failed(self, exc: OSError) -> None:
        """The journal cannot be opened or written: it is given up for this game (a half line
        the disk left is cut off by the next resume), and every move is fully saved instead."""
        log.warning("%s", tj.journal_failed_line(str(tokens.journal_path(self.root, self.code)), exc))
        if self.journal is not None:
            self.journal.close()
        self.journal = None
        self.unjournalled = True

    def moved(self, seq: int, action: Any, before: GameState, after: GameState, setup: GameSetup) -> None:
        """Action number ``seq`` took ``before`` to ``after``: journalled now, before it is
        announced; the full save follows at a round's end (and at the game's, which also counts
        it in the statistics)."""
        if self.journal is not None:
            try:
                self.journal.append(seq, action.model_dump(mode="json"))
            except OSError as exc:  # the full save has it, a little later
                self._journal_failed(exc)
        if self.unjournalled or after.over or after.round != before.round:
            self._save(after, setup, seq)

    def _save(self, state: GameState, setup: GameSetup, seq: int) -> None:
        self.saved_seq = seq
        self.saver.submit(state, setup, None)

    def keep(self, state: GameState, setup: GameSetup) -> None:
        """The finished game in ``saves/``, like a game saved under a name (for Load… and the
        replay viewer); the statistics count it through the autosaver. Blocking: run it in a
        thread."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = saves_dir(self.root) / f"table-{self.code}-{stamp}.json"
        n = 1
        while path.exists() and n < 100:  # a rematch that ended within the same second
            n += 1
            path = saves_dir(self.root) / f"table-{self.code}-{stamp}-{n}.json"
        try:
            save_game(path, state, setup, name=f"table {self.code} {stamp}")
            self.kept = path
        except SaveError as exc:
            log.warning("keeping the finished game: %s", exc)
        if self.kept is not None and self._chat:
            try:  # the chat said at the table, beside the game kept
                write_chat(chat_beside(self.kept), list(self._chat))
            except (OSError, ValueError) as exc:
                log.warning("keeping the chat: %s", exc)
        self.saver.flush()

    # -- the chat ---------------------------------------------------------------------------------
    @property
    def chat_path(self) -> Path:
        return tokens.table_dir(self.root, self.code) / CHAT_FILE

    def chat_lines(self) -> list[ChatLine]:
        """The lines ``chat.jsonl`` holds (the last :data:`CHAT_KEEP`); none when it cannot be read."""
        self._chat = read_chat(self.chat_path)[-CHAT_KEEP:]
        self._chat_in_file = len(self._chat)
        return list(self._chat)

    def said(self, line: ChatLine) -> None:
        """Append ``line`` to ``chat.jsonl`` (rewritten with the last :data:`CHAT_KEEP` lines
        past twice that many); a disk that refuses it costs the chat's file, never the game."""
        self._chat.append(line)
        del self._chat[:-CHAT_KEEP]
        try:
            path = self.chat_path
            path.parent.mkdir(parents=True, exist_ok=True)
            if self._chat_in_file + 1 > 2 * CHAT_KEEP:
                write_chat(path, self._chat)
                self._chat_in_file = len(self._chat)
            else:
                with open(path, "a", encoding="utf-8") as f:
                    f.write(line.model_dump_json() + "\n")
                self._chat_in_file += 1
        except (OSError, ValueError) as exc:
            log.warning("chat file: %s", exc)

    # -- removed people ---------------------------------------------------------------------------
    def removed(self, digest: str) -> None:
        """Keep the hash of a removed person's token (a disk that refuses it: logged; the
        token is still refused until the server stops)."""
        try:
            path = tokens.table_dir(self.root, self.code) / REMOVED_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="ascii") as f:
                f.write(digest + "\n")
        except (OSError, ValueError) as exc:
            log.warning("removed file: %s", exc)

    def removed_hashes(self) -> set[str]:
        """The hashes ``removed.txt`` holds (none when it cannot be read)."""
        from ..storage.safe import read_regular

        try:
            data = read_regular(tokens.table_dir(self.root, self.code) / REMOVED_FILE, REMOVED_FILE_MAX)
        except (OSError, ValueError):
            return set()
        return {h for h in data.decode("ascii", "replace").split() if len(h) == 64}

    async def close(self, state: GameState | None, setup: GameSetup, seq: int) -> None:
        """The table closes: ``state`` (action ``seq``) fully saved if it is not yet, every
        write over."""
        if self._writer is not None:
            await asyncio.shield(self._writer)
        if state is not None and self.saved_seq is not None and self.saved_seq != seq:
            self._save(state, setup, seq)
        await asyncio.to_thread(self.saver.close)
        if self.journal is not None:
            self.journal.close()
        inplay.release_table(self.root, self.code)


# -- the chat's files ------------------------------------------------------------------------------
def chat_beside(save: Path) -> Path:
    """The chat kept beside a finished table's game in ``saves/``."""
    return save.with_name(save.stem + ".chat.jsonl")


def write_chat(path: Path, lines: list[ChatLine]) -> None:
    """``lines`` as ``path``, written atomically (one JSON line each)."""
    from ..storage import atomic

    atomic.write_text(path, "".join(line.model_dump_json() + "\n" for line in lines))


def read_chat(path: Path) -> list[ChatLine]:
    """The chat lines of ``path`` (at most :data:`CHAT_FILE_MAX` bytes read; a line that is
    not a chat line is skipped; no file: none)."""
    from ..storage.safe import read_regular

    try:
        data = read_regular(path, CHAT_FILE_MAX)
    except (OSError, ValueError):
        return []
    lines = []
    for raw in data.decode("utf-8", "replace").splitlines():
        try:
            lines.append(ChatLine.model_validate_json(raw))
        except ValueError:
            continue
    return lines


# -- reading a table back -----------------------------------------------------------------------
def reopenable(root: Path, code: str) -> bool:
    try:
        meta = tokens.load_table(root, code)
    except SaveError:
        return False
    return not meta.over


def load(root: Path, code: str | None) -> tuple[tokens.TableFile, GameSetup, GameState | None]:
    """Table ``code`` (the newest one not over without it): its table file, its setup and, once
    started, its game where it stopped (the full save with the journal's later moves played
    again). Raises :class:`SaveError` ("no_table" when there is none, "busy" when another
    server holds it, in its lobby too). The table's lock is taken here, before anything is
    read (:meth:`TableFiles.hold`), and kept: the server made from it lets go of it when it
    closes."""
    if code:
        codes = [code]
    else:
        codes = [c for c in tokens.tables(root) if reopenable(root, c)]
    if not codes:
        raise SaveError("no table to reopen", action="load", code="no_table")
    held_before = inplay.table_held_here(root, codes[0])
    try:
        held = inplay.hold_table(root, codes[0])
    except OSError:
        held = True  # a read-only folder: no other server can write the table there either
    if not held:
        path = inplay.table_file(root, codes[0])
        raise SaveError(
            f"cannot reopen table {codes[0]}: it is open in another process", path, action="resume", code="busy",
            values={"table": codes[0]},
        )
    try:
        return _load(root, codes[0])
    except BaseException:
        if not held_before:
            inplay.release_table(root, codes[0])
        raise


def _load(root: Path, code: str) -> tuple[tokens.TableFile, GameSetup, GameState | None]:
    meta = tokens.load_table(root, code)
    setup = GameSetup.model_validate(meta.setup)
    state = None
    path = tokens.game_path(root, meta.code)
    if meta.started:
        if locks.held_elsewhere(path):
            raise SaveError(f"cannot resume {path}: it is open in another process", path, action="resume", code="busy")
        if path.exists():
            game = load_save(path)
            setup, state = game.setup, game.state
        else:  # killed before the first full save: the deal, and the journal below
            state = new_game(setup.rules, players=setup.players, seed=setup.seed)
        state = replay_journal(root, meta.code, state)
    return meta, setup, state


def replay_journal(root: Path, code: str, state: GameState) -> GameState:
    """``state`` (the full save's) with the journal's later moves played again: all of them,
    or none. Raises :class:`SaveError` (``journal_damaged``, with the line) when a line is not a
    move (:func:`~mexitrain.storage.tokens.read_journal`), or a move past the full save is
    missing or cannot be played: the moves from there on were announced, and a resume that
    stopped before them would append the next moves after lines no resume could read."""
    done = count_actions(state)
    for line, (seq, data) in enumerate(tokens.read_journal(root, code), 1):
        if seq <= done:
            continue  # in the full save already
        if seq != done + 1:
            raise tokens.journal_damaged(root, code, line, "missing", seq=seq, expected=done + 1)
        try:
            state = apply(state, ACTION_ADAPTER.validate_python(data))
        except (IllegalAction, ValueError):
            raise tokens.journal_damaged(root, code, line, "illegal", seq=seq) from None
        done = seq
    return state


def count_actions(state: GameState) -> int:
    """The moves played so far: every round's events (a finished game's state still holds its
    last round's events, which its results hold too: counted once)."""
    done = sum(len(r.events) for r in state.results)
    return done if state.over else done + len(state.events)
