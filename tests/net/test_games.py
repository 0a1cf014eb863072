"""Whole games over real WebSockets on 127.0.0.1: bot clients and computer seats, every
preset, the records the server keeps replay (docs/protocol.md; rules §7 for the scores)."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from support.net import FAST, address, bots, served, table, until

from mexitrain.net.bot import play_bot
from mexitrain.net.protocol import Lobby, Update, Welcome
from mexitrain.rules import view
from mexitrain.rules.record import replay
from mexitrain.storage import load_save, saves_dir
from mexitrain.storage.stats import load_stats
from mexitrain.storage.tokens import load_table

HEAVY = os.environ.get("MEXITRAIN_HEAVY", "") not in ("", "0")


def _kept(root):
    return sorted(saves_dir(root).glob("table-*.json"))


async def _play(tmp_path, setup, persons):
    async with served(setup, tmp_path) as server:
        results = await bots(server, persons)
        await until(lambda: len(_kept(tmp_path)) == 1)
        final = server.state
    return server, results, final


@pytest.mark.parametrize(
    "players, persons, preset",
    [(2, 2, "standard"), (4, 2, "fast"), (4, 4, "common"), (3, 1, "fast"), (8, 3, "standard"), (8, 8, "common")],
)
async def test_a_whole_round_with_bots_and_computer_seats(tmp_path, players, persons, preset):
    setup = table(players, persons, preset=preset, seed=players * 10 + persons)
    server, results, final = await _play(tmp_path, setup, persons)
    assert final.over
    seats = set()
    for bot in results:
        welcome = next(m for m in bot.messages if isinstance(m, Welcome))
        seats.add(welcome.seat)
        assert bot.refused == [] and bot.error is None
        assert bot.last.view == view(final, welcome.seat)  # the last update is the end, seen by that seat
        assert bot.last.seq == server.seq
        assert any(isinstance(m, Lobby) and m.started for m in bot.messages)
        seqs = [m.seq for m in bot.messages if isinstance(m, Update)]
        assert seqs == sorted(seqs)  # never out of order
    assert seats == set(range(persons))
    # the finished game is kept like a saved game, and its record replays to the same end
    game = load_save(_kept(tmp_path)[0])
    assert game.state == final
    record = json.loads(_kept(tmp_path)[0].read_text())["record"]
    assert replay(record) == final
    assert [s.kind for s in game.setup.seats] == ["human"] * persons + ["random"] * (players - persons)
    # the people are counted in the statistics; the table knows the game is over
    stats = load_stats(tmp_path)
    assert set(stats.players) == {f"Bot{i}" for i in range(persons)}
    assert load_table(tmp_path, server.code).over
    assert not server.game_path.exists()  # the autosave of a finished game is cleared


async def test_a_full_thirteen_round_game_at_two_seats(tmp_path):
    """§7: all 13 rounds, engines 12 down to 0, over the network (a bot client against a
    computer seat, 5 tiles each so that the rounds are short; MEXITRAIN_HEAVY=1 plays it with
    two bot clients and the leaflet's hands)."""
    persons = 2 if HEAVY else 1
    setup = table(2, persons, rounds=None, seed=3, **({} if HEAVY else {"hand_size": "5"}))
    server, results, final = await _play(tmp_path, setup, persons)
    assert len(final.results) == 13
    assert [r.engine for r in final.results] == list(range(12, -1, -1))
    assert all(bot.last.view.phase == "game_over" for bot in results)
    assert replay(json.loads(_kept(tmp_path)[0].read_text())["record"]) == final


async def test_the_next_round_waits_until_every_person_has_seen_the_results(tmp_path):
    """Issue #34 item 5: after a round the table takes no move (a computer's or a person's)
    until each person has sent Seen; a move before that is refused as results_unseen."""
    from mexitrain.net.protocol import Intent
    from mexitrain.rules import Draw

    setup = table(3, 2, rounds=2, seed=5, hand_size="5")
    tried: list[int] = []

    async def impatient(msg, client):
        # the first time P0 is told the round is over, it tries to move before saying Seen
        if isinstance(msg, Update) and msg.waiting and msg.view.seat == 0 and not tried:
            tried.append(msg.seq)
            await client.send(Intent(seq=999, action=Draw()))

    async with served(setup, tmp_path) as server:
        first, second = await asyncio.gather(
            play_bot(address(server), server.code, "Bot0", seed=0, backoff=FAST, on_message=impatient),
            play_bot(address(server), server.code, "Bot1", seed=1, backoff=FAST),
        )
    assert tried
    assert [r.code for r in first.refused] == ["results_unseen"]
    assert first.refused[0].values["seats"] in ([0, 1], [0])  # P0 itself has not said Seen yet
    for bot in (first, second):
        updates = [m for m in bot.messages if isinstance(m, Update)]
        after_round = [u for u in updates if len(u.view.results) == 1 and not u.view.phase == "game_over"]
        assert after_round[0].waiting == (0, 1)  # both people, the computer seat never
        # no move while anyone had not seen the results: the seq stands still until waiting is empty
        waiting_seqs = {u.seq for u in after_round if u.waiting}
        assert waiting_seqs == {after_round[0].seq}
        assert any(u.seq > after_round[0].seq for u in after_round)  # then round 2 went on
        assert bot.last.view.phase == "game_over"
