"""Django's SQLite backend, with the writers of one process queued in order before they ask SQLite.

Every transaction begins IMMEDIATE (config/settings.py): it takes SQLite's write lock at once, and a second writer
waits. SQLite's own waiting is a sleep that grows to a tenth of a second between tries, so at the bell, with eight
scores a second, a post could sleep on past the moment the lock was free while later ones went first (a score's
95th percentile was several times its median). Here the threads of one server process wait on a lock of this
process instead, handed on the moment the transaction before ends, in turn; only the other server processes (and
the worker) still meet SQLite's wait.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

_writer = threading.Lock()  # one transaction at a time from this process


class DatabaseWrapper(base.DatabaseWrapper):
    _holds_writer = False

    def _start_transaction_under_autocommit(self):
        _writer.acquire()
        self._holds_writer = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            _writer.release()

    def _commit(self):
        try:
            super()._commit()
        finally:
            self._release_writer()

    def _rollback(self):
        try:
            super()._rollback()
        finally:
            self._release_writer()

    def _close(self):
        try:
            super()._close()
        finally:
            self._release_writer()
