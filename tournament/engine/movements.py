"""Movements: from one game's tables and winners to the next game's tables. Pure Python, no Django.

Each movement takes the tables as played (numbered 1..T, table 1 the head table, T the tail) and the winning side
at each table, and returns the next game's tables with the same players. Byes, arrivals and departures are
handled afterwards by `roster.plan_round`.

* progressive — the Progressive Euchre section (shared/seeds/000): head-table winners stay and its losers go to
  the tail; elsewhere winners move up one table and losers stay; every partnership splits.
* progressive-down — the same, but losers at the other tables move down one table (head-table winners stay,
  tail-table losers stay); partnerships split.
* winners-stay — the Tournaments paragraph (shared/seeds/001): winners stay and split; losing pairs move down one
  table (the tail's losers to the head) and split to partner that table's winners.
* fixed-partners — partners stay together all night: winning pairs move up one table, losing pairs stay, the head
  table's losers go to the tail.
* seat-rotation — independent of results: N stays, S moves down one table, E up one, W up two (wrapping round).

Seats when a partnership splits: of the two who stay, the one in N (or E) keeps the seat and the other moves one
seat clockwise, so they face each other; the two arriving take the two empty seats. When nobody stays, the pair
coming up takes N and E and the pair coming down S and W, so each new partnership is one of each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .types import SEATS, SIDE_SEATS, SeatingError, Side, Table, check_tables, other_side

Movement = Callable[[list[Table], Mapping[int, Side]], list[Table]]
Pair = tuple[int, int]


def _split(number: int, stayers: Pair, arrivals: Pair, before: Table) -> Table:
    """Two who stay and two who arrive, seated so every new partnership is one of each."""
    seat_of = {player: seat for seat, player in before.seats.items()}
    first, second = sorted(stayers, key=lambda player: SEATS.index(seat_of[player]))
    anchor = seat_of[first]  # N or E: the lower seat of a partnership
    seats = {anchor: first, SEATS[(SEATS.index(anchor) + 1) % 4]: second}
    free = [seat for seat in SEATS if seat not in seats]
    seats.update(zip(free, arrivals, strict=True))
    return Table.from_seats(number, seats)


def _meet(number: int, coming_up: Pair, coming_down: Pair) -> Table:
    """Two arriving pairs and nobody staying: each new partnership is one from each pair."""
    return Table.from_seats(number, {"N": coming_up[0], "E": coming_up[1], "S": coming_down[0], "W": coming_down[1]})


def _together(number: int, stayers: Pair, arrivals: Pair, before: Table) -> Table:
    """Fixed partners: the pair that stays keeps its side, the arriving pair takes the other."""
    side = next(side for side in SIDE_SEATS if set(before.pair(side)) == set(stayers))
    seats = dict(zip(SIDE_SEATS[side], before.pair(side), strict=True))
    seats.update(zip(SIDE_SEATS[other_side(side)], arrivals, strict=True))
    return Table.from_seats(number, seats)


def _results(tables: list[Table], winners: Mapping[int, Side]) -> tuple[dict[int, Pair], dict[int, Pair]]:
    check_tables(tables)
    missing = [t.number for t in tables if winners.get(t.number) not in SIDE_SEATS]
    if missing:
        raise SeatingError(f"No winner recorded for table(s) {', '.join(map(str, missing))}.")
    won = {t.number: t.pair(winners[t.number]) for t in tables}
    lost = {t.number: t.pair(other_side(winners[t.number])) for t in tables}
    return won, lost


def _head_tail(tables: list[Table], winners: Mapping[int, Side], seat: Callable[..., Table]) -> list[Table]:
    """Head-table winners stay and its losers go to the tail; elsewhere winners move up, losers stay.

    `seat` puts the pair that stays and the pair that arrives at the table (split or together).
    """
    won, lost = _results(tables, winners)
    count = len(tables)
    result = []
    for table in tables:
        t = table.number
        if t == 1:
            result.append(seat(1, won[1], won[2] if count > 1 else lost[1], table))
        else:
            result.append(seat(t, lost[t], won[t + 1] if t < count else lost[1], table))
    return result


def progressive(tables: list[Table], winners: Mapping[int, Side]) -> list[Table]:
    return _head_tail(tables, winners, _split)


def progressive_down(tables: list[Table], winners: Mapping[int, Side]) -> list[Table]:
    won, lost = _results(tables, winners)
    count = len(tables)
    result = []
    for table in tables:
        t = table.number
        if count == 1:
            result.append(_split(1, won[1], lost[1], table))
        elif t == 1:
            result.append(_split(1, won[1], won[2], table))
        elif t == count:
            result.append(_split(t, lost[t], lost[t - 1], table))
        else:
            result.append(_meet(t, won[t + 1], lost[t - 1]))
    return result


def winners_stay(tables: list[Table], winners: Mapping[int, Side]) -> list[Table]:
    won, lost = _results(tables, winners)
    count = len(tables)
    return [_split(t.number, won[t.number], lost[(t.number - 2) % count + 1], t) for t in tables]


def fixed_partners(tables: list[Table], winners: Mapping[int, Side]) -> list[Table]:
    return _head_tail(tables, winners, _together)


# Where each seat goes at the next game, in tables (wrapping round): N stays, S down one, E up one, W up two.
ROTATION = {"N": 0, "S": 1, "E": -1, "W": -2}


def seat_rotation(tables: list[Table], winners: Mapping[int, Side] | None = None) -> list[Table]:
    check_tables(tables)
    count = len(tables)
    seats: dict[int, dict[str, int]] = {t.number: {} for t in tables}
    for table in tables:
        for seat, player in table.seats.items():
            seats[(table.number - 1 + ROTATION[seat]) % count + 1][seat] = player
    return [Table.from_seats(number, seats[number]) for number in sorted(seats)]


MOVEMENTS: dict[str, Movement] = {
    "progressive": progressive,
    "progressive-down": progressive_down,
    "winners-stay": winners_stay,
    "fixed-partners": fixed_partners,
    "seat-rotation": seat_rotation,
}
# Movements whose partnerships last all night: byes and replacements go by pairs.
KEEPS_PARTNERS = {"fixed-partners"}
# Movements that do not look at the results.
RESULT_FREE = {"seat-rotation"}
# What each movement leaves free for partner wishes after the opening draw (`wishes.audit`): the pairing at a
# table where it splits partners, nothing where it keeps them or moves by seat.
WISH_RULES = {
    "progressive": "split",
    "progressive-down": "split",
    "winners-stay": "split",
    "fixed-partners": "keep",
    "seat-rotation": "seats",
}
