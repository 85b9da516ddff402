"""``python -m app verify RECORD.json``: check a game record's deal and moves offline.

Exit status: 0 verified, 1 not verified (the message says where it differs), 2 the
file is unreadable: missing, too large, not JSON, or not shaped like a record (the
message says why). Never a traceback: the file may be anything.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from app.history.format import BadRecord, parse
from app.history.verify import verify

# far more than any record of a real game (a server takes 1 MiB)
MAX_BYTES = 16 * 1024 * 1024


def _unreadable(path: str, reason: str) -> int:
    print(f"unreadable: {path}: {reason}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app verify",
        description="Recompute a finished game's seed commitment, deal again from the seed "
        "and replay every move to the recorded result. Exit status: 0 verified, 1 not, "
        "2 unreadable.",
    )
    parser.add_argument("record", help="a game record (JSON) downloaded from a room")
    args = parser.parse_args(argv)
    path: str = args.record
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return _unreadable(path, exc.strerror or str(exc))
    if len(text) > MAX_BYTES:
        return _unreadable(path, f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        record = parse(text)
    except BadRecord as exc:
        return _unreadable(path, exc.message)
    try:
        check = verify(record)
    except Exception as exc:  # the engines refuse what they can't read; this is the backstop
        return _unreadable(path, f"the record could not be replayed ({type(exc).__name__})")
    print(("verified: " if check.ok else "NOT verified: ") + check.message)
    if check.note:
        print(f"note: {check.note}")
    return 0 if check.ok else 1
