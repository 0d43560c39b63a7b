"""The venue's rate-limit counters (config/counters.py): every count from every process arrives (#34, item 5).

Processes counting one bucket at the same moment, as the server's processes do when phones reconnect: the bucket
ends at the number of counts sent, and no two counts were given the same number (Django's file cache, an add and an
incr, gave 2,088 of 8,000 in bench/counters.py; each process's memory, the old venue set-up, gave each its own).
"""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from config.counters import CounterCache

PROCESSES, COUNTS = 4, 300


def _count(path: str, start, results) -> None:
    counters = CounterCache(path, {})
    start.wait()
    results.put([counters.count("signup:1:10.0.0.7") for _ in range(COUNTS)])


def test_counts_from_several_processes_at_once_all_arrive(tmp_path):
    path = str(tmp_path / "limits.sqlite3")
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(PROCESSES), context.Queue()
    workers = [context.Process(target=_count, args=(path, start, results)) for _ in range(PROCESSES)]
    for worker in workers:
        worker.start()
    seen = [n for _ in workers for n in results.get(timeout=120)]
    for worker in workers:
        worker.join()
    assert sorted(seen) == list(range(1, PROCESSES * COUNTS + 1))
    assert CounterCache(path, {}).get("signup:1:10.0.0.7") == PROCESSES * COUNTS


def test_a_bucket_whose_time_is_up_starts_again_and_others_are_apart(tmp_path):
    counters = CounterCache(str(tmp_path / "limits.sqlite3"), {})
    assert [counters.count("table-link:1") for _ in range(3)] == [1, 2, 3]
    assert counters.count("table-link:2") == 1
    assert counters.count("table-poll:1", timeout=0) == 1  # a bucket that lasts no time at all
    assert counters.count("table-poll:1", timeout=0) == 1
    assert counters.get("table-link:1") == 3


def test_the_counters_answer_djangos_cache_calls(tmp_path):
    counters = CounterCache(str(tmp_path / "limits.sqlite3"), {"KEY_PREFIX": "limits"})
    assert counters.get("missing", 7) == 7
    assert counters.add("a", 5, timeout=60) and not counters.add("a", 9, timeout=60)
    assert counters.incr("a") == 6 and counters.incr("a", 4) == 10
    with pytest.raises(ValueError):
        counters.incr("missing")
    counters.set("b", 2, timeout=None)
    assert counters.has_key("b") and counters.touch("b", timeout=60) and counters.delete("b")
    assert not counters.has_key("b")
    with pytest.raises(TypeError):
        counters.set("c", "text")
    counters.set("c", 1, timeout=0)  # gone at once, as in Django's caches
    assert counters.get("c") is None and counters.add("c", 3) and counters.get("c") == 3
    counters.clear()
    assert counters.get("a") is None


class _LockedAtFirst:
    """A connection whose first `times` set-up statements meet another process's lock, as a file being switched to
    WAL by another process at the same moment answers (SQLite's busy wait not tried)."""

    def __init__(self, real, refusals: list[str]):
        self.real, self.refusals = real, refusals

    def execute(self, sql, *params):
        if self.refusals:
            raise sqlite3.OperationalError(self.refusals.pop(0))
        return self.real.execute(sql, *params)

    def close(self):
        self.real.close()


def test_a_counters_file_locked_while_it_is_set_up_is_tried_again_and_another_error_is_said(tmp_path, monkeypatch):
    import config.counters as module

    real_connect = sqlite3.connect
    refusals = ["database is locked", "database is locked"]
    monkeypatch.setattr(module.sqlite3, "connect", lambda *a, **k: _LockedAtFirst(real_connect(*a, **k), refusals))
    counters = CounterCache(str(tmp_path / "limits.sqlite3"), {})
    assert counters.count("signup:1:10.0.0.7") == 1  # the first request's count, after two locked tries
    assert not refusals
    refusals.append("disk I/O error")  # not a lock: said at once, not tried again
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        CounterCache(str(tmp_path / "other.sqlite3"), {}).count("signup:1:10.0.0.7")
