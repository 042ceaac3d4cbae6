"""A game's map as a PNG, for the mail clients that show no SVG (Gmail and Outlook among them).

The map a game draws is SVG (:meth:`pbem.kit.gameapi.Game.map_svg`); a mail's inline PNG is
that drawing rasterised by resvg (a small renderer with wheels for every platform and no
system library) at :data:`WIDTH` pixels, then reduced to at most 256 colours (the maps are
drawn in flat colours, so nothing a reader tells apart is lost) to stay small in a mailbox.
Text is set in the fonts the system has; the maps name DejaVu Sans first.

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
_KEPT = 8
_made: OrderedDict[str, bytes] = OrderedDict()


def png(svg: str, width: int = WIDTH) -> bytes:
    """``svg`` as a PNG ``width`` pixels wide on a white ground (the last few are kept)."""
    key = hashlib.sha256(f"{width}\n{svg}".encode("utf-8")).hexdigest()
    if key in _made:
        _made.move_to_end(key)
        return _made[key]
    raw = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#ffffff",
                                      font_family="DejaVu Sans", sans_serif_family="DejaVu Sans"))
    image = Image.open(io.BytesIO(raw)).convert("RGB")
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    _made[key] = out.getvalue()
    while len(_made) > _KEPT:
        _made.popitem(last=False)
    return _made[key]
