"""The players' games' prompts: key hints, full words, help, money, and replayed decisions.

A `Prompter` asks a human through an injected ``ask`` and speaks through ``say``. Every
question shows what can be typed (``[d]raw/[s]tand``); a key or its whole word is
accepted in any case, ``help`` lists what can be typed now, ``quit`` (or ``q``) raises
`Quit`, and anything else gets one line saying what is accepted and is asked again.
Amounts are typed as money (``10``, ``10.50``) and checked by the caller's rule, whose
refusal is said in one line. Each answer is returned in a canonical form (``"draw"``,
``"pass"``, ``"1050"`` for 10.50) and recorded; given the answers of an earlier session
(``replay``) the prompter gives them back silently, so a game resumes where it was.

>>> said: list[str] = []
>>> answers = iter(["?", "BANCO", "help", "Draw"])
>>> p = Prompter(ask=lambda q: next(answers), say=said.append)
>>> p.choose("Draw or stand?", [("d", "draw"), ("s", "stand")])
'draw'
>>> said
['Type draw (d) or stand (s), or help, or quit.', "✗ 'BANCO' is not an answer now: type draw (d) or stand (s).", 'Type draw (d) or stand (s), or help, or quit.']
>>> hint([("d", "draw"), ("s", "stand")])
'[d]raw/[s]tand'
>>> p.recorded
['draw']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from baccara.money import MoneyError, format_money, parse_money
from baccara.skill.actions import Act, Action, Legal
from baccara.skill.players import GameError, GameEvent
from baccara.variants import Variant

__all__ = [
    "Ask",
    "GameResult",
    "Journal",
    "Prompter",
    "Quit",
    "Say",
    "TerminalSeats",
    "draw_or_stand",
    "hint",
    "money_range",
    "refusal",
    "seat_names",
    "status_line",
]

Ask = Callable[[str], str]
Say = Callable[[str], None]
Check = Callable[[int], str | None]
"""A rule on an amount: None if it is allowed, else why not (one line)."""
WIDTH = 78
"""A status line longer than this is said on two lines."""

HELP_WORDS = ("help", "h", "?")
QUIT_WORDS = ("quit", "q", "exit")
DRAW_STAND = (("d", "draw"), ("s", "stand"))
_BOT_NAMES = ("Ada", "Borel", "Conway", "Dormoy", "Euler", "Foster", "Gauss", "Hoyle", "Isaacs")


class Quit(Exception):
    """The player typed quit (or the input ended): the game stops where it is."""


class Journal(Protocol):
    """Where a game's decisions and money go as they happen (the store, or nothing)."""

    def decided(self, answer: str) -> None:
        """A human's answer, in its canonical form."""

    def holdings(self, holdings: Sequence[int], house: int) -> None:
        """What each seat holds (its stack, stakes and bank) and the house's take now."""


class Table(Protocol):
    """What the end of a game reads of a players' table (Chemin de Fer or Banque)."""

    bankrolls: list[int]
    bank: int
    house: int

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def banker(self) -> int | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """How a session ended: coups played, final bankrolls, the house's take."""

    coups: int
    names: tuple[str, ...]
    bankrolls: tuple[int, ...]
    house: int
    start_total: int

    @classmethod
    def of(cls, p: Prompter, table: Table, *, coups: int, start: int) -> GameResult:
        """The end of a players' game: the bank back to its banker, the bankrolls said."""
        if table.banker is not None and table.bank:
            table.bankrolls[table.banker] += table.bank
            table.bank = 0
        names = tuple(table.names)
        p.say(
            "Bankrolls: "
            + ", ".join(
                f"{n} {format_money(b)}" for n, b in zip(names, table.bankrolls, strict=True)
            )
        )
        return cls(
            coups=coups,
            names=names,
            bankrolls=tuple(table.bankrolls),
            house=table.house,
            start_total=start,
        )


def seat_names(humans: Sequence[str], bots: int) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The seats' names (humans first, then bots) and which are human.

    >>> seat_names(["Player 1"], 2)
    (('Player 1', 'Ada', 'Borel'), (True, False, False))
    """
    names = list(humans) + [
        _BOT_NAMES[i % len(_BOT_NAMES)] + ("" if i < len(_BOT_NAMES) else str(i))
        for i in range(bots)
    ]
    if len(names) < 2:
        raise ValueError(f"bad table: {len(names)} seat(s); a table needs at least two players")
    return tuple(names), tuple([True] * len(humans) + [False] * bots)


@dataclass(frozen=True, slots=True, kw_only=True)
class TerminalSeats:
    """A shoe to play at the terminal: the game (None: its family's own), who sits
    (``humans`` by name, then ``bots``), the seed and each seat's chips, teaching mode,
    the game's own ``setup`` (Chemin de Fer's ``tableau`` and ``free_banker``), the most
    ``coups`` to play (None: the whole shoe), the input and output, and the answers of
    an earlier session to ``replay`` (given back silently; ``journal`` is told each new
    answer and the money after each action)."""

    variant: Variant | None = None
    humans: Sequence[str] = ()
    bots: int = 3
    seed: int | None = None
    bankroll: int = 100_000
    teach: bool = False
    setup: Mapping[str, object] = field(default_factory=dict)
    coups: int | None = None
    ask: Ask | None = None
    say: Say = print
    replay: Sequence[str] = ()
    journal: Journal | None = None

    def seated(self) -> tuple[tuple[str, ...], tuple[bool, ...]]:
        """The seats' names and which are human (`seat_names`); a human seat needs ``ask``.

        >>> TerminalSeats(humans=("Ann",), bots=1).seated()
        Traceback (most recent call last):
        ...
        ValueError: human seats need an input function
        """
        names, human = seat_names(self.humans, self.bots)
        if any(human) and self.ask is None:
            raise ValueError("human seats need an input function")
        return names, human

    def prompter(self) -> Prompter:
        """The prompts of this shoe's humans."""
        return Prompter(ask=self.ask, say=self.say, replay=self.replay, journal=self.journal)


def hint(choices: Iterable[tuple[str, str]]) -> str:
    """The key hint of a question: each word with its key in brackets."""
    return "/".join(
        f"[{key}]{word[len(key) :]}" if word.startswith(key) else f"{word} [{key}]"
        for key, word in choices
    )


def _listing(choices: Iterable[tuple[str, str]]) -> str:
    words = [f"{word} ({key})" if key != word else word for key, word in choices]
    return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]


class Prompter:
    """Questions to the humans at one terminal; answers recorded, or replayed."""

    def __init__(
        self,
        *,
        ask: Ask | None,
        say: Say,
        replay: Sequence[str] = (),
        journal: Journal | None = None,
        status: Callable[[], str] | None = None,
    ) -> None:
        self._ask = ask
        self._say = say
        self._replay = deque(replay)
        self.journal = journal
        self.status = status
        self.recorded: list[str] = []
        self.hush = False
        """Say nothing (set while the game replays up to the next live question)."""

    @property
    def replaying(self) -> bool:
        """Whether answers of an earlier session are still being given back."""
        return bool(self._replay)

    def say(self, text: str) -> None:
        """Say ``text``, unless the game is being replayed to where it was."""
        if not self._replay and not self.hush:
            self._say(text)

    def tell(self, events: Iterable[GameEvent], holdings: Sequence[int], house: int) -> None:
        """Say what an action caused, then tell the journal (unless replaying) what each
        seat holds and the house's take."""
        for event in events:
            self.say(event.text)
        if self.journal is not None and not self.replaying:
            self.journal.holdings(holdings, house)

    def decide(self, live: Callable[[], str]) -> str:
        """The next answer: replayed if any is left, else asked (``live``) and recorded."""
        if self._replay:
            self.hush = True  # what this answer causes was said in the earlier session
            return self._replay.popleft()
        self.hush = False
        if self.status is not None:
            self._say(self.status())
        answer = live()
        self.recorded.append(answer)
        if self.journal is not None:
            self.journal.decided(answer)
        return answer

    def _line(self, question: str, accepted: str) -> str | None:
        """One line from the human; None after help (already answered)."""
        if self._ask is None:
            raise ValueError("human seats need an input function")
        word = self._ask(question).strip()
        if word.lower() in QUIT_WORDS:
            raise Quit
        if word.lower() in HELP_WORDS:
            self._say(f"Type {accepted}, or help, or quit.")
            return None
        return word

    def choose(self, question: str, choices: Sequence[tuple[str, str]]) -> str:
        """Ask ``question`` until the answer is one of ``choices`` (key, word); return the word."""
        by_text = {text: word for key, word in choices for text in (key, word)}
        accepted = _listing(choices)

        def live() -> str:
            while True:
                line = self._line(f"{question} {hint(choices)}", accepted)
                if line is None:
                    continue
                if line.lower() in by_text:
                    return by_text[line.lower()]
                self._say(f"✗ {line!r} is not an answer now: type {accepted}.")

        return self.decide(live)

    def amount(
        self,
        question: str,
        check: Check,
        *,
        words: Sequence[tuple[str, str]] = (),
        word_check: Callable[[str], str | None] | None = None,
        example: str = "10 or 10.50",
        nudge: dict[str, str] | None = None,
    ) -> str:
        """Ask for an amount (money) that ``check`` allows, or one of ``words``.

        Return the word, or the amount in minor units as a string. A leading ``bid``,
        ``stake`` or ``cover`` before the amount is allowed. ``word_check`` may refuse a
        word now (one line); ``nudge`` answers a lone word with a hint and asks again.
        """
        by_text = {text: word for key, word in words for text in (key, word)}
        accepted = f"an amount such as {example}" + (f", or {_listing(words)}" if words else "")
        suffix = f" {hint(words)}" if words else ""

        def live() -> str:
            while True:
                line = self._line(f"{question}{suffix}", accepted)
                if line is None:
                    continue
                text = line.lower()
                if text in by_text:
                    problem = word_check(by_text[text]) if word_check else None
                    if problem is None:
                        return by_text[text]
                    self._say(f"✗ {problem}")
                    continue
                if nudge and text in nudge:
                    self._say(f"✗ {nudge[text]}")
                    continue
                first, _, rest = text.partition(" ")
                if first in ("bid", "stake", "cover") and rest:
                    text = rest
                try:
                    value = parse_money(text)
                except MoneyError:
                    self._say(f"✗ {line!r} is not an answer now: type {accepted}.")
                    continue
                if value == 0 and "pass" in by_text.values():
                    return "pass"
                problem = check(value)
                if problem is None:
                    return str(value)
                self._say(f"✗ {problem}")

        return self.decide(live)


def money_range(low: int, high: int) -> str:
    """``'1.00 to 50.00'``.

    >>> money_range(100, 5_000)
    '1.00 to 50.00'
    """
    return f"{format_money(low)} to {format_money(high)}"


def status_line(
    bank: str, names: Sequence[str], bankrolls: Sequence[int], acting: int | None
) -> str:
    """The status said before a question: the bank, who acts, every seat's stack.

    One line when it fits in `WIDTH` columns, else two.

    >>> status_line("bank 25.00 held by Ann", ["Ann", "Bob"], [7_500, 10_000], 1)
    '— bank 25.00 held by Ann; Bob to act | Ann 75.00 · Bob 100.00'
    """
    who = "nobody" if acting is None else names[acting]
    head = f"— {bank}; {who} to act"
    stacks = " · ".join(
        f"{name} {format_money(money)}" for name, money in zip(names, bankrolls, strict=True)
    )
    one = f"{head} | {stacks}"
    return one if len(one) <= WIDTH else f"{head}\n  {stacks}"


def refusal(verify: Callable[[], object]) -> str | None:
    """Run a table's ``verify_...`` call: None if it passes, else the table's reason.

    >>> def verify() -> None:
    ...     raise GameError("not your turn")
    >>> refusal(verify), refusal(lambda: None)
    ('not your turn', None)
    """
    try:
        verify()
    except GameError as error:
        return str(error)
    return None


def draw_or_stand(
    p: Prompter, question: str, acts: tuple[Act, Act], legal: Mapping[Act, Legal]
) -> Action:
    """Ask whether to draw (``acts[0]``) or stand (``acts[1]``), offering only what is
    legal; the action answered.

    >>> p = Prompter(ask=lambda q: "s", say=print)
    >>> legal = {Act.STAND: Legal(act=Act.STAND, seat=0)}
    >>> draw_or_stand(p, "Draw or stand?", (Act.DRAW, Act.STAND), legal).act
    <Act.STAND: 'stand'>
    """
    words = [word for word, act in zip(DRAW_STAND, acts, strict=True) if act in legal]
    draws = p.choose(question, words) == "draw"
    return legal[acts[0] if draws else acts[1]].action()
