"""``mexitrain serve`` in a real headless browser (Debian's Chromium, driven by Selenium through
``/usr/bin/chromedriver``): the page loads, its terminal shows the new-game screen, Enter
starts a game and the game screen is there; the page has its title and icon, and its terminal
has the keyboard without a click; a window too small for the game says to zoom out.

How the test reads the terminal: textual-serve's page draws its terminal (xterm.js) with the
WebGL or canvas renderer, so the text is nowhere in the DOM, and xterm's ``Terminal`` object is
kept inside textual.js's bundle, out of the page's reach. Before any script of the page runs,
the test installs (Chrome DevTools ``Page.addScriptToEvaluateOnNewDocument``) a setter for the
property ``terminal`` on ``Object.prototype``: textual.js's terminal class assigns
``this.terminal = new Terminal(...)`` in its constructor, that assignment reaches the setter,
which makes it an ordinary property of the object again and keeps the Terminal in
``window.__mexitrainTerminal``. The screen's text is then read with xterm's public buffer API
(``buffer.active.getLine(y).translateToString(true)``), row by row: exactly the characters the
terminal shows, whatever renderer draws them. If textual.js ever stops assigning
``this.terminal``, :func:`screen_text` fails saying so (no silent pass).

The test skips, with the reason, when Chromium, ChromeDriver or Selenium is missing (``.ci/run``
installs them when it runs as root). It is marked ``browser`` (``-m "not browser"`` leaves it
out) and takes a few seconds.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from support.server import serving, stop

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
        reason="browser test: /usr/bin/chromium and /usr/bin/chromedriver are needed "
        "(apt-get install chromium chromium-driver)",
    ),
]

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="browser test: the selenium package is needed (pip install -e '.[test]')"
)

#: Seconds to wait for the terminal to show a screen (the game process starts in ~1 s).
WAIT = 30

#: Installed before the page's own scripts: catches textual.js's ``this.terminal = ...``.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  get() { return undefined; },
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && value.buffer.active) { window.__mexitrainTerminal = value; }
  },
});
"""

#: The terminal's rows as text, or null while there is no terminal yet.
READ_SCREEN = """
const t = window.__mexitrainTerminal;
if (!t) { return null; }
const buffer = t.buffer.active, rows = [];
for (let y = 0; y < t.rows; y++) {
  const line = buffer.getLine(buffer.viewportY + y);
  rows.push(line ? line.translateToString(true) : "");
}
return rows.join("\\n");
"""


#: The browser's window, in pixels: a laptop's, where the game's 80x20 cells fit at the page's
#: 16-pixel font; and one too small for them (about 55x18 cells).
WINDOW = (1200, 800)
SMALL_WINDOW = (560, 400)


@contextmanager
def chromium(tmp_path: Path, size: tuple[int, int]) -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'chromium-profile'}", f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_TERMINAL})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(tmp_path / "chromium-profile", ignore_errors=True)


@pytest.fixture
def browser(tmp_path: Path):
    with chromium(tmp_path, WINDOW) as driver:
        yield driver


@pytest.fixture
def small_browser(tmp_path: Path):
    with chromium(tmp_path, SMALL_WINDOW) as driver:
        yield driver


def screen_text(driver) -> str:
    """The terminal's text now (see the module docstring)."""
    text = driver.execute_script(READ_SCREEN)
    if text is None and driver.execute_script("return !!document.querySelector('.xterm');"):
        raise AssertionError(
            "the page has a terminal but the test cannot read it: textual.js no longer "
            "assigns this.terminal (see the module docstring)"
        )
    return text or ""


def wait_for_screen(driver, needle: str) -> str:
    """Wait (a condition, not a sleep) until the terminal shows ``needle``; its text."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    def shown(d) -> bool:
        if d.execute_script("return document.body.classList.contains('-closed');"):
            raise AssertionError(f"the page says its session ended while waiting for {needle!r}")
        return needle in screen_text(d)

    try:
        WebDriverWait(driver, WAIT, poll_frequency=0.1).until(shown)
    except TimeoutException:
        raise AssertionError(f"{needle!r} never shown; the terminal shows:\n{screen_text(driver)}") from None
    return screen_text(driver)


def test_a_visitor_plays_in_the_browser(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with serving(tmp_path / "data") as served:
        browser.get(served.url)
        form = wait_for_screen(browser, "New game · Mexican Train")
        assert "Start ▶" in form
        shot = tmp_path / "new-game.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 0

        # keys go to xterm's hidden textarea, as a person's typing does
        browser.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys(Keys.ENTER)
        game = wait_for_screen(browser, "Your hand · 15 tiles")
        assert "station" in game and "Round 1 of 13" in game
        assert "New game · Mexican Train" not in game
        browser.save_screenshot(str(tmp_path / "game.png"))

        out, err = stop(served.proc)
    assert served.proc.returncode == 130
    assert err.strip() == "stopped serving; 1 game closed (a game in progress is autosaved)"
    # the visitor's game ran with the served --data-dir: its autosave is there
    assert list((tmp_path / "data" / "autosaves").glob("*.json"))


def on_screen(driver) -> str:
    """The terminal's text with its rows run together (a sentence the screen wraps is whole)."""
    return " ".join(screen_text(driver).split())


def test_the_page_is_titled_and_takes_the_keys_without_a_click(browser, tmp_path: Path) -> None:
    """Issue 35, item 6: the tab says "mexitrain", shows the domino icon, and Enter pressed as
    soon as the new-game screen shows starts the game: the terminal has the keyboard from the
    page's load, with no click."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    with serving(tmp_path / "data") as served:
        browser.get(served.url)
        from selenium.webdriver.support.ui import WebDriverWait

        # the title as the tab shows it, once the page's document is there (on a loaded machine
        # the driver may hand the page back before its head is parsed)
        WebDriverWait(browser, WAIT, poll_frequency=0.1).until(lambda d: d.title)
        assert browser.title == "mexitrain"
        icon = browser.execute_script(
            "const l = document.querySelector('link[rel=icon]'); return l && l.href;"
        )
        assert icon == served.url + "favicon.png"
        loaded = browser.execute_async_script(  # the icon the tab shows is a picture
            "const done = arguments[arguments.length - 1], img = new Image();"
            "img.onload = () => done([img.naturalWidth, img.naturalHeight]);"
            "img.onerror = () => done(null); img.src = arguments[0];",
            icon,
        )
        assert loaded == [64, 64]
        wait_for_screen(browser, "New game · Mexican Train")
        assert browser.execute_script(
            "return document.activeElement && document.activeElement.classList.contains('xterm-helper-textarea');"
        ), "the terminal has not the keyboard"
        # Enter typed to whatever has the keyboard: no click, no element chosen by the test
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        game = wait_for_screen(browser, "Your hand · 15 tiles")
        assert "New game · Mexican Train" not in game
        browser.save_screenshot(str(tmp_path / "keys-without-a-click.png"))
        stop(served.proc)


def test_a_small_window_says_to_zoom_out_and_zooming_out_brings_the_game(small_browser, tmp_path: Path) -> None:
    """A window too small for the form says so, and how to fix it in a browser; once the page
    has more room (what zooming out to 50% gives it: twice the CSS pixels in the same window,
    here by Chromium's device metrics), the terminal grows and the form is there."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    with serving(tmp_path / "data") as served:
        small_browser.get(served.url)
        wait_for_screen(small_browser, "mexitrain needs at least")
        try:
            WebDriverWait(small_browser, WAIT, poll_frequency=0.1).until(
                lambda d: "browser window larger." in on_screen(d)
            )
        except TimeoutException:
            raise AssertionError(f"no whole sentence; the terminal shows:\n{screen_text(small_browser)}") from None
        text = on_screen(small_browser)
        assert "mexitrain needs at least 72x16 — zoom out with Ctrl − (⌘ − on a Mac), or make the browser window larger." in text
        assert "Ctrl+Q" not in text
        small_browser.save_screenshot(str(tmp_path / "small-window.png"))

        width, height = small_browser.execute_script("return [window.innerWidth, window.innerHeight];")
        small_browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 2 * width, "height": 2 * height, "deviceScaleFactor": 0.5, "mobile": False,
        })
        form = wait_for_screen(small_browser, "Start ▶")
        assert "mexitrain needs at least" not in form
        small_browser.save_screenshot(str(tmp_path / "small-window-zoomed-out.png"))
        stop(served.proc)
