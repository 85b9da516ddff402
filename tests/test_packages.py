"""The house's layout holds: which package may import which (docs/architecture.md).

    engines  <-  app/core  <-  app/play  <-  app/live, alerts, history, bots  <-  app/web  <-  app/

A package imports only packages to its left (and itself); the four in the middle
never import one another, and only the entry points and the composition root sit
at ``app/``'s root. Every import counts, also those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# a package's floor: it may import the floors below its own
FLOORS = {
    "engines": 0,
    "core": 1,
    "play": 2,
    "live": 3,
    "alerts": 3,
    "history": 3,
    "bots": 3,
    "web": 4,
    "root": 5,
}
ROOT_MODULES = {"__init__.py", "__main__.py", "cli.py", "services.py", "workers.py"}


def package_of(module: str) -> str | None:
    """The package of a dotted module name of this repository; ``None`` for another's."""
    parts = module.split(".")
    if parts[0] == "engines":
        return "engines"
    if parts[0] != "app":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in FLOORS else "root"


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imports(path: Path, text: str) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in ``path``; ``from a import b`` counts as
    ``a.b`` (it may name a module), relative imports as their absolute names."""
    found: list[tuple[int, str]] = []
    package = module_of(path).rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def forbidden(sources: dict[Path, str]) -> list[str]:
    """Every import in ``sources`` (path: its text) that runs against the floors."""
    wrong = []
    for path, text in sources.items():
        source = package_of(module_of(path))
        assert source is not None
        for line, module in imports(path, text):
            target = package_of(module)
            if target is None or target == source:
                continue
            if FLOORS[target] >= FLOORS[source]:
                where = path.relative_to(ROOT)
                wrong.append(f"{where}:{line}: {source} imports {target} ({module})")
    return wrong


def sources() -> dict[Path, str]:
    paths = sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "engines").rglob("*.py")])
    return {path: path.read_text() for path in paths}


def test_no_package_imports_its_own_floor_or_one_above() -> None:
    assert forbidden(sources()) == []


def test_app_root_holds_only_the_entry_points_and_the_composition_root() -> None:
    loose = {p.name for p in (ROOT / "app").glob("*.py")} - ROOT_MODULES
    assert loose == set(), "a module at app/'s root belongs in one of the packages"
    packages = {p.name for p in (ROOT / "app").iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(FLOORS) - {"engines", "root"}


def test_every_package_says_what_it_holds() -> None:
    for name in set(FLOORS) - {"engines", "root"}:
        init = ast.parse((ROOT / "app" / name / "__init__.py").read_text())
        assert ast.get_docstring(init), f"app/{name}/__init__.py has no docstring"


@pytest.mark.parametrize(
    ("path", "line", "fault"),
    [
        ("app/play/rooms.py", "from app.web.deps import Backend", "play imports web"),
        ("app/live/hub.py", "from app.alerts import due", "live imports alerts"),
        ("app/core/config.py", "from app.play import store", "core imports play"),
        ("engines/base.py", "from app.core.errors import ApiError", "engines imports core"),
        ("app/web/app.py", "from app.services import create_app", "web imports root"),
        ("app/bots/runner.py", "    from app.history import replay", "bots imports history"),
    ],
)
def test_a_forbidden_import_is_found(path: str, line: str, fault: str) -> None:
    """The check itself: an import planted where it must not be is reported."""
    planted = ROOT / path
    body = f"def _planted() -> None:\n{line}\n" if line.startswith(" ") else f"{line}\n"
    found = forbidden({planted: planted.read_text() + "\n" + body})
    assert any(fault in entry for entry in found), found


def test_the_readme_and_architecture_doc_name_every_package() -> None:
    readme = (ROOT / "README.md").read_text()
    architecture = (ROOT / "docs" / "architecture.md").read_text()
    for name in set(FLOORS) - {"engines", "root"}:
        assert f"`app/{name}/`" in readme, f"README's 'What is where' lacks app/{name}/"
        assert f"`app/{name}/`" in architecture, f"docs/architecture.md lacks app/{name}/"
