"""A real Celery worker rings the bell, and catches up after a restart.

Everything runs in separate processes: in the first pass of the test command on a throwaway SQLite file and the
filesystem broker, as on the venue laptop; in the second on PostgreSQL and Redis, as on a hosted server.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from headtable import worker_command
from tests.processes import HOSTED, isolated_env

# No test database of its own, but processes on a database and broker of the pass's kind: both passes.
pytestmark = pytest.mark.backend

ROOT = Path(__file__).resolve().parents[2]
SETUP = """
import datetime as dt
from django.utils import timezone
from tournament import game, services
from tournament.models import Round
night = services.night_create(name="Worker test", games=3, minutes_per_game=30, auto_advance=False)
services.players_register(night=night, names=[f"Player {n}" for n in range(1, 9)])
round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
# Bring the end near: as the organizer's extend would, with a new token and a task sent for it.
near = timezone.now() + dt.timedelta(seconds={seconds}) - dt.timedelta(minutes=1)
Round.objects.filter(pk=round_.pk).update(ends_at=near)
game.round_extend(round_=round_, minutes=1)
print(round_.pk)
"""


@pytest.fixture
def venue(tmp_path):
    return tmp_path, isolated_env(tmp_path, "headtable_worker")


def round_in(venue, seconds: float) -> int:
    _, env = venue
    code = SETUP.replace("{seconds}", str(seconds))
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return int(out.stdout.decode().split()[-1])


def status(venue, round_id: int, query: str = "") -> tuple[str, str]:
    database = venue[1]["DATABASE_URL"]
    if HOSTED:
        query = query or f"select status || '|' || bell_cause from tournament_round where id = {int(round_id)}"
        out = subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", database.rsplit("/", 1)[1], "-At", "-c", query],
            capture_output=True,
            check=True,
        )
        return tuple(out.stdout.decode().strip().split("|"))
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        if query:
            return tuple(db.execute(query.replace(" || '|' || ", ", ")).fetchone())
        return db.execute("select status, bell_cause from tournament_round where id = ?", (round_id,)).fetchone()


def start_worker(venue) -> subprocess.Popen:
    tmp_path, env = venue
    return subprocess.Popen(
        worker_command(sys.executable, tmp_path),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_for_bell(venue, round_id: int, seconds: float) -> tuple[str, str]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = status(venue, round_id)
        if row[0] == "bell":
            return row
        time.sleep(0.3)
    return status(venue, round_id)


def stop(worker: subprocess.Popen, sig=signal.SIGTERM) -> None:
    os.killpg(worker.pid, sig)
    worker.wait(timeout=20)


def test_the_worker_rings_the_bell_when_the_timer_ends(venue):
    worker = start_worker(venue)
    try:
        round_id = round_in(venue, seconds=6)
        assert status(venue, round_id)[0] == "playing"
        assert wait_for_bell(venue, round_id, seconds=25) == ("bell", "the timer")
    finally:
        stop(worker)
    if not HOSTED:  # the filesystem broker keeps its exchanges' tables under the night's var/, not where it started
        assert list((venue[0] / "broker" / "control").glob("*.exchange"))


def test_a_killed_worker_catches_up_when_it_starts_again(venue):
    worker = start_worker(venue)
    round_id = round_in(venue, seconds=4)
    time.sleep(1)
    stop(worker, signal.SIGKILL)  # the laptop's worker dies before the bell
    time.sleep(5)
    assert status(venue, round_id)[0] == "playing"  # nobody rang it meanwhile
    worker = start_worker(venue)
    try:
        assert wait_for_bell(venue, round_id, seconds=20) == ("bell", "the timer")
    finally:
        stop(worker)


PRINT = """
from tournament import services
from tournament.sheets import printing
night = services.night_create(name="Print test", games=3)
services.players_register(night=night, names=[f"Player {n}" for n in range(1, 601)])
print(printing.print_job_start(night=night, sheet="tally-cards", per_page=4, blank=0).pk)
"""


def test_a_print_job_whose_worker_is_killed_mid_build_is_finished_by_the_next(venue):
    env = venue[1]
    env["HEADTABLE_PRINT_JOB_STALE_SECONDS"] = "2"
    shell = [sys.executable, "manage.py", "shell", "-v", "0", "-c", PRINT]
    worker = start_worker(venue)
    try:
        job = int(subprocess.run(shell, cwd=ROOT, env=env, check=True, capture_output=True).stdout.split()[-1])
        query = f"select status || '|' || done || '|' || attempt from tournament_printjob where id = {job}"
        deadline = time.monotonic() + 60
        while status(venue, job, query)[0] != "running" or int(status(venue, job, query)[1]) == 0:
            assert time.monotonic() < deadline, "the worker never started the build"
            time.sleep(0.05)
        stop(worker, signal.SIGKILL)  # mid-build: 600 cards, some drawn
        left = status(venue, job, query)
        assert left[0] == "running" and 0 < int(left[1]) < 600
        worker = start_worker(venue)
        deadline = time.monotonic() + 60
        while status(venue, job, query)[0] != "done" and time.monotonic() < deadline:
            time.sleep(0.3)
        assert [str(value) for value in status(venue, job, query)] == ["done", "600", "2"]  # taken over once
    finally:
        with contextlib.suppress(ProcessLookupError):
            stop(worker)
