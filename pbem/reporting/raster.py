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
_KEPT = 8
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
    _made[key] = out.getvalue()
    while len(_made) > _KEPT:
        _made.popitem(last=False)
    return _made[key]
