"""The README's first command: the demo plays a whole Pax Britannica game by
mail among bots on the embedded default and ends with standings and an archive."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_demo_plays_a_whole_game_by_mail(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(tmp_path / "demo")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    for year in range(1880, 1917, 4):
        assert f"{year} Movement/Status Change" in out
    assert "Final Record" in out and "Final standings:" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit() and "  " in line]) >= 7
    index = Path(out.split("Archive: ")[1].split()[0])
    assert index.is_file() and "demo" in index.read_text()
    mailboxes = list((tmp_path / "demo" / "var" / "mail" / "out").iterdir())
    assert len(mailboxes) == 8  # seven players and the GM got mail


def test_demo_plays_any_game_with_bots(tmp_path):
    """The test game, registered as a plug-in, with its reaction windows."""
    env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.testgame:GAME"}
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--rules", "testgame", "--dir",
                           str(tmp_path / "demo")], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    for line in ("Round 1 Claim", "Round 3 Orders", "Final standings:"):
        assert line in proc.stdout


def test_demo_turns_plays_exactly_that_many_turns(tmp_path):
    """Issue 7: `pbem demo --turns 2` played three turns (it stopped only once a third
    had begun).  The game now ends after the turns asked for, with its Final Record."""
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(tmp_path / "demo"), "--turns", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "1880 Movement/Status Change" in out and "1884 Movement/Status Change" in out
    assert "1888" not in out
    assert "1884 Final Record" in out and "Final standings:" in out


def test_rules_help_lists_only_games_that_exist():
    """Issue 7: the --rules help named eu_tpop, which this installation does not have."""
    from pbem import registry
    from pbem.cli import build_parser

    env = {k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"}
    proc = subprocess.run([sys.executable, "-m", "pbem", "game", "new", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=env)
    helped = " ".join(proc.stdout.split())
    assert "pax_britannica" in helped and "..." not in helped.split("--rules")[1].split("--option")[0]
    for name in ("eu_tpop",):
        assert (name in helped) == (name in registry.names())
    assert build_parser() is not None


def test_demo_plays_europa_universalis_among_bots_to_its_end(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(tmp_path / "demo"),
                           "--rules", "eu_tpop"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    for round_no in (1, 2, 3):
        assert f"Round {round_no} Peace & Rebels step D" in out or f"Round {round_no} action" in out
    assert "the game is over" in out and "Final standings:" in out
    for realm in ("Valmont", "Corvia", "Ostmark"):
        assert realm in out.split("Final standings:")[1]
    mailboxes = {p.name for p in (tmp_path / "demo" / "var" / "mail" / "out").iterdir()}
    assert {"valmont@demo.test", "corvia@demo.test", "ostmark@demo.test", "gm@demo.test"} <= mailboxes


def test_demo_turns_plays_that_many_rounds_of_europa_universalis(tmp_path):
    """The EU game follows demo_setup(turns): --turns 1 is a one-round game, ended and scored."""
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(tmp_path / "demo"),
                           "--rules", "eu_tpop", "--turns", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "3 bot players, 1 turn," in out and "Round 1 action 1: Valmont" in out
    assert "Round 2" not in out and "Round 1: the game is over" in out and "Final standings:" in out
