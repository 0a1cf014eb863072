"""Game records (docs/record-format.md): export, strict replay, refusal of bad records."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support.french import in_french

from mexitrain.cli import main
from mexitrain.game_setup import SeatConfig
from mexitrain.rules import (
    PRESETS,
    GameState,
    IllegalAction,
    Play,
    RuleSet,
    RuleSetError,
    apply,
    legal_actions,
    make_rules,
    new_game,
)
from mexitrain.rules.record import (
    FORMAT,
    RECORD_CODES,
    VERSION,
    RecordError,
    check_record,
    dump_record,
    load_record,
    replay,
    to_record,
)
from mexitrain.storage.records import read_record, write_record
from mexitrain.text.files import record_error_text

REPO_ROOT = Path(__file__).resolve().parents[2]
DOC = REPO_ROOT / "docs" / "record-format.md"


def seats(n: int) -> list[tuple[str, str]]:
    return [("Ann", "human")] + [(f"Bot {i}", "random") for i in range(1, n)]


def play(rules: RuleSet, players: int, seed: int, stop: int | None = None) -> GameState:
    """A game of uniformly random legal actions, seeded; stops after ``stop`` actions."""
    rng = random.Random(f"test-record:{seed}")
    state = new_game(rules, players=players, seed=seed)
    done = 0
    while not state.over and (stop is None or done < stop):
        state = apply(state, rng.choice(legal_actions(state)))
        done += 1
    return state


def round_trip(state: GameState, players=None) -> dict:
    """Record -> JSON text -> record -> replay; the replay must equal ``state``."""
    record = to_record(state, players or seats(state.players))
    text = dump_record(record)
    loaded = load_record(text)
    assert loaded == record
    again = replay(loaded)
    assert again == state
    assert to_record(again, record["players"]) == record
    return record


def refused(record: dict, code: str, **values) -> RecordError:
    """``replay(record)`` raises a RecordError with ``code`` and (at least) ``values``; its
    developer line is one line and it reads in French."""
    with pytest.raises(RecordError) as info:
        replay(record)
    exc = info.value
    assert exc.code == code, str(exc)
    assert {k: exc.values.get(k) for k in values} == values, str(exc)
    assert "\n" not in str(exc)
    said_in_french(exc)
    return exc


def said_in_french(exc: RecordError, *paths) -> str:
    """Every refusal has a code (not the catch-all) and reads in French with no English word."""
    assert exc.code != "invalid", exc
    return in_french(record_error_text, exc, *paths)


# ---------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_full_game_of_every_preset_round_trips(preset: str) -> None:
    state = play(PRESETS[preset], 4, seed=3)
    assert state.over
    record = round_trip(state)
    assert record["format"] == FORMAT and record["version"] == VERSION
    assert len(record["rounds"]) == PRESETS[preset].round_count
    assert all("end" in r and "scores" in r for r in record["rounds"])
    assert record["winners"] == list(state.winners) and record["winners"]
    assert record["totals"] == [sum(r["scores"][s] for r in record["rounds"]) for s in range(4)]
    assert record["rules"] == PRESETS[preset].model_dump()
    assert record["players"][0] == {"name": "Ann", "kind": "human"}


@pytest.mark.parametrize("stop", [0, 1, 7, 60, 200])
def test_game_in_progress_round_trips(stop: int) -> None:
    state = play(make_rules("standard", {"rounds": "3"}), 3, seed=11, stop=stop)
    assert not state.over
    record = round_trip(state)
    current = record["rounds"][-1]
    assert "end" not in current and "scores" not in current
    assert len(current["events"]) == len(state.events)
    assert len(record["rounds"]) == len(state.results) + 1
    assert record["winners"] == []


def test_players_may_be_seat_configs_dicts_or_pairs() -> None:
    state = play(make_rules("fast", {"rounds": "1"}), 2, seed=1, stop=5)
    as_pairs = to_record(state, [("Ann", "human"), ("Bot", "greedy")])
    as_dicts = to_record(state, [{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "greedy"}])
    as_seats = to_record(state, [SeatConfig(name="Ann"), SeatConfig(name="Bot", kind="greedy")])
    assert as_pairs == as_dicts == as_seats
    with pytest.raises(RecordError) as info:
        to_record(state, seats(3))
    assert (info.value.code, dict(info.value.values)) == ("player_count", {"players": 2, "given": 3})


def test_meta_is_kept_and_ignored() -> None:
    state = play(make_rules("fast", {"rounds": "1"}), 2, seed=2)
    record = to_record(state, seats(2), meta={"app": "mexitrain 0.1.0"})
    assert record["meta"] == {"app": "mexitrain 0.1.0"}
    assert replay(load_record(dump_record(record))) == state


_OPTIONS = st.fixed_dictionaries(
    {
        "set": st.sampled_from([6, 9, 12]),
        "rounds": st.integers(1, 3),
        "engine": st.sampled_from(["descending", "highest_double"]),
        "first_player": st.sampled_from(["random", "heaviest"]),
        "double_follow_up": st.sampled_from(["any", "must_satisfy"]),
        "round_end": st.sampled_from(["boneyard_empty", "until_blocked"]),
        "trains_start_public": st.booleans(),
        "teams": st.booleans(),
        "team_marker": st.sampled_from(["together", "both_stuck"]),
        "open_hands": st.booleans(),
        "blanks_wild": st.booleans(),
        "opening": st.sampled_from(["normal", "simultaneous", "first_turn_chain", "delayed_first_turn"]),
        "branching_doubles": st.booleans(),
        "swan_drive": st.booleans(),
    }
)


@given(
    options=_OPTIONS,
    players=st.sampled_from([2, 3, 4, 6]),
    seed=st.integers(0, 10_000),
    stop=st.none() | st.integers(0, 150),
)
def test_random_rule_sets_round_trip(options: dict, players: int, seed: int, stop: int | None) -> None:
    rules = RuleSet(**options)
    try:
        rules.check_players(players)
    except RuleSetError:
        assume(False)
    state = play(rules, players, seed, stop)
    record = round_trip(state)
    if rules.engine == "highest_double":
        assert all("engine_seat" in r for r in record["rounds"])
    else:
        assert not any("engine_seat" in r for r in record["rounds"])
    branches = [e for r in record["rounds"] for e in r["events"] if "branch" in e]
    assert all(e["branch"] > 0 for e in branches)
    if not rules.branching_doubles:
        assert not branches


# ---------------------------------------------------------------------------------------
# The documented example
# ---------------------------------------------------------------------------------------
def doc_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- example-record -->\n```json\n(.*?\n)```", text, re.S)
    assert m, "docs/record-format.md lost its example block"
    return m.group(1)


def test_docs_example_loads_and_replays() -> None:
    text = doc_example()
    record = load_record(text)
    state = replay(record)
    assert state.over
    assert list(state.winners) == record["winners"] == [0]
    assert [r.end for r in state.results] == ["domino", "stuck"]
    # the example is exactly what dump_record writes for that game
    assert dump_record(to_record(state, record["players"])) == text
    types = {e["type"] for r in record["rounds"] for e in r["events"]}
    assert {"play", "draw", "mark"} <= types


def test_docs_list_every_rule_option_and_event_type() -> None:
    text = DOC.read_text(encoding="utf-8")
    for field in RuleSet.model_fields:
        assert f"`{field}`" in text, field
    for kind in ("play", "draw", "mark", "pass", "skip"):
        assert f'`"{kind}"`' in text, kind
    for key in ("format", "version", "seed", "rules", "players", "rounds", "totals", "winners",
                "engine", "engine_seat", "first_seat", "hands", "boneyard", "events", "end",
                "scores", "branch", "meta"):
        assert f"`{key}`" in text, key


# ---------------------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def game() -> tuple[GameState, dict]:
    state = play(make_rules("standard", {"rounds": "3"}), 3, seed=5)
    return state, to_record(state, seats(3))


@pytest.fixture
def record(game) -> dict:
    return copy.deepcopy(game[1])


def test_not_a_record(record: dict) -> None:
    refused([record], "not_a_record", found="list")
    record["format"] = "chess-pgn"
    refused(record, "not_a_record", format="chess-pgn")


@pytest.mark.parametrize("version", [0, 2, "1", 1.0, None])
def test_wrong_version(record: dict, version) -> None:
    record["version"] = version
    if isinstance(version, int):
        exc = refused(record, "other_version", version=version, reads=VERSION)
        assert ("newer" in record_error_text(exc)) == (version > VERSION)
    else:
        refused(record, "not_whole_number", field="version")


@pytest.mark.parametrize("key", ["seed", "rules", "players", "rounds", "totals", "winners"])
def test_missing_top_level_key(record: dict, key: str) -> None:
    del record[key]
    refused(record, "missing_keys", keys=(key,))


def test_unknown_keys_are_refused(record: dict) -> None:
    bad = copy.deepcopy(record)
    bad["comment"] = "hi"
    refused(bad, "unknown_keys", keys=("comment",), round=None)
    bad = copy.deepcopy(record)
    bad["rounds"][1]["note"] = 1
    refused(bad, "unknown_keys", keys=("note",), round=2, event=None)
    bad = copy.deepcopy(record)
    bad["rounds"][0]["events"][0]["why"] = "because"
    refused(bad, "unknown_keys", keys=("why",), round=1, event=1)
    bad = copy.deepcopy(record)
    bad["rules"]["house_rule"] = True
    exc = refused(bad, "bad_rules", field="rules.house_rule")
    assert exc.values["error"].values["option"] == "house_rule"


@pytest.mark.parametrize(
    ("path", "value", "code", "values"),
    [
        (("seed",), "5", "not_whole_number", {"field": "seed", "found": "string"}),
        (("seed",), True, "not_whole_number", {"field": "seed", "found": "boolean"}),
        (("rules", "set"), "12", "bad_rules", {"field": "rules.set"}),
        (("rules", "blanks_wild"), 1, "bad_rules", {"field": "rules.blanks_wild"}),
        (("rules", "set"), 7, "bad_rules", {"field": "rules.set"}),
        (("players", 0, "name"), "", "empty_string", {"field": "players[0].name"}),
        (("players", 1), ["Bot", "random"], "not_an_object", {"field": "players[1]", "found": "list"}),
        (("rounds", 0, "engine"), 12.0, "not_whole_number", {"round": 1, "field": "engine", "found": "number"}),
        (("rounds", 0, "hands"), [[]], "wrong_length", {"round": 1, "field": "hands", "length": 3, "count": 1}),
        (("rounds", 0, "hands", 0, 0), [3], "not_a_tile", {"round": 1, "field": "hands[0][0]"}),
        (("rounds", 0, "hands", 0, 0), [13, 1], "not_in_set", {"field": "hands[0][0]", "tile": (13, 1), "set": 12}),
        (("rounds", 0, "boneyard", 0), "7-7", "not_a_tile", {"field": "boneyard[0]", "found": "string"}),
        (("rounds", 0, "events", 0, "seat"), True, "not_whole_number", {"round": 1, "event": 1, "field": "seat"}),
        (("rounds", 0, "events", 0, "seat"), 3, "out_of_range", {"field": "seat", "min": 0, "max": 2, "value": 3}),
        (("rounds", 0, "events", 0, "type"), "resign", "event_type", {"round": 1, "event": 1, "value": "resign"}),
        (("rounds", 0, "events", 0), [0, "play"], "event_not_an_object", {"round": 1, "event": 1, "found": "list"}),
        (("rounds", 0, "end"), "won", "bad_end", {"round": 1, "field": "end", "value": "won"}),
        (("rounds", 0, "scores", 1), -4, "out_of_range", {"field": "scores[1]", "min": 0, "max": None, "value": -4}),
        (("totals",), [1, 2], "wrong_length", {"field": "totals", "length": 3, "count": 2}),
        (("winners", 0), 7, "out_of_range", {"field": "winners[0]", "min": 0, "max": 2, "value": 7}),
    ],
)
def test_wrong_types_and_ranges(record: dict, path: tuple, value, code: str, values: dict) -> None:
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    refused(record, code, **values)


def test_bad_rules_carry_the_rule_sets_own_refusal(record: dict) -> None:
    record["rules"]["set"] = 7
    exc = refused(record, "bad_rules", field="rules.set")
    error = exc.values["error"]
    assert isinstance(error, RuleSetError)
    assert (error.code, dict(error.values)) == (
        "bad_choice", {"option": "set", "choices": (6, 9, 12, 15, 18), "value": 7}
    )


def _first_play(record: dict, round_index: int = 0, train=None) -> tuple[int, dict]:
    for j, e in enumerate(record["rounds"][round_index]["events"]):
        if e["type"] == "play" and (train is None or e["train"] == train):
            return j, e
    raise AssertionError("no such play in the record")


def test_train_and_branch_types(record: dict) -> None:
    j, e = _first_play(record)
    e["train"] = "Mexican"
    refused(record, "bad_train", round=1, event=j + 1, field="train", found="string")
    e["train"] = 9
    refused(record, "out_of_range", round=1, event=j + 1, field="train", min=0, max=2, value=9)
    e["train"] = 0
    e["branch"] = 0
    refused(record, "out_of_range", round=1, event=j + 1, field="branch", min=1, max=None, value=0)


def _prefix_state(game_state: GameState, record: dict, k: int, j: int) -> GameState:
    """The replayed snapshot just before event ``j`` (0-based) of round ``k`` (0-based)."""
    rules = game_state.rules
    state = new_game(rules, players=game_state.players, seed=game_state.seed)
    for rd in record["rounds"][:k]:
        for e in rd["events"]:
            state = _apply_event(state, e)
    for e in record["rounds"][k]["events"][:j]:
        state = _apply_event(state, e)
    return state


def _apply_event(state: GameState, e: dict) -> GameState:
    from mexitrain.rules import DRAW, MARK, PASS, SKIP

    if e["type"] == "play":
        action = Play(tile=tuple(e["tile"]), train=e["train"], branch=e.get("branch", 0))
    else:
        action = {"draw": DRAW, "mark": MARK, "pass": PASS, "skip": SKIP}[e["type"]]
    return apply(state, action)


def test_illegal_play_names_the_event_and_the_rule(game, record: dict) -> None:
    """An illegal play is ``illegal_move`` with its round, event and seat, and the engine's
    refusal (code and values) kept as ``reason``."""
    state0, _ = game
    for k, rd in enumerate(record["rounds"]):
        for j, e in enumerate(rd["events"]):
            if e["type"] != "play" or e["train"] != "mexican":
                continue
            before = _prefix_state(state0, record, k, j)
            if before.phase != "turn":
                continue
            end = before.mexican.end()
            hand = before.hands[e["seat"]]
            misfit = next((t for t in hand if end not in t), None)
            if misfit is None:
                continue
            bad = copy.deepcopy(record)
            bad["rounds"][k]["events"][j]["tile"] = list(misfit)
            with pytest.raises(IllegalAction) as engine_says:
                apply(before, Play(tile=misfit, train="mexican"))
            a, b = misfit
            exc = refused(bad, "illegal_move", round=k + 1, event=j + 1, seat=e["seat"])
            reason = exc.values["reason"]
            assert (reason.code, reason.values) == (engine_says.value.code, engine_says.value.values)
            if engine_says.value.code == "does_not_fit":
                assert str(exc) == (
                    f"illegal_move (round={k + 1}, event={j + 1}, seat={e['seat']}, "
                    f"reason=does_not_fit (tile={a}-{b}, train=mexican, end={end}))"
                )
                return
    pytest.fail("no play on the Mexican Train to spoil in this game")


def test_private_train_refusal_keeps_the_files_numbering() -> None:
    # a hand-picked spot: seat 1 plays its engine tile on seat 0's private train instead
    rules = make_rules("standard", {"rounds": "1"})
    for seed in range(50):
        state = new_game(rules, players=3, seed=seed)
        seat = state.turn
        other = (seat + 1) % 3
        plays = [a for a in legal_actions(state) if isinstance(a, Play) and a.train == seat]
        if not plays:
            continue
        record = to_record(state, seats(3))
        record["rounds"][0]["events"] = [
            {"seat": seat, "type": "play", "tile": list(plays[0].tile), "train": other}
        ]
        exc = refused(record, "illegal_move", round=1, event=1, seat=seat)
        assert (exc.values["reason"].code, dict(exc.values["reason"].values)) == ("private_train", {"train": other})
        return
    pytest.fail("no seed found")


def test_out_of_turn_event(record: dict) -> None:
    e = record["rounds"][1]["events"][0]
    e["seat"] = (e["seat"] + 1) % 3
    refused(record, "wrong_turn", round=2, event=1, turn=(e["seat"] - 1) % 3, seat=e["seat"])


def test_edited_draw_tile(record: dict) -> None:
    for j, e in enumerate(record["rounds"][0]["events"]):
        if e["type"] == "draw":
            real = e["tile"]
            e["tile"] = [real[0], real[1] + 1] if real[1] < 12 else [real[0] - 1, real[1]]
            refused(record, "wrong_draw", round=1, event=j + 1, tile=tuple(real), found=tuple(e["tile"]))
            return
    pytest.fail("no draw in round 1")


def test_first_bad_event_is_named(record: dict) -> None:
    events = record["rounds"][0]["events"]
    events[2] = {"seat": events[2]["seat"], "type": "skip"}
    events[9] = {"seat": events[9]["seat"], "type": "skip"}
    exc = refused(record, "illegal_move", round=1, event=3, seat=events[2]["seat"])
    assert exc.values["reason"].code == "cannot_skip_now"


@pytest.mark.parametrize(
    ("edit", "code", "values"),
    [
        (lambda r: r["rounds"][1].__setitem__("engine", 12), "wrong_engine",
         {"round": 2, "field": "engine", "engine": 11, "found": 12}),
        (lambda r: r["rounds"][0].__setitem__("first_seat", (r["rounds"][0]["first_seat"] + 1) % 3),
         "wrong_seat", {"round": 1, "field": "first_seat"}),
        (lambda r: r["rounds"][2]["hands"][1].reverse(), "wrong_deal", {"round": 3, "field": "hands[1]", "seed": 5}),
        (lambda r: r["rounds"][0]["boneyard"].pop(), "wrong_deal", {"round": 1, "field": "boneyard", "seed": 5}),
        (lambda r: r["rounds"][0]["hands"][0].__setitem__(0, r["rounds"][0]["boneyard"][0]),
         "wrong_deal", {"round": 1, "field": "hands[0]", "seed": 5}),
    ],
)
def test_deal_must_be_the_seeds(record: dict, edit, code: str, values: dict) -> None:
    edit(record)
    refused(record, code, **values)


def test_dealt_tiles_are_written_low_half_first(record: dict) -> None:
    a, b = record["rounds"][0]["hands"][0][0]
    if a == b:
        record["rounds"][0]["hands"][0][0], record["rounds"][0]["hands"][0][1] = (
            record["rounds"][0]["hands"][0][1],
            record["rounds"][0]["hands"][0][0],
        )
        a, b = record["rounds"][0]["hands"][0][0]
    record["rounds"][0]["hands"][0][0] = [b, a]
    refused(record, "tile_order", round=1, field="hands[0][0]", tile=(a, b))


def test_declared_results_must_match_the_replay(record: dict) -> None:
    bad = copy.deepcopy(record)
    bad["rounds"][1]["scores"][0] += 1
    scores = tuple(bad["rounds"][1]["scores"])
    refused(bad, "wrong_result", round=2, scores=scores, replay_scores=tuple(record["rounds"][1]["scores"]))
    bad = copy.deepcopy(record)
    bad["rounds"][1]["end"] = "blocked"
    refused(bad, "wrong_result", round=2, end="blocked", replay_end=record["rounds"][1]["end"])
    bad = copy.deepcopy(record)
    bad["totals"][2] += 5
    refused(bad, "wrong_totals", field="totals", recorded=tuple(bad["totals"]), replayed=tuple(record["totals"]))
    bad = copy.deepcopy(record)
    bad["winners"] = [w for w in range(3) if w not in record["winners"]][:1]
    refused(bad, "wrong_winners", recorded=tuple(bad["winners"]), replayed=tuple(record["winners"]))
    bad = copy.deepcopy(record)
    bad["winners"] = []
    refused(bad, "wrong_winners", recorded=(), replayed=tuple(record["winners"]))


def test_truncated_round(record: dict) -> None:
    record["rounds"][1]["events"].pop()
    refused(record, "round_not_over", round=2, events=len(record["rounds"][1]["events"]))


def test_truncated_game(record: dict) -> None:
    record["rounds"].pop()
    record["totals"] = [sum(r["scores"][s] for r in record["rounds"]) for s in range(3)]
    record["winners"] = []
    refused(record, "game_truncated", missing=3)


def test_unfinished_round_must_be_the_last(record: dict) -> None:
    del record["rounds"][0]["end"], record["rounds"][0]["scores"]
    refused(record, "unfinished_round", round=1)


def test_end_and_scores_come_together(record: dict) -> None:
    del record["rounds"][2]["scores"]
    refused(record, "end_and_scores", round=3)


def test_round_that_ended_without_end(record: dict) -> None:
    record_end = record["rounds"][2]["end"]
    del record["rounds"][2]["end"], record["rounds"][2]["scores"]
    refused(record, "round_over_unsaid", round=3, end=record_end)


def test_events_after_the_end_of_a_round(record: dict) -> None:
    seat = record["rounds"][0]["events"][-1]["seat"]
    n = len(record["rounds"][0]["events"])
    record["rounds"][0]["events"].append({"seat": seat, "type": "draw", "tile": [0, 0]})
    refused(record, "round_over", round=1, event=n + 1, end=record["rounds"][0]["end"])


def test_too_many_rounds(record: dict) -> None:
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    refused(record, "too_many_rounds", field="rounds", count=4, max=3)


def test_too_many_players_for_the_rules(record: dict) -> None:
    record["players"] = [{"name": f"P{i}", "kind": "random"} for i in range(11)]
    exc = refused(record, "bad_rules", field="players")
    error = exc.values["error"]
    assert (error.code, error.values["max"], error.values["players"]) == ("too_many_players", 10, 11)


def test_check_record_checks_shape_only(record: dict) -> None:
    record["rounds"][0]["events"][0]["tile"] = [0, 0]  # well formed, but not what was played
    rules, actions = check_record(record)
    assert rules == make_rules("standard", {"rounds": "3"})
    assert len(actions) == 3
    with pytest.raises(RecordError):
        replay(record)


# ---------------------------------------------------------------------------------------
# JSON text
# ---------------------------------------------------------------------------------------
def test_load_record_is_strict(game) -> None:
    text = dump_record(game[1])
    assert load_record(text) == game[1]
    assert load_record(text.encode("utf-8")) == game[1]
    french = []
    for bad, code, values in [
        (text[: len(text) // 2], "truncated", {}),
        ("{'format': 1}", "not_json", {"line": 1, "column": 2}),
        (text.replace('"seed": 5', '"seed": NaN'), "not_strict_json", {}),
        (text.replace('"seed": 5', '"seed": 5, "seed": 6'), "not_strict_json", {}),
        (json.dumps({"format": "other"}), "not_a_record", {"format": "other"}),
        (json.dumps({"format": FORMAT, "version": 99}), "other_version", {"version": 99, "reads": 1}),
        (b"\xff\xfe", "not_utf8", {"offset": 0}),
    ]:
        with pytest.raises(RecordError) as info:
            load_record(bad)
        assert info.value.code == code and {k: info.value.values[k] for k in values} == values, str(info.value)
        french.append(said_in_french(info.value))
    assert french[0].startswith("le fichier est tronqué (ligne ")
    assert french[2] == "le fichier est abîmé : NaN n'est pas un nombre admis en JSON"
    assert french[3] == "le fichier est abîmé : la clé « seed » apparaît deux fois"
    assert french[5] == "il a été écrit par un mexitrain plus récent (version 99 ; celui-ci lit la version 1)"


def test_dump_record_is_json_and_one_event_per_line(game) -> None:
    text = dump_record(game[1])
    assert json.loads(text) == game[1]
    assert text.endswith("}\n")
    events = sum(len(r["events"]) for r in game[1]["rounds"])
    assert text.count('{"seat": ') == events


def test_record_files_are_written_atomically(tmp_path: Path, game) -> None:
    path = write_record(tmp_path / "game.json", game[1])
    assert read_record(path) == game[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    (tmp_path / "bad.json").write_text('{"format": "mexitrain-record", "version": 1', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(tmp_path / "bad.json")
    assert (info.value.code, info.value.values["path"]) == ("truncated", str(tmp_path / "bad.json"))
    french = said_in_french(info.value, tmp_path / "bad.json")
    assert french == f"{tmp_path / 'bad.json'} : le fichier est tronqué (ligne 1, colonne 44)"


def test_failed_write_leaves_no_temporary_file(tmp_path: Path, game, monkeypatch) -> None:
    import mexitrain.storage.atomic as atomic

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_record(tmp_path / "x.json", game[1])
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(RecordError):
        write_record(tmp_path / "y.json", {"format": FORMAT, "bad": {1, 2}})
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------
# `mexitrain simulate --records DIR`: every record replays
# ---------------------------------------------------------------------------------------
def _simulate_and_replay(tmp_path: Path, preset: str, games: int, capsys) -> None:
    out = tmp_path / "out"
    argv = ["simulate", "--games", str(games), "--players", "4", "--seed", "1",
            "--preset", preset, "--records", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    files = sorted(out.iterdir())
    assert [p.name for p in files] == [f"game-{i:04d}.json" for i in range(1, games + 1)]
    wins = [0] * 4
    for i, path in enumerate(files):
        record = read_record(path)
        assert record["seed"] == 1 + i
        assert record["rules"] == make_rules(preset).model_dump()
        state = replay(record)
        assert state.over
        for s in state.winners:
            wins[s] += 1
    for s in range(4):
        assert f"seat {s + 1} (random): {wins[s]} (" in printed


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_simulated_records_replay(tmp_path: Path, preset: str, capsys) -> None:
    _simulate_and_replay(tmp_path, preset, 5, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_simulated_records_replay_heavy(tmp_path: Path, preset: str, capsys) -> None:
    _simulate_and_replay(tmp_path, preset, 200, capsys)


# -- malformed shapes found by the save-file fuzzer ------------------------------------------
def _small_record() -> dict:
    state = new_game(RuleSet(rounds=1), 2, 1)
    rng = random.Random(1)
    for _ in range(30):
        state = apply(state, rng.choice(legal_actions(state)))
    return to_record(state, [("A", "human"), ("B", "random")])


@pytest.mark.parametrize("bad", [[1], {"x": 1}, None])
def test_event_type_of_the_wrong_kind_is_refused(bad) -> None:
    record = _small_record()
    record["rounds"][0]["events"][0]["type"] = bad
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.code == "event_type"
    assert {k: info.value.values[k] for k in ("round", "event", "value")} == {"round": 1, "event": 1, "value": None}
    assert said_in_french(info.value).startswith("manche 1, coup 1 : le type de coup doit être « play »")


@pytest.mark.parametrize("bad", [None, "x", [1], [1, 2, 3], {"a": 1}])
def test_draw_event_tile_of_the_wrong_shape_is_refused(bad) -> None:
    record = _small_record()
    draw = next(e for e in record["rounds"][0]["events"] if e["type"] == "draw")
    draw["tile"] = bad
    with pytest.raises(RecordError) as info:
        replay(record)
    assert (info.value.code, info.value.values["field"]) == ("not_a_tile", "tile")
    assert said_in_french(info.value).endswith("« tile » doit être un domino [a, b] de deux nombres entiers")


@pytest.mark.parametrize(("text", "code"), [("[" * 100_000, "too_deep"), ("1" * 5000, "not_json")])
def test_pathological_json_is_refused_in_one_line(text, code) -> None:
    with pytest.raises(RecordError) as err:
        load_record(text)
    assert err.value.code == code
    assert "\n" not in str(err.value)
    said_in_french(err.value)


def test_the_format_document_lists_every_error_code_the_code_raises():
    """docs/record-format.md "Error codes" names each code of RecordError, and no other; the
    codes raised in rules/record.py are RECORD_CODES."""
    root = Path(__file__).resolve().parents[2]
    source = (root / "mexitrain" / "rules" / "record.py").read_text(encoding="utf-8")
    raised = set(re.findall(r'(?:_error|RecordError)\(\s*"([a-z0-9_]+)"', source))
    raised |= set(re.findall(r'RecordError\(\s*"[a-z0-9_]+" if \w+ else "([a-z0-9_]+)"', source))
    assert len(raised) > 30  # the search itself works
    assert raised == set(RECORD_CODES)
    doc = (root / "docs" / "record-format.md").read_text(encoding="utf-8")
    table = doc.split("### Error codes", 1)[1].split("\n## ", 1)[0]
    listed = {code for row in table.splitlines() if row.startswith("| `") for code in re.findall(r"`([a-z0-9_]+)`", row.split("|")[1])}
    assert listed == raised
