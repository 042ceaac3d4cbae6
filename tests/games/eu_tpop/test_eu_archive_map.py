"""Europa Universalis' map in the archive, read by a real browser: a phase page shows the
map (its SVG file) with the board in words, and headless Chromium draws the map itself."""
from __future__ import annotations

import struct

import pytest

from helpers_browser import chromium

from helpers_eu_game import started_eu_game
from pbem.storage import phase_orders
from pbem.web import archive

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    ctx = started_eu_game(tmp_path, phases=3)
    index = archive.build_archive(ctx, tmp_path / "site")
    snaps = phase_orders.history(ctx, "eu1")
    ctx.db.conn.close()
    return index, snaps


def test_a_phase_page_shows_the_map_and_the_board_in_words(tmp_path, site):
    index, snaps = site
    page = next((index.parent / "eu1").glob(f"{snaps[-1]['seq']}-*.html"))
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert "This game has no map" not in dom
    svg_file = next(h for h in dom.split('src="')[1:] if h.split('"')[0].endswith(".svg")).split('"')[0]
    assert "The map in words" in dom and "Western Sea (sea): Corvia fleet 2: 1 light, 1 heavy" in dom
    # zoomable: the map scrolls sideways at a legible size and opens on its own at full size
    assert 'class="scroll"' in dom and f'<a href="{svg_file}">Open the map on its own</a> to zoom in' in dom
    drawing = page.parent / svg_file
    assert drawing.read_text().startswith("<svg") and "Valmont army 4: 3 inf, 1 cav" in drawing.read_text()
    shot = tmp_path / "map.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,1000", "--hide-scrollbars", drawing.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (1280, 1000)
    assert len(data) > 30_000, f"a {len(data)}-byte screenshot is too small to hold the map"
