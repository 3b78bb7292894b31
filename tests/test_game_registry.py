"""The games' registries, one key, the family (`baccara.variants.FAMILIES`): the engines'
(`baccara.skill.games`), the server's tables (`baccara.server.tables.make`) and the
terminal's games (`baccara.tui.games`). Every family is played by each face or refused
by it in one line; the messages each table takes come from its kind, refused at the
edge otherwise and published in the schema. A third game registered from the tests
only (`tests.support.top_card`) is built by the server's table factory, played through
the dispatcher and its record verified by ``baccara verify``, with no front end edited;
``baccara play`` refuses it in one line (no terminal game is registered for it)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.clock import SimulatedClock, inline_services
from tests.support.tables import act, house_table, players_table, state_where
from tests.support.top_card import TOP_CARD, TopCardGame, TopCardTable, registered

from baccara.cli import main
from baccara.db.ledger import Ledger
from baccara.server.infra.config import ServerConfig
from baccara.server.tables.make import TABLE_KINDS, make_runner, protocol_schema, table_kind
from baccara.server.tables.players import PlayersRunner
from baccara.server.wire import protocol as P
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.game_rules import Seating, game_table
from baccara.skill.games import GAMES, players_game
from baccara.skill.replay import verify
from baccara.tui.games import TERMINAL_GAMES, terminal_game
from baccara.variants import FAMILIES, Banking, FamilyError, find_variant, variants_of

BET = P.BetMessage(type="bet", bet_id="b1", kind="banker", amount=1_000)
SIT = P.SitMessage(type="sit", buy_in=10_000)


def test_every_family_is_played_by_each_face_or_refused_in_one_line() -> None:
    assert list(FAMILIES) == ["punto-banco", "chemin-de-fer", "banque"]
    players = [f for f in FAMILIES.values() if f.banking is Banking.PLAYERS]
    assert list(GAMES) == players and list(TERMINAL_GAMES) == players
    assert list(TABLE_KINDS) == list(FAMILIES.values())
    for family in FAMILIES.values():
        variant = variants_of([family])[0]
        for face in (players_game, terminal_game):
            if family in players:
                face(variant)
            else:
                with pytest.raises(FamilyError) as refused:
                    face(variant)
                assert "\n" not in str(refused.value) and family.label in str(refused.value)
        assert table_kind(variant).family is family


def test_each_table_takes_its_messages_the_schema_says_which() -> None:
    house, chemin = table_kind(find_variant("mini")), table_kind(find_variant("chemmy"))
    assert house.message_types == ("bet", "squeeze", "seed")
    assert chemin.message_types == ("sit", "leave", "sit_out", "act", "seed")
    tables: Any = protocol_schema()["tables"]
    assert list(tables) == list(FAMILIES)
    for name, kind in zip(tables, TABLE_KINDS.values(), strict=True):
        assert set(tables[name]["discriminator"]["mapping"]) == set(kind.message_types)


def test_a_message_the_table_does_not_take_is_refused_at_the_edge() -> None:
    async def test() -> None:
        async with house_table() as tables:
            ann = await tables.join("ann")
            refused = await ann.send(SIT)
            assert refused is not None and refused["code"] == "wrong_table"
            assert refused["message"] == (
                "a Punto Banco table does not take sit: it takes bet, squeeze, seed"
            )
        async with players_table("banque") as tables:
            bob = await tables.join("bob")
            refused = await bob.send(BET)
            assert refused == {
                "type": "error",
                "code": "wrong_table",
                "message": "a Baccarat Banque table does not take bet: "
                "it takes sit, leave, sit_out, act, seed",
                "bet_id": "b1",
            }

    asyncio.run(test())


# -- a game registered from the tests only --------------------------------------------


def _played_record() -> dict[str, Any]:
    """A Top Card shoe played to its end on the engine its committed rules make."""
    variant = find_variant("top-card")
    fair = records.new_game_shoe(variant, source=lambda n: bytes([7]) * n)
    seating = Seating(names=("ann", "bob", "cy"), chips=(5_000, 2_000, 2_000), minimum=100)
    table = game_table(fair.rules, seating, records.table_shoe(fair, ["s1", "s2", "s3"], seating))
    assert isinstance(table, TopCardTable)
    while (seat := table.actor) is not None:
        table.apply(Action(act=Act.STAKE, seat=seat, amount=min(150, table.bankrolls[seat])))
    return records.game_record(fair, table)


def test_a_registered_game_is_recorded_and_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with registered():
        record = _played_record()
        assert record["rules"]["variant"]["family"] == "top-card"
        result = verify(record)
        assert result.ok, result.problems
        assert result.family == "top-card" and result.coups_checked == len(record["coups"]) > 5
        tampered = json.loads(json.dumps(record))
        tampered["coups"][2]["stake"] += 1
        assert not verify(tampered).ok
        path = tmp_path / "top-card.json"
        path.write_text(json.dumps(record))
        assert main(["verify", str(path)]) == 0
        capsys.readouterr()
        db = str(tmp_path / "play.db")
        assert main(["play", "--variant", "top-card", "--db", db, "--seats", "0"]) == 2
        refused = capsys.readouterr().err  # no terminal game registered for it: one line
        assert refused == (
            "baccara: error: top-card is a players' game (Top Card); the terminal's players' "
            "games covers Chemin de Fer and Baccarat Banque: chemin-de-fer, banque\n"
        )
    with pytest.raises(FamilyError, match="Top Card"):  # gone with its registration
        players_game(find_variant("banque").with_changes(family=TOP_CARD))


def test_the_server_builds_and_plays_a_registered_game() -> None:
    async def test() -> None:
        with registered():
            clock, ledger = SimulatedClock(), Ledger.connect("sqlite://")
            try:
                made = make_runner(
                    "x1",
                    find_variant("top-card"),
                    ServerConfig(database_url="sqlite://"),
                    inline_services(ledger, clock),
                )
                assert isinstance(made, PlayersRunner) and isinstance(made.game, TopCardGame)
            finally:
                ledger.database.dispose()
            async with players_table("top-card", minimum=100) as tables:
                ann, bob = await tables.join("ann"), await tables.join("bob")
                await tables.start()
                assert await ann.send(SIT) is None and await bob.send(SIT) is None
                state = await state_where(tables, ann, lambda m: m["to_act"] == "bob")
                assert state["type"] == "top_card" and state["ranges"] == {"stake": [1, 10_000]}
                refused = await ann.send(act(state, "stake", amount=500))
                assert refused is not None and refused["code"] == "not_your_turn"
                refused = await bob.send(BET)
                assert refused is not None and refused["code"] == "wrong_table"
                assert await bob.send(act(state, "stake", amount=500)) is None
                played = await state_where(tables, ann, lambda m: len(m["history"]) == 1)
                coup = played["history"][0]
                assert (coup["punter"], coup["stake"]) == (1, 500)
                moved = {"P": 500, "B": -500, "T": 0}[coup["result"]]
                assert played["chips"] == {"ann": 10_000 - moved, "bob": 10_000 + moved}

    asyncio.run(test())
