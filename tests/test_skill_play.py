"""The players' games in the terminal, played through their real prompts.

In process: `play_chemin` and `play_banque` with an injected ``ask`` (answering by what
each question asks) and ``say``. As a user would: ``baccara play --variant ...`` fed
its input on stdin (in this process: `tests.support.terminal.run_cli`), saved in a
database and resumed.
"""

from __future__ import annotations

import io
import itertools
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from tests.support.terminal import Ran, run_cli

from baccara.cli import skill_play
from baccara.db.players import PlayersStore
from baccara.db.store import Store
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import StakePlaced
from baccara.tui.banque import play_banque
from baccara.tui.chemin import _human_stake, play_chemin
from baccara.tui.prompts import GameResult, Journal, Prompter, Quit, TerminalSeats

ENV_80_COLUMNS = {"COLUMNS": "80", "LINES": "24", "PYTHONIOENCODING": "utf-8"}
RAW_CENTS = re.compile(r"(?<![\w.,])\d{3,}(?![\w.,])")
"""A bare number of three digits or more: cents where money is meant."""


class Script:
    """Answers by what a question asks (the first reply whose key it contains);
    every question and said line kept in order, in one transcript."""

    def __init__(self, replies: Sequence[tuple[str, Sequence[str]]], *, stop: int | None = None):
        self.replies = [(key, itertools.cycle(answers)) for key, answers in replies]
        self.lines: list[str] = []
        self.asked: list[str] = []
        self.stop = stop

    def ask(self, question: str) -> str:
        if self.stop is not None and len(self.asked) >= self.stop:
            raise Quit
        self.asked.append(question)
        self.lines.append(f"? {question}")
        for key, answers in self.replies:
            if key in question:
                return next(answers)
        raise AssertionError(f"unexpected question {question!r}")

    def say(self, text: str) -> None:
        self.lines.append(text)


CHEMIN_REPLIES: list[tuple[str, Sequence[str]]] = [
    ("set the bank", ["50"]),
    ("Keep it or pass it", ["Keep", "pass"]),
    ("banco for", ["BANCO", "stake 10", "pass"]),
    ("cover up to", ["10"]),
    ("Draw or stand", ["Draw", "stand"]),
]
BANQUE_REPLIES: list[tuple[str, Sequence[str]]] = [
    ("bid for the bank", ["pass"]),
    ("keep it or retire", ["keep"]),
    ("left or the right", ["Left", "right"]),
    ("your stake on", ["10", "2"]),
    ("draw or stand", ["draw", "Stand"]),
    ("Draw or stand", ["stand"]),
]


def seats(
    script: Script, coups: int, journal: Journal | None = None, replay: Sequence[str] = ()
) -> TerminalSeats:
    return TerminalSeats(
        humans=("Player 1",),
        bots=2,
        seed=4,
        coups=coups,
        ask=script.ask,
        say=script.say,
        journal=journal,
        replay=replay,
    )


def chemin(
    script: Script, journal: Journal | None = None, replay: Sequence[str] = ()
) -> GameResult:
    return play_chemin(seats(script, 30, journal, replay))


def banque(
    script: Script, journal: Journal | None = None, replay: Sequence[str] = ()
) -> GameResult:
    return play_banque(seats(script, 20, journal, replay))


# -- the prompts --------------------------------------------------------------------


def test_key_hints_show_in_a_real_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich would read [d/s] as markup and print nothing of it: the prompt is plain text."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80, color_system=None)
    monkeypatch.setattr(sys, "stdin", io.StringIO("d\n"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda *_: "d")
    p = Prompter(ask=skill_play._ask(console), say=console.print)
    assert p.choose("Draw or stand?", [("d", "draw"), ("s", "stand")]) == "draw"
    assert "Draw or stand? [d]raw/[s]tand" in out.getvalue()
    for choices, shown in [
        ([("b", "banco"), ("p", "pass")], "[b]anco/[p]ass"),
        ([("k", "keep"), ("r", "retire")], "[k]eep/[r]etire"),
        ([("l", "left"), ("r", "right")], "[l]eft/[r]ight"),
    ]:
        out.truncate(0)
        monkeypatch.setattr("builtins.input", lambda *_, w=choices[0][1]: w)
        assert p.choose("Which?", choices) == choices[0][1]
        assert shown in out.getvalue()


@pytest.mark.parametrize(
    ("choices", "typed", "word"),
    [
        ([("b", "banco"), ("p", "pass")], "BANCO", "banco"),
        ([("d", "draw"), ("s", "stand")], "Draw", "draw"),
        ([("d", "draw"), ("s", "stand")], "STAND", "stand"),
        ([("k", "keep"), ("p", "pass")], "Keep", "keep"),
        ([("k", "keep"), ("p", "pass")], "pass", "pass"),
        ([("k", "keep"), ("r", "retire")], "Retire", "retire"),
        ([("l", "left"), ("r", "right")], "LEFT", "left"),
        ([("l", "left"), ("r", "right")], "r", "right"),
    ],
)
def test_full_words_and_keys_in_any_case(
    choices: list[tuple[str, str]], typed: str, word: str
) -> None:
    said: list[str] = []
    p = Prompter(ask=lambda _: typed, say=said.append)
    assert p.choose("?", choices) == word and said == []


def test_help_says_what_can_be_typed_and_quit_quits() -> None:
    said: list[str] = []
    answers = iter(["help", "HELP", "bid 12.50"])
    p = Prompter(ask=lambda _: next(answers), say=said.append)
    answer = p.amount("Bid?", lambda _: None, words=[("p", "pass")])
    assert answer == "1250"
    assert said == ["Type an amount such as 10 or 10.50, or pass (p), or help, or quit."] * 2
    with pytest.raises(Quit):
        Prompter(ask=lambda _: "Quit", say=said.append).choose("?", [("d", "draw")])


def test_an_unknown_word_is_one_line_and_asked_again() -> None:
    said: list[str] = []
    answers = iter(["maybe", "banco", "s"])
    p = Prompter(ask=lambda _: next(answers), say=said.append)
    assert p.choose("Draw or stand?", [("d", "draw"), ("s", "stand")]) == "stand"
    assert said == [
        "✗ 'maybe' is not an answer now: type draw (d) or stand (s).",
        "✗ 'banco' is not an answer now: type draw (d) or stand (s).",
    ]
    assert p.recorded == ["stand"]


def test_amounts_are_typed_as_money_and_refusals_are_one_line() -> None:
    said: list[str] = []
    answers = iter(["12", "10.5", "ten", "5.50"])
    p = Prompter(ask=lambda _: next(answers), say=said.append)
    answer = p.amount("Stake?", lambda a: None if a <= 1_050 else "bad stake: 10.50 open")
    assert answer == "1050"  # 12 refused, then 10.50
    assert said == ["✗ bad stake: 10.50 open"]
    assert p.amount("Stake?", lambda a: None) == "550"
    assert said[-1] == "✗ 'ten' is not an answer now: type an amount such as 10 or 10.50."


# -- Chemin de Fer --------------------------------------------------------------------


def test_chemin_through_the_prompts_status_money_and_full_words() -> None:
    script = Script(CHEMIN_REPLIES)
    result = chemin(script)
    assert result.coups == 30
    assert sum(result.bankrolls) + result.house == result.start_total
    text = "\n".join(script.lines)
    assert "Player 1 holds the bank for 50.00." in text
    assert "Banco! Player 1 plays for the whole bank" in text
    assert not RAW_CENTS.findall(text), RAW_CENTS.findall(text)
    for i, line in enumerate(script.lines):  # a status line right before every question
        if line.startswith("? "):
            assert script.lines[i - 1].startswith("— ") or script.lines[i - 1].startswith("? ")
    first = script.lines.index(next(line for line in script.lines if line.startswith("? ")))
    assert script.lines[first - 1].startswith("— no bank yet, Player 1 holds the shoe; ")
    assert "Player 1 1,000.00 · Ada 1,000.00 · Borel 1,000.00" in script.lines[first - 1]


def test_chemin_bad_input_changes_nothing() -> None:
    """A stake over the bank, banco where it is not allowed, an unknown word: one line
    each, and the game goes on exactly as without them."""
    plain = Script(CHEMIN_REPLIES)
    straight = chemin(plain)
    noisy_replies: list[tuple[str, Sequence[str]]] = [
        ("set the bank", ["banco", "5,000", "50"]),
        ("Keep it or pass it", ["Keep", "pass"]),
        ("banco for", ["BANCO", "99999", "stake 10", "500", "pass"]),
        ("cover up to", ["99999", "10"]),
        ("Draw or stand", ["sit", "Draw", "stand"]),
    ]
    noisy = Script(noisy_replies)
    assert chemin(noisy) == straight
    errors = [line for line in noisy.lines if line.startswith("✗")]
    assert (
        "✗ 'banco' is not an answer now: type an amount such as 10 or 10.50, or pass (p)." in errors
    )
    assert any(e.startswith("✗ bad bank 5,000.00: between 1.00 and the banker's") for e in errors)
    assert any(re.match(r"✗ bad stake 99,999.00: Player 1 has [\d,]+\.\d\d$", e) for e in errors)
    assert any(re.match(r"✗ bad stake 500.00: only [\d.]+ of the bank is open", e) for e in errors)
    assert "✗ 'sit' is not an answer now: type draw (d) or stand (s)." in errors
    events = [line for line in plain.lines if not line.startswith(("?", "—"))]
    assert [line for line in noisy.lines if not line.startswith(("?", "—", "✗"))] == events


def test_banco_a_punter_cannot_cover_is_refused() -> None:
    """Banco when it is not open to you (the bank is over your stack): one line, and
    the same question again; a stake over the open bank likewise."""
    table = CheminTable(names=("Ann", "Me"), bankrolls=(10_000, 1_000), seed=1)
    table.open_bank(5_000)
    said: list[str] = []
    answers = iter(["banco", "B", "20", "5"])
    p = Prompter(ask=lambda _: next(answers), say=said.append)
    _human_stake(p, table, 1)
    assert said == [
        "✗ no banco: Me cannot cover a bank of 50.00",
        "✗ no banco: Me cannot cover a bank of 50.00",
        "✗ bad stake 20.00: Me has 10.00",
    ]
    staked = [e for e in table.log if isinstance(e, StakePlaced)]
    assert [(e.seat, e.amount) for e in staked] == [(1, 500)] and p.recorded == ["500"]


# -- Baccarat Banque ------------------------------------------------------------------


def test_the_auction_is_open_and_a_human_can_win_it() -> None:
    replies: list[tuple[str, Sequence[str]]] = [
        ("bid for the bank", ["10", "0.50", "bid 40", "Bid 500", *["pass"] * 50]),
        *BANQUE_REPLIES[1:],
    ]
    script = Script(replies)
    banque(script)
    first = next(q for q in script.asked if "bid for the bank" in q)
    assert first.startswith("Player 1: bid for the bank (no bid yet, at least 1.00) or [p]ass")
    text = "\n".join(script.lines)
    assert "99" not in first and "0.99" not in text
    assert re.search(
        r"^✗ bad bid 0.50: it must beat the best bid [\d.]+ by (Ada|Borel)$", text, re.M
    )
    assert "Player 1 bids 500.00 for the bank." in text
    assert "Player 1 takes the bank for 500.00." in text
    bids = re.findall(r"^(\w+(?: 1)?) bids ([\d,.]+) for the bank\.$", text, re.M)
    assert bids[0] == ("Player 1", "10.00") and len({who for who, _ in bids}) == 3
    amounts = [float(a.replace(",", "")) for _, a in bids]
    assert amounts == sorted(amounts) and len(set(amounts)) == len(amounts)  # each beats the last
    raise_question = next(q for q in script.asked[1:] if "bid for the bank" in q)
    assert re.search(r"\(best [\d.]+ by (Ada|Borel)\)", raise_question)
    assert not RAW_CENTS.findall(text)


def test_a_human_who_passes_leaves_the_bank_to_a_bot_that_bid_a_budget() -> None:
    script = Script(BANQUE_REPLIES)
    result = banque(script)
    text = "\n".join(script.lines)
    taken = re.search(r"^(Ada|Borel) takes the bank for ([\d,.]+)\.$", text, re.M)
    assert taken is not None and 1 <= float(taken.group(2)) <= 500  # a budget, not the bankroll
    assert "Player 1: stake on the left or the right tableau? [l]eft/[r]ight" in script.asked
    assert sum(result.bankrolls) + result.house == result.start_total


def test_a_bid_below_the_best_changes_nothing() -> None:
    plain = Script([("bid for the bank", ["20", "300", *["pass"] * 50]), *BANQUE_REPLIES[1:]])
    noisy = Script(
        [("bid for the bank", ["20", "5", "maybe", "300", *["pass"] * 50]), *BANQUE_REPLIES[1:]]
    )
    assert banque(noisy) == banque(plain)
    errors = [line for line in noisy.lines if line.startswith("✗")]
    assert re.fullmatch(r"✗ bad bid 5.00: it must beat the best bid [\d.]+ by \w+", errors[0])
    assert errors[1].startswith("✗ 'maybe' is not an answer now")


# -- saved and resumed ----------------------------------------------------------------


class ListJournal:
    def __init__(self) -> None:
        self.answers: list[str] = []

    def decided(self, answer: str) -> None:
        self.answers.append(answer)

    def holdings(self, holdings: Sequence[int], house: int) -> None:
        assert sum(holdings) + house == 3 * 100_000


@pytest.mark.parametrize("game", [chemin, banque])
def test_a_resumed_game_ends_as_one_played_straight_through(
    game: Callable[..., GameResult],
) -> None:
    replies = CHEMIN_REPLIES if game is chemin else BANQUE_REPLIES
    expected = game(Script(replies))
    journal = ListJournal()
    before = Script(replies, stop=7)
    with pytest.raises(Quit):
        game(before, journal=journal)
    assert len(journal.answers) == 7
    later = Script(replies)
    for question in before.asked:  # where the answers stood when the player quit
        later.ask(question)
    later.lines.clear()
    assert game(later, replay=journal.answers) == expected
    assert later.lines[0].startswith("— ")  # nothing said again: the status, then the question


def play(db: Path, script: str, *args: str) -> Ran:
    """``baccara play`` on ``db`` with ``script`` piped in, in this process (`run_cli`)."""
    args = ("--db", str(db), "--seats", "1", "--bots", "2", *args)
    return run_cli(["play", *args], script, ENV_80_COLUMNS)


CHEMIN_INPUT = ["help", "nonsense", "50", "BANCO", "Draw", "keep", "10", "pass", "stand"]


@pytest.mark.parametrize(
    ("variant", "answers"),
    [
        ("chemin-de-fer", CHEMIN_INPUT + ["pass", "draw", "20", "stand"] * 400),
        (
            "banque",
            ["help", "pass", "pass", "right", "10", "stand"]
            + ["left", "5", "draw", "keep", "pass"] * 300,
        ),
    ],
)
def test_baccara_play_saves_and_resumes_to_the_same_state(
    tmp_path: Path, variant: str, answers: list[str]
) -> None:
    args = ("--variant", variant, "--seed", "4")
    straight = play(tmp_path / "a.db", "\n".join(answers) + "\n", *args)
    assert straight.returncode == 0, straight.stderr
    out = straight.stdout
    assert "Traceback" not in out + straight.stderr
    assert "— " in out and "[p]ass" in out and "Type an amount" in out
    assert not RAW_CENTS.findall(out), RAW_CENTS.findall(out)

    first = play(tmp_path / "b.db", "\n".join(answers[:5]) + "\nquit\n", *args)
    assert first.returncode == 0 and "Goodbye. The game is saved" in first.stdout
    again = play(tmp_path / "b.db", "\n".join(answers[5:]) + "\n", *args)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming session 1 (")
    final = [line for line in out.splitlines() if line.startswith("Bankrolls:")]
    assert final == [ln for ln in again.stdout.splitlines() if ln.startswith("Bankrolls:")]
    assert "The shoe is over: session 1 is closed" in again.stdout
    a, b = Store.at(tmp_path / "a.db"), Store.at(tmp_path / "b.db")
    try:
        assert a.check_invariants() == [] and b.check_invariants() == []
        assert a.balances() == b.balances()  # every seat, wallet and the house
        assert PlayersStore(b).open_games([variant, "chemin-de-fer", "banque"]) == []
    finally:
        a.close()
        b.close()


def test_punto_banco_and_a_players_game_keep_their_own_sessions(tmp_path: Path) -> None:
    db = tmp_path / "both.db"
    chemin_run = play(db, "50\nq\n", "--variant", "chemin-de-fer", "--seed", "4")
    assert chemin_run.returncode == 0, chemin_run.stderr
    punto = play(db, "q\n", "--seed", "4")
    assert punto.returncode == 0 and "A new Punto Banco table" in punto.stdout
    back = play(db, "q\n", "--variant", "chemmy", "--seed", "4")
    assert back.stdout.startswith("Resuming session 1 (Chemin de Fer, 1 decision made)")
    fresh = play(db, "q\n", "--variant", "chemmy", "--seed", "4", "--new")
    assert "A new Chemin de Fer table (session 3)" in fresh.stdout
    store = Store.at(db)
    try:
        assert store.check_invariants() == []
        assert [s.closed for s in store.list_sessions() if s.variant == "chemin-de-fer"] == [
            False,
            True,
        ]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--db", "nosuchdb://x/y"], "baccara: error: bad database URL 'nosuchdb://x/y'"),
        (["--seats", "9", "--bots", "9"], "9 players and 9 bots do not fit"),
        (["--seats", "0", "--bots", "1"], "a table needs at least two players"),
    ],
)
@pytest.mark.parametrize("variant", ["chemin-de-fer", "banque"])
def test_bad_command_lines_are_one_line_and_exit_2(
    tmp_path: Path, variant: str, args: list[str], message: str
) -> None:
    run = run_cli(
        ["play", "--variant", variant, "--db", str(tmp_path / "x.db"), *args], "", ENV_80_COLUMNS
    )
    assert run.returncode == 2 and run.stdout == ""
    assert message in run.stderr and len(run.stderr.splitlines()) == 1


def _start(store: Store) -> PlayersStore:
    games = PlayersStore(store)
    games.start(
        variant="chemin-de-fer",
        seed=4,
        names=("Player 1", "Ada", "Borel"),
        humans=(True, False, False),
        bankroll=100_000,
        setup={"decks": 6, "tableau": "french", "free_banker": False},
    )
    return games


def test_a_game_in_the_store_resumes_with_its_money(database_url: str) -> None:
    """On SQLite and PostgreSQL: a game saved as it goes, quit, resumed and finished has
    the same books as one played straight through, and the books balance."""
    from baccara.cli.skill_play import _Journal

    straight_store = Store("sqlite://")
    store = Store(database_url)
    try:
        games = _start(straight_store)
        straight = chemin(Script(CHEMIN_REPLIES), journal=_Journal(games, 1))
        games.finish(1, list(straight.bankrolls))

        games = _start(store)
        before = Script(CHEMIN_REPLIES, stop=9)
        with pytest.raises(Quit):
            chemin(before, journal=_Journal(games, 1))
        assert store.check_invariants() == []
        saved = games.load(1)
        assert len(saved.decisions) == 9 and saved.seed == 4
        later = Script(CHEMIN_REPLIES)
        for question in before.asked:  # the script's answers where the player quit
            later.ask(question)
        resumed = chemin(later, journal=_Journal(games, 1), replay=saved.decisions)
        games.finish(1, list(resumed.bankrolls))
        assert resumed == straight
        assert store.check_invariants() == [] and games.open_games(["chemin-de-fer"]) == []
        assert store.balances() == straight_store.balances()
    finally:
        store.close()
        straight_store.close()
