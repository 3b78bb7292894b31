"""The Learn section as data: lessons, dictionary, FAQs, tips and each variant's page,
with every figure computed here by the exact engine and the solver, never typed in.

`learn_book` builds it once (a second or two: the engines' kernels load) and keeps it;
the server sends it as JSON.

>>> book = learn_book()
>>> [v["name"] for v in book["variants"]][:3]
['punto-banco', 'tie-9', 'commission-4']
>>> book["variants"][0]["bets"][1]["label"], book["variants"][0]["bets"][1]["edge"]
('Banker', '1.06%')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from baccara.bets import BetKind, bets_for, describe_pays
from baccara.cards import RANKS
from baccara.learn import glossary, lessons
from baccara.rules import is_natural
from baccara.shoe import MAX_DECKS
from baccara.table.events import TableSettings
from baccara.variants import VARIANTS, Family, Variant, find_variant

__all__ = ["Figures", "figures", "learn_book"]

DECKS = (1, 2, 4, 6, 8)
"""The deck counts the tips compare."""


def pct(value: float | Fraction, digits: int = 2) -> str:
    """A house edge as people read it: ``'1.06%'``.

    >>> pct(Fraction(1, 80)), pct(0.0123456, 3)
    ('1.25%', '1.235%')
    """
    return f"{100 * float(value):.{digits}f}%"


@dataclass(frozen=True, slots=True)
class Figures:
    """What the engines say, for the pages: edges by variant and bet, the Punto Banco
    edges by deck count, and the players' games' equilibria."""

    edges: dict[str, dict[str, float]]  # variant name -> bet kind -> house edge
    by_decks: dict[int, dict[str, float]]  # decks -> main bet -> edge (Punto Banco)
    tie_probability: float
    banker_removal: float  # the largest effect of removing one card on the Banker's edge
    chemin: dict[str, Any]  # solve_chemin("kemeny-snell").to_json()
    banque: dict[str, Any]  # solve_banque().to_json()


@cache
def figures() -> Figures:
    """Compute every figure once (the exact engine for each house game, the solver for
    the players' games)."""
    from baccara.exact.odds import full_shoe, odds
    from baccara.exact.removal import effects_of_removal
    from baccara.skill.solver.banque import solve_banque
    from baccara.skill.solver.chemin import solve_chemin

    edges = {}
    for variant in VARIANTS.values():
        if variant.family is Family.PUNTO_BANCO:
            found = odds(full_shoe(variant.decks), variant).edges
            edges[variant.name] = {kind: float(edge) for kind, edge in found.items()}
    main = ("player", "banker", "tie")
    punto = find_variant("punto-banco")
    by_decks = {
        d: {k: float(v) for k, v in odds(full_shoe(d), punto).edges.items() if k in main}
        for d in DECKS
    }
    tie = float(odds(full_shoe(8), punto).probabilities["tie"])
    removal = max(abs(x) for x in effects_of_removal(8, punto).edges["banker"])
    return Figures(
        edges=edges,
        by_decks=by_decks,
        tie_probability=tie,
        banker_removal=float(removal),
        chemin=solve_chemin("kemeny-snell").to_json(),
        banque=solve_banque().to_json(),
    )


def _chemin_words(found: Figures) -> str:
    return (
        f"With cards dealt as if replaced (the Kemeny-Snell model), before the house's "
        f"commission, both sides playing their best: the banker's advantage is "
        f"{pct(found.chemin['value'], 3)} of the punter's stake, and the punter draws on 5 "
        f"with probability {found.chemin['player_draw_on_5']:.4f}; when both follow the "
        f"house tableau it is {pct(found.chemin['house_value'], 3)}."
    )


def _banque_words(found: Figures) -> str:
    return (
        f"Cards dealt as if replaced, both sides at their best: the banker's advantage is "
        f"{pct(found.banque['value'], 3)} of the stakes, and each punter draws on 5 with "
        f"probability {found.banque['player_draw_on_5']:.4f}."
    )


_SOLVER_WORDS: dict[Family, Callable[[Figures], str]] = {
    Family.CHEMIN_DE_FER: _chemin_words,
    Family.BANQUE: _banque_words,
}
"""What the solver says of each players' game (a game without it: no such paragraph)."""


def _variant_page(variant: Variant, found: Figures) -> dict[str, Any]:
    page: dict[str, Any] = {
        "name": variant.name,
        "title": variant.title,
        "family": variant.family.value,
        "description": variant.description,
        "decks": variant.decks,
        "seats": variant.seats,
    }
    if variant.family is Family.PUNTO_BANCO:
        edges = found.edges[variant.name]
        page["bets"] = [
            {
                "kind": kind.value,
                "label": kind.label,
                "pays": describe_pays(kind, variant),
                "edge": pct(edges[kind.value]),
                "main": kind in (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE),
            }
            for kind in bets_for(variant)
        ]
    elif (words := _SOLVER_WORDS.get(variant.family)) is not None:
        page["solver"] = words(found)
    return page


def _tips(found: Figures) -> list[str]:
    pb, e = found.edges["punto-banco"], found.edges
    punto = find_variant("punto-banco")
    tie, tie9 = describe_pays(BetKind.TIE, punto), describe_pays(BetKind.TIE, find_variant("tie-9"))
    four = find_variant("commission-4").commission
    sides = {k: v for k, v in pb.items() if k not in ("player", "banker", "tie")}
    cheapest, dearest = min(sides, key=sides.__getitem__), max(sides, key=sides.__getitem__)
    label = {kind.value: kind.label for kind in BetKind}
    decks = found.by_decks
    return [
        f"The Banker bet is the best at the table: the house keeps {pct(pb['banker'])} of "
        f"it, commission paid, against {pct(pb['player'])} of a Player bet "
        f"({punto.decks} decks). Some pages swap the two figures: the Banker wins more "
        f"often, so it is the cheaper bet even after the {pct(punto.commission, 0)}.",
        f"The Tie pays {tie} but comes only {pct(found.tie_probability)} of the time: the "
        f"house keeps {pct(pb['tie'])} of every Tie bet. At {tie9} it still keeps "
        f"{pct(e['tie-9']['tie'])}.",
        "The number of decks barely matters: the Banker's edge is "
        + ", ".join(f"{pct(decks[d]['banker'], 3)} with {d}" for d in DECKS)
        + " decks.",
        f"No-commission tables take their cut elsewhere: Super 6's Banker bet costs "
        f"{pct(e['super6']['banker'])}, EZ Baccarat's {pct(e['ez']['banker'])}, a "
        f"{pct(four, 0)} commission {pct(e['commission-4']['banker'])}.",
        f"Side bets pay more and cost more: from {label[cheapest]} at "
        f"{pct(sides[cheapest])} to {label[dearest]} at {pct(sides[dearest])} here.",
        "The roads record the shoe; they do not predict it. Each coup depends only on the "
        f"cards left in the shoe, and removing one card from {punto.decks} decks moves the "
        f"Banker's edge by at most {pct(found.banker_removal, 4)} (baccara eor).",
        f"In Chemin de Fer the punter's only choice is on 5: at the equilibrium he draws "
        f"{found.chemin['player_draw_on_5']:.0%} of the time, and the banker keeps "
        f"{pct(found.chemin['value'])} of what is staked against him, before the commission.",
    ]


def _faqs(found: Figures) -> list[dict[str, str]]:
    pb = found.edges["punto-banco"]
    grande, petite = (
        max(t for t in range(10) if is_natural(t)),
        min(t for t in range(10) if is_natural(t)),
    )
    punto, mini = find_variant("punto-banco"), find_variant("mini")
    return [
        {
            "q": "What is the object of baccarat?",
            "a": "To bet on the hand that ends closer to 9, Player or Banker, or on a tie. "
            "The cards are dealt by fixed rules: in Punto Banco nobody chooses.",
        },
        {
            "q": "Which bet is best?",
            "a": f"The Banker: {pct(pb['banker'])} house edge, then the Player "
            f"{pct(pb['player'])}; the Tie keeps {pct(pb['tie'])}.",
        },
        {
            "q": "Why does the Banker bet pay a commission?",
            "a": "Because the Banker hand draws after the Player and by a finer rule, it wins "
            f"a little more often; without the {pct(punto.commission, 0)} it would favour "
            "the bettor.",
        },
        {
            "q": "What happens to my Player or Banker bet on a tie?",
            "a": "It pushes: it neither wins nor loses, and "
            + (
                "it stays on the layout for the next coup."
                if TableSettings().pushes_stay  # the house rule of this project's tables
                else "the stake comes back to you (some casinos leave it on the layout "
                "for the next coup)."
            ),
        },
        {
            "q": "Is a natural 9 better than a natural 8?",
            "a": f"Yes: la grande ({grande}) beats la petite ({petite}); two equal naturals tie.",
        },
        {
            "q": "Do the roads help to win?",
            "a": "No. They are a record of the shoe's results; every coup's odds depend only "
            "on the cards left, which the roads do not show.",
        },
        {
            "q": "Can I check that a shoe was fair?",
            "a": "Yes: each shoe's hash is shown before its first coup; when the shoe ends its "
            "record can be downloaded and checked with baccara verify.",
        },
        {
            "q": "How many decks, how many players?",
            "a": f"One to {MAX_DECKS} decks ({punto.decks} here, and online mostly); up to "
            f"{punto.seats} seats at a big table, {mini.seats} at mini-baccarat. Here players "
            "beyond the seats bet behind them.",
        },
    ]


@cache
def learn_book() -> dict[str, Any]:
    """Everything the Learn section shows, JSON-ready, computed once."""
    found = figures()
    return {
        "ranks": [rank.value for rank in RANKS],  # the card notation's ranks, ace first
        "how_it_works": lessons.how_it_works(),
        "tableau": lessons.tableau_lines(),
        "history": lessons.history(),
        "terms": [
            {"name": t.name, "text": t.text, "also": list(t.also), "see": list(t.see)}
            for t in glossary.TERMS
        ],
        "faqs": _faqs(found),
        "tips": _tips(found),
        "variants": [_variant_page(v, found) for v in VARIANTS.values()],
    }
