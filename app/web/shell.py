"""The offline shell's list: every file the service worker keeps, and its version.

``static/sw.js`` is served at ``/sw.js`` with two of its lines filled in here: the
paths of the pages and of every file under ``static/`` (the browser tests and the
worker itself left out), and a version made from their contents. A changed file
changes the version, so the worker's script changes too: browsers install it again,
fetch the new shell into a cache of that name and drop the old one.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

# the pages, by the path they are opened at (every room page is the one file)
PAGES = {"/": "index.html", "/static/room.html": "room.html"}
# served at the root instead (their own routes set the media type and cache headers)
AT_ROOT = {"manifest.webmanifest": "/manifest.webmanifest"}
LEFT_OUT = {"sw.js", "package.json", "index.html", "replay.html", "room.html"}
VERSION_LINE = re.compile(r'^const SHELL_VERSION = "[^"\n]*";$', re.MULTILINE)
FILES_LINE = re.compile(r"^const SHELL_FILES = \[[^\n]*\];$", re.MULTILINE)


@dataclass(frozen=True)
class Shell:
    version: str
    files: tuple[str, ...]


def shell_of(static: Path) -> Shell:
    """The pages and files of ``static`` the worker keeps, and a digest of them all."""
    found: dict[str, Path] = {path: static / name for path, name in PAGES.items()}
    for file in sorted(static.rglob("*")):
        relative = file.relative_to(static).as_posix()
        if not file.is_file() or relative.startswith("tests/") or relative in LEFT_OUT:
            continue
        found[AT_ROOT.get(relative, f"/static/{relative}")] = file
    digest = hashlib.sha256()
    for path in sorted(found):
        digest.update(path.encode() + b"\0" + found[path].read_bytes() + b"\0")
    return Shell(version=digest.hexdigest()[:16], files=tuple(sorted(found)))


def worker_script(static: Path) -> bytes:
    """``sw.js`` with this shell's version and files written into it."""
    source = (static / "sw.js").read_text()
    shell = shell_of(static)
    filled, versions = VERSION_LINE.subn(
        f"const SHELL_VERSION = {json.dumps(shell.version)};", source
    )
    filled, lists = FILES_LINE.subn(
        lambda _: f"const SHELL_FILES = {json.dumps(list(shell.files))};", filled
    )
    if (versions, lists) != (1, 1):
        raise RuntimeError("static/sw.js lacks its SHELL_VERSION or SHELL_FILES line")
    return filled.encode()
