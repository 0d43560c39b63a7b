"""The venue's rate-limit counters: a small SQLite file under var/ that every web process opens (the "limits" cache).

At the venue the run command serves from several processes, and a phone's next request may land on any of them: a
counter kept in one process's memory let each process count a minute's budget of its own (30 sign-ups from one
address stored 24 with two processes). Here each count is one statement (an UPSERT) on a file of its own, apart
from the night's database, so a thousand phones' counted polls never queue behind a score being saved; its journal
is WAL and it is never synced to disk (a count lost to a power cut costs nothing). The threads of one process take
their turn on a lock of their own, so only the other processes meet SQLite's wait. Measured against Django's file
cache (whose incr is a read then a write: counts are lost between processes) and a counter in shared memory in
bench/counters.py (README, "Limits that hold across the server's processes").

Hosted, with CACHE_URL=redis://…, the counters are in Redis instead (config/settings.py). Only integers are kept.
"""

from __future__ import annotations

import math
import os
import sqlite3
import threading
import time
from pathlib import Path

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL, until REAL NOT NULL) WITHOUT ROWID"
)
# One more in the bucket; a bucket whose time is up starts again at one, with a new time.
_COUNT = """
INSERT INTO counts (key, n, until) VALUES (?1, 1, ?2)
ON CONFLICT (key) DO UPDATE SET
    n = CASE WHEN until > ?3 THEN n + 1 ELSE 1 END,
    until = CASE WHEN until > ?3 THEN until ELSE excluded.until END
RETURNING n
"""
FOREVER = math.inf
SWEEP_EVERY = 1000  # counts between two sweeps of the buckets whose time is up (a process's own tally)


class CounterCache(BaseCache):
    """Django's cache API over the counters file (`LOCATION`): `count` for the limits, and get, set, add, incr,
    delete, touch and clear, as the tests and Django's own calls use them."""

    def __init__(self, location: str, params: dict):
        super().__init__(params)
        self.path = Path(location)
        self._local = threading.local()
        self._turn = threading.Lock()
        self._counted = 0

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None or self._local.pid != os.getpid():  # a connection is never carried into a forked process
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = self._open()
            self._local.db, self._local.pid = db, os.getpid()
        return db

    def _open(self) -> sqlite3.Connection:
        """A connection to the file, in WAL and with the table made. Several processes opening a new file at once
        can be told "database is locked" by the switch to WAL without SQLite's own wait being tried (a request's
        first count, as the server's processes start together): the set-up is tried again for up to 20 s."""
        deadline = time.monotonic() + 20
        while True:
            db = sqlite3.connect(self.path, timeout=20, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=OFF")
                db.execute(_SCHEMA)
                return db
            except sqlite3.OperationalError as error:
                db.close()
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _run(self, sql: str, *params):
        with self._turn:
            return self._db().execute(sql, params).fetchall()

    def _until(self, timeout) -> float:
        until = self.get_backend_timeout(timeout)
        return FOREVER if until is None else until

    def count(self, key: str, timeout: int = 60, version=None) -> int:
        """One more in `key`'s bucket (started now for `timeout` seconds if it is new or its time is up), and how
        many it holds: one statement, whichever process asks."""
        key = self.make_and_validate_key(key, version=version)
        now = time.time()
        self._counted += 1
        if self._counted % SWEEP_EVERY == 0:
            self._run("DELETE FROM counts WHERE until <= ?", now)
        return self._run(_COUNT, key, now + timeout, now)[0][0]

    @staticmethod
    def _integer(value) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("the limits' counters keep whole numbers only")
        return value

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        row = self._run("SELECT n FROM counts WHERE key = ? AND until > ?", key, time.time())
        return row[0][0] if row else default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        self._run("INSERT OR REPLACE INTO counts VALUES (?, ?, ?)", key, self._integer(value), self._until(timeout))

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        added = self._run(
            "INSERT INTO counts VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET n = ?2, until = ?3 "
            "WHERE until <= ?4 RETURNING n",
            key,
            self._integer(value),
            self._until(timeout),
            time.time(),
        )
        return bool(added)

    def incr(self, key, delta=1, version=None):
        made = self.make_and_validate_key(key, version=version)
        row = self._run(
            "UPDATE counts SET n = n + ? WHERE key = ? AND until > ? RETURNING n",
            self._integer(delta),
            made,
            time.time(),
        )
        if not row:
            raise ValueError(f"Key '{key}' not found")
        return row[0][0]

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        row = self._run(
            "UPDATE counts SET until = ? WHERE key = ? AND until > ? RETURNING n",
            self._until(timeout),
            key,
            time.time(),
        )
        return bool(row)

    def delete(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        return bool(self._run("DELETE FROM counts WHERE key = ? RETURNING n", key))

    def has_key(self, key, version=None):
        return self.get(key, version=version) is not None

    def clear(self):
        self._run("DELETE FROM counts")

    def close(self, **kwargs):
        pass  # each thread keeps its connection, as the night's database does (opening one costs more than a count)
