"""``mexitrain join HOST:PORT CODE [--name NAME]`` (mexitrain/commands/join.py): a bad address
or code is one line and exit status 2; a good one opens the table's screens (run_table_app)."""

from __future__ import annotations

import pytest

from mexitrain.cli import main


@pytest.fixture
def joined(monkeypatch):
    """run_table_app replaced by a recorder: what the command would have opened."""
    calls = []

    def fake(address, code, name, **kwargs):
        calls.append((address, code, name, kwargs))
        return 0

    import mexitrain.ui.network as remote

    monkeypatch.setattr(remote, "run_table_app", fake)
    return calls


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["join", "192.168.1.5", "KXMPTR"], "not a table's address"),
        (["join", "host:0", "KXMPTR"], "not a table's address"),
        (["join", "host:65536", "KXMPTR"], "not a table's address"),
        (["join", "a b:8765", "KXMPTR"], "not a table's address"),
        (["join", "\x1b[31m:1", "KXMPTR"], "\\x1b"),
        (["join", "host:8765", "KXMPT"], "not a table code"),
        (["join", "host:8765", "KXMPT0"], "not a table code"),
        (["join", "host:8765", "KXMPTR", "--name", "A\x1bB"], "U+001B"),
        (["join", "host:8765", "KXMPTR", "--name", "x" * 21], "longer than 20"),
        (["join", "host:8765"], "say the table's code"),
        (["join"], "required"),
        (["join", "wss://example.org/", "KXMPTR"], "not a table's address"),
        (["join", "http://example.org/t/KXMPT"], "not a table code"),
        (["join", "http://example.org/x/KXMPTR"], "not a table's address"),
    ],
)
def test_a_bad_address_code_or_name_is_one_line_and_exit_2(argv, needle, capsys, joined):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mexitrain: error: ")
    assert needle in err
    assert "\x1b" not in err
    assert joined == []


def test_a_good_address_opens_the_table_with_the_code_normalised(capsys, joined, tmp_path):
    assert main(["join", "192.168.1.5:8765", "kxm-ptr", "--name", "Ann", "--data-dir", str(tmp_path)]) == 0
    [(address, code, name, kwargs)] = joined
    assert (address, code, name) == ("192.168.1.5:8765", "KXMPTR", "Ann")
    assert kwargs["data_dir"] == str(tmp_path) and kwargs["lang"] == "en"


def test_without_a_name_the_user_name(capsys, joined, monkeypatch):
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "bea")
    assert main(["join", "[::1]:8765", "KXMPTR"]) == 0
    assert joined[0][2] == "Bea"


def test_french(capsys, joined):
    assert main(["--lang", "fr", "join", "nowhere", "KXMPTR"]) == 2
    assert "n'est pas l'adresse d'une table" in capsys.readouterr().err


def test_watch_opens_the_table_to_watch_it_without_a_name(capsys, joined, monkeypatch):
    """Issue #35: ``--watch`` watches the table (no seat, no token): no name is needed."""
    import mexitrain.ui.screens.join as join_screen

    monkeypatch.setattr(join_screen, "default_name", lambda: "")
    assert main(["join", "192.168.1.5:8765", "KXMPTR", "--watch"]) == 0
    [(address, code, name, kwargs)] = joined
    assert (address, code, name) == ("192.168.1.5:8765", "KXMPTR", "") and kwargs["watch"] is True
    assert main(["join", "192.168.1.5:8765", "KXMPTR", "--name", "Ann"]) == 0
    assert joined[1][3]["watch"] is False


@pytest.mark.parametrize(
    ("link", "address"),
    [
        ("http://192.168.1.5:8000/t/kxmptr", "192.168.1.5:8000"),
        ("http://192.168.1.5:8000/t/KXMPTR/", "192.168.1.5:8000"),
        ("http://example.org/t/KXM-PTR?fontsize=20", "example.org:80"),
        ("http://[::1]:8000/t/KXMPTR", "[::1]:8000"),
        ("https://dominoes.example.org/t/KXMPTR", "wss://dominoes.example.org:443/"),
        ("https://dominoes.example.org:8443/t/KXMPTR", "wss://dominoes.example.org:8443/"),
    ],
)
def test_a_tables_link_is_its_address_and_code(link, address, capsys, joined):
    """The link a browser opens (mexitrain serve's table page) joins the same table here."""
    assert main(["join", link, "--name", "Ann"]) == 0
    [(got, code, name, _)] = joined
    assert (got, code, name) == (address, "KXMPTR", "Ann")
