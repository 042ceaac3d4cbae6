"""Shared pytest fixtures.  Real servers live in fixtures_mail.py (Dovecot + SMTP)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest_plugins = ["fixtures_mail"]

import os

from hypothesis import settings

# Property tests: no per-example time limit (a loaded CI machine is not a bug),
# and in CI the same examples every run, so a red run can be reproduced.
settings.register_profile("pbem", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("pbem")
