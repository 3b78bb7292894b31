"""Staff accounts (`baccara.db.staff`) on SQLite and PostgreSQL: made by ``baccara admin
create`` (the password from stdin or asked twice on a terminal), listed, written to the
audit log; a staff account logs in as a player does but holds no wallet, and the money
gate refuses it a bet or a buy-in inside the transaction."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from baccara.cli import main
from baccara.db.audit import entries, verify
from baccara.db.auth import Auth, AuthError
from baccara.db.betting import BetError
from baccara.db.chips import Chips
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.protections import SuspendError, suspend
from baccara.db.staff import Role, list_staff

PASSWORD = "long password"


@pytest.fixture
def auth(database_url: str) -> Iterator[Auth]:
    ledger = Ledger.connect(database_url)
    yield Auth(ledger, now=lambda: 1_795_651_200.0)
    assert ledger.check_invariants() == []
    ledger.database.dispose()


def _admin(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["admin", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_create_reads_the_password_from_stdin_and_is_audited(
    database_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _admin(
        ["create", "olga", "--role", "operator", "--db", database_url], capsys, monkeypatch,
        f"{PASSWORD}\n",
    )  # fmt: skip
    assert (code, out, err) == (0, "olga: a staff account, role operator\n", "")
    code, out, _ = _admin(
        ["create", "Ivan", "--role", "AUDITOR", "--db", database_url, "--json"], capsys,
        monkeypatch, PASSWORD,
    )  # fmt: skip
    assert code == 0 and json.loads(out)["role"] == "auditor"
    code, out, _ = _admin(["list", "--db", database_url, "--json"], capsys, monkeypatch, "")
    assert code == 0
    assert [(s["name"], s["role"]) for s in json.loads(out)] == [
        ("Ivan", "auditor"),
        ("olga", "operator"),
    ]
    ledger = Ledger.connect(database_url)
    try:
        log = entries(ledger.database)
        assert [(e.actor, e.role, e.action, e.target, e.after) for e in log] == [
            ("cli", None, "staff.create", "olga", {"name": "olga", "role": "operator"}),
            ("cli", None, "staff.create", "Ivan", {"name": "Ivan", "role": "auditor"}),
        ]
        assert verify(ledger.database).count == 2
        token = Auth(ledger).login("olga", PASSWORD)  # the password read is the one set
        assert Auth(ledger).staff_for_token(token) is not None
        names = ledger.account_names(range(1, 100)).values()
        assert wallet_account("olga") not in names  # no wallet was made for a staff account
    finally:
        ledger.database.dispose()


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--role", "croupier"], PASSWORD, "bad role 'croupier': operator, compliance or auditor"),
        (["--role", "operator"], "short\n", "bad password: 8 to 128 characters"),
        (["--role", "operator"], "", "no password on stdin: give it as one line"),
    ],
)
def test_create_refuses_bad_input_in_one_line(
    args: list[str],
    stdin: str,
    message: str,
    tmp_path: object,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = f"sqlite:///{tmp_path}/staff.db"
    code, out, err = _admin(["create", "olga", *args, "--db", db], capsys, monkeypatch, stdin)
    assert (code, out, err) == (2, "", f"baccara: error: {message}\n")


def test_create_refuses_a_taken_name_and_a_bad_one(
    database_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = Ledger.connect(database_url)
    Auth(ledger).register("ann", PASSWORD)
    ledger.database.dispose()
    for name, message in [
        ("ANN", "the name 'ANN' is taken"),  # a player's name, whatever the case
        ("a b", "bad name: 3 to 24 characters, letters, digits, '_' or '-' only"),
    ]:
        code, out, err = _admin(
            ["create", name, "--role", "operator", "--db", database_url], capsys, monkeypatch,
            PASSWORD,
        )  # fmt: skip
        assert (code, out, err) == (2, "", f"baccara: error: {message}\n")
    ledger = Ledger.connect(database_url)
    assert entries(ledger.database) == []  # nothing refused is audited
    ledger.database.dispose()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_password_is_asked_twice(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/staff.db"
    answers = iter([PASSWORD, PASSWORD + "!", PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    monkeypatch.setattr("sys.stdin", _Terminal(""))
    assert main(["admin", "create", "olga", "--role", "compliance", "--db", db]) == 2
    assert capsys.readouterr().err == "baccara: error: the two passwords differ\n"
    assert main(["admin", "create", "olga", "--role", "compliance", "--db", db]) == 0
    assert capsys.readouterr().out == "olga: a staff account, role compliance\n"


def test_list_without_staff_says_how_to_make_one(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["admin", "list", "--db", f"sqlite:///{tmp_path}/staff.db"]) == 0
    assert "baccara admin create NAME --role ROLE" in capsys.readouterr().out


def test_a_staff_session_is_never_a_players(auth: Auth) -> None:
    auth.create_staff("olga", PASSWORD, Role.COMPLIANCE, actor="cli")
    player = auth.register("ann", PASSWORD)
    staff_token, player_token = auth.login("olga", PASSWORD), auth.login("ann", PASSWORD)
    assert auth.user_for_token(staff_token) is None
    found = auth.staff_for_token(staff_token)
    assert found is not None and (found.name, found.role) == ("olga", Role.COMPLIANCE)
    assert auth.staff_for_token(player_token) is None
    player_user = auth.user_for_token(player_token)
    assert player_user is not None and (player_user.id, player_user.name) == (player.id, "ann")
    with pytest.raises(AuthError, match="wrong name or password"):
        auth.login("olga", "wrong password")
    assert [s.name for s in list_staff(auth.ledger.database)] == ["olga"]


def test_the_money_gate_refuses_a_staff_account_inside_the_transaction(auth: Auth) -> None:
    """Even with a wallet made for a staff name behind the routes' back, and money in it,
    the gate refuses a bet and a buy-in in the transaction that would move it."""
    auth.create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")
    ledger = auth.ledger
    wallet = ledger.create_account(wallet_account("olga"))
    ledger.deposit(wallet, 50_000, ref="slipped in")
    with pytest.raises(BetError) as refused:
        Chips(ledger, "c1").buy_in("olga", 10_000, now=1_795_651_200.0)
    assert refused.value.code == "staff_account"
    rnd = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    with pytest.raises(BetError) as refused:
        ledger.place_bet(
            account=wallet, round_id=rnd, bet_id="b1", kind="player", amount=1_000,
            now=1_795_651_200.0,
        )  # fmt: skip
    assert refused.value.code == "staff_account"
    assert ledger.balance(wallet) == 50_000  # nothing moved


def test_the_house_suspends_no_staff_account_and_makes_it_no_wallet(auth: Auth) -> None:
    """A suspension is a player's (``baccara account suspend`` refused a staff name with
    nothing changed: no wallet, no audit entry, the session goes on)."""
    auth.create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")
    token = auth.login("olga", PASSWORD)
    with pytest.raises(SuspendError, match="no player named 'olga'"):
        suspend(auth.ledger.database, "olga", 4e9, now=1e9)
    assert auth.staff_for_token(token) is not None
    assert [e.action for e in entries(auth.ledger.database)] == ["staff.create"]
    names = auth.ledger.account_names(range(1, 100)).values()
    assert wallet_account("olga") not in names
