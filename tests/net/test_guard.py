"""net/guard.py on its own: the address a limit counts under, buckets and what they remember,
the refusals said once per window and bounded in addresses, the connections held; and the
host's line for each kind of refusal."""

from __future__ import annotations

import pytest

from mexitrain.commands.host import _event_line
from mexitrain.net.guard import Admission, Bucket, Buckets, Refusals, address_key


@pytest.mark.parametrize(
    "host, key",
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),  # the same /64: one address
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::/64"),
        ("not an address", "not an address"),
    ],
)
def test_an_address_counts_as_itself_or_its_slash_64(host, key):
    assert address_key(host) == key


def test_a_bucket_gives_its_burst_then_its_rate():
    b = Bucket(3, 2.0, stamp=100.0)
    assert [b.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(100.5) and not b.take(100.5)  # half a second: one more
    b.give()
    assert b.take(100.5)
    assert not b.full(100.5) and b.full(110.0)


def test_buckets_remember_a_bounded_number_of_keys():
    """Past ``size`` keys the full ones are forgotten first (as good as new), then the
    oldest: a stranger with many addresses cannot make it grow."""
    buckets = Buckets(burst=2, rate=0.0001, size=3)
    for key in ("a", "b", "c"):
        assert buckets.take(key)
    buckets.get("a")  # used lately
    assert buckets.take("d") and len(buckets) == 3  # "b", the oldest, went
    assert buckets.take("a") and not buckets.take("a")  # "a" kept what it spent
    for i in range(1000):
        buckets.take(f"x{i}")
    assert len(buckets) == 3


def test_refusals_name_a_bounded_number_of_addresses_a_window():
    said, timers = [], []
    r = Refusals(10.0, lambda *a: said.append(a[:3]), lambda delay, fn: timers.append(fn) or fn, keys=2)
    for who in ("1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "1.1.1.1"):
        r.note("attempts", who)
    assert said == [("attempts", "1.1.1.1", 1), ("attempts", "2.2.2.2", 1), ("attempts", None, 1)]
    assert len(timers) == 1
    timers.pop()()
    assert said[3:] == [("attempts", "1.1.1.1", 1), ("attempts", None, 1)]
    timers.pop()()  # a quiet window: nothing said, all forgotten
    assert len(said) == 5 and not timers
    r.note("attempts", "3.3.3.3")
    assert said[5:] == [("attempts", "3.3.3.3", 1)]


def test_admission_caps_and_counts_each_connection_out_once():
    adm = Admission(total=3, per_address=2)
    a, b, c, d = object(), object(), object(), object()
    assert adm.open(a, "x") is None and adm.open(b, "x") is None
    assert adm.open(c, "x") == "connections"
    assert adm.open(c, "y") is None
    assert adm.open(d, "z") == "full"
    adm.close(a, "x")
    adm.close(a, "x")  # once only
    adm.close(d, "z")  # never counted in: nothing
    assert adm.count == 2 and adm.held == {"x": 1, "y": 1}
    assert adm.open(d, "z") is None


@pytest.mark.parametrize(
    "values, words",
    [
        (dict(why="attempts", who="192.0.2.7", count=1), ["192.0.2.7", "1 connection refused", "too often"]),
        (dict(why="seat", who="192.0.2.7", count=3, seat=1, name="Ann"), ["3 connections", "Ann's seat (2)"]),
        (dict(why="seat", who="192.0.2.7", count=1, seat=None, name=None), ["host's token"]),
        (dict(why="connections", who="192.0.2.7", count=2, limit=32), ["holds 32"]),
        (dict(why="full", who=None, count=5, limit=512), ["5 connections refused", "table holds 512"]),
        (dict(why="wrong_code", who="192.0.2.7", count=4), ["4 attempts with a wrong table code"]),
        (dict(why="bad_token", who=None, count=1), ["other addresses", "token no seat has"]),
        (dict(why="flood", who="192.0.2.7", count=1), ["cut off"]),
        (dict(why="newer\x1b[31m", who="192.0.2.7", count=1), ["connection refused"]),
    ],
)
def test_each_refusal_is_one_clear_line_for_the_host(values, words):
    line = _event_line("refused", **values)
    assert line and "\n" not in line and "\x1b" not in line
    for w in words:
        assert w in line, line
