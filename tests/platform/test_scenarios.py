"""Every shipped scenario file, one test per case (format: README, Scenario files)."""
from pathlib import Path

import pytest

from pbem.scenario.parser import parse_file, scenario_files
from pbem.scenario.runner import run_case

ROOT = Path(__file__).resolve().parents[1] / "scenarios"
FILES = scenario_files([ROOT])
CASES = [case for path in FILES for case in parse_file(path)]


def test_scenarios_exist():
    assert {p.parent.name for p in FILES} >= {"beacon"}


@pytest.mark.parametrize("case", CASES, ids=[f"{Path(c.path).parent.name}/{c.id}" for c in CASES])
def test_case(case, monkeypatch):
    monkeypatch.setenv("PBEM_EXTRA_GAMES", "tests.beacon:GAME")
    result = run_case(case)
    assert result.passed, "\n".join(result.failures)
