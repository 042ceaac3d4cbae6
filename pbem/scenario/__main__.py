"""``python -m pbem.scenario [run] PATH...`` — the same as ``pbem scenario run``."""
import sys
from pathlib import Path

from pbem.scenario.runner import run_paths

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["run"]:
        args = args[1:]
    sys.exit(run_paths([Path(p) for p in args], sys.stdout))
