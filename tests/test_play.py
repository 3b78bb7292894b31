"""The terminal game, driven end to end through its input as a script would."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.support.terminal import Ran, run_cli

from baccara.bets import BetKind
from baccara.db.store import Store, seat_account, wallet_account
from baccara.table.engine import Phase
from baccara.table.events import CoupSettled

ENV_80_COLUMNS = {"COLUMNS": "80", "LINES": "24", "PYTHONIOENCODING": "utf-8"}


def play(db: Path, script: str, *args: str) -> Ran:
    """``baccara play`` on ``db`` with ``script`` piped in, in this process (`run_cli`)."""
    return run_cli(["play", "--db", str(db), *args], script, ENV_80_COLUMNS)


def play_in_a_process(db: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``baccara play`` as its own process, started as a script starts it."""
    return subprocess.run(
        [sys.executable, "-m", "baccara", "play", "--db", str(db), *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **ENV_80_COLUMNS},
        check=False,
    )


SEED = "6150"
"""A series whose first coup is P:7c,Tc B:2s,Jd,7h: Player stands on 7, Banker draws on 2."""


def last_prompt_stack(output: str) -> str:
    return re.findall(r"seat 1 guest1 \[([\d,.]+)\]>", output)[-1]


def test_a_scripted_game_quits_and_resumes_with_every_balance(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    script = "b 100\np 50\nt 1000\nundo\nfoo\ndeal\nrebet\ndeal\nhistory\nq\n"
    # seed 6150: the first coup is P:7c,Tc B:2s,Jd,7h (one shuffle for the table and the
    # simulator since issue 14; seed 1 dealt this coup with the table's old shuffle)
    first = play_in_a_process(db, script, "--seed", SEED, "--bots", "2")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "A new Punto Banco table" in out and "bot2 (flat:banker)" in out
    assert "✗ 1,000.00 on Tie is over the table maximum 500.00" in out
    assert "Seat 1: took back 50.00 from Player." in out
    assert "✗ unknown command 'foo': type help" in out
    assert "Card for the Player: 7c." in out  # the first card, alone on its line
    assert "Seven to the Player, nine to the Banker: Banker wins." in out
    assert "seat 1 guest1   Banker          100.00  win  +95.00  commission 5.00" in out
    assert "shoe 1 coup  2" in out and "Saved session 1" in out

    store = Store.at(db)
    table = store.load_table(1)
    assert table.phase is Phase.SETTLED and len(table.coups) == 2
    nets = sum(e.seat_net(1) for e in table.log if isinstance(e, CoupSettled))
    ann = table.seat_state(1)
    assert ann.stack + ann.staked == 100_000 + nets
    assert store.balance(seat_account(1, 1)) == ann.stack + ann.staked
    assert store.balance(wallet_account("guest1")) == 0
    assert sum(store.balances().values()) == 0
    store.close()
    assert last_prompt_stack(out) == f"{ann.stack / 100:,.2f}"

    again = play(db, "table\nq\n")
    assert again.returncode == 0, again.stderr
    assert "Resuming session 1 (Punto Banco, shoe 1, 2 coups dealt)" in again.stdout
    assert last_prompt_stack(again.stdout) == last_prompt_stack(out)


def test_end_of_input_saves_the_bets_on_the_layout(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    assert play(db, "b 100\nbet player_pair 5\n", "--bots", "0").returncode == 0  # Ctrl-D
    resumed = play(db, "table\nq\n")
    assert "Banker 100.00, Player Pair 5.00" in resumed.stdout
    store = Store.at(db)
    assert store.load_table(1).seat_state(1).bets == (
        (BetKind.BANKER, 10_000),
        (BetKind.PLAYER_PAIR, 500),
    )
    store.close()


def test_ctrl_c_quits_cleanly_and_keeps_the_bet(tmp_path: Path) -> None:
    db = tmp_path / "game.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "baccara", "play", "--db", str(db), "--bots", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **ENV_80_COLUMNS},
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("b 250\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "Seat 1: 250.00 on Banker" in line or not line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Saved session 1" in out and "Traceback" not in err
    store = Store.at(db)
    assert store.load_table(1).seat_state(1).bet(BetKind.BANKER) == 25_000
    store.close()


def test_teaching_mode_explains_draws_and_payouts(tmp_path: Path) -> None:
    result = play(
        tmp_path / "g.db", "p 10\nt 5\ndeal\nq\n", "--seed", SEED, "--bots", "0", "--teach"
    )
    out = result.stdout
    assert "Player pays 1:1. House edge 1.24% (8 decks)." in out
    assert "Tie pays 8:1. House edge 14.36% (8 decks)." in out
    assert "why: Player has 7: Player stands on 6 or 7." in out
    assert "why: Player stood and Banker has 2: Banker draws on 0-5" in out
    assert "why: Banker wins: the bet loses." in out and "why: No tie: the bet loses." in out


def test_the_intro_and_the_help_fit_80_columns(tmp_path: Path) -> None:
    """Found: the primer's hard-wrapped lines were 81 wide, so 'count' stood alone."""
    out = play(tmp_path / "g.db", "help\nq\n", "--seed", SEED, "--teach").stdout
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    first = next(n for n, line in enumerate(lines) if line.startswith("How baccarat works"))
    last = next(n for n, line in enumerate(lines) if "every payout." in line)
    assert all(len(line.rstrip()) >= 70 for line in lines[first:last]), lines[first : last + 1]


def test_two_humans_take_turns_and_a_new_table_returns_the_chips(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    result = play(
        db, "b 10\nnext\np 20\nseat 1\ndeal\nq\n", "--seats", "2", "--bots", "1", "--seed", "4"
    )
    out = result.stdout
    assert "Seat 2 (guest2) is playing." in out and "Seat 1 (guest1) is playing." in out
    assert re.search(r"seat 1 guest1   Banker +10\.00", out)
    assert re.search(r"seat 2 guest2   Player +20\.00", out)
    store = Store.at(db)
    table = store.load_table(1)
    stacks = {s.player: s.stack + s.staked for s in table.seats}
    store.close()
    fresh = play(db, "q\n", "--new", "--seats", "2", "--bots", "0")
    assert fresh.returncode == 0
    store = Store.at(db)
    assert [s.closed for s in store.list_sessions()] == [False, True]
    new_table = store.load_table(2)
    assert {s.player: s.stack for s in new_table.seats} == {
        p: stacks[p] for p in ("guest1", "guest2")
    }
    store.close()


def test_bad_options_give_one_line(tmp_path: Path) -> None:
    result = play(tmp_path / "g.db", "q\n", "--variant", "mini", "--seats", "4", "--bots", "4")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "baccara: error: 4 players and 4 bots do not fit: a Mini-Baccarat table has 7 seats"
    )


@pytest.mark.parametrize("variant", ["ez", "super6"])
def test_every_variant_plays_a_few_coups(tmp_path: Path, variant: str) -> None:
    result = play(
        tmp_path / "g.db",
        "b 10\ndeal\nrebet\ndeal\nrebet\ndeal\nq\n",
        "--variant",
        variant,
        "--seed",
        "2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Coup ") == 3


def test_game_commands_in_process() -> None:
    import io

    from rich.console import Console

    from baccara.table.engine import Table
    from baccara.tui.table import start_table

    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    store = Store("sqlite://")
    game = start_table(
        store, Table(seed=5), humans=["ann"], bots=1, console=console, teach=False, delay=0
    )
    lines = iter(
        [
            "undo",
            "rebet",
            "b 12.50",
            "bet lucky_6 2",
            "clear",
            "b 1.005",
            "p",
            "seat x",
            "seat 4",
            "b 10",
            "leave",
            "limits",
            "help",
            "deal",
            "roads",
            "teach",
            "next",
            "q",
        ]
    )
    game.run(lambda prompt: next(lines, None))
    text = out.getvalue()
    for expected in (
        "nothing to undo: no bet placed since the last coup",
        "nothing to rebet: this seat had no bet on the last coup",
        "Seat 1: 12.50 on Banker, stack 987.50.",
        "Seat 1: 2.00 on Lucky 6, stack 985.50.",
        "Seat 1: took back 14.50.",
        "bad amount '1.005': write it like 25 or 12.50",
        "write: p AMOUNT, as in 'p 25'",
        "write: seat N, as in 'seat 2'",
        "guest4 sits at seat 4 with 1,000.00.",
        "guest4 leaves seat 4 with 1,000.00.",
        "dragon_bonus_banker",
        "Bead Plate",
        "Teaching mode on.",
        "Seat 1 (ann) is playing.",
    ):
        assert expected in text, expected
    table = store.load_table(game.session)
    assert [s.player for s in table.seats] == ["ann", "bot2"]
    assert table.stack(1) == 100_000 and len(table.coups) == 1
    assert store.balance(wallet_account("guest4")) == 100_000
    store.close()


def test_a_whole_shoe_and_an_interrupted_coup_in_process() -> None:
    import io

    from rich.console import Console

    from baccara.shoe import ShoeSettings
    from baccara.table.engine import Table
    from baccara.table.events import TableSettings
    from baccara.tui.table import Game, start_table

    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False)
    store = Store("sqlite://")
    table = Table(settings=TableSettings(shoe=ShoeSettings(decks=1)), seed=6)
    game = start_table(store, table, humans=["ann"], bots=2, console=console, teach=True, delay=0)
    lines = iter(["b 10", "deal"] * 12 + ["b 10"])
    game.run(lambda prompt: next(lines, None))
    text = out.getvalue()
    assert "The cut card is out: that was the last coup of this shoe." in text
    assert "New shoe 2: 52 cards; burned" in text
    assert "How baccarat works" in text
    assert table.shoe_number == 2

    table.deal()  # the game stops with the cards out (a crash, say)
    store.save(game.session, table)
    out.truncate(0)
    resumed = Game(
        table=store.load_table(game.session),
        store=store,
        session=game.session,
        console=console,
    )
    resumed.run(lambda prompt: None)
    assert "Finishing the coup that was dealt before the game stopped." in out.getvalue()
    settled = store.load_table(game.session)
    assert settled.current is None and settled.phase is Phase.SETTLED
    ann = settled.seat_state(1)
    assert store.balance(seat_account(game.session, 1)) == ann.stack + ann.staked
    store.close()
