"""The venue's rate-limit counters (config/counters.py): every count from every process arrives (#34, item 5).

Processes counting one bucket at the same moment, as the server's processes do when phones reconnect: the bucket
ends at the number of counts sent, and no two counts were given the same number (Django's file cache, an add and an
incr, gave 2,088 of 8,000 in bench/counters.py; each process's memory, the old venue set-up, gave each its own).
"""

from __future__ import annotations

import multiprocessing

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
