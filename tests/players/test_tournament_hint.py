"""``mexitrain tournament`` and ``hint``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mexitrain.cli import main
from mexitrain.players import COMPILED
from mexitrain.players.hint import hint
from mexitrain.players.tournament import GameResult, jobs, seat_levels, summarize, wilson
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0


def test_seats_and_rotations():
    assert seat_levels(("expert", "planner"), 4) == ("expert", "planner", "planner", "planner")
    with pytest.raises(ValueError):
        seat_levels(("a", "b", "c"), 2)
    work = jobs(RuleSet(), ("a", "b", "b"), games=2, seed=10, budget=None)
    assert [w[1] for w in work[:3]] == [("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a")]
    assert [w[2] for w in work] == [10, 10, 10, 11, 11, 11]


def test_summary_counts_shared_wins_and_differences():
    results = [
        GameResult(("x", "y"), (1.0, 0.0), ((0, 10), (4, 2)), (5, 5), (0.1, 0.1)),
        GameResult(("y", "x"), (0.5, 0.5), ((3, 3),), (2, 2), (0.1, 0.1)),
    ]
    st = summarize(results)
    assert st["x"].wins == 1.5 and st["x"].games == 2
    assert st["x"].points == 0 + 4 + 3
    assert st["x"].diff == (0 - 10) + (4 - 2) + 0


def _rows(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines()[2:]}


def test_tournament_command(capsys):
    code = main(
        ["tournament", "--players", "2", "--games", "2", "--seed", "3", "--ai", "greedy,random",
         "--option", "set=6", "--processes", "1"]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("4 games (2 deals x 2 seat rotations), 2 players, preset standard set=6")
    rows = _rows(out)
    assert set(rows) == {"greedy", "random"}
    shares = [float(rows[k][2].rstrip("%")) for k in rows]
    assert sum(shares) == pytest.approx(100, abs=0.2)
    # the wins themselves, so that runs on other deals add up exactly: "won/games"
    wins = {k: [float(x) for x in rows[k][-1].split("/")] for k in rows}
    assert all(games == 4 for _, games in wins.values())
    assert sum(won for won, _ in wins.values()) == 4
    assert [100 * won / 4 for won, _ in wins.values()] == pytest.approx(shares, abs=0.05)
    assert re.search(r"\[\d+\.\d, \d+\.\d\]", out)


def test_tournament_in_two_processes_gives_the_same_numbers(capsys):
    args = ["tournament", "--players", "3", "--games", "1", "--ai", "planner,greedy,random",
            "--option", "set=6", "--option", "rounds=2"]
    assert main([*args, "--processes", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--processes", "2"]) == 0
    two = capsys.readouterr().out

    def strip(out):  # timings differ; everything else must not
        return [line.split()[:6] for line in out.splitlines()[1:]]

    assert strip(one) == strip(two)


RESULTS_ARGS = ["tournament", "--players", "2", "--games", "3", "--seed", "7", "--ai", "greedy,random",
                "--option", "set=6", "--option", "rounds=2", "--processes", "1"]


def _table(out: str) -> list[str]:  # the figures, not the header (which says how long it took)
    return [line.split()[:6] + line.split()[-1:] for line in out.splitlines() if line.startswith(("greedy", "random"))]


def test_a_results_file_keeps_every_game_and_a_second_run_plays_none(tmp_path, capsys, monkeypatch):
    from mexitrain.players import tournament

    path = tmp_path / "runs.jsonl"
    assert main([*RESULTS_ARGS]) == 0
    plain = capsys.readouterr().out
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 0
    first = capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert len(lines) == 6  # 3 deals x 2 rotations, one line each
    assert "0 of them read from" in first and "6 played now" in first
    assert _table(first) == _table(plain)  # the same games as without a file

    played = []
    real = tournament.play_one
    monkeypatch.setattr(tournament, "play_one", lambda *a: played.append(a) or real(*a))
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 0
    again = capsys.readouterr().out
    assert played == []  # every game read back, none played
    assert "6 of them read from" in again and _table(again) == _table(first)

    # a run stopped while writing: two games lost, the last line cut in the middle
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:25])
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 0
    resumed = capsys.readouterr().out
    assert len(played) == 2 and "4 of them read from" in resumed
    assert _table(resumed) == _table(first)
    assert len(path.read_text().splitlines()) == 6  # the cut line is gone, the two added

    # a whole last line that only lacks its end of line is a game: kept
    path.write_text(path.read_text().rstrip("\n"))
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 0
    assert "6 of them read from" in capsys.readouterr().out and len(played) == 2
    assert path.read_text().endswith("}\n")

    # another tournament in the same file plays its own games and leaves these alone
    assert main([*RESULTS_ARGS[:-2], "--seed", "8", "--processes", "1", "--results", str(path)]) == 0
    assert "4 of them read from" in capsys.readouterr().out  # deals 8 and 9 were there


def test_kept_only_reports_on_the_games_kept_and_plays_none(tmp_path, capsys, monkeypatch):
    from mexitrain.players import tournament

    path = tmp_path / "runs.jsonl"
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 0
    full = capsys.readouterr().out
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:30])  # a run still writing it
    before = path.read_bytes()
    monkeypatch.setattr(tournament, "play_one", lambda *a: pytest.fail("played a game"))
    assert main([*RESULTS_ARGS, "--results", str(path), "--kept-only"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 of 6 games (3 deals x 2 seat rotations)")  # not "4 games (3 x 2)"
    assert f"read from {path} (none played)" in out
    assert path.read_bytes() == before  # the half-written line is left to the run writing it
    path.write_text("\n".join(lines) + "\n")
    assert main([*RESULTS_ARGS, "--results", str(path), "--kept-only"]) == 0
    assert _table(capsys.readouterr().out) == _table(full)
    assert main([*RESULTS_ARGS[:-2], "--seed", "50", "--results", str(path), "--kept-only"]) == 2
    assert "holds no game of this tournament" in capsys.readouterr().err
    assert main([*RESULTS_ARGS, "--kept-only"]) == 2
    assert "--kept-only needs --results" in capsys.readouterr().err


_RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


@pytest.mark.parametrize("path", sorted(_RESULTS.glob("*.jsonl")), ids=lambda p: p.name)
def test_the_kept_games_are_still_the_games_the_players_play(path):
    """A kept game is only worth adding to if the players still play it: a change to a
    computer player's play makes benchmarks/results/ stale (the file cannot tell, docs/command-line.md).
    The first game of each file, replayed for two rounds, must give the same scores (one test a
    file, so that the files share the cores)."""
    from mexitrain.commands.tournament import ResultsFile
    from mexitrain.players.tournament import play_one
    from mexitrain.rules import make_rules

    kept = ResultsFile(path, write=False).games
    _, levels, seed, budget = min(kept)
    again = play_one(make_rules("standard", {}), levels, seed, budget, rounds=2)
    assert again.round_scores == kept[(_, levels, seed, budget)].round_scores[:2], path.name


def test_there_are_kept_games_to_replay():
    assert sorted(_RESULTS.glob("*.jsonl"))


#: expert-v's 2000 2-player full games against the planner: the default expert's row at two
#: players (its rollouts are cut there as expert-v's, issue #36)
_VALUE = _RESULTS / "value" / "v-planner-2p.jsonl"


@pytest.mark.parametrize("pick", [min, max], ids=["first", "last"])
def test_the_default_expert_plays_the_kept_expert_v_games_at_two_players(pick):
    """The default expert's 2-player row is expert-v's kept games: seated as ``expert``, the
    first and the last of them (one in each seat) give the same scores in their first round
    (all 13 rounds of the first: test_a_kept_full_game_replays_whole, on the compiled build)."""
    from mexitrain.commands.tournament import ResultsFile
    from mexitrain.players.tournament import play_one
    from mexitrain.rules import make_rules

    kept = ResultsFile(_VALUE, write=False).games
    key = pick(kept)
    _, levels, seed, budget = key
    assert "expert-v" in levels
    as_default = tuple("expert" if lv == "expert-v" else lv for lv in levels)
    again = play_one(make_rules("standard", {}), as_default, seed, budget, rounds=1)
    assert again.round_scores == kept[key].round_scores[:1]


@pytest.mark.skipif(
    not (COMPILED or os.environ.get("MEXITRAIN_HEAVY")),
    reason="13 rounds of the expert take half a minute in pure Python: run on the compiled "
    "build (CI's compiled stage) or with MEXITRAIN_HEAVY=1; the 2-round replays above always run",
)
def test_a_kept_full_game_replays_whole():
    """The small sample of the heavy test below: on the compiled build (CI's compiled stage
    runs this file) or when heavy, the first kept 2-player game at the default budget of
    expert-full and of the default expert (expert-v's games), all 13 rounds, scores each round
    the same again."""
    from mexitrain.commands.tournament import ResultsFile
    from mexitrain.players.tournament import play_one
    from mexitrain.rules import make_rules

    for path, level in ((_RESULTS / "expert-full-planner-2p.jsonl", None), (_VALUE, "expert")):
        kept = ResultsFile(path, write=False).games
        key = min(kept)
        _, levels, seed, budget = key
        if level:  # expert-v's games are the default expert's at two players
            levels = tuple(level if lv == "expert-v" else lv for lv in levels)
        again = play_one(make_rules("standard", {}), levels, seed, budget)
        assert len(again.round_scores) == 13
        assert again.round_scores == kept[key].round_scores, path.name


@pytest.mark.slow
def test_kept_full_games_replay_whole():
    """Heavy: the first kept game of every seating in each file, and two more, replayed whole
    (13 rounds): every round's scores the same. A change meant to make a player faster without
    changing its play must pass this (a few minutes on the compiled build, longer pure)."""
    from mexitrain.commands.tournament import ResultsFile
    from mexitrain.players.tournament import play_one
    from mexitrain.rules import make_rules

    rules = make_rules("standard", {})
    for path in sorted(_RESULTS.glob("*.jsonl")):
        kept = ResultsFile(path, write=False).games
        keys = sorted(kept)
        firsts = {}
        for key in keys:
            firsts.setdefault(key[1], key)  # per seating (the levels in seat order)
        for key in sorted({*firsts.values(), keys[len(keys) // 2], keys[-1]}):
            _, levels, seed, budget = key
            again = play_one(rules, levels, seed, budget)
            assert again.round_scores == kept[key].round_scores, (path.name, key)


def test_a_long_tournament_says_how_far_it_has_got(tmp_path, capsys):
    """Hours of games: standard error tells how many are played and about how long is left;
    the table on standard output is unchanged."""
    import io

    from mexitrain.commands.tournament import Progress, duration

    assert main([*RESULTS_ARGS, "--results", str(tmp_path / "runs.jsonl")]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()  # not a terminal: a line at every tenth, here every game
    assert [line.split(",")[0] for line in lines] == [f"{n} of 6 games played" for n in range(1, 7)]
    assert "about" in lines[0] and "left" in lines[0] and "left" not in lines[-1]
    assert out.startswith("6 games") and "games played" not in out

    class Log(io.StringIO):
        def isatty(self):
            return self.tty

    log = Log()
    log.tty = False
    progress = Progress(100, 0.0, log)
    for _ in range(100):
        progress.step()
    assert [line.split(",")[0] for line in log.getvalue().splitlines()] == [
        f"{n} of 100 games played" for n in range(10, 101, 10)
    ]
    log = Log()
    log.tty = True  # at a terminal: one line, rewritten after every game
    progress = Progress(3, 0.0, log)
    for _ in range(3):
        progress.step()
    shown = log.getvalue()
    assert shown.count("\r") == 3 and shown.count("\n") == 1 and shown.endswith("\n")
    assert shown.rsplit("\r", 1)[1].startswith("\x1b[K3 of 3 games played, ")
    assert [duration(x) for x in (3.24, 45, 720, 20400)] == ["3.2 s", "45 s", "12 min", "5 h 40 min"]
    from mexitrain import i18n

    i18n.set_language("fr")  # conftest puts the language back
    log = Log()
    log.tty = False
    progress = Progress(2, 0.0, log)
    progress.step()
    progress.step()
    assert [line.split(",")[0] for line in log.getvalue().splitlines()] == [
        "1 partie jouée sur 2", "2 parties jouées sur 2"
    ]
    assert duration(3.24) == "3,2 s"


def test_a_results_file_that_is_not_one_says_so_in_one_line(tmp_path, capsys):
    path = tmp_path / "runs.jsonl"
    path.write_text('{"rules": "x"}\n{"not": "a game"}\n')
    assert main([*RESULTS_ARGS, "--results", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"mexitrain: error: --results {path}: line 1 is not a game of a tournament"
    assert path.read_text() == '{"rules": "x"}\n{"not": "a game"}\n'  # left as it was
    assert main([*RESULTS_ARGS, "--results", str(tmp_path / "no" / "such" / "folder.jsonl")]) == 2
    err = capsys.readouterr().err.strip()  # refused before a game is played, in one line
    assert err == f"mexitrain: error: --results {tmp_path / 'no' / 'such' / 'folder.jsonl'}: there is no such file"
    assert main([*RESULTS_ARGS, "--results", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == f"mexitrain: error: --results {tmp_path}: it is a folder, not a file"


def test_tournament_refuses_bad_tables(capsys):
    assert main(["tournament", "--players", "2", "--ai", "planner,planner"]) == 2
    assert "two different levels" in capsys.readouterr().err
    assert main(["tournament", "--players", "2", "--ai", "a,b"]) == 2
    assert main(["tournament", "--players", "2", "--ai", "planner,greedy,random"]) == 2


def test_hint_gives_a_legal_move_and_one_line_of_why():
    state = new_game(RuleSet(set=9), 4, 2)
    for _ in range(12):
        v = view(state, state.turn)
        action, why = hint(v, time_limit=0.2)
        assert action in legal_actions(state)
        assert why and "\n" not in why
        state = apply(state, action)
    with pytest.raises(ValueError):
        hint(view(state, (state.turn + 1) % 4))


def test_hint_explains_shedding():
    from support.positions import position

    from mexitrain.rules import MEXICAN

    s = position(
        hands=[[(12, 5), (5, 3), (10, 11)], [(1, 2), (2, 2), (0, 1)]],
        trains={MEXICAN: [(12, 11)]},
        boneyard=[(0, 0)],
    )
    action, why = hint(view(s, 0), time_limit=0)
    assert why == "Shed 11-10, which is not in your plan, on the Mexican Train"
    s = s.model_copy(update={"hands": (s.hands[0], ((1, 2),))})
    action, why = hint(view(s, 0), time_limit=0)
    assert why.startswith("Seat 2 is down to 1 tile, so the heaviest tile you can play goes first (21 pips)")


def test_a_hint_names_the_other_players_when_it_knows_their_names():
    """The game passes the table's names: "Bea is down to 1 tile", "sheds … on Bea's train"."""
    from support.positions import position

    from mexitrain import i18n
    from mexitrain.rules import MEXICAN

    s = position(
        hands=[[(12, 5), (5, 3), (10, 11)], [(1, 2)]],
        trains={MEXICAN: [(12, 11)]},
        boneyard=[(0, 0)],
    )
    names = ("You", "Bea")
    assert hint(view(s, 0), time_limit=0, names=names)[1].startswith(
        "Bea is down to 1 tile, so the heaviest tile you can play goes first"
    )
    s = position(  # Bea's marked train takes 10-11, off the plan 12-5 5-3
        hands=[[(12, 5), (5, 3), (10, 11)], [(1, 2), (2, 2), (0, 1), (4, 4)]],
        trains={1: [(12, 10)]},
        markers=[1],
        boneyard=[(0, 0)],
    )
    assert hint(view(s, 0), time_limit=0, names=names)[1] == "Shed 10-11, which is not in your plan, on Bea's train"
    assert hint(view(s, 0), time_limit=0)[1] == "Shed 10-11, which is not in your plan, on seat 2's train"
    i18n.set_language("fr")  # conftest puts the language back
    assert hint(view(s, 0), time_limit=0, names=names)[1] == (
        "Posez 10-11, qui n’est pas dans votre plan, sur le train de Bea"
    )


def test_the_planner_explains_a_swan_drive_in_the_players_language():
    """§8 swan drive: skipping the Mexican Train was explained in English in a French game
    (its reasons, and keeping a drawn tile, were not in the catalog)."""
    from mexitrain import i18n
    from mexitrain.players.planner import PlannerPlayer
    from mexitrain.rules import make_rules

    i18n.set_language("fr")  # conftest puts the language back
    rules = make_rules("standard", {"swan_drive": "on", "rounds": "1"})
    reasons = set()
    for seed in range(2):
        state = new_game(rules, 4, seed)
        while state.phase != "game_over":
            action, why = PlannerPlayer().decide(view(state, state.turn))
            reasons.add(why)
            state = apply(state, action)
    assert "sautez le Train Mexicain pour voir le train public suivant" in reasons
    english = ("skip", "end", "keep", "shed", "play", "seat", "nothing")
    assert not [r for r in reasons if r.startswith(english)]


def test_the_expert_words_every_turn_ending_choice_in_the_players_language():
    """The expert's reason for a draw, a marker, a pass or a skip, in any phase, was the raw
    action type in a sentence ("chooses to draw") when no phase-specific reason fitted."""
    from mexitrain import i18n
    from mexitrain.players.expert import ExpertPlayer
    from mexitrain.players.planner import DEFAULT_WEIGHTS
    from mexitrain.rules import DRAW, MARK, PASS, SKIP, make_rules

    seat_view = view(new_game(make_rules("standard", {"set": "6"}), 2, 0), 0)
    choices = (DRAW, MARK, PASS, SKIP)
    expert = ExpertPlayer(0)

    def reasons() -> dict[str, str]:
        out = expert.candidates(seat_view, list(choices), frozenset(), DRAW, "base", DEFAULT_WEIGHTS)
        return {a.type: why for a, why in out}

    assert reasons() == {
        "draw": "draw from the boneyard",
        "mark": "place your marker and pass",
        "pass": "pass",
        "skip": "skip this train",
    }
    i18n.set_language("fr")  # conftest puts the language back
    assert reasons() == {
        "draw": "piochez un domino", "mark": "posez votre marqueur et passez", "pass": "passez", "skip": "sautez ce train"
    }


def test_the_kept_results_are_the_full_games_of_the_readme_rows():
    """benchmarks/results/ holds the games behind docs/strength.md's full-game rows (resumed by the
    same command): every line a game of the Standard preset, 13 rounds, the expert (or expert-full) vs planners,
    at the budget its name says (none: the default), in docs/strength.md's range of deals, each
    rotation of a deal once."""
    from pathlib import Path

    from mexitrain.commands.tournament import ResultsFile, job_key
    from mexitrain.rules import make_rules

    folder = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
    # the 2-player rows of the expert before its rollouts were cut (issue #36) are expert-full's
    ranges = {
        "expert-full-planner-2p-240.jsonl": ("expert-full", 2, 461, 1000, 240),  # the budgets before issue 22
        "expert-planner-4p-200.jsonl": ("expert", 4, 31, 500, 200),
        "expert-full-planner-2p.jsonl": ("expert-full", 2, 1, 1000, None),
        "expert-planner-4p.jsonl": ("expert", 4, 1, 500, None),
    }
    for path in sorted(folder.glob("*.jsonl")):
        level, players, first, last, budget = ranges[path.name]
        kept = ResultsFile(path, write=False)
        levels = (level,) + ("planner",) * (players - 1)
        rules = make_rules("standard", {})
        work = {job_key(j): j for j in jobs(rules, levels, last - first + 1, first, budget)}
        assert set(kept.games) <= set(work), path.name  # nothing but the command's own games
        for result in kept.games.values():
            assert len(result.round_scores) == 13 and sorted(result.levels) == sorted(levels)
            assert sum(result.win_credit) == pytest.approx(1)


def test_a_tournament_and_a_simulation_seat_expert_full(capsys):
    """expert-full, kept so that its measured games replay, is a level of both commands."""
    args = ["--players", "2", "--games", "1", "--ai", "expert-full,random", "--option", "rounds=1", "--option", "set=6"]
    assert main(["tournament", *args, "--budget", "2", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "expert-full" in out and ", expert budget 2 rollouts;" in out.splitlines()[0]
    assert main(["simulate", *args]) == 0
