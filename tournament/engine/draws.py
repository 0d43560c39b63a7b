"""Draws the room can watch and anyone can check: door prizes, the 50/50, a tie for a prize. Pure Python.

A draw is its seed and its pool (card numbers of the players here, or ticket numbers 1..N): the winners follow
from those two alone, so a recorded draw replayed gives the same winners, on any machine. The seed is drawn by the
operating system's secure generator when the draw is made (nobody picks it), and printed with the draw.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterable, Sequence

SEED_CHARS = 16  # hexadecimal digits: 64 bits
SALT = "head-table-draw:"  # put before the seed's text: the draws' own stream, apart from any other use of the seed

# How anyone checks a draw with Python 3 alone, as the README ("Running a fundraiser") and the Money page print it;
# a test runs the README's copy against draws made through the pages. `pick` below is this, with its refusals.
RECIPE = f'''import random


def draw(seed, pool, count):
    """The winners of a draw, in the order drawn. seed: as printed; pool: the numbers drawn from (the players'
    card numbers, or range(1, N + 1) for tickets 1 to N); count: how many were drawn."""
    return random.Random("{SALT}" + seed).sample(sorted(set(pool)), count)
'''


class DrawError(ValueError):
    """A draw that cannot be made; the message says why, for the organizer."""


def new_seed() -> str:
    return secrets.token_hex(SEED_CHARS // 2)


def pick(seed: str, pool: Iterable[int], count: int) -> list[int]:
    """`count` different numbers from `pool`, in the order they are drawn, from `seed` alone.

    The pool is sorted first, so the order it was read in does not matter; `random.Random` seeded with the text
    "head-table-draw:" and the seed (`SALT`) hashes it with SHA-512 (the same on every platform and every Python 3
    since 3.2) and `sample` draws without replacement: `RECIPE`, word for word."""
    ordered = sorted(set(pool))
    if not ordered:
        raise DrawError("Nobody to draw from.")
    if len(ordered) == 1 and count != 1:
        raise DrawError(f"Draw 1 winner (there is only 1 to draw from), not {count}.")
    if not 1 <= count <= len(ordered):
        raise DrawError(f"Draw from 1 to {len(ordered)} (there are {len(ordered)} to draw from), not {count}.")
    return random.Random(SALT + seed).sample(ordered, count)


def replays(seed: str, pool: Iterable[int], winners: list[int]) -> bool:
    """Whether the recorded winners are what the seed and the pool give."""
    try:
        return pick(seed, pool, len(winners)) == winners
    except DrawError:
        return False


def check_call(seed: str, pool: Sequence[int], count: int) -> str:
    """The line that checks a draw with `RECIPE`: `draw('1f0c…', [3, 5, 8], 1)`; tickets 1 to N as a range."""
    ordered = sorted(set(pool))
    numbers = f"range(1, {len(ordered) + 1})" if ordered == list(range(1, len(ordered) + 1)) else str(ordered)
    return f"draw({seed!r}, {numbers}, {count})"


def recorded_pool_fault(
    kind: str, pool: list[int], winners: list[int], *, cards: Iterable[int], most_tickets: int
) -> str | None:
    """Why a recorded draw's pool is not one the Money page could have drawn from, in words, or None.

    `kind` is the pool's kind ("players", "tickets", "tie"), `cards` the tally-card numbers of the players who
    could be in a draw of players (the night's players who came), `most_tickets` the most tickets a draw takes.
    The page stores a pool sorted and each number once: tickets 1..N; players by card number, each one who came;
    a tie two or more of them, and one winner. Whether a tie's players were level is the standings' to say."""
    if any(later <= earlier for earlier, later in itertools.pairwise(pool)):
        return "its “pool” is not each number once, in order, as a draw records it."
    if kind == "tickets":
        if not 1 <= len(pool) <= most_tickets or pool[0] != 1 or pool[-1] != len(pool):
            return f"a draw of tickets draws from tickets 1 to N (N at most {most_tickets:,}), not from this “pool”."
        return None
    known = set(cards)
    if strangers := [number for number in pool if number not in known]:
        return f"its “pool” holds card {strangers[0]}, who is none of the night's players who came."
    if kind == "tie" and (len(pool) < 2 or len(winners) != 1):
        return "a tie's draw is between two or more players, and has one winner."
    return None
