"""The app's route table as it serves it, for tests that call every route."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, routing

from app.core.config import Settings
from app.services import create_app

# ``{name}`` or ``{name:convertor}`` in a route's path
PATH_PARAM = re.compile(r"{(\w+)(?::\w+)?}")


def route_table(app: FastAPI | None = None) -> list[Any]:
    """Every route of ``app`` (by default the service's), included routers flattened:
    each has ``path``, ``methods`` and, behind it, the route it was declared as."""
    if app is None:
        app = create_app(Settings(auto_migrate=False))
    iterate = getattr(routing, "iter_route_contexts", None)
    return list(iterate(app.routes)) if iterate is not None else list(app.routes)


def declared(route: Any) -> Any:
    """The route as it was declared (an ``APIRoute``, a ``Mount`` …)."""
    return getattr(route, "original_route", route)


def fill(path: str, values: dict[str, str] | Callable[[str], str]) -> str:
    """``path`` with each ``{name}`` replaced by its value."""
    get = values if callable(values) else values.__getitem__
    return PATH_PARAM.sub(lambda m: get(m.group(1)), path)
