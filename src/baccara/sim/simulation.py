"""The simulator: real shoes by the millions, every bet's result with its interval.

Shoe ``i`` of the series ``seed`` is ``Shoe.shuffled(settings, seed=seed, index=i)``,
shuffled from its own random stream (`baccara.shoe.shoe_generator`), so a run gives the
same numbers whether it is dealt in one process, by several workers or on a Dask
cluster, and any shoe of it replays at the table (``baccara deal --seed S --shoe I``).
The dealing is `baccara.shoe` and `baccara.deal` compiled (`baccara.sim._kernels`);
what each bet pays comes from `baccara.bets` (`baccara.sim.payouts`).

>>> result = simulate(Job(shoes=20, seed=1))
>>> result.hands, result.banker + result.player + result.tie == result.hands
(1623, True)
>>> from baccara.coup import deal_shoe
>>> from baccara.shoe import Shoe, ShoeSettings
>>> replay = list(deal_shoe(Shoe.shuffled(ShoeSettings(), seed=1, index=0)))
>>> len(replay) == result.hands_in_shoe(0)
True

Every house edge is estimated per unit bet with a 95% confidence interval computed
over shoes (the hands of one shoe are not independent): the ratio estimator
``-sum(net) / sum(hands)`` with its linearised standard error.
"""

from __future__ import annotations

import importlib
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any, TypeVar

import numpy as np

from baccara.bets import BetKind, bets_for
from baccara.coup import deal_shoe
from baccara.shoe import Shoe, ShoeSettings
from baccara.sim import _kernels as kernels
from baccara.sim.payouts import burn_counts, pay_table
from baccara.variants import PUNTO_BANCO, Family, Variant, require_family

__all__ = [
    "CHUNK_SHOES",
    "BetStats",
    "Job",
    "SimulationError",
    "SimulationResult",
    "Totals",
    "entropy_words",
    "exact_odds",
    "execute",
    "kernel_shoes",
    "processes_for",
    "run_chunk",
    "simulate",
    "warm",
]

CHUNK_SHOES = 8192
"""Shoes per chunk of work (results never depend on it)."""
DEAL_SHOES_PER_PROCESS = 4_000_000
"""Shoes a worker process must deal to repay its start (a second or two: a fresh
interpreter loading the kernels); this process's threads already deal on every core."""
Z95 = 1.959963984540054
T = TypeVar("T")
MAX_SEED = 2**128 - 1


class SimulationError(ValueError):
    """A bad simulation request: no shoes, a bad seed, an unknown bet."""


def entropy_words(seed: int) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """The seed as the four 32-bit words `SeedSequence` mixes (little-endian).

    >>> entropy_words(2**32 + 5).tolist()
    [5, 1, 0, 0]
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SimulationError(f"bad seed {seed!r}: expected a whole number from 0 to 2**128 - 1")
    return np.array([(seed >> (32 * i)) & 0xFFFFFFFF for i in range(4)], dtype=np.uint32)


KernelShoes = tuple[
    np.ndarray[Any, np.dtype[np.uint32]],
    int,
    int,
    int,
    int,
    bool,
    np.ndarray[Any, np.dtype[np.int64]],
]
"""A series' shoes as the compiled kernels take them (`kernel_shoes`)."""


def kernel_shoes(seed: int, start: int, count: int, settings: ShoeSettings) -> KernelShoes:
    """Shoes ``start .. start + count - 1`` of the series ``seed`` as the compiled kernels
    take them: the seed's words, the first shoe, how many, the decks, the cut card,
    whether a shoe burns and what each first card burns (`burn_counts`)."""
    return (
        entropy_words(seed),
        start,
        count,
        settings.decks,
        settings.cut_card,
        settings.burn,
        burn_counts(settings),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """What to simulate: shoes ``0 .. shoes - 1`` of the series ``seed``.

    >>> Job(shoes=0)
    Traceback (most recent call last):
    ...
    baccara.sim.simulation.SimulationError: bad number of shoes 0: expected at least 1
    >>> from baccara.variants import find_variant
    >>> Job(shoes=1, variant=find_variant("banque"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    baccara.variants.FamilyError: banque is a players' game (Baccarat Banque); the simulator covers the house-banked games: punto-banco, ...
    """

    shoes: int
    seed: int = 0
    variant: Variant = PUNTO_BANCO
    settings: ShoeSettings = field(default_factory=ShoeSettings)
    bets: tuple[BetKind, ...] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.shoes, bool) or not isinstance(self.shoes, int) or self.shoes < 1:
            raise SimulationError(f"bad number of shoes {self.shoes!r}: expected at least 1")
        if self.shoes >= 2**32:
            raise SimulationError(f"bad number of shoes {self.shoes}: at most 2**32 - 1")
        entropy_words(self.seed)
        require_family(self.variant, Family.PUNTO_BANCO, user="the simulator")
        allowed = bets_for(self.variant)
        for kind in self.bet_kinds:
            if kind not in allowed:
                raise SimulationError(f"bet {kind.value!r} is not offered in {self.variant.name}")

    @property
    def bet_kinds(self) -> tuple[BetKind, ...]:
        """The bets reported: the given ones, or every bet of the variant."""
        return self.bets if self.bets is not None else bets_for(self.variant)


# -- one chunk of shoes --------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Totals:
    """Integer sums over some shoes; chunks add up in any order to the same totals."""

    shoes: int
    histogram: tuple[int, ...]
    net: tuple[int, ...]
    net2: tuple[int, ...]
    net_hands: tuple[int, ...]
    hands: int
    hands2: int
    longest: tuple[int, int, int]

    def __add__(self, other: Totals) -> Totals:
        def add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return Totals(
            shoes=self.shoes + other.shoes,
            histogram=add(self.histogram, other.histogram),
            net=add(self.net, other.net),
            net2=add(self.net2, other.net2),
            net_hands=add(self.net_hands, other.net_hands),
            hands=self.hands + other.hands,
            hands2=self.hands2 + other.hands2,
            longest=(
                max(self.longest[0], other.longest[0]),
                max(self.longest[1], other.longest[1]),
                max(self.longest[2], other.longest[2]),
            ),
        )


def run_chunk(job: Job, start: int, count: int) -> Totals:
    """Deal shoes ``start .. start + count - 1`` of ``job`` and sum what they did.

    The compiled loop releases the GIL, so threads can run chunks side by side.
    """
    table, _ = pay_table(job.variant, job.bet_kinds)
    hist, sums, hands, longest = kernels.simulate_serial(
        *kernel_shoes(job.seed, start, count, job.settings), table
    )

    def column(values: Any) -> tuple[int, ...]:
        return tuple(int(x) for x in values)

    top = longest.max(axis=0)
    return Totals(
        shoes=count,
        histogram=column(hist.sum(axis=0)),
        net=column(sums[:, 0].sum(axis=0)),
        net2=column(sums[:, 1].sum(axis=0)),
        net_hands=column(sums[:, 2].sum(axis=0)),
        hands=int(hands[:, 0].sum()),
        hands2=int(hands[:, 1].sum()),
        longest=(int(top[0]), int(top[1]), int(top[2])),
    )


def chunks(shoes: int, size: int = CHUNK_SHOES) -> list[tuple[int, int]]:
    """``(start, count)`` of each chunk of ``shoes``.

    >>> chunks(10, 4)
    [(0, 4), (4, 4), (8, 2)]
    """
    return [(start, min(size, shoes - start)) for start in range(0, shoes, size)]


# -- the report ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BetStats:
    """One bet, one unit on every coup: how it did, and its house edge with a 95% interval."""

    kind: BetKind
    hits: int
    pushes: int
    net: float
    edge: float
    ci_low: float
    ci_high: float
    exact_edge: float | None

    def to_json(self) -> dict[str, Any]:
        """The bet as plain numbers."""
        return {
            "hits": self.hits,
            "pushes": self.pushes,
            "net": self.net,
            "edge": self.edge,
            "ci95": [self.ci_low, self.ci_high],
            "exact_edge": self.exact_edge,
        }


def _ratio_interval(
    total: float, total2: float, cross: float, hands: int, hands2: int, shoes: int
) -> tuple[float, float]:
    """Ratio estimate ``total / hands`` over shoes and its standard error."""
    ratio = total / hands
    if shoes < 2:
        return ratio, math.nan
    mean_h = hands / shoes
    spread = total2 - 2 * ratio * cross + ratio * ratio * hands2
    return ratio, math.sqrt(max(spread, 0.0) / (shoes * (shoes - 1))) / mean_h


@cache
def exact_odds(variant: Variant, decks: int) -> Any:
    """The exact engine's odds for a full shoe, or None where it cannot say."""
    try:
        from baccara.exact import odds as exact
    except ImportError:  # pragma: no cover - the engine ships with the package
        return None
    return exact.odds(exact.full_shoe(decks), variant)


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """Everything a run measured, beside the exact values where the exact engine has them."""

    job: Job
    totals: Totals
    seconds: float

    @property
    def hands(self) -> int:
        """Coups dealt."""
        return self.totals.hands

    @property
    def shoes(self) -> int:
        """Shoes dealt."""
        return self.totals.shoes

    def _count(self, keep: Callable[[int], bool]) -> int:
        return sum(n for key, n in enumerate(self.totals.histogram) if n and keep(key))

    @property
    def banker(self) -> int:
        """Banker wins."""
        return self._count(lambda k: kernels.RESULT[k] == 0)

    @property
    def player(self) -> int:
        """Player wins."""
        return self._count(lambda k: kernels.RESULT[k] == 1)

    @property
    def tie(self) -> int:
        """Ties."""
        return self._count(lambda k: kernels.RESULT[k] == 2)

    @property
    def hands_per_second(self) -> float:
        """Coups dealt per second of wall time."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    def hands_in_shoe(self, index: int) -> int:
        """How many coups shoe ``index`` of this series has (dealt again, at a table's pace)."""
        shoe = Shoe.shuffled(self.job.settings, seed=self.job.seed, index=index)
        return sum(1 for _ in deal_shoe(shoe))

    def bets(self) -> list[BetStats]:
        """Each bet's hits, net and house edge with its interval, beside the exact edge."""
        table, denominator = pay_table(self.job.variant, self.job.bet_kinds)
        hist = np.array(self.totals.histogram, dtype=np.int64)
        odds = exact_odds(self.job.variant, self.job.settings.decks)
        t = self.totals
        out = []
        for i, kind in enumerate(self.job.bet_kinds):
            d2 = float(denominator) ** 2
            ratio, se = _ratio_interval(
                t.net[i] / denominator,
                t.net2[i] / d2,
                t.net_hands[i] / denominator,
                t.hands,
                t.hands2,
                t.shoes,
            )
            exact = None if odds is None else float(odds.edges[kind.value])
            out.append(
                BetStats(
                    kind=kind,
                    hits=int(hist[table[:, i] > 0].sum()),
                    pushes=int(hist[table[:, i] == 0].sum()),
                    net=t.net[i] / denominator,
                    edge=-ratio,
                    ci_low=-ratio - Z95 * se,
                    ci_high=-ratio + Z95 * se,
                    exact_edge=exact,
                )
            )
        return out

    def shape(self) -> dict[str, dict[str, float | None]]:
        """Frequencies of naturals, draws and cards dealt, beside the exact probabilities."""
        odds = exact_odds(self.job.variant, self.job.settings.decks)
        n = self.hands

        def decode(key: int) -> tuple[int, int, int, int]:
            return kernels.decode(key)[:4]

        def freq(keep: Callable[[int, int, int, int], bool]) -> float:
            return self._count(lambda k: keep(*decode(k))) / n

        def exact_value(get: Callable[[Any], Any]) -> float | None:
            if odds is None:
                return None
            try:
                return float(get(odds))
            except (AttributeError, KeyError):  # pragma: no cover - an older exact engine
                return None

        rows: dict[str, tuple[float, float | None]] = {
            "natural": (
                freq(lambda p, b, pd, bd: not pd and not bd and max(p, b) >= 8),
                exact_value(lambda o: o.naturals["any"]),
            ),
            "player_natural": (
                freq(lambda p, b, pd, bd: not pd and not bd and p >= 8),
                exact_value(lambda o: o.naturals["player_8"] + o.naturals["player_9"]),
            ),
            "banker_natural": (
                freq(lambda p, b, pd, bd: not pd and not bd and b >= 8),
                exact_value(lambda o: o.naturals["banker_8"] + o.naturals["banker_9"]),
            ),
            "player_draws": (
                freq(lambda p, b, pd, bd: bool(pd)),
                exact_value(lambda o: o.draws["player"]),
            ),
            "banker_draws": (
                freq(lambda p, b, pd, bd: bool(bd)),
                exact_value(lambda o: o.draws["banker"]),
            ),
        }
        for cards in (4, 5, 6):

            def dealt(p: int, b: int, pd: int, bd: int, c: int = cards) -> bool:
                return 4 + pd + bd == c

            def exact_dealt(o: Any, c: int = cards) -> Any:
                return o.cards_dealt[c]

            rows[f"cards_{cards}"] = (freq(dealt), exact_value(exact_dealt))
        return {name: {"observed": obs, "exact": ex} for name, (obs, ex) in rows.items()}

    def outcome_stats(self) -> dict[str, dict[str, float | None]]:
        """Banker, Player and Tie frequencies with the exact probabilities and the z-score."""
        odds = exact_odds(self.job.variant, self.job.settings.decks)
        out: dict[str, dict[str, float | None]] = {}
        for name, count in (("banker", self.banker), ("player", self.player), ("tie", self.tie)):
            observed = count / self.hands
            exact = None if odds is None else float(odds.probabilities[name])
            z = None
            if exact is not None:
                z = (observed - exact) / math.sqrt(exact * (1 - exact) / self.hands)
            out[name] = {"observed": observed, "exact": exact, "z": z}
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole report as plain numbers (the ``--json`` object)."""
        longest = self.totals.longest
        return {
            "variant": self.job.variant.name,
            "decks": self.job.settings.decks,
            "seed": self.job.seed,
            "shoes": self.shoes,
            "hands": self.hands,
            "banker": self.banker,
            "player": self.player,
            "tie": self.tie,
            "frequencies": self.outcome_stats(),
            "bets": {b.kind.value: b.to_json() for b in self.bets()},
            "shape": self.shape(),
            "longest_streaks": {"banker": longest[0], "player": longest[1], "tie": longest[2]},
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
        }


# -- running it ------------------------------------------------------------------------------

Progress = Callable[[int], None]
"""Called with the number of shoes just finished."""


def processes_for(work: int, per_process: int, most: int) -> int:
    """How many of ``most`` processes ``work`` keeps busy, each given ``per_process``.

    >>> processes_for(300, 5_000, 2), processes_for(12_000, 5_000, 2), processes_for(9, 1, 4)
    (1, 2, 4)
    """
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        raise SimulationError(f"bad number of workers {most!r}: expected at least 1")
    return max(1, min(most, work // per_process))


def warm(job: Job) -> float:
    """Load (or, on the first run after an install, compile) the simulator's kernels and
    the exact engine's for ``job``; the seconds it took.

    Numba keeps what it compiles in its cache: the first run takes seconds, the next
    ones a fraction of one. `simulate` calls it before its clock starts.
    """
    started = time.perf_counter()
    run_chunk(job, 0, 0)
    exact_odds(job.variant, job.settings.decks)
    return time.perf_counter() - started


def simulate(
    job: Job,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk_shoes: int = CHUNK_SHOES,
    threads: int | None = None,
) -> SimulationResult:
    """Run ``job`` in this process (``workers=1``), on worker processes, or on Dask.

    In this process the chunks run on ``threads`` threads (default: one per core).
    ``scheduler`` is ``"local"`` (a Dask LocalCluster of ``workers`` processes) or
    the address of a running Dask scheduler. Every way gives the same numbers.
    """
    parts = chunks(job.shoes, chunk_shoes)
    if scheduler is None:  # more processes only where the work repays their start
        workers = processes_for(job.shoes, DEAL_SHOES_PER_PROCESS, workers)
    warm(job)  # load (or compile) the kernels before the clock starts
    started = time.perf_counter()
    done = execute(
        partial(run_chunk, job),
        parts,
        workers=workers,
        scheduler=scheduler,
        threads=threads or os.cpu_count() or 1,
        progress=progress,
    )
    total = done[0]
    for item in done[1:]:
        total = total + item
    return SimulationResult(job=job, totals=total, seconds=time.perf_counter() - started)


def execute(
    func: Callable[[int, int], T],
    parts: Sequence[tuple[int, int]],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    threads: int = 1,
    progress: Progress | None = None,
) -> list[T]:
    """``[func(start, count) for start, count in parts]``, run in parallel, in order.

    ``workers > 1`` uses that many processes; ``scheduler`` runs on Dask (``"local"``
    starts a LocalCluster of ``workers`` processes, anything else is a scheduler's
    address); otherwise ``threads`` threads of this process. ``func`` must pickle.
    ``progress`` is called with each finished part's count.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"bad number of workers {workers!r}: expected at least 1")
    if scheduler is not None:
        return _on_dask(func, parts, scheduler, workers, progress)
    from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed

    pool: Executor
    if workers > 1:
        import multiprocessing

        context = multiprocessing.get_context("spawn")  # fresh interpreters: safe with threads
        pool = ProcessPoolExecutor(workers, mp_context=context)
    else:
        pool = ThreadPoolExecutor(max(1, threads))
    with pool:
        futures = {pool.submit(func, s, c): i for i, (s, c) in enumerate(parts)}
        results: dict[int, T] = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            if progress:
                progress(parts[futures[future]][1])
    return [results[i] for i in range(len(parts))]


DASK_CONNECT_SECONDS = 15.0
"""How long a Dask scheduler has to answer (a server that is not Dask may say nothing)."""


def _connect(client_type: Any, scheduler: str) -> Any:
    """A Dask client of ``scheduler``, or a `SimulationError` in one line.

    The connection is made on a thread given `DASK_CONNECT_SECONDS`: an address that is
    not a scheduler's either never answers Dask's handshake or answers something else
    (an HTTP server's bytes read as a frame's length asked for exbibytes).
    """
    found: dict[str, Any] = {}

    def connect() -> None:
        try:
            found["client"] = client_type(scheduler, timeout=min(5.0, DASK_CONNECT_SECONDS))
        except BaseException as error:  # reported below, in one line
            found["error"] = error

    thread = threading.Thread(target=connect, name="baccara-dask-connect", daemon=True)
    thread.start()
    thread.join(DASK_CONNECT_SECONDS)
    if thread.is_alive():
        raise SimulationError(
            f"no Dask scheduler answered at {scheduler!r} in {DASK_CONNECT_SECONDS:g} s: "
            "give a scheduler's address (tcp://HOST:8786) or 'local'"
        )
    error = found.get("error")
    if isinstance(error, OSError | TimeoutError):
        raise SimulationError(f"cannot reach Dask scheduler {scheduler!r}: {error}")
    if isinstance(error, ValueError) and not isinstance(error, MemoryError):
        raise SimulationError(f"bad Dask scheduler address {scheduler!r}: {error}")
    if error is not None:
        raise SimulationError(
            f"{scheduler!r} is not a Dask scheduler (it answered what Dask cannot read: "
            f"{type(error).__name__}): give a scheduler's address (tcp://HOST:8786) or 'local'"
        )
    return found["client"]


def _on_dask(
    func: Callable[[int, int], T],
    parts: Sequence[tuple[int, int]],
    scheduler: str,
    workers: int,
    progress: Progress | None,
) -> list[T]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError as error:  # pragma: no cover - an optional extra
        raise SimulationError("--scheduler needs Dask: pip install 'baccara[dist]'") from error
    client_type, as_completed = distributed.Client, distributed.as_completed
    cluster = None
    if scheduler == "local":
        # BACCARA_DASK_PROCESSES=0 keeps the workers as threads of this process (tests)
        processes = os.environ.get("BACCARA_DASK_PROCESSES", "1") != "0"
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            dashboard_address=None,
        )
        client = client_type(cluster)
    else:
        client = _connect(client_type, scheduler)
    try:
        futures = [client.submit(func, s, c, pure=False) for s, c in parts]
        index = {future.key: i for i, future in enumerate(futures)}
        results: dict[int, T] = {}
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            if progress:
                progress(parts[index[future.key]][1])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return [results[i] for i in range(len(parts))]
