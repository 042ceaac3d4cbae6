"""pbem.reporting.raster: a map's SVG as a PNG that every mail client shows, its words set in a
real font (the test fails when the machine has none: install fonts-dejavu-core)."""
import io

from PIL import Image

from pbem.kit import svg
from pbem.reporting import raster


def drawing(words: str) -> str:
    return svg.document(200, 50, [svg.el("rect", x=0, y=0, width=200, height=50, fill="#ffffff"),
                                  svg.text(10, 35, words, font_size="28px", fill="#000000",
                                           font_family="DejaVu Sans")], label="test")


def dark_pixels(png: bytes) -> int:
    image = Image.open(io.BytesIO(png)).convert("L")
    return sum(image.histogram()[:128])  # pixels darker than mid-grey


def test_words_are_drawn_in_a_font_and_the_width_is_as_asked():
    written, blank = raster.png(drawing("Algiers"), width=400), raster.png(drawing(""), width=400)
    assert Image.open(io.BytesIO(written)).size == (400, 100)
    assert dark_pixels(blank) == 0
    assert dark_pixels(written) > 500, "no text was drawn: is a font (fonts-dejavu-core) installed?"


def test_the_same_drawing_is_rasterised_once_and_gives_the_same_bytes():
    first = raster.png(drawing("Kongo"), width=300)
    assert raster.png(drawing("Kongo"), width=300) is first
    raster._made.clear()
    assert raster.png(drawing("Kongo"), width=300) == first
