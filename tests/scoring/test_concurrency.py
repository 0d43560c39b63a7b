"""Two people submit one table's score in the same second, 200 times: one is stored, the other is told; a form
posted twice at once is stored once. Threads against a real database (a SQLite file here, PostgreSQL when
DATABASE_URL says so), through the same service the pages call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_concurrent_submissions_never_overwrite_silently(tmp_path):
    env = {**os.environ, "HEADTABLE_VAR_DIR": str(tmp_path)}
    if not env.get("DATABASE_URL", "").startswith("postgres"):
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    else:  # a database of its own on the same server
        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + "/headtable_race"
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c"]
        subprocess.run([*psql, "drop database if exists headtable_race"], check=True)
        subprocess.run([*psql, "create database headtable_race"], check=True)
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
