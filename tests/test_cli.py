"""The command line: deal, explain, rules, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from baccara import rules
from baccara.cards import hand_total, parse_cards
from baccara.cli import main
from baccara.coup import Coup
from baccara.shoe import ShoeSettings
from baccara.sim.shoes import shoe_coups


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_json_follows_the_tableau_and_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["deal", "--decks", "8", "--seed", "7", "--hands", "300", "--json"], capsys)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 300
    assert {line["shoe"] for line in lines} == {0, 1, 2, 3}  # a new shoe when one ends
    for line in lines:
        player, banker = parse_cards(line["player"]), parse_cards(line["banker"])
        coup = Coup(player=player, banker=banker)  # raises if the tableau was broken
        assert line["player_total"] == hand_total(player) == coup.player_total
        assert line["banker_total"] == coup.banker_total
        assert line["winner"] == coup.winner.word
        assert line["natural"] is rules.is_natural(hand_total(player[:2])) or rules.is_natural(
            hand_total(banker[:2])
        )
        assert line["explanation"][-1] == coup.announcement()
    code, again, _ = run(
        ["deal", "--decks", "8", "--seed", "7", "--hands", "300", "--json"], capsys
    )
    assert again == out


def test_deal_text_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["deal", "--seed", "3", "--hands", "3", "--explain"], capsys)
    assert code == 0
    assert "Shoe 1: 8 decks, Punto Banco" in out
    assert "to the Banker" in out


def test_deal_replays_shoe_k_of_a_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    # `deal --seed S --shoe K` deals the whole of the simulator's shoe K, burn and cut card
    code, out, _ = run(["deal", "--decks", "6", "--seed", "11", "--shoe", "42", "--json"], capsys)
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    simulated = shoe_coups(11, 42, 1, ShoeSettings(decks=6))[0]
    assert [line["notation"] for line in lines] == [str(coup) for coup in simulated]
    assert {line["shoe"] for line in lines} == {42}
    assert [line["coup"] for line in lines] == list(range(1, len(simulated) + 1))
    code, out, _ = run(["deal", "--seed", "11", "--shoe", "3", "--hands", "2"], capsys)
    assert "Shoe 4: 8 decks, Punto Banco (replay: --seed 11 --shoe 3)" in out
    code, _, err = run(["deal", "--shoe", "3"], capsys)
    assert code == 2 and "--shoe needs --seed" in err


def test_explain_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["explain", "P:2h,3d,8c B:Ks,3c"], capsys)
    assert code == 0
    assert "Banker stands on 3-7 against an 8." in out
    _, out, _ = run(["explain", "P:9h,Kd", "B:5s,Qc", "--json"], capsys)
    assert json.loads(out)["winner"] == "player"


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--variant", "super6", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "super6"
    assert data["player_draws"] == [0, 1, 2, 3, 4, 5]
    assert data["banker_draws"]["3"]["8"] is False and data["banker_draws"]["3"]["9"] is True
    assert data["pays"]["banker"] == "1:1, but a win with 6 pays 1:2"
    _, out, _ = run(["rules"], capsys)
    assert "Banker: D draws" in out and "1:1 less 5% commission" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "--variant", "nope"], "unknown variant 'nope'"),
        (["deal", "--decks", "0"], "'--decks': 0 is not in the range"),
        (["deal", "--decks", "13"], "'--decks'"),
        (["deal", "--hands", "0"], "'--hands'"),
        # found: streamed (for ever) instead of refusing
        (["deal", "--hands", "99999999999999999999999"], "1<=x<=1000000"),
        (["explain", "P:9h,Kd B:5s,Qc,3d"], "impossible coup"),
        (["explain", "P:9h,Kx B:5s,Qc"], "unknown suit 'x'"),
        (["explain", "hello"], "bad coup 'hello'"),
        (["rules", "--variant", "x"], "unknown variant 'x'"),
        (["nosuchcommand"], "No such command"),
        (["serve", "--welcome", "-5"], "it must not be below 0.00"),
        (["serve", "--welcome", "ten"], "bad amount 'ten'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("baccara: error: ")
    assert message in err
    assert "Traceback" not in err


def test_console_script_never_prints_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "baccara", "deal", "--decks", "0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("baccara: error:") and "Traceback" not in done.stderr


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--version"], capsys)[1].startswith("baccara, version")
    for command in ("deal", "explain", "rules"):
        code, out, _ = run([command, "--help"], capsys)
        assert code == 0 and "Usage: baccara" in out


@pytest.mark.parametrize(
    ("command", "games"),
    [(["rules"], "every"), (["deal"], "house"), (["odds"], "house"), (["play"], "every")],
)
def test_variant_help_lists_the_variants_the_command_takes(
    command: list[str], games: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found: the help pointed to a list in 'rules --help' that was not there."""
    from baccara.variants import VARIANTS

    code, out, _ = run([*command, "--help"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    for variant in VARIANTS.values():
        listed = variant.name in flat.split("Game variant:")[1].split("(")[0]
        assert listed == (games == "every" or variant.house_banked), variant.name


@pytest.mark.parametrize(
    "args",
    [["--help"], ["explain", "P:9h,Kd B:5s,Qc"], ["rules"], ["roads", "BBPT"], ["solve", "--help"]],
)
def test_commands_that_need_no_engine_load_none(args: list[str]) -> None:
    """Found: 'baccara --help' and 'explain' took 0.8-1.1 s, importing SciPy, SQLAlchemy,
    numba and the store for commands that use none of them (`python -m bench cli`
    times them)."""
    script = (
        "import sys, contextlib, io\n"
        "from baccara.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({args!r})\n"
        "heavy = ('numpy', 'scipy', 'sqlalchemy', 'numba', 'fastapi', 'distributed')\n"
        "print(code, sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split(maxsplit=1) == ["0", "[]\n"], done.stdout + done.stderr
