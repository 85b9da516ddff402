"""The site as a web app: the manifest, its icons and the service worker's shell, as served."""

from __future__ import annotations

import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.services import create_app
from app.web.shell import shell_of, worker_script
from tests.server import ROOT

STATIC = ROOT / "static"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def test_the_manifest_is_served_as_one_with_the_sites_headers(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    assert response.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in response.headers["content-security-policy"]
    manifest = response.json()
    assert manifest["name"] and manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])


def test_every_icon_is_a_png_of_the_size_it_claims(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    seen = set()
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response.headers["content-type"] == "image/png"
        width, height = _png_size(response.content)
        assert icon["sizes"] == f"{width}x{height}", icon
        seen.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen


def test_every_page_names_the_manifest_and_the_apple_touch_icon(client: TestClient) -> None:
    for path in ["/", "/r/some-room", "/r/some-room/games/1"]:
        page = client.get(path).text
        assert '<link rel="manifest" href="/manifest.webmanifest" />' in page, path
        icon = re.search(r'<link rel="apple-touch-icon" href="([^"]+)" />', page)
        assert icon, path
        assert _png_size(client.get(icon.group(1)).content) == (180, 180)


def test_the_worker_is_served_for_the_whole_site_with_every_file_of_the_shell(
    client: TestClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    script = response.text
    version = re.search(r'^const SHELL_VERSION = "([0-9a-f]{16})";$', script, re.MULTILINE)
    assert version, "the server wrote the version in"
    files = re.search(r"^const SHELL_FILES = (\[.*\]);$", script, re.MULTILINE)
    assert files
    listed = set(re.findall(r'"([^"]+)"', files.group(1)))
    assert {"/", "/static/room.html", "/manifest.webmanifest"} <= listed
    on_disk = {
        f"/static/{p.relative_to(STATIC).as_posix()}"
        for p in STATIC.rglob("*")
        if p.is_file() and p.suffix in {".js", ".css", ".png", ".svg"} and "tests" not in p.parts
    } - {"/static/sw.js"}
    assert on_disk <= listed, sorted(on_disk - listed)
    assert not [path for path in listed if "/tests/" in path or "?" in path or "#" in path]
    for path in listed:
        assert client.get(path).status_code == 200, path


def test_a_changed_file_changes_the_shells_version(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    before = shell_of(copy)
    assert shell_of(copy) == before, "the same files give the same version"
    room = copy / "js" / "room.js"
    room.write_text(room.read_text() + "\n// changed\n")
    after = shell_of(copy)
    assert after.files == before.files and after.version != before.version
    assert f'"{after.version}"' in worker_script(copy).decode()


def test_a_worker_without_its_lines_to_fill_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    worker = copy / "sw.js"
    worker.write_text(worker.read_text().replace("const SHELL_FILES", "let SHELL_FILES"))
    with pytest.raises(RuntimeError, match="SHELL_FILES"):
        worker_script(copy)
