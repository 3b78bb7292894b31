"""Verify a players' game's record (version 2): deal the shoe again with its decisions.

The shoe is rebuilt from the revealed seed and the seated players' seeds
(`baccara.fair`), burned as its shoe settings say, and every coup is dealt again by the
dealer (`baccara.deal.step` over the house tableau, `tableaux.chance_tableau`; for
Banque its three hands). At each free cell the next recorded decision is taken; it
must be that cell's (hand, total, the punter's third card) and that seat's. A
decision the dealer never asks for (a bound cell of the house tableau) is a fault.
Then the cards must be the recorded ones and the result must follow from them.

`verify` reads either version: a version 1 record goes to `baccara.fair.verify`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from baccara import deal, rules
from baccara.cards import Card, format_cards, hand_total
from baccara.coup import Result
from baccara.fair import (
    DECISIONS_VERSION,
    FairError,
    VerifyResult,
    check_commitment,
    fair_shoe,
    record_version,
)
from baccara.fair import verify as verify_v1
from baccara.shoe import Shoe, ShoeError, ShoeSettings
from baccara.skill import tableaux
from baccara.skill.records import BanqueCoup, CheminCoup, Decision
from baccara.variants import Family

__all__ = ["verify"]

_BANQUE_COUP_CARDS = 9


class _Stop(Exception):
    """The replay cannot go on (the dealer needs a decision the record lacks)."""


def verify(record: Mapping[str, Any]) -> VerifyResult:
    """Check a record of any version; `FairError` for a record that cannot be read.

    >>> verify({"version": 2, "coups": []})
    Traceback (most recent call last):
    ...
    baccara.fair.FairError: bad record: missing server_seed, server_seed_hash, rules, rules_hash
    """
    if record_version(record) != DECISIONS_VERSION:
        return verify_v1(record)
    keys = ("server_seed", "server_seed_hash", "rules", "rules_hash", "coups")
    missing = [key for key in keys if key not in record]
    if missing:
        raise FairError(f"bad record: missing {', '.join(missing)}")
    seeds, coups, document = record.get("client_seeds", []), record["coups"], record["rules"]
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        raise FairError("bad record: client_seeds must be a list of strings")
    if not isinstance(coups, list) or not coups:
        raise FairError("bad record: the record holds no coups")
    if not isinstance(document, Mapping):
        raise FairError("bad record: rules must be an object")
    family, house, free_banker = _game(document)
    read = CheminCoup.from_json if family is Family.CHEMIN_DE_FER else BanqueCoup.from_json
    entries: list[CheminCoup | BanqueCoup] = [read(c) for c in coups]
    server_seed = str(record["server_seed"])
    seed_ok, rules_ok, problems = check_commitment(
        server_seed, str(record["server_seed_hash"]), document, str(record["rules_hash"])
    )
    try:
        shoe = fair_shoe(server_seed, seeds, _shoe_settings(document))
    except ShoeError as error:
        raise FairError(f"bad record: {error}") from None
    first = tuple(str(card) for card in shoe.cards[:8])
    shoe.burn()
    replay = _Replay(shoe, house, free_banker)
    by_coup: list[tuple[int, str]] = []
    for number, entry in enumerate(entries, start=1):
        try:
            found = replay.chemin(entry) if isinstance(entry, CheminCoup) else replay.banque(entry)
        except _Stop as stop:
            by_coup.append((number, str(stop)))
            by_coup.append((number, "the replay stops here"))
            break
        by_coup.extend((number, text) for text in found)
        if replay.out_of_step and number < len(entries):
            by_coup.append((number, "the shoe is out of step from here: later coups not checked"))
            break
    problems.extend(f"coup {number}: {text}" for number, text in by_coup)
    return VerifyResult(
        ok=not problems,
        seed_hash_ok=seed_ok,
        rules_hash_ok=rules_ok,
        coups_checked=len(entries),
        coups_in_shoe=replay.coups,
        problems=tuple(problems),
        first_cards=first,
        coup_problems=tuple(by_coup),
        decisions_checked=replay.decisions,
        family=family.value,
    )


def _game(document: Mapping[str, Any]) -> tuple[Family, tableaux.House, bool]:
    variant = document.get("variant")
    if not isinstance(variant, Mapping):
        raise FairError("bad rules: no 'variant' object")
    try:
        family = Family(str(variant.get("family")))
    except ValueError:
        family = Family.PUNTO_BANCO
    if family not in (Family.CHEMIN_DE_FER, Family.BANQUE):
        raise FairError(
            f"bad record: version {DECISIONS_VERSION} records a players' game "
            f"(family chemin-de-fer or banque), not {variant.get('family')!r}"
        )
    try:
        house = tableaux.House.parse(str(variant.get("house") or "french"))
    except ValueError as error:
        raise FairError(f"bad rules: {error}") from None
    return family, house, bool(variant.get("free_banker", False))


def _shoe_settings(document: Mapping[str, Any]) -> ShoeSettings:
    shoe = document.get("shoe")
    if not isinstance(shoe, Mapping):
        raise FairError("bad rules: no 'shoe' object")
    try:
        return ShoeSettings(
            decks=int(shoe["decks"]),
            cut_card=int(shoe["cut_card"]),
            burn=bool(shoe["burn"]),
            ten_burns=int(shoe.get("ten_burns", 10)),
            ace_burns=int(shoe.get("ace_burns", 1)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise FairError(f"bad shoe settings {dict(shoe)!r}: {error}") from None


def _largest(stakes: Sequence[tuple[int, int]]) -> int | None:
    """The seat that plays for these stakes: the largest, the first placed on a tie."""
    if not stakes:
        return None
    order = {seat: i for i, (seat, _) in enumerate(stakes)}
    return max(order, key=lambda s: (dict(stakes)[s], -order[s]))


def _result(punter: int, banker: int) -> str:
    return (
        Result.PLAYER if punter > banker else Result.BANKER if banker > punter else Result.TIE
    ).value


class _Replay:
    """The shoe being dealt again, coup after coup."""

    def __init__(self, shoe: Shoe, house: tableaux.House, free_banker: bool) -> None:
        self.shoe = shoe
        self.house = house
        self.free_banker = free_banker
        chance = tableaux.chance_tableau(house)
        if free_banker:
            every = ((None,) * (rules.NO_CARD + 1),) * 8
            chance = deal.Tableau.from_rows(player=chance.player[:8], banker=every)
        self.tableau = chance
        self.coups = 0
        self.decisions = 0
        self.unasked: list[Decision] = []
        self.out_of_step = False

    def _draw(self) -> Card:
        try:
            return self.shoe.draw()
        except ShoeError:
            raise _Stop("the shoe runs out of cards") from None

    def _start(self, banque: bool) -> None:
        if self.shoe.finished or (banque and self.shoe.remaining < _BANQUE_COUP_CARDS):
            raise _Stop(f"the shoe was over after coup {self.coups}")
        self.shoe.start_coup()
        self.unasked = []

    def _take(
        self,
        pending: list[Decision],
        hand: str,
        total: int,
        third: int | None,
        seat: int | None,
        chemin: bool,
        problems: list[str],
    ) -> bool:
        """The recorded decision at the dealer's free cell (hand, total); check it."""
        who = {"P": "punter", "B": "banker", "L": "left punter", "R": "right punter"}[hand]
        against = ""
        if chemin and hand == "B":
            against = " against a standing punter" if third is None else f" against a {third}"
        index = next((i for i, d in enumerate(pending) if d.hand == hand), None)
        if index is None:
            raise _Stop(f"the {who} must choose on {total}{against}: no decision recorded")
        decision = pending[index]
        self.unasked.extend(pending[:index])  # decisions of cells the dealer passed by
        del pending[: index + 1]
        self.decisions += 1
        if decision.total != total or (chemin and hand == "B" and decision.third != third):
            problems.append(f"{decision}: the dealer has the {who} on {total}{against}")
        if decision.seat != seat:
            problems.append(f"{decision}: the {who}'s seat is {seat}")
        return decision.draws

    def _bound(self, pending: list[Decision], chemin: bool) -> list[str]:
        """Faults for decisions the dealer never asked for: bound cells."""
        faults = []
        for decision in pending:
            if chemin and decision.hand == "B" and 0 <= decision.total <= 7:
                cell = tableaux.banker_cell(decision.total, decision.third, self.house)
            elif 0 <= decision.total <= 7:
                cell = tableaux.punter_cell(decision.total)
            else:
                faults.append(f"{decision}: no such cell (a natural or a bad total)")
                continue
            rule = {tableaux.Cell.DRAW: "draw", tableaux.Cell.STAND: "stand"}.get(cell, "choose")
            where = f"the {self.house.value} tableau" if chemin else "the rule"
            faults.append(
                f"{decision}: a decision in a bound cell of {where} "
                f"(it says {rule}), or one the dealer never asked for"
            )
        return faults

    def chemin(self, coup: CheminCoup) -> list[str]:
        """Deal one Chemin de Fer coup with its decisions; the problems found."""
        problems: list[str] = []
        expected = _largest(coup.stakes)
        if coup.banco and (len(coup.stakes) != 1 or coup.stakes[0] != (coup.punter, coup.bank)):
            problems.append("a banco is the punter's stake of the whole bank")
        if expected is not None and expected != coup.punter:
            problems.append(f"seat {coup.punter} plays the hand, but seat {expected} staked most")
        if sum(amount for _, amount in coup.stakes) > coup.bank:
            problems.append("the stakes cover more than the bank")
        self._start(banque=False)
        state = deal.DealState()
        cards: dict[deal.Side, list[Card]] = {deal.Side.PLAYER: [], deal.Side.BANKER: []}
        pending = list(coup.decisions)
        while not isinstance(now := deal.step(state, self.tableau), deal.Over):
            if isinstance(now, deal.Choose):
                seat = coup.punter if now.side is deal.Side.PLAYER else coup.banker
                draws = self._take(
                    pending, now.side.value, now.total, now.third, seat, True, problems
                )
                state = state.chose(now.side, draws)
            else:
                card = self._draw()
                cards[now.side].append(card)
                state = state.given(now.side, card.points)
        self.shoe.finish_coup()
        self.coups += 1
        problems.extend(self._bound([*self.unasked, *pending], chemin=True))
        punter, banker = cards[deal.Side.PLAYER], cards[deal.Side.BANKER]
        dealt = f"P:{format_cards(punter)} B:{format_cards(banker)}"
        self.out_of_step = len(punter) + len(banker) != len(coup.punter_cards) + len(
            coup.banker_cards
        )
        if dealt != coup.notation:
            problems.append(
                f"recorded {coup.notation}, the shoe deals {dealt} with these decisions"
            )
        result = _result(hand_total(coup.punter_cards), hand_total(coup.banker_cards))
        if coup.result != result:
            problems.append(f"recorded result {coup.result!r}, the cards give {result!r}")
        return problems

    def banque(self, coup: BanqueCoup) -> list[str]:
        """Deal one Banque coup with its decisions; the problems found."""
        problems: list[str] = []
        staked = sum(a for _, a in coup.left_stakes) + sum(a for _, a in coup.right_stakes)
        if staked > coup.bank:
            problems.append("the stakes cover more than the bank")
        players = {"L": _largest(coup.left_stakes), "R": _largest(coup.right_stakes)}
        self._start(banque=True)
        hands: dict[str, list[Card]] = {"L": [], "R": [], "B": []}
        for _ in range(2):
            for name in "LRB":
                hands[name].append(self._draw())
        pending = list(coup.decisions)
        banker_natural = rules.is_natural(hand_total(hands["B"]))
        live = [
            n for n in "LR" if not banker_natural and not rules.is_natural(hand_total(hands[n]))
        ]
        for name in live:
            total = hand_total(hands[name])
            if tableaux.punter_cell(total) is tableaux.Cell.FREE and players[name] is not None:
                draws = self._take(pending, name, total, None, players[name], False, problems)
            else:
                draws = tableaux.house_punter_draws(total)
            if draws:
                hands[name].append(self._draw())
        if live:
            total = hand_total(hands["B"])
            if self._take(pending, "B", total, None, coup.banker, False, problems):
                hands["B"].append(self._draw())
        self.shoe.finish_coup()
        self.coups += 1
        problems.extend(self._bound([*self.unasked, *pending], chemin=False))
        dealt = " ".join(f"{n}:{format_cards(hands[n])}" for n in "LRB")
        recorded = (coup.left_cards, coup.right_cards, coup.banker_cards)
        self.out_of_step = sum(map(len, hands.values())) != sum(map(len, recorded))
        if dealt != coup.notation:
            problems.append(
                f"recorded {coup.notation}, the shoe deals {dealt} with these decisions"
            )
        results = {  # a natural settles at once, against the banker's first two cards
            name: _result(
                hand_total(cards),
                hand_total(coup.banker_cards[:2] if name not in live else coup.banker_cards),
            )
            for name, cards in (("L", coup.left_cards), ("R", coup.right_cards))
        }
        if dict(coup.result) != results:
            problems.append(f"recorded result {dict(coup.result)}, the cards give {results}")
        return problems
