"""Server messages as a real table sends them (issue 37): welcomes, lobbies, each seat's
updates along whole games of several rule sets, the rules' own refusals and every error, as
JSON objects a test may break. Built once, from :class:`mexitrain.net.game.ServerGame`."""

from __future__ import annotations

import copy
import functools
import json
import random

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.net.game import ServerGame
from mexitrain.net.protocol import (
    ERROR_CODES,
    PROTOCOL_VERSION,
    Away,
    Error,
    Refused,
    Welcome,
    encode,
    refused_of,
)
from mexitrain.rules import (
    DRAW,
    MARK,
    PASS,
    SKIP,
    IllegalAction,
    Play,
    RuleSet,
    apply,
    legal_actions,
)

TOKEN = "abcdEFGH1234_-xyz"

#: The hostile strings of issue 37: CSI, OSC 0 (the title), OSC 8 (a link), OSC 52 (the
#: clipboard), a C1 CSI, a bidi override, a line separator, DEL, NUL, and names of nothing.
HOSTILE = {
    "esc": "\x1b[31mred",
    "osc0": "\x1b]0;pwned\x07",
    "osc8": "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "osc52": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "c1": "\x9b31m",
    "bidi": "abc\u202e",
    "line_sep": "a\u2028b",
    "del": "x\x7f",
    "nul": "x\x00",
    "zero_width": "\u200b\u200b",
    "hangul_filler": "\u3164",
}

#: Rule sets whose games give the updates (each variant's own fields: open hands, branches,
#: a swan drive, teams, an opening queue, rounds ending blocked).
RULES = {
    "standard": RuleSet(rounds=2),
    "open_branching_swan": RuleSet(set=9, open_hands=True, branching_doubles=True, swan_drive=True, rounds=2),
    "highest_double": RuleSet(set=9, engine="highest_double", rounds=2),
    "teams": RuleSet(set=9, teams=True, rounds=2, team_marker="both_stuck"),
    "simultaneous": RuleSet(set=6, opening="simultaneous", rounds=2),
    "until_blocked": RuleSet(set=6, round_end="until_blocked", blanks_wild=True, rounds=2),
}
PLAYERS = {"standard": 4, "open_branching_swan": 3, "highest_double": 5, "teams": 4, "simultaneous": 3, "until_blocked": 2}


def _game(name: str, seed: int = 1) -> ServerGame:
    n = PLAYERS[name]
    setup = GameSetup(
        rules=RULES[name],
        seed=seed,
        seats=tuple(SeatConfig(name=f"P{i}", kind="human" if i < 2 else "random") for i in range(n)),
    )
    return ServerGame.new(setup, open_seats=(1,), host_seat=0, host_token=TOKEN)


def _refusals(game: ServerGame, rng: random.Random) -> list[Refused]:
    state = game.state
    assert state is not None
    out = []
    for action in (DRAW, MARK, PASS, SKIP, Play(tile=(6, 5), train=0), Play(tile=(0, 0), train="mexican"),
                   Play(tile=(1, 2), train=1, branch=3), Play(tile=(2, 2), train=7)):
        try:
            apply(state, action)
        except IllegalAction as exc:
            out.append(refused_of(rng.randrange(100), exc))
    return out


@functools.cache
def real_games() -> dict[str, list]:
    """Every message of the pool, by kind: ``updates`` (each seat's Update after each
    action, of whole games), ``lobbies``, ``welcomes``, ``refusals``, ``errors``."""
    rng = random.Random(37)
    pool: dict[str, list] = {"updates": [], "lobbies": [], "welcomes": [], "refusals": [], "errors": []}
    for name in RULES:
        game = _game(name)
        pool["lobbies"].append(game.lobby())  # before the start: an open seat without a name
        game.seats[1].kind, game.seats[1].name = "person", "Zoë 🚂"
        game.start("random")
        pool["lobbies"].append(game.lobby())
        away = (Away(seat=1, name="Zoë 🚂", seconds=42),)
        steps = 0
        while True:
            state = game.state
            assert state is not None
            if steps % 7 == 0 or state.over or state.events == ():
                for seat in range(state.players):
                    pool["updates"].append(game.update_for(seat, away if seat % 2 else ()))
            if steps % 23 == 0:
                pool["refusals"].extend(_refusals(game, rng))
            if state.over:
                break
            game.state = apply(state, rng.choice(legal_actions(state)))
            game.seq += 1
            steps += 1
    pool["refusals"] += [
        Refused(seq=1, code="not_your_turn", values={"turn": 2}),
        Refused(seq=2, code="not_started"),
        Refused(seq=3, code="no_seat"),
    ]
    pool["welcomes"] = [
        Welcome(seat=1, token=TOKEN, host=False, table="ABCDEF"),
        Welcome(seat=None, token=TOKEN, host=True, table="ABCDEF"),
    ]
    values = {
        "unknown_type": {"type": "launch"},
        "bad_message": {"type": "intent", "field": "action.play.tile.1"},
        "too_big": {"limit": 16384},
        "version": {"version": 2},
        "bad_name": {"char": "U+001B"},
        "bad_seat": {"seat": 3},
        "table_closed": {"resumable": True},
    }
    pool["errors"] = [
        Error(
            code=code,
            values=values.get(code, {}),
            fatal=code in ("version", "wrong_code", "table_closed"),
            server_version=PROTOCOL_VERSION if code == "version" else None,
        )
        for code in ERROR_CODES
    ]
    return pool


@functools.cache
def _texts() -> tuple[str, ...]:
    pool = real_games()
    return tuple(encode(m) for kind in pool.values() for m in kind)


def messages() -> list[dict]:
    """Every message of the pool as a fresh JSON object (the caller may change it)."""
    return [json.loads(t) for t in _texts()]


def sample(kinds: tuple[str, ...] = ("welcomes", "lobbies", "updates", "refusals", "errors"), per_kind: int = 6) -> list:
    """A few messages of each kind (models), spread over the pool: the first and last ones and
    some between (a game's start, a finished round, its end)."""
    pool = real_games()
    out = []
    for kind in kinds:
        ms = pool[kind]
        step = max(1, len(ms) // per_kind)
        out += ms[::step][:per_kind] + [ms[-1]]
    return out


def as_json(msg) -> dict:
    return copy.deepcopy(json.loads(encode(msg)))
