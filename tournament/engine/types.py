"""Plain data the engines take and return: seats, tables, partnerships."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.seats import PARTNER_SEAT, SEATS, SIDE_SEATS, SIDES, Seat, Side, other_side, side_of

__all__ = ["PARTNER_SEAT", "SEATS", "SIDES", "SIDE_SEATS", "Seat", "Side", "other_side", "side_of"]


class SeatingError(ValueError):
    """A head count or seating the chosen movement cannot handle; the message is shown to the organizer."""


@dataclass(frozen=True)
class Table:
    """One table's players, by seat. Player ids are whatever the caller uses (ints in the app).

    A table of four has every seat filled. A table of three (three-handed: each hand's caller plays alone against
    the other two, and everyone scores for themselves) has N, E and S filled and West empty: it has no partnerships.
    """

    number: int
    n: int
    e: int
    s: int
    w: int | None = None

    @classmethod
    def from_seats(cls, number: int, seats: Mapping[Seat, int]) -> Table:
        return cls(number, seats["N"], seats["E"], seats["S"], seats.get("W"))

    @classmethod
    def of_three(cls, number: int, players: Sequence[int]) -> Table:
        """A table of three: the players in N, E and S, in the order given."""
        if len(players) != 3:
            raise SeatingError(f"A table of three needs three players, not {len(players)}.")
        return cls(number, players[0], players[1], players[2], None)

    @property
    def three(self) -> bool:
        return self.w is None

    @property
    def seats(self) -> dict[Seat, int]:
        seats = {"N": self.n, "E": self.e, "S": self.s}
        if self.w is not None:
            seats["W"] = self.w
        return seats

    def pair(self, side: Side) -> tuple[int, int]:
        """The partnership on `side`, in seat order (N before S, E before W). A table of three has none."""
        if self.w is None:
            raise SeatingError(f"Table {self.number} has three players and no partnerships.")
        return (self.n, self.s) if side == "NS" else (self.e, self.w)

    @property
    def players(self) -> tuple[int, ...]:
        return (self.n, self.e, self.s) if self.w is None else (self.n, self.e, self.s, self.w)


def check_tables(tables: list[Table]) -> None:
    """Tables numbered 1..T with no player seated twice."""
    if [t.number for t in tables] != list(range(1, len(tables) + 1)):
        raise SeatingError("Tables must be numbered 1, 2, 3 … with no gaps.")
    seen: set[int] = set()
    for table in tables:
        for player in table.players:
            if player in seen:
                raise SeatingError(f"Player {player} is seated twice.")
            seen.add(player)
