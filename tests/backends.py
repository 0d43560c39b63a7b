"""Loaded before Django's settings (`-p tests.backends` in pyproject.toml): what each test process is given.

Under pytest-xdist every worker process gets what the tests may not share with another running beside it: Redis
databases of its own for the cache and the broker (a test's cache clear empties a whole Redis database) and a
`var/` folder of its own (the filesystem broker, built files). Its test database is pytest-django's own
(`test_headtable_gw0`, …), and tests.processes names its extra databases after the worker too.

Hypothesis reads its profile from HYPOTHESIS_PROFILE: "quick" by default (a developer's loop), "thorough" for the
test command and CI.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]


def worker_index() -> int:
    """0 for the first xdist worker (and for a run without xdist), 1 for the second, and so on."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def worker_suffix() -> str:
    """A name's ending that keeps one worker's database apart from another's ("" without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"_{worker}" if worker else ""


def _own_redis_database(variable: str) -> None:
    """Move redis://host/N down by two databases a worker: the broker on 15, 13, 11…, the cache on 14, 12, 10…"""
    url = os.environ.get(variable, "")
    if not url.startswith("redis://") or not worker_index():
        return
    base, _, number = url.rpartition("/")
    own = int(number or 0) - 2 * worker_index()
    if own < 0:
        raise RuntimeError(f"{variable}: too many test workers for Redis's 16 databases")
    os.environ[variable] = f"{base}/{own}"


# The hall's clock, pinned: the venue's default is the laptop's own zone (config.settings.hall_zone), and the
# stored pages and sheets the tests compare carry the times of the evening they were made in, in Toronto.
os.environ["TIME_ZONE"] = "America/Toronto"

if os.environ.get("PYTEST_XDIST_WORKER"):
    for _variable in ("CELERY_BROKER_URL", "CACHE_URL"):
        _own_redis_database(_variable)
    os.environ.setdefault("HEADTABLE_VAR_DIR", str(ROOT / "var" / "tests" / os.environ["PYTEST_XDIST_WORKER"]))

# The same properties at two depths: "thorough" asks at least as many examples of each property as any of them ever
# asked for on its own (300), "quick" enough to catch a plain mistake in seconds.
settings.register_profile("thorough", max_examples=300, deadline=None, print_blob=True)
settings.register_profile(
    "quick", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


# Seconds a long test takes, roughly, by its marks, where tests/durations.json does not say (the browser tests; the
# separate processes and the whole nights).
LONG = {"e2e": 13, "venue": 15, "backend": 12, "postgres": 10, "slow": 6}
# Seconds each of the longest tests took in a run of the first pass (rewrite it with `python3 tests/durations.py`
# from a run's `--durations=0` output when the long tests change; a test missing from it is weighed by its marks).
DURATIONS: dict[str, float] = json.loads((ROOT / "tests" / "durations.json").read_text(encoding="utf-8"))
# Test processes that drive a browser: one with two processes, up to three with more (one process is always left
# to the other tests; each browser test shares its process with nothing, its pages' polls with two browsers at most).
BROWSERS = 3


def weight(item: pytest.Item) -> float:
    seconds = DURATIONS.get(item.nodeid.split("[")[0] if item.nodeid not in DURATIONS else item.nodeid)
    if seconds is not None:
        return seconds
    return max((LONG[mark] for mark in LONG if item.get_closest_marker(mark)), default=0)


@pytest.hookimpl(trylast=True)  # after -m has deselected what this pass leaves out, and after conftest's marks
def pytest_collection_modifyitems(config, items):
    """Order the tests for pytest-xdist's worksteal, which gives each test process one run of the list in order
    (the first N/k tests to one, the next to another) and then lets an idle process take the back half of a busy
    one's queue. The long tests are dealt out longest first to the process with the least to do, so no process is
    left with a chain of them at the end; the browser tests go to all but one of the processes, three at most (the
    first of two: their pages' polls are timed, and a browser in every process would slow them all), the rest of
    the long tests to whichever has least. Each run then takes short tests up to its share. Without xdist the order
    is the usual one."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2 or len(items) < workers:
        return
    browsers = range(1 if workers < 3 else min(BROWSERS, workers - 1))
    runs: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    long, short = [], []
    for item in items:
        (long if weight(item) else short).append(item)
    for item in sorted(long, key=weight, reverse=True):
        choices = browsers if item.get_closest_marker("e2e") else range(workers)
        run = min(choices, key=lambda k: (load[k], k))
        runs[run].append(item)
        load[run] += weight(item)
    # worksteal hands out len(pending) // (processes left) tests to each process in turn.
    left = len(items)
    for k, run in enumerate(runs):
        size = left // (workers - k)
        left -= size
        take = max(0, size - len(run))
        run.extend(short[:take])
        del short[:take]
    runs[-1].extend(short)
    items[:] = [item for run in runs for item in run]
