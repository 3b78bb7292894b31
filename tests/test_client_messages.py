"""The web client's test messages (tests/js/messages.mjs) are messages the server sends:
each one validates against the wire's models (`baccara.server.wire.protocol.SERVER`), so the
client's node tests cannot drift from the protocol; the buttons' words in a players'
table's state are the rulebook's (`Act.label`), as the server sends them. Skipped without
node on a developer's machine; CI has it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.support.services import need_service

from baccara.server.wire.protocol import SERVER
from baccara.skill.actions import Act

ROOT = Path(__file__).resolve().parent.parent
DUMP = (
    "import('./tests/js/messages.mjs').then((m) => console.log(JSON.stringify(m.everyMessage())))"
)


def test_client_test_messages_follow_the_protocol() -> None:
    node = shutil.which("node")
    if node is None:
        need_service("node", ".ci/run installs Debian's nodejs")
    out = subprocess.run([node, "-e", DUMP], cwd=ROOT, capture_output=True, text=True, check=True)
    messages = json.loads(out.stdout)
    assert {m["type"] for m in messages} >= {
        *("snapshot", "card", "result", "bet_ack", "error"),
        *("chemin", "chemin_hand", "banque", "banque_hand"),
    }
    phases = {m["phase"] for m in messages if m["type"] == "banque"}
    assert phases >= {"waiting", "shuffle", "auction", "stakes", "punter", "banker"}
    for message in messages:
        SERVER.validate_python(message)
        if message["type"] in ("chemin", "banque"):
            labels = message.get("labels", {})
            assert set(message["choices"]) <= set(labels), message
            assert labels == {action: Act(action).label for action in labels}, message
