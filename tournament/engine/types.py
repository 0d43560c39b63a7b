"""Plain data the engines take and return: seats, tables, partnerships."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.seats import PARTNER_SEAT, SEATS, SIDE_SEATS, SIDES, Seat, Side, other_side, side_of

__all__ = ["PARTNER_SEAT", "SEATS", "SIDES", "SIDE_SEATS", "Seat", "Side", "other_side", "side_of"]


class SeatingError(ValueError):
    """A head count or seating the chosen movement cannot handle; the message is shown to the organizer."""


@dataclass(frozen=True)
class Table:
    """One table's four players, by seat. Player ids are whatever the caller uses (ints in the app)."""

    number: int
    n: int
    e: int
    s: int
    w: int

    @classmethod
    def from_seats(cls, number: int, seats: dict[Seat, int]) -> Table:
        return cls(number, seats["N"], seats["E"], seats["S"], seats["W"])

    @property
    def seats(self) -> dict[Seat, int]:
        return {"N": self.n, "E": self.e, "S": self.s, "W": self.w}

    def pair(self, side: Side) -> tuple[int, int]:
        """The partnership on `side`, in seat order (N before S, E before W)."""
        return (self.n, self.s) if side == "NS" else (self.e, self.w)

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (self.n, self.e, self.s, self.w)


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
