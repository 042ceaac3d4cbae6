"""pbem.kit.svg: escaping, stable bytes, and slots of a drawing shared by readers."""
import xml.etree.ElementTree as ET

import pytest

from pbem.kit import svg


def test_text_and_attributes_are_escaped():
    markup = svg.text(1, 2.25, 'a <b> & "c"', class_='x"y')
    root = ET.fromstring(markup)
    assert root.text == 'a <b> & "c"' and root.get("class") == 'x"y' and root.get("y") == "2.2"


def test_slots_are_filled_per_reader_and_leave_the_shared_drawing_alone():
    shared = "".join([svg.el("rect", x=0, y=0), svg.slot("title"),
                      svg.slot("France|Spain", svg.el("circle", r=3)), svg.slot("Britain", svg.el("circle", r=4))])

    def for_reader(power):
        return svg.fill_slots(shared, lambda name, markup: svg.text(0, 0, f"map of {power}") if name == "title"
                              else markup if power in name.split("|") else "")

    spain = for_reader("Spain")
    assert spain == ('<rect x="0" y="0"/><text x="0" y="0">map of Spain</text><circle r="3"/>')
    assert for_reader("Britain").endswith('<circle r="4"/>') and '<circle r="3"/>' not in for_reader("Britain")
    assert "\x00" not in spain + for_reader("Russia")
    assert for_reader("Spain") == spain  # the shared drawing is not changed by filling it


def test_a_slot_cannot_hold_a_slot():
    with pytest.raises(ValueError):
        svg.slot("a", svg.slot("b"))
