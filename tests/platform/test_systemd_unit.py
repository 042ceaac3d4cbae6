"""The systemd unit the repository ships runs pbem as README says, with a
dedicated user, hardening and Restart=always, and `systemd-analyze verify`
finds nothing in it.  scripts/test installs systemd-analyze (Debian package
systemd); without it this test fails, naming the package."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.base.config import load_config

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs" / "systemd" / "pbem.service"
HARDENING = ("NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
             "PrivateDevices=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
             "SystemCallFilter=@system-service", "CapabilityBoundingSet=")


def settings(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_runs_pbem_serve_as_its_own_user_always_restarted_and_hardened():
    text = UNIT.read_text()
    unit = settings(text)
    assert unit["User"] == ["pbem"] and unit["Group"] == ["pbem"]
    assert unit["ExecStart"] == ["/srv/pbem/.venv/bin/pbem -c /srv/pbem/pbem.toml serve"]
    assert unit["Restart"] == ["always"]
    assert unit["ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    assert unit["WorkingDirectory"] == ["/srv/pbem"]
    for line in HARDENING:
        assert line in text.splitlines(), line
    # It may write exactly what pbem writes with the example configuration.
    cfg = load_config(ROOT / "config.example.toml")
    writable = unit["ReadWritePaths"][0].split()
    for setting in (cfg.server.data_dir, cfg.server.archive_dir):
        assert f"/srv/pbem/{Path(setting).relative_to(ROOT)}" in writable, setting
    assert float(unit["TimeoutStopSec"][0]) > cfg.limits.handling_timeout  # a mail may finish


def test_systemd_analyze_verify_finds_nothing(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("systemd-analyze not found: this test checks the shipped unit with it "
                    "(apt-get install systemd; scripts/test installs it)", pytrace=False)
    # The unit as installed under a root of our own: its ExecStart must exist to be verified.
    srv = tmp_path / "srv" / "pbem"
    (srv / ".venv" / "bin").mkdir(parents=True)
    (srv / ".venv" / "bin" / "pbem").symlink_to(Path(sys.executable).parent / "pbem")
    unit = tmp_path / "pbem.service"
    unit.write_text(UNIT.read_text().replace("/srv/pbem", str(srv)))
    proc = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"})
    assert proc.returncode == 0 and not (proc.stdout + proc.stderr).strip(), proc.stdout + proc.stderr

    broken = tmp_path / "broken.service"  # the check is real: a mistake is reported
    broken.write_text(unit.read_text().replace("Restart=always", "Restart=sometimes"))
    proc = subprocess.run([analyze, "verify", str(broken)], capture_output=True, text=True, timeout=120)
    assert "restart specifier" in proc.stdout + proc.stderr
