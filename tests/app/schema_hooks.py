"""Schemathesis hooks for the long fuzz run (``tests/app/test_schema_fuzz.py``).

The schemathesis CLI loads this file (``SCHEMATHESIS_HOOKS``). Every operation of
``/openapi.json`` then gets, beside what schemathesis makes from the schema: real
values (the room, game numbers, steps and seats of a table in play, and the tokens
of every kind of caller) and hostile ones (NUL, lone surrogates, escape sequences,
numbers past any database integer or with thousands of digits, deeply nested JSON,
values of the wrong JSON type). The routes that read their body themselves (the
record imports and verify) get a body described here, so they are fuzzed too.

The table comes from the JSON file named by ``FUZZ_TABLE``: ``{"path": {name:
[values]}, "tokens": [token or null, ...], "bodies": {"METHOD /path": [body, ...]}}``. This file imports nothing of the
project: the CLI runs it outside the test session.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import strategies as st

TABLE: dict[str, Any] = (
    json.loads(Path(os.environ["FUZZ_TABLE"]).read_text()) if os.environ.get("FUZZ_TABLE") else {}
)

# strings no database can keep (NUL, lone surrogates), or that look like trouble where
# they are shown (escape sequences, direction overrides), or are far too long
HOSTILE_TEXT = [
    "\x00",
    "ab\x00cd",
    "\ud800",
    "x\udfffy",
    "\x1b[2J\x1b[31m",
    "\u202eevil",
    "\u200b",
    "x" * 5000,
]
# numbers past every database integer, and floats JSON can carry
HUGE_NUMBERS: list[int | float] = [2**31, 2**63, -(2**63) - 1, 10**40, 10**400, 1e308, -0.0]
# values of the wrong JSON type for whatever field they land in
WRONG_TYPES: list[Any] = [None, True, [], {}, "x", 0, [[[[[]]]]], {"a": {"b": {"c": {}}}}]
# path segments a browser or script may send: NUL (as %00), over-long, foreign
HOSTILE_PATH: dict[str, list[Any]] = {
    "room": ["\x00", "ab\x00cd", "x" * 65, "a.b", "no-such-room"],
    "game_no": [0, -1, 2**63, 10**30],
    "step": [-1, 2**63, 10**30],
    "seat": [-1, 2**63, 10**30],
    "format": ["\x00", "bogus", "verify", "x" * 65, "a.b"],
}
# query values: the same, as text (a URL can't carry a lone surrogate)
HOSTILE_QUERY = ["\x00", "ab\x00cd", str(2**63), "-1", "9" * 400, "x" * 5000, ""]
NEST = "__nested__"
# bytes no UTF-8 text holds (a surrogate's encoding, a lone continuation byte), and NUL
BROKEN_BYTES = [b"\xed\xa0\x80", b"\xff\xfe", b"\x80", b"\x00", b"\x1b[2J"]

# the bodies of the routes that read them themselves: described for the fuzzing only
RECORD = {
    "type": "object",
    "properties": {
        "format": {"type": "string", "enum": ["spieltisch-record"]},
        "format_version": {"type": "integer"},
        "engine": {"type": "string", "enum": ["blokus", "m", "maedn"]},
        "version": {"type": "string"},
        "players": {"type": "integer"},
        "options": {"type": "object"},
        "names": {"type": "array", "items": {"type": "string"}},
        "moves": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"seat": {"type": "integer"}, "move": {"type": "object"}},
            },
        },
        "seed": {"type": "integer"},
        "salt": {"type": "string"},
        "commitment": {"type": "string"},
        "result": {"type": "object"},
    },
}
READ_BY_THEMSELVES = {
    "/api/records": ("application/json", RECORD),
    "/api/records/verify": ("application/json", RECORD),
    "/api/records/{format}": ("text/plain", {"type": "string"}),
}


@schemathesis.serializer("text/plain")
def text_with_surrogates(context: Any, value: Any) -> bytes:
    """A text body as UTF-8, a lone surrogate too (as bytes no decoder takes), where the
    stock serializer would stop the run before the request is sent."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:
    for path, (media, schema) in READ_BY_THEMSELVES.items():
        operation = raw_schema.get("paths", {}).get(path, {}).get("post")
        if operation is not None and "requestBody" not in operation:
            operation["requestBody"] = {"required": True, "content": {media: {"schema": schema}}}


@schemathesis.hook
def flatmap_path_parameters(context: Any, path_parameters: Any) -> Any:
    if not path_parameters:
        return st.just(path_parameters)
    real = TABLE.get("path", {})
    drawn = {}
    for name, value in path_parameters.items():
        options = [st.just(value), st.sampled_from(HOSTILE_PATH.get(name, ["\x00"]))]
        if real.get(name):
            # real values three times out of five: the calls get past the 404s to the code
            options += [st.sampled_from(real[name])] * 3
        drawn[name] = st.one_of(options)
    return st.fixed_dictionaries(drawn)


@schemathesis.hook
def flatmap_query(context: Any, query: Any) -> Any:
    if not query:
        return st.just(query)
    drawn = {
        name: st.one_of(st.just(value), st.sampled_from(HOSTILE_QUERY))
        for name, value in query.items()
    }
    return st.fixed_dictionaries(drawn)


@schemathesis.hook
def flatmap_headers(context: Any, headers: Any) -> Any:
    """The bearer token of a caller of some kind: none, a stranger's, a seated player's,
    a freed seat's, a newcomer's, another room's, the host's (or what was generated)."""
    tokens = TABLE.get("tokens") or []
    if not tokens:
        return st.just(headers)

    def with_token(token: str | None) -> Any:
        kept = {k: v for k, v in (headers or {}).items() if k.lower() != "authorization"}
        if token is not None:
            kept["authorization"] = f"Bearer {token}"
        return kept

    # a caller's token three times out of four, the generated header the fourth
    return st.one_of(st.just(headers), *[st.sampled_from(tokens).map(with_token)] * 3)


def _raw(body: Any, key: str, text: str) -> bytes:
    """``body`` as JSON text with ``text`` as the value of ``key``: what ``json`` can't make."""
    return json.dumps({**body, key: NEST}).replace(json.dumps(NEST), text).encode()


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@schemathesis.hook
def flatmap_body(context: Any, body: Any) -> Any:
    """The body as generated or a real one of this operation (a legal move, a seat's
    claim …), as it is or with one field (or the whole) made hostile."""
    label = getattr(getattr(context, "operation", None), "label", None)
    real = TABLE.get("bodies", {}).get(label) if label else None
    if not real:
        return hostile_body(body)
    real_ones = st.sampled_from(real)
    return st.one_of(hostile_body(body), real_ones, real_ones.flatmap(hostile_body))


def hostile_body(body: Any) -> Any:
    """``body``, or ``body`` with one field (or the whole) made hostile: a string no
    database keeps, a huge number, a wrong type, JSON nested thousands deep, a number of
    thousands of digits (the last two as raw JSON text)."""
    whole = st.one_of(
        st.integers(1000, 50000).map(lambda depth: deep(depth).encode()),
        st.just(("9" * 5000).encode()),
        st.sampled_from(HOSTILE_TEXT),
        st.sampled_from(WRONG_TYPES),
    )
    if isinstance(body, str):  # a text body (a file of an engine's format): any bytes
        half = body[: len(body) // 2].encode("utf-8", "replace")
        return st.one_of(
            st.just(body),
            st.sampled_from(BROKEN_BYTES).map(lambda bad: half + bad),
            st.integers(1000, 50000).map(lambda depth: b"(;" * depth),
            st.just(
                b"(;GM[Blokus]SZ[14]PB[Ida\x00]PW[" + b"9" * 5000 + b"];B[" + b"9" * 5000 + b"])"
            ),
        )
    if not isinstance(body, dict) or not body:
        return st.one_of(st.just(body), whole)
    keys = sorted(body)
    value = st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.sampled_from(HUGE_NUMBERS),
        st.sampled_from(WRONG_TYPES),
    )
    replaced = st.tuples(st.sampled_from(keys), value).map(lambda kv: {**body, kv[0]: kv[1]})
    raw = st.tuples(
        st.sampled_from(keys),
        st.one_of(st.integers(1000, 50000).map(deep), st.just("9" * 5000)),
    ).map(lambda kv: _raw(body, kv[0], kv[1]))
    return st.one_of(st.just(body), replaced, raw, whole)
