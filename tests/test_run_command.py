"""The night's run command keeps the night up: a worker or a server process that dies is started again while the
public pages go on answering, and Ctrl-C (here SIGTERM, which it treats the same) leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import ROOT, answers, django_shell, free_port, isolated_env

# The venue's own set-up (the run command, its server, SQLite on disk), which no second pass changes: the first pass
# only.
pytestmark = pytest.mark.venue

SETUP = """
from tournament import services
night = services.night_create(name="Kept up", games=3)
services.players_register(night=night, names=[f"Player {n}" for n in range(1, 9)])
services.night_draw(night=night, seed=1)
print(night.pk)
"""


def descendants(pid: int) -> dict[int, str]:
    """Every process under `pid`, with its command line."""
    found, todo = {}, [pid]
    while todo:
        parent = todo.pop()
        for child in Path(f"/proc/{parent}/task/{parent}/children").read_text().split():
            try:
                found[int(child)] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            todo.append(int(child))
    return found


def worker_of(pid: int) -> int | None:
    """The Celery worker's own process (the one the run command started)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for child in map(int, children):
        if "celery" in Path(f"/proc/{child}/cmdline").read_bytes().decode(errors="replace"):
            return child
    return None


def test_a_killed_worker_is_started_again_and_the_pages_never_stop(tmp_path):
    env = isolated_env(tmp_path, "headtable_run")
    night = django_shell(env, SETUP).split()[-1]
    port = free_port()
    env = {**env, "PORT": str(port), "HEADTABLE_ORGANIZER_PASSWORD": "not-printed-here", "PYTHONUNBUFFERED": "1"}
    log = (tmp_path / "run.log").open("w")
    run = subprocess.Popen(
        [sys.executable, "headtable.py", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    page = f"http://127.0.0.1:{port}/public/nights/{night}/"
    try:
        deadline = time.monotonic() + 120
        while answers(page) != 200 or worker_of(run.pid) is None:
            assert time.monotonic() < deadline and run.poll() is None, (tmp_path / "run.log").read_text()[-2000:]
            time.sleep(0.5)
        # The night's files are the laptop user's alone (#22, item 4).
        assert tmp_path.stat().st_mode & 0o777 == 0o700
        files = [path for path in tmp_path.rglob("*") if path.is_file() and path.name != "run.log"]
        open_to_others = [path.name for path in files if path.stat().st_mode & 0o077]
        assert files and not open_to_others
        worker = worker_of(run.pid)
        os.killpg(worker, signal.SIGKILL)  # the worker dies without warning, every process of it
        seen, again = [], None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seen.append(answers(page))
            again = worker_of(run.pid)
            if again is not None and again != worker:
                break
            time.sleep(0.2)
        assert again is not None and again != worker, (tmp_path / "run.log").read_text()[-2000:]
        assert set(seen) == {200}  # the public page answered all the while
        assert "the worker stopped on its own" in (tmp_path / "run.log").read_text()
        assert "\tworker\t-9\n" in (tmp_path / "restarts.log").read_text()  # for the organizer's page
        # A server process killed: granian starts another, and the page still answers.
        server_processes = [pid for pid, line in descendants(run.pid).items() if "granian" in line]
        os.kill(max(server_processes), signal.SIGKILL)
        time.sleep(1)
        assert answers(page) == 200
    finally:
        everyone = set(descendants(run.pid))
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=40)
        log.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in everyone):
        time.sleep(0.2)
    left = [pid for pid in everyone if Path(f"/proc/{pid}").exists()]
    assert not left, "processes left behind after the night was stopped"
    assert answers(page) == 0  # nothing answers on the port any more


def _started(env, port: int, night: str, log) -> tuple[subprocess.Popen, set[int]]:
    run = subprocess.Popen([sys.executable, "headtable.py", "run"], cwd=ROOT, env=env, stdout=log, stderr=log)
    page = f"http://127.0.0.1:{port}/public/nights/{night}/"
    deadline = time.monotonic() + 120
    while answers(page) != 200 or worker_of(run.pid) is None:
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.5)
    return run, set(descendants(run.pid))


def _all_gone(pids: set[int], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
        time.sleep(0.2)
    return not any(Path(f"/proc/{pid}").exists() for pid in pids)


def test_closing_the_window_or_killing_the_run_command_leaves_no_server_behind(tmp_path):
    # Closing the terminal sends the run command SIGHUP, which its children (in groups of their own) never hear;
    # SIGKILL gives it no chance to stop them at all. Either way the next start must find the port free.
    env = isolated_env(tmp_path, "headtable_orphans")
    night = django_shell(env, SETUP).split()[-1]
    port = free_port()
    env = {**env, "PORT": str(port), "HEADTABLE_ORGANIZER_PASSWORD": "not-printed-here", "PYTHONUNBUFFERED": "1"}
    with (tmp_path / "run.log").open("w") as log:
        for how in (signal.SIGHUP, signal.SIGKILL):
            run, children = _started(env, port, night, log)
            assert children
            run.send_signal(how)
            run.wait(timeout=40)
            assert _all_gone(children), f"processes left after {how.name}"
            assert answers(f"http://127.0.0.1:{port}/public/nights/{night}/") == 0


STUBBORN = (
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(300)"
)


@contextlib.contextmanager
def _stubborn_and_watchdog(grace: float):
    """A process group of its own that ignores SIGTERM (ready), and a run command's watchdog with `grace` seconds,
    both killed afterwards whatever the test did."""
    stubborn = subprocess.Popen(
        [sys.executable, "-c", STUBBORN], start_new_session=True, stdout=subprocess.PIPE, text=True
    )
    watchdog = subprocess.Popen([sys.executable, "headtable.py", "_watch", str(grace)], cwd=ROOT, stdin=subprocess.PIPE)
    try:
        assert stubborn.stdout.readline() == "ready\n"
        yield stubborn, watchdog
    finally:
        for process in (stubborn, watchdog):
            if process.poll() is None:
                process.kill()
                process.wait()


def test_when_the_run_command_is_gone_its_watchdog_kills_a_process_that_will_not_stop():
    # A server or worker whose stop hangs after the run command was killed outright (SIGTERM heard and ignored, as
    # a worker stuck in its warm shutdown): the watchdog, told its group, stops it once its own input ends.
    with _stubborn_and_watchdog(1.5) as (stubborn, watchdog):
        watchdog.stdin.write(f"+{stubborn.pid}\n".encode())
        watchdog.stdin.flush()
        time.sleep(1)
        assert stubborn.poll() is None and watchdog.poll() is None  # nothing happens while the run command is there
        started = time.monotonic()
        watchdog.stdin.close()  # as when the run command is killed: its end of the pipe closes
        assert stubborn.wait(timeout=20) == -signal.SIGKILL  # SIGTERM was ignored: killed after the grace
        assert time.monotonic() - started >= 1.5
        assert watchdog.wait(timeout=10) == 0


def test_the_watchdog_of_a_run_command_that_stopped_cleanly_leaves_alone_a_group_it_was_told_to_forget():
    # After a restart the run command tells the watchdog to forget the old group (its number may be reused).
    with _stubborn_and_watchdog(0.5) as (other, watchdog):
        watchdog.communicate(f"+{other.pid}\n-{other.pid}\n".encode(), timeout=10)
        assert watchdog.returncode == 0
        time.sleep(1)
        assert other.poll() is None
