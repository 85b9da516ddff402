"""axe-core in the page: the npm package's script, injected, run on what is shown.

``make test`` installs axe-core with npm (package.json at the root pins it); nothing
is fetched while the tests run. The rules are WCAG 2.0 and 2.1 A and AA plus
axe's best practices.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@cache
def axe_source() -> str:
    if not AXE.exists():
        raise RuntimeError(f"no axe-core at {AXE}: run `npm ci` (make test does)")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (the script is injected once per page)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    result: list[dict[str, Any]] = page.evaluate(
        """tags => window.axe.run(document, {runOnly: {type: 'tag', values: tags}})
            .then(r => r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html, summary: n.failureSummary}))
            })))""",
        TAGS,
    )
    return result


def report(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:6]:
            summary = " ".join(str(node["summary"]).split())[:300]
            lines.append(f"    {node['target']}: {summary}")
            lines.append(f"      {str(node.get('html', ''))[:200]}")
    return "\n".join(lines)
