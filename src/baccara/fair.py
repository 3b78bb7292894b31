"""Provably fair shoes: commit to a secret seed, shuffle from it, reveal it at the end.

The scheme (docs/fair.md gives it in full, with a test vector):

1. Before a shoe the server draws a secret *server seed* (32 bytes from the OS CSPRNG)
   and publishes ``SHA-256(server_seed)`` and ``SHA-256(rules)``, the hash of the
   table's rules as canonical JSON.
2. Players may add *client seeds* (short printable strings); they are joined with
   ``"\\n"`` in the order received (a fixed default when there are none).
3. A byte stream is made of blocks ``HMAC-SHA256(key=server_seed,
   msg=client_seed || counter)`` with ``counter`` an 8-byte big-endian integer from 0.
4. The ordered decks (deck by deck, suits ``s h d c``, ranks ``A..K``) are shuffled by
   Fisher-Yates: for ``i`` from ``n-1`` down to 1, swap card ``i`` with card
   ``j = randbelow(i + 1)``; ``randbelow(m)`` reads 4 bytes as a big-endian integer
   ``x`` and rejects it while ``x >= 2**32 - 2**32 % m`` (rejection sampling), then
   returns ``x % m``.
5. When the shoe ends the server reveals the seed; anyone rebuilds the shoe and every
   coup (`verify`, ``baccara verify``).

>>> seed = "00" * 32
>>> shoe = fair_shoe(seed, ["alice"], ShoeSettings(decks=1, burn=False, cut_card=0))
>>> [str(card) for card in shoe.cards[:5]]
['5h', 'Ts', '8d', '4s', '7d']
>>> seed_hash(seed)[:16]
'66687aadf862bd77'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from baccara.cards import Card, full_deck
from baccara.coup import Coup, CoupError, deal_shoe
from baccara.shoe import Shoe, ShoeError, ShoeSettings, fisher_yates
from baccara.variants import Variant

__all__ = [
    "ACTIONS_VERSION",
    "DECISIONS_VERSION",
    "DEFAULT_CLIENT_SEED",
    "RECORD_VERSION",
    "RECORD_VERSIONS",
    "FairError",
    "FairShoe",
    "HmacStream",
    "ShoeRecord",
    "VerifyResult",
    "check_client_seed",
    "check_commitment",
    "client_seed_bytes",
    "fair_cards",
    "fair_shoe",
    "new_server_seed",
    "record_version",
    "rules_document",
    "rules_hash",
    "seed_hash",
    "shoe_settings_of",
    "verify",
]

RECORD_VERSION = 1
"""The record of a shoe whose coups follow from the shoe alone (Punto Banco)."""
DECISIONS_VERSION = 2
"""The first record of a players' game: each coup with its free decisions. It did not
show the shoe whole nor its money: ``baccara verify`` refuses it (version 3 replaced it)."""
ACTIONS_VERSION = 3
"""The record of a players' game: the seating, every action, each coup, the chips at the
end (`baccara.skill.records`)."""
RECORD_VERSIONS = (RECORD_VERSION, DECISIONS_VERSION, ACTIONS_VERSION)
DEFAULT_CLIENT_SEED = "baccara"
"""The client seed used when no player gave one."""
MAX_CLIENT_SEED = 64
MAX_CLIENT_SEEDS = 32
_WORD = 4
_SPAN = 1 << (8 * _WORD)


class FairError(ValueError):
    """A bad seed, client seed or shoe record."""


def new_server_seed(source: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """A fresh secret server seed: 32 bytes from ``source`` (the OS CSPRNG), in hex.

    >>> new_server_seed(lambda n: bytes(range(n)))[:8]
    '00010203'
    """
    data = source(32)
    if len(data) != 32:
        raise FairError("the seed source must give 32 bytes")
    return data.hex()


def _seed_bytes(server_seed: str) -> bytes:
    try:
        data = bytes.fromhex(server_seed)
    except ValueError:
        raise FairError(f"bad server seed {server_seed[:80]!r}: expected 64 hex digits") from None
    if len(data) != 32:
        raise FairError(f"bad server seed {server_seed[:80]!r}: expected 64 hex digits")
    return data


def seed_hash(server_seed: str) -> str:
    """The published commitment: SHA-256 of the seed's 32 bytes, in hex."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def check_client_seed(seed: str) -> str:
    """``seed`` if it is a client seed: 1 to 64 printable ASCII characters (`FairError`)."""
    if not isinstance(seed, str) or not 1 <= len(seed) <= MAX_CLIENT_SEED:
        raise FairError(f"bad client seed {seed!r}: 1 to {MAX_CLIENT_SEED} characters")
    if not all(" " <= ch <= "~" for ch in seed):
        raise FairError(f"bad client seed {seed!r}: printable ASCII only")
    return seed


def client_seed_bytes(seeds: Sequence[str]) -> bytes:
    """The client seeds joined with newlines, in UTF-8 (the default seed when empty).

    >>> client_seed_bytes(["a", "b"]), client_seed_bytes([])
    (b'a\\nb', b'baccara')
    """
    if len(seeds) > MAX_CLIENT_SEEDS:
        raise FairError(f"too many client seeds ({len(seeds)}): at most {MAX_CLIENT_SEEDS}")
    checked = [check_client_seed(seed) for seed in seeds] or [DEFAULT_CLIENT_SEED]
    return "\n".join(checked).encode()


class HmacStream:
    """The byte stream ``HMAC-SHA256(server_seed, client_seed || counter)``, counter = 0, 1, ...

    >>> stream = HmacStream(bytes(32), b"alice")
    >>> [stream.randbelow(52) for _ in range(3)]
    [36, 22, 17]
    """

    __slots__ = ("_buffer", "_client", "_counter", "_key", "_pos", "rejected")

    def __init__(self, key: bytes, client_seed: bytes):
        self._key = key
        self._client = client_seed
        self._counter = 0
        self._buffer = b""
        self._pos = 0
        self.rejected = 0

    def block(self, counter: int) -> bytes:
        """Block number ``counter`` of the stream (32 bytes)."""
        message = self._client + counter.to_bytes(8, "big")
        return hmac.new(self._key, message, hashlib.sha256).digest()

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) - self._pos < count:
            self._buffer = self._buffer[self._pos :] + self.block(self._counter)
            self._pos = 0
            self._counter += 1
        out = self._buffer[self._pos : self._pos + count]
        self._pos += count
        return out

    def randbelow(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` by rejection sampling on 32-bit words."""
        if not 1 <= bound <= _SPAN:
            raise FairError(f"bad bound {bound}: 1 to 2**32")
        limit = _SPAN - _SPAN % bound
        while True:
            value = int.from_bytes(self.read(_WORD), "big")
            if value < limit:
                return value % bound
            self.rejected += 1


def fair_cards(server_seed: str, client_seeds: Sequence[str], decks: int) -> tuple[Card, ...]:
    """The shoe's cards in dealing order: `baccara.shoe.fisher_yates` on the HMAC stream."""
    if not 1 <= decks <= 12:
        raise FairError(f"bad number of decks {decks}: expected 1 to 12")
    stream = HmacStream(_seed_bytes(server_seed), client_seed_bytes(client_seeds))
    return tuple(fisher_yates(full_deck() * decks, stream.randbelow))


def fair_shoe(server_seed: str, client_seeds: Sequence[str], settings: ShoeSettings) -> Shoe:
    """The provably fair shoe for these seeds and shoe settings."""
    return Shoe(fair_cards(server_seed, client_seeds, settings.decks), settings=settings)


def _plain(value: object) -> object:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def rules_document(variant: Variant, shoe_settings: ShoeSettings) -> dict[str, Any]:
    """The table's rules as a JSON-ready document (what `rules_hash` hashes).

    >>> from baccara.variants import PUNTO_BANCO
    >>> doc = rules_document(PUNTO_BANCO, ShoeSettings())
    >>> doc["variant"]["banker_pays"], doc["shoe"]["decks"]
    ('19/20', 8)
    """
    keys = (
        "name",
        "banker_pays",
        "banker_six_pays",
        "banker_three_card_seven_pushes",
        "tie_pays",
        "seats",
        "side_bets",
    )
    shoe_keys = ("decks", "cut_card", "burn", "ten_burns", "ace_burns")
    return {
        "variant": {key: _plain(getattr(variant, key)) for key in keys},
        "shoe": {key: getattr(shoe_settings, key) for key in shoe_keys},
    }


def _canonical(document: Mapping[str, Any]) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def rules_hash(document: Mapping[str, Any]) -> str:
    """SHA-256 of the rules document as canonical JSON (sorted keys, no spaces), in hex."""
    return hashlib.sha256(_canonical(document)).hexdigest()


def shoe_settings_of(document: Mapping[str, Any]) -> ShoeSettings:
    """The shoe settings a rules document commits to; `FairError` naming what is wrong."""
    shoe = document.get("shoe")
    if not isinstance(shoe, Mapping):
        raise FairError("bad rules: no 'shoe' object")
    try:
        return ShoeSettings(
            decks=int(shoe["decks"]),
            cut_card=int(shoe["cut_card"]),
            burn=bool(shoe["burn"]),
            ten_burns=int(shoe.get("ten_burns", 10)),
            ace_burns=int(shoe.get("ace_burns", 1)),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise FairError(f"bad shoe settings {dict(shoe)!r}: {error}") from None


@dataclass(slots=True)
class FairShoe:
    """One provably fair shoe on the server side: the secret, the commitment, the seeds.

    >>> from baccara.variants import PUNTO_BANCO
    >>> fs = FairShoe.new(PUNTO_BANCO, ShoeSettings(decks=1), source=lambda n: bytes(n))
    >>> fs.commitment()["server_seed_hash"] == seed_hash("00" * 32)
    True
    >>> fs.add_client_seed("lucky")
    >>> record = fs.record([str(c) for c in deal_shoe(fs.shoe())])
    >>> verify(record).ok
    True
    """

    server_seed: str
    rules: dict[str, Any]
    client_seeds: list[str] = field(default_factory=list)
    sealed: bool = False

    @classmethod
    def new(
        cls,
        variant: Variant,
        shoe_settings: ShoeSettings,
        *,
        source: Callable[[int], bytes] = secrets.token_bytes,
    ) -> FairShoe:
        """A new shoe with a fresh secret seed."""
        return cls(
            server_seed=new_server_seed(source), rules=rules_document(variant, shoe_settings)
        )

    def commitment(self) -> dict[str, Any]:
        """What is published before the shoe: the two hashes and the rules."""
        return {
            "server_seed_hash": seed_hash(self.server_seed),
            "rules_hash": rules_hash(self.rules),
            "rules": self.rules,
            "client_seeds": list(self.client_seeds),
        }

    def add_client_seed(self, seed: str) -> None:
        """Add a player's seed; refused once the shoe is shuffled."""
        if self.sealed:
            raise FairError("the shoe is already shuffled: client seeds go to the next shoe")
        check_client_seed(seed)
        if len(self.client_seeds) >= MAX_CLIENT_SEEDS:
            raise FairError(f"this shoe already has {MAX_CLIENT_SEEDS} client seeds")
        self.client_seeds.append(seed)

    def seat_shoe(self, seat_seeds: Sequence[str]) -> Shoe:
        """Shuffle a players' game's shoe from every seated player's seed, in seat order.

        The seeds' "each player having the right to shuffle in turn", made provably
        fair: the client seeds become exactly ``seat_seeds`` (the first seat's first),
        whatever arrived before, and are sealed.

        >>> from baccara.variants import find_variant
        >>> fs = FairShoe.new(find_variant("chemmy"), ShoeSettings(decks=1), source=bytes)
        >>> fs.seat_shoe(["ann", "bob"]).cards == fair_cards(fs.server_seed, ["ann", "bob"], 1)
        True
        >>> fs.client_seeds, fs.sealed
        (['ann', 'bob'], True)
        """
        if self.sealed:
            raise FairError("the shoe is already shuffled: client seeds go to the next shoe")
        client_seed_bytes(seat_seeds)  # checks each seed and their number
        self.client_seeds = list(seat_seeds)
        return self.shoe()

    def shoe(self) -> Shoe:
        """Shuffle the shoe (this seals the client seeds)."""
        self.sealed = True
        return fair_shoe(self.server_seed, self.client_seeds, shoe_settings_of(self.rules))

    def record(self, coups: Sequence[str], retired: str | None = None) -> ShoeRecord:
        """The record to publish at the shoe's end, with the revealed seed (``retired``:
        why the house stopped the shoe before its end, if it did)."""
        return ShoeRecord(
            server_seed=self.server_seed,
            server_seed_hash=seed_hash(self.server_seed),
            rules=self.rules,
            rules_hash=rules_hash(self.rules),
            client_seeds=tuple(self.client_seeds),
            coups=tuple(coups),
            retired=retired,
        )


def record_version(data: Any) -> int:
    """The ``version`` of a record document (1 when absent); `FairError` if unknown.

    >>> record_version({"version": 2}), record_version({})
    (2, 1)
    >>> record_version({"version": 99})
    Traceback (most recent call last):
    ...
    baccara.fair.FairError: bad record: unknown record version 99 (this baccara reads 1 and 3)
    """
    if not isinstance(data, Mapping):
        raise FairError("bad record: expected a JSON object")
    version = data.get("version", RECORD_VERSION)
    if isinstance(version, bool) or version not in RECORD_VERSIONS:
        raise FairError(
            f"bad record: unknown record version {version!r} "
            f"(this baccara reads {RECORD_VERSION} and {ACTIONS_VERSION})"
        )
    return int(version)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRecord:
    """A finished shoe as published: the revealed seed, the commitments, the coups."""

    server_seed: str
    server_seed_hash: str
    rules: Mapping[str, Any]
    rules_hash: str
    client_seeds: tuple[str, ...]
    coups: tuple[str, ...]
    retired: str | None = None
    """Why the shoe stopped before its end, when the house retired it (`baccara db
    repair`); None for a shoe played to the cut card and the last hand."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready document."""
        return {
            "version": RECORD_VERSION,
            "server_seed": self.server_seed,
            "server_seed_hash": self.server_seed_hash,
            "rules": dict(self.rules),
            "rules_hash": self.rules_hash,
            "client_seeds": list(self.client_seeds),
            "coups": list(self.coups),
            **({} if self.retired is None else {"retired": self.retired}),
        }

    @classmethod
    def from_json(cls, data: Any) -> ShoeRecord:
        """Read a version 1 record; raise `FairError` naming what is missing or wrong."""
        if record_version(data) != RECORD_VERSION:
            raise FairError(
                f"bad record: version {data['version']} records a players' game "
                "(read it with baccara.skill.records)"
            )
        family = _family(data.get("rules"))
        if family in ("chemin-de-fer", "banque"):
            raise FairError(
                f"bad record: a {family} shoe is recorded with its actions "
                f"(version {ACTIONS_VERSION}), not as version {RECORD_VERSION}"
            )
        missing = [
            key
            for key in ("server_seed", "server_seed_hash", "rules", "rules_hash", "coups")
            if key not in data
        ]
        if missing:
            raise FairError(f"bad record: missing {', '.join(missing)}")
        seeds, coups, rules = data.get("client_seeds", []), data["coups"], data["rules"]
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise FairError("bad record: client_seeds must be a list of strings")
        if not isinstance(coups, list) or not all(isinstance(c, str) for c in coups):
            raise FairError("bad record: coups must be a list of coup notations")
        if not coups:
            raise FairError("bad record: the record holds no coups")
        if not isinstance(rules, Mapping):
            raise FairError("bad record: rules must be an object")
        retired = data.get("retired")
        if retired is not None and not (isinstance(retired, str) and 0 < len(retired) <= 200):
            raise FairError("bad record: retired says in words why the shoe stopped early")
        return cls(
            server_seed=str(data["server_seed"]),
            server_seed_hash=str(data["server_seed_hash"]),
            rules=dict(rules),
            rules_hash=str(data["rules_hash"]),
            client_seeds=tuple(seeds),
            coups=tuple(coups),
            retired=retired,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifyResult:
    """What `verify` found: every check's ``problems`` (none: `ok`)."""

    seed_hash_ok: bool
    rules_hash_ok: bool
    coups_checked: int
    coups_in_shoe: int
    problems: tuple[str, ...]
    first_cards: tuple[str, ...] = ()
    coup_problems: tuple[tuple[int, str], ...] = ()
    """The problems of single coups: (coup number from 1, problem), also in ``problems``."""
    decisions_checked: int | None = None
    """How many players' actions were replayed (a players' game; None for version 1)."""
    family: str = "punto-banco"
    """The game family of the record's rules."""
    notes: tuple[str, ...] = ()
    """What is worth saying about a record that matches (how its shoe ended, what it
    could not check)."""

    @property
    def ok(self) -> bool:
        """Whether every check passed: no problem found."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready document."""
        return {
            "ok": self.ok,
            "seed_hash_ok": self.seed_hash_ok,
            "rules_hash_ok": self.rules_hash_ok,
            "coups_checked": self.coups_checked,
            "coups_in_shoe": self.coups_in_shoe,
            "problems": list(self.problems),
            "first_cards": list(self.first_cards),
            "family": self.family,
            "decisions_checked": self.decisions_checked,
            "coup_problems": [
                {"coup": number, "problem": text} for number, text in self.coup_problems
            ],
            "notes": list(self.notes),
        }


def _family(rules: object) -> object:
    variant = rules.get("variant") if isinstance(rules, Mapping) else None
    return variant.get("family") if isinstance(variant, Mapping) else None


def _coups_of(shoe: Shoe) -> Iterator[Coup]:
    return deal_shoe(shoe)


def verify(record: ShoeRecord | Mapping[str, Any]) -> VerifyResult:
    """Rebuild the shoe and every coup from a revealed record and compare.

    A house shoe ends only at the cut card and the last-hand rule (a table that stops
    mid-shoe resumes it), so the record holds every coup the shoe deals, each the one
    dealt at that place.
    """
    rec = record if isinstance(record, ShoeRecord) else ShoeRecord.from_json(record)
    seed_ok, rules_ok, problems = check_commitment(
        rec.server_seed, rec.server_seed_hash, rec.rules, rec.rules_hash
    )
    by_coup: list[tuple[int, str]] = []
    try:
        shoe = fair_shoe(rec.server_seed, rec.client_seeds, shoe_settings_of(rec.rules))
    except ShoeError as error:
        raise FairError(f"bad record: {error}") from None
    dealt = [coup.notation() for coup in _coups_of(shoe)]
    for number, text in enumerate(rec.coups, start=1):
        try:
            given = Coup.parse(text).notation()
        except CoupError as error:
            by_coup.append((number, str(error)))
            continue
        if number > len(dealt):
            by_coup.append((number, f"({given}) the shoe deals only {len(dealt)} coups"))
        elif dealt[number - 1] != given:
            by_coup.append((number, f"recorded {given}, the shoe deals {dealt[number - 1]}"))
    problems.extend(f"coup {number}: {text}" for number, text in by_coup)
    notes: list[str] = []
    if len(rec.coups) < len(dealt) and rec.retired:
        notes.append(
            f"the shoe was retired after coup {len(rec.coups)} of {len(dealt)}, not played "
            f"to its end: {rec.retired}"
        )
    elif len(rec.coups) < len(dealt):
        problems.append(
            f"the record stops after coup {len(rec.coups)}: the shoe deals {len(dealt)} "
            "coups, to the cut card and the last hand"
        )
    first = tuple(str(card) for card in shoe.cards[:8])
    return VerifyResult(
        seed_hash_ok=seed_ok,
        rules_hash_ok=rules_ok,
        coups_checked=len(rec.coups),
        coups_in_shoe=len(dealt),
        problems=tuple(problems),
        first_cards=first,
        coup_problems=tuple(by_coup),
        notes=tuple(notes),
    )


def check_commitment(
    server_seed: str, published_seed_hash: str, rules: Mapping[str, Any], published_rules_hash: str
) -> tuple[bool, bool, list[str]]:
    """Whether a revealed seed and rules match their published hashes, and the problems."""
    seed_ok = seed_hash(server_seed) == published_seed_hash.lower()
    rules_ok = rules_hash(rules) == published_rules_hash.lower()
    problems = []
    if not seed_ok:
        problems.append("the server seed does not hash to the published server_seed_hash")
    if not rules_ok:
        problems.append("the rules do not hash to the published rules_hash")
    return seed_ok, rules_ok, problems
