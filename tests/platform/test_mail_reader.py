"""`pbem mail` reads the local mailboxes of the embedded default as a person would, on
real mail the daemon delivered: a Pax Britannica turn report (multipart/alternative, its
HTML in a multipart/related part with the map inline, base64) and press written in
Cyrillic (its text part in base64)."""
from __future__ import annotations

import base64
import email
import re

import pytest
from helpers_loop import secret_in
from helpers_site import Site

from pbem.mail.reader import read, text_body

PRESS = ("Предлагаю союз против Германии: ваш флот в Северном море, мои армии на Рейне. "
         "Ответьте до конца хода, пожалуйста; о нашем договоре не должен знать никто. ") * 3


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("site"))
    gm_secret = re.search(r"GM secret .*: (\S+)", site.pbem("init")).group(1)
    players = ("Britain", "France", "Germany", "United States")
    seats = "".join(f"GM ADD PLAYER {p} {p.lower().replace(' ', '-')}@example.test\n" for p in players)
    site.send("gm@example.test", f"SIGNON GM@pax1 {gm_secret}\nGM CREATE pax1 RULES pax_britannica\n"
              f"{seats}GM START\n")
    site.pbem("serve", "--once")
    france = secret_in("\n".join(text_body(m)[0] for m in read(site.mailbox("france@example.test"))))
    site.send("france@example.test", f"SIGNON France@pax1 {france}\nPRESS TO Britain\n{PRESS}\nENDPRESS\n")
    site.pbem("game", "process", "pax1")
    site.pbem("serve", "--once")
    return site


def _raw(site: Site, address: str, subject: str) -> email.message.EmailMessage:
    """The one delivered mail whose subject says ``subject``, as stored."""
    found = [m for m in read(site.mailbox(address)) if subject in str(m["Subject"])]
    assert len(found) == 1, [str(m["Subject"]) for m in read(site.mailbox(address))]
    return found[0]


def _shown(output: str, subject: str) -> str:
    """The mail of ``pbem mail`` output whose subject says ``subject``."""
    mails = [m for m in re.split(r"^==== mail ", output, flags=re.M) if m]
    found = [m for m in mails if re.search(rf"^Subject: .*{re.escape(subject)}", m, re.M)]
    assert len(found) == 1, output[:2000]
    return found[0]


def test_a_turn_report_reads_as_its_text_with_the_map_listed(site):
    raw = _raw(site, "france@example.test", "turn report: 1880 Movement/Status Change")
    kinds = [part.get_content_type() for part in raw.walk()]
    assert kinds == ["multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
    assert raw.get_body(("plain",))["Content-Transfer-Encoding"] == "quoted-printable"
    out = site.pbem("mail", "france@example.test")
    shown = _shown(out, "France turn report: 1880 Movement/Status Change")
    head = shown.split("\n\n", 1)[0]
    assert re.search(r"^From: +pbem <pbem@localhost>$", head, re.M) and re.search(r"^To: +france@example.test$", head, re.M)
    assert re.search(r"^Date: +\w{3}, \d", head, re.M)
    text = raw.get_body(("plain",)).get_content()
    assert text.strip() in shown and "report for France" in shown
    assert b"=E2=80=94" in bytes(raw) and "=E2=80" not in shown and "\u2014" in shown  # quoted-printable decoded
    svg = raw.get_body(("html",)).get_payload()  # the related part: html, then the map
    assert "Attachments and images:" in shown
    size = len([p for p in raw.walk() if p.get_content_type() == "image/png"][0].get_payload(decode=True))
    assert f"map.png (image/png, {size / 1024:.1f} KB): an image the HTML part shows" in shown, svg
    assert "HTML part: " in shown and "1 image inside" in shown


def test_open_writes_the_html_part_with_its_map_inside_for_a_browser(site, tmp_path):
    mails = read(site.mailbox("france@example.test"))
    number = max(i for i, m in enumerate(mails, 1) if m.get_body(("html",)) is not None)
    raw, total = mails[number - 1], len(mails)  # the newest mail with an HTML part
    page_file = tmp_path / "report.html"
    out = site.pbem("mail", "france@example.test", "--last", str(total - number + 1), "--open", str(page_file))
    assert out.count("==== mail ") == total - number + 1
    assert f"the HTML part of mail {number} with its 1 image is in {page_file}: open {page_file.as_uri()}" in out
    page = page_file.read_text(encoding="utf-8")
    svg = [p for p in raw.walk() if p.get_content_type() == "image/png"][0]
    inline = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert inline and base64.b64decode(inline.group(1)) == svg.get_payload(decode=True)
    assert "cid:" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page  # no script, nothing fetched
    html = raw.get_body(("html",)).get_content()
    assert page.replace(inline.group(0), "").count("<table") == html.count("<table")


def test_press_in_base64_reads_decoded(site):
    raw = _raw(site, "britain@example.test", "press from France")
    assert raw.get_body(("plain",))["Content-Transfer-Encoding"] == "base64"
    assert PRESS.split(":")[0].encode("utf-8") not in bytes(raw)  # the stored mail holds it encoded
    shown = _shown(site.pbem("mail", "britain@example.test"), "press from France")
    assert PRESS.strip()[:120] in " ".join(shown.split())
    assert "Attachments and images:" not in shown and "HTML part" not in shown


def test_html_shows_the_html_part_as_text(site):
    out = site.pbem("mail", "france@example.test", "--html")
    shown = _shown(out, "France turn report: 1880 Movement/Status Change")
    assert "(the HTML part, read as text)" in shown
    assert "<table" not in shown and "Victory Points" in shown
    welcome = _shown(out, "you play France")  # a mail with no HTML part shows its text
    assert "(the HTML part" not in welcome and "Your secret is:" in welcome


def test_last_the_listing_and_unknown_mailboxes(site):
    total = len(read(site.mailbox("germany@example.test")))
    out = site.pbem("mail", "germany@example.test", "--last", "2")
    assert out.count("==== mail ") == 2
    assert f"==== mail {total - 1} of {total} " in out and f"==== mail {total} of {total} " in out
    listing = site.pbem("mail")
    for address in ("britain@example.test", "france@example.test", "gm@example.test"):
        count = len(read(site.mailbox(address)))
        assert re.search(rf"^  {re.escape(address)} +{count} mails  newest: \[pax1\]", listing, re.M), listing
    proc = site.run("mail", "nobody@example.test")
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "no mail for nobody@example.test in " in proc.stderr and "france@example.test" in proc.stderr
    assert site.run("mail", "../etc", "--last", "1").returncode == 1
    assert "--last 0: give 1 or more" in site.run("mail", "france@example.test", "--last", "0").stderr


def test_reading_a_mailbox_changes_nothing_in_it(site):
    box = site.mailbox("united-states@example.test")
    before = sorted(str(p.relative_to(box)) for p in box.rglob("*"))
    assert any(name.startswith("new/") for name in before)
    site.pbem("mail", box.name, "--open", str(site.folder / "page.html"))
    assert sorted(str(p.relative_to(box)) for p in box.rglob("*")) == before  # still new, nothing marked read
