"""What the crash cycles check: the punters' own memory of their bets against the books.

`Punters` is what the punters' clients remember across restarts, as the page does:
every bet sent, under its id and round, and its answer (none yet: *pending*, to be
resent after a reconnect; ``bet_ack``: *acked*; an error: *refused*). It checks each
answer as it comes: a bet acked once is never answered otherwise, nor acked in
another round; an answer names a bet that was sent.

`Books.check` reads the database (with no server running, or a stopped one) and lists
every problem in words:

- the ledger's invariants (`Ledger.check_invariants`);
- money conserved: the wallets, the chips at the players' table, the escrows and the
  house hold what was deposited, no more, no less;
- every acked bet is in the books exactly once, in the round it was acked in; no
  refused bet is; no bet is there that a punter did not send (same kind and amount);
- nothing paid twice: each punter's wallet is the deposit, less every stake, plus
  every return of a settled or refunded bet; no round has two settlements;
- at the end (``final``): no bet is left unanswered or unsettled.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from baccara.db.chips import chips_account
from baccara.db.ledger import Ledger, bets, rounds, wallet_account
from baccara.db.schema import accounts, entries, settlements

__all__ = ["Bet", "Books", "Punters"]

PENDING, ACKED, REFUSED = "pending", "acked", "refused"
FINE_REFUSALS = ("betting_closed", "insufficient_funds")
"""The errors a bet may get without anything being wrong (the window closed as it was
sent, or a resend found it had never been placed; a broke punter)."""
NOT_DONE = "table_moving"
"""The error that leaves a bet unanswered: nothing was done, it is sent again (the
table was passing to another process)."""


@dataclass(slots=True)
class Bet:
    """One bet a punter sent, and what the server answered."""

    player: str
    bet_id: str
    kind: str
    amount: int
    round: int
    state: str = PENDING
    acked_round: int | None = None
    code: str = ""

    def message(self, *, with_round: bool) -> dict[str, Any]:
        """The ``bet`` message: with its round, as the page sends (and resends) it."""
        out: dict[str, Any] = {
            "type": "bet",
            "bet_id": self.bet_id,
            "kind": self.kind,
            "amount": self.amount,
        }
        if with_round:
            out["round"] = self.round
        return out


class Punters:
    """The punters' clients' memory of their bets (it outlives the server's restarts)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.bets: dict[tuple[str, str], Bet] = {}
        self.resent = 0
        self.careless = 0
        self.problems: list[str] = []

    def new(self, player: str, round_id: int, rng: random.Random) -> Bet:
        """A fresh bet of ``player`` for round ``round_id`` (a new id)."""
        kind = rng.choice(["player", "banker", "banker", "tie"])
        amount = 100 if kind == "tie" else rng.choice([1_000, 1_500, 2_000])
        bet = Bet(player, f"{player}-{len(self.bets)}", kind, amount, round_id)
        self.bets[player, bet.bet_id] = bet
        return bet

    def mine(self, player: str, state: str) -> list[Bet]:
        """``player``'s bets in ``state`` (oldest first)."""
        return [b for b in self.bets.values() if b.player == player and b.state == state]

    def answer(self, player: str, message: dict[str, Any]) -> None:
        """Take a ``bet_ack`` or a bet's ``error``; a wrong one is a problem."""
        bet = self.bets.get((player, message["bet_id"]))
        if bet is None:
            self.problems.append(f"{player} got an answer for bet {message['bet_id']}, never sent")
            return
        name = f"{player}'s bet {bet.bet_id}"
        if message["type"] == "bet_ack":
            if (message["kind"], message["amount"]) != (bet.kind, bet.amount):
                self.problems.append(f"{name} ({bet.kind} {bet.amount}) acked as {message}")
            if bet.state == ACKED and message["round"] != bet.acked_round:
                self.problems.append(
                    f"{name} acked in round {bet.acked_round}, then in round "
                    f"{message['round']}: placed twice"
                )
            if bet.state == REFUSED:
                self.problems.append(f"{name} refused ({bet.code}), then acked: {message}")
            bet.state, bet.acked_round = ACKED, int(message["round"])
            return
        code = message["code"]
        if code == NOT_DONE:
            return  # still pending: the client sends it again with the next snapshot
        if bet.state == ACKED:
            self.problems.append(
                f"{name} acked in round {bet.acked_round}, then answered {code}: lost"
            )
        elif code not in FINE_REFUSALS:
            self.problems.append(f"{name} refused: {code} ({message['message']})")
        else:
            bet.state, bet.code = REFUSED, code

    def counts(self) -> Counter[str]:
        """How many bets are pending, acked, refused."""
        return Counter(b.state for b in self.bets.values())


class Books:
    """The database's books, read between cycles and checked against `Punters`."""

    def __init__(
        self,
        url: str,
        punters: Punters,
        *,
        deposited: dict[str, int],
        chips: tuple[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.ledger = Ledger.connect(url)
        self.punters = punters
        self.deposited = deposited  # player -> what was deposited into the wallet
        self.chips = chips  # (players' table, its players), whose chips count too

    def close(self) -> None:
        """Let the database go."""
        self.ledger.database.dispose()

    def check(self, *, final: bool = False) -> tuple[list[str], dict[str, int]]:
        """Every problem in words, and the figures (balances by kind, bets, rounds)."""
        problems = [f"invariant: {p}" for p in self.ledger.check_invariants()]
        with self.ledger.database.connect() as conn:
            held = conn.execute(
                sa.select(
                    accounts.c.id,
                    accounts.c.name,
                    accounts.c.kind,
                    sa.func.coalesce(sa.func.sum(entries.c.amount), 0),
                )
                .select_from(accounts.outerjoin(entries, entries.c.account_id == accounts.c.id))
                .group_by(accounts.c.id, accounts.c.name, accounts.c.kind)
            ).all()
            placed = conn.execute(
                sa.select(
                    bets.c.account_id,
                    bets.c.bet_id,
                    bets.c.kind,
                    bets.c.amount,
                    bets.c.round_id,
                    bets.c.status,
                    bets.c.returned,
                )
            ).all()
            twice = conn.execute(
                sa.select(settlements.c.round_id, sa.func.count())
                .group_by(settlements.c.round_id)
                .having(sa.func.count() > 1)
            ).all()
            closed = {
                int(key)
                for (key,) in conn.execute(sa.select(rounds.c.id).where(rounds.c.phase == "closed"))
            }
            phases = dict(
                conn.execute(
                    sa.select(rounds.c.phase, sa.func.count()).group_by(rounds.c.phase)
                ).all()
            )
        problems.extend(f"round {r} settled {n} times" for (r, n) in twice)
        by_name = {str(name): int(amount) for _, name, _, amount in held}
        names = {int(key): str(name) for key, name, _, _ in held}
        kinds: Counter[str] = Counter()
        for _, _, kind, amount in held:
            kinds[str(kind)] += int(amount)
        problems.extend(self._money(kinds))
        problems.extend(self._bets(placed, names, by_name, final))
        figures: dict[str, int] = {f"held by {k}": v for k, v in sorted(kinds.items())}
        figures.update({f"rounds {p}": int(n) for p, n in sorted(phases.items())})
        figures.update({f"bets {s}": n for s, n in sorted(Counter(r[5] for r in placed).items())})
        figures.update({f"sent {s}": n for s, n in sorted(self.punters.counts().items())})
        figures["resent unanswered"] = self.punters.resent
        figures["resent answered"] = self.punters.careless
        figures["rounds closed with bets"] = len(closed & {int(r[4]) for r in placed})
        if self.chips is not None:
            table, players = self.chips
            figures["least chips"] = min(by_name.get(chips_account(table, p), 0) for p in players)
        return problems, figures

    def _money(self, kinds: Counter[str]) -> list[str]:
        deposited = sum(self.deposited.values())
        held = sum(amount for kind, amount in kinds.items() if kind != "external")
        if held == deposited and kinds["external"] == -deposited:
            return []
        return [f"money: {held} held, {deposited} deposited ({dict(kinds)})"]

    def _bets(
        self, placed: list[Any], names: dict[int, str], by_name: dict[str, int], final: bool
    ) -> list[str]:
        problems: list[str] = []
        seen: Counter[tuple[str, str]] = Counter()
        staked: Counter[str] = Counter()
        returned: Counter[str] = Counter()
        for account, bet_id, kind, amount, round_id, status, back in placed:
            player = names[int(account)].removeprefix("wallet:")
            key = (player, str(bet_id))
            seen[key] += 1
            staked[player] += int(amount)
            if status != "placed":
                returned[player] += int(back)
            elif final:
                problems.append(f"{player}'s bet {bet_id} is still unsettled at the end")
            sent = self.punters.bets.get(key)
            if sent is None:
                problems.append(f"{player}'s bet {bet_id} is in the books, never sent")
            elif (sent.kind, sent.amount) != (kind, int(amount)):
                problems.append(
                    f"{player}'s bet {bet_id} was sent as {sent}, booked {kind} {amount}"
                )
            elif sent.state == REFUSED:
                problems.append(f"{player}'s bet {bet_id} was refused ({sent.code}), booked")
            elif sent.state == ACKED and sent.acked_round != round_id:
                problems.append(
                    f"{player}'s bet {bet_id} acked in round {sent.acked_round}, booked in {round_id}"
                )
        problems.extend(f"{p}'s bet {b} is booked {n} times" for (p, b), n in seen.items() if n > 1)
        for bet in self.punters.bets.values():
            if bet.state == ACKED and (bet.player, bet.bet_id) not in seen:
                problems.append(f"{bet.player}'s bet {bet.bet_id} was acked, not booked: lost")
            elif final and bet.state == PENDING:
                problems.append(f"{bet.player}'s bet {bet.bet_id} never got an answer")
        for player in self.punters.names:
            want = self.deposited[player] - staked[player] + returned[player]
            have = by_name.get(wallet_account(player), 0)
            if have != want:
                problems.append(
                    f"{player}'s wallet holds {have}: deposited {self.deposited[player]}, "
                    f"staked {staked[player]}, returned {returned[player]} make {want}"
                )
        return problems
