"""The archive's turns, charts, players, public press, permissions, refresh
and templates, from real games of Beacon in a real SQLite database."""
from __future__ import annotations

import stat

import jinja2
import pytest

from pbem.base import config, deadlines
from pbem.kit import audience
from pbem.play import turns
from pbem.storage import db, phase_orders, store
from pbem.web import archive, archive_pages
from test_archive_site import PRESS_TEXT, bid, new_context, new_game, pages, play_to_end, played_game


@pytest.fixture
def ctx(tmp_path):
    c = played_game(tmp_path)
    yield c
    c.db.conn.close()


def test_phases_are_grouped_by_turn_and_empty_ones_have_no_page(ctx, tmp_path):
    last = phase_orders.history(ctx, "g1")[-1]
    ctx.db["snapshots"].insert({**{k: last[k] for k in ("game", "before", "after", "created")},
                                "seq": 50, "phase_key": "3/lull", "label": "Round 3 Lull", "rolled_back": 0,
                                "orders": "{}", "events": "[]", "dice": "[]"})
    site = tmp_path / "site"
    archive.build_archive(ctx, site)
    game_html = (site / "g1" / "index.html").read_text()
    for n in (1, 2, 3):
        assert f'<div class="turn" id="turn-{n}">' in game_html and f"<h3>Turn {n}</h3>" in game_html
    assert "Nothing happened in: Round 3 Lull." in game_html
    assert not list((site / "g1").glob("50-*")) and "50-round-3-lull" not in game_html
    # the last page with something in it ends the chain
    last_page = next((site / "g1").glob(f"{last['seq']}-*.html")).read_text()
    assert "latest phase" in last_page and 'rel="next"' not in last_page


def test_empty_means_no_event_no_die_and_no_order():
    snap = {"dice": "[]", "orders": "{}"}
    assert archive_pages.is_empty(snap, [])
    assert not archive_pages.is_empty(snap, [{"kind": "storm"}])
    assert not archive_pages.is_empty({**snap, "dice": '[["x", 6, 2]]'}, [])
    assert not archive_pages.is_empty({**snap, "orders": '{"North": [{"kind": "bid"}]}'}, [])


def test_the_game_page_charts_the_figures_and_the_gold_only_after_the_end(tmp_path):
    ctx = new_context(tmp_path)
    new_game(ctx)
    bid(ctx, "g1", "North", 3)
    bid(ctx, "g1", "South", 1)
    turns.run_phase(ctx, "g1")
    turns.run_phase(ctx, "g1")
    archive.build_archive(ctx, tmp_path / "during")
    during = (tmp_path / "during" / "g1" / "index.html").read_text()
    assert '<title id="chart-1-title">Score</title>' in during and "Gold" not in during
    assert "<caption>Score, at the end of each turn</caption>" in during
    assert '<tr><th scope="row">1</th><td class="num">1</td><td class="num">0</td></tr>' in during
    play_to_end(ctx)
    archive.build_archive(ctx, tmp_path / "after")
    after = (tmp_path / "after" / "g1" / "index.html").read_text()
    assert '<title id="chart-2-title">Gold</title>' in after
    ctx.db.conn.close()


def test_players_and_replacements_without_addresses(ctx, tmp_path):
    store.gm_log(ctx, "g1", "GM", "replace", "South: a new player", seen_by=audience.public())
    archive.build_archive(ctx, tmp_path / "site")
    game_html = (tmp_path / "site" / "g1" / "index.html").read_text()
    assert "<td>North</td>" in game_html and "<td>none</td>" in game_html
    assert "a new player from" in game_html
    row = game_html[game_html.index("<td>South</td>"):]
    assert row.index("a new player from") < row.index("</tr>")
    assert "new.south" not in game_html


def test_press_to_every_power_is_shown_and_private_press_never(tmp_path):
    ctx = new_context(tmp_path)
    new_game(ctx)
    store.add_player(ctx, "g1", "East", ["east@example.test"], "x")
    phase_key = phase_orders.history(ctx, "g1")[0]["phase_key"] if phase_orders.history(ctx, "g1") else "1/orders"
    for sender, to, grey, body in (("North", ["South", "East"], 0, "Open letter from the North"),
                                   ("South", ["North", "East"], 1, "A grey word to all"),
                                   ("North", ["South"], 0, PRESS_TEXT)):
        seen_by = audience.public() if len(to) == 2 else audience.powers(sender, to)
        ctx.db["press"].insert({"game": "g1", "phase_key": phase_key, "sender": sender,
                                "recipients": db.dumps(to), "grey": grey, "body": body,
                                "sent": "2026-01-05T12:00:00+00:00", "message": None,
                                "audience": db.dumps(seen_by.to_json())})
    bid(ctx, "g1", "North", 1)
    bid(ctx, "g1", "South", 2)
    turns.run_phase(ctx, "g1")
    archive.build_archive(ctx, tmp_path / "site")
    html = "\n".join(pages(tmp_path / "site").values())
    assert "Open letter from the North" in html and "From North, 2026-01-05 12:00:00 UTC" in html
    assert "A grey word to all" in html and "From a power (grey press)</p>" in html  # and no time
    assert "From South" not in html and PRESS_TEXT not in html
    ctx.db.conn.close()


def test_site_files_are_world_readable(ctx, tmp_path):
    site = tmp_path / "site"
    archive.build_archive(ctx, site)
    for path in [site, *site.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o755 if path.is_dir() else 0o644), f"{path} is {oct(mode)}"


def test_refresh_rebuilds_only_what_changed(ctx, tmp_path):
    ctx.archive_dir = str(tmp_path / "site")
    assert archive.refresh(ctx) is True
    index = tmp_path / "site" / "g1" / "index.html"
    first = index.stat().st_mtime_ns
    assert archive.refresh(ctx) is False and index.stat().st_mtime_ns == first
    store.gm_log(ctx, "g1", "GM", "announce", "hello everyone", seen_by=audience.public())
    assert archive.refresh(ctx) is True
    assert "hello everyone" in index.read_text()


def test_a_rolled_back_phase_loses_its_page_and_map(ctx, tmp_path):
    site = tmp_path / "site"
    archive.build_archive(ctx, site)
    assert len(list((site / "g1").glob("*.svg"))) == 6
    turns.rollback(ctx, "g1", "3/orders")
    archive.build_archive(ctx, site)
    assert len(list((site / "g1").glob("*.svg"))) == 4


@pytest.mark.parametrize("template", ["index.html.j2", "game.html.j2", "phase.html.j2"])
def test_templates_refuse_an_unknown_value(template):
    with pytest.raises(jinja2.UndefinedError):
        archive.render(template, root="", site="s", built="")


def test_every_phase_kind_renders_with_strict_undefined(tmp_path):
    """Beacon's phases (orders, tally and the claim window) and a game that is
    over: each page renders from the real data with StrictUndefined (a missing
    value raises)."""
    ctx = new_context(tmp_path)
    policy = deadlines.DeadlinePolicy.from_settings(dict(config.load_config(None).deadlines))
    store.create_game(ctx, "g1", "beacon", {"claims": "on"}, policy, "gm@example.test")
    for power in ("North", "South"):
        store.add_player(ctx, "g1", power, [f"{power.lower()}@example.test"], "x")
    turns.start_game(ctx, "g1")
    bid(ctx, "g1", "North", 3)
    bid(ctx, "g1", "South", 1)
    play_to_end(ctx)
    rec = store.get_game(ctx, "g1")
    page = archive.game_page(ctx, rec)
    kinds = {p["key"].split("/")[1] for p in page["phases"]}
    assert {"orders", "tally", "claim"} <= kinds
    for phase in page["phases"]:
        html = archive.render("phase.html.j2", root="../", g=page, p=phase, site="s", built="")
        assert f"<h1>{phase['label']} " in html
    assert "Turn by turn" in archive.render("game.html.j2", root="../", g=page, site="s", built="")
    # A game whose rules chart nothing says so once phases are resolved, rather than "not yet".
    silent = archive.render("game.html.j2", root="../", g={**page, "charts": []}, site="s", built="")
    assert f"{page['title']} charts no figures over the game." in silent and "No charts yet" not in silent
    ctx.db.conn.close()


def test_the_daemon_rebuilds_the_archive_after_a_phase(tmp_path):
    """A Beacon game by mail, then one pass of the daemon: the phase it
    resolves is on the public site with its map, with no build command."""
    import asyncio

    from helpers_loop import Loop
    from pbem.host.daemon import Daemon
    from pbem.mail.maildir_source import MaildirSource

    site = tmp_path / "public"
    loop = Loop(tmp_path, archive_dir=str(site))
    secrets = loop.start_beacon()
    for power in ("North", "South"):
        loop.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {secrets[power]}\nORDERS\nBID 1\n")
    daemon = Daemon(loop.ctx, MaildirSource(tmp_path / "inbox"), loop.sender)
    result = asyncio.run(daemon.run_pass())
    assert result.resolved
    game_html = (site / "g1" / "index.html").read_text()
    assert "Round 1 Orders" in game_html
    assert len(list((site / "g1").glob("*-round-1-orders.svg"))) == 1
    loop.db.conn.close()
