"""Write the settings table in README.md and the settings part of .env.example from
``app.core.config.Settings``, so the docs say what the code reads.

    .venv/bin/python tools/settings_doc.py          # rewrite both
    .venv/bin/python tools/settings_doc.py --check  # exit 1 if either is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.config import Settings  # noqa: E402

README = ROOT / "README.md"
ENV_EXAMPLE = ROOT / ".env.example"
MARKERS = {
    README: ("<!-- settings:start -->", "<!-- settings:end -->"),
    ENV_EXAMPLE: ("# settings:start", "# settings:end"),
}

# what docker-compose.yml itself sets for the app (an .env line for these has no effect)
SET_BY_COMPOSE = {
    "DATABASE_URL": "built from POSTGRES_PASSWORD",
    "REDIS_URL": "the redis service",
    "DATA_DIR": "/data, a volume",
    "PUBLIC_URL": "https://$DOMAIN",
    "TRUST_PROXY_HEADERS": "true: the caddy service is the only way in",
    "FORWARDED_ALLOW_IPS": "the caddy service's fixed address, unless .env says otherwise",
}


def _default(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def settings() -> list[tuple[str, str, str]]:
    """(VARIABLE, default, description) for every setting, in the order of the class."""
    return [
        (name.upper(), _default(field.default), field.description or "")
        for name, field in Settings.model_fields.items()
    ]


def readme_table() -> str:
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for name, default, text in settings():
        shown = f"`{default}`" if default else "unset"
        lines.append(f"| `{name}` | {shown} | {text} |")
    return "\n".join(lines)


def env_settings() -> str:
    lines = []
    for name, default, text in settings():
        lines.append(f"# {text}")
        if name in SET_BY_COMPOSE:
            lines.append(f"# (docker-compose.yml sets it: {SET_BY_COMPOSE[name]})")
        lines.append(f"# {name}={default}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _between(path: Path, body: str) -> str:
    start, end = MARKERS[path]
    head, found_start, rest = path.read_text().partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise SystemExit(f"{path.name}: the markers {start} … {end} are missing")
    return f"{head}{start}\n{body}\n{end}{tail}"


def expected() -> dict[Path, str]:
    return {
        README: _between(README, readme_table()),
        ENV_EXAMPLE: _between(ENV_EXAMPLE, env_settings().rstrip()),
    }


def main() -> int:
    stale = [path for path, text in expected().items() if path.read_text() != text]
    if "--check" in sys.argv[1:]:
        for path in stale:
            print(f"{path.name} is out of date: run .venv/bin/python tools/settings_doc.py")
        return 1 if stale else 0
    for path, text in expected().items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
