"""Head/tail progressive movement, from the Progressive Euchre section of the rules text.

Table 1 is the head table and the highest-numbered table the tail. After each game:

* the head table's winners stay and its losers go to the tail table;
* at every other table the winners advance one table toward the head and the losers stay;
* every partnership splits: at each table the two who stay become opponents, so do the two who arrive, and each new
  partnership is one who stayed with one who arrived.

Seats: of the two who stay, the one who sat N or E keeps that seat and the other takes the next seat clockwise, so
they face each other as opponents and only one of them gets up; the arrivals fill the two seats left, in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping

from .types import SEATS, SIDE_SEATS, SeatingError, Side, Table, check_tables, other_side


def _seat_pairs(number: int, stayers: tuple[int, int], arrivals: tuple[int, int], before: Table) -> Table:
    """Seat two who stay and two who arrive so that every new partnership is one of each."""
    seat_of = {player: seat for seat, player in before.seats.items()}
    first, second = sorted(stayers, key=lambda player: SEATS.index(seat_of[player]))
    anchor = seat_of[first]  # N or E: the lower seat of a partnership
    moved = SEATS[(SEATS.index(anchor) + 1) % 4]
    seats = {anchor: first, moved: second}
    free = [seat for seat in SEATS if seat not in seats]
    for seat, player in zip(free, arrivals, strict=True):
        seats[seat] = player
    return Table.from_seats(number, seats)


def next_seating(tables: list[Table], winners: Mapping[int, Side]) -> list[Table]:
    """The seating for the next game, given this game's tables and the winning side at each table."""
    check_tables(tables)
    missing = [t.number for t in tables if winners.get(t.number) not in SIDE_SEATS]
    if missing:
        raise SeatingError(f"No winner recorded for table(s) {', '.join(map(str, missing))}.")
    count = len(tables)
    won = {t.number: t.pair(winners[t.number]) for t in tables}
    lost = {t.number: t.pair(other_side(winners[t.number])) for t in tables}

    result: list[Table] = []
    for table in tables:
        number = table.number
        if number == 1:
            stayers = won[1]
            arrivals = won[2] if count > 1 else lost[1]
        else:
            stayers = lost[number]
            arrivals = won[number + 1] if number < count else lost[1]
        result.append(_seat_pairs(number, stayers, arrivals, table))
    return result
