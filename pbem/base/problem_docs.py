"""docs/problems.md, made from the problem-code catalogues: the platform's
(:data:`pbem.kit.problems.PLATFORM`) and each built-in game's ``problems.py``.

    python -m pbem.base.problem_docs docs/problems.md   # write it (no argument: print it)
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from pbem.kit.problems import PLATFORM, Catalogue

HEADER = """# Problem codes

Every line of a mail the moderator does not take is answered with a problem code in
brackets and a message, e.g. `line 3: [unknown-power] no power 'Prussia' is played in g1`.
A code means one thing; the message says what was wrong with that line, and often what the
nearest right form is (`did you mean ...?`). This page lists every code, by who says it:
the moderator (in every game) and each game.

This page is made from the catalogues in `pbem/kit/problems.py` and `games/<name>/problems.py`
(`python -m pbem.base.problem_docs docs/problems.md`); `tests/conformance/test_problem_codes.py` checks it.
"""


def game_catalogues() -> list[Catalogue]:
    """The catalogue of each built-in game that has one, by package name."""
    import games

    found = []
    for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"games.{info.name}.problems")
        except ModuleNotFoundError as exc:
            if exc.name != f"games.{info.name}.problems":
                raise
            continue
        found.append(module.CATALOGUE)
    return found


def page(catalogues: list[Catalogue] | None = None) -> str:
    """The whole page: the platform's codes, then each game's."""
    parts = [PLATFORM, *(game_catalogues() if catalogues is None else catalogues)]
    return HEADER + "".join("\n" + c.markdown() for c in parts)


def main(argv: list[str]) -> int:
    text = page()
    if argv:
        Path(argv[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
