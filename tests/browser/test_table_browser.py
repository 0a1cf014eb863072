"""Friends at one table from a link (issue #35), in real headless browsers: a real ``mexitrain
serve``; Ann opens a table in her browser (New table…, one round, five tiles each), Bea opens the
link in hers and sits, Cal sits from a terminal (``mexitrain join`` at the page's own port: the
table client of ``mexitrain.net.bot``), Zoé watches from a third browser. They play the round to
its end, say a line each way (a browser to the terminal and back), the watcher reads the table
and never a hand, and Play again on both pages (and the terminal's rematch) starts a new game.

How the pages are read and typed into: see ``test_serve_browser.py`` (xterm's buffer, read by the
public API; keys sent to the terminal's hidden textarea, as typing does).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from support.server import serving, stop

from browser.test_serve_browser import (
    CHROMEDRIVER,
    CHROMIUM,
    WAIT,
    chromium,
    screen_text,
    wait_for_screen,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
        reason="browser test: /usr/bin/chromium and /usr/bin/chromedriver are needed "
        "(apt-get install chromium chromium-driver)",
    ),
]

pytest.importorskip("selenium.webdriver", reason="browser test: the selenium package is needed (pip install -e '.[test]')")

#: New table…'s form, from the first seat's name (where it opens): Tab this many times to the
#: tiles each (then once more to the rounds); the summary line above Open says what was typed,
#: which the test checks.
TABS_FROM_NAME_TO_HAND_SIZE = 9
#: Seconds between two keys typed (a quick typist).
TYPING = 0.05


def keys(driver, *sequence: str) -> None:
    """Type into the page's terminal (its hidden textarea, as a person's typing reaches it),
    one key at a time at a quick typist's pace (the page's game reads them in order)."""
    from selenium.webdriver.common.by import By

    area = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
    for key in sequence:
        area.send_keys(key)
        time.sleep(TYPING)


def ctrl(driver, letter: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).key_down(Keys.CONTROL).send_keys(letter).key_up(Keys.CONTROL).perform()


def flat(driver) -> str:
    return " ".join(screen_text(driver).split())


def until(condition, what: str, seconds: float = WAIT, page=None) -> None:
    """Poll ``condition`` (a page's state) until it holds; fail naming ``what`` (and showing
    ``page``'s screen)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            shown = "" if page is None else "; the page shows:\n" + screen_text(page)
            raise AssertionError(f"never happened in {seconds:g} s: {what}{shown}")
        time.sleep(0.1)


class Terminal:
    """Cal at a terminal: the table client of ``mexitrain.net.bot`` (a random player) on its own
    event loop in a thread, keeping every message; it says ``reply`` once it has read a line."""

    def __init__(self, address: str, code: str, reply: str) -> None:
        self.messages: list[Any] = []
        self.reply = reply
        self.replied = False
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Task | None = None
        self.thread = threading.Thread(target=self._run, args=(address, code), daemon=True)
        self.thread.start()

    def _run(self, address: str, code: str) -> None:
        from mexitrain.net.bot import play_bot
        from mexitrain.net.protocol import Chat, Say

        async def on_message(msg: Any, client: Any) -> None:
            self.messages.append(msg)
            if isinstance(msg, Chat) and not msg.recent and not self.replied and any(line.name != "Cal" for line in msg.lines):
                self.replied = True
                await client.send(Say(seq=1, text=self.reply))

        async def main() -> None:
            self.task = asyncio.current_task()
            await play_bot(address, code, "Cal", backoff=(0.05, 0.5), rematches=1, on_message=on_message)

        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(main())
        except asyncio.CancelledError:
            pass

    def said(self) -> list[str]:
        from mexitrain.net.protocol import Chat

        return [line.text or "" for m in self.messages if isinstance(m, Chat) for line in m.lines]

    def stop(self) -> None:
        if self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


def status(driver) -> str:
    lines = screen_text(driver).splitlines()
    return lines[0] if lines else ""


def move(driver) -> bool:
    """One move of this page's person if it is their turn (by the status line, as a person
    reads it): a play with Enter, else draw (d), else end the turn (m); each key waited for
    until the screen changes. False when it is not their turn."""
    line = status(driver)
    mine = any(
        words in line
        for words in ("Your turn", "your double", "after your", "You drew", "Your opening chain", "Swan drive")
    )
    if not mine:
        return False
    if "press d to draw" in line:
        order = ["d", "m", "\n"]
    elif "m ends your turn" in line:
        order = ["m", "\n", "d"]
    else:
        order = ["\n", "d", "m"]
    before = screen_text(driver)
    for key in order:
        keys(driver, key)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if status(driver) != line:
                return True
            time.sleep(0.05)
    raise AssertionError(f"no key moved on: {line!r}\n{before}")


def test_two_browsers_a_terminal_and_a_watcher_play_a_round_chat_and_play_again(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with serving(tmp_path / "data") as served, \
            chromium(tmp_path / "ann", (1200, 800)) as ann, \
            chromium(tmp_path / "bea", (1200, 800)) as bea, \
            chromium(tmp_path / "zoe", (1200, 800)) as zoe:
        # Ann: New table…, one round of five tiles each, Open
        ann.get(served.url)
        wait_for_screen(ann, "New table")
        ctrl(ann, "n")
        wait_for_screen(ann, "your name")  # the form asks the creator's name, in the first seat
        # her name (the form waits for it in the first seat, which has the keyboard), then the
        # tiles each and the rounds
        keys(ann, *"Ann")
        keys(ann, *[Keys.TAB] * TABS_FROM_NAME_TO_HAND_SIZE, "5", Keys.TAB, "1")
        until(lambda: "5 tiles each · 1 round" in flat(ann), "the form says five tiles and one round", page=ann)
        assert "Seat 1 Ann " in flat(ann)
        ctrl(ann, "s")
        shown = wait_for_screen(ann, "mexitrain join")
        link = re.search(r"(http://127\.0\.0\.1:\d+/t/([A-Z]{6}))", " ".join(shown.split()))
        assert link, shown
        url, code = link[1], link[2]

        # Bea: the link in her own browser, her name, a seat
        bea.get(url)
        wait_for_screen(bea, "Type your name")
        keys(bea, *"Bea", Keys.ENTER)
        # Cal: at a terminal, the page's own port
        port = served.url.rstrip("/").rpartition(":")[2]
        cal = Terminal(f"127.0.0.1:{port}", code, "hi from Cal")
        try:
            # Zoé: the link, then Watch (Tab past the name and Join)
            zoe.get(url)
            wait_for_screen(zoe, "Type your name")
            keys(zoe, Keys.TAB, Keys.TAB, Keys.ENTER)
            wait_for_screen(zoe, "Watching")
            until(lambda: "Bea" in flat(ann) and "Cal" in flat(ann) and "1 watching" in flat(ann), "Bea, Cal and a watcher in Ann's lobby", page=ann)

            # chat before the game: Ann says a line; Bea, Zoé and Cal read it; Cal answers
            keys(ann, "w")
            wait_for_screen(ann, "Enter sends")
            keys(ann, *"hello from Ann", Keys.ENTER)
            for page in (ann, bea, zoe):
                until(lambda page=page: "hello from Ann" in flat(page), "Ann's line on every page", page=page)
            until(lambda: "hello from Ann" in cal.said(), "Ann's line at the terminal")
            for page in (ann, bea, zoe):
                until(lambda page=page: "hi from Cal" in flat(page), "Cal's answer on every page", page=page)

            ctrl(ann, "s")  # Start: the last seat goes to a computer player
            for page in (ann, bea):
                wait_for_screen(page, "Your hand")
            wait_for_screen(zoe, "no hand is shown")

            # the round, to its end: each person moves when the status line says it is their turn
            deadline = time.monotonic() + 240
            while not all("Round 1 over" in flat(p) or "Play again" in flat(p) for p in (ann, bea)):
                assert time.monotonic() < deadline, f"the round never ended:\n{screen_text(ann)}\n{screen_text(bea)}"
                moved = move(ann) | move(bea)
                text = flat(zoe)
                assert "Your hand" not in text and "Your turn" not in text, text  # never a hand, never "you"
                if not moved:
                    time.sleep(0.1)
            ann.save_screenshot(str(tmp_path / "ann-round-over.png"))
            zoe.save_screenshot(str(tmp_path / "zoe-round-over.png"))
            for page in (ann, bea):
                if "Play again" not in flat(page):
                    keys(page, Keys.ENTER)  # the round's results seen: the game's end
            for page in (ann, bea):
                wait_for_screen(page, "Play again")

            # Play again on both pages, the terminal's rematch: a new game, a new deal
            for page in (ann, bea):
                keys(page, "a")
            for page in (ann, bea):
                wait_for_screen(page, "Your hand")
            until(lambda: "no hand is shown" in flat(zoe), "the watcher sees the new game", page=zoe)
            ann.save_screenshot(str(tmp_path / "ann-rematch.png"))
        finally:
            cal.stop()
        out, err = stop(served.proc)
    assert "Traceback" not in out + err
