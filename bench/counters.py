"""The venue's shared rate-limit counter, chosen on measurement: what one count costs, and whether counts from
several processes at once all arrive.

Run from the project root:
    .venv/bin/python bench/counters.py                       # 4 processes x 2,000 counts of one bucket
    .venv/bin/python bench/counters.py --processes 2 --counts 5000

Candidates, each counting one bucket (a minute's budget) from every process at the same moment:
- "memory": Django's local-memory cache, each process its own (the old venue set-up: the baseline, not shared);
- "sqlite": config/counters.py, a SQLite file of its own, one UPSERT a count (WAL, never synced);
- "file": Django's FileBasedCache, add() then incr() (incr reads the file, then writes it again);
- "shared memory": one 8-byte counter in a memory-mapped file under an exclusive file lock (fcntl, so not on
  Windows), the floor of what shared memory could cost; keyed buckets would need a hash table on top.

For each: the microseconds one count takes in one process alone, then every process counting at once, the bucket's
total at the end against the counts sent, and how many counts were given a number another count was also given.
"""

from __future__ import annotations

import argparse
import mmap
import multiprocessing
import os
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _settings() -> None:
    from django.conf import settings

    if not settings.configured:
        settings.configure(CACHES={}, USE_TZ=True)


def counter(kind: str, where: str):
    """A function that counts one more in the bucket and returns the bucket's count."""
    _settings()
    if kind == "memory":
        from django.core.cache.backends.locmem import LocMemCache

        cache = LocMemCache("bench", {})

        def add_incr():
            cache.add("bucket", 0, 60)
            return cache.incr("bucket")

        return add_incr
    if kind == "sqlite":
        from config.counters import CounterCache

        counters = CounterCache(str(Path(where) / "limits.sqlite3"), {})
        return lambda: counters.count("bucket", 60)
    if kind == "file":
        from django.core.cache.backends.filebased import FileBasedCache

        files = FileBasedCache(str(Path(where) / "files"), {})

        def file_add_incr():
            files.add("bucket", 0, 60)
            return files.incr("bucket")

        return file_add_incr
    import fcntl

    path = Path(where) / "shared"
    with open(path, "ab") as f:
        if f.tell() < 8:
            f.write(b"\0" * 8)
    handle = open(path, "r+b")  # noqa: SIM115 (kept open for the process's life)
    shared = mmap.mmap(handle.fileno(), 8)

    def locked_add():
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            value = struct.unpack_from("q", shared)[0] + 1
            struct.pack_into("q", shared, 0, value)
            return value
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)

    return locked_add


def _alone(kind: str, where: str, counts: int) -> float:
    count = counter(kind, where)
    count()  # opened
    started = time.perf_counter()
    for _ in range(counts):
        count()
    return (time.perf_counter() - started) / counts * 1e6


def _worker(kind: str, where: str, counts: int, start, results) -> None:
    count = counter(kind, where)
    count()  # opened (this first count is in the total too)
    start.wait()
    began = time.perf_counter()
    seen = [count() for _ in range(counts - 1)]
    results.put((seen, time.perf_counter() - began))


def together(kind: str, processes: int, counts: int) -> tuple[int, int, int, float]:
    """(the bucket's count at the end, counts sent, numbers given twice, microseconds a count under contention)."""
    where = tempfile.mkdtemp()
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(processes), context.Queue()
    workers = [context.Process(target=_worker, args=(kind, where, counts, start, results)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    got = [results.get() for _ in workers]
    for worker in workers:
        worker.join()
    seen = [n for numbers, _ in got for n in numbers]
    final = counter(kind, where)() - 1  # one more, to read it
    each = statistics.median(seconds / (counts - 1) * 1e6 for _, seconds in got)
    return final, processes * counts, len(seen) - len(set(seen)), each


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--counts", type=int, default=2000)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.processes} processes x {args.counts} counts of one bucket")
    print(f"{'counter':<14} {'alone µs':>9} {'together µs':>12} {'total / sent':>16} {'numbers given twice':>20}")
    for kind in ("memory", "sqlite", "file", "shared memory"):
        alone = _alone(kind, tempfile.mkdtemp(), args.counts)
        final, sent, twice, each = together(kind, args.processes, args.counts)
        print(f"{kind:<14} {alone:9.1f} {each:12.1f} {f'{final:,} / {sent:,}':>16} {twice:>20,}")


if __name__ == "__main__":
    main()
