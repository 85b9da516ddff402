"""``python -m app verify RECORD.json``: check a game record's deal and moves offline."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from app.fairness import verify


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app verify",
        description="Recompute a finished game's seed commitment, deal again from the seed "
        "and replay every move to the recorded result.",
    )
    parser.add_argument("record", help="a game record (JSON) downloaded from a room")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print(f"{args.record} is not a game record (a JSON object)", file=sys.stderr)
        return 2
    check = verify(record)
    print(("verified: " if check.ok else "NOT verified: ") + check.message)
    return 0 if check.ok else 1
