"""Print, as JSON, how many of each module's mutants the fast tests killed.

Reads what ``mutmut run`` (``make mutate``) left in ``mutants/``: one ``.meta``
file per mutated module, holding each mutant's test exit code. A mutant counts as
killed when a test failed (or the tests ran past mutmut's time limit, which a real
run would report as a hang); ``killed_share`` is killed over all mutants checked.

    python tools/mutation_report.py              # one object per module, and a total
    python tools/mutation_report.py --survivors  # also the names of the survivors
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KILLED = {"killed", "timeout", "caught by type check"}


def _status_by_exit_code() -> Any:
    # mutmut's own table, so its meaning of an exit code and ours never part
    from mutmut.stats import status_by_exit_code

    return status_by_exit_code


def module_name(meta: Path, mutants: Path) -> str:
    return str(meta.relative_to(mutants).with_suffix("").with_suffix("")).replace("/", ".")


def report(mutants: Path, survivors: bool = False) -> dict[str, Any]:
    status_of = _status_by_exit_code()
    modules: dict[str, Any] = {}
    total: Counter[str] = Counter()
    for meta in sorted(mutants.rglob("*.py.meta")):
        exit_codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        statuses = {name: status_of[code] for name, code in exit_codes.items()}
        counts = Counter(statuses.values())
        entry = _figures(counts)
        if survivors:
            entry["survivors"] = sorted(n for n, s in statuses.items() if s == "survived")
        modules[module_name(meta, mutants)] = entry
        total.update(counts)
    return {"modules": modules, "total": _figures(total)}


def _figures(counts: Counter[str]) -> dict[str, Any]:
    checked = sum(n for status, n in counts.items() if status != "not checked")
    killed = sum(counts[s] for s in KILLED)
    return {
        "mutants": sum(counts.values()),
        "checked": checked,
        "killed": killed,
        "survived": counts["survived"],
        "no_tests": counts["no tests"],
        "timeout": counts["timeout"],
        "killed_share": round(killed / checked, 3) if checked else None,
        **{
            s.replace(" ", "_"): n
            for s, n in counts.items()
            if s not in {*KILLED, "survived", "no tests"}
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants")
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants")
    args = parser.parse_args()
    if not any(args.mutants.rglob("*.py.meta")):
        print(f"no mutmut results in {args.mutants}: run `make mutate` first", file=sys.stderr)
        return 1
    json.dump(report(args.mutants, args.survivors), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
