"""Phases on the wire are each game's one `Phase` enum (`baccara.server.wire.protocol`), the
engine's and its runner's: sent as their values, listed by the published JSON Schema, and
the page's code (server/static/*.js) names no phase the schema does not list."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from baccara.server.wire import protocol
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin_events import Phase as CheminPhase
from baccara.table.events import Phase as HousePhase

STATIC = Path(protocol.__file__).parents[1] / "static"
PAGES = {  # each game's modules
    "Snapshot": ("reducer.js", "app.js", "render.js"),
    "CheminState": ("chemin.js", "render-chemin.js"),
    "BanqueState": ("banque.js", "render-banque.js"),
}
STRING = re.compile(r'"([a-z_]+)"')
PHASE = r"[\w.?]*\bphase\b"  # state.phase, m.phase, b?.phase...
COMPARED = [
    re.compile(PHASE + r'\s*[!=]==?\s*"([a-z_]+)"'),  # phase === "betting"
    re.compile(r'"([a-z_]+)"\s*[!=]==?\s*' + PHASE),  # "betting" === phase
]
ASSIGNED = re.compile(r"\bphase:\s*([^,}\n]+)")  # phase: "betting", phase: x ? "a" : y
LISTED = re.compile(r"\[([^\]]*)\]\.includes\(" + PHASE + r"\)")  # ["a", "b"].includes(b.phase)
TABLE = re.compile(r"\b(\w+)\s*=\s*(?:new Set\(\[([^\]]*)\]\)|\{([^}]*)\})", re.S)
LOOKUP = re.compile(r"\b(\w+)(?:\.has\(|\[)" + PHASE)  # IN_COUP.has(m.phase), LABELS[s.phase]
LABELLED = re.compile(r"playersSelectors\(\s*\"\w+\",\s*(\w+)\)")  # a game's phase words


def page_phases(source: str) -> set[str]:
    """Every phase a page module names: compared with a phase, given as one, listed for
    one, or a key of a table (a Set or an object) looked up by a phase or given to
    `players.js`'s selectors as the game's phase words."""
    found: set[str] = set()
    for pattern in COMPARED:
        found.update(pattern.findall(source))
    for expression in ASSIGNED.findall(source):
        found.update(STRING.findall(expression))
    for items in LISTED.findall(source):
        found.update(STRING.findall(items))
    looked_up = set(LOOKUP.findall(source)) | set(LABELLED.findall(source))
    for name, members, keys in TABLE.findall(source):
        if name in looked_up:
            found.update(STRING.findall(members) or re.findall(r"(\w+)\s*:", keys))
    return found


def listed(model: str) -> set[str]:
    """The phases the published schema (``/api/protocol``) lists for ``model``."""
    found: Any = protocol.schema()["server"]["$defs"]
    return set(found[model]["properties"]["phase"]["enum"])


def test_the_reader_finds_phases_however_the_page_names_them() -> None:
    source = """
    const LABELS = { betting: "Bets", after: "Over" };
    const IN_COUP = new Set(["punter", "banker"]);
    const OTHER = new Set(["not_a_phase"]);
    x = LABELS[state.phase] ?? IN_COUP.has(m.phase) ?? OTHER.has(m.kind);
    const WORDS = { waiting: "Waiting" };
    export const { phaseLabel } = playersSelectors("game", WORDS);
    if (b?.phase === "auction" || "over" !== c.phase) go({ phase: m.s ? "squeeze" : m.phase });
    show(["stakes", "shuffle"].includes(b.phase), { kind: "tie" }, "closing");
    """
    assert page_phases(source) == {
        "betting", "after", "punter", "banker", "auction", "over", "squeeze", "stakes", "shuffle",
        "waiting",
    }  # fmt: skip


def test_each_game_lists_its_phases() -> None:
    assert listed("Snapshot") == {p.value for p in HousePhase}
    assert listed("CheminState") == {p.value for p in CheminPhase}
    assert listed("BanqueState") == {p.value for p in BanquePhase}
    assert {"starting", "closed", "closing", "squeeze"} <= listed("Snapshot")  # the runner's
    assert {"starting", "shuffle", "waiting"} <= listed("CheminState") & listed("BanqueState")
    lobby = protocol.TableSummary.model_json_schema()["properties"]["phase"]["enum"]
    assert set(lobby) == listed("Snapshot") | listed("CheminState") | listed("BanqueState")


def test_a_phase_is_sent_as_its_value_and_read_back_as_its_member() -> None:
    line = {
        "id": "t", "game": "banque", "variant": "banque", "title": "T", "description": "",
        "players": 0, "seats": 2, "seated": 0, "squeeze": False, "bets": [], "limits": {},
        "roads": None,
    }  # fmt: skip
    for phase in (HousePhase.SQUEEZE, CheminPhase.AFTER, BanquePhase.AUCTION):
        sent = protocol.TableSummary(**line, phase=phase).model_dump_json()
        assert f'"phase":"{phase.value}"' in sent
        assert protocol.TableSummary.model_validate_json(sent).phase == phase.value


@pytest.mark.parametrize("model", sorted(PAGES))
def test_the_page_names_only_phases_the_schema_lists(model: str) -> None:
    named = {
        page: page_phases((STATIC / page).read_text(encoding="utf-8")) for page in PAGES[model]
    }
    everywhere = set().union(*named.values())
    assert len(everywhere) >= 6, named  # the reader found the game's phases
    assert everywhere <= listed(model), {p: sorted(n - listed(model)) for p, n in named.items()}


def test_a_phase_no_engine_has_is_refused() -> None:
    snapshot = protocol.Snapshot.model_json_schema()["properties"]["phase"]
    assert "dealing" in snapshot["enum"] and "auction" not in snapshot["enum"]
    with pytest.raises(ValidationError, match="phase"):
        protocol.TableSummary.model_validate({"phase": "dancing"})
