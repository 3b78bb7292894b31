"""Rate limits (`RateLimiter`: token buckets by key, for bets, messages, joins and
logins) and failed logins, throttled so that guessing is slow and nobody can lock a
player out (`LoginThrottle`).

A login takes a token from two buckets before its password is checked (argon2 is slow:
attempts in flight count too), and gets them back unless the password was wrong:

- **name and address**, strictly (`ServerConfig.failed_logins_per_minute`, 5): one
  address guessing one player's password is stopped after a handful of tries. An
  attacker's failures fill only their own bucket, never the owner's.
- **name, from every address**, at a much higher rate
  (`ServerConfig.failed_logins_per_name_per_minute`, 60): guessing spread over many
  addresses is bounded too. Spending it needs a dozen addresses guessing at their
  full rate, and even then it does not lock the owner out: an address that has
  logged in to the account (or registered it) is still let through to the password.

Every attempt, right or wrong, is also limited per address (the app's
``login_limiter``, `ServerConfig.logins_per_minute`), which bounds one address
guessing across many names. Each process keeps its own buckets.

>>> clock = [0.0]
>>> throttle = LoginThrottle(per_pair=2, per_name=3, clock=lambda: clock[0])
>>> [throttle.attempt("Ann", "10.0.0.9").failed() for _ in range(2)]
[None, None]
>>> throttle.attempt("ann", "10.0.0.9").refused
'too many failed logins for this name from your address: wait a minute'
>>> ann = throttle.attempt("ann", "10.0.0.1"); ann.succeeded()  # the owner, elsewhere
>>> throttle.attempt("ann", "10.0.0.2").failed()  # the name's third failure
>>> throttle.attempt("ann", "10.0.0.3").refused
'too many failed logins for this name: wait a minute'
>>> throttle.attempt("ann", "10.0.0.1").refused is None  # the owner's address: let in
True
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Attempt", "LoginThrottle", "RateLimiter"]


@dataclass(slots=True)
class Attempt:
    """One login's tokens: give them back (`succeeded`, `not_tried`) or keep them
    (`failed`). ``refused`` says why the login must wait (no token is held then)."""

    throttle: LoginThrottle
    name: str
    address: str
    refused: str | None = None
    took_name: bool = False

    def failed(self) -> None:
        """A wrong password: the tokens stay spent."""

    def succeeded(self) -> None:
        """The password was right: nothing counts, and the address is the owner's."""
        self.not_tried()
        self.throttle.remember(self.name, self.address)

    def not_tried(self) -> None:
        """The password was not checked (the server was busy): nothing counts."""
        if self.refused is None:
            self.throttle.pairs.give_back(_pair(self.name, self.address))
            if self.took_name:
                self.throttle.names.give_back(self.name)


class LoginThrottle:
    """Failed logins per name and address (``per_pair`` a minute, bursts as large) and
    per name from every address (``per_name``), with the addresses each account was
    entered from (the newest ``remember``) let past the second."""

    def __init__(
        self,
        *,
        per_pair: float,
        per_name: float,
        clock: Callable[[], float] = time.monotonic,
        remember: int = 100_000,
    ) -> None:
        self.pairs = RateLimiter(rate=per_pair / 60, burst=per_pair, clock=clock)
        self.names = RateLimiter(rate=per_name / 60, burst=per_name, clock=clock)
        self.limit = remember
        self.known: OrderedDict[tuple[str, str], None] = OrderedDict()

    def attempt(self, name: str, address: str) -> Attempt:
        """Take the tokens for a login to ``name`` (any case) from ``address``."""
        key = name.lower()
        if not self.pairs.allow(_pair(key, address)):
            why = "too many failed logins for this name from your address: wait a minute"
            return Attempt(self, key, address, refused=why)
        if self.names.allow(key):
            return Attempt(self, key, address, took_name=True)
        if (key, address) in self.known:
            return Attempt(self, key, address)
        self.pairs.give_back(_pair(key, address))  # not tried: this address's bucket keeps it
        why = "too many failed logins for this name: wait a minute"
        return Attempt(self, key, address, refused=why)

    def remember(self, name: str, address: str) -> None:
        """``address`` entered the account ``name`` (a login, a registration)."""
        key = (name.lower(), address)
        self.known[key] = None
        self.known.move_to_end(key)
        while len(self.known) > self.limit:
            self.known.popitem(last=False)


def _pair(name: str, address: str) -> str:
    return f"{name}\n{address}"


class RateLimiter:
    """Token buckets by key: ``rate`` actions per second with bursts of ``burst``.

    >>> clock = iter([0.0, 0.0, 0.0, 1.0, 1.0, 1.0]).__next__
    >>> limiter = RateLimiter(rate=1, burst=2, clock=clock)
    >>> [limiter.allow("ann") for _ in range(4)]
    [True, True, False, True]
    >>> limiter.give_back("ann"); limiter.allow("ann"), limiter.allow("ann")
    (True, False)
    """

    def __init__(
        self, *, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Take one token for ``key`` if there is one."""
        now = float(self._clock())
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1, now)
            if len(self._buckets) > 100_000:  # forget idle keys
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
            return True

    def give_back(self, key: str) -> None:
        """Return the token taken for ``key`` (the action is not to be counted)."""
        with self._lock:
            if key in self._buckets:
                tokens, last = self._buckets[key]
                self._buckets[key] = (min(self.burst, tokens + 1), last)
