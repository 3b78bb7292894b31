"""The terminal game: humans and bots at one table, one command a line, drawn with Rich.

It reads commands line by line (a terminal, tmux, or a script on stdin), drives a
`baccara.table.engine.Table`, shows every card as the croupier turns it, and saves every
action to the `baccara.db.store.Store`, so quitting never loses a balance and the next
game resumes where this one stopped.

>>> parse_amount("12.5"), parse_amount("100")
(1250, 10000)
>>> parse_amount("1.234")
Traceback (most recent call last):
...
baccara.tui.table.CommandError: bad amount '1.234': write it like 25 or 12.50 (at most 2 decimals)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from baccara.bets import BetKind, BetOutcome, bets_for, describe_pays
from baccara.cards import Card
from baccara.coup import Coup, Result
from baccara.db.store import Store, wallet_account
from baccara.money import MoneyError, format_money, parse_money
from baccara.roads.render import render_text
from baccara.sim.strategies import BOT_STRATEGIES, Strategy, make_strategy
from baccara.table.engine import Phase, Table
from baccara.table.events import BetPlaced, CoupSettled, SeatTaken
from baccara.table.narration import reveal
from baccara.tui.teach import CHIPS, HELP, TableEdges, chips, primer

__all__ = [
    "BOT_STRATEGIES",
    "CHIPS",
    "CommandError",
    "Game",
    "chips",
    "parse_amount",
    "start_table",
]

STARTING_WALLET = 100_000
"""What the cashier gives a player whose wallet cannot cover a minimum bet (1,000.00)."""
BOT_STACK = 100_000
"""The strategies bots take, in turn (see `baccara.sim.strategies.STRATEGIES`)."""

_SHORT = {"b": "banker", "p": "player", "t": "tie", "pp": "player_pair", "bp": "banker_pair"}
_RESULT_STYLE = {Result.BANKER: "bold red", Result.PLAYER: "bold blue", Result.TIE: "bold green"}
_OUTCOME_STYLE = {BetOutcome.WIN: "green", BetOutcome.LOSE: "red", BetOutcome.PUSH: "yellow"}


class CommandError(ValueError):
    """A command the game does not understand."""


def parse_amount(text: str) -> int:
    """An amount typed at the table (``25``, ``12.50``) in minor units (`parse_money`)."""
    try:
        return parse_money(text)
    except MoneyError as error:
        raise CommandError(str(error)) from None


class Game:
    """One terminal game: a table, its stored session, the humans and the bots.

    ``read`` gives the next command line (None at the end of input); ``delay`` is the
    pause between two cards (0 in scripts and tests).
    """

    def __init__(
        self,
        *,
        table: Table,
        store: Store,
        session: int,
        console: Console,
        teach: bool = False,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.table = table
        self.store = store
        self.session = session
        self.console = console
        self.teach = teach
        self.delay = delay
        self.sleep = sleep
        self.bots: dict[int, Strategy] = {}
        self.undo_stack: dict[int, list[BetPlaced]] = {}
        self.active: int | None = None
        self.fancy = (console.encoding or "").lower().replace("-", "") == "utf8"
        self.edges = TableEdges.of(table.variant, decks=table.settings.shoe.decks)
        unit = table.settings.limit(BetKind.BANKER)
        self._bot_limits = (unit.minimum, unit.maximum)
        for state in table.seats:
            if state.strategy is not None:
                self.bots[state.number] = self._rebuild_bot(state.number, state.strategy)
        humans = self.humans()
        self.active = humans[0] if humans else None

    # -- seats ---------------------------------------------------------------------------

    def humans(self) -> list[int]:
        """The seats played from this terminal, in order."""
        return [s.number for s in self.table.seats if s.strategy is None]

    def sit_human(self, player: str, seat: int | None = None) -> int:
        """Seat ``player`` with the whole wallet (topped up by the cashier if too small)."""
        minimum = self.table.settings.limit(BetKind.PLAYER).minimum
        wallet = self.store.balance(wallet_account(player))
        if wallet < minimum:
            self.store.deposit(player, STARTING_WALLET - wallet)
            self.say(
                f"The cashier gives {player} {format_money(STARTING_WALLET - wallet)} in chips."
            )
            wallet = STARTING_WALLET
        event = self.table.seat(seat, player=player, stack=wallet)
        self.save()
        self.active = event.seat
        return event.seat

    def sit_bot(self, strategy: str) -> int:
        """Seat a bot playing ``strategy``; return its seat."""
        seat = self.table.free_seats()[0]
        player = f"bot{seat}"
        wallet = self.store.balance(wallet_account(player))
        if wallet < BOT_STACK:
            self.store.deposit(player, BOT_STACK - wallet)
        self.bots[seat] = self._new_strategy(strategy)
        self.table.seat(seat, player=player, stack=BOT_STACK, strategy=strategy)
        self.save()
        return seat

    def _new_strategy(self, spec: str) -> Strategy:
        low, high = self._bot_limits
        return make_strategy(
            spec,
            unit=low,
            table_min=low,
            table_max=high,
            decks=self.table.settings.shoe.decks,
            variant=self.table.variant,
        )

    def _rebuild_bot(self, seat: int, spec: str) -> Strategy:
        """A resumed bot: a new strategy told every settlement since it sat down."""
        strategy = self._new_strategy(spec)
        since = 0
        for i, event in enumerate(self.table.log):
            if isinstance(event, SeatTaken) and event.seat == seat:
                since = i
        for event in self.table.log[since:]:
            if isinstance(event, CoupSettled) and any(r.seat == seat for r in event.results):
                strategy.record(event.coup, event.seat_net(seat))
        return strategy

    # -- the loop ------------------------------------------------------------------------

    def run(self, read: Callable[[str], str | None]) -> None:
        """Play until ``q`` or the end of input; save on the way out, even on Ctrl-C."""
        if self.teach:
            self.say(primer(self.table.variant), style="italic cyan")
        self.show_table()
        try:
            if self.table.current is not None:  # quit while the cards were out: finish it
                self.say("Finishing the coup that was dealt before the game stopped.")
                self._finish_coup()
            if self.table.phase is Phase.SHOE_CHANGE:  # stopped between two shoes
                self._new_shoe()
            while True:
                line = read(self.prompt())
                if line is None or not self.handle(line):
                    break
        except KeyboardInterrupt:
            self.console.print()
        finally:
            self.quit()

    def prompt(self) -> str:
        """The prompt: active seat, player and stack."""
        if self.active is None or self.active not in self.humans():
            return "table> "
        state = self.table.seat_state(self.active)
        return f"seat {state.number} {state.player} [{format_money(state.stack)}]> "

    def quit(self) -> None:
        """Save and say where the balances are."""
        self.save()
        self.say(f"Saved session {self.session}: every stack is kept; play again to resume.")

    def save(self) -> None:
        """Store the events not stored yet (and their money)."""
        self.store.save(self.session, self.table)

    def say(self, text: str | Text, style: str | None = None) -> None:
        """Print one line."""
        self.console.print(text, style=style, highlight=False)

    def handle(self, line: str) -> bool:
        """Run one command line; return False to quit."""
        words = line.strip().split()
        if not words or words[0].startswith("#"):
            return True
        command, args = words[0].lower(), words[1:]
        if command in ("q", "quit", "exit"):
            return False
        try:
            self._dispatch(command, args)
        except ValueError as error:
            self.say(Text(f"✗ {error}" if self.fancy else f"! {error}", style="bold red"))
        return True

    def _dispatch(self, command: str, args: list[str]) -> None:
        simple: dict[str, Callable[[], None]] = {
            "deal": self.deal,
            "d": self.deal,
            "undo": self.undo,
            "u": self.undo,
            "rebet": self.rebet,
            "clear": self.clear,
            "next": self.next_seat,
            "leave": self.leave,
            "table": self.show_table,
            "l": self.show_table,
            "roads": self.show_roads,
            "limits": self.show_limits,
            "bets": self.show_limits,
            "teach": self.toggle_teach,
            "help": lambda: self.say(HELP),
            "?": lambda: self.say(HELP),
        }
        if command in simple:
            if args:
                raise CommandError(f"{command!r} takes no argument")
            simple[command]()
        elif command in _SHORT or command == "bet":
            if command == "bet":
                if len(args) != 2:
                    raise CommandError("write: bet KIND AMOUNT, as in 'bet dragon_7 5'")
                kind, amount = BetKind.parse(args[0]), args[1]
            else:
                if len(args) != 1:
                    raise CommandError(f"write: {command} AMOUNT, as in '{command} 25'")
                kind, amount = BetKind(_SHORT[command]), args[0]
            self.bet(kind, parse_amount(amount))
        elif command == "seat":
            if len(args) > 1 or (args and not args[0].isdigit()):
                raise CommandError("write: seat N, as in 'seat 2'")
            self.choose_seat(int(args[0]) if args else None)
        elif command in ("history", "h"):
            if len(args) > 1 or (args and not args[0].isdigit()):
                raise CommandError("write: history [N], as in 'history 10'")
            self.show_history(int(args[0]) if args else 8)
        else:
            raise CommandError(f"unknown command {command!r}: type help")

    # -- commands ------------------------------------------------------------------------

    def _seat(self) -> int:
        if self.active is None or self.active not in self.humans():
            raise CommandError("you have no seat: take one with 'seat N'")
        return self.active

    def bet(self, kind: BetKind, amount: int) -> None:
        """Place a bet for the active seat."""
        seat = self._seat()
        event = self.table.place_bet(seat, kind, amount)
        self.undo_stack.setdefault(seat, []).append(event)
        self.save()
        line = f"Seat {seat}: {format_money(amount)} on {kind.label}"
        if event.total != amount:
            line += f" (now {format_money(event.total)})"
        self.say(line + f", stack {format_money(self.table.stack(seat))}.")
        if self.teach:
            self.say(self.edges.note(kind), style="italic cyan")

    def undo(self) -> None:
        """Take back the active seat's last bet of this round."""
        seat = self._seat()
        stack = self.undo_stack.get(seat, [])
        while stack:
            last = stack.pop()
            if self.table.seat_state(seat).bet(last.kind) >= last.amount:
                self.table.cancel_bet(seat, last.kind, last.amount)
                self.save()
                self.say(
                    f"Seat {seat}: took back {format_money(last.amount)} from {last.kind.label}."
                )
                return
        raise CommandError("nothing to undo: no bet placed since the last coup")

    def rebet(self) -> None:
        """Bet again what the active seat had on the last coup."""
        seat = self._seat()
        state = self.table.seat_state(seat)
        if not state.last_bets:
            raise CommandError("nothing to rebet: this seat had no bet on the last coup")
        wanted = [(k, amount - state.bet(k)) for k, amount in state.last_bets]
        wanted = [(k, a) for k, a in wanted if a > 0]
        if not wanted:
            raise CommandError("the last coup's bets are already on the layout")
        for kind, amount in wanted:  # check all first: a rebet is all or nothing
            self.table.verify_place_bet(seat, kind, amount)
        for kind, amount in wanted:
            self.bet(kind, amount)

    def clear(self) -> None:
        """Take back every bet of the active seat that may be taken back."""
        seat = self._seat()
        taken = 0
        for kind, _ in self.table.seat_state(seat).bets:
            if self.table.withdrawable(seat, kind):
                taken += self.table.cancel_bet(seat, kind).amount
        self.undo_stack[seat] = []
        self.save()
        self.say(f"Seat {seat}: took back {format_money(taken)}.")

    def choose_seat(self, seat: int | None) -> None:
        """Switch to a human seat, sit a new player at a free one, or list the seats."""
        if seat is None:
            self.show_table()
            return
        humans = self.humans()
        if seat in humans:
            self.active = seat
            self.say(f"Seat {seat} ({self.table.seat_state(seat).player}) is playing.")
            return
        if seat in self.bots:
            raise CommandError(f"seat {seat} is a bot's")
        player = f"guest{seat}"
        self.sit_human(player, seat)
        self.say(f"{player} sits at seat {seat} with {format_money(self.table.stack(seat))}.")

    def next_seat(self) -> None:
        """Switch to the next human seat."""
        humans = self.humans()
        if not humans:
            raise CommandError("nobody plays from this terminal: take a seat with 'seat N'")
        later = [s for s in humans if self.active is None or s > self.active]
        self.active = later[0] if later else humans[0]
        self.say(f"Seat {self.active} ({self.table.seat_state(self.active).player}) is playing.")

    def leave(self) -> None:
        """The active player stands up; the chips go back to the wallet."""
        seat = self._seat()
        event = self.table.leave(seat)
        self.save()
        self.say(f"{event.player} leaves seat {seat} with {format_money(event.stack)}.")
        humans = self.humans()
        self.active = humans[0] if humans else None

    def toggle_teach(self) -> None:
        """Teaching mode on or off."""
        self.teach = not self.teach
        self.say(f"Teaching mode {'on' if self.teach else 'off'}.")

    # -- the coup ------------------------------------------------------------------------

    def deal(self) -> None:
        """Bots bet, the cards come out one at a time, every bet is settled and saved."""
        table = self.table
        table.verify_deal()
        self._bots_bet()
        dealt = table.deal()
        self.save()
        self.undo_stack.clear()
        self.say(Text(f"Coup {dealt.number} of shoe {dealt.shoe}", style="bold underline"))
        self._finish_coup()

    def _finish_coup(self) -> None:
        """Show the dealt coup card by card, settle it, and bring a new shoe if needed."""
        table = self.table
        assert table.current is not None
        for step in reveal(table.current):
            if step.card is not None and self.delay:
                self.sleep(self.delay)
            if step.card is None and step.side is None:  # a natural, then the result
                self.say(Text(step.words, style="bold"))
            else:
                self.say(self._step_line(step.words, step.card, step.player, step.banker))
            if self.teach and step.reason:
                self.say(f"   why: {step.reason}", style="italic cyan")
        settled = table.settle()
        self.save()
        self._show_settlement(settled)
        for seat, strategy in self.bots.items():
            if any(r.seat == seat for r in settled.results):
                strategy.record(settled.coup, settled.seat_net(seat))
        self.say(self._road_strip())
        if settled.shoe_finished:
            self.say("The cut card is out: that was the last coup of this shoe.", style="bold")
            self._new_shoe()

    def _new_shoe(self) -> None:
        changed = self.table.change_shoe()
        self.save()
        burned = ", ".join(str(c) for c in changed.burned)
        self.say(f"New shoe {changed.shoe}: {changed.cards} cards; burned {burned or 'none'}.")

    def _bots_bet(self) -> None:
        table = self.table
        for seat, strategy in self.bots.items():
            for kind, _ in table.seat_state(seat).bets:  # a bot restates its whole bet
                if table.withdrawable(seat, kind):
                    table.cancel_bet(seat, kind)
            for wager in strategy.wagers(table.stack(seat), table.coups):
                if table.can_place_bet(seat, wager.kind, wager.amount):
                    table.place_bet(seat, wager.kind, wager.amount)
        self.save()

    def _step_line(
        self, words: str, card: Card | None, player: tuple[Card, ...], banker: tuple[Card, ...]
    ) -> Text:
        line = Text("  P ", style="blue")
        line.append_text(self._cards(player))
        line.append("  B ", style="red")
        line.append_text(self._cards(banker))
        line.append("  ")
        line.append(words, style="bold" if card is None else "")
        return line

    def _cards(self, cards: tuple[Card, ...]) -> Text:
        text = Text()
        for card in cards:
            label = card.pretty if self.fancy else str(card)
            text.append(label, style="bold red" if card.suit.red else "bold")
            text.append(" ")
        text.append("   " * (3 - len(cards)))
        return text

    def _show_settlement(self, settled: CoupSettled) -> None:
        coup = settled.coup
        head = Text(f"{coup.winner.word.title()} wins" if coup.winner is not Result.TIE else "Tie")
        head.stylize(_RESULT_STYLE[coup.winner])
        if coup.marks:
            head.append("  (" + ", ".join(coup.marks) + ")", style="dim")
        self.say(head)
        for r in settled.results:
            name = self.table.seat_state(r.seat).player
            line = Text(
                f"  seat {r.seat} {name:<8} {r.kind.label:<12} {format_money(r.stake):>9}  "
            )
            sign = "+" if r.net > 0 else ""
            line.append(
                f"{r.outcome.value:<4} {sign}{format_money(r.net)}", style=_OUTCOME_STYLE[r.outcome]
            )
            if r.stays:
                line.append("  stays on", style="yellow")
            if r.commission:
                line.append(f"  commission {format_money(r.commission)}", style="dim")
            self.say(line)
            if self.teach and r.seat not in self.bots:
                self.say(f"   why: {r.reason}", style="italic cyan")
        if not settled.results:
            self.say("  No bets on the layout.", style="dim")
        stacks = "  ".join(
            f"{s.number}:{format_money(s.stack)}" for s in self.table.seats if s.strategy is None
        )
        if stacks:
            self.say(f"Stacks  {stacks}")

    def _road_strip(self) -> Text:
        coups = self.table.coups[-30:]
        strip = Text("Road ")
        for coup in coups:
            strip.append(coup.winner.value, style=_RESULT_STYLE[coup.winner])
        s = self.table.roads.statistics()
        strip.append(f"   B {s.banker} P {s.player} T {s.tie} of {s.coups}", style="dim")
        return strip

    # -- views ---------------------------------------------------------------------------

    def show_table(self) -> None:
        """The layout: the table's state, every seat's stack and bets."""
        table = self.table
        shoe = table.shoe
        left = f", {shoe.remaining} cards left" if shoe is not None else ""
        self.say(
            Text(
                f"{table.variant.title}: shoe {table.shoe_number}, coup {len(table.coups)}{left}",
                style="bold",
            )
        )
        grid = RichTable(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        grid.add_column("Seat", justify="right")
        grid.add_column("Player", max_width=20, overflow="ellipsis")
        grid.add_column("Stack", justify="right")
        grid.add_column("Bets", overflow="fold")
        for state in table.seats:
            who = state.player + ("" if state.strategy is None else f" ({state.strategy})")
            mark = " >" if state.number == self.active else ""
            bets = ", ".join(f"{k.label} {format_money(a)}" for k, a in state.bets) or "-"
            grid.add_row(f"{state.number}{mark}", who, format_money(state.stack), bets)
        if not table.seats:
            grid.add_row("-", "nobody is seated", "", "")
        self.console.print(grid)
        if self.active is not None and self.active in self.humans():
            stack = self.table.stack(self.active)
            self.say(f"Seat {self.active}'s chips: {chips(stack)}", style="dim")
        if self.active is None:
            self.say("Take a seat with 'seat N'; type help for the commands.", style="dim")

    def show_roads(self) -> None:
        """The five roads and the statistics."""
        self.console.print(render_text(self.table.roads, width=min(self.console.width, 100)))

    def show_limits(self) -> None:
        """The bets this table takes, their limits and what they pay."""
        for kind in bets_for(self.table.variant):
            limit = self.table.settings.limit(kind)
            self.say(
                f"{kind.value:<20} {format_money(limit.minimum):>6} to {format_money(limit.maximum):>8}  "
                f"pays {describe_pays(kind, self.table.variant)}"
            )

    def show_history(self, count: int) -> None:
        """The last ``count`` coups of this session, from the store."""
        rows = self.store.hand_history(self.session, limit=count)
        if not rows:
            self.say("No coup yet.")
        for row in rows:
            coup = Coup.parse(row.notation)
            line = Text(f"shoe {row.shoe} coup {row.coup:>2}  {row.notation:<24} ")
            line.append(coup.winner.word, style=_RESULT_STYLE[coup.winner])
            self.say(line)


def start_table(
    store: Store,
    table: Table,
    *,
    humans: Iterable[str],
    bots: int,
    console: Console,
    teach: bool,
    delay: float,
) -> Game:
    """A new session: the shoe, the humans, then the bots; everything saved."""
    session = store.create_session(table, name="terminal")
    table.change_shoe()
    store.save(session, table)
    game = Game(
        table=table, store=store, session=session, console=console, teach=teach, delay=delay
    )
    for name in humans:
        game.sit_human(name)
    for i in range(bots):
        if not table.free_seats():
            console.print(f"The table is full: {i} bots seated.")
            break
        game.sit_bot(BOT_STRATEGIES[i % len(BOT_STRATEGIES)])
    humans_seated = game.humans()
    game.active = humans_seated[0] if humans_seated else None
    return game
