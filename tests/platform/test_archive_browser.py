"""The archive read by a real browser: headless Chromium opens the site from
file://, follows its links from the index to a phase, and draws a phase page."""
from __future__ import annotations

import struct
from pathlib import Path

import pytest

import helpers_browser
from helpers_browser import chromium

from pbem.storage import phase_orders
from pbem.web import archive
from test_archive_site import links, played_game

pytestmark = pytest.mark.browser


def dump_dom(tmp_path: Path, page: Path) -> str:
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert "<html" in dom, f"Chromium rendered nothing for {page}"
    return dom


@pytest.fixture
def site(tmp_path):
    ctx = played_game(tmp_path)
    index = archive.build_archive(ctx, tmp_path / "site")
    snaps = phase_orders.history(ctx, "g1")
    ctx.db.conn.close()
    return index, snaps


def test_browser_follows_index_to_game_to_phase(tmp_path, site):
    index, snaps = site
    dom = dump_dom(tmp_path, index)
    assert "<h1>Games</h1>" in dom and ">g1</a>" in dom and "Beacon (test game)" in dom

    game_page = (index.parent / next(h for h in links(dom) if h.endswith("/index.html"))).resolve()
    dom = dump_dom(tmp_path, game_page)
    assert "Turn by turn" in dom and "Public treaties" in dom and "GM log" in dom
    # The treaty's <script> reached the browser as text, not as an element.
    assert "&lt;script&gt;alert('beacon')&lt;/script&gt;" in dom and "<script" not in dom
    phase_links = [h for h in links(dom) if h[0].isdigit()]
    assert len(phase_links) == len(snaps)

    phase_page = (game_page.parent / phase_links[1]).resolve()
    dom = dump_dom(tmp_path, phase_page)
    assert f"<h1>{snaps[1]['label']} " in dom
    assert "Tie between North, South" in dom and "tie-break" in dom
    back = [h for h in links(dom) if h.endswith("index.html")]
    assert {(phase_page.parent / h).resolve() for h in back} == {game_page, index.resolve()}


def test_browser_draws_a_phase_page(tmp_path, site):
    index, snaps = site
    page = next((index.parent / "g1").glob(f"{snaps[1]['seq']}-*.html"))
    shot = tmp_path / "shot.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1024,768", "--hide-scrollbars", page.as_uri())
    assert shot.is_file(), "Chromium wrote no screenshot"
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1024, 768)
    assert len(data) > 8_000, f"a {len(data)}-byte screenshot is too small to hold the page"


def test_a_missing_browser_fails_loudly(tmp_path, monkeypatch):
    monkeypatch.setattr(helpers_browser, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        chromium(tmp_path, "--version")
