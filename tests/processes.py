"""Helpers for tests that run the app in separate processes on a database of their own.

In the test command's first pass that is a SQLite file and the filesystem broker (the venue); in the second, a
fresh PostgreSQL database on the same server and the Redis broker (hosted).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path

import redis

from headtable import server_command
from tests.backends import worker_suffix

ROOT = Path(__file__).resolve().parents[1]
HOSTED = os.environ.get("DATABASE_URL", "").startswith("postgres")


def isolated_env(tmp_path: Path, name: str) -> dict[str, str]:
    """An environment with a database of its own called `name` (and the xdist worker's name), migrated.

    The database is a copy of one migrated once per test process (`_migrated`): the same tables and rows a fresh
    `migrate` gives, without running the migrations again for each test that starts the app."""
    name += worker_suffix()
    template = _migrated()
    if HOSTED:
        env = _env(tmp_path, name)
        _psql(f"drop database if exists {name}")
        _psql(f"create database {name} template {template}")
        # An empty queue: a message a killed worker left unacknowledged (a bell, a print job) would come back
        # after Redis's visibility timeout and act on this database's round or job of the same number.
        if env.get("CELERY_BROKER_URL", "").startswith("redis://"):
            redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    else:
        copy = tmp_path / f"{name}.sqlite3"
        with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(copy)) as target:
            source.backup(target)
        env = _env(tmp_path, str(copy))
    # What the first start leaves in var/ beside the database (migrate made it before): the key every process of
    # the app signs with, written once here so that two processes starting together cannot each write their own.
    key = tmp_path / "secret_key"
    if not key.exists():
        key.write_text(secrets.token_urlsafe(50))
        key.chmod(0o600)
    return env


def _env(var: Path, database: str) -> dict[str, str]:
    """The app's environment with `var` for its files and `database` (hosted: a PostgreSQL database's name on the
    pass's server; at the venue: a SQLite file's path, and the filesystem broker under `var`)."""
    env = {**os.environ, "HEADTABLE_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "config.settings"}
    if HOSTED:
        env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + f"/{database}"
    else:
        env["DATABASE_URL"] = f"sqlite:///{database}"
        env.pop("CELERY_BROKER_URL", None)
    return env


def _psql(command: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", command], check=True)


@functools.cache
def _migrated() -> str:
    """A database migrated from nothing by `manage.py migrate`, once per test process: a SQLite file's path (in a
    folder removed when the process ends), or (hosted) the name of a PostgreSQL database that `isolated_env` copies
    with CREATE DATABASE … TEMPLATE (nothing connects to it after its migrate, as a template must be).

    At the venue, the test command migrates one before the tests start (HEADTABLE_TEST_MIGRATED): every test process
    copies that one."""
    shared = os.environ.get("HEADTABLE_TEST_MIGRATED")
    if not HOSTED and shared and Path(shared).is_file():
        return shared
    folder = Path(tempfile.mkdtemp(prefix="headtable-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    if HOSTED:
        place = f"headtable_migrated{worker_suffix()}"
        _psql(f"drop database if exists {place}")
        _psql(f"create database {place}")
    else:
        place = str(folder / "migrated.sqlite3")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=_env(folder, place), check=True)
    return place


def django_shell(env: dict[str, str], code: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return out.stdout.decode().strip()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(env: dict[str, str], port: int, host: str = "127.0.0.1") -> subprocess.Popen:
    """The venue's web server as the run command starts it, on loopback (or `host`: "0.0.0.0" for the phones at the
    machine's network address), once it takes connections."""
    server = subprocess.Popen(
        server_command(sys.executable, str(port), host=host),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its worker processes with it, so that all of it can be killed at once
    )
    for _ in range(50):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


def stop_server(server: subprocess.Popen, grace: float = 20) -> None:
    """Stop a server `start_server` started, every process of its group: asked to stop (SIGTERM), and killed if any
    of it is still there after `grace` seconds. Seen once in CI: granian's main process, told to stop, waited for
    ever for a worker that never stopped, and the whole run with it."""
    os.killpg(server.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=grace)
    for _ in range(50):  # its workers stop a moment after it
        try:
            os.killpg(server.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait()


def answers(url: str) -> int:
    """The status a page answers with (0: no answer at all)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as page:
            return page.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0
