"""The game registry: a command that plays one game imports that game alone, and a command
line's help lists the games without importing any (each CLI call pays only for what it uses)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    return done.stdout.strip()


def test_one_game_asked_for_is_imported_alone_and_help_imports_none():
    loaded = "[m for m in ('games.pax_britannica', 'games.eu_tpop') if m in sys.modules]"
    assert _run("import sys; from pbem.base import registry; print(registry.get('eu_tpop').name, "
                f"{loaded})") == "eu_tpop ['games.eu_tpop']"
    assert _run("import sys; from pbem.base import registry; print(registry.listed(), "
                f"{loaded})") == "['eu_tpop', 'pax_britannica'] []"
    assert _run("import sys; from pbem.base import registry; print(registry.names(), "
                f"{loaded})") == "['eu_tpop', 'pax_britannica'] ['games.pax_britannica', 'games.eu_tpop']"
