"""Loaded before Django's settings (`-p tests.backends` in pyproject.toml): what each test process is given.

Under pytest-xdist every worker process gets what the tests may not share with another running beside it: Redis
databases of its own for the cache and the broker (a test's cache clear empties a whole Redis database) and a
`var/` folder of its own (the filesystem broker, built files). Its test database is pytest-django's own
(`test_headtable_gw0`, …), and tests.processes names its extra databases after the worker too.

Hypothesis reads its profile from HYPOTHESIS_PROFILE: "quick" by default (a developer's loop), "thorough" for the
test command and CI.
"""

from __future__ import annotations

import os
from pathlib import Path

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
