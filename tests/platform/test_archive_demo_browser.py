"""The archive of a finished demo game of Pax Britannica, read by headless
Chromium: every link leads to a page, every phase page shows its map, the
game page its charts, axe-core finds no accessibility violation, and no
secret reaches a public page.  Screenshots are kept for people to look at
(``PBEM_ARTIFACTS`` names the folder; else a pytest temporary folder)."""
from __future__ import annotations

import contextlib
import html as htmllib
import io
import json
import os
import re
import sqlite3
import struct
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from pbem.host.demo import run_demo
from test_archive_browser import chromium, dump_dom
from test_archive_site import links

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "browser" / "node_modules" / "axe-core" / "axe.min.js"
RUNNER = ('<script src="{axe}"></script><script>axe.run(document, {{runOnly: ["wcag2a", "wcag2aa", '
          '"best-practice"]}}).then(r => {{ const p = document.createElement("pre"); p.id = "axe-result"; '
          'p.textContent = JSON.stringify(r.violations.map(v => ({{id: v.id, help: v.help, nodes: '
          'v.nodes.map(n => n.target.join(" ")).slice(0, 3)}}))); document.body.appendChild(p); }});</script>')


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    with contextlib.redirect_stdout(io.StringIO()):
        assert run_demo(folder, seed=3) == 0
    return folder


@pytest.fixture(scope="module")
def site(demo) -> Path:
    return demo / "archive"


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("PBEM_ARTIFACTS")
    if folder:
        path = Path(folder) / "browser"
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")


def test_the_game_is_over_and_its_site_was_built_by_the_daemon(demo, site):
    db = sqlite3.connect(demo / "var" / "pbem.sqlite")
    assert db.execute("select status from games where name = 'demo'").fetchone()[0] == "over"
    assert json.loads((site / ".built.json").read_text())["demo"][0] == "over"
    db.close()


def test_every_link_on_every_page_leads_to_a_page(site, tmp_path):
    # The archive is static (no script writes a link), so each page's links are read from its
    # file; the browser's DOM is checked to hold the same links on a page of each kind (a
    # Chromium start per page cost minutes and found nothing more).
    for page in [site / "index.html", site / "demo" / "index.html",
                 *sorted((site / "demo").glob("*-*.html"))[:2]]:
        assert sorted(links(dump_dom(tmp_path, page))) == sorted(links(page.read_text(encoding="utf-8"))), page
    seen: set[Path] = set()
    todo = [site / "index.html"]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        dom = page.read_text(encoding="utf-8") if page.suffix == ".html" else ""
        assert "<script" not in dom, f"{page.name} runs a script: its links must be read in the browser"
        for link in links(dom):
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{page.name} links out of the site: {link}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(site)}: {link} is missing (404)"
            if parts.fragment:
                assert f'id="{parts.fragment}"' in target.read_text(encoding="utf-8"), link
            if target.suffix in (".html", ".svg", ".css"):
                todo.append(target)
    phase_pages = [p for p in seen if re.match(r"\d+-", p.name) and p.suffix == ".html"]
    assert len(phase_pages) > 60 and sum(p.suffix == ".svg" for p in seen) == len(phase_pages)


def test_each_phase_page_shows_its_map_and_the_game_page_its_charts(site, tmp_path, shots):
    game = site / "demo" / "index.html"
    dom = dump_dom(tmp_path, game)
    assert dom.count('<figure class="chart">') == 3
    for title in ("Victory Points", "European Tensions and Chinese Resentment", "Treasury (£)"):
        assert f'-title">{htmllib.escape(title, quote=False)}</title>' in dom
    pages = sorted((site / "demo").glob("*-*.html"), key=lambda p: int(p.name.split("-")[0]))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        svg_name = page.with_suffix(".svg").name
        assert f'<img src="{svg_name}" alt="Map of the position after ' in text, page.name
        assert (page.parent / svg_name).read_text(encoding="utf-8").startswith("<svg")
    chromium(tmp_path, f"--screenshot={shots / 'game.png'}", "--window-size=1000,2400", game.as_uri())
    movement = next(p for p in pages if "movement" in p.name)
    chromium(tmp_path, f"--screenshot={shots / 'phase.png'}", "--window-size=1000,2400", movement.as_uri())
    chromium(tmp_path, f"--screenshot={shots / 'phone.png'}", "--window-size=390,844", movement.as_uri())
    for name in ("game.png", "phase.png", "phone.png"):
        data = (shots / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, name
    width, _ = struct.unpack(">II", (shots / "phone.png").read_bytes()[16:24])
    assert width == 390


def _axe(tmp_path: Path, page: Path) -> list[dict]:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run scripts/test (npm ci in tests/browser)")
    copy = page.with_name(f".axe-{page.name}")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", RUNNER.format(axe=AXE.as_uri()) + "</body>"),
                    encoding="utf-8")
    try:
        dom = chromium(tmp_path, "--allow-file-access-from-files", "--virtual-time-budget=30000",
                       "--dump-dom", copy.as_uri())
    finally:
        copy.unlink()
    found = re.search(r'<pre id="axe-result">(.*?)</pre>', dom, re.S)
    assert found, f"axe-core did not finish on {page.name}"
    return json.loads(htmllib.unescape(found.group(1)))


def test_no_accessibility_violations(site, tmp_path):
    pages = [site / "index.html", site / "demo" / "index.html"]
    phases = sorted((site / "demo").glob("*-*.html"), key=lambda p: int(p.name.split("-")[0]))
    pages += [phases[0], next(p for p in phases if "movement" in p.name), phases[-1]]
    for page in pages:
        assert _axe(tmp_path, page) == [], page.name


def test_no_secret_reaches_a_public_page(demo, site):
    db = sqlite3.connect(demo / "var" / "pbem.sqlite")
    addresses = [a for (row,) in db.execute("select addresses from players") for a in json.loads(row)]
    secrets = []
    for box in (demo / "var" / "mail" / "out").iterdir():
        for mail in [*box.glob("new/*"), *box.glob("cur/*")]:
            secrets += re.findall(r"Your secret is:\s+(\S+)", mail.read_text(errors="replace"))
    gm_hash = re.search(r'gm_secret_hash = "([^"]+)"', (demo / "pbem.toml").read_text()).group(1)
    assert addresses and secrets
    private = ("Income this turn", "Treasury £", "Your orders", "report for ")
    for path in [*site.rglob("*.html"), *site.rglob("*.svg")]:
        text = path.read_text(encoding="utf-8")
        for secret in [*addresses, *secrets, gm_hash]:
            assert secret not in text, f"{path.name} shows {secret}"
        for words in private:
            assert words not in text, f"{path.name} shows a power's own report ({words})"
        assert "@" not in re.sub(r"\[address withheld\]", "", text), path.name
    db.close()
