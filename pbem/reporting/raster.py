"""A game's map as a PNG, for the mail clients that show no SVG (Gmail and Outlook among them).

The map a game draws is SVG (:meth:`pbem.kit.gameapi.Game.map_svg`); a mail's inline PNG is
that drawing rasterised by resvg (a small renderer with wheels for every platform and no
system library) at :data:`WIDTH` pixels, then reduced to at most :data:`COLOURS` colours to
stay small in a mailbox.  Text is set in the fonts the system has; the maps name DejaVu Sans
first.

Choice: shapes are drawn with crisp edges and text smoothed.  The maps are flat colours, lines
and small tags: smoothing the shapes' edges made a quarter of the PNG's bytes and two thirds
of resvg's time (a map of 1280 pixels: 76 KB and about 1 s before, 57 KB and 0.3 s after),
while smoothed text is what keeps the tags legible.  128 colours keep every flat colour of
the maps apart (the quantiser merged pale tag colours of different powers below that).
zlib's level 8, not 9: 2 % larger, a third of the time.

Choice: the PNG in a report is the public map of the phase, the same for every reader, so a
phase is rasterised once however many reports it goes out in; a player who wants the map with
their own places ringed chooses ``SET MAP SVG``, and the archive keeps every reader's SVG.

The last few PNGs are kept in memory by the SHA-256 of the whole drawing (and the width), so
a drawing made again -- the next phase of a war or a Congress whose map shows the same, a
RESEND, a dossier -- is not rasterised again, and two drawings that differ in anything (a
reader's own layer, the title) never share an image.  Choice: not kept in the database; a
restarted daemon rasterises the next drawing afresh (one call), which costs less than
reading and pruning a store of images.
"""
from __future__ import annotations

import hashlib
import io
from collections import OrderedDict

import resvg_py
from PIL import Image

#: the PNG's width in pixels: legible at a mail client's full width, zoomable
WIDTH = 1280
#: the most colours a PNG keeps
COLOURS = 128
#: how many PNGs, and how many bytes of them, are kept at most
_KEPT = 8
_KEPT_BYTES = 4 << 20
_made: OrderedDict[str, bytes] = OrderedDict()


def png(svg: str, width: int = WIDTH) -> bytes:
    """``svg`` as a PNG ``width`` pixels wide on a white ground (the last few are kept)."""
    key = hashlib.sha256(f"{width}\n{svg}".encode("utf-8")).hexdigest()
    if key in _made:
        _made.move_to_end(key)
        return _made[key]
    raw = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff",
                                      font_family="DejaVu Sans", sans_serif_family="DejaVu Sans",
                                      shape_rendering="crisp_edges"))
    image = Image.open(io.BytesIO(raw)).convert("RGB")
    small = image.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=8)
    made = _made[key] = out.getvalue()
    while len(_made) > _KEPT or (len(_made) > 1 and sum(map(len, _made.values())) > _KEPT_BYTES):
        _made.popitem(last=False)
    return made
