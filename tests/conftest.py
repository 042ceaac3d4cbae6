"""Shared pytest fixtures.  Real servers live in fixtures_mail.py (Dovecot + SMTP)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest_plugins = ["fixtures_mail"]

import os

import pytest

from hypothesis import settings

# Property tests: no per-example time limit (a loaded CI machine is not a bug),
# and in CI the same examples every run, so a red run can be reproduced.
settings.register_profile("pbem", deadline=None, derandomize=bool(os.environ.get("CI")))
settings.load_profile("pbem")


# Two or more workers (scripts/test runs the suite with pytest-xdist, one worker a core):
# every test module that starts pbem as a site of its own (`pbem init`, `serve`, the demo)
# runs on one worker, one after another, because `pbem init` takes port 2525 for the SMTP
# listener whenever it is free, and two sites made at once would both take it.
_SITE_WORDS = ("Site(", '"init"', '"serve"', '"demo"', "scripts/demo", "helpers_host")


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):
        return  # not a worker of a parallel run
    site_modules: dict[str, bool] = {}
    for item in items:
        path = str(item.fspath)
        if path not in site_modules:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
            site_modules[path] = any(word in text for word in _SITE_WORDS)
        if site_modules[path]:
            item.add_marker(pytest.mark.xdist_group("site"))
