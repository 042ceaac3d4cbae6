"""Replies as mail programs write them: a player's own lines, then (or, bottom-posted,
after) the earlier mail quoted the way Gmail, Apple Mail, Outlook, Thunderbird, Yahoo,
phones and the localised clients quote it.

Shared by the property test (tests/platform/test_written_lines.py) and the long fuzz
run (bench/fuzz.py): whatever the shape, what is left once the quote is removed is
exactly the player's own lines.
"""
from __future__ import annotations

from hypothesis import strategies as st

NAMES = ("Erin Player", "Jean-Luc Dupont", "Zoë Ó Briain", "李雷", "Ana María")
ADDRESS = "erin@players.test"

# The lines players write: commands, orders of both games, greetings and sign-offs; a
# GM line with a time and a numbered order (both look a little like an attribution's start).
OWN_LINES = (
    "SIGNON France@pax s3cret-word", "ORDERS", "ENDORDERS", "END", "DONE", "BUY INFLUENCE Tunis",
    "BUILD ARMY 3", "BUILD ARMY 1", "MOVE ARMY 3 Algiers TO Tunis", "FOR Austria-Hungary", "VOTE 2 YES",
    "PRESS TO Germany", "Shall we divide Africa?", "ENDPRESS", "DECLARE WAR ON Tarvo",
    "ACTIVATE Paris WITH 2 INF TO Lyon", "RECRUIT 2 INF IN Paris", "PASS", "HELP BUY",
    "GM SET DEADLINE 2026-01-10 18:00", "GM EXTEND 24h", "1. BUILD ARMY 3", "Hi all,", "Thanks,", "Bob",
    "Here are my orders:", "On reflection I keep the fleet at home.",
)

EN_DATES = ("Dec 8, 2013 2:10 PM", "Mon, Dec 8, 2013 at 2:10 PM", "8 Dec 2013, at 14:10", "12/8/2013 2:10 PM",
            "Wednesday, April 4, 2012 10:00 AM", "2013-12-08 14:10", "Monday, 8 December 2013")
# (attribution template, the dates its clients write); {date} {name} {addr} are filled in.
ATTRIBUTIONS = (
    ("On {date}, {name} <{addr}> wrote:", EN_DATES),
    ('On {date}, "{name}" <{addr}> wrote:', EN_DATES),
    ("On {date}, at 19:21, {name} <{addr}> wrote:", ("22 Aug 2015", "8 Dec 2013")),
    ("On {date}, {name} wrote:", ("12/8/2013 2:10 PM", "08.12.2013 14:10", "2013-12-08 14:10")),
    ("Am {date} schrieb {name} <{addr}>:", ("Mo., 8. Dez. 2013 um 14:10 Uhr", "08.12.2013 um 14:10")),
    ("Le {date}, {name} <{addr}> a écrit :", ("lun. 8 déc. 2013 à 14:10", "08/12/2013 à 14:10")),
    ("El {date}, {name} (<{addr}>) escribió:", ("lun., 8 dic. 2013 a las 14:10",)),
    ("Il giorno {date} {name} <{addr}> ha scritto:", ("lun 8 dic 2013 alle ore 14:10",)),
    ("Op {date} schreef {name} <{addr}>:", ("ma 8 dec. 2013 om 14:10",)),
    ("W dniu {date} {name} <{addr}> napisał(a):", ("pon., 8.12.2013 o 14:10",)),
    ("Den {date} skrev {name} <{addr}>:", ("mån 8 dec. 2013 kl 14:10",)),
    ("Em {date}, {name} <{addr}> escreveu:", ("seg., 8 de dez. de 2013 às 14:10",)),
    ("{date}, {name} <{addr}>:", ("пн, 8 дек. 2013 г. в 14:10", "08.12.2013, 14:10")),
    ("{date}, {name} <{addr}> написал(а):", ("8 дек. 2013 г., в 14:10",)),
    ("Dne {date} {name} <{addr}> napsal(a):", ("po 8. 12. 2013 v 14:10",)),
    ("{name} <{addr}>, {date} tarihinde şunu yazdı:", ("8 Ara 2013 Pzt, 14:10",)),
    ("{date} {name} <{addr}>:", ("2013年12月8日(月) 14:10",)),
    ("{name} <{addr}> 于{date}写道：", ("2013年12月8日周一 下午2:10",)),
)

# The earlier mail: a pbem acknowledgement and report lines, orders among them, and a line
# longer than any order.
EARLIER = ("Game pax, France.", "Orders stored for 1880 Movement/Status Change:", "  BUILD ARMY 10",
           "ORDERS", "BUY INFLUENCE Egypt", "ENDORDERS", "Deadline: Thu 8 Jan 2026 12:00 UTC",
           "What you may do now", "  SIGNON France@pax <your secret>", "",
           "quoted text that goes on " * 30)

HEADER_BLOCKS = (
    ("From: {name} <{addr}>", "Sent: Monday, December 8, 2013 2:10 PM", "To: pbem <pbem@example.test>",
     "Subject: RE: [pax] France: orders"),
    ("Von: {name} <{addr}>", "Gesendet: Montag, 8. Dezember 2013 14:10", "An: pbem@example.test",
     "Betreff: AW: [pax] France"),
    ("De : {name} <{addr}>", "Envoyé : lundi 8 décembre 2013 14:10", "À : pbem@example.test",
     "Objet : RE: [pax] France"),
    ("*From:* {name} <{addr}>", "*Sent:* Monday, December 8, 2013 2:10 PM", "*To:* pbem@example.test",
     "*Subject:* RE: [pax] France"),
    ("Date: Mon, 8 Dec 2013 14:10:00 +0000", "From: {name} <{addr}>", "To: pbem@example.test",
     "Subject: RE: [pax] France"),
)


def _quoted(lines, prefix: str) -> list[str]:
    return [(prefix + line).rstrip() if line else prefix.rstrip() for line in lines]


def _wrapped(header: str, width: int) -> list[str]:
    """The attribution wrapped the way Gmail and Thunderbird wrap it: at the last space
    before the client's line width, when it is longer."""
    if len(header) <= width:
        return [header]
    cut = header.rfind(" ", 0, width)
    return [header] if cut <= 0 else [header[:cut], header[cut + 1:]]


@st.composite
def quote_shapes(draw) -> list[str]:
    """The lines a mail program puts below (or above) the player's own."""
    name = draw(st.sampled_from(NAMES))
    template, dates = draw(st.sampled_from(ATTRIBUTIONS))
    date = draw(st.sampled_from(dates))
    earlier = list(EARLIER[:draw(st.integers(3, len(EARLIER)))])
    prefix = draw(st.sampled_from(["> ", ">", ">> ", "A>>>>> ", "EP> "]))
    kind = draw(st.sampled_from(["attribution", "wrapped", "quoted-attribution", "header-block",
                                 "original-message", "yahoo", "separator-block"]))
    fill = dict(name=name, addr=ADDRESS, date=date)
    if kind in ("attribution", "wrapped", "quoted-attribution"):
        header = template.format(**fill)
        head = _wrapped(header, draw(st.integers(56, 78))) if kind == "wrapped" else [header]
        if kind == "wrapped" and draw(st.booleans()):
            # Thunderbird's three-line form.
            head = [f"On {date},", name, "wrote:"]
        if kind == "quoted-attribution":
            return _quoted(head + [""] + earlier, "> ")
        return head + [""] * draw(st.integers(0, 1)) + _quoted(earlier, prefix)
    block = [line.format(**fill) for line in draw(st.sampled_from(HEADER_BLOCKS))]
    if kind == "original-message":
        return ["-----Original Message-----", *block, "", *earlier]
    if kind == "yahoo":
        return [f"--- On Wed, 4/4/12, {name} <{ADDRESS}> wrote:", "", *block, "", *earlier]
    if kind == "separator-block":
        return ["_" * 32, *block, "", *earlier]
    return [*block, "", *earlier]


@st.composite
def replies(draw) -> tuple[str, list[str]]:
    """(a reply's body, the player's own lines in it)."""
    own = draw(st.lists(st.sampled_from(OWN_LINES), min_size=1, max_size=8))
    quote = draw(quote_shapes())
    gap = [""] * draw(st.integers(0, 2))
    signature = draw(st.sampled_from([[], ["Sent from my iPhone"], ["-- ", "Bob Player", "Paris"],
                                      ["Get Outlook for Android"]]))
    bottom_posted = draw(st.booleans()) and quote[0].startswith(">")
    if bottom_posted:
        lines = quote + [""] + own + gap + signature
    else:
        lines = own + signature + gap + quote
    return "\n".join(lines) + "\n", own
