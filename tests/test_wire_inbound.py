"""The client's half of the wire (`baccara.server.wire.inbound`): the message types are
the tagged union's, so a known type with a bad field is answered with the bad field
named, never as an unknown type."""

from __future__ import annotations

import pytest

from baccara.server.wire.inbound import CLIENT_TYPES, ProtocolError, read_client


def test_a_sit_out_with_a_bad_field_names_the_field() -> None:
    with pytest.raises(ProtocolError) as caught:
        read_client('{"type": "sit_out", "out": "yes"}')
    assert caught.value.code == "bad_message"
    assert "unknown message type" not in str(caught.value)
    assert str(caught.value) == "bad out: true (sit out) or false (come back)"


def test_every_message_type_of_the_union_is_known() -> None:
    assert CLIENT_TYPES == (
        "join",
        "bet",
        "seed",
        "squeeze",
        "sit",
        "leave",
        "sit_out",
        "act",
        "ping",
    )
    for kind in set(CLIENT_TYPES) - {"ping", "leave"}:  # no fields: a bad message of its type
        with pytest.raises(ProtocolError) as caught:
            read_client(f'{{"type": "{kind}"}}')
        assert "unknown message type" not in str(caught.value), kind


def test_an_unknown_type_lists_the_known_ones() -> None:
    with pytest.raises(ProtocolError) as caught:
        read_client('{"type": "fly"}')
    assert caught.value.code == "bad_message"
    assert str(caught.value).endswith(": " + ", ".join(CLIENT_TYPES))
