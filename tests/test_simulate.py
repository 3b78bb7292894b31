"""The simulator: its shoes, its rulebook, its numbers, and that they never depend on how it ran.

Exact probabilities: Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (in
tests/data/numbers.toml); the exact engine recomputes them.
"""

from __future__ import annotations

import contextlib
import json
import math
import socketserver
import threading
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from tests.support.reference import NUMBERS

from baccara.bets import BetKind, bets_for, payout
from baccara.cards import full_deck
from baccara.cli import cli, main
from baccara.coup import Result, deal_coup, deal_shoe
from baccara.exact.odds import full_shoe, odds
from baccara.shoe import Shoe, ShoeSettings, fisher_yates, shoe_seed_state, shoe_stream
from baccara.sim import _kernels as kernels
from baccara.sim.bankroll import Plan, play, play_chunk
from baccara.sim.payouts import pay_table, settle_net
from baccara.sim.shoes import keyed_coups, shoe_coups, simulated_shoe
from baccara.sim.simulation import Job, SimulationError, entropy_words, run_chunk, simulate
from baccara.variants import PUNTO_BANCO, Family, find_variant, variants_of

MAIN = (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)
# Wizard of Odds, 8 decks
MAIN_8 = NUMBERS.row("main", "8")
REFERENCE_8 = {name: MAIN_8[f"p_{name}"].fraction for name in ("banker", "player", "tie")}
PLAYER_EDGE_8 = MAIN_8["player"].fraction  # the Player bet's house edge


# -- random streams ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2026, 2**32 + 7, 2**64 - 1, 2**100 + 3])
@pytest.mark.parametrize("index", [0, 1, 999, 2**32 - 1])
def test_kernel_seeds_each_shoe_like_numpy_seedsequence(seed: int, index: int) -> None:
    expected = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)
    assert kernels.seed_state(entropy_words(seed), index).tolist() == expected.tolist()


def test_the_shoe_stream_is_the_one_the_shoe_module_seeds() -> None:
    expected = shoe_seed_state(11, 5)
    assert tuple(kernels.seed_state(entropy_words(11), 5).tolist()) == expected
    spawned = np.random.SeedSequence(11).spawn(6)[5].generate_state(4, np.uint64)
    assert tuple(spawned.tolist()) == expected


@pytest.mark.parametrize("seed", [0, 3, 2**64 + 1])
@pytest.mark.parametrize("index", [0, 7, 2**32 - 1])
def test_the_kernel_shuffle_is_the_shoe_modules(seed: int, index: int) -> None:
    # xoshiro256** and Lemire's draws, compiled: shoe.fisher_yates over the ordered decks
    for decks in (1, 2, 8, 12):
        order = kernels.shoe_order(entropy_words(seed), index, decks)
        expected = fisher_yates(full_deck() * decks, shoe_stream(seed, index).below)
        assert [kernels.CARDS[c] for c in order] == expected


@pytest.mark.parametrize("seed", [-1, 2**128, 1.5])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(SimulationError, match="bad seed"):
        entropy_words(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_every_shoe_is_a_permutation_of_its_decks(decks: int) -> None:
    for index in range(20):
        order = kernels.shoe_order(entropy_words(3), index, decks)
        assert np.bincount(order, minlength=52).tolist() == [decks] * 52
    first = [kernels.shoe_order(entropy_words(3), i, decks)[:20].tolist() for i in range(50)]
    assert len({tuple(x) for x in first}) == 50


def test_cards_are_uniform_in_every_position() -> None:
    # 1 deck, 4000 shoes: the point value at positions 0, 25 and 51 against 16:4:...:4
    counts = np.zeros((3, 10))
    for index in range(4000):
        order = kernels.shoe_order(entropy_words(8), index, 1)
        for row, position in enumerate((0, 25, 51)):
            counts[row, kernels.CARDS[order[position]].points] += 1
    expected = np.array([16] + [4] * 9) / 52 * 4000
    chi2 = ((counts - expected) ** 2 / expected).sum(axis=1)
    assert (chi2 < 33.7).all(), chi2  # chi-square, 9 degrees of freedom, p = 0.0001


# -- the rulebook ----------------------------------------------------------------------


SETTINGS = [
    ShoeSettings(decks=8),
    ShoeSettings(decks=6, cut_card=16),
    ShoeSettings(decks=1, cut_card=0),
    ShoeSettings(decks=1, cut_card=52),
    ShoeSettings(decks=1, cut_card=45),
    ShoeSettings(decks=2, burn=False, cut_card=30),
    ShoeSettings(decks=4, ten_burns=11, ace_burns=11, cut_card=60),
    ShoeSettings(decks=12, cut_card=0),
]


@pytest.mark.parametrize(
    "settings", SETTINGS, ids=lambda r: f"{r.decks}d-cut{r.cut_card}-burn{r.burn}"
)
def test_the_compiled_loop_deals_exactly_as_deal_shoe(settings: ShoeSettings) -> None:
    shoes = 60 if settings.decks >= 8 else 150
    compiled = shoe_coups(21, 0, shoes, settings)
    for index in range(shoes):
        shoe = simulated_shoe(21, index, settings)
        assert compiled[index] == list(deal_shoe(shoe)), f"shoe {index}"
        assert shoe.finished


@pytest.mark.parametrize("decks", [1, 6, 8])
@pytest.mark.parametrize("seed", [0, 7, 2026, 2**64 + 5])
def test_shoe_k_of_the_simulator_is_shoe_k_at_the_table(decks: int, seed: int) -> None:
    # one shuffle: the compiled card order and coups (burn and cut card included) are
    # those of Shoe.shuffled + deal_coup, as the table and `baccara deal --seed` deal
    settings = ShoeSettings(decks=decks, cut_card=14 if decks > 1 else 10)
    indexes = [0, 1, 2, 57, 999]
    for index in indexes:
        order = kernels.shoe_order(entropy_words(seed), index, decks).tolist()
        table_shoe = Shoe.shuffled(settings, seed=seed, index=index)
        assert [kernels.CARDS[code] for code in order] == list(table_shoe.cards)
        compiled = shoe_coups(seed, index, 1, settings)[0]
        table_shoe.burn()
        dealt = []
        while not table_shoe.finished:
            dealt.append(deal_coup(table_shoe))
        assert compiled == dealt, (seed, index)


def test_simulated_shoes_replay_by_notation() -> None:
    shoe = simulated_shoe(4, 2)
    assert shoe.seed == 4 and shoe.index == 2
    assert sorted(map(str, shoe.cards)) == sorted(map(str, full_deck() * 8))
    assert [str(c) for c in deal_shoe(simulated_shoe(4, 2))] == [
        str(c) for c in shoe_coups(4, 2, 1)[0]
    ]


# -- what it counts --------------------------------------------------------------------


@pytest.mark.parametrize("name", [v.name for v in variants_of([Family.PUNTO_BANCO])])
def test_every_bet_sums_to_what_bets_payout_says(name: str) -> None:
    variant = find_variant(name)
    job = Job(shoes=40, seed=9, variant=variant, settings=ShoeSettings(decks=6))
    result = simulate(job, threads=1)
    coups = [coup for shoe in shoe_coups(9, 0, 40, job.settings) for coup in shoe]
    assert result.hands == len(coups)
    winners = [c.winner for c in coups]
    assert (result.banker, result.player, result.tie) == tuple(
        winners.count(r) for r in (Result.BANKER, Result.PLAYER, Result.TIE)
    )
    stats = {b.kind: b for b in result.bets()}
    assert set(stats) == set(bets_for(variant))
    for kind, b in stats.items():
        ratios = [payout(kind, c, variant).ratio for c in coups]
        assert Fraction(b.net).limit_denominator(1000) == sum(ratios, Fraction(0))
        assert b.hits == sum(r > 0 for r in ratios)
        assert b.pushes == sum(r == 0 for r in ratios)


def test_pay_table_comes_from_bets() -> None:
    table, d = pay_table(find_variant("super6"), (BetKind.BANKER, BetKind.LUCKY_6))
    assert d == 2
    assert sorted({int(x) for x in table[:, 0]}) == [-2, 0, 1, 2]
    assert sorted({int(x) for x in table[:, 1]}) == [-2, 0, 24, 40]


def test_shape_and_streaks() -> None:
    result = simulate(Job(shoes=300, seed=5, bets=MAIN), threads=1)
    coups = shoe_coups(5, 0, 300)
    flat = [c for shoe in coups for c in shoe]
    shape = result.shape()
    assert shape["natural"]["observed"] == pytest.approx(sum(c.natural for c in flat) / len(flat))
    assert shape["cards_5"]["observed"] == pytest.approx(
        sum(c.cards == 5 for c in flat) / len(flat)
    )
    assert shape["banker_draws"]["exact"] == pytest.approx(0.435405, abs=1e-6)

    def longest(shoe: list[Result], side: Result) -> int:
        best = run = 0
        for r in shoe:
            if r is Result.TIE:
                continue
            run = run + 1 if r is side else 0
            best = max(best, run)
        return best

    results = [[c.winner for c in shoe] for shoe in coups]
    assert result.totals.longest[0] == max(longest(s, Result.BANKER) for s in results)
    assert result.totals.longest[1] == max(longest(s, Result.PLAYER) for s in results)


def test_results_never_depend_on_chunks_or_threads() -> None:
    job = Job(shoes=500, seed=77)
    one = simulate(job, threads=1)
    many = simulate(job, threads=2, chunk_shoes=37)
    assert one.totals == many.totals
    halves = run_chunk(job, 0, 250) + run_chunk(job, 250, 250)
    assert halves == one.totals


def test_bad_jobs() -> None:
    with pytest.raises(SimulationError, match="bad number of shoes 0"):
        Job(shoes=0)
    with pytest.raises(SimulationError, match="not offered"):
        Job(shoes=1, bets=(BetKind.DRAGON_7,))
    with pytest.raises(SimulationError, match="workers"):
        simulate(Job(shoes=1), workers=0)


@pytest.mark.slow
def test_main_outcomes_lie_within_4_standard_errors(full_size: bool) -> None:
    shoes = 200_000 if full_size else 12_000  # 16.2 million hands, or about a million
    result = simulate(Job(shoes=shoes, seed=20261121, bets=MAIN))
    assert result.hands >= (16_000_000 if full_size else 950_000)
    exact = odds(full_shoe(8)).probabilities
    for name, count in (("banker", result.banker), ("player", result.player), ("tie", result.tie)):
        assert exact[name] == pytest.approx(REFERENCE_8[name], abs=1e-9)
        p = exact[name]
        se = math.sqrt(p * (1 - p) / result.hands)
        assert abs(count / result.hands - p) < 4 * se, name
    for b in result.bets():  # and each main bet's interval is a sensible width around it
        assert b.ci_low < b.edge < b.ci_high
        assert b.exact_edge is not None and abs(b.edge - b.exact_edge) < 4 * (b.ci_high - b.edge)


# -- strategies over simulated shoes ------------------------------------------------------


def test_sessions_settle_every_wager_by_the_bets_module() -> None:
    plan = Plan(specs=("flat:banker", "flat:tie"), bankroll=50_000, unit=105)
    job = Job(shoes=3, seed=12)
    chunk = play_chunk(job, plan, PUNTO_BANCO, {}, 0, 3)
    from baccara.bets import settle

    for spec, kind in (("flat:banker", BetKind.BANKER), ("flat:tie", BetKind.TIE)):
        for session in range(3):
            coups = shoe_coups(12, session, 1)[0]
            net = sum(settle(kind, 105, c, PUNTO_BANCO).net for c in coups)
            assert chunk[spec].finals[session] == 50_000 + net
            assert chunk[spec].hands[session] == len(coups)
    for shoe in keyed_coups(12, 0, 2):
        for coup, key in shoe:
            assert settle_net(BetKind.BANKER, 333, key, PUNTO_BANCO) == (
                settle(BetKind.BANKER, 333, coup, PUNTO_BANCO).net
            )


def test_a_small_bankroll_is_ruined_and_systems_keep_the_edge() -> None:
    plan = Plan(
        specs=("martingale:banker", "flat:player"),
        bankroll=3_000,
        unit=1_000,
        table_min=1_000,
        table_max=100_000,
    )
    reports = play(Job(shoes=60, seed=2), plan)
    martingale, flat = reports
    assert martingale.sessions == flat.sessions == 60
    assert martingale.risk_of_ruin > 0.5
    chunk = martingale.chunk
    assert all(f < 1_000 for f, r in zip(chunk.finals, chunk.ruined, strict=True) if r)
    assert flat.expected_edge() == pytest.approx(PLAYER_EDGE_8, abs=1e-6)
    assert "does not change the edge" in flat.verdict()


def test_sessions_span_shoes() -> None:
    plan = Plan(specs=("flat:player",), bankroll=1_000_000, unit=100, session_shoes=2)
    (report,) = play(Job(shoes=5, seed=3), plan)
    assert report.sessions == 2
    hands = [len(s) for s in shoe_coups(3, 0, 4)]
    assert list(report.chunk.hands) == [hands[0] + hands[1], hands[2] + hands[3]]


# -- the command line -------------------------------------------------------------------


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the real entry point: its error handling is what a user sees."""
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _stable(text: str) -> dict[str, object]:
    data = json.loads(text)
    for key in ("seconds", "hands_per_second"):
        data.pop(key)
    return data


def test_cli_json_is_the_same_in_one_process_on_workers_and_on_dask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["--shoes", "300", "--seed", "42", "--json", "--strategy", "paroli", "--unit", "5"]
    code, one, _ = _run(*args, "--workers", "1")
    assert code == 0
    data = json.loads(one)
    assert {"hands", "shoes", "banker", "player", "tie", "hands_per_second"} <= set(data)
    assert data["shoes"] == 300 and data["banker"] + data["player"] + data["tie"] == data["hands"]
    assert data["strategies"]["paroli:player"]["sessions"] == 300
    code, two, _ = _run(*args, "--workers", "2")
    assert code == 0
    monkeypatch.setenv("BACCARA_DASK_PROCESSES", "0")  # a LocalCluster of threads: quick
    code, dask, _ = _run(*args, "--workers", "2", "--scheduler", "local")
    assert code == 0
    assert _stable(one) == _stable(two) == _stable(dask)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shoes", "0"], "bad number of shoes 0"),
        (["--strategy", "double-up"], "unknown strategy 'double-up'"),
        (["--strategy", "flat:banker", "--bankroll", "5", "--table-min", "10"], "below the table"),
        (["--strategy", "flat:dragon_7"], "not offered"),
        (["--unit", "ten"], "bad amount"),
        (["--scheduler", "tcp://127.0.0.1:1", "--shoes", "1"], "cannot reach Dask"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _main(capsys, *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_cli_text_report_and_plot(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "paths.png"
    code, out, _ = _run(
        "--shoes", "40", "--seed", "1", "--strategy", "martingale", "--plot", str(target)
    )
    assert code == 0
    assert "Banker" in out and "house edge" in out and "martingale:player" in out
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _NotDask(socketserver.BaseRequestHandler):
    """A server on the scheduler's address that is not Dask: an HTTP server's refusal
    to whatever arrives (``answer``), or nothing at all."""

    answer = b""

    def handle(self) -> None:
        with contextlib.suppress(OSError):
            self.request.settimeout(30)
            if self.request.recv(1024) and self.answer:
                self.request.sendall(self.answer)
            self.request.recv(1024)


@pytest.mark.parametrize(
    "answer", [b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n" * 4, b""]
)
def test_an_address_that_is_not_a_dask_scheduler_is_one_line(
    answer: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found: `--scheduler 127.0.0.1:8000` (a web server) printed a 60-line traceback
    ending in 'Unable to allocate 3.07 EiB'; a server that says nothing hung."""
    from baccara.sim import simulation

    monkeypatch.setattr(simulation, "DASK_CONNECT_SECONDS", 3.0)
    handler = type("Handler", (_NotDask,), {"answer": answer})
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        address = f"127.0.0.1:{server.server_address[1]}"
        code, _, err = _main(capsys, "--scheduler", address, "--shoes", "1")
        server.shutdown()
    assert code == 2
    assert "is not a Dask scheduler" in err or "no Dask scheduler answered" in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_worker_processes_deal_the_same_shoes_as_threads() -> None:
    """`simulate` starts processes only for runs that repay them; the pool still deals
    exactly the shoes the threads deal."""
    from functools import partial

    from baccara.sim.simulation import chunks, execute

    job = Job(shoes=24, seed=9)
    parts = chunks(job.shoes, 7)
    threads = execute(partial(run_chunk, job), parts, threads=2)
    processes = execute(partial(run_chunk, job), parts, workers=2)
    assert threads == processes and sum(t.shoes for t in processes) == 24


def test_the_report_says_when_the_kernels_were_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found: the first run compiled for 9 s while the header said '0.03 s'."""
    from baccara.sim import simulation

    monkeypatch.setattr(simulation, "warm", lambda job: 9.2)
    code, out, _ = _run("--shoes", "5", "--seed", "1")
    assert code == 0
    assert "Before that, 9.2 s compiling the kernels" in " ".join(out.split())
    monkeypatch.setattr(simulation, "warm", lambda job: 0.3)  # loaded from the cache: no note
    assert "compiling" not in _run("--shoes", "5", "--seed", "1")[1]
