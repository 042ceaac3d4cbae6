"""The archive site built from a real game of Beacon in a real SQLite database."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from pbem.base import clock, config, context, deadlines, identity, registry
from pbem.kit import audience
from pbem.play import turns
from pbem.storage import db, phase_orders, store
from pbem.web import archive
from pbem.kit.dice import commitment
from pbem.kit.gameapi import Order, TreatyAction

EMAIL = re.compile(r"[\w.+=-]+@[\w-]+(?:\.[\w-]+)+")
ADDRESSES = {"North": "north.player@example.test", "South": "south+pbem@example.test"}
SECRET_TEXT = "Secret pact: South cedes the lighthouse"
PRESS_TEXT = "Whisper: North is bluffing"


def new_context(path: Path) -> context.Context:
    registry.load_extra("tests.beacon:GAME")
    return context.Context(db=db.open_db(path / "db.sqlite"), clock=clock.FakeClock())


def new_game(ctx: context.Context, name: str = "g1") -> None:
    policy = deadlines.DeadlinePolicy.from_settings(dict(config.load_config(None).deadlines))
    store.create_game(ctx, name, "beacon", {}, policy, "gm@example.test")
    for power, address in ADDRESSES.items():
        store.add_player(ctx, name, power, [address], identity.hash_secret("x"))
    turns.start_game(ctx, name)


def bid(ctx: context.Context, name: str, power: str, amount: int) -> None:
    key = store.get_game(ctx, name).row["phase_key"]
    phase_orders.store_orders(ctx, name, key, power, [Order(power, "bid", {"amount": amount}, f"BID {amount}")],
                       f"BID {amount}", None)


def play_to_end(ctx: context.Context, name: str = "g1") -> None:
    while store.get_game(ctx, name).status != "over":
        turns.run_phase(ctx, name)


def add_treaty(ctx: context.Context, treaty_id: str, text: str, secret: bool) -> None:
    """A treaty North proposes and South signs, through the game as by mail."""
    turns.apply_input(ctx, "g1", TreatyAction("propose", "North", treaty_id, "2026-01-05T12:00:00+00:00",
                                              ("South",), text, secret))
    turns.apply_input(ctx, "g1", TreatyAction("sign", "South", treaty_id, "2026-01-06T09:30:00+00:00"))


def played_game(path: Path) -> context.Context:
    """g1 played to the end (round 1 a tied bid, so one die is rolled), with
    a public and a secret treaty, private press, a public GM-log entry and one
    the GM's alone."""
    ctx = new_context(path)
    new_game(ctx)
    bid(ctx, "g1", "North", 2)
    bid(ctx, "g1", "South", 2)
    turns.run_phase(ctx, "g1")
    play_to_end(ctx)
    add_treaty(ctx, "T1", "North and South share the <script>alert('beacon')</script> light.", secret=False)
    add_treaty(ctx, "S9", SECRET_TEXT, secret=True)
    ctx.db["press"].insert({"game": "g1", "phase_key": "1/orders", "sender": "North",
                            "recipients": db.dumps(["South"]), "grey": 0, "body": PRESS_TEXT,
                            "sent": "2026-01-05T12:00:00+00:00", "message": None,
                            "audience": db.dumps(audience.powers("North", "South").to_json())})
    store.gm_log(ctx, "g1", "GM", "add player", "East", seen_by=audience.public())
    store.gm_log(ctx, "g1", "GM", "treaty record", "SET TREATY S9 IN_FORCE North South SECRET",
                 seen_by=audience.gm())
    return ctx


@pytest.fixture
def ctx(tmp_path):
    c = played_game(tmp_path)
    yield c
    c.db.conn.close()


@pytest.fixture
def site(ctx, tmp_path) -> Path:
    index = archive.build_archive(ctx, tmp_path / "site")
    assert index == tmp_path / "site" / "index.html"
    return index.parent


def pages(root: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.html"))}


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in ("href", "src") and value:
                self.links.append(value)


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.links


def test_index_lists_every_game_with_powers_and_no_addresses(ctx, site):
    policy = deadlines.DeadlinePolicy.from_settings({})
    store.create_game(ctx, "Spring cup", "beacon", {}, policy, "gm@example.test")
    store.add_player(ctx, "Spring cup", "East", ["east@example.test"], identity.hash_secret("y"))
    index = archive.build_archive(ctx, site)
    html = index.read_text()
    assert "g1" in html and "Beacon (test game)" in html and "over" in html
    assert "Spring cup" in html and "not started" in html and "East" in html
    assert "North, South" in html
    folder = archive.game_dir("Spring cup")
    assert folder != "Spring cup" and (site / folder / "index.html").is_file()
    assert f'href="{folder}/index.html"' in html


def test_every_resolved_phase_has_a_page_in_order(ctx, site):
    history = phase_orders.history(ctx, "g1")
    assert len(history) == 6
    game_html = (site / "g1" / "index.html").read_text()
    hrefs = [h for h in links(game_html) if re.match(r"\d+-", h)]
    assert len(hrefs) == len(history)
    for snap, href in zip(history, hrefs):
        assert href.startswith(f"{snap['seq']}-")
        page = (site / "g1" / href).read_text()
        assert f"<h1>{snap['label']} " in page


def test_every_link_resolves_to_a_file(site):
    checked = 0
    for path, html in pages(site).items():
        for link in links(html):
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{path.name} links outside the site: {link}"
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path.resolve()
            assert target.is_file(), f"{path.relative_to(site)} links to missing {link}"
            assert site.resolve() in target.parents
            if parts.fragment:
                assert f'id="{parts.fragment}"' in target.read_text(), f"{path.name}: no #{parts.fragment}"
            checked += 1
    assert checked > 20


def test_no_email_address_anywhere(ctx, site):
    assert ctx.db.execute("select count(*) from players where addresses like '%@%'").fetchone()[0] == 2
    for path in [*site.rglob("*.html"), site / "style.css"]:
        found = EMAIL.findall(path.read_text())
        assert not found, f"{path.name} shows {found}"
    game_html = (site / "g1" / "index.html").read_text()
    assert "&lt;gm" not in game_html and "GM &lt;" not in game_html
    assert re.search(r"<td>GM</td><td>add player</td><td>East</td>", game_html)


def test_public_treaty_shown_secret_treaty_and_press_never(site):
    game_html = (site / "g1" / "index.html").read_text()
    assert "Treaty T1" in game_html and "in force" in game_html
    assert "North, South" in game_html and "South (2026-01-06 09:30:00 UTC)" in game_html
    for path, html in pages(site).items():
        assert SECRET_TEXT not in html and "S9" not in html, path.name
        assert PRESS_TEXT not in html, path.name


def test_treaty_text_is_escaped(site):
    game_html = (site / "g1" / "index.html").read_text()
    assert "&lt;script&gt;alert(&#39;beacon&#39;)&lt;/script&gt;" in game_html
    for path, html in pages(site).items():
        assert "<script" not in html, path.name


def test_seed_is_published_only_once_revealed(tmp_path):
    ctx = new_context(tmp_path)
    new_game(ctx)
    turns.run_phase(ctx, "g1")
    row = store.get_game(ctx, "g1").row
    seed, seed_hash = row["seed"], row["seed_hash"]
    assert seed_hash == commitment(seed)
    root = tmp_path / "during"
    archive.build_archive(ctx, root)
    assert all(seed not in html for html in pages(root).values())
    game_html = (root / "g1" / "index.html").read_text()
    assert seed_hash in game_html and "pbem verify" not in game_html

    play_to_end(ctx)
    root = tmp_path / "after"
    archive.build_archive(ctx, root)
    game_html = (root / "g1" / "index.html").read_text()
    assert seed in game_html and seed_hash in game_html
    assert "<code>pbem verify g1</code>" in game_html
    ctx.db.conn.close()


def test_phase_page_shows_public_report_dice_events_map_and_neighbours(ctx, site):
    history = phase_orders.history(ctx, "g1")
    tally = history[1]
    page = next((site / "g1").glob(f"{tally['seq']}-*.html")).read_text()
    game = store.get_game(ctx, "g1").rules
    report = game.report(db.loads(tally["after"]), db.loads(tally["events"]), None).text
    assert "Tie between North, South" in report
    for line in report.splitlines():  # the public report, line by line, as paragraphs
        assert f"<p>{line}</p>".replace("'", "&#39;") in page
    assert "<pre" not in page
    assert "Your gold" not in page  # a power's own report is never shown
    die = db.loads(tally["dice"])
    assert len(die) == 1 and die[0][0] == "tie-break"
    assert re.search(rf"<td>tie-break</td><td>d6</td><td class=\"num\">{die[0][2]}</td>", page)
    assert '<td class="kind">tie_break</td>' in page and '<td class="kind">round</td>' in page
    assert '<span class="key">powers</span> North, South</span>' in page  # a list reads as a list
    assert "phase 2 of 6" in page
    assert f'rel="prev" href="{history[0]["seq"]}-round-1-orders.html"' in page
    assert f'rel="next" href="{history[2]["seq"]}-round-2-orders.html"' in page
    assert '<th scope="row">round</th><td>2</td>' in page  # the public view at a glance
    svg_name = f"{tally['seq']}-round-1-tally.svg"
    assert f'<img src="{svg_name}" alt="Map of the position after Round 1 Tally;' in page
    assert "Beacons after round 2" in (site / "g1" / svg_name).read_text()
    for line in game.map_text(db.loads(tally["after"]), None):  # the map in words
        assert f"<li>{line}</li>" in page
    assert "beacons</li>" in page
    first = next((site / "g1").glob(f"{history[0]['seq']}-*.html")).read_text()
    assert 'rel="prev"' not in first and "No dice were rolled in this phase." in first


def test_final_results_and_gm_log_on_the_game_page(ctx, site):
    game_html = (site / "g1" / "index.html").read_text()
    results = store.get_game(ctx, "g1").rules.results(store.get_game(ctx, "g1").state)
    assert "Final results" in game_html
    winner = results[0]
    assert f"<tr><td>1</td><td>{winner['power']}</td><td>{winner['score']}</td></tr>" in game_html
    assert "Round 1 Orders resolved (deadline)" in game_html
    assert "treaty record" not in game_html  # the one logged was for the secret treaty


def test_rebuild_drops_pages_of_rolled_back_phases(ctx, site):
    before = sorted(p.name for p in (site / "g1").glob("*-*.html"))
    assert len(before) == 6
    turns.rollback(ctx, "g1", "3/orders")
    archive.build_archive(ctx, site)
    after = sorted(p.name for p in (site / "g1").glob("*-*.html"))
    assert after == before[:4]
    game_html = (site / "g1" / "index.html").read_text()
    assert "<dt>Current phase</dt><dd>Round 3 Orders</dd>" in game_html
    assert "Final results" not in game_html


def test_a_broken_game_is_reported_and_the_others_still_written(ctx, tmp_path):
    new_game(ctx, "g2")
    ctx.db["snapshots"].insert({"game": "g2", "seq": 1, "phase_key": "1/orders", "label": "Round 1 Orders",
                                "before": "{}", "orders": "{}", "after": "{not json", "events": "[]",
                                "dice": "[]", "created": "2026-01-05T12:00:00+00:00", "rolled_back": 0})
    root = tmp_path / "partial"
    with pytest.raises(archive.ArchiveError, match=r"without: g2 \(JSONDecodeError"):
        archive.build_archive(ctx, root)
    html = (root / "index.html").read_text()
    assert 'href="g1/index.html"' in html and 'href="g2/' not in html
    assert "g2 <em" in html and "(pages not available)" in html
    assert len(list((root / "g1").glob("*-*.html"))) == 6


def test_only_events_the_public_may_see_reach_the_phase_page(ctx, tmp_path):
    last = phase_orders.history(ctx, "g1")[-1]
    events = [{"kind": "spy_report", "audience": {"powers": ["North"]}, "power": "North",
               "note": "lighthouse keeper bribed"},
              {"kind": "pact_kept", "audience": {"treaty": "S9", "parties": ["North", "South"]}, "note": "S9 holds"},
              {"kind": "rumour", "note": "no audience: the GM's alone"},
              {"kind": "storm", "area": "Channel", "audience": "public"}]
    ctx.db["snapshots"].insert({**{k: last[k] for k in ("game", "before", "orders", "after", "created")},
                                "seq": 99, "phase_key": "4/storm", "label": "Storm", "rolled_back": 0,
                                "events": db.dumps(events), "dice": "[]"})
    archive.build_archive(ctx, tmp_path / "site")
    page = (tmp_path / "site" / "g1" / "99-storm.html").read_text()
    assert '<td class="kind">storm</td>' in page and "Channel" in page
    assert "spy_report" not in page and "bribed" not in page
    assert "pact_kept" not in page and "rumour" not in page
    # once the secret treaty is revealed, what it did is public
    turns.apply_input(ctx, "g1", TreatyAction("reveal", "South", "S9", "2026-01-07T09:00:00+00:00"))
    archive.build_archive(ctx, tmp_path / "site")
    page = (tmp_path / "site" / "g1" / "99-storm.html").read_text()
    assert "pact_kept" in page and "S9 holds" in page and "rumour" not in page
