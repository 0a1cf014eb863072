"""The network's sentences (mexitrain.text.net): every error and refusal code is worded, in
French too, with no English word and names as plain text."""

from __future__ import annotations

from support.french import in_french

from mexitrain.net.client import LinkStatus
from mexitrain.net.protocol import ERROR_CODES, PROTOCOL_VERSION, REFUSAL_CODES, Away
from mexitrain.rules.errors import IllegalAction
from mexitrain.text import net


def test_every_error_code_has_its_own_sentence():
    generic = net.error_text("no_such_code")
    texts = {net.error_text(code, {"seat": 1, "field": "seq", "limit": 5, "version": 2}, PROTOCOL_VERSION)
             for code in ERROR_CODES}
    assert len(texts) == len(ERROR_CODES) and generic not in texts
    for code in ERROR_CODES:
        in_french(lambda c: net.error_text(c, {"seat": 1, "limit": 5}), code)


def test_every_table_refusal_is_worded_and_rules_refusals_go_to_the_rules_wording():
    names = ("Ann", "\x1b[31mBo")
    texts = {net.refused_text(IllegalAction(code, turn=1), names, 0) for code in REFUSAL_CODES}
    assert len(texts) == len(REFUSAL_CODES)
    assert "\x1b" not in net.refused_text(IllegalAction("not_your_turn", turn=1), names, 0)
    assert net.refused_text(IllegalAction("boneyard_empty")) == "The boneyard is empty."
    for code in REFUSAL_CODES:
        in_french(lambda c: net.refused_text(IllegalAction(c, turn=0), ("Ann", "Bob"), 1), code)


def test_link_and_away():
    assert net.link_text(LinkStatus("retrying", 3, 4.2, "refused_connection")).startswith(
        "Connection lost; trying again in 4 seconds (attempt 3)."
    )
    assert net.away_text(Away(seat=1, name="Ann", seconds=62)) == "Waiting for Ann to come back (away 1:02)"
    for state in ("connecting", "connected", "retrying", "closed"):
        in_french(net.link_text, LinkStatus(state, 1, 1.0, None))
