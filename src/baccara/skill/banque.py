"""Baccarat Banque at the table: the auctioned bank, two halves, one banker's hand.

Rules (sources in docs/skill_variants.md): three decks by default; the bank is put
up to auction and goes to the highest bidder, who holds it until the shoe is
finished, he retires, or he is broke; the punters stake on the left or the right
half, the total being at most the bank; each half is played by its largest
stake (an unstaked half is played by the rule: draw on 0-5); cards go left,
right, banker, twice. A punter's natural is shown and settled at once against the
banker's two cards; a banker's natural settles both. Each punter chooses on 5
(draws on 0-4, stands on 6-7; with ``punter_speaks`` each played half's punter is
asked on any total, held to the rule where it binds, so that his being asked tells
nothing); the banker then draws or stands as he likes, knowing both halves, and his
one hand settles each half on its own.

>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> deal = parse_cards("2h 9d 5s 3d Kc Qc 4c 7h") * 8
>>> table = BanqueTable(names=("Ann", "Bob", "Cy"), bankrolls=(50_000, 10_000, 10_000),
...                     shoe=Shoe.stacked(deal))
>>> _ = table.bid(0, 20_000); _ = table.close_auction()
>>> _ = table.stake(1, Half.LEFT, 1_000); _ = table.stake(2, Half.RIGHT, 2_000)
>>> table.phase, table.live_half, table.totals()
(<Phase.PUNTER: 'punter'>, <Half.LEFT: 'L'>, {'L': 5, 'R': 9, 'B': 5})
>>> [e.text for e in table.draw()]
['Left punter has 5 and draws 4c: 9.']
>>> [e.text for e in table.banker_stand()]
['Banker has 5 and stands.', 'Left: 9 to 5, the punters win 10.00.']
"""

from __future__ import annotations

from collections.abc import Callable

from baccara import deal, rules
from baccara.cards import Card, format_cards, hand_total
from baccara.coup import Result
from baccara.money import format_money
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux
from baccara.skill.actions import Act, Action, Legal
from baccara.skill.banque_events import (
    PHASES,
    BankAuctioned,
    BankerDecided,
    BankerLeft,
    BanqueError,
    BanqueEvent,
    BanqueObservation,
    BidPlaced,
    Half,
    HalfDecided,
    HalfSettled,
    HalvesDealt,
    Phase,
    SeatChanged,
    StakePlaced,
)
from baccara.skill.game_rules import GameRules, Seating
from baccara.skill.games import PlayersGame, register_game
from baccara.skill.players import PlayersTable, largest_stake, outcome, public_text
from baccara.skill.records import BanqueCoup, banque_coups
from baccara.variants import Family

__all__ = ["BanqueTable"]


_ACTS = frozenset(Act) - {Act.OPEN_BANK, Act.PASS_BANK, Act.KEEP_BANK, Act.BANCO}
_COUP_CARDS = 9  # two halves and the banker, three cards each at most
_DRAWING = tableaux.chance_tableau()  # the punters' row (free on 5); no banker's cell binds


class BanqueTable(PlayersTable[BanqueEvent, Phase]):
    """A Baccarat Banque table: seats with bankrolls (minor units), a shoe, one bank."""

    error = BanqueError
    game = "Baccarat Banque"
    user = "the Banque table"
    family = Family.BANQUE
    default_variant = "banque"
    phases = PHASES
    no_punter = "no punter has a choice now: a punter chooses only on 5"
    no_banker = "the banker decides once both tableaux have played"

    def start(self) -> None:
        """The bank up for auction (the table's arguments are `PlayersTable`'s)."""
        self.phase = Phase.OVER if self.shoe_done else Phase.AUCTION
        self.banker = None
        self.bids: dict[int, int] = {}
        self.stakes: dict[Half, dict[int, int]] = {Half.LEFT: {}, Half.RIGHT: {}}
        self.hands: dict[Half, list[Card]] = {Half.LEFT: [], Half.RIGHT: []}
        self.settled: set[Half] = set()
        self.pending: list[Half] = []

    def new_shoe(self, seed: int | None) -> Shoe:
        """Three decks (the variant's), shuffled from ``seed``, none burnt."""
        return Shoe.shuffled(ShoeSettings(decks=self.variant.decks, burn=False), seed=seed)

    # -- actions as values, and the house's default for a silent player -----------

    @property
    def actor(self) -> int | None:
        """The seat that must act now: the punter to stake or to choose, or the banker.

        None at the auction (any seat bids; the table closes it) and when over.
        """
        if self.phase is Phase.STAKES:
            return self.to_act
        if self.phase is Phase.PUNTER and self.live_half is not None:
            return self.player_of(self.live_half)
        return self.banker if self.phase is Phase.BANKER else None

    def default_action(self) -> Action | None:
        """What the house's fixed rule does when the clock runs out, or None.

        At the auction a silent bidder does not bid: the auction closes on the best
        bid (None if nobody bid). A silent punter sits out the coup; a silent banker
        keeps the bank (he retires only by acting). On 5 a punter takes the house's
        default (draw), elsewhere the rule. The banker plays Punto Banco's rule against the live half
        with the larger stake (the left one on a tie).

        >>> table = BanqueTable(names=("A", "B"), bankrolls=(5_000, 5_000), seed=3)
        >>> table.default_action() is None, table.apply(Action(act=Act.BID, seat=1, amount=900))[0].text
        (True, 'B bids 9.00 for the bank.')
        >>> table.default_action().act, table.close_auction()[0].seat, table.default_action()
        (<Act.CLOSE_AUCTION: 'close_auction'>, 1, Action(act=<Act.STAKE: 'stake'>, seat=0, amount=0, tableau='L', reason='a silent punter sits out'))
        """
        phase, seat = self.phase, self.actor
        if phase is Phase.AUCTION and self.bids:
            return Action(act=Act.CLOSE_AUCTION, seat=None, reason="the auction closes")
        if phase is Phase.STAKES:
            return Action(act=Act.STAKE, seat=seat, tableau="L", reason="a silent punter sits out")
        if phase is Phase.PUNTER and self.live_half is not None:
            total = self.total(self.live_half)
            act = Act.DRAW if self._house_draws(self.live_half) else Act.STAND
            rule = "house default" if total == 5 else "the rule"
            return Action(act=act, seat=seat, reason=f"the punter {act.word} on {total} ({rule})")
        if phase is Phase.BANKER:
            live = [t for t in Half if t not in self.settled]
            against = max(live, key=lambda t: (sum(self.stakes[t].values()), t is Half.LEFT))
            third = self.column(against)
            total = hand_total(self.banker_cards)
            draws = rules.banker_draws(total, None if third == rules.NO_CARD else third)
            act = Act.BANKER_DRAW if draws else Act.BANKER_STAND
            reason = (
                f"the banker {act.word} on {total} by the rule against the {against.word} tableau"
            )
            return Action(act=act, seat=seat, reason=reason)
        return None

    def _apply(self, action: Action) -> tuple[BanqueEvent, ...]:
        act, seat = action.act, action.seat
        if act not in _ACTS:
            raise self._not_here(act)
        if act is Act.CLOSE_AUCTION:
            return self.close_auction()
        if seat is None:
            raise BanqueError(f"{act.word}: which seat?")
        if act is Act.BID:
            return self.bid(seat, action.amount)
        if act is Act.RETIRE:
            if seat != self.banker:
                raise BanqueError(f"{self.names[seat]} does not hold the bank")
            return self.retire()
        if seat != self.actor:
            raise BanqueError(f"it is not seat {seat}'s turn to act")
        if act is Act.STAKE:
            half = Half(action.tableau or "L")
            return self.stake(seat, half, action.amount)
        method: Callable[[], tuple[BanqueEvent, ...]] = getattr(self, act.value)
        return method()

    # -- what a seat may do and see --------------------------------------------------

    def _legal(self, seat: int) -> list[Legal]:
        """What ``seat`` may do: at the auction any seat bids (above the best bid, up to
        its chips; closing the auction is the table's act, not a seat's); the banker may
        retire between coups, before any stake, whoever's turn it is; the punter in turn
        stakes on either half (up to his chips and what the bank still covers); the
        live half's punter and the banker choose where the rules let them.

        >>> table = BanqueTable(names=("A", "B"), bankrolls=(5_000, 3_000), seed=3)
        >>> [(x.act.value, x.low, x.high) for x in table.legal_actions(1)]
        [('bid', 100, 3000)]
        >>> _ = table.bid(1, 2_000); _ = table.close_auction()
        >>> [(x.act.value, x.high, x.tableaux) for x in table.legal_actions(0)], table.choices()
        ([('stake', 2000, ('L', 'R'))], (<Act.STAKE: 'stake'>,))
        """
        legal: list[Legal] = []
        if self.phase is Phase.AUCTION:
            low = max(self.bids.values()) + 1 if self.bids else self.minimum
            if low <= self.bankrolls[seat]:
                legal.append(Legal(act=Act.BID, seat=seat, low=low, high=self.bankrolls[seat]))
        elif seat == self.banker and self.can_retire():
            legal.append(Legal(act=Act.RETIRE, seat=seat))
        if seat != self.actor:
            return legal
        if self.phase is Phase.STAKES:
            stake = self._stake_range(seat)
            return [Legal(act=Act.STAKE, seat=seat, high=stake.high, tableaux=("L", "R"))]
        if self.phase is Phase.PUNTER:
            return self._punter_legal(seat)
        return self._banker_legal(seat)

    def choices(self) -> tuple[Act, ...]:
        """What the seats are offered now, as everybody sees it: at the auction, a bid."""
        return (Act.BID,) if self.phase is Phase.AUCTION else super().choices()

    def observation(self, seat: int | None = None) -> BanqueObservation:
        """What ``seat`` sees now (None: a spectator): the table, the cards face up (a hand
        settled on a natural whole, the banker's once one was and no punter chooses, every
        third card), and its own hands face down while a coup is played.

        >>> from baccara.cards import parse_cards
        >>> table = BanqueTable(names=("Ann", "Bob", "Cy"), bankrolls=(50_000, 10_000, 10_000),
        ...                     shoe=Shoe.stacked(parse_cards("2h 9d 5s 3d Kc Qc 4c 7h") * 8))
        >>> _ = table.bid(0, 20_000); _ = table.close_auction()
        >>> _ = table.stake(1, Half.LEFT, 1_000); _ = table.stake(2, Half.RIGHT, 2_000)
        >>> bob, everybody = table.observation(1), table.observation()
        >>> bob.totals, [x.act.value for x in bob.legal], bob.live, everybody.hands
        ({'L': 5}, ['draw', 'stand'], <Half.LEFT: 'L'>, {})
        >>> {key: format_cards(cards) for key, cards in everybody.shown.items()}, everybody.hidden
        ({'L': '', 'R': '9d,Kc', 'B': ''}, {'L': 2, 'R': 0, 'B': 2})
        """
        playing = self.phase in (Phase.PUNTER, Phase.BANKER)
        hands = {t.value: self.hands[t] for t in Half} | {"B": self.banker_cards}
        owner = {t.value: self.player_of(t) for t in Half} | {"B": self.banker}
        settled = {t.value for t in self.settled}
        banker_open = bool(settled) and self.phase is not Phase.PUNTER  # nobody chooses
        shown = {
            key: tuple(cards if key in settled or (key == "B" and banker_open) else cards[2:])
            for key, cards in hands.items()
        }
        best = max(self.bids.values(), default=None)
        return BanqueObservation(
            **self._seen(seat),
            hands=self._own_hands(seat, playing, hands, owner),
            phase=self.phase,
            bids=tuple(self.bids.items()),
            next_bid=None
            if self.phase is not Phase.AUCTION
            else (self.minimum if best is None else best + 1),
            can_retire=self.can_retire(),
            stakes={t.value: tuple(self.stakes[t].items()) for t in Half},
            playing={t.value: owner[t.value] for t in Half},
            live=self.live_half,
            shown=shown if playing else dict.fromkeys(hands, ()),
            hidden={key: len(hands[key]) - len(shown[key]) if playing else 0 for key in hands},
        )

    # -- facts ---------------------------------------------------------------------

    @property
    def shoe_done(self) -> bool:
        """Whether the shoe is finished: its last coup dealt, or too few cards for a coup."""
        return self.shoe.finished or self.shoe.remaining < _COUP_CARDS

    @property
    def covered(self) -> int:
        """The total staked on both halves."""
        return sum(sum(s.values()) for s in self.stakes.values())

    def at_risk(self) -> dict[Half, dict[int, int]]:
        """The stakes still on the felt: a half settled on a natural is paid already."""
        playing = self.phase in (Phase.PUNTER, Phase.BANKER)
        return {t: s for t, s in self.stakes.items() if not (playing and t in self.settled)}

    @property
    def live_half(self) -> Half | None:
        """The half whose punter must choose (on 5; on any total when he speaks), or None."""
        return self.pending[0] if self.phase is Phase.PUNTER and self.pending else None

    def total(self, half: Half) -> int:
        """A half's hand total."""
        return hand_total(self.hands[half])

    def totals(self) -> dict[str, int]:
        """The three hands' totals, keyed L, R and B."""
        return {
            "L": self.total(Half.LEFT),
            "R": self.total(Half.RIGHT),
            "B": hand_total(self.banker_cards),
        }

    def column(self, half: Half) -> int:
        """What the banker sees of a half: third card 0-9, 10 stood, 11 natural."""
        hand = self.hands[half]
        if half in self.settled:
            return rules.NO_CARD + 1
        return hand[2].points if len(hand) == 3 else rules.NO_CARD

    def player_of(self, half: Half) -> int | None:
        """The seat that plays ``half``: its largest stake, the first in turn on a tie."""
        return largest_stake(self.stakes[half])

    # -- the auction ---------------------------------------------------------------

    def can_bid(self, seat: int, amount: int) -> bool:
        """Whether ``seat`` may bid ``amount`` for the bank."""
        return self._allows(self.verify_bid, seat, amount)

    def verify_bid(self, seat: int, amount: int) -> None:
        """Raise `BanqueError` unless the bid beats the best one and the bidder can pay it."""
        if self.phase is not Phase.AUCTION:
            raise BanqueError(f"no auction now: the table is at {self.phase.value}")
        if not 0 <= seat < len(self.names):
            raise BanqueError(f"no seat {seat}")
        if not self.bids and amount < self.minimum:
            raise BanqueError(
                f"bad bid {format_money(amount)}: the smallest bid is {format_money(self.minimum)}"
            )
        best = max(self.bids.values(), default=self.minimum - 1)
        if amount <= best:
            raise BanqueError(f"bad bid {format_money(amount)}: it must beat {format_money(best)}")
        if amount > self.bankrolls[seat]:
            raise BanqueError(
                f"bad bid {format_money(amount)}: {self.names[seat]} has {format_money(self.bankrolls[seat])}"
            )

    def bid(self, seat: int, amount: int) -> tuple[BanqueEvent, ...]:
        """``seat`` offers to risk ``amount`` as the bank."""
        self.verify_bid(seat, amount)
        self.bids[seat] = amount
        text = f"{self.names[seat]} bids {format_money(amount)} for the bank."
        return self._record([BidPlaced(**public_text(text), seat=seat, amount=amount)])

    def can_close_auction(self) -> bool:
        """Whether the auction can close (someone has bid)."""
        return self.phase is Phase.AUCTION and bool(self.bids)

    def verify_close_auction(self) -> None:
        """Raise `BanqueError` unless the auction can close."""
        if not self.can_close_auction():
            raise BanqueError("the auction closes only once someone has bid")

    def close_auction(self) -> tuple[BanqueEvent, ...]:
        """The highest bidder takes the bank."""
        self.verify_close_auction()
        seat = max(self.bids, key=lambda s: self.bids[s])
        amount = self.bids[seat]
        self.bids = {}
        self.banker = seat
        self.bankrolls[seat] -= amount
        self.bank = amount
        self._start_stakes()
        return self._record(
            [
                BankAuctioned(
                    **public_text(f"{self.names[seat]} takes the bank for {format_money(amount)}."),
                    seat=seat,
                    amount=amount,
                )
            ]
        )

    def can_retire(self) -> bool:
        """Whether the banker may retire now (between coups, before any stake)."""
        return self.phase is Phase.STAKES and self.covered == 0

    def verify_retire(self) -> None:
        """Raise `BanqueError` unless the banker may retire."""
        if not self.can_retire():
            raise BanqueError("the banker retires only between coups, before any stake")

    def retire(self) -> tuple[BanqueEvent, ...]:
        """The banker takes his bank back; the bank goes to auction again."""
        self.verify_retire()
        return self._record(self._banker_leaves("retired"))

    def _banker_leaves(self, reason: str) -> list[BanqueEvent]:
        seat = self.banker
        assert seat is not None
        returned = self.bank
        self.bankrolls[seat] += returned
        self.bank = 0
        self.banker = None
        self.phase = Phase.OVER if self.shoe_done else Phase.AUCTION
        text = f"{self.names[seat]} leaves the bank ({reason}) with {format_money(returned)}."
        return [
            BankerLeft(
                **public_text(text),
                seat=seat,
                reason=reason,
                returned=returned,
            )
        ]

    # -- seats that come and go between coups -----------------------------------------

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a stake, or the bank with stakes on it, in the coup played."""
        if self.phase not in (Phase.STAKES, Phase.PUNTER, Phase.BANKER):
            return False
        banking = seat == self.banker and (self.covered > 0 or self.phase is not Phase.STAKES)
        return banking or any(seat in stakes for stakes in self.stakes.values())

    def _release(self, seat: int) -> list[BanqueEvent]:
        if self.phase is Phase.AUCTION:
            self.bids.pop(seat, None)  # its bid is withdrawn
        elif self.phase is Phase.STAKES and seat == self.banker:
            return list(self.retire())
        elif self.phase is Phase.STAKES and seat in self.turn:
            if self.turn[0] == seat:
                return list(self.stake(seat, Half.LEFT, 0))
            self.turn.remove(seat)
        return []

    def _seat_changed(self, text: str, seat: int, amount: int) -> BanqueEvent:
        return SeatChanged(**public_text(text), seat=seat, amount=amount)

    # -- stakes --------------------------------------------------------------------

    def _start_stakes(self) -> None:
        assert self.banker is not None
        self.phase = Phase.STAKES
        self.stakes = {Half.LEFT: {}, Half.RIGHT: {}}
        self._punters_in_turn()
        if self.phase is Phase.OVER:  # nobody left to punt
            self.banker = None

    def can_stake(self, seat: int, half: Half, amount: int) -> bool:
        """Whether ``seat`` may stake ``amount`` on ``half`` now."""
        return self._allows(self.verify_stake, seat, half, amount)

    def verify_stake(self, seat: int, half: Half, amount: int) -> None:
        """Raise `BanqueError` unless it is ``seat``'s turn and the bank covers ``amount``."""
        if self.to_act != seat:
            raise BanqueError(f"it is not seat {seat}'s turn to stake")
        self._check_funds(seat, amount)
        if self.covered + amount > self.bank:
            raise BanqueError(
                f"bad stake {format_money(amount)}: the bank covers only {format_money(self.bank - self.covered)} more"
            )

    def stake(self, seat: int, half: Half, amount: int) -> tuple[BanqueEvent, ...]:
        """``seat`` stakes ``amount`` on ``half`` (0 sits out); the deal follows the last one."""
        self.verify_stake(seat, half, amount)
        self.turn.pop(0)
        if amount:
            self.bankrolls[seat] -= amount
            self.stakes[half][seat] = amount
            text = f"{self.names[seat]} stakes {format_money(amount)} on the {half.word} tableau."
        else:
            text = f"{self.names[seat]} sits out this coup."
        events: list[BanqueEvent] = [
            StakePlaced(
                **public_text(text), seat=seat, half=half if amount else None, amount=amount
            )
        ]
        if not self.turn or self.covered >= self.bank:
            if self.covered:
                events.extend(self._deal())
            else:
                self._start_stakes()  # nobody played: a new round of stakes
        return self._record(events)

    # -- the coup ------------------------------------------------------------------

    def _deal(self) -> list[BanqueEvent]:
        self.shoe.start_coup()
        left, right, bank = [], [], []
        for _ in range(2):
            left.append(self.shoe.draw())
            right.append(self.shoe.draw())
            bank.append(self.shoe.draw())
        self.hands = {Half.LEFT: left, Half.RIGHT: right}
        self.banker_cards = bank
        self.settled = set()
        holders = [
            (self.player_of(t), f"the {t.word} tableau holds {format_cards(self.hands[t])}")
            for t in Half
        ]
        holders.append((self.banker, f"you hold {format_cards(bank)}"))
        dealt = "Two cards to the left tableau, to the right, and to the banker"
        events: list[BanqueEvent] = [
            HalvesDealt(  # face down: each hand's cards to whoever holds it
                text=f"Left {format_cards(left)}, right {format_cards(right)}, banker {format_cards(bank)}.",
                public=f"{dealt}.",
                held=tuple(
                    (seat, f"{dealt}: {words}.") for seat, words in holders if seat is not None
                ),
                left=tuple(left),
                right=tuple(right),
                banker=tuple(bank),
                banker_seat=-1 if self.banker is None else self.banker,
                bank=self.bank,
                left_stakes=tuple(self.stakes[Half.LEFT].items()),
                right_stakes=tuple(self.stakes[Half.RIGHT].items()),
            )
        ]
        banker_natural = rules.is_natural(hand_total(bank))
        naturals = [t for t in Half if banker_natural or rules.is_natural(self.total(t))]
        # a punter still to choose: the banker's cards stay down, his total untold
        hidden = any(self._asks(t) for t in Half if t not in naturals)
        for half in naturals:
            events.extend(self._settle(half, banker_down=hidden))
        self.pending = [t for t in Half if t not in self.settled]
        self.phase = Phase.PUNTER
        events.extend(self._advance())
        return events

    def _advance(self) -> list[BanqueEvent]:
        """Play the house's punter decisions (an unplayed half, a bound cell unless the
        punter speaks); stop at a punter to ask, the banker, or the end."""
        events: list[BanqueEvent] = []
        while self.phase is Phase.PUNTER and self.pending:
            half = self.pending[0]
            if self._asks(half):
                return events
            events.extend(self._punter_acts(half, self._house_draws(half)))
        if self.phase is Phase.PUNTER:
            live = [t for t in Half if t not in self.settled]
            if live:
                self.phase = Phase.BANKER
            else:
                events.extend(self._end_coup())
        return events

    def rule(self, half: Half) -> bool | None:
        """What the tableau has ``half``'s punter do on his two cards: draw (True),
        stand (False), or None where he is free (on 5), as the dealer's model of
        several halves says (`baccara.deal.step_halves`, the half alone against
        the banker's two cards: one half's rule does not depend on the other's)."""
        alone = deal.HalvesState(
            punters=(tuple(card.points for card in self.hands[half][:2]),),
            banker=tuple(card.points for card in self.banker_cards[:2]),
        )
        now = deal.step_halves(alone, _DRAWING)
        if isinstance(now, deal.Over) or now.side is deal.Side.BANKER:
            return False
        return None if isinstance(now, deal.Choose) else True

    def _house_draws(self, half: Half) -> bool:
        """The rule, or on a free cell the house's default (to draw)."""
        bound = self.rule(half)
        return tableaux.House.FRENCH.punter_draws_on_five if bound is None else bound

    def _asks(self, half: Half) -> bool:
        """Whether ``half``'s punter is asked to choose: a played half, on 5 (on
        any total when he speaks)."""
        free = self.rule(half) is None
        return (self.punter_speaks or free) and self.player_of(half) is not None

    def _choosing_total(self) -> int | None:
        live = self.live_half
        return None if live is None else self.total(live)

    def _punter_decides(self, draws: bool) -> list[BanqueEvent]:
        return [*self._punter_acts(self.pending[0], draws), *self._advance()]

    def _punter_acts(self, half: Half, draws: bool) -> list[BanqueEvent]:
        self.pending.remove(half)
        seat = self.player_of(half)
        free = seat is not None and self.rule(half) is None
        name = f"{half.word.title()} punter"
        card, text, public = self._third_card(name, self.hands[half], draws)
        held = () if seat is None else ((seat, text),)  # his total is his own
        return [
            HalfDecided(
                text=text,
                public=public,
                held=held,
                half=half,
                draws=draws,
                card=card,
                free=free,
                seat=seat,
            )
        ]

    def banker_free(self) -> bool:
        """Whether the banker decides now (always his choice, once both halves played)."""
        return self.phase is Phase.BANKER

    def _banker_decides(self, draws: bool) -> list[BanqueEvent]:
        card, text, public = self._third_card("Banker", self.banker_cards, draws)
        seat = -1 if self.banker is None else self.banker
        decided = BankerDecided(
            text=text, public=public, held=((seat, text),), draws=draws, card=card, seat=seat
        )
        events: list[BanqueEvent] = [decided]
        for half in Half:
            if half not in self.settled:
                events.extend(self._settle(half))
        events.extend(self._end_coup())
        return events

    def _settle(self, half: Half, *, banker_down: bool = False) -> list[BanqueEvent]:
        """Settle ``half`` against the banker's hand; ``banker_down``: a punter's
        natural paid while the other punter still chooses, which beats the banker's two
        cards without telling their total."""
        self.settled.add(half)
        p, b = self.total(half), hand_total(self.banker_cards)
        result = outcome(p, b)
        stakes = self.stakes[half]
        staked = sum(stakes.values())
        payouts = []
        if result is Result.BANKER:
            commission = self._commission(staked)
            self.house += commission
            self.bank += staked - commission
            text = f"{half.word.title()}: {p} to {b}, the banker wins {format_money(staked)}."
            if not staked:
                text = f"{half.word.title()}: {p} to {b}, the banker's side wins (no stakes)."
        elif result is Result.PLAYER:
            self.bank -= staked
            payouts = [(seat, 2 * amount) for seat, amount in stakes.items()]
            text = f"{half.word.title()}: {p} to {b}, the punters win {format_money(staked)}."
            if not staked:
                text = f"{half.word.title()}: {p} to {b}, the punter's side wins (no stakes)."
        else:
            payouts = list(stakes.items())
            text = f"{half.word.title()}: {p} to {b}, a tie."
        for seat, amount in payouts:
            self.bankrolls[seat] += amount
        public = text
        if banker_down:
            side = f"{half.word.title()}: a natural {p}"
            public = f"{side}, the punters win {format_money(staked)}." if staked else f"{side}."
        return [
            HalfSettled(
                text=text,
                public=public,
                half=half,
                result=result,
                punter_total=p,
                banker_total=b,
                payouts=tuple(payouts),
            )
        ]

    def _end_coup(self) -> list[BanqueEvent]:
        self.shoe.finish_coup()
        self.stakes = {Half.LEFT: {}, Half.RIGHT: {}}
        if self.shoe_done:
            events = self._banker_leaves("shoe")
            self.phase = Phase.OVER
            return events
        if self.bank < self.minimum:
            return self._banker_leaves("broke")
        self._start_stakes()
        return []


def _from_rules(game: GameRules, seating: Seating, shoe: Shoe) -> BanqueTable:
    """The table a shoe's committed rules and seating make (`game_rules.game_table`)."""
    return BanqueTable(
        names=seating.names,
        bankrolls=seating.chips,
        variant=game.variant,
        shoe=shoe,
        minimum=seating.minimum,
        punter_speaks=game.punter_speaks,
    )


def _end_note(table: BanqueTable) -> str | None:
    """A shoe that ended at an auction nobody bid at: the one end a record cannot prove."""
    if table.phase is Phase.AUCTION and not table.bids:
        return "the shoe ended at an auction nobody bid at"
    return None


register_game(
    PlayersGame(
        family=Family.BANQUE,
        engine=BanqueTable,
        table=_from_rules,
        burn=False,
        house_tableau=False,
        coups=banque_coups,
        read_coup=BanqueCoup.from_json,
        end_note=_end_note,
    )
)
