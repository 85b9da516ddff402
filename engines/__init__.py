"""Rule engines, one package per game, behind the contract in ``engines.base``."""

from __future__ import annotations

import re
from typing import Any

from engines.base import BadOptions, Engine, IllegalMove, RecordFormat

ENGINES: dict[str, Engine[Any]] = {}
# a record format's name is a word of a URL (``record.<name>``)
FORMAT_NAME = re.compile(r"[a-z][a-z0-9]{0,15}")


def register(engine: Engine[Any]) -> Engine[Any]:
    """Make ``engine`` one of the games the server offers (under ``engine.name``).

    The engines of this package register themselves; another (a test's, say) may be
    registered at run time. Its record formats must have names of their own: a
    lowercase word, not one of another engine's formats."""
    taken = {
        fmt.name: other.name
        for other in ENGINES.values()
        if other.name != engine.name
        for fmt in other.record_formats()
    }
    for fmt in engine.record_formats():
        if not FORMAT_NAME.fullmatch(fmt.name):
            raise ValueError(f"{engine.name}: record format name {fmt.name!r} is no lowercase word")
        if fmt.name in taken:
            raise ValueError(f"{engine.name}: record format {fmt.name!r} is {taken[fmt.name]}'s")
    ENGINES[engine.name] = engine
    return engine


def record_format(name: str) -> tuple[Engine[Any], RecordFormat] | None:
    """The engine with a record format called ``name``, and that format; ``None`` if none."""
    for engine in ENGINES.values():
        found = engine.record_format(name)
        if found is not None:
            return engine, found
    return None


def get_engine(name: str) -> Engine[Any]:
    """The engine called ``name``; an unknown name is a ``KeyError`` listing the known ones."""
    try:
        return ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES)) or "none"
        raise KeyError(f"Unknown game {name!r}; known games: {known}.") from None


def _register_all() -> None:
    from engines.blokus import ENGINE as blokus
    from engines.m import ENGINE as m
    from engines.maedn import ENGINE as maedn

    register(blokus)
    register(m)
    register(maedn)


_register_all()

__all__ = [
    "ENGINES",
    "BadOptions",
    "Engine",
    "IllegalMove",
    "get_engine",
    "record_format",
    "register",
]
