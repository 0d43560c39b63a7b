"""Draws the room can watch and anyone can check: door prizes, the 50/50, a tie for a prize. Pure Python.

A draw is its seed and its pool (card numbers of the players here, or ticket numbers 1..N): the winners follow
from those two alone, so a recorded draw replayed gives the same winners, on any machine. The seed is drawn by the
operating system's secure generator when the draw is made (nobody picks it), and printed with the draw.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

SEED_CHARS = 16  # hexadecimal digits: 64 bits


class DrawError(ValueError):
    """A draw that cannot be made; the message says why, for the organizer."""


def new_seed() -> str:
    return secrets.token_hex(SEED_CHARS // 2)


def pick(seed: str, pool: Iterable[int], count: int) -> list[int]:
    """`count` different numbers from `pool`, in the order they are drawn, from `seed` alone.

    The pool is sorted first, so the order it was read in does not matter; `random.Random` seeded with a string
    hashes it with SHA-512 (the same on every platform and every Python 3 since 3.2) and `sample` draws without
    replacement."""
    ordered = sorted(set(pool))
    if not ordered:
        raise DrawError("Nobody to draw from.")
    if not 1 <= count <= len(ordered):
        raise DrawError(f"Draw from 1 to {len(ordered)} (there are {len(ordered)} to draw from), not {count}.")
    return random.Random(f"head-table-draw:{seed}").sample(ordered, count)


def replays(seed: str, pool: Iterable[int], winners: list[int]) -> bool:
    """Whether the recorded winners are what the seed and the pool give."""
    try:
        return pick(seed, pool, len(winners)) == winners
    except DrawError:
        return False
