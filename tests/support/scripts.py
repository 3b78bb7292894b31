"""Scripted players for the players' games online (Chemin de Fer, Baccarat Banque).

`play` joins every player to a table and has them decide by a fixed script (`choose`
on the table's state, `answer` on a punter's own hand, which says what he may do)
until the server dies or the shoe ends: the crash tests of the players' games
(`tests/test_players_crash.py`) and the crash cycles (`tests.support.cycles`) drive
their tables with it. The first player reads the table's states for everybody; the
order of ``players`` gives the roles (at Banque the first bids for the bank, the
second outbids it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from tests.support.harness import Player, act
from websockets.exceptions import WebSocketException

__all__ = ["answer", "choose", "play"]


def answer(hand: dict[str, Any]) -> dict[str, Any] | None:
    """What a punter sends on his own hand message: draw, unless the tableau has him
    stand (the table's state offers both on every total)."""
    choices = hand.get("choices") or []
    for action in ("draw", "stand"):
        if action in choices:
            return act(hand, action)
    return None


async def _follow(player: Player, hand: str) -> None:
    """Read what the server sends a player other than the first, as a page reads it (a
    client that reads nothing sees late that the server has died), answering as punter
    on his own hand."""
    with contextlib.suppress(WebSocketException, ConnectionError):
        async for text in player.ws:
            message = json.loads(text)
            if message["type"] == hand and (reply := answer(message)) is not None:
                await player.send(reply)


def _choose_banque(state: dict[str, Any], me: str, names: list[str]) -> dict[str, Any] | None:
    if state["phase"] == "auction":
        best = max(state["bids"].values(), default=None)
        if me == names[0] and best is None:
            return act(state, "bid", amount=state["next_bid"])
        if me == names[1] and best is not None and state["bids"].get(me) != best and best < 3_000:
            return act(state, "bid", amount=best + 1_000)
        return None
    if state["to_act"] != me:
        return None
    choices = state["choices"]
    if "stake" in choices:
        room = state["bank"] - sum(sum(s.values()) for s in state["stakes"].values())
        side = "L" if me == names[1] else "R"
        return act(state, "stake", amount=min(1_000, room), tableau=side)
    if "draw" in choices:
        return None  # the punter answers on his own hand (`answer`)
    if "banker_draw" in choices:
        return act(state, "banker_stand")
    return None


def choose(state: dict[str, Any], me: str, names: list[str]) -> dict[str, Any] | None:
    """What player ``me`` (one of ``names``, in their roles' order) sends on ``state``."""
    if state["type"] == "banque":
        return _choose_banque(state, me, names)
    if state["to_act"] != me:
        return None
    choices = state["choices"]
    chips = (state["chips"] or {}).get(me, 0)
    if "open_bank" in choices:
        return act(state, "open_bank", amount=min(4_000, chips))
    if "keep_bank" in choices:
        return act(state, "keep_bank")
    if "pass_bank" in choices:  # too few chips to open the bank
        return act(state, "pass_bank")
    if "banco" in choices or "stake" in choices:
        return act(state, "stake", amount=min(2_000, chips, state["bank"]))
    if "draw" in choices:
        return None  # the punter answers on his own hand (`answer`)
    if "banker_draw" in choices:
        return act(state, "banker_stand")
    return None


async def play(
    players: dict[str, Player],
    kind: str,
    *,
    sit: bool,
    until_end: bool,
    table: str = "c1",
    buy_in: int = 30_000,
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Join ``table`` (and sit, buying ``buy_in`` of chips), then play by the script
    until the server dies or the shoe ends; the first state seen and the record, if
    the shoe ended. ``kind`` is the table's state message (``chemin``, ``banque``)."""
    names = list(players)
    first: dict[str, Any] | None = None
    record = None
    others: list[asyncio.Task[None]] = []
    with contextlib.suppress(WebSocketException, ConnectionError):  # the server died
        for player in players.values():
            joined = await player.join(table, first=kind)
            first = first or joined
        if sit:
            for name, player in players.items():
                await player.send({"type": "sit", "buy_in": buy_in})
                await player.send({"type": "seed", "seed": f"{name}'s seed"})
        lead = players[names[0]]
        hand = f"{kind}_hand"
        others.extend(
            asyncio.create_task(_follow(p, hand)) for p in players.values() if p is not lead
        )
        state = first
        for _ in range(2_000):  # the state on joining first (as the page shows it), then each
            assert state is not None
            if state["type"] == "shoe_end":
                record = state["record"]
                if until_end:
                    break
            else:
                if state["phase"] == "shuffle":
                    for name, player in players.items():
                        await player.send({"type": "seed", "seed": f"{name}'s seed"})
                for name, player in players.items():
                    message = choose(state, name, names)
                    if message is not None:
                        await player.send(message)
            state = await lead.expect(lambda m: m["type"] in (kind, "shoe_end", hand), 30)
            while state["type"] == hand:  # the lead's own hand: he answers on it as punter
                if (reply := answer(state)) is not None:
                    await lead.send(reply)
                state = await lead.expect(lambda m: m["type"] in (kind, "shoe_end", hand), 30)
            lead.inbox.clear()
    for task in others:
        task.cancel()
    for player in players.values():
        with contextlib.suppress(Exception):
            await player.close()
    return first, record
