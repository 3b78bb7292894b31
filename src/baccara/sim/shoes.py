"""Single simulated shoes, card by card: what the compiled loop dealt, as coups.

Shoe ``index`` of the series ``seed`` is ``Shoe.shuffled(settings, seed=seed,
index=index)``: the compiled loop shuffles bit for bit as `baccara.shoe` does, and
deals as `baccara.coup.deal_shoe` does.
"""

from __future__ import annotations

from baccara.coup import Coup
from baccara.shoe import Shoe, ShoeSettings
from baccara.sim import _kernels as kernels
from baccara.sim.simulation import entropy_words, kernel_shoes

__all__ = ["keyed_coups", "shoe_coups", "simulated_shoe"]


def simulated_shoe(seed: int, index: int, settings: ShoeSettings | None = None) -> Shoe:
    """Shoe ``index`` of the series ``seed`` as the simulator deals it: `Shoe.shuffled`'s.

    ``deal_shoe`` on it gives the coups the compiled loop dealt.

    >>> simulated_shoe(5, 3).cards == Shoe.shuffled(ShoeSettings(), seed=5, index=3).cards
    True
    """
    entropy_words(seed)  # the simulator's seeds: 0 to 2**128 - 1
    return Shoe.shuffled(settings or ShoeSettings(), seed=seed, index=index)


def shoe_coups(
    seed: int, start: int, count: int, settings: ShoeSettings | None = None
) -> list[list[Coup]]:
    """The coups of shoes ``start .. start + count - 1``, as the compiled loop deals them.

    >>> [len(coups) for coups in shoe_coups(1, 0, 3)]
    [83, 83, 80]
    """
    return [[coup for coup, _ in shoe] for shoe in keyed_coups(seed, start, count, settings)]


def keyed_coups(
    seed: int, start: int, count: int, settings: ShoeSettings | None = None
) -> list[list[tuple[Coup, int]]]:
    """`shoe_coups` with each coup's key (what every bet pays depends only on it)."""
    settings = settings or ShoeSettings()
    codes, keys, per_shoe = kernels.deal_cards(*kernel_shoes(seed, start, count, settings))
    cards = kernels.CARDS
    out: list[list[tuple[Coup, int]]] = []
    row = 0
    all_keys = keys.tolist()
    for n in per_shoe.tolist():
        shoe = []
        for i, (p1, b1, p2, b2, p3, b3) in enumerate(codes[row : row + n].tolist()):
            player = (cards[p1], cards[p2]) if p3 < 0 else (cards[p1], cards[p2], cards[p3])
            banker = (cards[b1], cards[b2]) if b3 < 0 else (cards[b1], cards[b2], cards[b3])
            shoe.append((Coup(player=player, banker=banker), all_keys[row + i]))
        out.append(shoe)
        row += n
    return out
