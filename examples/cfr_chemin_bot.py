"""Train Chemin de Fer with OpenSpiel's CFR+ and seat the policy at ``baccara serve``.

    pip install 'baccara[rl]'
    baccara serve --tables c1=chemin-de-fer &
    python examples/cfr_chemin_bot.py --iterations 200 --coups 20

CFR+ learns both seats of the Kemeny-Snell game (`baccara_chemin_de_fer`); the punter
it learns draws on 5 about 9/11 of the time, as Kemeny and Snell found. The bot then
sits at the table through `baccara.client` and plays the learned policy wherever the
tableau leaves it a choice (its own choices come privately, in `CheminHand`).
"""

from __future__ import annotations

import argparse
import asyncio
import random

import pyspiel

from baccara.cards import Card
from baccara.client import Client
from baccara.research.efg import compiled, python_information
from baccara.research.openspiel_chemin import DRAW, GAME_NAME
from baccara.server.wire import protocol as P


def train(iterations: int) -> dict[str, float]:
    """CFR+ on the Kemeny-Snell game, compiled to C++ (the Python game's steps, faster):
    each information state's chance of drawing, by the Python game's names."""
    game = compiled(pyspiel.load_game(GAME_NAME, {"model": "kemeny-snell"}))
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    table = solver.tabular_average_policy().policy_table()
    # the compiled game numbers a choice as the Python game does (tests/test_research_efg)
    return {python_information(state): dict(moves)[DRAW] for state, moves in table.items()}


def _draws(learned: dict[str, float], state: str, rng: random.Random) -> bool:
    return rng.random() < learned.get(state, 0.5)


async def play(
    url: str, name: str, password: str, table: str, learned: dict[str, float], coups: int
) -> int:
    """Sit at ``table`` and play ``coups`` coups with the learned policy; the coups played."""
    rng = random.Random(1)
    async with Client(url, name, password) as bot:
        await bot.login(register=True)
        state = await bot.join(table)
        await bot.sit(20_000)
        hand: P.CheminHand | None = None
        played: set[tuple[int | None, int]] = set()
        pairs = ({"draw", "stand"}, {"banker_draw", "banker_stand"})
        while len(played) < coups:
            got = await bot.next(P.CheminState, P.CheminHand, timeout=120)
            if isinstance(got, P.CheminState):
                state = got
                if state.last is not None:
                    played.add((state.shoe, state.coup))
                choices = state.choices
                if any(pair <= set(choices) for pair in pairs):
                    continue  # a hand's choice: my own choices come privately, next
            elif got.choices:
                hand, choices = got, got.choices
            else:
                continue
            if not isinstance(state, P.CheminState) or not bot.asked(state):
                continue
            if "open_bank" in choices:
                await bot.act(state, "open_bank", 2_000)
            elif "banco" in choices:
                await bot.act(state, "banco")
            elif hand is not None and {"draw", "stand"} <= set(choices):
                draw = _draws(learned, f"punter {hand.total}", rng)
                await bot.act(state, "draw" if draw else "stand")
            elif hand is not None and {"banker_draw", "banker_stand"} <= set(choices):
                # the punter's third card is face up (his first two stay down)
                third = Card.parse(state.punter_cards[-1]).points if state.punter_cards else None
                seen = "stood" if third is None else str(third)
                draw = _draws(learned, f"banker {hand.total} against {seen}", rng)
                await bot.act(state, "banker_draw" if draw else "banker_stand")
            else:  # a bound cell, or the bank's other choices: the first offered
                await bot.act(state, choices[0])
        return len(played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--table", default="c1")
    parser.add_argument("--coups", type=int, default=20)
    args = parser.parse_args()
    learned = train(args.iterations)
    print(f"the punter draws on 5 with probability {learned['punter 5']:.4f} (9/11 = 0.8182)")
    asyncio.run(play(args.url, "cfr_bot", "a bot's password", args.table, learned, args.coups))


if __name__ == "__main__":
    main()
