import sys
from pathlib import Path

from .runner import run_paths

if __name__ == "__main__":
    sys.exit(run_paths([Path(p) for p in sys.argv[1:]], sys.stdout))
