"""The README's first command: the demo plays a whole Pax Britannica game by
mail among bots on the embedded default and ends with standings and an archive."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.mail import reader

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_a_whole_game_by_mail(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--dir", str(tmp_path / "demo")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={k: v for k, v in os.environ.items() if k != "PBEM_EXTRA_GAMES"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert out.startswith("pbem demo: Pax Britannica, 7 bot players, 10 turns,")
    assert "starting the moderator (database " in out and "the GM mails: GM CREATE demo" in out
    # The dice are the game's own (fair, not seeded by the demo): a Great War may end it before 1916.
    last = int(re.search(r"^  (\d{4}) Final Record$", out, re.M).group(1))
    for number, year in enumerate(range(1880, last + 1, 4), 1):
        assert f"{year} Movement/Status Change" in out
        assert re.search(rf"^turn {number} of 10: {year} \((\d+ s|\d+ min \d\d s) so far\)$", out, re.M), year
    assert out.index("turn 2 of 10") < out.index("1884 Movement/Status Change") < out.index("turn 3 of 10")
    assert "Final Record" in out and "Final standings:" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit() and "  " in line]) >= 7
    index = Path(out.split("Archive: ")[1].split()[0])
    assert index.is_file() and "demo" in index.read_text()
    mailboxes = list((tmp_path / "demo" / "var" / "mail" / "out").iterdir())
    assert len(mailboxes) == 8  # seven players and the GM got mail
    command = out.split("Read a player's mail: ")[1].split()
    assert command[:2] == ["pbem", "-c"] and command[3:] == ["mail", "britain@demo.test", "--last", "1"]
    read = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert read.returncode == 0, read.stderr
    mails = reader.read(tmp_path / "demo" / "var" / "mail" / "out" / "britain@demo.test")
    assert read.stdout.startswith(f"==== mail {len(mails)} of {len(mails)} ")  # the newest, whatever it is
    assert f"\nSubject: {mails[-1]['Subject']}\n" in read.stdout and read.stdout.count("==== mail ") == 1


def test_demo_plays_any_game_with_bots(tmp_path):
    """The test game, registered as a plug-in, with its reaction windows."""
    env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.beacon:GAME"}
    proc = subprocess.run([sys.executable, "-m", "pbem", "demo", "--rules", "beacon", "--dir",
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
    from pbem.base import registry
    from pbem.host.cli import build_parser

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
    assert [line.split(" (")[0] for line in out.splitlines() if line.startswith("turn ")] == \
        ["turn 1 of 3", "turn 2 of 3", "turn 3 of 3"]  # a round is a turn, and its number says it all
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


@pytest.mark.slow
def test_scripts_demo_on_a_fresh_copy_says_what_it_does_from_its_first_line(tmp_path):
    """The README's first command, as a new user runs it: no .venv yet.  Every step says
    what it does before it starts (the install shows pip's own progress), the game its
    turns, and the command it ends with reads a player's mailbox."""
    copy = tmp_path / "pbem"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv", "demo-run", "var", "node_modules", "__pycache__", ".pytest_cache", ".hypothesis"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PBEM_CONFIG", "PBEM_EXTRA_GAMES")}
    env["PYTHON"] = sys.executable
    proc = subprocess.run(["scripts/demo", "--turns", "1"], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("demo: first run: making the virtual environment .venv"), lines[:3]
    assert lines[1].startswith("demo: creating .venv with Python 3.") and lines[1].endswith(" ...")
    assert lines[2] == "demo: installing pbem and its dependencies into .venv with pip (its progress follows) ..."
    installed = next(i for i, line in enumerate(lines) if line.startswith("demo: pbem installed into .venv in "))
    assert any(line.startswith("Successfully installed ") for line in lines[3:installed])  # pip's own lines
    assert lines[installed + 1].startswith("pbem demo: Pax Britannica, 7 bot players, 1 turn,")
    assert "turn 1 of 1: 1880 (" in proc.stdout and "Final standings:" in proc.stdout
    command = proc.stdout.split("Read a player's mail: ")[1].split()
    assert command == [".venv/bin/pbem", "-c", "demo-run/pbem.toml", "mail", "britain@demo.test", "--last", "1"]
    read = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=60)
    newest = reader.read(copy / "demo-run" / "var" / "mail" / "out" / "britain@demo.test")[-1]
    assert read.returncode == 0 and f"\nSubject: {newest['Subject']}\n" in read.stdout, read.stdout[:500] + read.stderr
