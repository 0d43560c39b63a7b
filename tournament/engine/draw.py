"""The opening draw: random seats for the first game, reproducible from a recorded seed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .types import SEATS, SeatingError, Table


def opening_draw(player_ids: Sequence[int], seed: int) -> list[Table]:
    """Shuffle the players with `seed` and seat them four to a table, table 1 (the head table) first.

    The ids are sorted before shuffling so the same players and seed always give the same tables, whatever order the
    caller listed them in.
    """
    players = sorted(player_ids)
    if len(set(players)) != len(players):
        raise SeatingError("A player is listed twice.")
    if len(players) < 4 or len(players) % 4:
        raise SeatingError(
            f"Progressive euchre seats players in fours: {len(players)} checked in. "
            f"Check in {(-len(players)) % 4 or 4} more, or check out {len(players) % 4} "
            "(byes for odd head counts come in a later version)."
            if len(players) >= 4
            else f"A night needs at least 4 players; {len(players)} checked in."
        )
    random.Random(seed).shuffle(players)
    return [
        Table.from_seats(number, dict(zip(SEATS, players[4 * (number - 1) : 4 * number], strict=True)))
        for number in range(1, len(players) // 4 + 1)
    ]
