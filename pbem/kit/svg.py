"""A small SVG writer: elements as escaped text, nothing else.

Maps and charts need only a handful of shapes (rect, circle, path, line,
polyline, text, g) with attributes, a title and a description.  A library
for that would bring a document model and its own escaping rules; these
few functions escape every text and attribute value, write attributes in a
fixed order (so the same drawing gives the same bytes, turn after turn), and
are pure, so games may use them too.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterable
from xml.sax.saxutils import escape, quoteattr

NS = "http://www.w3.org/2000/svg"


def num(value: float) -> str:
    """A coordinate with at most one decimal: short, and stable across platforms."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


@lru_cache(maxsize=512)
def _attr_name(key: str) -> str:
    # class_ -> class, font_size -> font-size, aria_label -> aria-label
    return key.rstrip("_").replace("_", "-")


def _attr_value(value: Any) -> str:
    if isinstance(value, float):
        return num(value)
    return str(value)


# What quoteattr changes; a value without any of it is just put in double quotes.
# (A map has hundreds of thousands of attributes, nearly all plain numbers and colours.)
_SPECIAL = re.compile(r'[&<>"\n\r\t]')


def _quoted(text: str) -> str:
    return quoteattr(text) if _SPECIAL.search(text) else f'"{text}"'


def attrs(values: dict[str, Any]) -> str:
    return "".join(f" {_attr_name(k)}={_quoted(_attr_value(v))}"
                   for k, v in values.items() if v is not None)


def el(tag: str, body: str | Iterable[str] | None = None, **values: Any) -> str:
    """One element.  ``body`` is markup already made by these functions (a
    string or several); use :func:`text` for words."""
    if body is None:
        return f"<{tag}{attrs(values)}/>"
    if not isinstance(body, str):
        body = "".join(body)
    return f"<{tag}{attrs(values)}>{body}</{tag}>"


def text(x: float, y: float, words: str, **values: Any) -> str:
    return el("text", escape(str(words)), x=float(x), y=float(y), **values)


def title(words: str) -> str:
    return f"<title>{escape(str(words))}</title>"


def path(points: Iterable[tuple[float, float]], closed: bool = True) -> str:
    """The ``d`` of a polygon or polyline through ``points``."""
    pts = [f"{num(x)},{num(y)}" for x, y in points]
    if not pts:
        return ""
    return "M" + " L".join(pts) + (" Z" if closed else "")


def document(width: float, height: float, body: Iterable[str], *, label: str, description: str = "",
             id_: str = "drawing", style: str = "") -> str:
    """A standalone SVG: ``label`` is its accessible name (``<title>`` and
    ``aria-labelledby``), ``description`` its longer ``<desc>``."""
    head = [f'<title id="{id_}-title">{escape(label)}</title>']
    if description:
        head.append(f'<desc id="{id_}-desc">{escape(description)}</desc>')
    if style:
        head.append(f"<style>{escape(style)}</style>")
    labelled = f"{id_}-title" + (f" {id_}-desc" if description else "")
    return (f'<svg xmlns="{NS}" viewBox="0 0 {num(width)} {num(height)}" width="{num(width)}" '
            f'height="{num(height)}" role="img" aria-labelledby="{labelled}">'
            + "".join(head) + "".join(body) + "</svg>\n")


# -- one drawing for many readers ----------------------------------------------------------
# A map most of whose pieces every reader sees alike is drawn once and kept with slots where
# each reader's own layer goes (a title, the rings around the reader's places); filling the
# slots for a reader is one pass over the text.  A slot is delimited by NUL characters, which
# never occur in what these functions write (XML 1.0 forbids them), so it cannot be confused
# with the drawing.

_SLOT = re.compile("\x00([^\x00]*)\x00([^\x00]*)\x00")


def slot(name: str, markup: str = "") -> str:
    """A place in a shared drawing named ``name``, holding ``markup`` that some readers see."""
    if "\x00" in name + markup:
        raise ValueError("a slot cannot hold another slot")
    return f"\x00{name}\x00{markup}\x00"


def fill_slots(shared: str, fill: Callable[[str, str], str]) -> str:
    """The drawing for one reader: each slot replaced by ``fill(name, markup)``."""
    return _SLOT.sub(lambda m: fill(m.group(1), m.group(2)), shared)
