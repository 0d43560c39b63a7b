"""Two people submit one table's score in the same second, 200 times: one is stored, the other is told; a form
posted twice at once is stored once. Threads against a real database (a SQLite file here, PostgreSQL when
DATABASE_URL says so), through the same service the pages call."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.processes import ROOT, isolated_env

# No test database of its own, but processes on a database and broker of the pass's kind: both passes.
pytestmark = pytest.mark.backend


def test_concurrent_submissions_never_overwrite_silently(tmp_path):
    env = isolated_env(tmp_path, "headtable_race")
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "concurrency_probe.py"), "200"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    report = json.loads(out.stdout.decode().strip().splitlines()[-1])
    assert report["both_stored"] == 0  # never two entries on top of each other
    assert report["none_stored"] == 0  # one of the two always gets through
    assert report["lost"] == 0  # what was stored is what the database holds
    assert report["double_post_stored"] == 50  # 50 double posts, each stored once
    assert report["submissions"] == 1 + 150 + 50
