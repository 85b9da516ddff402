"""``make icons``: the web app's PNG icons, drawn from the logo ``static/favicon.svg``.

Debian's Chromium (through Playwright, as ``tools/screenshots.py`` uses it) renders
the SVG at each size, so the PNGs are the logo itself and nothing is fetched. Two
shapes come out:

- ``any``: the logo as it is (rounded corners, transparent outside them), 192 and 512.
- ``full``: the felt fills the whole square and the four tiles shrink towards the
  middle, for platforms that cut their own shape: the maskable 512 (the tiles inside
  the middle 80 % circle every mask keeps) and the 180 Apple touch icon (iOS rounds
  the corners itself and paints transparency black).

Run it again after changing the logo and commit the PNGs; the manifest
(``static/manifest.webmanifest``) and the pages name them.
"""

from __future__ import annotations

import base64
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.chromium import launch  # noqa: E402

LOGO = ROOT / "static" / "favicon.svg"
OUT = ROOT / "static" / "icons"
SVG = "http://www.w3.org/2000/svg"
# the tiles' scale in the full-bleed shape: their outer corners then lie 0.8 * 18 * sqrt(2)
# = 20.4 of the 64 units from the middle, well inside the safe circle's radius of 25.6
TILE_SCALE = 0.8
ICONS = [
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "full"),
    ("apple-touch-icon.png", 180, "full"),
]


def full_bleed(logo: str) -> str:
    """The logo with its felt square to the edges and its tiles scaled about the middle."""
    ET.register_namespace("", SVG)
    root = ET.fromstring(logo)
    shapes = list(root)
    felt, tiles = shapes[0], [s for s in shapes[1:] if s.get("fill") not in (None, "none")]
    size = float(root.get("viewBox", "0 0 64 64").split()[2])
    out = ET.Element(f"{{{SVG}}}svg", {"viewBox": f"0 0 {size:g} {size:g}"})
    ET.SubElement(
        out,
        f"{{{SVG}}}rect",
        {"width": f"{size:g}", "height": f"{size:g}", "fill": felt.get("fill", "")},
    )
    middle = size / 2
    group = ET.SubElement(
        out,
        f"{{{SVG}}}g",
        {
            "transform": f"translate({middle:g} {middle:g}) scale({TILE_SCALE:g}) translate({-middle:g} {-middle:g})"
        },
    )
    group.extend(tiles)
    return ET.tostring(out, encoding="unicode")


def render(page: Page, svg: str, size: int) -> bytes:
    """The SVG drawn at ``size`` pixels square, as a PNG with its transparency kept."""
    data = base64.b64encode(svg.encode()).decode()
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        '<html><body style="margin:0">'
        f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}" style="display:block">'
        "</body></html>"
    )
    page.wait_for_function("document.images[0].complete")
    return page.screenshot(omit_background=True)


def main() -> None:
    logo = LOGO.read_text()
    shapes = {"any": logo, "full": full_bleed(logo)}
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(device_scale_factor=1)
            for name, size, shape in ICONS:
                (OUT / name).write_bytes(render(page, shapes[shape], size))
                print(f"static/icons/{name} ({size}x{size}, {shape})")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
