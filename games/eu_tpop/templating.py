"""The game's text templates (templates/*.txt.j2), drawn from report data.

The HTML body (templates/report.html.j2) is drawn by the moderator from
``Report.data`` (``Report.template``); the text is drawn here, with the same
settings (undefined names fail, blocks leave no blank lines) and no escaping.
Templates use Jinja's own filters only, so any of them may be drawn either way.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

FOLDER = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(FOLDER)), undefined=jinja2.StrictUndefined,
                              autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def text(name: str, **values) -> str:
    return _env().get_template(name).render(**values)
