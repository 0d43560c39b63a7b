"""Helpers for tests that run the app in separate processes on a database of their own.

In the test command's first pass that is a SQLite file and the filesystem broker (the venue); in the second, a
fresh PostgreSQL database on the same server and the Redis broker (hosted).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOSTED = os.environ.get("DATABASE_URL", "").startswith("postgres")


def isolated_env(tmp_path: Path, name: str) -> dict[str, str]:
    """An environment with a database of its own called `name`, migrated."""
    env = {**os.environ, "HEADTABLE_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"}
    if HOSTED:
        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + f"/{name}"
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c"]
        subprocess.run([*psql, f"drop database if exists {name}"], check=True)
        subprocess.run([*psql, f"create database {name}"], check=True)
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
        env.pop("CELERY_BROKER_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    return env


def django_shell(env: dict[str, str], code: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return out.stdout.decode().strip()
