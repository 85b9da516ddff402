"""Rule engines, one package per game, behind the contract in ``engines.base``."""

from __future__ import annotations

from typing import Any

from engines.base import BadOptions, Engine, IllegalMove

ENGINES: dict[str, Engine[Any]] = {}


def register(engine: Engine[Any]) -> Engine[Any]:
    ENGINES[engine.name] = engine
    return engine


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

__all__ = ["ENGINES", "BadOptions", "Engine", "IllegalMove", "get_engine", "register"]
