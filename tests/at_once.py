"""Two requests at the same moment, from threads, each on its own connection to the test database.

For PostgreSQL's pass only (mark the test `postgres`): the first pass's test database is SQLite in memory with a
shared cache, whose table locks refuse a second writer at once (no waiting), which no venue has: the venue's SQLite
file takes its writers in turn, and tests/test_shared_limits.py sends forty at once to the run command's server.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def twice_at_once(send: Callable[[], T]) -> list[T]:
    """`send()` from two threads released at the same moment; their answers, in the order they came."""
    start, answers = threading.Barrier(2), []

    def one() -> None:
        try:
            start.wait()
            answers.append(send())
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
