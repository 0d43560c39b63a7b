"""Who plays and who sits out: byes, arrivals, departures and tables opening or closing. Pure Python.

`plan_round` takes the tables a movement proposes and the players present now, and returns the game's tables
of four plus the byes:

* players who have left are taken out, leaving holes;
* the number of tables is the present players divided by four: tables with the most holes close (their players
  wait to be seated elsewhere), or new tables open at the tail;
* the byes go to players who did not sit out the last game, the fewest byes so far first (a late arrival counts
  as having the fewest anyone present has), then by a seeded draw: nobody sits out twice running where that can
  be avoided, and over a night bye counts differ by at most one;
* everyone waiting (back from a bye, arriving, or from a closed table) takes the holes, in a seeded order.

With fixed partners the same happens by pairs: a pair sits out together and fills a side of a table; a player
whose partner left waits to be paired with another player on their own. With fixed partners and tables of three,
the pairs whose turn it is (chosen as byes are) play the game apart at the tables of three, each for themselves,
partners at different tables where there are two or more, and come back together to a table of four; a player
without a partner (an odd head count) always plays at a table of three.

With partner wishes (`wishes.Wishes`) every choice left here honours them first: the opening's partnerships, who
takes which empty seat, which of two equally due players sits out (a couple together or not at all,
`wishes.byes_keeping_couples`; then keeping the two groups level), and, on a night whose movement splits partners
(`last` given), the pairing of the four at each table. The byes' fairness comes before any wish.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .types import SEATS, SIDE_SEATS, SeatingError, Table, check_tables
from .wishes import (
    WISH_WEIGHT,
    Wishes,
    allowed_pairings,
    byes_keeping_couples,
    couples_split,
    group_counts,
    least_from_counts,
    pair_up,
    settle,
)


class FatalSeatingError(RuntimeError):
    """A state no organizer action can produce (a bug, or data changed behind the app's back)."""


@dataclass(frozen=True)
class RoundPlan:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]
    # With fixed partners: each player's partner for the game, byes included (a bye pair keeps its pairing), and a
    # pair playing apart at the tables of three.
    partners: Mapping[int, int] | None = None


Unit = tuple[int, ...]  # one player, or a fixed partnership
Slot = tuple[int, tuple[str, ...]]  # a table and the seat (or the two seats of a side) a unit fills


def shuffled(items, rng: random.Random) -> list:
    """A seeded shuffle of `items` (sorted first, so the caller's order never matters)."""
    result = sorted(items)
    rng.shuffle(result)
    return result


def opening(
    players: Collection[int],
    *,
    seed: int,
    by_pairs: bool = False,
    never_bye: Collection[int] = (),
    wishes: Wishes | None = None,
    threes: bool = False,
) -> RoundPlan:
    """The first game: everyone drawn into tables at random, byes (or, with `threes`, tables of three at the
    tail) if the count is not a multiple of four."""
    return plan_round(
        [],
        present=players,
        bye_counts={},
        seed=seed,
        partners={} if by_pairs else None,
        never_bye=never_bye,
        wishes=wishes,
        threes=threes,
    )


MIN_FOR_THREES = 6


def table_sizes(players: int, threes: bool) -> list[int]:
    """The game's tables, head first: fours, then (with `threes`) one to three tables of three at the tail so
    that nobody sits out. Without `threes`, or for 5 players (no mix of fours and threes makes five), the tables
    are fours and the rest sit out."""
    short = (4 - players % 4) % 4 if threes else 0
    if players < 3 * short or players < MIN_FOR_THREES:
        short = 0
    fours = (players - 3 * short) // 4
    return [4] * fours + [3] * short


def plan_round(
    proposed: Sequence[Table],
    *,
    present: Collection[int],
    bye_counts: Mapping[int, int],
    sat_out_last: Collection[int] = (),
    seed: int,
    partners: Mapping[int, int] | None = None,
    never_bye: Collection[int] = (),
    partnered: Mapping[frozenset[int], int] | None = None,
    wishes: Wishes | None = None,
    last: Collection[frozenset[int]] | None = None,
    threes: bool = False,
    three_counts: Mapping[int, int] | None = None,
    at_three_last: Collection[int] = (),
) -> RoundPlan:
    """Seat the present players: the proposed tables where possible, byes for the rest.

    `bye_counts` has an entry (0 included) for everyone who has been in the night so far; a player without one is a
    newcomer and counts as having as few byes as anyone present. `partners` (fixed partners only) maps each player
    to their partner. `never_bye` are house players, who only ever fill an empty seat. `partnered` counts the
    games each pair of players has partnered so far: empty seats are then filled so as to repeat as few
    partnerships as possible. `wishes` are the night's partner wishes; `last`, on a night whose movement splits
    partners, last game's partnerships, which the pairing at a table may not repeat. `threes`: tables of three at
    the tail take the players a table of four cannot (`table_sizes`), so nobody sits out.
    """
    players = set(present)
    if len(players) < 4:
        raise SeatingError(f"A game needs at least 4 players; {len(players)} are here.")
    by_pairs = partners is not None
    sizes = table_sizes(len(players), threes)
    apart = by_pairs and 3 in sizes  # fixed partners, some of them apart at the tables of three this game
    rng = random.Random(seed)
    wishes = wishes or Wishes()
    units = _units(players, partners or {}, rng, wishes) if by_pairs else [(p,) for p in sorted(players)]
    unit_of = {player: unit for unit in units for player in unit}

    # The proposed seats, less those who have left (or, with partners, whose partnership broke up).
    seats: dict[Slot, Unit | None] = {}
    proposed_order: dict[Unit, tuple[int, ...]] = {}  # a pair's seats as the movement gave them
    placed: set[Unit] = set()
    for table in proposed:
        if by_pairs and table.three:
            continue  # partners apart there: they wait to come back together
        seat_groups: list[tuple[str, ...]] = list(SIDE_SEATS.values()) if by_pairs else [(seat,) for seat in SEATS]
        for seat_group in seat_groups:
            if table.three and "W" in seat_group:
                continue
            group = tuple(table.seats[seat] for seat in seat_group)
            unit = unit_of.get(group[0])
            if unit is not None and set(unit) == set(group) and unit not in placed:
                seats[(table.number, tuple(seat_group))] = unit
                proposed_order[unit] = group
                placed.add(unit)
            else:
                seats[(table.number, tuple(seat_group))] = None
    small = {number for number, size in enumerate(sizes, start=1) if size == 3}
    seats = _resize(seats, len(sizes) - len(small) if apart else len(sizes), by_pairs)
    if not by_pairs and (small or any(table.three for table in proposed)):
        seats = _to_sizes(seats, small)

    seated = {unit for unit in seats.values() if unit}
    waiting = [unit for unit in units if unit not in seated]
    if apart:  # who plays apart at the tables of three is chosen as byes would be, from the turns there so far
        byes = _choose_byes(
            units, three_counts or {}, set(at_three_last), set(never_bye), 4 * sizes.count(4), rng, True, wishes
        )
    else:
        byes = _choose_byes(units, bye_counts, set(sat_out_last), set(never_bye), sum(sizes), rng, by_pairs, wishes)
    for slot, unit in seats.items():
        if unit in byes:
            seats[slot] = None
    waiting = [unit for unit in waiting if unit not in byes]
    holes = sorted(slot for slot, unit in seats.items() if unit is None)
    fillers = shuffled(waiting, rng)
    if len(holes) != len(fillers):
        raise FatalSeatingError(f"{len(holes)} empty seats for {len(fillers)} waiting players.")
    # A table of three has no partnerships: its empty seats take the first of the draw, the rest are chosen below.
    for slot in [slot for slot in holes if slot[0] in small]:
        seats[slot] = fillers.pop(0)
    holes = [slot for slot in holes if slot[0] not in small]
    if wishes and not by_pairs:
        _fill_by_wishes(seats, holes, fillers, wishes, partnered or {}, rng, last)
    elif by_pairs or not partnered:
        for slot, unit in zip(holes, fillers, strict=True):
            seats[slot] = unit
    else:
        _fill_avoiding_old_partners(seats, holes, fillers, partnered)

    tables: dict[int, dict[str, int]] = {}
    for (number, seat_group), unit in seats.items():
        for seat, player in zip(seat_group, proposed_order.get(unit, unit) if unit else (), strict=True):
            tables.setdefault(number, {})[seat] = player
    if apart:
        tables.update(_apart(shuffled(byes, rng), sorted(small)))
        byes = set()
    result = tuple(Table.from_seats(number, tables[number]) for number in sorted(tables))
    if wishes and last is not None and not by_pairs:
        result = tuple(settle(result, wishes, last, partnered))
    check_tables(list(result))
    bye_players = tuple(sorted(p for unit in byes for p in unit))
    pairing = None
    if by_pairs:
        pairing = {a: b for unit in units if len(unit) == 2 for a, b in (unit, unit[::-1])}
    return RoundPlan(result, bye_players, pairing)


def _apart(units: list[Unit], numbers: list[int]) -> dict[int, dict[str, int]]:
    """The tables of three of a fixed-partners night: the players of `units` dealt round the tables in turn, so two
    partners sit at different tables wherever there are two or more."""
    players = [player for unit in units for player in unit]
    if len(players) != 3 * len(numbers):
        raise FatalSeatingError(f"{len(players)} players for {len(numbers)} tables of three.")
    return {
        number: dict(zip(SEATS[:3], players[index :: len(numbers)], strict=True))
        for index, number in enumerate(numbers)
    }


PARTNER_OF = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _fill_avoiding_old_partners(
    seats: dict[Slot, Unit | None],
    holes: list[Slot],
    fillers: list[Unit],
    partnered: Mapping[frozenset[int], int],
) -> None:
    """Fill the empty seats one by one, each with the waiting player who has partnered its partner least.

    Seats whose partner is already known are filled first; ties keep the seeded draw's order.
    """
    waiting = list(fillers)

    def partner_of(slot: Slot) -> int | None:
        number, (seat,) = slot
        unit = seats.get((number, (PARTNER_OF[seat],)))
        return unit[0] if unit else None

    remaining = list(holes)
    while remaining:
        remaining.sort(key=lambda slot: partner_of(slot) is None)  # a known partner first
        slot = remaining.pop(0)
        partner = partner_of(slot)
        best = min(
            range(len(waiting)),
            key=lambda i: partnered.get(frozenset((waiting[i][0], partner)), 0) if partner is not None else 0,
        )
        seats[slot] = waiting.pop(best)


def _fill_by_wishes(
    seats: dict[Slot, Unit | None],
    holes: list[Slot],
    fillers: list[Unit],
    wishes: Wishes,
    partnered: Mapping[frozenset[int], int],
    rng: random.Random,
    last: Collection[frozenset[int]] | None,
) -> None:
    """Fill the empty seats breaking as few partner wishes as possible, then repeating as few partnerships.

    A seat whose partner is seated takes the waiting player who suits that partner best; seats empty on both sides
    of a partnership take the pairs `pair_up` makes of the rest (a two-group night: the first group in N or E, so a
    seat rotation keeps the groups apart all night); then two filled seats swap while that helps. With `last` (a
    movement that splits partners) a table is judged by its best pairing, as `settle` will pair it.
    """

    def mate(slot: Slot) -> Slot:
        number, (seat,) = slot
        return (number, (PARTNER_OF[seat],))

    def cost(a: int, b: int) -> int:
        return WISH_WEIGHT * wishes.cost(a, b) + partnered.get(frozenset((a, b)), 0)

    open_ = set(holes)
    waiting = [unit[0] for unit in fillers]
    for slot in holes:
        if mate(slot) in open_:
            continue
        partner = _one(seats[mate(slot)])
        best = min(range(len(waiting)), key=lambda i: cost(waiting[i], partner))
        seats[slot] = (waiting.pop(best),)
    pairs, odd = pair_up(waiting, wishes, rng, partnered)
    if odd is not None:
        raise FatalSeatingError("An odd number of players for the empty partnerships.")
    first_group = min(wishes.groups.values(), default=None)
    doubles = [slot for slot in holes if mate(slot) in open_ and slot[1][0] in ("N", "E")]
    for slot, (a, b) in zip(doubles, pairs, strict=True):
        if wishes.groups.get(b) == first_group != wishes.groups.get(a):
            a, b = b, a
        seats[slot], seats[mate(slot)] = (a,), (b,)

    def table_cost(number: int) -> int:
        n, e, s, w = (_one(seats[(number, (seat,))]) for seat in SEATS)
        options = allowed_pairings((n, e, s, w), "split", last) if last is not None else []
        return min(sum(cost(*pair) for pair in option) for option in options or [((n, s), (e, w))])

    for _ in range(10):
        improved = False
        for slot in [s for s in holes if table_cost(s[0]) >= WISH_WEIGHT]:
            for other in rng.sample(holes, len(holes)):
                if other in (slot, mate(slot)) or table_cost(slot[0]) < WISH_WEIGHT:
                    continue
                tables = {slot[0], other[0]}
                before = sum(table_cost(t) for t in tables)
                seats[slot], seats[other] = seats[other], seats[slot]
                if sum(table_cost(t) for t in tables) < before:
                    improved = True
                else:
                    seats[slot], seats[other] = seats[other], seats[slot]
        if not improved:
            break


def _one(unit: Unit | None) -> int:
    if unit is None:
        raise FatalSeatingError("A partnership with an empty seat.")
    return unit[0]


def _units(players: set[int], partners: Mapping[int, int], rng: random.Random, wishes: Wishes) -> list[Unit]:
    """Fixed partnerships of the present players; players without a present partner are paired up in a draw
    (honouring the partner wishes)."""
    units: list[Unit] = []
    single: list[int] = []
    for player in sorted(players):
        partner = partners.get(player)
        if partner in players and partners.get(partner) == player:
            if player < partner:
                units.append((player, partner))
        else:
            single.append(player)
    if wishes:
        pairs, odd = pair_up(single, wishes, rng)
        units.extend(pairs)
        if odd is not None:
            units.append((odd,))  # an odd one out waits for a partner
        return units
    single = shuffled(single, rng)
    while len(single) >= 2:
        units.append((single.pop(), single.pop()))
    units.extend((player,) for player in single)  # an odd one out waits for a partner
    return units


def _resize(seats: dict[Slot, Unit | None], count: int, by_pairs: bool) -> dict[Slot, Unit | None]:
    """Close the emptiest tables (the highest-numbered first among equals) or open new ones at the tail."""
    numbers = sorted({number for number, _ in seats})
    groups: list[tuple[str, ...]] = list(SIDE_SEATS.values()) if by_pairs else [(seat,) for seat in SEATS]
    if len(numbers) > count:
        # A table of three's missing West counts as an empty seat: of tables with a hole, it closes first.
        emptiness = {n: len(groups) - sum(1 for (t, _), u in seats.items() if t == n and u) for n in numbers}
        closing = set(sorted(numbers, key=lambda n: (-emptiness[n], -n))[: len(numbers) - count])
        keep = [n for n in numbers if n not in closing]
        renumber = {old: new for new, old in enumerate(keep, start=1)}
        seats = {(renumber[t], g): u for (t, g), u in seats.items() if t in renumber}
    for number in range(len({t for t, _ in seats}) + 1, count + 1):
        for group in groups:
            seats[(number, tuple(group))] = None
    return seats


def _to_sizes(seats: dict[Slot, Unit | None], small: set[int]) -> dict[Slot, Unit | None]:
    """Tables of three keep N, E and S: whoever the movement seated there (in seat order) fills them, a fourth
    waits to be seated elsewhere; a table of four that was a table of three gets its West seat back, empty."""
    result: dict[Slot, Unit | None] = {}
    for number in sorted({t for t, _ in seats}):
        here = [seats.get((number, (seat,))) for seat in SEATS]
        if number in small:
            units = [unit for unit in here if unit] + [None, None, None]
            for seat, unit in zip(SEATS[:3], units, strict=False):
                result[(number, (seat,))] = unit
        else:
            for seat, unit in zip(SEATS, here, strict=True):
                result[(number, (seat,))] = unit
    return result


def _choose_byes(
    units: list[Unit],
    bye_counts: Mapping[int, int],
    sat_out_last: set[int],
    never_bye: set[int],
    seats_to_fill: int,
    rng: random.Random,
    by_pairs: bool,
    wishes: Wishes,
) -> set[Unit]:
    """The units that sit out this game, so that exactly `seats_to_fill` players are seated."""
    known = [bye_counts[p] for unit in units for p in unit if p in bye_counts]
    floor = min(known, default=0)

    def count(unit: Unit) -> int:
        return max(bye_counts.get(p, floor) for p in unit)

    draw = {unit: index for index, unit in enumerate(shuffled(units, rng))}
    chosen: set[Unit] = set()
    if by_pairs:
        chosen |= {unit for unit in units if len(unit) == 1}  # no partner: cannot fill a side

    def due(unit: Unit) -> tuple[bool, int]:
        return (bool(set(unit) & sat_out_last), count(unit))

    candidates = sorted(
        (unit for unit in units if unit not in chosen and not set(unit) <= never_bye),
        key=lambda unit: (*due(unit), draw[unit]),
    )
    seated = sum(len(unit) for unit in units) - sum(len(unit) for unit in chosen)
    if wishes.always and not by_pairs and 0 < seated - seats_to_fill <= len(candidates):
        # Of the equally due, couples go out whole: the same fairness, as few couples split as can be.
        here = [unit[0] for unit in units]
        picked = byes_keeping_couples(
            [unit[0] for unit in candidates],
            {unit[0]: due(unit) for unit in candidates},
            seated - seats_to_fill,
            wishes,
            here,
        )
        chosen |= {(player,) for player in picked}
        seated -= len(picked)
    for unit in candidates:
        if seated <= seats_to_fill:
            break
        chosen.add(unit)
        seated -= len(unit)
    if seated != seats_to_fill:
        raise SeatingError(
            "These players cannot be seated in fours: with fixed partners add or remove a player, or a house player."
        )
    if wishes.groups and not by_pairs:
        _level_groups(units, chosen, candidates, due, wishes)
    return chosen


def _level_groups(units: list[Unit], chosen: set[Unit], candidates: list[Unit], due, wishes: Wishes) -> None:
    """Swap a bye for another player just as due while that leaves the two groups at the tables more level (and
    splits no more couples: a couple's wish comes first)."""
    group = wishes.groups.get
    here = [unit[0] for unit in units]

    def splits(out: set[Unit]) -> int:
        return len(couples_split([unit[0] for unit in out], here, wishes)) if wishes.always else 0

    counts = group_counts((unit[0] for unit in units if unit not in chosen), wishes)
    for _ in range(len(chosen)):
        least = least_from_counts(counts)
        swap = None
        for out in sorted(chosen):
            for other in candidates:
                if other in chosen or due(other) != due(out) or group(other[0]) == group(out[0]):
                    continue
                counts[group(out[0])] += 1
                counts[group(other[0])] -= 1
                better = least_from_counts(counts) < least
                counts[group(out[0])] -= 1
                counts[group(other[0])] += 1
                if better and wishes.always:
                    better = splits(chosen - {out} | {other}) <= splits(chosen)
                if better:
                    swap = (out, other)
                    break
            if swap:
                break
        if swap is None:
            return
        out, other = swap
        chosen.discard(out)
        chosen.add(other)
        counts[group(out[0])] += 1
        counts[group(other[0])] -= 1
