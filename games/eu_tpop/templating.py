"""The game's text templates (templates/*.txt.j2), drawn from report data.

The HTML body (templates/report.html.j2) is drawn by the moderator from
``Report.data`` (``Report.template``); the text is drawn here, in the same one
environment (:mod:`pbem.kit.templating`: undefined names fail, blocks leave no
blank lines, text templates are not escaped).  Templates use Jinja's own filters
only, so any of them may be drawn either way.
"""
from __future__ import annotations

from pathlib import Path

from pbem.kit import templating

FOLDER = Path(__file__).resolve().parent / "templates"
templating.add_folder(FOLDER.parent.name, FOLDER)


def text(name: str, **values) -> str:
    return templating.render(f"{FOLDER.parent.name}/{name}", **values)
