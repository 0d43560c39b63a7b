"""Requests counted a minute at a time in the "limits" cache, which every web process shares: the table links'
budgets, the public sign-up's, the door's walk-ins and check-ins (config/settings.py says where it is kept)."""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

WINDOW = 60  # seconds: a bucket's time, from its first request


def count(bucket: str) -> int:
    """One more request in a minute's bucket of the "limits" cache, and how many it holds now.

    At the venue the cache is a counters file every process opens, and its `count` is one statement. Hosted, each
    phone's poll of each table is counted in Redis: Django's add() and incr() are three round trips (incr asks
    whether the key exists first), this is one (a pipeline of SET NX EX and INCR, which any Redis answers). The
    value stays an integer that Django's own cache calls read back the same."""
    limits = caches["limits"]
    if isinstance(limits, RedisCache):
        key = limits.make_and_validate_key(bucket)
        pipe = limits._cache.get_client(key, write=True).pipeline(transaction=False)
        pipe.set(key, 0, ex=WINDOW, nx=True)
        pipe.incr(key)
        return pipe.execute()[1]
    if (counted := getattr(limits, "count", None)) is not None:
        return counted(bucket, timeout=WINDOW)
    limits.add(bucket, 0, timeout=WINDOW)  # a cache of another kind (a test's, a project's own): two calls
    return limits.incr(bucket)
