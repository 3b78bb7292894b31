"""Chemin de Fer at the table: the bank, the stakes, banco, and the two sides' choices.

Rules (sources in docs/skill_variants.md): six decks; the seats play in order; the
bank is held by one player, who sets its amount; the punters, in turn from the
banker's next seat, cover part of it or one calls "banco" for the whole of it (a
punter who lost a banco has "banco suivi", the first call on the next coup); the
banco caller, or else the punter with the largest stake, plays the hand. The punter
chooses only on 5 (with ``punter_speaks`` he answers "carte" or "non" in every coup
without a natural, held to the tableau in its bound cells, so that nobody learns his
total from whether he is asked); the banker is bound by the ``tableau``
(`tableaux.House`: ``french``, the default, or ``scarne``) except in its free cells,
or everywhere with ``free_banker``. When the banker wins, his winnings less the
house's commission join the bank and he may keep it or pass it; when he loses, the
bank passes to the next seat.

Every decision is a ``can_...``/``verify_...``/action triplet; each action
returns the immutable events it caused, which are also appended to `log`.

>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> shoe = Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9)
>>> table = CheminTable(names=("Ann", "Bob", "Cy"), bankrolls=(10_000,) * 3, shoe=shoe)
>>> table.phase, table.banker
(<Phase.BANK: 'bank'>, 0)
>>> _ = table.open_bank(1_000)
>>> [type(e).__name__ for e in table.banco(1)]
['BancoCalled', 'Dealt']
>>> table.phase, table.punter_total, table.can_draw(), table.can_stand()
(<Phase.PUNTER: 'punter'>, 5, True, True)
>>> [e.text for e in table.draw()][-1]
'Banker wins 10.00, 0.50 commission to the house: the bank is now 19.50.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from baccara import deal, rules
from baccara.cards import Card, format_cards, hand_total
from baccara.coup import Result
from baccara.money import format_money
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux
from baccara.skill.actions import Act, Action, Legal
from baccara.skill.chemin_events import (
    PHASES,
    BancoCalled,
    BankerDecided,
    BankOpened,
    BankPassed,
    CheminError,
    CheminEvent,
    CheminObservation,
    CoupSettled,
    Dealt,
    NaturalShown,
    Phase,
    PunterDecided,
    SeatChanged,
    StakePlaced,
)
from baccara.skill.game_rules import GameRules, Seating
from baccara.skill.games import PlayersGame, register_game
from baccara.skill.players import PlayersTable, largest_stake, outcome, public_text
from baccara.skill.records import CheminCoup, chemin_coups
from baccara.variants import Family, Variant

__all__ = ["CheminTable"]


_ACTS = frozenset(Act) - {Act.BID, Act.CLOSE_AUCTION, Act.RETIRE}


class CheminTable(PlayersTable[CheminEvent, Phase]):
    """A Chemin de Fer table: seats with bankrolls (minor units), a shoe, the bank."""

    error = CheminError
    game = "Chemin de Fer"
    user = "the Chemin de Fer table"
    family = Family.CHEMIN_DE_FER
    default_variant = "chemin-de-fer"
    phases = PHASES
    no_punter = "the punter chooses only on 5, when it is his turn"
    no_banker = "the banker chooses only in a free cell of the tableau, when it is his turn"
    banker: int

    def __init__(
        self,
        *,
        names: Sequence[str],
        bankrolls: Sequence[int],
        variant: Variant | None = None,
        shoe: Shoe | None = None,
        seed: int | None = None,
        free_banker: bool = False,
        tableau: tableaux.House | str = tableaux.House.FRENCH,
        minimum: int = 100,
        punter_speaks: bool = False,
    ) -> None:
        try:
            self.tableau = tableaux.House.parse(tableau)
        except ValueError as error:
            raise CheminError(str(error)) from None
        self.free_banker = free_banker
        self.drawing = tableaux.chance_tableau(self.tableau, banker_free=free_banker)
        """Who draws when, for the dealer's model (`baccara.deal.step`): free cells None."""
        self.punter_choice: bool | None = None  # what the punter said in the coup
        super().__init__(
            names=names,
            bankrolls=bankrolls,
            variant=variant,
            shoe=shoe,
            seed=seed,
            minimum=minimum,
            punter_speaks=punter_speaks,
        )

    def start(self) -> None:
        """The shoe to the first seat that can hold a bank, to set it."""
        self.banker = 0
        self.phase = Phase.BANK
        self.stakes: dict[int, int] = {}
        self.banco_seat: int | None = None
        self.suivi: int | None = None
        self.player_seat: int | None = None
        self.punter_cards: list[Card] = []
        self._skip_broke()

    def new_shoe(self, seed: int | None) -> Shoe:
        """Six decks (the variant's), shuffled from ``seed``, the first card burnt."""
        shoe = Shoe.shuffled(ShoeSettings(decks=self.variant.decks), seed=seed)
        shoe.burn()
        return shoe

    # -- facts ---------------------------------------------------------------------

    @property
    def covered(self) -> int:
        """The part of the bank the punters cover."""
        return sum(self.stakes.values())

    @property
    def punter_total(self) -> int:
        """The punter's hand total."""
        return hand_total(self.punter_cards)

    @property
    def banker_total(self) -> int:
        """The banker's hand total."""
        return hand_total(self.banker_cards)

    @property
    def punter_third(self) -> int | None:
        """The points of the punter's third card, or None if he stood."""
        return self.punter_cards[2].points if len(self.punter_cards) == 3 else None

    def next_step(self) -> deal.Step:
        """What the dealer's model says comes next in the coup being played: a card to a
        hand, a choice in a free cell, or the end (`baccara.deal.step`)."""
        coup = deal.DealState(
            player=tuple(card.points for card in self.punter_cards),
            banker=tuple(card.points for card in self.banker_cards),
            player_choice=self.punter_choice,
        )
        return deal.step(coup, self.drawing)

    def _bound(self, side: deal.Side) -> bool | None:
        """What the tableau has ``side`` do now: draw (True), stand (False), or None
        where the cell is free. Asked when it is ``side``'s turn."""
        now = self.next_step()
        if isinstance(now, deal.Over) or now.side is not side:
            return False  # the model has gone past it: it stands
        return None if isinstance(now, deal.Choose) else True

    @property
    def actor(self) -> int | None:
        """The seat that must act now (the banker, the punter to speak or to choose)."""
        if self.phase in (Phase.BANK, Phase.AFTER, Phase.BANKER):
            return self.banker
        if self.phase is Phase.PUNTER:
            return self.player_seat
        return self.to_act

    def default_action(self) -> Action | None:
        """What the house's fixed rule does for `actor` if he does not answer in time.

        The banker passes the bank; a punter declines to stake; on 5 the punter takes
        the house's default (`tableaux.House.punter_draws_on_five`), elsewhere the
        tableau's rule; the banker in a free cell plays its rule
        (`tableaux.house_banker_draws`). None when the shoe is over.

        >>> CheminTable(names=("A", "B"), bankrolls=(5_000,) * 2, seed=1).default_action().act
        <Act.PASS_BANK: 'pass_bank'>
        """
        seat, phase = self.actor, self.phase
        if phase in (Phase.BANK, Phase.AFTER):
            return Action(act=Act.PASS_BANK, seat=seat, reason="a silent banker passes the bank")
        if phase is Phase.STAKES:
            return Action(act=Act.STAKE, seat=seat, reason="a silent punter declines")
        if phase is Phase.PUNTER:
            total, bound = self.punter_total, self._bound(deal.Side.PLAYER)
            draws = self.tableau.punter_draws_on_five if bound is None else bound
            act = Act.DRAW if draws else Act.STAND
            rule = "house default" if total == 5 else "the tableau"
            return Action(act=act, seat=seat, reason=f"the punter {act.word} on {total} ({rule})")
        if phase is Phase.BANKER:
            total, third = self.banker_total, self.punter_third
            draws = tableaux.house_banker_draws(total, third, self.tableau)
            act = Act.BANKER_DRAW if draws else Act.BANKER_STAND
            against = "a standing punter" if third is None else f"a {third}"
            reason = f"the banker {act.word} on {total} against {against} (house rule)"
            return Action(act=act, seat=seat, reason=reason)
        return None

    def _apply(self, action: Action) -> tuple[CheminEvent, ...]:
        if action.seat is None or action.seat != self.actor:
            who = self._name(-1 if action.seat is None else action.seat)
            raise CheminError(f"it is not {who}'s turn to act")
        seat, amount = action.seat, action.amount
        if action.act not in _ACTS:
            raise self._not_here(action.act)
        args = {Act.OPEN_BANK: (amount,), Act.STAKE: (seat, amount), Act.BANCO: (seat,)}
        method: Callable[..., tuple[CheminEvent, ...]] = getattr(self, action.act.value)
        return method(*args.get(action.act, ()))

    # -- what a seat may do and see --------------------------------------------------

    def _legal(self, seat: int) -> list[Legal]:
        """What ``seat`` may do: the banker sets or passes the bank, keeps or passes it
        after a win; the punter in turn stakes (up to his chips and the open part of the
        bank) or calls banco; the punter and the banker choose where the rules let them.

        >>> table = CheminTable(names=("A", "B"), bankrolls=(5_000, 800), seed=1)
        >>> [(x.act.value, x.low, x.high) for x in table.legal_actions(0)], table.legal_actions(1)
        ([('open_bank', 100, 5000), ('pass_bank', 0, 0)], ())
        >>> _ = table.open_bank(1_000)
        >>> [(x.act.value, x.high) for x in table.legal_actions(1)]
        [('stake', 800)]
        """
        if seat != self.actor:
            return []
        if self.phase is Phase.BANK:
            opening = Legal(
                act=Act.OPEN_BANK, seat=seat, low=self.minimum, high=self.bankrolls[seat]
            )
            passing = [Legal(act=Act.PASS_BANK, seat=seat)]
            return [opening, *passing] if self.can_open_bank(self.minimum) else passing
        if self.phase is Phase.AFTER:
            return [Legal(act=Act.KEEP_BANK, seat=seat), Legal(act=Act.PASS_BANK, seat=seat)]
        if self.phase is Phase.STAKES:
            banco = [Legal(act=Act.BANCO, seat=seat)] if self.can_banco(seat) else []
            return [self._stake_range(seat), *banco]
        if self.phase is Phase.PUNTER:
            return self._punter_legal(seat)
        return self._banker_legal(seat)

    def observation(self, seat: int | None = None) -> CheminObservation:
        """What ``seat`` sees now (None: a spectator): the table, the cards face up, and
        its own hand face down while a coup is played (``P`` the punter's, ``B`` the
        banker's).

        >>> from baccara.cards import parse_cards
        >>> shoe = Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9)
        >>> table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2, shoe=shoe,
        ...                     punter_speaks=True)
        >>> _ = table.open_bank(1_000); _ = table.banco(1)
        >>> punter, banker = table.observation(1), table.observation(0)
        >>> punter.totals, [x.act.value for x in punter.legal], punter.hidden
        ({'P': 5}, ['draw', 'stand'], {'P': 2, 'B': 2})
        >>> banker.totals, banker.legal, table.observation().hands
        ({'B': 5}, (), {})
        """
        dealt = self.phase in (Phase.PUNTER, Phase.BANKER)
        cards = {"P": self.punter_cards, "B": self.banker_cards}
        owner = {"P": self.player_seat, "B": self.banker}
        return CheminObservation(
            **self._seen(seat),
            hands=self._own_hands(seat, dealt, cards, owner),
            phase=self.phase,
            stakes=tuple(self.stakes.items()),
            suivi=self.suivi,
            punter=self.player_seat if dealt else None,
            shown={key: tuple(hand[2:]) if dealt else () for key, hand in cards.items()},
            hidden=dict.fromkeys(cards, 2 if dealt else 0),
        )

    # -- the bank ------------------------------------------------------------------

    def can_open_bank(self, amount: int) -> bool:
        """Whether the seat holding the shoe may set the bank at ``amount``."""
        return self._allows(self.verify_open_bank, amount)

    def verify_open_bank(self, amount: int) -> None:
        """Raise `CheminError` unless the bank may be set at ``amount``."""
        if self.phase is not Phase.BANK:
            raise CheminError(f"cannot set the bank now: the table is at {self.phase.value}")
        if not self.minimum <= amount <= self.bankrolls[self.banker]:
            raise CheminError(
                f"bad bank {format_money(amount)}: between {format_money(self.minimum)} and the banker's "
                f"{format_money(self.bankrolls[self.banker])}"
            )

    def open_bank(self, amount: int) -> tuple[CheminEvent, ...]:
        """The seat holding the shoe puts ``amount`` in the bank."""
        self.verify_open_bank(amount)
        self.bankrolls[self.banker] -= amount
        self.bank = amount
        return self._bank_opened("holds the bank for")

    def _bank_opened(self, words: str) -> tuple[CheminEvent, ...]:
        text = f"{self.names[self.banker]} {words} {format_money(self.bank)}."
        opened = BankOpened(**public_text(text), seat=self.banker, amount=self.bank)
        self._start_stakes()
        return self._record([opened])

    def can_pass_bank(self) -> bool:
        """Whether the banker may pass the bank now (before setting it, or after a win)."""
        return self.phase in (Phase.BANK, Phase.AFTER)

    def verify_pass_bank(self) -> None:
        """Raise `CheminError` unless the banker may pass the bank."""
        if not self.can_pass_bank():
            raise CheminError("the bank can be passed only before it is set or after a win")

    def pass_bank(self) -> tuple[CheminEvent, ...]:
        """The banker takes the bank back and passes the shoe to the next seat."""
        self.verify_pass_bank()
        reason = "passed" if self.phase is Phase.AFTER else "declined"
        return self._record(self._move_bank(reason))

    def can_keep_bank(self) -> bool:
        """Whether the banker may keep the bank after a win."""
        return self.phase is Phase.AFTER

    def verify_keep_bank(self) -> None:
        """Raise `CheminError` unless the banker may keep the bank."""
        if not self.can_keep_bank():
            raise CheminError("the banker keeps the bank only after winning a coup")

    def keep_bank(self) -> tuple[CheminEvent, ...]:
        """The banker keeps the bank, winnings included, for another coup."""
        self.verify_keep_bank()
        return self._bank_opened("keeps the bank at")

    def _move_bank(self, reason: str) -> list[CheminEvent]:
        old = self.banker
        returned = self.bank
        self.bankrolls[old] += returned
        self.bank = 0
        self.suivi = None
        self.banker = self.next_seat(old)
        self.phase = Phase.OVER if self.shoe.finished else Phase.BANK
        self._skip_broke()
        text = f"The bank passes from {self.names[old]} to {self.names[self.banker]} ({reason})."
        event = BankPassed(
            **public_text(text),
            seat=old,
            to_seat=self.banker,
            reason=reason,
            returned=returned,
        )
        return [event]

    def _skip_broke(self) -> None:
        for _ in range(self.seats):
            if self.bankrolls[self.banker] >= self.minimum and self.banker not in self.gone:
                return
            self.banker = self.next_seat(self.banker)
        self.phase = Phase.OVER

    # -- seats that come and go between coups -----------------------------------------

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` holds the bank or a stake of the coup being played."""
        if self.phase in (Phase.STAKES, Phase.PUNTER, Phase.BANKER):
            return seat == self.banker or seat in self.stakes
        return False

    def _release(self, seat: int) -> list[CheminEvent]:
        if seat == self.banker and self.phase in (Phase.BANK, Phase.AFTER):
            return list(self.pass_bank())
        if self.phase is Phase.STAKES and seat in self.turn:
            if self.turn[0] == seat:
                return list(self.stake(seat, 0))
            self.turn.remove(seat)
        return []

    def _seat_changed(self, text: str, seat: int, amount: int) -> CheminEvent:
        return SeatChanged(**public_text(text), seat=seat, amount=amount)

    # -- the stakes ----------------------------------------------------------------

    def _start_stakes(self) -> None:
        self.phase = Phase.STAKES
        self.stakes = {}
        self.banco_seat = None
        self._punters_in_turn(first=self.suivi)  # banco suivi speaks first

    def can_banco(self, seat: int) -> bool:
        """Whether ``seat`` may call banco now."""
        return self._allows(self.verify_banco, seat)

    def verify_banco(self, seat: int) -> None:
        """Raise `CheminError` unless ``seat`` may call banco (his turn, and he can cover it)."""
        if self.to_act != seat:
            raise CheminError(f"it is not {self._name(seat)}'s turn to speak")
        if self.bankrolls[seat] + self.stakes.get(seat, 0) < self.bank:
            raise CheminError(
                f"{self.names[seat]} cannot cover a bank of {format_money(self.bank)}"
            )

    def banco(self, seat: int) -> tuple[CheminEvent, ...]:
        """``seat`` calls banco: he alone plays for the whole bank; other stakes are withdrawn."""
        self.verify_banco(seat)
        suivi = seat == self.suivi
        withdrawn = sorted(self.stakes)
        for other, amount in self.stakes.items():
            self.bankrolls[other] += amount
        self.stakes = {seat: self.bank}
        self.bankrolls[seat] -= self.bank
        self.banco_seat = seat
        word = "Banco suivi" if suivi else "Banco"
        text = f"{word}! {self.names[seat]} plays for the whole bank of {format_money(self.bank)}."
        if withdrawn:
            text += " The other stakes are withdrawn."
        events: list[CheminEvent] = [
            BancoCalled(**public_text(text), seat=seat, amount=self.bank, suivi=suivi)
        ]
        events.extend(self._deal())
        return self._record(events)

    def can_stake(self, seat: int, amount: int) -> bool:
        """Whether ``seat`` may cover ``amount`` of the bank now."""
        return self._allows(self.verify_stake, seat, amount)

    def verify_stake(self, seat: int, amount: int) -> None:
        """Raise `CheminError` unless ``seat`` may stake ``amount`` (0 declines)."""
        if self.to_act != seat:
            raise CheminError(f"it is not {self._name(seat)}'s turn to speak")
        self._check_funds(seat, amount)
        if amount > self.bank - self.covered:
            raise CheminError(
                f"bad stake {format_money(amount)}: only {format_money(self.bank - self.covered)} of the bank is open"
            )

    def stake(self, seat: int, amount: int) -> tuple[CheminEvent, ...]:
        """``seat`` covers ``amount`` of the bank (0 to decline); the deal follows the last word."""
        self.verify_stake(seat, amount)
        self.turn.pop(0)
        if amount:
            self.bankrolls[seat] -= amount
            self.stakes[seat] = amount
        text = (
            f"{self.names[seat]} covers {format_money(amount)}."
            if amount
            else f"{self.names[seat]} declines."
        )
        events: list[CheminEvent] = [StakePlaced(**public_text(text), seat=seat, amount=amount)]
        if self.covered >= self.bank or not self.turn:
            if self.covered == 0:
                events.extend(self._move_bank("uncovered"))
            else:
                events.extend(self._deal())
        return self._record(events)

    # -- the coup ------------------------------------------------------------------

    def _deal(self) -> list[CheminEvent]:
        # The banco caller plays; else the largest stake, the first in turn on a tie.
        # the order the punters spoke in (banco suivi first) breaks a tie
        seat = largest_stake(self.stakes) if self.banco_seat is None else self.banco_seat
        assert seat is not None
        self.player_seat = seat
        self.shoe.start_coup()
        first: dict[deal.Side, list[Card]] = {deal.Side.PLAYER: [], deal.Side.BANKER: []}
        for side in deal.FIRST_CARDS:  # the dealer's order: punter, banker, punter, banker
            first[side].append(self.shoe.draw())
        self.punter_cards, self.banker_cards = first[deal.Side.PLAYER], first[deal.Side.BANKER]
        self.punter_choice = None
        p1, p2 = self.punter_cards
        b1, b2 = self.banker_cards
        punter, banker = format_cards(self.punter_cards), format_cards(self.banker_cards)
        plays = f"{self.names[seat]} plays the hand"
        events: list[CheminEvent] = [
            Dealt(  # face down: each hand's cards to its holder alone
                text=f"{plays}: {punter} against the banker's {banker}.",
                public=f"{plays} against the bank.",
                held=(
                    (seat, f"{plays} with {punter}."),
                    (self.banker, f"{plays} against your {banker}."),
                ),
                seat=seat,
                punter=(p1, p2),
                banker=(b1, b2),
                banker_seat=self.banker,
                bank=self.bank,
                stakes=tuple(self.stakes.items()),
                banco=self.banco_seat is not None,
            )
        ]
        natural = rules.natural_decision(self.punter_total, self.banker_total)
        if natural is not None:
            return [
                *events,
                NaturalShown(**public_text(natural.reason.replace("Player", "Punter"))),
                *self._settle(),
            ]
        self.phase = Phase.PUNTER
        bound = self._bound(deal.Side.PLAYER)
        if bound is not None and not self.punter_speaks:
            events.extend(self._punter_acts(bound))
        return events

    def _choosing_total(self) -> int | None:
        return self.punter_total if self.phase is Phase.PUNTER else None

    def _punter_decides(self, draws: bool) -> list[CheminEvent]:
        return self._punter_acts(draws)

    def _punter_acts(self, draws: bool) -> list[CheminEvent]:
        seat = self.player_seat if self.player_seat is not None else -1
        free = self._bound(deal.Side.PLAYER) is None
        self.punter_choice = draws
        card, text, public = self._third_card("Punter", self.punter_cards, draws)
        if not free:
            text += " (bound by the tableau)"
        decided = PunterDecided(  # his total is his own until the coup is settled
            text=text,
            public=public,
            held=((seat, text),),
            seat=seat,
            draws=draws,
            card=card,
            free=free,
        )
        events: list[CheminEvent] = [decided]
        self.phase = Phase.BANKER
        bound = self._bound(deal.Side.BANKER)
        if bound is not None:
            events.extend(self._banker_acts(bound, free=False))
        return events

    def banker_free(self) -> bool:
        """Whether the banker has a choice in the present cell."""
        return self.phase is Phase.BANKER and self._bound(deal.Side.BANKER) is None

    def _banker_decides(self, draws: bool) -> list[CheminEvent]:
        return self._banker_acts(draws, free=True)

    def _banker_acts(self, draws: bool, *, free: bool) -> list[CheminEvent]:
        card, text, _ = self._third_card("Banker", self.banker_cards, draws)
        if not free:
            text += " (bound by the tableau)"
        decided = BankerDecided(  # the coup is settled at once: his total is shown with it
            **public_text(text), draws=draws, card=card, free=free, seat=self.banker
        )
        return [decided, *self._settle()]

    def _settle(self) -> list[CheminEvent]:
        p, b = self.punter_total, self.banker_total
        result = outcome(p, b)
        covered = self.covered
        payouts: list[tuple[int, int]] = []
        commission = 0
        self.shoe.finish_coup()
        if result is Result.BANKER:
            commission = self._commission(covered)
            self.house += commission
            self.bank += covered - commission
            text = (
                f"Banker wins {format_money(covered)}, {format_money(commission)} commission to the house: "
                f"the bank is now {format_money(self.bank)}."
            )
        else:  # the stakes come back, doubled if the punter wins
            times = 2 if result is Result.PLAYER else 1
            payouts = [(seat, times * amount) for seat, amount in self.stakes.items()]
            for seat, amount in payouts:
                self.bankrolls[seat] += amount
            self.bank -= covered * (times - 1)
            text = f"{p} to {b}: a tie, the stakes are returned."
            if result is Result.PLAYER:
                text = f"Punter wins: {p} to {b}; the banker pays {format_money(covered)}."
        events: list[CheminEvent] = [
            CoupSettled(
                **public_text(text),
                result=result,
                punter_total=p,
                banker_total=b,
                payouts=tuple(payouts),
                commission=commission,
            )
        ]
        lost_banco = self.banco_seat if result is Result.BANKER else None
        self.stakes = {}
        if result is Result.PLAYER:
            events.extend(self._move_bank("lost"))
        elif self.shoe.finished:
            self.bankrolls[self.banker] += self.bank
            self.bank = 0
            self.phase = Phase.OVER
        elif result is Result.BANKER:
            self.suivi = lost_banco
            self.phase = Phase.AFTER
        else:
            self._start_stakes()
        return events


def _from_rules(game: GameRules, seating: Seating, shoe: Shoe) -> CheminTable:
    """The table a shoe's committed rules and seating make (`game_rules.game_table`)."""
    return CheminTable(
        names=seating.names,
        bankrolls=seating.chips,
        variant=game.variant,
        shoe=shoe,
        free_banker=game.free_banker,
        tableau=game.house,
        minimum=seating.minimum,
        punter_speaks=game.punter_speaks,
    )


register_game(
    PlayersGame(
        family=Family.CHEMIN_DE_FER,
        engine=CheminTable,
        table=_from_rules,
        burn=True,
        house_tableau=True,
        coups=chemin_coups,
        read_coup=CheminCoup.from_json,
    )
)
