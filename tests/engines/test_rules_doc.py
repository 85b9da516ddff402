"""The repository cites only what it holds.

Every item of docs/rules.md that a file names exists there, every item is named by
at least one engine test, every doc a file names or links to is in the repository,
and no file points at the design notes or rulebook files kept outside it.
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path

from engines import ENGINES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"

# A heading "### M-7 · Title" defines item M-7.
HEADING = re.compile(r"^### ([A-Z]+)-([1-9][0-9]*) · \S", re.MULTILINE)
# A citation: the doc's path, then one item or several ("M-7, M-8 and M-9", "M-9 to M-13").
CITATION = re.compile(r"docs/rules\.md((?:(?:\s*,|\s*;|\s+and|\s+to|\s+or)?\s+[A-Z]+-[0-9]+\b)+)")
ITEM = re.compile(r"\b[A-Z]+-[0-9]+\b")
NAMED_DOC = re.compile(r"\bdocs/[\w.-]+\.md\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# The design notes, rulebook files and benchmark peers kept beside the repository,
# spelled in pieces so that this file does not name them itself.
NOTES = ("DECISIONS", "DESIGN")
BESIDE = "shared"
OUTSIDE = re.compile(rf"\b(?:{'|'.join(NOTES)})\.md\b|\.\./{BESIDE}\b|\b{BESIDE}/(?:rules|bench)\b")
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "data",
    "mutants",
}


def _files() -> list[Path]:
    """The repository's files: git's list (tracked and new, ignored ones left out),
    or, outside a git checkout, every file but the usual generated folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout.decode()
        paths = [ROOT / name for name in listed.split("\0") if name]
    except (OSError, subprocess.SubprocessError):
        paths = [
            path
            for path in ROOT.rglob("*")
            if not any(
                part in SKIPPED_DIRS or part.endswith(".egg-info")
                for part in path.relative_to(ROOT).parts
            )
        ]
    return sorted(path for path in paths if path.is_file())


def _texts() -> dict[str, str]:
    """Each text file's content by its path from the root; binary files left out."""
    texts = {}
    for path in _files():
        try:
            texts[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return texts


TEXTS = _texts()


def _items() -> dict[str, list[int]]:
    """The numbers of docs/rules.md's items per prefix, in the order they appear."""
    numbers: dict[str, list[int]] = defaultdict(list)
    for prefix, number in HEADING.findall(RULES.read_text(encoding="utf-8")):
        numbers[prefix].append(int(number))
    return numbers


ITEMS = {f"{prefix}-{n}" for prefix, numbers in _items().items() for n in numbers}


def _citations() -> dict[str, set[str]]:
    """The items each file cites as ``docs/rules.md ITEM``."""
    cited: dict[str, set[str]] = {}
    for name, text in TEXTS.items():
        found = {item for match in CITATION.finditer(text) for item in ITEM.findall(match[1])}
        if found:
            cited[name] = found
    return cited


def test_rules_doc_numbers_its_items_from_one_without_gaps() -> None:
    """Items per game, named after the engine (``MAEDN-3`` for ``maedn``), and ``ALL``."""
    numbers = _items()
    # the engines this repository ships (a test may register one of its own meanwhile)
    shipped = {p.name for p in (ROOT / "engines").iterdir() if (p / "__init__.py").is_file()}
    assert shipped <= set(ENGINES)
    assert set(numbers) == {"ALL"} | {name.upper() for name in shipped}
    for prefix, listed in numbers.items():
        assert listed == list(range(1, len(listed) + 1)), prefix


def test_every_rules_item_says_the_rule_and_what_it_settles() -> None:
    text = RULES.read_text(encoding="utf-8")
    bodies = re.split(r"^### ", text, flags=re.MULTILINE)[1:]
    assert len(bodies) == len(ITEMS)
    for body in bodies:
        title = body.splitlines()[0]
        assert "**Rule.**" in body and "**Settles.**" in body, title
        assert ("(reconstructed data)" in title) == ("**Reconstructed data.**" in body), title


def test_every_cited_rules_item_exists() -> None:
    missing = {name: sorted(items - ITEMS) for name, items in _citations().items() if items - ITEMS}
    # inside docs/rules.md an item refers to another by its bare name ("see M-15")
    inside = set(ITEM.findall(RULES.read_text(encoding="utf-8"))) - ITEMS
    assert not missing and not inside, (missing, sorted(inside))


def test_every_rules_item_is_named_by_an_engine_test() -> None:
    named = set().union(
        *(items for name, items in _citations().items() if name.startswith("tests/engines/"))
    )
    assert sorted(ITEMS - named) == []


def test_the_engines_cite_their_rules_by_item() -> None:
    rules = {name for name in TEXTS if re.fullmatch(r"engines/\w+/(rules|cards)\.py", name)}
    assert rules and not rules - set(_citations())


def test_every_doc_a_file_names_or_links_is_in_the_repository() -> None:
    missing = []
    for name, text in TEXTS.items():
        for doc in NAMED_DOC.findall(text):
            if not (ROOT / doc).is_file():
                missing.append(f"{name}: {doc}")
        if name.endswith(".md"):
            for target in LINK.findall(text):
                path = target.split("#")[0]
                if not path or re.match(r"[a-z][a-z0-9+.-]*:", path):
                    continue
                if not ((ROOT / name).parent / path).exists():
                    missing.append(f"{name}: {target}")
    assert missing == []


def test_no_file_points_outside_the_repository() -> None:
    found = [
        f"{name}:{text.count(chr(10), 0, match.start()) + 1}: {match[0]}"
        for name, text in TEXTS.items()
        for match in OUTSIDE.finditer(text)
    ]
    assert found == []
