"""Scenario files: the rules' golden tests (``pbem scenario run PATH...``)."""
from pbem.scenario.runner import run_case, run_paths  # noqa: F401
