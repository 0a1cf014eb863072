"""The README and the manual (docs/*.md) say only what works.

- every ``>>>`` example runs as a doctest;
- every ``mexitrain …`` command they show is accepted by the real parser, every
  ``python benchmarks/….py …`` by its script's, every ``python -m mexitrain.…`` module and every
  test path given to pytest exists;
- the synopsis of docs/command-line.md names exactly the options each command takes;
- every key of docs/keys.md is bound on its screen, and every key bound there is in the page;
- the options table names every rules option with its values (the default first), the presets
  table every preset;
- every link to a file of the repository leads to one;
- the README is the front door: under 200 lines, exactly the two set-up commands.
"""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import re
import shlex
import typing
from pathlib import Path

import pytest

from mexitrain import i18n
from mexitrain.cli import COMMANDS, _option_values, _with_default_command, build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The pages a person reads: the README, the manual's pages (not the threat-model fragments
#: under docs/threat-model/, which the lead merges into docs/threat-model.md), the changelog.
PAGES = [README, *sorted(DOCS.glob("*.md")), ROOT / "CHANGELOG.md"]
SETUP_COMMANDS = [
    "python3 -m pip install . && mexitrain",
    "python3 -m pip install -e '.[test]' && python3 -m pytest",
]


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+(?:\n[^`\n]+)*)`")


def _code(page: Path) -> list[str]:
    """The page's code: each fenced block's lines, then each inline span (a span may wrap)."""
    text = _text(page)
    pieces: list[str] = []
    for block in FENCE.findall(text):
        pieces.extend(line.strip() for line in block.splitlines())
    prose = FENCE.sub("", text)
    pieces.extend(" ".join(span.split()) for span in INLINE.findall(prose))
    return [p for p in pieces if p]


# ---------------------------------------------------------------------------------------
# Examples
# ---------------------------------------------------------------------------------------
WITH_EXAMPLES = [p for p in PAGES if ">>> " in _text(p)]


@pytest.mark.parametrize("page", WITH_EXAMPLES, ids=_ids(WITH_EXAMPLES))
def test_examples_run(page: Path) -> None:
    test = doctest.DocTestParser().get_doctest(_text(page), {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_library_page_keeps_its_examples() -> None:
    """The rules engine's examples moved from the README to docs/library.md: they still run."""
    assert DOCS / "library.md" in WITH_EXAMPLES
    test = doctest.DocTestParser().get_doctest(_text(DOCS / "library.md"), {}, "library", None, 0)
    assert len(test.examples) >= 8


# ---------------------------------------------------------------------------------------
# The README is the front door
# ---------------------------------------------------------------------------------------
def test_the_readme_is_under_200_lines() -> None:
    assert len(_text(README).splitlines()) < 200


def test_the_readme_has_exactly_the_two_setup_commands() -> None:
    installs = [line for line in _code(README) if "pip install" in line]
    assert installs == SETUP_COMMANDS


def test_the_readme_lists_ten_keys() -> None:
    section = _text(README).split("## The ten keys that matter", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 10  # the header, then ten keys
    documented = set()
    for row in rows[1:]:
        documented |= _keys(row.split("|")[1])
    assert documented <= GAME_KEYS, sorted(documented - GAME_KEYS)


# ---------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------
#: What the placeholders of the pages stand for, to parse a command as typed.
PLACEHOLDERS = {
    "HOST:PORT": "127.0.0.1:8765", "CODE": "KXMPTR", "NAME": "Bea", "FILE": "game.json",
    "DIR": "games", "D": "games", "N": "2", "P": "2", "S": "1", "K": "1", "LEVEL": "planner",
    "SECONDS": "0.5", "<code>": "fr", "KEY=VALUE": "rounds=1", "B": "160",
}


def _commands(prefix: str) -> list[tuple[str, str]]:
    """Every (page, command) whose code starts with ``prefix``; a command shown with "…",
    a choice (``[...]``, ``|`` between words) or a shell pipe is cut before it or left out."""
    found = []
    for page in PAGES:
        for code in _code(page):
            code = code.removeprefix("$ ")
            for command in code.split(" && "):
                command = command.split(" | ")[0].strip()
                if not (command == prefix.strip() or command.startswith(prefix)):
                    continue
                if "…" in command or "..." in command or "[" in command or "|" in command:
                    continue
                found.append((page.name, command))
    return found


MEXITRAIN_COMMANDS = _commands("mexitrain ")


def test_the_pages_show_commands() -> None:
    """The collection below is no empty list: the pages show many commands of each kind."""
    assert len(MEXITRAIN_COMMANDS) >= 40
    shown = {shlex.split(c)[1] for _p, c in MEXITRAIN_COMMANDS if len(shlex.split(c)) > 1}
    assert {"tournament", "simulate", "stats", "serve", "host", "join"} <= shown


@pytest.mark.parametrize("page,command", MEXITRAIN_COMMANDS, ids=[f"{p}: {c}" for p, c in MEXITRAIN_COMMANDS])
def test_every_mexitrain_command_parses(page: str, command: str, capsys) -> None:
    words = [PLACEHOLDERS.get(word, word) for word in shlex.split(command)]
    if len(words) == 2 and not words[1].startswith("-"):  # a command named, "`mexitrain join`"
        assert words[1] in COMMANDS, command
        return
    argv, langs, missing = _option_values(words[1:], "--lang")
    assert not missing and set(langs) <= set(i18n.available_languages()), command
    before = i18n.language()
    try:
        args = build_parser().parse_args(_with_default_command(argv))  # UsageError if refused
    except SystemExit as exc:  # --help, --version: printed, then done
        assert exc.code == 0 and capsys.readouterr().out, command
        return
    finally:
        i18n.set_language(before)
    assert args.command in COMMANDS


class _Parsed(Exception):
    pass


BENCHMARK_COMMANDS = [
    (p, c) for prefix in ("python benchmarks/", "python3 benchmarks/") for p, c in _commands(prefix)
]


@pytest.mark.parametrize("page,command", BENCHMARK_COMMANDS, ids=[f"{p}: {c}" for p, c in BENCHMARK_COMMANDS])
def test_every_benchmark_command_parses(page: str, command: str, monkeypatch) -> None:
    """The script exists and its parser takes the arguments; nothing is run (the parser is
    stopped right after parsing)."""
    words = [PLACEHOLDERS.get(word, word) for word in shlex.split(command)]
    script = ROOT / words[1]
    assert script.is_file(), f"{page}: no {words[1]}"
    if len(words) == 2:
        return  # run as it is: no argument to check (ui_speed.py takes none)
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        original(self, args, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(argparse.ArgumentParser, "error", lambda self, message: pytest.fail(f"{command}: {message}"))
    spec = importlib.util.spec_from_file_location(f"docs_bench_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(_Parsed):
        module.main(words[2:])


def test_benchmark_commands_are_found() -> None:
    scripts = {shlex.split(c)[1] for _p, c in BENCHMARK_COMMANDS}
    assert {"benchmarks/ai_speed.py", "benchmarks/engine_speed.py", "benchmarks/tune_weights.py"} <= scripts


def test_every_python_module_and_test_path_exists() -> None:
    modules, paths = set(), set()
    for _page, code in _commands("python -m ") + _commands("python3 -m "):
        words = shlex.split(code)
        if words[2] == "pytest":
            paths |= {w.split("::")[0] for w in words[3:] if w.startswith("tests/")}
        elif words[2] != "pip":
            modules.add(words[2])
    assert "mexitrain.i18n_tools" in modules and paths
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module
    for path in paths:
        assert (ROOT / path).exists(), path


# ---------------------------------------------------------------------------------------
# The synopsis
# ---------------------------------------------------------------------------------------
def _synopsis() -> dict[str, set[str]]:
    page = _text(DOCS / "command-line.md").split("## Synopsis", 1)[1]
    block = FENCE.search(page).group(1)
    options: dict[str, set[str]] = {}
    name = ""
    for line in block.splitlines():
        if line.startswith("mexitrain "):
            word = line.split()[1]
            name = "play" if word.startswith("[play]") else word
            options[name] = set()
        options[name] |= set(re.findall(r"--[a-z][a-z-]*", line))
    return options


def test_the_synopsis_names_every_option_of_every_command() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    synopsis = _synopsis()
    assert set(synopsis) == set(sub.choices)
    for name, command in sub.choices.items():
        takes = {
            o for a in command._actions if a.help != argparse.SUPPRESS
            for o in a.option_strings if o.startswith("--")
        } - {"--help", "--lang"}
        assert synopsis[name] - {"--lang"} == takes, name


# ---------------------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------------------
KEY_NAMES = {
    "←": "left", "→": "right", "↑": "up", "↓": "down", "Enter": "enter", "Esc": "escape",
    "Space": "space", "Backspace": "backspace", "?": "question_mark", "F1": "f1", "Home": "home",
    "End": "end", "PageUp": "pageup", "PageDown": "pagedown",
}


def _keys(cell: str) -> set[str]:
    """The key names of a table cell as Textual names them (``← → or h l``: left, right, h, l)."""
    cell = re.sub(r"\b([0-9]) … ([0-9])\b", lambda m: " ".join(str(i) for i in range(int(m[1]), int(m[2]) + 1)), cell.strip())
    words = re.split(r"\s+|,|/", cell.replace(" or ", " "))
    return {KEY_NAMES.get(w, w) for w in words if w}


def _bound(*classes: type, ids: tuple[str, ...] | None = None) -> set[str]:
    """The keys of the classes' own bindings (only those of ``ids``, when given)."""
    keys = set()
    for cls in classes:
        for binding in cls.__dict__.get("BINDINGS", []):
            if ids is None or binding.id in ids:
                keys |= set(binding.key.split(","))
    return keys


def _table(section: str) -> list[list[str]]:
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]


from mexitrain.ui.app import MexitrainApp  # noqa: E402
from mexitrain.ui.screens import chat, dialogs, help, join, lobby, new_game, replay, results, saves  # noqa: E402
from mexitrain.ui.screens import review as review_screen  # noqa: E402
from mexitrain.ui.screens.game import GameScreen  # noqa: E402

GAME_KEYS = _bound(GameScreen, MexitrainApp) | {MexitrainApp.COMMAND_PALETTE_BINDING}
#: The screens of docs/keys.md's second table, by the name the page gives them.
SCREENS = {
    "new-game form": _bound(new_game.NewGameScreen),
    "new-game form, palette": _bound(MexitrainApp, ids=("app-host", "app-join")),
    "resume offer": _bound(saves.ResumeScreen),
    "hand-off between people": _bound(dialogs.HandoffScreen),
    "round over": _bound(results.RoundOverScreen),
    "game over": _bound(results.GameOverScreen),
    "score sheet": _bound(dialogs.ScoreScreen),
    "help": _bound(help.HelpScreen),
    "quit?": _bound(dialogs.QuitScreen),
    "reveal hidden tiles?": _bound(dialogs.RevealScreen),
    "Save as…": _bound(saves.SaveAsScreen),
    "Load…": _bound(saves.LoadScreen),
    "Open replay…": _bound(saves.FileScreen, saves.JsonTree),
    "statistics": _bound(saves.StatsScreen),
    "replay viewer": _bound(replay.ReplayScreen),
    "game review": _bound(review_screen.ReviewScreen),
    "a reviewed position": _bound(review_screen.PositionScreen),
    "a table's lobby": _bound(lobby.LobbyScreen),
    "a table's game": _bound(GameScreen, ids=("hand-over",)),
    "Join a table…": _bound(join.JoinScreen),
    "Host a table…": _bound(join.HostScreen),
    "a table's link (served game)": _bound(join.SeatScreen),
    "chat line box": _bound(chat.ChatInputScreen),
    "quick reactions": _bound(chat.ReactionScreen),
    "remove a person": _bound(chat.RemoveScreen),
    "remove a person?": _bound(chat.ConfirmRemoveScreen),
    "the table's chat (replay)": _bound(chat.ChatLogScreen),
}


def _keys_page() -> tuple[str, str]:
    text = _text(DOCS / "keys.md")
    game, others = text.split("## The game screen", 1)[1].split("## The other screens", 1)
    return game, others


def test_every_key_of_the_game_screen_is_bound_and_every_binding_documented() -> None:
    documented: set[str] = set()
    for key, _does in _table(_keys_page()[0]):
        documented |= _keys(key)
    assert documented == GAME_KEYS, (
        f"in docs/keys.md but not bound: {sorted(documented - GAME_KEYS)}; "
        f"bound but not in docs/keys.md: {sorted(GAME_KEYS - documented)}"
    )


def test_every_key_of_the_other_screens_is_bound_and_every_binding_documented() -> None:
    documented: dict[str, set[str]] = {}
    for screen, key, _does in _table(_keys_page()[1]):
        documented.setdefault(screen, set()).update(_keys(key))
    assert set(documented) == set(SCREENS)
    for screen, bound in SCREENS.items():
        assert documented[screen] == bound, (
            f"{screen}: in docs/keys.md but not bound: {sorted(documented[screen] - bound)}; "
            f"bound but not in docs/keys.md: {sorted(bound - documented[screen])}"
        )


def test_a_key_that_is_not_bound_is_caught() -> None:
    """The comparison above can fail: a made-up key is no binding of the game screen."""
    assert _keys("z or ctrl+y") - GAME_KEYS == {"z", "ctrl+y"}
    assert _keys("← → or h l") == {"left", "right", "h", "l"}
    assert _keys("1 … 9") == set("123456789") and _keys("1 … 5 / Esc") == {*"12345", "escape"}


# ---------------------------------------------------------------------------------------
# Options and presets
# ---------------------------------------------------------------------------------------
def test_the_options_table_names_every_option_and_its_values() -> None:
    from mexitrain.rules import RuleSet

    section = _text(DOCS / "options.md").split("## Options", 1)[1].split("\n## ", 1)[0]
    rows = {row[0].strip("`"): row[1] for row in _table(section)}
    assert set(rows) == set(RuleSet.model_fields)
    for name, field in RuleSet.model_fields.items():
        values = re.findall(r"`([^`]+)`", rows[name])
        if typing.get_origin(field.annotation) is typing.Literal:
            choices = [str(v) for v in typing.get_args(field.annotation)]
            assert sorted(values) == sorted(choices) and values[0] == str(field.default), name
        elif field.annotation is bool:
            assert values == (["on", "off"] if field.default else ["off", "on"]), name


def test_the_presets_table_names_every_preset() -> None:
    from mexitrain.rules.ruleset import PRESETS

    section = _text(DOCS / "options.md").split("## Presets", 1)[1].split("\n## ", 1)[0]
    names = [re.match(r"`(\w+)`", row[0]).group(1) for row in _table(section)]
    assert sorted(names) == sorted(PRESETS)


# ---------------------------------------------------------------------------------------
# Links
# ---------------------------------------------------------------------------------------
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_every_link_to_a_file_of_the_repository_leads_to_one(page: Path) -> None:
    for target in LINK.findall(FENCE.sub("", _text(page))):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # another site, or a heading of the same page
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{page.name}: {target}"


@pytest.mark.parametrize("page", PAGES, ids=_ids(PAGES))
def test_no_placeholder_is_taken_for_an_html_tag(page: Path) -> None:
    """``<reason>`` outside code is read as an HTML tag and vanishes from the page: placeholders
    in angle brackets go inside backticks (HTML comments are fine)."""
    prose = re.sub(r"`[^`]*`", "", FENCE.sub("", _text(page)))
    assert re.findall(r"<[A-Za-z/][^>]*>", prose) == []
    # and a power written 2**64 outside code is read as the start of bold text
    assert re.findall(r"\w\*\*\w+", prose) == []


def test_a_bare_placeholder_is_caught() -> None:
    assert re.findall(r"<[A-Za-z/][^>]*>", 'ends with "not saving: <reason>"') == ["<reason>"]


# ---------------------------------------------------------------------------------------
# The layout
# ---------------------------------------------------------------------------------------
def _layout_paths() -> set[str]:
    """The paths the tree of docs/layout.md draws (``mexitrain/rules/core/step.py``...)."""
    tree = _text(DOCS / "layout.md").split("## The tree", 1)[1]
    paths, stack = set(), []
    for line in FENCE.search(tree).group(1).splitlines():
        m = re.match(r"^((?:│   |    )*)(├── |└── )?(\S+)", line)
        if not m:
            continue
        depth = len(m.group(1)) // 4 + (1 if m.group(2) else 0)
        stack = [*stack[:depth], m.group(3).rstrip("/")]
        paths.add("/".join(stack))
    return paths


def test_the_layout_tree_names_every_module() -> None:
    drawn = _layout_paths()
    assert "mexitrain/rules/core/step.py" in drawn and "mexitrain/ui/widgets/hub.py" in drawn
    modules = {
        str(p.relative_to(ROOT)) for p in (ROOT / "mexitrain").rglob("*.py")
        if p.name != "__init__.py" or p.parent.name == "mexitrain"
    }
    assert modules - drawn == set(), "modules missing from docs/layout.md"
    gone = {p for p in drawn if p.endswith(".py") and not (ROOT / p).exists()}
    assert gone == set(), "docs/layout.md names modules that are gone"
