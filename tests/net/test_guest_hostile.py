"""Issue 37: the guest's client against a fake hostile host (tests/support/hostile_host.py):
a host that never answers, one that sends a game before welcoming, one that sends what this
version cannot read, one that floods it with errors. The client says why, tries again or
stops, and never hangs."""

from __future__ import annotations

import asyncio

from support.hostile_host import CODE, HostileHost, error, lobby, update, welcome

from mexitrain.net.client import ERROR_BOUND, HELLO_TIMEOUT, LinkStatus, TableClient
from mexitrain.net.protocol import Error, Lobby, Update, Welcome

NAMES = ["Ann", "Bea", "Cal"]


def _client(host: HostileHost, **kw) -> TableClient:
    kw.setdefault("backoff", (0.01, 0.02))
    return TableClient(host.address, CODE, "Ann", data_dir=None, **kw)


async def _run(client: TableClient, until=lambda got, statuses: False, timeout: float = 20):
    """Run ``client`` until it returns, or until ``until(got, statuses)`` holds (then close it)."""
    got: list = []
    statuses: list[LinkStatus] = []

    def on_status(st: LinkStatus) -> None:
        statuses.append(st)
        if until(got, statuses):
            asyncio.get_running_loop().create_task(client.close())

    def on_message(msg) -> None:
        got.append(msg)
        if until(got, statuses):
            asyncio.get_running_loop().create_task(client.close())

    fatal = await asyncio.wait_for(client.run(on_message, on_status), timeout)
    return fatal, got, statuses


def test_the_hello_timeout_is_ten_seconds():
    assert HELLO_TIMEOUT == 10.0


async def test_a_host_that_never_answers_is_a_broken_connection_tried_again():
    """Item 5: "Connecting to the table…" for ever before; now the hello times out, and the
    client retries as for any broken connection, saying why (no_answer)."""
    async with HostileHost(then="silent") as host:
        client = _client(host, hello_timeout=0.2)
        fatal, got, statuses = await _run(
            client, until=lambda got, st: sum(s.state == "retrying" for s in st) >= 2
        )
    assert fatal is None and got == []
    retrying = [s for s in statuses if s.state == "retrying"]
    assert len(retrying) >= 2 and all(s.error == "no_answer" for s in retrying)
    assert host.connections >= 2  # it did try again
    assert statuses[-1].state == "closed"


async def test_a_game_before_the_welcome_is_not_taken():
    """Item 6: an update (or a lobby) before the welcome is dropped; after it, taken."""
    early = [update(NAMES), lobby(NAMES)]
    async with HostileHost([*early, welcome(0), lobby(NAMES), update(NAMES)]) as host:
        client = _client(host)
        _fatal, got, _st = await _run(client, until=lambda got, st: any(isinstance(m, Update) for m in got))
    assert [type(m) for m in got] == [Welcome, Lobby, Update]


async def test_a_host_that_sends_only_games_is_never_welcomed_and_times_out():
    async with HostileHost([update(NAMES)] * 5) as host:
        client = _client(host, hello_timeout=0.2)
        fatal, got, statuses = await _run(client, until=lambda got, st: any(s.state == "retrying" for s in st))
    assert got == [] and fatal is None
    assert next(s for s in statuses if s.state == "retrying").error == "no_answer"


async def test_a_message_it_cannot_read_ends_the_link_with_its_reason():
    """Item 5: "Disconnected." with no reason before (the fatal error never reached the app);
    now the app gets it, with the decoder's reason."""
    async with HostileHost([welcome(0), lobby(NAMES), {"type": "update", "seq": "x"}]) as host:
        client = _client(host)
        fatal, got, statuses = await _run(client)
    assert isinstance(fatal, Error) and fatal.fatal and fatal.code == "bad_server_message"
    assert got[-1] is fatal
    reason = fatal.values["reason"]
    assert "seq" in reason and "\\" not in reason, reason  # the field, in words (text.net)
    assert statuses[-1] == LinkStatus("closed", 0, None, "bad_server_message")


async def test_an_error_flood_ends_the_link():
    """Item 4: 1,000 errors at once froze the guest; now past the bound the client leaves,
    and the app was given at most the bound and the one line that says why."""
    flood = [welcome(0), update(NAMES)] + [error("internal", detail=f"flood {i}") for i in range(1000)]
    async with HostileHost(flood) as host:
        client = _client(host)
        fatal, got, statuses = await _run(client)
    assert isinstance(fatal, Error) and fatal.code == "error_flood" and fatal.fatal
    errors = [m for m in got if isinstance(m, Error)]
    assert len(errors) == ERROR_BOUND + 1 and errors[-1] is fatal
    assert statuses[-1].state == "closed" and statuses[-1].error == "error_flood"


async def test_errors_within_the_bound_keep_the_link():
    now = [0.0]
    some = [welcome(0), update(NAMES)] + [error("internal") for _ in range(ERROR_BOUND)]
    async with HostileHost(some) as host:
        client = _client(host, clock=lambda: now[0])
        fatal, got, _st = await _run(
            client, until=lambda got, st: sum(isinstance(m, Error) for m in got) == ERROR_BOUND
        )
    assert fatal is None


async def test_errors_spread_over_time_are_not_a_flood():
    """The bound counts errors in a window: the same number spread out is fine."""
    now = [0.0]
    count = ERROR_BOUND * 3

    async def script(hello, send):
        await send(welcome(0))
        for _ in range(count):
            await send(error("internal"))

    def on_message_clock(got, st):
        now[0] += 1.0  # a second between two messages: never more than 10 in 10 s
        return sum(isinstance(m, Error) for m in got) == count

    async with HostileHost(script=script) as host:
        client = _client(host, clock=lambda: now[0])
        fatal, got, _st = await _run(client, until=on_message_clock)
    assert fatal is None and sum(isinstance(m, Error) for m in got) == count
