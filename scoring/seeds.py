"""Every seed the app derives from a night's recorded seed, in one place. Pure Python.

A night records one seed when its opening seating is drawn; every later chance (the next game's byes and seats,
a tied game drawn by the app, a final draw in the standings) is derived from it here, so the same seed always
gives the same night. The multipliers are fixed by the nights already recorded: changing one would replay an
old night differently.
"""

from __future__ import annotations

_GAME = 7_919  # seating: one step per game
_BIG = 1_000_003  # draws: far apart for each night
_TABLE_GAME = 1_009  # a tied game's draw: one step per game, a table apart within it


def seating(night_seed: int | None, game: int) -> int:
    """The seed for seating game `game` (byes, who fills which seat)."""
    return (night_seed or 0) * _GAME + game


def tied_game(night_seed: int | None, game: int, table: int) -> int:
    """The seed for the app's draw on a tied game at `table` in game `game`."""
    return ((night_seed or 0) * _BIG + game * _TABLE_GAME + table) % 2**63


def standings_draw(night_seed: int | None, player: int) -> int:
    """The seed of `player`'s ticket in the standings' final draw between players still level."""
    return (night_seed or 0) * _BIG + player
