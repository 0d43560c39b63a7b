"""Readings of a night kept in this process under the night's move stamp, for the pages every phone polls.

After a move (a game closed and the next one seated, a bell) every phone of the night asks for its new page within
a few seconds. What they share (everyone's places, every table's seats) is read by the first to ask and kept under
the night's move stamp; the others are answered from that reading. Nothing needs to be invalidated: a move changes
the stamp every poll compares, and a reading kept under an older stamp is simply not asked for again.

Each night is read under a lock of its own: when several clubs' nights move at the same bell, one night's pages do
not wait for another night's reading, and the pages of one night asking at once share a single reading.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

# A hosted server runs many clubs' nights at one bell (the clubs bench: 20 nights of 100 players in a minute):
# each process keeps as many as are likely to move within the same few seconds. A reading is a few hundred kB.
NIGHTS_KEPT = 32


class Stamped(Protocol):
    @property
    def stamp(self) -> str: ...


T = TypeVar("T", bound=Stamped)

_every: weakref.WeakSet[NightReadings] = weakref.WeakSet()


class NightReadings(Generic[T]):
    """The last reading of each of the last `kept` nights asked about, made at most once per process and stamp."""

    def __init__(self, read: Callable[[int], T | None], kept: int = NIGHTS_KEPT) -> None:
        self.read = read
        self.kept_nights = kept
        self.lock = threading.Lock()  # guards the two dicts below; held for a lookup or an update, never a reading
        self.kept: OrderedDict[int, T] = OrderedDict()
        self.reading: dict[int, threading.Lock] = {}  # night -> the lock its reading is made under
        _every.add(self)

    def get(self, night_id: int, stamp: str) -> T | None:
        """The night at move stamp `stamp` (as the poll just read it). A reading may be newer than `stamp` (a move
        landed in between): the page then carries the newer stamp. None: there is no such night."""
        kept = self.kept.get(night_id)
        if kept is not None and kept.stamp == stamp:
            return kept
        with self.lock:
            reading = self.reading.setdefault(night_id, threading.Lock())
        with reading:
            kept = self.kept.get(night_id)
            if kept is not None and kept.stamp == stamp:
                return kept
            fresh = self.read(night_id)
            with self.lock:
                if fresh is None:
                    self.kept.pop(night_id, None)
                    self.reading.pop(night_id, None)
                    return None
                self.kept[night_id] = fresh
                self.kept.move_to_end(night_id)
                while len(self.kept) > self.kept_nights:
                    gone, _ = self.kept.popitem(last=False)
                    self.reading.pop(gone, None)
                return fresh

    def forget(self) -> None:
        """Drop every kept reading."""
        with self.lock:
            self.kept.clear()
            self.reading.clear()


def forget_all() -> None:
    """Drop every kept reading of every kind (the tests start each from the database)."""
    for readings in list(_every):
        readings.forget()
