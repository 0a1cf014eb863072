"""Every memo of the rules and the players, in one registry, with one :func:`clear`.

The rules are pure functions; some results are dear to compute and asked for again and again
(a set's tiles, what fits an open end, a table of moves, a hand's planned train, a seat's
view of finished rounds), so they are remembered here. A cache is created once, by name, with
:func:`new`; it is keyed by value, never by ``id()``: an equal key gives the same result,
whichever object carries it. Where ``True`` and ``1`` (or ``False`` and ``0``) could meet in a
key, the cache is ``typed``: the key's types are part of it, so an equal key of another type
never gets another key's result. A cache made with :func:`recent` keeps its last few keys
and compares them with ``==`` instead of hashing them: for keys such as a game's finished
rounds, whose hash walks every event, while the snapshots of a game share those parts, so
``==`` on them is a few identity checks. :func:`clear` empties every cache; what comes after
is the same, only slower the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

_NO = object()


class Cache:
    """One named memo: ``memo(key, make)`` returns the value remembered for ``key``, or
    ``make()`` remembered. With ``limit``, the cache empties itself when it holds that many."""

    __slots__ = ("name", "typed", "limit", "_data")

    def __init__(self, name: str, typed: bool = False, limit: int | None = None) -> None:
        self.name = name
        self.typed = typed
        self.limit = limit
        self._data: dict[Hashable, Any] = {}

    def _key(self, key: Hashable) -> Hashable:
        if not self.typed:
            return key
        if type(key) is tuple:
            return (key, tuple(map(type, key)))
        return (key, type(key))

    def get(self, key: Hashable, default: Any = None) -> Any:
        if self.typed:
            key = (key, tuple(map(type, key))) if type(key) is tuple else (key, type(key))
        return self._data.get(key, default)

    def put(self, key: Hashable, value: Any) -> Any:
        data = self._data
        if self.limit is not None and len(data) >= self.limit:
            data.clear()
        data[self._key(key)] = value
        return value

    def memo(self, key: Hashable, make: Callable[[], Any]) -> Any:
        k = self._key(key)
        value = self._data.get(k, _NO)
        if value is _NO:
            data = self._data
            value = make()
            if self.limit is not None and len(data) >= self.limit:
                data.clear()
            data[k] = value
        return value

    def clear(self) -> None:
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Cache({self.name!r}, {len(self)} entries)"


class Recent(Cache):
    """A memo of the ``limit`` keys used last, found by ``==`` (newest first), not by hash."""

    __slots__ = ()

    def __init__(self, name: str, typed: bool, limit: int) -> None:
        super().__init__(name, typed, limit)
        self._data: list[tuple[Hashable, Any]] = []  # type: ignore[assignment]

    def get(self, key: Hashable, default: Any = None) -> Any:
        k = self._key(key)
        for have, value in self._data:
            if have == k:
                return value
        return default

    def put(self, key: Hashable, value: Any) -> Any:
        data = self._data
        data.insert(0, (self._key(key), value))
        del data[self.limit :]
        return value

    def memo(self, key: Hashable, make: Callable[[], Any]) -> Any:
        value = self.get(key, _NO)
        return self.put(key, make()) if value is _NO else value


_REGISTRY: dict[str, Cache] = {}


def _register(name: str, make: Callable[[], Cache]) -> Cache:
    cache = _REGISTRY.get(name)
    if cache is None:
        cache = _REGISTRY[name] = make()
    return cache


def new(name: str, typed: bool = False, limit: int | None = None) -> Cache:
    """The hashed cache called ``name`` (``module.what``), created on first call."""
    return _register(name, lambda: Cache(name, typed, limit))


def recent(name: str, limit: int, typed: bool = False) -> Cache:
    """The cache called ``name`` of the ``limit`` keys used last, compared with ``==``."""
    return _register(name, lambda: Recent(name, typed, limit))


def caches() -> dict[str, Cache]:
    """Every cache created so far, by name."""
    return dict(_REGISTRY)


def clear() -> None:
    """Empty every cache of the rules and the players."""
    for cache in _REGISTRY.values():
        cache.clear()
