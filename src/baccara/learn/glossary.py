"""The game's words, each explained once: the Learn section's dictionary.

>>> lookup("La Grande").name
'la grande'
>>> lookup("big eye").name
'big eye boy'
>>> lookup("cagnote")
Traceback (most recent call last):
...
baccara.learn.glossary.UnknownTerm: no term 'cagnote' in the dictionary: did you mean cagnotte?
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from baccara.bets import BetKind, describe_pays
from baccara.rules import is_natural
from baccara.shoe import ShoeSettings
from baccara.variants import find_variant

__all__ = ["TERMS", "Term", "UnknownTerm", "lookup"]

# the rulebook's numbers, never typed here
_NATURALS = " or ".join(str(t) for t in range(10) if is_natural(t))
_TEN_BURNS = ShoeSettings().ten_burns
_COMMISSION = f"{float(find_variant('punto-banco').commission):.0%}"
_COMMISSION_4 = f"{float(find_variant('commission-4').commission):.0%}"
_MINI_SEATS = find_variant("mini").seats
_SUPER6_BANKER = describe_pays(BetKind.BANKER, find_variant("super6"))


class UnknownTerm(LookupError):
    """A term the dictionary does not have; the message suggests the nearest ones."""


@dataclass(frozen=True, slots=True)
class Term:
    """One entry: its name (lower case), the words it is also called, what it means."""

    name: str
    text: str
    also: tuple[str, ...] = ()
    see: tuple[str, ...] = ()


TERMS: tuple[Term, ...] = (
    Term(
        "baccarat",
        "The game, and also its worst hand: a total of 0 (from the Italian "
        "baccara, zero). A hand of 4 and 6 is baccarat.",
        ("baccara",),
    ),
    Term(
        "punto banco",
        "The casino's baccarat: the house banks every coup, the two hands "
        "are dealt by fixed rules (the tableau), and the players only choose what to bet on. "
        "Punto is the Player's hand, banco the Banker's.",
        ("north american baccarat",),
        ("tableau", "player", "banker"),
    ),
    Term(
        "chemin de fer",
        "Baccarat between players: one of them holds the bank against the "
        "others, the bank passes round the table (the 'railway') when the banker loses, and "
        "both sides have a few choices of their own.",
        ("chemmy",),
        ("banco", "cagnotte"),
    ),
    Term(
        "baccarat banque",
        "Baccarat between players where the bank is auctioned and kept "
        "for the whole shoe; the banker plays against two tableaux, a hand on each side.",
        ("banque",),
        ("auction",),
    ),
    Term(
        "player",
        "One of the two hands, dealt first; not the customer. Anybody may bet on it.",
        ("punto",),
        ("banker",),
    ),
    Term(
        "banker",
        "The other hand, dealt second; not the house. In Punto Banco anybody "
        "may bet on it; in Chemin de Fer and Banque it is the hand of the player holding "
        "the bank.",
        ("banco hand",),
        ("player", "commission"),
    ),
    Term(
        "tie",
        "Both hands end on the same total. A tie bet wins; Player and Banker bets "
        "push: the stake comes back.",
        ("egalite",),
        ("push",),
    ),
    Term("push", "A bet that neither wins nor loses: the stake comes back."),
    Term(
        "natural",
        f"A total of {_NATURALS} on the first two cards. A natural ends the coup: "
        "nobody draws, and the higher total wins.",
        (),
        ("la grande", "la petite"),
    ),
    Term("la grande", "A natural 9, the best hand.", ("le grand",), ("natural",)),
    Term("la petite", "A natural 8.", ("le petit",), ("natural",)),
    Term(
        "coup",
        "One round: the bets, the deal of the two hands, the result and the payments.",
        ("hand", "round"),
    ),
    Term(
        "tableau",
        "The table of rules that says when each hand draws a third card. In "
        "Punto Banco nobody chooses: the croupier follows it.",
        ("third card rules",),
        ("natural", "stand", "draw"),
    ),
    Term(
        "draw",
        "Take a third card, as the tableau says (or, in the players' games, as "
        "the player chooses where the rules leave a choice).",
        ("third card",),
        ("stand", "tableau"),
    ),
    Term("stand", "Take no third card.", ("stand pat",), ("draw",)),
    Term(
        "shoe",
        "The box the cards are dealt from: one to eight decks shuffled together, "
        "and the series of coups dealt from them.",
        (),
        ("cut card", "burn"),
    ),
    Term(
        "burn",
        "At the start of a shoe the croupier turns the first card and discards as "
        f"many cards as its value ({_TEN_BURNS} for a ten or face), unseen.",
        ("burn cards",),
        ("shoe",),
    ),
    Term(
        "cut card",
        "A plastic card placed near the end of the shoe; when it comes out "
        "the coup is finished and one more is dealt, then the shoe is over.",
        ("yellow card",),
        ("shoe",),
    ),
    Term(
        "croupier",
        "The dealer: deals the cards, announces the totals ('seven to the "
        "Player, five to the Banker'), collects and pays the bets.",
        ("dealer",),
    ),
    Term(
        "commission",
        f"The house's share of a winning Banker bet, usually {_COMMISSION} (some tables "
        f"{_COMMISSION_4}); what keeps the Banker bet from favouring the player.",
        ("vigorish", "vig"),
        ("banker", "super 6", "ez baccarat"),
    ),
    Term(
        "squeeze",
        "Peeling a face-down card slowly from a corner to build suspense; at a "
        "squeeze table the player with the biggest stake on a hand turns its cards.",
        ("peek",),
    ),
    Term(
        "side bet",
        "A bet beside the main three: pairs, Dragon Bonus, Dragon 7, Panda 8, "
        "Big and Small, Lucky 6 and others. Each pays more and costs more.",
        ("side bets",),
        ("house edge",),
    ),
    Term(
        "house edge",
        "What a bet loses on average, per unit staked: the casino's "
        "advantage. The exact engine computes it for any shoe.",
        ("edge",),
        ("effect of removal",),
    ),
    Term(
        "effect of removal",
        "How much a bet's house edge moves when one card of a value "
        "leaves the shoe: the basis of card counting.",
        ("eor",),
        ("house edge",),
    ),
    Term(
        "mini-baccarat",
        f"Punto Banco at a small table, {_MINI_SEATS} seats, one croupier, fast coups and "
        "low limits.",
        ("mini baccarat", "mini"),
    ),
    Term(
        "ez baccarat",
        "Punto Banco with no commission: a Banker win on three cards "
        "totalling 7 pushes instead; Dragon 7 and Panda 8 are its side bets.",
        ("ez", "easy baccarat"),
        ("dragon 7", "panda 8"),
    ),
    Term(
        "super 6",
        f"No-commission Punto Banco: the Banker bet pays {_SUPER6_BANKER}.",
        ("punto 2000", "no-commission baccarat"),
        ("commission",),
    ),
    Term(
        "dragon 7",
        "An EZ Baccarat side bet: the Banker wins with three cards totalling 7.",
        (),
        ("ez baccarat",),
    ),
    Term(
        "panda 8",
        "An EZ Baccarat side bet: the Player wins with three cards totalling 8.",
        (),
        ("ez baccarat",),
    ),
    Term(
        "punter",
        "In Chemin de Fer and Banque, a player betting against the bank.",
        (),
        ("banco", "banker"),
    ),
    Term(
        "banco",
        "In Chemin de Fer, a punter's call to play the whole bank alone, one against the banker.",
        (),
        ("banco suivi", "punter"),
    ),
    Term(
        "banco suivi",
        "The right of a punter who lost a banco to call banco again first on the next coup.",
        ("suivi",),
        ("banco",),
    ),
    Term(
        "cagnotte",
        "The house's box for its commission on the banker's winnings in "
        "Chemin de Fer (and the commission itself).",
        (),
        ("commission",),
    ),
    Term(
        "auction",
        "In Baccarat Banque the bank goes to whoever will put up the most money for it.",
        ("bidding",),
        ("baccarat banque",),
    ),
    Term(
        "bead plate",
        "The road that writes each coup's result in a cell, column by column, six to a column.",
        ("bead road",),
        ("roads",),
    ),
    Term(
        "big road",
        "The main road: a column for each run of Banker or Player wins, ties "
        "marked on the last win.",
        (),
        ("roads",),
    ),
    Term(
        "big eye boy",
        "A derived road: red when the Big Road repeats its pattern one "
        "column back, blue when it breaks it.",
        ("big eye",),
        ("roads",),
    ),
    Term(
        "small road", "A derived road like Big Eye Boy, comparing two columns back.", (), ("roads",)
    ),
    Term(
        "cockroach pig",
        "A derived road like Big Eye Boy, comparing three columns back.",
        ("cockroach road",),
        ("roads",),
    ),
    Term(
        "roads",
        "The scoreboards of a shoe's results (Bead Plate, Big Road and the three "
        "derived roads). They record the past; they do not predict the next coup.",
        ("scoreboard", "scoreboards"),
        ("big road", "bead plate"),
    ),
    Term(
        "provably fair",
        "A shoe whose order is committed to (its hash published) before "
        "the first coup and revealed at the end, so anyone can check it was not changed.",
        (),
        ("shoe",),
    ),
)
"""The dictionary, in the order the Learn page lists it."""

_INDEX = {name: term for term in TERMS for name in (term.name, *term.also)}


def lookup(name: str) -> Term:
    """The term ``name`` (any case, its other names too), or `UnknownTerm`."""
    key = " ".join(name.lower().replace("_", " ").split())
    if key in _INDEX:
        return _INDEX[key]
    near = difflib.get_close_matches(key, [term.name for term in TERMS], n=3, cutoff=0.6)
    hint = f": did you mean {' or '.join(near)}?" if near else ": see the dictionary's list"
    raise UnknownTerm(f"no term {name[:40]!r} in the dictionary{hint}")
