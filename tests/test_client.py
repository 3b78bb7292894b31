"""`baccara.client` (issue 26): two bots through the real WebSocket protocol at a
`baccara serve` Chemin de Fer table, one drawing on 5 by the solver's equilibrium (the
punter's 9/11 of Kemeny and Snell), play coups to their settlement; every message they
get parses into the server's models; the books balance."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from tests.support.inprocess import ServerThread

from baccara.client import Client, ClientError
from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig
from baccara.server.wire import protocol as P
from baccara.skill.solver.chemin import solve_chemin

DRAW_ON_5 = solve_chemin("kemeny-snell").player_draw["5"]


async def _bot(client: Client, coups: int, rng: random.Random) -> int:
    """Play until ``coups`` coups are settled; the coups seen settled. The punter's own
    choices come privately (`CheminHand`): the table's state offers both on any total."""
    await client.login(register=True)
    state = await client.join("c1")
    assert isinstance(state, P.CheminState)
    await client.sit(20_000)
    settled: set[str] = set()
    while len(settled) < coups:
        got = await client.next(P.CheminState, P.CheminHand, timeout=60)
        if isinstance(got, P.CheminState):
            state = got
            if state.last is not None:
                settled.add(f"{state.shoe}:{state.last.punter_cards}{state.last.banker_cards}")
            choices = state.choices
            if not client.asked(state) or {"draw", "stand"} <= set(choices):
                continue  # not mine, answered, or the punter's (his own choices follow)
        elif got.choices and client.asked(state):
            choices = got.choices
        else:
            continue
        if "open_bank" in choices:
            await client.act(state, "open_bank", 2_000)
        elif "banco" in choices:
            await client.act(state, "banco")
        elif {"draw", "stand"} <= set(choices):  # the punter on 5: the equilibrium
            await client.act(state, "draw" if rng.random() < DRAW_ON_5 else "stand")
        else:
            await client.act(state, choices[0])
    return len(settled)


def bots_table(folder: Path) -> ServerConfig:
    """A one-deck Chemin de Fer table ``c1`` at fast timings, for bots."""
    return ServerConfig(
        database_url=f"sqlite:///{folder / 'bots.db'}",
        tables=("c1=chemin-de-fer",),
        decks=1,
        decision_seconds=5.0,
        seed_seconds=0.3,
        result_seconds=0.2,
    )


def test_two_bots_play_chemin_de_fer_through_the_typed_client(tmp_path: Path) -> None:
    config = bots_table(tmp_path)
    with ServerThread(config, log=tmp_path / "server.log") as server:

        async def play() -> list[int]:
            bots = [Client(server.url, f"bot_{n}", "a bot's password") for n in range(2)]
            try:
                return list(
                    await asyncio.gather(
                        *(_bot(b, 3, random.Random(n)) for n, b in enumerate(bots))
                    )
                )
            finally:
                for bot in bots:
                    await bot.close()

        assert asyncio.run(play()) == [3, 3]

        async def refused() -> None:
            async with Client(server.url, "bot_0", "not its password") as bot:
                with pytest.raises(ClientError, match="login refused"):
                    await bot.login()
            async with Client(server.url, "bot_1", "a bot's password") as bot:
                await bot.login()
                await bot.join("c1")
                await bot.sit(1)  # under the table's minimum: answered with an error
                assert (await bot.next(P.ErrorMessage, timeout=10)).code == "under_limit"
                await bot.sit(1)  # awaited as something else, the error is raised
                with pytest.raises(ClientError, match="under_limit"):
                    await bot.next(P.Payout, timeout=10)

        asyncio.run(refused())
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()
