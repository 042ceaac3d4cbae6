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


def counting(monkeypatch) -> list[str]:
    """The drawings resvg is asked to rasterise, in order."""
    asked: list[str] = []
    real = raster.resvg_py.svg_to_bytes

    def svg_to_bytes(**kw):
        asked.append(kw["svg_string"])
        return real(**kw)
    monkeypatch.setattr(raster.resvg_py, "svg_to_bytes", svg_to_bytes)
    return asked


def test_a_drawing_asked_again_is_rasterised_once(monkeypatch):
    raster._made.clear()
    asked = counting(monkeypatch)
    first = [raster.png(drawing("Tonkin"), width=300) for _ in range(3)]
    raster.png(drawing("Annam"), width=300)
    again = raster.png(drawing("Tonkin"), width=300)
    assert asked == [drawing("Tonkin"), drawing("Annam")]
    assert first[0] is first[1] is first[2] is again


def test_two_different_drawings_never_share_an_image(monkeypatch):
    """A reader's own layer (here: one ring) makes another drawing, so another image: the key
    is the whole drawing, never a part of it such as its title."""
    raster._made.clear()
    asked = counting(monkeypatch)
    public = drawing("Siam")
    own = public.replace("</svg>", '<circle cx="150" cy="25" r="12" fill="none" stroke="#000000" '
                         'stroke-width="4"/></svg>')
    images = [raster.png(public, width=300), raster.png(own, width=300)]
    assert asked == [public, own]
    assert images[0] != images[1]
    assert dark_pixels(images[1]) > dark_pixels(images[0])
    assert raster.png(drawing("Siam"), width=300) == images[0] and len(asked) == 2
    assert raster.png(public, width=400) != images[0] and len(asked) == 3  # the width is in the key


def test_the_images_kept_are_bounded(monkeypatch):
    raster._made.clear()
    monkeypatch.setattr(raster, "_KEPT_BYTES", 1)
    raster.png(drawing("Aden"), width=300)
    raster.png(drawing("Oman"), width=300)
    assert len(raster._made) == 1  # the newest stays, however big
    monkeypatch.setattr(raster, "_KEPT_BYTES", 4 << 20)
    for words in "ABCDEFGHIJ":
        raster.png(drawing(words), width=100)
    assert len(raster._made) == raster._KEPT
