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

Tables of three (three-handed, at the tail): one player stays and two move, so every table keeps its size —
where winners stay (the head table; winners-stay) the winner stays, elsewhere the third; where a movement would
still overfill a table (progressive-down, seat rotation) its last arrivals take the nearest seats it left empty.
Under fixed partners the tables of four move among themselves and the tables of three are passed on untouched:
who plays apart there next is chosen by turns in `roster.plan_round`.

Seats when a partnership splits: of the two who stay, the one in N (or E) keeps the seat and the other moves one
seat clockwise, so they face each other; the two arriving take the two empty seats. When nobody stays, the pair
coming up takes N and E and the pair coming down S and W, so each new partnership is one of each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .types import SEATS, SIDE_SEATS, SeatingError, Side, Table, check_tables, other_side

# What a game left at a table: the winning side at a table of four; at a table of three, its players from the
# most points to the fewest (ties settled by the caller).
Outcome = Side | Sequence[int]
Movement = Callable[[list[Table], Mapping[int, Outcome]], list[Table]]
Pair = tuple[int, ...]
# Where a table's players go: those who stay (first) and those who arrive, in the order they are seated.
Move = tuple[Pair, Pair]


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


def _results(
    tables: list[Table], winners: Mapping[int, Outcome], winners_stay: Callable[[int], bool]
) -> tuple[dict[int, Pair], dict[int, Pair]]:
    """Each table's winners and losers. At a table of three one player stays and two move: where the movement
    keeps the winners there (`winners_stay(table)`) the winner stays and the other two are its losers; elsewhere
    the top two are its winners and the third stays as its loser."""
    check_tables(tables)
    won: dict[int, Pair] = {}
    lost: dict[int, Pair] = {}
    missing = []
    for table in tables:
        t = table.number
        outcome = winners.get(t)
        if table.three:
            if isinstance(outcome, str) or outcome is None or sorted(outcome) != sorted(table.players):
                missing.append(t)
                continue
            order = tuple(outcome)
            cut = 1 if winners_stay(t) else 2
            won[t], lost[t] = order[:cut], order[cut:]
        elif outcome not in SIDE_SEATS:
            missing.append(t)
        else:
            assert isinstance(outcome, str)
            won[t], lost[t] = table.pair(outcome), table.pair(other_side(outcome))
    if missing:
        raise SeatingError(f"No winner recorded for table(s) {', '.join(map(str, missing))}.")
    return won, lost


def _fit(moves: dict[int, Move], sizes: Mapping[int, int]) -> dict[int, Move]:
    """Keep every table at the size it had: where tables of three take part, a table the movement overfills
    passes its last arrivals to the nearest tables it left short (the one below first among equals)."""
    moves = dict(moves)
    spare: dict[int, list[int]] = {}
    for t, (stay, come) in moves.items():
        over = len(stay) + len(come) - sizes[t]
        if over > 0:
            spare[t] = list(come[len(come) - over :])
            moves[t] = (stay, come[: len(come) - over])
    for t in sorted(moves):
        stay, come = moves[t]
        while len(stay) + len(come) < sizes[t]:
            donor = min((d for d in spare if spare[d]), key=lambda d: (abs(d - t), d < t))
            come = (*come, spare[donor].pop(0))
        moves[t] = (stay, come)
    return moves


def _build(tables: list[Table], moves: dict[int, Move], seat: Callable[[int, Pair, Pair, Table], Table]) -> list[Table]:
    """The next game's tables: a table of three seats its three in N, E, S (stayers first); a table of four is
    seated by `seat` where the movement sent it two and two, and in arrival order where tables of three changed
    that."""
    sizes = {t.number: len(t.players) for t in tables}
    fitted = _fit(moves, sizes)
    result = []
    for table in tables:
        stay, come = fitted[table.number]
        if table.three:
            result.append(Table.of_three(table.number, (*stay, *come)))
        elif (stay, come) == moves[table.number] and len(stay) in (0, 2) and len(come) in (2, 4):
            result.append(seat(table.number, stay, come, table))
        else:
            result.append(_meet(table.number, (*stay, *come)[:2], (*stay, *come)[2:]))
    return result


def _head_tail(tables: list[Table], winners: Mapping[int, Outcome], seat: Callable[..., Table]) -> list[Table]:
    """Head-table winners stay and its losers go to the tail; elsewhere winners move up, losers stay.

    `seat` puts the pair that stays and the pair that arrives at the table (split or together).
    """
    won, lost = _results(tables, winners, lambda t: t == 1)
    count = len(tables)
    moves: dict[int, Move] = {}
    for table in tables:
        t = table.number
        if t == 1:
            moves[1] = (won[1], won[2] if count > 1 else lost[1])
        else:
            moves[t] = (lost[t], won[t + 1] if t < count else lost[1])
    return _build(tables, moves, seat)


def progressive(tables: list[Table], winners: Mapping[int, Outcome]) -> list[Table]:
    return _head_tail(tables, winners, _split)


def progressive_down(tables: list[Table], winners: Mapping[int, Outcome]) -> list[Table]:
    count = len(tables)
    won, lost = _results(tables, winners, lambda t: t == 1 and count > 1)
    moves: dict[int, Move] = {}
    for table in tables:
        t = table.number
        if count == 1:
            moves[1] = (won[1], lost[1])
        elif t == 1:
            moves[1] = (won[1], won[2])
        elif t == count:
            moves[t] = (lost[t], lost[t - 1])
        else:
            moves[t] = ((), (*won[t + 1], *lost[t - 1]))
    return _build(
        tables,
        moves,
        lambda t, stay, come, before: _split(t, stay, come, before) if stay else _meet(t, come[:2], come[2:]),
    )


def winners_stay(tables: list[Table], winners: Mapping[int, Outcome]) -> list[Table]:
    won, lost = _results(tables, winners, lambda t: True)
    count = len(tables)
    moves = {t.number: (won[t.number], lost[(t.number - 2) % count + 1]) for t in tables}
    return _build(tables, moves, _split)


def fixed_partners(tables: list[Table], winners: Mapping[int, Outcome]) -> list[Table]:
    """Pairs move head/tail, kept together. Tables of three (partners apart there for one game) take no part: the
    tables of four move among themselves, and who plays at the tables of three next is the seating's choice
    (`roster.plan_round`), by turns."""
    fours = [t for t in tables if not t.three]
    return _head_tail(fours, {t.number: winners[t.number] for t in fours if t.number in winners}, _together) + [
        t for t in tables if t.three
    ]


# Where each seat goes at the next game, in tables (wrapping round): N stays, S down one, E up one, W up two.
ROTATION = {"N": 0, "S": 1, "E": -1, "W": -2}


def seat_rotation(tables: list[Table], winners: Mapping[int, Outcome] | None = None) -> list[Table]:
    check_tables(tables)
    count = len(tables)
    seats: dict[int, dict[str, int]] = {t.number: {} for t in tables}
    for table in tables:
        for seat, player in table.seats.items():
            seats[(table.number - 1 + ROTATION[seat]) % count + 1][seat] = player
    if not any(t.three for t in tables):
        return [Table.from_seats(number, seats[number]) for number in sorted(seats)]
    # Tables of three have no West: the Wests moving up two land on them and leave two tables short.
    # Nobody keeps North at a table of three all night: there the one who would stay comes last, so that of four
    # arriving it is the one to take a seat left empty at a table of four.
    moves: dict[int, Move] = {}
    three = {t.number for t in tables if t.three}
    for number, by_seat in seats.items():
        order = [by_seat[seat] for seat in (("E", "S", "W", "N") if number in three else SEATS) if seat in by_seat]
        moves[number] = ((), tuple(order))
    fitted = _fit(moves, {t.number: len(t.players) for t in tables})
    return [
        Table.of_three(t.number, fitted[t.number][1]) if t.three else Table(t.number, *fitted[t.number][1])
        for t in tables
    ]


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
