#!/usr/bin/env python3
"""Head Table's two commands: `python3 headtable.py run` runs the night, `python3 headtable.py test` runs the tests.

Standard library only, so it works on a fresh machine with nothing but Python 3.11+. Both commands are idempotent:
the virtualenv is made once and reinstalled only when a requirements file changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime as dt
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
NODE_MODULES = ROOT / "node_modules"
VAR = ROOT / "var"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")


def say(message: str) -> None:
    print(f"[headtable] {message}", flush=True)


def ensure_venv(requirements: str, *, quick: bool = False) -> None:
    """Create .venv and install `requirements` unless the same files were installed already (`quick`: with uv)."""
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
    elif quick and _uv_install(pip, requirements):
        stamp.write_text(digest.hexdigest())
        return
    subprocess.run([*pip, "-r", str(ROOT / requirements)], check=True, cwd=ROOT)
    stamp.write_text(digest.hexdigest())


# uv installs the same pinned requirements as pip in a quarter of the time (5 s against 21 s for the test tools, on
# this project's machine): the test command, run after every change and by CI from a fresh clone, uses it. Pinned;
# where it cannot be had or fails, pip does the install as before. The run command keeps pip and the wheelhouse.
UV = "uv==0.13.9"


def _uv_install(pip: list[str], requirements: str) -> bool:
    quiet = {"cwd": ROOT, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    if subprocess.run([*pip, UV], **quiet).returncode:
        return False
    install = [str(PY), "-m", "uv", "pip", "install", "--python", str(PY), "--compile-bytecode", "-q"]
    if subprocess.run([*install, "-r", str(ROOT / requirements)], cwd=ROOT).returncode:
        say("uv could not install them: pip does")
        return False
    return True


def manage(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([str(PY), "manage.py", *args], check=True, cwd=ROOT, env=env)


def server_workers() -> int:
    """Web server processes: one a core, two at least (a slow page in one leaves the other free), four at most (each
    keeps its own reading of the night, and SQLite takes one writer at a time)."""
    return max(2, min(4, os.cpu_count() or 2))


def more_open_files(wanted: int = 16384) -> None:
    """Raise this process's limit of open files (and so its children's) toward `wanted`: each phone's connection is
    one, and a laptop's usual limit (1,024 on Linux, 256 on macOS) is below a full hall's. Windows has no such
    limit to raise."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def server_threads() -> int:
    """Threads a server process answers with (HEADTABLE_WEB_THREADS): a slow request (a printed sheet) leaves the rest
    of the hall served, and few enough that a score is not starved of Python's lock by the polls beside it."""
    return int(os.environ.get("HEADTABLE_WEB_THREADS", "8"))


def server_command(python: Path | str, port: str, host: str = "0.0.0.0") -> list[str]:
    """The web server as the run command starts it (the benchmarks and the fault tests start the same).

    Granian: its HTTP side is compiled (Rust) and runs outside Python's global lock, and it serves from several
    processes, so a laptop's every core answers the hall; it runs the same on Windows, macOS and Linux. Measured
    against waitress in bench/full_room.py (README): a full room's polls 4 ms against seconds.
    """
    return [
        *[str(python), "-m", "granian", "--interface", "wsgi", "--host", host, "--port", str(port)],
        *["--workers", str(server_workers()), "--blocking-threads", str(server_threads()), "--respawn-failed-workers"],
        # A phone sends its request at once: a connection that has not sent its headers in 5 s is closed, and the
        # queue has room for a hall's idle and slow connections (bench/idle_connections.py).
        *["--http1-header-read-timeout", "5000", "--backlog", "4096", "--backpressure", "2048"],
        # Errors only: granian warns of eight threads on two cores, a choice measured in bench/full_room.py.
        *["--no-access-log", "--log-level", "error", "config.wsgi:application"],
    ]


def worker_command(python: Path | str, var: Path = VAR) -> list[str]:
    """The Celery worker with beat inside it, as the run command starts it (the worker test starts the same).

    One worker with the solo pool: SQLite and the filesystem broker want a single writer, and the laptop keeps its
    other core for the web server. Beat runs in the same process and checks the rounds' clocks every few seconds.
    """
    return [
        # Quiet (no start-up banner) and warnings only (not a line for every tick): the run command's own lines,
        # the address to open and the organizer's password, stay on the laptop's screen.
        *[str(python), "-m", "celery", "--quiet", "-A", "config", "worker", "--pool=solo", "--loglevel=WARNING"],
        *["--beat", f"--schedule={var / 'celerybeat-schedule'}"],
        # The filesystem broker has no broadcast: skip the worker-to-worker chatter that needs it.
        *["--without-gossip", "--without-mingle", "--without-heartbeat", "--hostname=headtable@%h"],
    ]


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run() -> int:
    # Ctrl-C, a plain `kill` and closing the terminal window (SIGHUP) all stop the night cleanly, even when started
    # from a script that ignores SIGINT; the children, in process groups of their own, would not hear the hang-up.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, _interrupt)
    ensure_venv("requirements.txt")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    var = Path(env.get("HEADTABLE_VAR_DIR", VAR))  # the night's files, beat's schedule included
    var.mkdir(parents=True, exist_ok=True)
    keep_private(var)
    env.setdefault("DJANGO_DEBUG", "0")
    manage("migrate", "--no-input", env=env)
    manage("collectstatic", "--no-input", "-v", "0", env=env)
    manage("ensure_organizer", env=env)
    keep_private(var)  # again: what the steps above wrote, the collected static files among them
    port = env.get("PORT", "8000")
    more_open_files()
    commands = {"web server": server_command(PY, port), "worker": worker_command(PY, var)}
    watchdog = _watchdog()
    children = {name: _start(command, env, watchdog) for name, command in commands.items()}
    manage("show_addresses", "--port", port, env=env)
    say("press Ctrl-C to stop the night's server and worker")
    restarts: list[float] = []
    try:
        while True:
            time.sleep(0.5)
            for name, child in children.items():
                if child.poll() is None:
                    continue
                # A process that died (a crash, the laptop out of memory) is started again: the phones keep the
                # site and the bell catches up. One that keeps dying is given up on, and everything stops.
                restarts = [moment for moment in restarts if moment > time.monotonic() - 60] + [time.monotonic()]
                if len(restarts) > 5:
                    raise RuntimeError(f"the {name} keeps stopping")
                say(f"the {name} stopped on its own (exit code {child.returncode}); starting it again")
                note_restart(var, name, child.returncode)
                _stop(child)  # what is left of it (a server's other processes)
                _tell(watchdog, f"-{child.pid}")
                children[name] = _start(commands[name], env, watchdog)
    except KeyboardInterrupt:
        say("stopping")
    except RuntimeError as error:
        say(f"{error}: stopping the night's processes")
    for child in children.values():
        _stop(child)  # the worker finishes its task first (warm shutdown); the server just stops
    deadline = time.monotonic() + STOP_SECONDS
    for child in children.values():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _stop(child, kill=True)
    return 0


# Each time the run command starts a process again, one line here (the time, what, its exit code): the organizer's
# page shows the last hours' (tournament.selectors.supervision reads it).
RESTARTS = "restarts.log"


def note_restart(var: Path, name: str, code: int | None) -> None:
    moment = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    path = var / RESTARTS
    with path.open("a+b") as log:
        cut = False
        if log.tell() > 0:  # the last line whole? A power cut may have left half of one
            log.seek(-1, os.SEEK_END)
            cut = log.read(1) != b"\n"
        log.write(("\n" if cut else "").encode() + f"{moment}\t{name}\t{code}\n".encode())


def keep_private(var: Path) -> None:
    """The night's files are the laptop user's alone: the database holds the live session keys and the organizer's
    password file. `var/` and its folders 0700, its files 0600, and whatever the night writes from now on too."""
    if os.name == "nt":
        return  # Windows keeps a user's files to the user by default
    os.umask(0o077)
    var.chmod(0o700)
    for path in var.rglob("*"):
        if path.is_symlink():
            continue
        path.chmod(0o700 if path.is_dir() else 0o600)


def _end_with_parent() -> None:
    """In the child, before it runs (Linux): if the run command itself is killed outright (SIGKILL, out of memory),
    the child is sent SIGTERM, so no server is left holding the port for the next start."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _start(command: list[str], env: dict[str, str], watchdog: subprocess.Popen | None = None) -> subprocess.Popen:
    """A child in a process group of its own (POSIX), so that its own processes (the server's workers) stop with it;
    the watchdog is told its group."""
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        start_new_session=os.name != "nt",
        preexec_fn=_end_with_parent if sys.platform.startswith("linux") else None,
    )
    _tell(watchdog, f"+{child.pid}")
    return child


# How long the night's processes are given to stop by themselves (a print job to finish) before they are killed:
# by the run command when it stops, by its watchdog when the run command itself was killed.
STOP_SECONDS = 15.0


def _watchdog() -> subprocess.Popen | None:
    """A small process that outlives the run command by a few seconds (POSIX): when the run command is killed
    outright (SIGKILL, out of memory), its children are sent SIGTERM (`_end_with_parent`), and a server or a worker
    whose own stop then hangs (seen under load: every process still there 30 s later) would keep the port from the
    next start. The watchdog is told each child's process group on its standard input; when that input ends (the
    run command is gone, however it went) it stops whatever of those groups is left: SIGTERM, then SIGKILL after
    STOP_SECONDS seconds. After a clean stop nothing is left and it ends at once."""
    if os.name == "nt":
        return None  # Windows ends a console's processes with it
    command = [sys.executable, str(Path(__file__).resolve()), "_watch", str(STOP_SECONDS)]
    # close_fds (the default) keeps the children from holding the pipe open: only the run command's end counts.
    return subprocess.Popen(command, stdin=subprocess.PIPE, cwd=ROOT)


def _tell(watchdog: subprocess.Popen | None, line: str) -> None:
    if watchdog is None or watchdog.stdin is None:
        return
    with contextlib.suppress(OSError):  # a watchdog that is gone cannot be told; the night goes on without it
        watchdog.stdin.write(f"{line}\n".encode())
        watchdog.stdin.flush()


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch(grace: float) -> int:
    """The watchdog's own loop (`_watchdog`): "+pid" and "-pid" lines name the process groups to look after, until
    the input ends; then what is left of them is stopped, killed if it has not stopped within `grace` seconds."""
    for name in ("SIGINT", "SIGHUP"):  # Ctrl-C or a closed window is the run command's to handle, not ours
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    groups: set[int] = set()
    for line in sys.stdin:
        with contextlib.suppress(ValueError):
            pid = int(line[1:])
            if line.startswith("+"):
                groups.add(pid)
            elif line.startswith("-"):
                groups.discard(pid)
    left = [group for group in groups if _group_alive(group)]
    for group in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = [group for group in left if _group_alive(group)]
    for group in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    return 0


def _stop(child: subprocess.Popen, *, kill: bool = False) -> None:
    if os.name == "nt":
        if kill:
            child.kill()
        else:
            child.terminate()
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL if kill else signal.SIGTERM)


POSTGRES = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
# How this project's Debian machines start the servers when they are not running (CI starts them itself).
START = {
    POSTGRES: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    REDIS: "redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no",
}


def _listening(address: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(address, timeout=1):
            return True
    except OSError:
        return False


def _ensure_server(address: tuple[str, int]) -> bool:
    if _listening(address):
        return True
    if os.name == "nt":
        return False
    say(f"starting the server for {address[0]}:{address[1]}")
    subprocess.run(START[address], shell=True, check=False)
    for _ in range(20):
        if _listening(address):
            return True
        time.sleep(0.5)
    return False


def _ensure_chromium() -> bool:
    """Debian's Chromium for the browser tests, installed from the distribution when missing."""
    if shutil.which("chromium"):
        return True
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        say("installing Debian's chromium for the browser tests (waiting up to 10 minutes if another install runs)")
        # Another install holding Debian's package lock is waited for, not failed on (apt's own bounded wait).
        wait = "-o DPkg::Lock::Timeout=600"
        subprocess.run(f"apt-get {wait} update -qq && apt-get {wait} install -y -qq chromium", shell=True, check=False)
    return bool(shutil.which("chromium"))


def ensure_node_modules() -> bool:
    """node_modules/ as package-lock.json pins it (axe-core, the browser tests' accessibility checks), installed with
    `npm ci` unless the same package files were installed already. False when it could not be: no npm here, or npm
    failed (an offline laptop with nothing in npm's cache)."""
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        digest.update((ROOT / name).read_bytes())
    stamp = NODE_MODULES / ".installed-headtable"  # inside node_modules/: `npm ci` starts it afresh, stamp and all
    if stamp.exists() and stamp.read_text() == digest.hexdigest():
        return True
    npm = shutil.which("npm")
    if npm is None:
        return False
    say("installing package-lock.json into node_modules (npm ci)")
    quiet = ["--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]
    if subprocess.run([npm, "ci", *quiet], cwd=ROOT).returncode:
        return False
    stamp.write_text(digest.hexdigest())
    return True


# The app's own code (beside the tests, which pytest compiles itself).
APP_PACKAGES = ("config", "tournament", "scoring")

# Which tests each pass runs (the markers are set in tests/conftest.py; the README's "The tests" says why).
FIRST_PASS = "not postgres"
SECOND_PASS = "not e2e and not once"
# --quick: the pure and the database tests of the first pass, without the browser and the separate processes.
QUICK = "not postgres and not e2e and not venue and not backend"


def test_workers() -> int:
    """Test processes side by side (pytest-xdist): two a core, or HEADTABLE_TEST_WORKERS; eight at most, as each
    takes two of Redis's sixteen databases in the second pass (tests/backends.py). Two a core, since many tests
    spend much of their time waiting (a browser's polls, a server or a worker starting, a timer's bell) while
    another process can use the core."""
    return min(8, int(os.environ.get("HEADTABLE_TEST_WORKERS", str(2 * (os.cpu_count() or 1)))))


def pytest_command(marks: str, pytest_args: list[str]) -> list[str]:
    workers = test_workers()
    spread = ["-n", str(workers), "--dist", "worksteal"] if workers > 1 else ["-p", "no:xdist"]
    return [str(PY), "-m", "pytest", "-q", *spread, "-m", marks, *pytest_args]


def _compile_ahead(env: dict[str, str]) -> subprocess.Popen:
    """In a process beside the style checks (`compile_ahead`), so that the test processes find it done: the app
    compiled, the test modules collected (pytest keeps each with its asserts rewritten), and the database the tests'
    own servers start from migrated once (HEADTABLE_TEST_MIGRATED, tests/processes.py), not once a test process."""
    return subprocess.Popen([str(PY), str(ROOT / "headtable.py"), "_compile"], cwd=ROOT, env=env)


def compile_ahead() -> int:
    import compileall

    for package in APP_PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)
    quiet = {"cwd": ROOT, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    collect = subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q"], **quiet)
    migrated = Path(os.environ["HEADTABLE_TEST_MIGRATED"])
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{migrated}", "HEADTABLE_VAR_DIR": str(migrated.parent)}
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], env=env, **quiet)
    if migrate.returncode:  # each test process migrates its own then, as without this
        migrated.unlink(missing_ok=True)
    return collect.wait()


def _checks(env: dict[str, str]) -> bool:
    """Style, the layers and the one way imports go (pyproject.toml's contracts), then the type hints of the core."""
    for step in (["ruff", "check", "."], ["ruff", "format", "--check", "."]):
        say(" ".join(step))
        if subprocess.run([str(PY), "-m", *step], cwd=ROOT, env=env).returncode:
            say("style check failed: run `.venv/bin/ruff format .` and `.venv/bin/ruff check --fix .`")
            return False
    for label, step, failure in (
        ("lint-imports", [str(BIN / "lint-imports")], "an import breaks the layers: see the broken contract above"),
        ("mypy", [str(PY), "-m", "mypy"], "the type checks failed: see the errors above"),
    ):
        say(label)
        if subprocess.run(step, cwd=ROOT, env=env).returncode:
            say(failure)
            return False
    return True


def test(pytest_args: list[str]) -> int:
    """Style, then the suite twice: on the embedded default, and on PostgreSQL with Redis and a real worker.

    `--quick` runs the developer's loop instead: the first pass's pure and database tests, with hypothesis's quick
    profile."""
    quick = "--quick" in pytest_args
    pytest_args = [arg for arg in pytest_args if arg != "--quick"]
    ensure_venv("requirements-dev.txt", quick=True)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"):
        env.pop(name, None)
    env.setdefault("HYPOTHESIS_PROFILE", "quick" if quick else "thorough")
    # Compiled once, read by every process after: a machine that says not to write .pyc files had each test process
    # (and each server, worker and command a test starts) compile the app, and pytest rewrite every test module, again.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="headtable-test-") as scratch:
        env["HEADTABLE_TEST_MIGRATED"] = str(Path(scratch) / "migrated.sqlite3")
        compiled = _compile_ahead(env)
        try:
            if not _checks(env):
                return 1
        finally:
            compiled.wait()
        return _passes(env, quick, pytest_args)


def _passes(env: dict[str, str], quick: bool, pytest_args: list[str]) -> int:
    """The quick loop, or the two passes."""
    if quick:
        say(f"the quick loop: the first pass's pure and database tests ({test_workers()} processes)")
        return subprocess.run(pytest_command(QUICK, pytest_args), cwd=ROOT, env=env).returncode
    in_ci = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
    browser = _ensure_chromium()
    if not browser and in_ci:
        say("Chromium is needed for the browser tests and could not be installed")
        return 1
    marks = FIRST_PASS if browser else f"{FIRST_PASS} and not e2e"
    if not browser:
        say("no Chromium here: the browser tests are left out of this run")
    elif not ensure_node_modules():
        # The browser tests check every screen with axe-core (tests/e2e/axe.py); CI never skips that check.
        if in_ci:
            say("npm is needed to install axe-core for the browser tests' accessibility checks and could not")
            return 1
        say("no npm here (or `npm ci` failed): the browser tests run without their accessibility checks (axe-core)")
    say(f"pass 1 of 2: SQLite and the filesystem broker (the venue default), every test ({test_workers()} processes)")
    started = time.monotonic()
    first = subprocess.run(pytest_command(marks, pytest_args), cwd=ROOT, env=env).returncode
    say(f"pass 1 took {time.monotonic() - started:.0f} s")
    if first:
        return first
    servers = _ensure_server(POSTGRES) and _ensure_server(REDIS)
    if not servers:
        if in_ci:
            say("PostgreSQL and Redis are needed for the second pass and could not be started")
            return 1
        say("no PostgreSQL and Redis on this machine: the hosted pass is left out (CI always runs it)")
        return 0
    say("pass 2 of 2: PostgreSQL, Redis and a real Celery worker (the hosted set-up): the tests they can change")
    hosted = {
        **env,
        "DATABASE_URL": os.environ.get("HEADTABLE_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/headtable"),
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15",
        "CACHE_URL": "redis://127.0.0.1:6379/14",
    }
    started = time.monotonic()
    second = subprocess.run(pytest_command(SECOND_PASS, pytest_args), cwd=ROOT, env=hosted).returncode
    say(f"pass 2 took {time.monotonic() - started:.0f} s")
    return second


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    if command == "run":
        return run()
    if command == "test":
        return test(argv[1:])
    if command == "_compile":  # the test command's `_compile_ahead`, not a command for people
        return compile_ahead()
    if command == "_watch":  # the run command's watchdog (`_watchdog`), not a command for people
        return watch(float(argv[1]))
    print(__doc__)
    print("usage: python3 headtable.py run | test [--quick] [pytest arguments]")
    return 0 if command in {"help", "-h", "--help"} else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
