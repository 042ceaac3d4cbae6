"""The scenario runner itself: output format, failures, parse errors, exit status."""
import io
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.scenario.parser import ScenarioSyntaxError, parse_text
from pbem.scenario.runner import run_paths

ROOT = Path(__file__).resolve().parents[2]

FAILING = """
CASE X-01 a wrong expectation fails with expected and actual
RULES beacon
PLAYERS North South
EXPECT gold North = 11
END CASE
CASE X-02 asking for more dice than given fails the case
RULES beacon
PLAYERS North South
ORDERS North
BID 1
END ORDERS
ORDERS South
BID 1
END ORDERS
PROCESS
END CASE
CASE X-03 passes
RULES beacon
PLAYERS North South
EXPECT gold North = 10
END CASE
"""


@pytest.fixture(autouse=True)
def _testgame(monkeypatch):
    monkeypatch.setenv("PBEM_EXTRA_GAMES", "tests.beacon:GAME")


def test_failures_are_reported_line_by_line(tmp_path):
    (tmp_path / "f.scn").write_text(FAILING)
    out = io.StringIO()
    status = run_paths([tmp_path], out)
    text = out.getvalue()
    assert status == 1
    assert "FAIL X-01" in text and "actual 10" in text
    assert "FAIL X-02" in text and "dice" in text
    assert "PASS X-03" in text
    assert text.strip().splitlines()[-1] == "1 passed, 2 failed"


def test_parse_error_names_file_and_line(tmp_path):
    (tmp_path / "bad.scn").write_text("CASE A-1 t\nRULES beacon\nFROBNICATE\nEND CASE\n")
    out = io.StringIO()
    assert run_paths([tmp_path], out) == 1
    assert "bad.scn:3" in out.getvalue()


@pytest.mark.parametrize("text,line", [
    ("CASE A t\nEXPECT gold North 3\nEND CASE", 2),
    ("CASE A t\nORDERS North\nBID 1\n", 2),
    ("CASE A t\nRULES beacon\n", 1),
    ("RULES beacon\n", 1),
    ("CASE A t\nDICE x\nEND CASE", 2),
])
def test_syntax_errors(text, line):
    with pytest.raises(ScenarioSyntaxError) as err:
        parse_text(text, "t.scn")
    assert err.value.line == line


def test_comments_and_case_insensitive_keywords():
    cases = parse_text("case a-1 title # comment\nrules TestGame\nexpect gold North >= 3\nend case\n")
    assert cases[0].id == "a-1" and cases[0].rules == "testgame"
    assert cases[0].statements[0].args == {"query": "gold North", "op": ">=", "value": "3"}


def test_cli_exit_status(tmp_path):
    (tmp_path / "f.scn").write_text(FAILING)
    proc = subprocess.run([sys.executable, "-m", "pbem", "scenario", "run", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True,
                          env={"PBEM_EXTRA_GAMES": "tests.beacon:GAME", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 1, proc.stderr
    assert "1 passed, 2 failed" in proc.stdout
