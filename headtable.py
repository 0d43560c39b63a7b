#!/usr/bin/env python3
"""Head Table's two commands: `python3 headtable.py run` runs the night, `python3 headtable.py test` runs the tests.

Standard library only, so it works on a fresh machine with nothing but Python 3.11+. Both commands are idempotent:
the virtualenv is made once and reinstalled only when a requirements file changes.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VAR = ROOT / "var"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")


def say(message: str) -> None:
    print(f"[headtable] {message}", flush=True)


def ensure_venv(requirements: str) -> None:
    """Create .venv and install `requirements` unless the same files were installed already."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script must speak up on an older Python
        sys.exit("Head Table needs Python 3.11 or newer.")
    if not PY.exists():
        say("creating the virtualenv in .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256()
    for name in sorted(["requirements.txt", requirements]):
        digest.update((ROOT / name).read_bytes())
    stamp = VENV / f".installed-{Path(requirements).stem}"
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return
    say(f"installing {requirements}")
    pip = [str(PY), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    wheelhouse = ROOT / "wheels"
    if wheelhouse.is_dir():  # an offline laptop: install only from the bundled wheels
        pip += ["--no-index", "--find-links", str(wheelhouse)]
    subprocess.run([*pip, "-r", str(ROOT / requirements)], check=True, cwd=ROOT)
    stamp.write_text(digest.hexdigest())


def manage(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([str(PY), "manage.py", *args], check=True, cwd=ROOT, env=env)


def server_command(python: Path | str, port: str, host: str = "0.0.0.0") -> list[str]:
    """The web server as the run command starts it (the polling benchmark starts the same)."""
    return [
        *[str(python), "-m", "waitress", f"--listen={host}:{port}", "--threads=8"],
        # A hall of phones polling: room for many short connections at once.
        *["--connection-limit=1000", "--channel-timeout=30", "config.wsgi:application"],
    ]


def worker_command(python: Path | str, var: Path = VAR) -> list[str]:
    """The Celery worker with beat inside it, as the run command starts it (the worker test starts the same).

    One worker with the solo pool: SQLite and the filesystem broker want a single writer, and the laptop keeps its
    other core for the web server. Beat runs in the same process and checks the rounds' clocks every few seconds.
    """
    return [
        *[str(python), "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        *["--beat", f"--schedule={var / 'celerybeat-schedule'}"],
        # The filesystem broker has no broadcast: skip the worker-to-worker chatter that needs it.
        *["--without-gossip", "--without-mingle", "--without-heartbeat", "--hostname=headtable@%h"],
    ]


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run() -> int:
    # Ctrl-C and a plain `kill` both stop the night cleanly, even when started from a script that ignores SIGINT.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    ensure_venv("requirements.txt")
    VAR.mkdir(exist_ok=True)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.setdefault("DJANGO_DEBUG", "0")
    manage("migrate", "--no-input", env=env)
    manage("collectstatic", "--no-input", "-v", "0", env=env)
    manage("ensure_organizer", env=env)
    port = env.get("PORT", "8000")
    children = [
        subprocess.Popen(server_command(PY, port), cwd=ROOT, env=env),
        subprocess.Popen(worker_command(PY), cwd=ROOT, env=env),
    ]
    manage("show_addresses", "--port", port, env=env)
    say("press Ctrl-C to stop the night's server and worker")
    try:
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        say("a process stopped on its own; stopping the rest")
    except KeyboardInterrupt:
        say("stopping")
    for child in children:
        if child.poll() is None:
            child.terminate()  # the worker finishes its task first (warm shutdown); the server just stops
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
    return 0


def test(pytest_args: list[str]) -> int:
    ensure_venv("requirements-dev.txt")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for step in (["ruff", "check", "."], ["ruff", "format", "--check", "."]):
        say(" ".join(step))
        if subprocess.run([str(PY), "-m", *step], cwd=ROOT, env=env).returncode:
            say("style check failed: run `.venv/bin/ruff format .` and `.venv/bin/ruff check --fix .`")
            return 1
    say("pytest " + " ".join(pytest_args))
    return subprocess.run([str(PY), "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    if command == "run":
        return run()
    if command == "test":
        return test(argv[1:])
    print(__doc__)
    print("usage: python3 headtable.py run | test [pytest arguments]")
    return 0 if command in {"help", "-h", "--help"} else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
