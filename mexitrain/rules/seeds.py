"""A game's seed: how its deals and its computer players' randomness follow from it, and the
seal that proves the deal was fixed before the first tile (docs/fair-deal.md).

Two kinds of seed, told apart by their size alone, so that the same seed always gives the
same game:

- **Sealed seeds** (``seed >= KEYED_FROM``, 2**64): a fresh game draws one of 129 bits whose
  lower 128 come from the system's randomness (:func:`fresh_seed`). Each round's deal, round 1's
  first seat and each computer seat's private seed are drawn from HMAC-SHA256 keyed with the
  seed (:class:`KeyedRandom`, :func:`derived_seed`): what one seat sees (its hand, the tiles
  drawn) is the output of a pseudo-random function whose key it does not know, so it tells
  nothing about the key, the other hands, the boneyard's order or any other round, short of
  breaking HMAC-SHA256.
- **Classic seeds** (``seed < KEYED_FROM``): the deals of earlier versions, ``random.Random``
  seeded with ``"mexitrain:{seed}:round:{n}"``. Old saves, records, the kept tournament
  results and any seed a person types to replay a known deal use them. Such a seed is small
  enough to be found from one hand by trying them all: a game dealt from it is never called
  sealed.

The seal is SHA-256 of the seed's decimal digits behind a fixed prefix: shown to every seat
from the first deal, it binds the host to the seed, which is revealed at the end (the seat's
view carries it only once the game is over). With 128 unknown bits the seal cannot be
inverted by trying seeds.

Pure: no I/O, no clocks; the only system randomness is :func:`fresh_seed`'s, which the
rules core never calls (the app, ``host`` and ``play`` do, for a game nobody gave a seed to).

>>> keyed(7), keyed(2**64)
(False, True)
>>> KeyedRandom(2**128, "demo").getrandbits(16) == KeyedRandom(2**128, "demo").getrandbits(16)
True
>>> check_seal(2**128 + 5, seal(2**128 + 5)), check_seal(2**128 + 6, seal(2**128 + 5))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

#: Seeds from here on deal through HMAC-SHA256 (sealed seeds); smaller ones deal the classic way.
KEYED_FROM = 2**64
#: The largest seed (129 bits: a fresh seed is 2**128 plus 128 random bits).
SEED_MAX = 2**129 - 1
#: Random bits in a fresh seed.
FRESH_BITS = 128
_SEAL_PREFIX = b"mexitrain-seal-v1:"


def keyed(seed: int) -> bool:
    """Whether ``seed`` deals through the keyed function (a sealed seed)."""
    return seed >= KEYED_FROM


def fresh_seed() -> int:
    """A new game's seed: 2**128 plus 128 bits of the system's randomness (never guessable)."""
    return (1 << FRESH_BITS) | secrets.randbits(FRESH_BITS)


def _key(seed: int) -> bytes:
    return b"mexitrain-seed-v1:" + str(seed).encode("ascii")


class KeyedRandom(random.Random):
    """A ``random.Random`` whose bits are HMAC-SHA256(seed, label ‖ counter) blocks, in order.

    Deterministic (the same seed and label, the same draws, on every platform and Python),
    and unpredictable to anyone without the seed. ``shuffle``, ``randrange`` and ``sample``
    draw through :meth:`getrandbits` (``random.Random`` routes them so for a subclass that
    defines it), the float methods through :meth:`random`.
    """

    def __init__(self, seed: int, label: str) -> None:
        super().__init__(0)  # the base generator's own state is never drawn from
        self._hkey = _key(seed)
        self._label = label.encode("ascii") + b":"
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def getrandbits(self, k: int) -> int:  # noqa: D102 - random.Random's
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._bits < k:
            block = hmac.digest(self._hkey, self._label + self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._bits += 256
        self._bits -= k
        out = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return out

    def random(self) -> float:  # noqa: D102 - random.Random's
        return self.getrandbits(53) * (1.0 / 9007199254740992.0)

    def seed(self, *args, **kwargs) -> None:  # noqa: D102 - only Random.__init__ calls it
        super().seed(0)


def round_rng(seed: int, number: int) -> random.Random:
    """The generator that shuffles round ``number``'s tiles."""
    if keyed(seed):
        return KeyedRandom(seed, f"deal/round/{number}")
    return random.Random(f"mexitrain:{seed}:round:{number}")


def first_rng(seed: int) -> random.Random:
    """The generator that draws round 1's first seat (``first_player=random``)."""
    if keyed(seed):
        return KeyedRandom(seed, "first")
    return random.Random(f"mexitrain:{seed}:first")


def derived_seed(seed: int, label: str) -> int:
    """A 128-bit seed for something else that must follow from ``seed`` (a computer seat's
    private randomness), from which ``seed`` cannot be worked back."""
    return int.from_bytes(hmac.digest(_key(seed), b"derive/" + label.encode("ascii"), "sha256")[:16], "big")


def seal(seed: int) -> str:
    """The seal of ``seed``: SHA-256 in hex, shown before the first tile."""
    return hashlib.sha256(_SEAL_PREFIX + str(seed).encode("ascii")).hexdigest()


def check_seal(seed: int, shown: str) -> bool:
    """Whether ``seed`` is the seed that the seal ``shown`` was made from."""
    return hmac.compare_digest(seal(seed), shown)


def seed_text(seed: int) -> str:
    """A seed as people copy it: a sealed seed in hex (``0x1…``, 33 digits), a classic one in
    decimal. ``--seed`` reads both forms."""
    return hex(seed) if keyed(seed) else str(seed)


def parse_seed(text: str) -> int | None:
    """``text`` as a seed (decimal, or hex behind ``0x``), or None: not a number, or out of
    0..SEED_MAX. Long strings are refused by their length before any conversion."""
    t = text.strip().replace("_", "")
    if len(t) > 45:
        return None
    try:
        if t[:2].lower() == "0x":
            digits = t[2:]
            if not digits or any(ch not in "0123456789abcdefABCDEF" for ch in digits):
                return None
            value = int(digits, 16)
        else:
            if not t or any(ch not in "0123456789" for ch in t):
                return None
            value = int(t)
    except ValueError:
        return None
    return value if value <= SEED_MAX else None
