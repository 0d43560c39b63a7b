"""Seats, sides and the head table: said once, for the rules, the engines, the pages and the sheets. Pure Python."""

from __future__ import annotations

from collections.abc import Iterable

# A seat is one of SEATS and a side one of SIDES. They are plain strings to the type checker because they arrive
# as such from forms and the database; the rules check every value they are given.
Seat = str
Side = str

SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")
SIDES: tuple[Side, ...] = ("NS", "EW")
SEAT_NAMES: dict[str, str] = {"N": "North", "E": "East", "S": "South", "W": "West"}
SEAT_CHOICES: list[tuple[str, str]] = list(SEAT_NAMES.items())
SIDE_CHOICES: list[tuple[str, str]] = [("NS", "North–South"), ("EW", "East–West")]
# As the table's phone says them: short, with the dash the players see on the cards.
SIDE_NAMES: dict[str, str] = {"NS": "N–S", "EW": "E–W"}
SIDE_SEATS: dict[str, tuple[Seat, Seat]] = {"NS": ("N", "S"), "EW": ("E", "W")}
PARTNER_SEAT: dict[Seat, Seat] = {"N": "S", "S": "N", "E": "W", "W": "E"}
# A table of three (three-handed: each hand's caller alone against the other two) seats N, E and S; West is empty.
THREE_SEATS: tuple[Seat, ...] = ("N", "E", "S")
# Table 1, where the last hand of a game rings the bell and whose winners stay.
HEAD_TABLE = 1


def is_three(seats: Iterable[Seat]) -> bool:
    """Whether a table's taken seats (any collection of seat letters, or a mapping by seat) are a table of three's:
    N, E and S, with West left empty. The one place a table of three is told from its seats."""
    return set(seats) == _THREE


_THREE = frozenset(THREE_SEATS)


def side_of(seat: str) -> Side:
    return "NS" if seat in ("N", "S") else "EW"


def other_side(side: str) -> Side:
    return "EW" if side == "NS" else "NS"


def next_dealer(seat: str) -> Seat:
    """The deal passes to the left: N, E, S, W."""
    return SEATS[(SEATS.index(seat) + 1) % 4]
