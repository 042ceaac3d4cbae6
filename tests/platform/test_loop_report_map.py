"""Every report composed for a reader carries the map and the archive link: the
turn report, a report sent again (RESEND), the position mailed after a GM
rollback and the handover dossier (reports.compose makes them all).  The map is
a PNG every mail client shows unless the player chose otherwise (SET MAP)."""
import io

import pytest
from PIL import Image

from pax_table import PaxTable
from pbem.base.sitepaths import game_url

BASE = "https://pbem.example.org/games"


@pytest.fixture
def pax(tmp_path, monkeypatch):
    table = PaxTable(tmp_path, monkeypatch)
    table.ctx.base_url = BASE
    return table


def the_map(msg, kind: str = "image/png") -> tuple[str, bytes]:
    """The inline map of a mail: its Content-ID (as the HTML names it) and bytes."""
    images = [p for p in msg.walk() if p.get_content_maintype() == "image"]
    assert [p.get_content_type() for p in images] == [kind], [p.get_content_type() for p in msg.walk()]
    assert images[0].get_content_disposition() == "inline"
    return images[0]["Content-ID"].strip("<>"), images[0].get_content()


def check(pax, msg, power: str) -> None:
    cid, png = the_map(msg)
    html, text = pax.html(msg), pax.text(msg)
    assert f'src="cid:{cid}"' in html and "Map of Pax Britannica at " in html
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == 1280 and 600 < image.size[1] < 800
    assert len(png) < 120_000  # a mailbox is not a map archive
    link = game_url(BASE, "pax")
    assert link in text and f'href="{link}"' in html


def test_turn_report_resend_rollback_and_dossier_carry_the_map_and_the_archive_link(pax):
    pax.all_order()
    check(pax, pax.mails("France", "turn report")[-1], "France")
    check(pax, pax.mails("gm@example.test", "GM report")[-1], "Pax Britannica")

    pax.say("France", "RESEND 1880 Movement/Status Change")
    check(pax, pax.mails("France", "report again")[-1], "France")

    pax.gm("GM ROLLBACK 1880 Movement/Status Change")
    check(pax, pax.mails("Germany")[-1], "Germany")

    pax.gm("GM REPLACE France newfrance@example.test")
    dossier = pax.mails("newfrance@example.test", "handover dossier")[-1]
    check(pax, dossier, "France")
    past = pax.text(dossier).split("Past reports\n------------")[1]
    assert f"in the archive: {game_url(BASE, 'pax')}" in past


def test_without_a_base_url_no_link_but_still_the_map(tmp_path, monkeypatch):
    pax = PaxTable(tmp_path, monkeypatch)
    pax.all_order()
    msg = pax.mails("France", "turn report")[-1]
    the_map(msg)
    assert "Every turn of this game" not in pax.text(msg) and "/index.html" not in pax.html(msg)


def test_each_player_chooses_how_the_map_comes(pax):
    reply = pax.say("France", "SET MAP SVG")
    assert "Map set:" in reply and "your own SVG drawing" in reply
    assert "your reports show the map as a link" in pax.say("Germany", "SET MAP link")
    assert "not at all" in pax.say("Britain", "SET MAP NONE")
    assert "[bad-map-choice]" in pax.say("United-States", "SET MAP JPEG")
    pax.all_order()
    _, svg = the_map(pax.mails("France", "turn report")[-1], "image/svg+xml")
    assert b"<svg" in svg and b"the map for France" in svg  # France's own map, its places ringed
    for power in ("Germany", "Britain"):
        msg = pax.mails(power, "turn report")[-1]
        assert not [p for p in msg.walk() if p.get_content_maintype() == "image"]
    assert "Map of Pax Britannica" in pax.html(pax.mails("Germany", "turn report")[-1])
    assert "Map of Pax Britannica" not in pax.html(pax.mails("Britain", "turn report")[-1])
    check(pax, pax.mails("United-States", "turn report")[-1], "United States")
