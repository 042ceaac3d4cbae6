"""Shared pytest fixtures.  Real servers live in fixtures_mail.py (Dovecot + SMTP)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest_plugins = ["fixtures_mail"]

import functools
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
# listener whenever it is free, and two sites made at once would both take it.  Every other
# test goes to whichever worker is free.  (xdist's own `xdist_group` mark cannot do this with
# this pytest: the group is read from a node id that pytest no longer lets a plugin change.)
_SITE_WORDS = ("Site(", '"init"', '"serve"', '"demo"', "scripts/demo", "helpers_host")


@functools.cache
def _starts_a_site(path: str) -> bool:
    text = (ROOT / path).read_text(encoding="utf-8", errors="replace")
    return any(word in text for word in _SITE_WORDS)


@pytest.hookimpl(optionalhook=True)  # a run without pytest-xdist (-p no:xdist) knows no such hook
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class SitesOnOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "site" if _starts_a_site(nodeid.split("::", 1)[0]) else nodeid

    return SitesOnOneWorker(config, log)
