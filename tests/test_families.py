"""Games as families: each variant names its game, drawing rules and money model, and
every command, engine and front end plays it right or refuses it in one line."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

from baccara.bets import BetKind, bets_for, payout
from baccara.cli import cli, main
from baccara.cli.serve import check_tables
from baccara.coup import Coup
from baccara.exact.odds import batch_odds, full_shoe, odds
from baccara.exact.removal import effects_of_removal
from baccara.sim.simulation import Job
from baccara.skill.banque import BanqueTable
from baccara.skill.chemin import CheminTable
from baccara.table.engine import Table
from baccara.variants import (
    PUNTO_BANCO,
    VARIANTS,
    Banking,
    Drawing,
    Family,
    FamilyError,
    find_variant,
    require_family,
    variants_of,
)

HOUSE_BANKED = [v.name for v in variants_of([Family.PUNTO_BANCO])]
PLAYERS_GAMES = [v.name for v in variants_of([Family.CHEMIN_DE_FER, Family.BANQUE])]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- the registry ------------------------------------------------------------------------


def test_every_variant_names_its_family_drawing_rules_and_money_model() -> None:
    assert HOUSE_BANKED == ["punto-banco", "tie-9", "commission-4", "super6", "ez", "mini"]
    assert PLAYERS_GAMES == ["chemin-de-fer", "banque"]
    for name in HOUSE_BANKED:
        v = VARIANTS[name]
        assert (v.drawing, v.banking, v.house_banked) == (Drawing.PUNTO_BANCO, Banking.HOUSE, True)
    chemin, banque = find_variant("chemmy"), find_variant("a-deux-tableaux")
    assert (chemin.family, chemin.drawing) == (Family.CHEMIN_DE_FER, Drawing.HOUSE_TABLEAU)
    assert (banque.family, banque.drawing) == (Family.BANQUE, Drawing.BANKER_FREE)
    assert chemin.banking is banque.banking is Banking.PLAYERS
    assert chemin.commission == Fraction(1, 20) and banque.commission == 0
    assert "5% of the banker's wins" in chemin.money_model
    assert "no commission" in banque.money_model


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("chemmy", "chemin-de-fer"),
        ("Chemin", "chemin-de-fer"),
        ("chemin-de-fer-baccara", "chemin-de-fer"),
        ("baccarat-banque", "banque"),
        ("Baccara Banque", "banque"),
        ("a-deux-tableaux", "banque"),
    ],
)
def test_the_players_games_aliases_still_work(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_require_family_names_the_game_and_what_is_covered() -> None:
    assert require_family(PUNTO_BANCO, Family.PUNTO_BANCO, user="x") is PUNTO_BANCO
    with pytest.raises(FamilyError) as caught:
        require_family(find_variant("banque"), [Family.PUNTO_BANCO], user="the exact engine")
    assert str(caught.value) == (
        "banque is a players' game (Baccarat Banque); the exact engine covers the "
        "house-banked games: punto-banco, tie-9, commission-4, super6, ez, mini"
    )
    assert isinstance(caught.value, ValueError)


# -- the Python API refuses the other families ---------------------------------------------


@pytest.mark.parametrize("name", PLAYERS_GAMES)
def test_house_banked_engines_refuse_a_players_game(name: str) -> None:
    variant = find_variant(name)
    label = re.escape(f"{name} is a players' game ({variant.family.label})")
    with pytest.raises(FamilyError, match=label + ".*the Punto Banco table covers"):
        Table(variant=variant)
    with pytest.raises(FamilyError, match=label + ".*the exact engine covers"):
        odds(full_shoe(variant.decks), variant)
    with pytest.raises(FamilyError, match=label):
        batch_odds(np.array([full_shoe(6)]), variant)
    with pytest.raises(FamilyError, match=label):
        effects_of_removal(6, variant)
    with pytest.raises(FamilyError, match=label + ".*the simulator covers"):
        Job(shoes=1, variant=variant)
    with pytest.raises(FamilyError, match=label + ".*the pay table covers"):
        bets_for(variant)
    with pytest.raises(FamilyError, match=label):
        payout(BetKind.BANKER, Coup.parse("P:2h,3d,4c B:5s,Qc,9d"), variant)


@pytest.mark.parametrize("name", HOUSE_BANKED)
def test_the_players_tables_refuse_a_house_banked_game(name: str) -> None:
    variant = find_variant(name)
    names, bankrolls = ("a", "b"), (10_000, 10_000)
    with pytest.raises(FamilyError, match=r"is a house-banked game \(Punto Banco\); the Chemin"):
        CheminTable(names=names, bankrolls=bankrolls, variant=variant, seed=1)
    with pytest.raises(FamilyError, match=r"the Banque table covers Baccarat Banque: banque$"):
        BanqueTable(names=names, bankrolls=bankrolls, variant=variant, seed=1)
    with pytest.raises(FamilyError):
        BanqueTable(names=names, bankrolls=bankrolls, variant=find_variant("chemmy"), seed=1)


# -- every command: the right thing or one line and exit 2 ---------------------------------

_EXTRA = {
    "simulate": ["--shoes", "2", "--seed", "1"],
    "deal": ["--hands", "2", "--seed", "1"],
    "play": ["--seats", "0", "--bots", "2", "--seed", "1"],
}
_VARIANT_COMMANDS = sorted(
    name
    for name, command in cli.commands.items()
    if any("--variant" in p.opts for p in command.params)
)
# What only the Punto Banco family prints: its pay table, its edges, its Player/Banker bets.
_PUNTO_BANCO_FIGURES = re.compile(
    r"Pay table|House edge|8:1|0\.95|1\.0[0-9]%|1\.2[0-9]%|14\.[0-9]+%|Player wins|\"pays\""
)


def test_the_commands_with_a_variant_are_known() -> None:
    assert _VARIANT_COMMANDS == ["deal", "eor", "odds", "play", "rules", "simulate"]


_FORMS = [
    (command, as_json)
    for command in _VARIANT_COMMANDS
    for as_json in (False, True)
    if not as_json or any("--json" in p.opts for p in cli.commands[command].params)
]


@pytest.mark.parametrize("name", ["chemin-de-fer", "chemmy", "banque", "baccarat-banque"])
@pytest.mark.parametrize(("command", "as_json"), _FORMS)
def test_no_command_prints_punto_banco_figures_under_a_players_game(
    command: str, name: str, as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [command, "--variant", name, *_EXTRA.get(command, []), *(["--json"] * as_json)]
    code, out, err = run(args, capsys)
    variant = find_variant(name)
    if code == 2:
        assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
        assert err.startswith(f"baccara: error: {variant.name} is a players' game ")
        assert f"`baccara {command}` covers the house-banked games: punto-banco" in err
        assert f"use `baccara solve {variant.name}`" in err
        assert command in ("odds", "eor", "simulate", "deal")
        return
    assert code == 0, err
    assert command in ("rules", "play")
    assert not _PUNTO_BANCO_FIGURES.search(out), out


def test_the_refusal_reads_as_the_issue_asks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "--variant", "chemin-de-fer"], capsys)
    assert code == 2 and out == ""
    assert err == (
        "baccara: error: chemin-de-fer is a players' game (Chemin de Fer); `baccara odds` "
        "covers the house-banked games: punto-banco, tie-9, commission-4, super6, ez, mini; "
        "for Chemin de Fer use `baccara solve chemin-de-fer` (its equilibrium) or "
        "`baccara play --variant chemin-de-fer` (bots alone with --seats 0)\n"
    )


@pytest.mark.parametrize("name", HOUSE_BANKED)
def test_the_house_banked_games_still_run_everywhere(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("odds", "eor", "rules"):
        code, out, err = run([command, "--variant", name, "--json"], capsys)
        assert code == 0, err
        assert json.loads(out)["variant"] == name


def test_rules_prints_the_chemin_de_fer_house_tableau_and_money(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["rules", "--variant", "chemmy", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["family"] == "chemin-de-fer" and data["house_tableau"] == "french"
    assert data["punter"]["5"] == "free" and data["punter"]["4"] == "draw"
    free = [
        (t, c) for t, row in data["banker"].items() for c, cell in row.items() if cell == "free"
    ]
    assert free == [("3", "9"), ("4", "1"), ("5", "4"), ("6", "none")]
    assert data["commission"] == "1/20" and "pays" not in data
    _, out, _ = run(["rules", "--variant", "chemmy", "--house", "scarne", "--json"], capsys)
    scarne = json.loads(out)["banker"]
    assert [(t, c) for t, row in scarne.items() for c, x in row.items() if x == "free"] == [
        ("3", "9"),
        ("5", "4"),
    ]
    _, out, _ = run(["rules", "--variant", "chemin-de-fer"], capsys)
    assert "Banker (french house tableau): D draws, . stands, O free" in out
    assert "the house takes 5% of the banker's wins" in out


def test_rules_prints_banque_with_a_free_banker(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "--variant", "banque", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["drawing"] == "banker-free" and data["banking"] == "players"
    assert {cell for row in data["banker"].values() for cell in row.values()} == {"free"}
    _, out, _ = run(["rules", "--variant", "banque"], capsys)
    assert "Banker: free in every cell" in out and "no commission" in out


def test_rules_of_a_house_banked_game_says_its_money_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(["rules", "--variant", "ez", "--json"], capsys)
    data = json.loads(out)
    assert data["family"] == "punto-banco" and data["banking"] == "house" and "pays" in data


@pytest.mark.parametrize(
    "spec",
    ["chemin-de-fer", "t9=chemmy", "c=chemin-de-fer-baccara", "banque", "b2=a-deux-tableaux"],
)
def test_serve_accepts_the_players_games_the_page_plays_them(spec: str) -> None:
    check_tables(("punto-banco", spec))  # no exit: the web page plays every game


@pytest.mark.parametrize("spec", ["b=banque:squeeze", "c=chemmy:squeeze", "x=pai-gow", "t=ez:peek"])
def test_serve_refuses_a_table_it_cannot_open_at_start_up(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["serve", "--tables", f"punto-banco,{spec}", "--port", "0"], capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert f"bad table {spec!r}" in err


def test_play_dispatches_the_players_games_by_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "--variant", "chemmy", "--seats", "0", "--bots", "2"], capsys)
    assert code == 0 and "Chemin de Fer: 2 seats, 6 decks, 5% commission" in out
    assert re.search(r"Bankrolls: \w+ [\d,]+\.\d\d, ", out)
    code, out, _ = run(["play", "--variant", "banque", "--seats", "0", "--decks", "4"], capsys)
    assert code == 0 and "Baccarat Banque: 2 seats, 4 decks, two tableaux." in out
