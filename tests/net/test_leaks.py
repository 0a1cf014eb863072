"""THE LEAK TEST: every byte the server sends one seat, during whole games, holds no tile that
seat could not see at that moment: no other hand, no boneyard tile, no tile another seat drew
(docs/rules.md §5.2: drawn tiles stay hidden; only open_hands shows the hands)."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.leaks import tile_pairs
from support.net import served, table
from websockets.asyncio.client import connect

import mexitrain.net.game as game_module
from mexitrain.net.protocol import Hello, Intent, Seen, Update, Watch, decode_server, encode
from mexitrain.players import make_player
from mexitrain.rules import apply, new_game, view
from mexitrain.rules.actions import event_action
from mexitrain.rules.seeds import seal
from mexitrain.rules.state import evolve
from mexitrain.rules.tiles import tile
from mexitrain.rules.view import PublicRound


async def raw_seat(address: str, code: str, name: str, seed: int) -> list[str]:
    """A client written from docs/protocol.md alone: join, play random moves, keep every text."""
    player = make_player("random", seed)
    texts: list[str] = []
    acted = set()
    async with connect(f"ws://{address}/", max_size=2**20) as ws:
        await ws.send(encode(Hello(code=code, name=name)))
        async for text in ws:
            texts.append(text)
            msg = decode_server(text)
            if isinstance(msg, Update):
                if msg.view.phase == "game_over":
                    break
                if msg.view.seat in msg.waiting:  # a round's results: seen (the next waits)
                    await ws.send(encode(Seen(round=len(msg.view.results))))
                    continue
                if msg.view.my_turn and msg.seq not in acted:
                    acted.add(msg.seq)
                    await ws.send(encode(Intent(seq=msg.seq, action=player.choose(msg.view))))
    return texts


async def raw_watcher(address: str, code: str, ready: asyncio.Event) -> list[str]:
    """A watcher written from docs/protocol.md alone: Watch, then keep every text to the end."""
    texts: list[str] = []
    async with connect(f"ws://{address}/", max_size=2**20) as ws:
        await ws.send(encode(Watch(code=code)))
        ready.set()
        async for text in ws:
            texts.append(text)
            data = json.loads(text)  # not decoded: a leaky server's view is kept, to be judged
            if data.get("type") == "onlooker" and data["view"]["phase"] == "game_over":
                break
    return texts


def states_by_seq(final):
    """The snapshot after each number of actions, rebuilt from the finished game."""
    state = new_game(final.rules, players=final.players, seed=final.seed)
    states = [state]
    for r in final.results:
        for e in r.events:
            state = apply(state, event_action(e))
            states.append(state)
    for e in () if final.over else final.events:  # a finished game's events are its last round's
        state = apply(state, event_action(e))
        states.append(state)
    assert state == final
    return states


def leaks(text: str, states, seat: int) -> list[str]:
    """What ``text`` shows that ``seat`` could not see when it was sent."""
    data = json.loads(text)
    if data.get("type") != "update":
        return [f"pair {p} in a {data.get('type')}" for p in tile_pairs(data)]
    state = states[data["seq"]]
    v = dict(data["view"])
    found = []
    hidden = set(state.boneyard)
    if not state.rules.open_hands:
        for i, hand in enumerate(state.hands):
            if i != seat:
                hidden.update(hand)
    for r in v.pop("results"):
        extra = set(r) - set(PublicRound.model_fields)
        found += [f"results hold {k}" for k in extra]
    for e in v.pop("last_round_events"):
        if e["type"] == "draw" and e["seat"] != seat and e["tile"] is not None and not state.rules.open_hands:
            found.append(f"seat {e['seat']}'s draw {e['tile']} in the last round")
    rest = {k: val for k, val in data.items() if k != "view"}
    rest["view"] = v
    for a, b in tile_pairs(rest):
        if tile(a, b) in hidden:
            found.append(f"hidden tile {a}-{b} at seq {data['seq']}")
    return found


def watcher_leaks(text: str, states) -> list[str]:
    """What ``text``, sent to a watcher, shows that nobody at the table could see alike when
    it was sent: a tile of any hand or of the boneyard, a draw's tile, a seat's own view."""
    data = json.loads(text)
    kind = data.get("type")
    if kind == "update":
        return ["a seat's view sent to a watcher"]
    if kind != "onlooker":
        return [f"pair {p} in a {kind}" for p in tile_pairs(data)]
    state = states[data["seq"]]
    v = dict(data["view"])
    found = [f"the view holds {k}" for k in ("hand", "hands", "drawn", "legal", "boneyard", "seed") if k in v]
    hidden = set(state.boneyard) | {t for hand in state.hands for t in hand}
    if state.over:
        hidden = set(state.boneyard)  # the last round's leftovers are public once it is scored
    for r in v.pop("results"):
        extra = set(r) - set(PublicRound.model_fields)
        found += [f"results hold {k}" for k in extra]
    for key in ("events", "last_round_events"):
        for e in v[key]:
            if e["type"] == "draw" and e["tile"] is not None:
                found.append(f"seat {e['seat']}'s draw {e['tile']} in {key}")
    v.pop("last_round_events")  # a finished round's tiles belong to its own deal
    rest = {k: val for k, val in data.items() if k != "view"}
    rest["view"] = v
    for a, b in tile_pairs(rest):
        if tile(a, b) in hidden:
            found.append(f"hidden tile {a}-{b} at seq {data['seq']}")
    return found


async def _game(tmp_path, preset, seed, players=3, rounds=2, watch=False):
    setup = table(players, 2, preset=preset, rounds=rounds, seed=seed)
    async with served(setup, tmp_path) as server:
        address = f"127.0.0.1:{server.port}"
        ready = asyncio.Event()
        watching = asyncio.ensure_future(raw_watcher(address, server.code, ready)) if watch else None
        if watching is not None:
            await ready.wait()
        texts = await asyncio.wait_for(
            asyncio.gather(*(raw_seat(address, server.code, f"R{i}", seed + i) for i in range(2))), 60
        )
        if watching is not None:
            texts.append(await asyncio.wait_for(watching, 30))
        final = server.state
    return texts, final


@pytest.mark.parametrize("preset, seed", [("standard", 1), ("fast", 2), ("common", 3)])
async def test_no_update_shows_a_tile_the_seat_cannot_see(tmp_path, preset, seed):
    texts, final = await _game(tmp_path, preset, seed)
    assert final.over and not final.rules.open_hands
    states = states_by_seq(final)
    for seat, sent in enumerate(texts):
        assert sum('"type":"update"' in t for t in sent) > 20
        problems = [p for t in sent for p in leaks(t, states, seat)]
        assert problems == []


@pytest.mark.parametrize("preset, seed", [("standard", 21), ("fast", 22), ("common", 23)])
async def test_no_message_to_a_watcher_shows_a_hidden_tile(tmp_path, preset, seed):
    """Issue #35: every byte a watcher receives over a whole game holds no tile of a hand or
    of the boneyard that was not public at that moment, and no draw's tile."""
    texts, final = await _game(tmp_path, preset, seed, watch=True)
    assert final.over
    states = states_by_seq(final)
    sent = texts[-1]
    assert sum('"type":"onlooker"' in t for t in sent) > 20
    assert '"type":"update"' not in "".join(sent)
    assert [p for t in sent for p in watcher_leaks(t, states)] == []
    for seat, seat_texts in enumerate(texts[:-1]):  # the seats' bytes are unchanged by a watcher
        assert [p for t in seat_texts for p in leaks(t, states, seat)] == []


async def test_the_watcher_leak_test_catches_a_seat_view_and_a_draw(tmp_path, monkeypatch):
    """A server sending watchers a view with a draw's tile, or one seat's hand, is caught."""
    from mexitrain.rules import onlooker

    real = game_module.onlooker

    def leaky(state, chosen=False):
        o = real(state, chosen)
        return o.model_copy(update={"events": state.events})  # every draw with its tile

    monkeypatch.setattr(game_module, "onlooker", leaky)
    texts, final = await _game(tmp_path, "fast", 24, rounds=1, watch=True)
    states = states_by_seq(final)
    assert any("draw" in p for t in texts[-1] for p in watcher_leaks(t, states))
    seat_view = json.dumps({"type": "update", "seq": 0, "view": {}})
    assert watcher_leaks(seat_view, states) == ["a seat's view sent to a watcher"]
    state = states[0]
    full = json.loads(onlooker(state).model_dump_json())
    full["trains"][0]["lines"][0] = [list(state.hands[1][0])]
    assert watcher_leaks(json.dumps({"type": "onlooker", "seq": 0, "view": full}), states)


async def test_the_leak_test_catches_a_server_that_shows_other_hands(tmp_path, monkeypatch):
    """A server sending the view of an open-hands game (every hand) is caught at once."""
    def leaky(state, seat, chosen=False):
        return view(evolve(state, {"rules": state.rules.model_copy(update={"open_hands": True})}), seat, chosen)

    monkeypatch.setattr(game_module, "view", leaky)
    texts, final = await _game(tmp_path, "fast", 5, rounds=1)
    states = states_by_seq(final)
    assert any("hidden tile" in p for t in texts[0] for p in leaks(t, states, 0))


def test_the_leak_test_catches_the_full_state():
    """The full snapshot as a view (hands, boneyard) is caught; so are others' draws."""
    state = new_game(table(3, 0).rules, players=3, seed=4)
    while state.round == 1 and not any(e.type == "draw" and e.seat == 1 for e in state.events):
        state = apply(state, make_player("random", 1).choose(view(state, state.turn)))
    states = [state]
    honest = json.dumps({"type": "update", "seq": 0, "view": json.loads(view(state, 0).model_dump_json())})
    assert leaks(honest, states, 0) == []
    full = json.loads(state.model_dump_json())
    full["results"], full["last_round_events"] = [], []
    assert leaks(json.dumps({"type": "update", "seq": 0, "view": full}), states, 0)
    drew = json.loads(view(state, 0).model_dump_json())
    seen_by_1 = json.loads(view(state, 1).model_dump_json())
    drew["events"] = seen_by_1["events"]  # seat 1's draws with their tiles
    assert leaks(json.dumps({"type": "update", "seq": 0, "view": drew}), states, 0)


async def test_no_message_tells_a_sealed_seed_before_the_end(tmp_path):
    """Issue #32: a fresh game's seed (sealed) is in no message while the game runs, in any
    form; every update carries its seal from the first deal, and the last one reveals it."""
    seed = 2**128 + 0x5EED
    texts, final = await _game(tmp_path, "fast", seed, players=2, rounds=1)
    assert final.over
    forms = (str(seed), hex(seed)[2:], str(seed)[-12:], hex(seed)[-12:])
    for sent in texts:
        updates = [json.loads(t) for t in sent if '"type":"update"' in t]
        assert len(updates) > 5
        for i, t in enumerate(sent):
            data = json.loads(t)
            if data.get("type") == "update" and data["view"]["phase"] == "game_over":
                assert data["view"]["revealed_seed"] == seed
                continue
            if data.get("type") == "record":  # the game's record: only with the update that ends it
                after = json.loads(sent[i + 1])
                assert after["type"] == "update" and after["view"]["phase"] == "game_over"
                assert json.loads(data["record"])["seed"] == seed
                continue
            assert not any(f in t for f in forms), t[:200]
        assert {u["view"]["seal"] for u in updates} == {seal(seed)}
