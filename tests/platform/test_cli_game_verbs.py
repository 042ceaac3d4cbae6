"""The game verbs of the command line, run as a user runs them: a new
process on a configuration file."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pbem(tmp_path):
    config = tmp_path / "pbem.toml"
    config.write_text('[server]\ndatabase = "pbem.sqlite"\naddress = "mod@example.test"\n', encoding="utf-8")

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
        env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.beacon:GAME,tests.buggygame:GAME"}
        env.pop("PBEM_CONFIG", None)
        proc = subprocess.run([sys.executable, "-m", "pbem", "-c", str(config), *args], cwd=ROOT,
                              capture_output=True, text=True, env=env, timeout=60)
        assert (proc.returncode == 0) == ok, (proc.stdout, proc.stderr)
        return proc

    return run


def test_a_game_is_made_seated_listed_started_previewed_and_processed(pbem):
    out = pbem("game", "new", "g1", "--rules", "beacon", "--option", "gold=5", "--gm", "gm@example.test").stdout
    assert out.startswith("created g1 (Beacon (test game)), forming")
    north = pbem("game", "add-player", "g1", "n", "north@example.test", "--secret", "s3cret").stdout
    assert north.strip() == "North: north@example.test, secret s3cret"
    south = pbem("game", "add-player", "g1", "South", "south@example.test").stdout
    assert south.startswith("South: south@example.test, secret ") and len(south.split()[-1]) >= 8
    pbem("game", "add-player", "g1", "West", "west@example.test", ok=False)
    assert pbem("game", "list").stdout.split() == ["g1", "beacon", "forming", "-"]
    status = pbem("game", "status", "g1").stdout
    assert "g1: Beacon (test game), forming" in status and "north@example.test" in status
    pbem("game", "start", "g1")
    assert pbem("game", "list").stdout.split()[2:] == ["active", "Round", "1", "Orders"]
    status = pbem("game", "status", "g1").stdout
    assert "phase: Round 1 Orders" in status and "waiting for: North, South" in status
    preview = pbem("game", "preview", "g1").stdout
    assert preview.startswith("would resolve: Round 1 Orders, Round 1 Tally")
    assert "beacon won by none" in preview
    assert "phase: Round 1 Orders" in pbem("game", "status", "g1").stdout  # the preview stored nothing
    pbem("game", "process", "g1")
    status = pbem("game", "status", "g1").stdout
    assert "phase: Round 2 Orders" in status and "North" in status and "missed 1" in status
    verify = pbem("verify", "g1").stdout
    assert "g1: 2 phases re-run, all identical" in verify


def test_errors_are_one_line_and_a_failed_exit(pbem):
    proc = pbem("game", "status", "nosuch", ok=False)
    assert proc.stderr.strip() == "pbem: error: no game called 'nosuch'"
    proc = pbem("game", "new", "g1", "--rules", "nosuch", ok=False)
    assert proc.stderr.startswith("pbem: error: ") and len(proc.stderr.strip().splitlines()) == 1


def test_preview_of_a_game_not_started_says_so(pbem):
    pbem("game", "new", "g1", "--rules", "beacon", "--gm", "gm@example.test")
    proc = pbem("game", "preview", "g1", ok=False)
    assert proc.stderr.strip() == "pbem: error: g1 is forming: there is no phase to preview"


def test_pbem_gm_keeps_a_command_when_the_next_one_fails(pbem, tmp_path):
    """``pbem gm`` runs its commands through the mail's dispatcher, each under its own
    savepoint: the second command raising (a bug in the game's GM edit) is undone alone
    and said, and the first one stands, as in a GM mail."""
    import sqlite3

    pbem("game", "new", "g1", "--rules", "buggygame", "--gm", "gm@example.test")
    pbem("game", "add-player", "g1", "North", "north@example.test")
    pbem("game", "add-player", "g1", "South", "south@example.test")
    pbem("game", "start", "g1")
    db = tmp_path / "pbem.sqlite"
    before = sqlite3.connect(db).execute("select deadline from games where name = 'g1'").fetchone()[0]
    proc = pbem("gm", "g1", "EXTEND 24h", "BREAK", ok=False)
    assert "line 2: [internal-error]" in proc.stdout and "ZeroDivisionError" in proc.stdout
    with sqlite3.connect(db) as con:
        after = con.execute("select deadline from games where name = 'g1'").fetchone()[0]
        extended = con.execute("select count(*) from gm_log where game = 'g1' and "
                               "action like 'extended the deadline%'").fetchone()[0]
    assert after != before and extended == 1



def test_game_status_shows_the_gm_the_board_and_what_only_the_gm_sees(pbem):
    pbem("game", "new", "eu1", "--rules", "eu_tpop", "--gm", "gm@example.test")
    for realm in ("Valmont", "Corvia", "Ostmark"):
        pbem("game", "add-player", "eu1", realm, f"{realm.lower()}@example.test")
    pbem("game", "start", "eu1")
    status = pbem("game", "status", "eu1").stdout
    assert "phase: Round 1 action 1: Valmont" in status
    assert "The board (what every realm sees)" in status and "Western Sea (sea): Corvia fleet 2" in status
    after = status.split("Only the GM sees this part:")[1]
    assert "Corvia: prestige 10, stability +1, 15 Ducats" in after
