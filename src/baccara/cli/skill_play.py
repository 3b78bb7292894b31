"""``baccara play --variant chemin-de-fer|banque``: the players' games in the terminal.

`baccara play` hands the variants of these families to `play_skill`; the games and
their equilibrium bots live in `baccara.tui.chemin` and `baccara.tui.banque`, found by
family in `baccara.tui.games`. Amounts
are typed and shown as money (``25``, ``12.50``), kept in minor units inside.

Every game is saved as it goes (`baccara.db.players`: the seed, the seats and each
decision) in the store of ``--db``; the same command later resumes an unfinished game
of the same family where it was, and ``--new`` starts another one.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from baccara.db.players import PlayersGame, PlayersStore
from baccara.db.store import Store
from baccara.tui.games import TERMINAL_GAMES, TerminalSeats, terminal_game
from baccara.tui.prompts import GameResult, Quit, seat_names
from baccara.variants import Variant, find_variant, variants_of

__all__ = ["SKILL_FAMILIES", "SKILL_VARIANTS", "play_skill"]

SKILL_FAMILIES = tuple(TERMINAL_GAMES)
"""The families `play_skill` runs (`baccara.tui.games`)."""
SKILL_VARIANTS = tuple(v.name for v in variants_of(SKILL_FAMILIES))
"""The variants `play_skill` runs (by registry name)."""


def _ask(console: Console) -> Callable[[str], str]:
    """Read one answer: a prompt (shown as typed, never as markup) and a line."""

    def ask(question: str) -> str:
        if sys.stdin.isatty():
            try:
                return console.input(f"{question} ", markup=False)
            except EOFError:
                console.print()
                raise Quit from None
        raw = sys.stdin.readline()
        if not raw:
            raise Quit
        line = raw.rstrip("\n")
        console.print(f"{question} {line}", markup=False)
        return line

    return ask


class _Journal:
    """The game's decisions and money, to the store as they happen."""

    def __init__(self, games: PlayersStore, session: int) -> None:
        self.games = games
        self.session = session
        self.last: tuple[tuple[int, ...], int] | None = None

    def decided(self, answer: str) -> None:
        self.games.decided(self.session, answer)

    def holdings(self, holdings: Sequence[int], house: int) -> None:
        now = (tuple(holdings), house)
        if now != self.last:
            self.games.holdings(self.session, holdings, house)
            self.last = now


def play_skill(
    variant: Variant,
    *,
    seats: int,
    bots: int,
    seed: int | None,
    teach: bool,
    bankroll: int = 100_000,
    free_banker: bool = False,
    tableau: str = "french",
    store: Store,
    new: bool = False,
) -> GameResult | None:
    """Play a whole shoe of ``variant`` with ``seats`` humans and ``bots`` bots, saved in ``store``.

    ``tableau`` is the Chemin de Fer house tableau (``french`` or ``scarne``,
    `tableaux.House`). An unfinished game of the same family in ``store`` is resumed
    (its seats, seed and set-up win over the arguments) unless ``new``.
    """
    terminal_game(variant)  # one line for a family the terminal does not play
    console = Console(highlight=False)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    games = PlayersStore(store)
    try:
        family = [v.name for v in variants_of([variant.family])]
        unfinished = games.open_games(family)
        if unfinished and not new:
            game = games.load(unfinished[0].id)
            variant = find_variant(game.variant).with_changes(decks=game.setup["decks"])
            say(
                f"Resuming session {game.session} ({variant.title}, {len(game.decisions)} "
                f"decision{'' if len(game.decisions) == 1 else 's'} made): every stack is as "
                "you left it. (--new starts another table.)"
            )
        else:
            for info in unfinished:  # a new table: the old ones close, their money to the wallets
                games.abandon(info.id)
            names, human = seat_names([f"Player {i + 1}" for i in range(seats)], bots)
            setup = {"decks": variant.decks, "tableau": tableau, "free_banker": free_banker}
            chosen = seed if seed is not None else secrets.randbelow(2**62)
            session = games.start(
                variant=variant.name,
                seed=chosen,
                names=names,
                humans=human,
                bankroll=bankroll,
                setup=setup,
            )
            game = games.load(session)
            say(f"A new {variant.title} table (session {session}). Type help at any question.")
        result = _run(game, variant, teach, console, say, _Journal(games, game.session))
        holdings = list(result.bankrolls)
        games.finish(game.session, holdings)
        say(f"The shoe is over: session {game.session} is closed, the money in the wallets.")
        return result
    except Quit:
        say("Goodbye. The game is saved: the same command resumes it (--new starts another).")
        return None


def _run(
    game: PlayersGame,
    variant: Variant,
    teach: bool,
    console: Console,
    say: Callable[[str], None],
    journal: _Journal,
) -> GameResult:
    humans = tuple(n for n, h in zip(game.names, game.humans, strict=True) if h)
    bots = len(game.names) - len(humans)
    seats = TerminalSeats(
        variant=variant,
        humans=humans,
        bots=bots,
        seed=game.seed,
        bankroll=game.bankroll,
        teach=teach,
        setup=game.setup,
        ask=_ask(console),
        say=say,
        replay=game.decisions,
        journal=journal,
    )
    return terminal_game(variant)(seats)
