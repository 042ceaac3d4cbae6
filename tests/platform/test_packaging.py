"""What `pip install .` (not editable) puts in a wheel is enough to run pbem:
the templates, the example configuration and the games' data files.  The
project is installed into a fresh virtual environment, and `pbem init` and a
short `pbem demo` run there from a folder outside the source tree."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _run(cmd: list, cwd: Path, env: dict, timeout: float = 900) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_an_installed_wheel_runs_init_and_the_demo(tmp_path):
    # Nothing may lead the installed pbem back to the source tree or this test's settings.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PBEM_CONFIG", "PBEM_EXTRA_GAMES")}
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv], tmp_path, env)
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "-q", ROOT], tmp_path, env)
    site = tmp_path / "site"
    site.mkdir()

    where = _run([python, "-c", "import pbem, games; print(pbem.__file__); print(games.__file__)"],
                 site, env).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where

    init = _run([venv / "bin" / "pbem", "init"], site, env)
    assert "GM secret" in init.stdout
    assert 'gm_secret_hash = ""' not in (site / "pbem.toml").read_text()
    assert (site / "var" / "pbem.sqlite").is_file()

    demo = _run([venv / "bin" / "pbem", "demo", "--dir", site / "demo", "--turns", "1"], site, env)
    assert "1 turn," in demo.stdout and "Final standings:" in demo.stdout
    index = Path(demo.stdout.split("Archive: ")[1].split()[0])
    assert index.is_file() and index.is_relative_to(site)
