"""Drills: the tableau trainer, the payout trainer and the shoe trainer, from the one
rulebook (`baccara.rules`, `baccara.bets`) and the exact engine.

A question is made from its cell (what it asks) and a seed (the cards and amounts
around it), so the same ``(cell, seed)`` is the same question anywhere: the server
asks it, keeps it as the one awaiting an answer, and grades it again from its id.
The tableau trainer picks cells by the learner's score: a cell missed comes back
more often (`pick_cell`).

>>> q = tableau_question("B:3:8", 7)
>>> q.side, q.third, grade_tableau(q.cell, "stand")
('banker', '8c', (True, "Banker has 3 and the Player's third card is an 8: Banker stands on 3-7 against an 8."))
>>> p = payout_question("super6:banker", 11)
>>> p.prompt.startswith("Banker")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from baccara import rules
from baccara.bets import BetKind, bets_for, describe_pays, settle
from baccara.cards import Card, hand_total
from baccara.coup import Coup, deal_coup, deal_shoe
from baccara.money import format_money
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import find_variant

__all__ = [
    "PAYOUT_CELLS",
    "TABLEAU_CELLS",
    "DrillError",
    "PayoutQuestion",
    "TableauQuestion",
    "cell_words",
    "grade_payout",
    "grade_tableau",
    "payout_question",
    "pick_cell",
    "shoe_steps",
    "tableau_question",
]

RANKS_BY_POINTS = ("TJQK", "A", "2", "3", "4", "5", "6", "7", "8", "9")
SUITS = "shdc"


class DrillError(ValueError):
    """A question or an answer that makes no sense; the message says why."""


TABLEAU_CELLS: tuple[str, ...] = (
    *(f"P:{p}" for p in range(8)),
    *(f"B:{b}:none" for b in range(8)),
    *(f"B:{b}:{t}" for b in range(8) for t in range(10)),
)
"""Every decision of the tableau: the Player on 0-7; the Banker on 0-7 when the Player
stood, and against each third card when it drew."""


def pick_cell(
    cells: tuple[str, ...], score: Mapping[str, tuple[int, int]], rng: random.Random
) -> str:
    """A cell to ask: first its group (the Player's rule, the Banker's when the Player
    stood, the Banker's against a third card; or a pay table), each as likely as the
    others, then a cell of it weighted 1 + 3 x
    its misses - its right answers (at least 1): what a learner misses comes back more
    often, until answered right enough. (Cells drawn alike asked the Banker 11 times
    in 12: the tableau has 88 Banker cells and 8 Player ones.)

    >>> rng = random.Random(1)
    >>> picks = [pick_cell(("P:1", "P:2"), {"P:1": (5, 5)}, rng) for _ in range(1000)]
    >>> picks.count("P:1") > 3 * picks.count("P:2")
    True
    >>> asked = [pick_cell(TABLEAU_CELLS, {}, rng)[0] for _ in range(3000)]
    >>> 900 < asked.count("P") < 1100  # a third: the Player's rule is a group of three
    True
    """
    groups: dict[str, list[str]] = {}
    for cell in cells:
        groups.setdefault(_group(cell), []).append(cell)
    group = groups[rng.choice(sorted(groups))]
    weights = []
    for cell in group:
        seen, missed = score.get(cell, (0, 0))
        weights.append(max(1, 1 + 3 * missed - (seen - missed)))
    return rng.choices(group, weights)[0]


def _group(cell: str) -> str:
    parts = cell.split(":")
    return parts[0] + (":none" if parts[-1] == "none" else "")


def cell_words(cell: str) -> str:
    """A drill's cell as people read it.

    >>> cell_words("P:5"), cell_words("B:5:none"), cell_words("B:3:8")
    ('Player on 5', 'Banker on 5, the Player stood', 'Banker on 3 against a third card 8')
    >>> cell_words("ez:dragon_7")
    'Dragon 7 at EZ Baccarat'
    """
    parts = cell.split(":")
    if parts[0] == "P" and len(parts) == 2:
        return f"Player on {parts[1]}"
    if parts[0] == "B" and len(parts) == 3:
        against = "the Player stood" if parts[2] == "none" else f"against a third card {parts[2]}"
        return f"Banker on {parts[1]}" + (", " if parts[2] == "none" else " ") + against
    try:
        return f"{BetKind(parts[1]).label} at {find_variant(parts[0]).title}"
    except (IndexError, ValueError, LookupError):  # a cell stored by an older version
        return cell


def _cards(rng: random.Random, total: int) -> list[Card]:
    """Two cards making ``total``, any ranks and suits."""
    first = rng.randrange(10)
    second = (total - first) % 10
    return [Card.parse(rng.choice(RANKS_BY_POINTS[v]) + rng.choice(SUITS)) for v in (first, second)]


@dataclass(frozen=True, slots=True)
class TableauQuestion:
    """Two hands (and the Player's third card): does ``side`` draw?"""

    cell: str
    seed: int
    side: str  # "player" or "banker"
    player: list[str]
    banker: list[str]
    third: str | None

    @property
    def prompt(self) -> str:
        hand = "Player" if self.side == "player" else "Banker"
        return f"{hand}: draw or stand?"


def tableau_question(cell: str, seed: int) -> TableauQuestion:
    """The question of ``cell`` (one of `TABLEAU_CELLS`) dealt with ``seed``."""
    if cell not in TABLEAU_CELLS:
        raise DrillError(f"no tableau question {cell[:20]!r}")
    rng = random.Random(seed)
    parts = cell.split(":")
    if parts[0] == "P":
        player = _cards(rng, int(parts[1]))
        banker = _cards(rng, rng.randrange(8))
        return TableauQuestion(cell, seed, "player", _str(player), _str(banker), None)
    banker = _cards(rng, int(parts[1]))
    if parts[2] == "none":
        player = _cards(rng, rng.choice((6, 7)))
        third = None
    else:
        player = _cards(rng, rng.randrange(6))
        third = rng.choice(RANKS_BY_POINTS[int(parts[2])]) + rng.choice(SUITS)
    return TableauQuestion(cell, seed, "banker", _str(player), _str(banker), third)


def _str(cards: list[Card]) -> list[str]:
    return [str(card) for card in cards]


def grade_tableau(cell: str, answer: str) -> tuple[bool, str]:
    """Whether ``answer`` (``"draw"`` or ``"stand"``) is the tableau's, and its reason."""
    if answer not in ("draw", "stand"):
        raise DrillError(f"answer draw or stand, not {answer[:20]!r}")
    if cell not in TABLEAU_CELLS:
        raise DrillError(f"no tableau question {cell[:20]!r}")
    parts = cell.split(":")
    if parts[0] == "P":
        decision = rules.player_decision(int(parts[1]))
    else:
        third = None if parts[2] == "none" else int(parts[2])
        decision = rules.banker_decision(int(parts[1]), third)
    return decision.draws == (answer == "draw"), decision.reason


# -- payouts ----------------------------------------------------------------------------------

PAYOUT_VARIANTS = ("punto-banco", "commission-4", "tie-9", "super6", "ez")
PAYOUT_CELLS: tuple[str, ...] = tuple(
    f"{name}:{kind.value}" for name in PAYOUT_VARIANTS for kind in bets_for(find_variant(name))
)
"""Every bet of every pay table the trainer asks about, as ``variant:kind``."""
STAKES = (500, 1_000, 2_500, 5_000, 10_000, 2_000, 3_000, 7_500)  # minor units


@dataclass(frozen=True, slots=True)
class PayoutQuestion:
    """A bet, its stake and a coup: what goes back to the bettor, stake included?"""

    cell: str
    seed: int
    variant: str
    title: str
    kind: str
    label: str
    pays: str
    stake: int
    coup: str
    announcement: str

    @property
    def prompt(self) -> str:
        return (
            f"{self.label} {format_money(self.stake)} at {self.title}; it pays {self.pays}. "
            f"{self.announcement} What goes back to the bettor, stake included?"
        )


def payout_question(cell: str, seed: int) -> PayoutQuestion:
    """The question of ``cell`` (``variant:kind``) with a coup and a stake from ``seed``;
    a coup the bet wins comes up half the time (what is asked is mostly how much)."""
    if cell not in PAYOUT_CELLS:
        raise DrillError(f"no payout question {cell[:40]!r}")
    name, kind_name = cell.split(":")
    variant, kind = find_variant(name), BetKind(kind_name)
    rng = random.Random(seed)
    settings = ShoeSettings(decks=variant.decks, burn=False)
    shoe = Shoe.shuffled(settings, seed=seed)
    coup = deal_coup(shoe)
    want_win = rng.random() < 0.5
    for _ in range(400):  # a few hundred coups find any bet's win
        if (settle(kind, 100, coup, variant).net > 0) == want_win:
            break
        if shoe.finished:  # the cut card came: the seed's next shoe
            shoe = Shoe.shuffled(settings, seed=seed, index=shoe.index + 1)
        coup = deal_coup(shoe)
    return PayoutQuestion(
        cell, seed, name, variant.title, kind.value, kind.label, describe_pays(kind, variant),
        rng.choice(STAKES), coup.notation(), coup.announcement(),
    )  # fmt: skip


def grade_payout(cell: str, seed: int, answer: int) -> tuple[bool, int, str]:
    """Whether ``answer`` (minor units) is what goes back; the right amount; why."""
    question = payout_question(cell, seed)
    variant = find_variant(question.variant)
    settled = settle(BetKind(question.kind), question.stake, Coup.parse(question.coup), variant)
    if settled.net > 0:
        kept = f", {format_money(settled.commission)} commission kept" if settled.commission else ""
        what = f"the stake back and {format_money(settled.net)} won{kept}"
    elif settled.net == 0:
        what = "a push: the stake comes back"
    else:
        what = "the bet loses: nothing comes back"
    why = f"{question.label} pays {question.pays}; {what}. In all {format_money(settled.returned)}."
    return answer == settled.returned, settled.returned, why


# -- the shoe ---------------------------------------------------------------------------------


def shoe_steps(seed: int, upto: int, decks: int = 8) -> dict[str, Any]:
    """Shoe ``seed`` dealt coup by coup up to coup ``upto``, with the exact odds of the
    cards not yet seen after each (the burned cards are unseen: they count as left)."""
    from baccara.exact.odds import full_shoe, odds, remove_cards

    if not 0 <= seed < 2**63:
        raise DrillError(f"bad seed {seed}: 0 to 2**63 - 1")
    coups = list(deal_shoe(Shoe.shuffled(ShoeSettings(decks=decks), seed=seed)))
    if not 0 <= upto <= len(coups):
        raise DrillError(f"coup {upto}: this shoe deals 0 to {len(coups)} coups")
    left = full_shoe(decks)
    steps = []
    punto = find_variant("punto-banco")

    def edges() -> dict[str, float]:
        found = odds(left, punto).edges
        return {kind: round(float(found[kind]), 6) for kind in ("banker", "player", "tie")}

    start = edges()
    for coup in coups[:upto]:
        left = remove_cards(left, (*coup.player, *coup.banker))
        steps.append(
            {
                "coup": coup.notation(),
                "winner": coup.winner.word,
                "totals": [hand_total(coup.player), hand_total(coup.banker)],
                "left": sum(left),
                "edges": edges(),
            }
        )
    return {"seed": seed, "decks": decks, "coups": len(coups), "start": start, "steps": steps}
