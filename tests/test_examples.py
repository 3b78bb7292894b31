"""The examples run (issue 26): CFR+ trained on Chemin de Fer learns the punter's 9/11 on
5, and the bot seated through `baccara.client` plays its coups at a real `baccara serve`
beside another bot."""

from __future__ import annotations

import asyncio
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

from tests.support.inprocess import ServerThread
from tests.test_client import _bot, bots_table

from baccara.client import Client

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "cfr_chemin_bot.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cfr_chemin_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cfr_learns_the_punter_s_nine_elevenths_and_plays_at_the_table(tmp_path: Path) -> None:
    example = _example()
    learned = example.train(64)
    assert learned["punter 5"] == pytest.approx(9 / 11, abs=0.02), learned["punter 5"]
    with ServerThread(bots_table(tmp_path), log=tmp_path / "server.log") as server:

        async def both() -> list[int]:
            other = Client(server.url, "other_bot", "its password")
            try:
                return list(
                    await asyncio.gather(
                        example.play(server.url, "cfr_bot", "a password", "c1", learned, 3),
                        _bot(other, 3, random.Random(3)),
                    )
                )
            finally:
                await other.close()

        played, _ = asyncio.run(both())
    assert played >= 3
