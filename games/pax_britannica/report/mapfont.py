"""How wide a line of the map's text is, from the advance widths of DejaVu Sans.

The map names DejaVu Sans first and the PNG in a mail is rasterised with it
(:mod:`pbem.reporting.raster`), so a label's box is estimated from that font's own
advance widths (per character, thousandths of the font size, for the printable ASCII
characters; read from the font's metrics) rather than from an average, which is too
narrow for short names set in capitals and wide letters ("Oman", "Kongo").  A
character outside the table counts as wide as the widest letters, so an estimate
errs wide, never narrow.  Pure data and arithmetic.
"""
from __future__ import annotations

from functools import lru_cache

_FIRST = 32  # the space; the tables run to "~" (126)
_REGULAR = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 "
    "636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 "
    "557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 "
    "635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 "
    "592 592 525 636 337 636 838")
_BOLD = (
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 "
    "696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 "
    "637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 "
    "716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 "
    "645 652 582 712 365 712 838")
WIDTHS = {False: tuple(int(w) for w in _REGULAR.split()), True: tuple(int(w) for w in _BOLD.split())}
OTHER = 1000  # any other character: as wide as "W"
#: extra room on each side of a label, pixels (the halo drawn around a name)
SLACK = 1.0


@lru_cache(maxsize=4096)
def width(words: str, size: float, bold: bool = False) -> float:
    """The advance width of ``words`` set at ``size`` pixels (the oblique face has the
    regular one's widths)."""
    table = WIDTHS[bold]
    total = 0
    for ch in words:
        i = ord(ch) - _FIRST
        total += table[i] if 0 <= i < len(table) else OTHER
    return total * size / 1000
