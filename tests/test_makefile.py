"""The Makefile's installs of Debian packages wait for apt's lock (held by another program) for a bounded
time, saying what they wait for, instead of failing at once."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FAKE_APT = """#!/bin/sh
# fails with apt's lock message until it has been called LOCKED times, then succeeds
count=$(cat "$STATE" 2>/dev/null || echo 0); echo $((count + 1)) > "$STATE"
case "$*" in *update*) test "$count" -ge "$LOCKED" || {
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1" >&2; exit 100; };; esac
echo "$*" >> "$CALLS"
"""


def _make(tmp_path, locked: int, wait: int):
    if shutil.which("make") is None or os.geteuid() != 0:
        pytest.skip("needs make, and root (the Makefile runs apt-get through sudo otherwise)")
    fake = tmp_path / "apt-get"
    fake.write_text(FAKE_APT)
    fake.chmod(0o755)
    extra = tmp_path / "extra.mk"
    extra.write_text("try:\n\t$(call apt_need,test -f $(DONE),some-package,the test)\n")
    env = {
        **os.environ,
        "STATE": str(tmp_path / "state"),
        "CALLS": str(tmp_path / "calls"),
        "LOCKED": str(locked),
    }
    return subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-f", str(extra), "try", f"APT_GET={fake}",
         f"APT_WAIT={wait}", "APT_POLL=0", f"DONE={tmp_path / 'calls'}"],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False, timeout=60,
    )  # fmt: skip


def test_apt_lock_is_waited_for(tmp_path):
    done = _make(tmp_path, locked=3, wait=10)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("waiting for apt's package lists, locked by another program") == 3
    assert "install -y -qq some-package" in (tmp_path / "calls").read_text()


def test_apt_lock_wait_is_bounded(tmp_path):
    done = _make(tmp_path, locked=100, wait=0)
    assert done.returncode != 0 and "could not update apt's package lists" in done.stderr
    assert not (tmp_path / "calls").exists()
