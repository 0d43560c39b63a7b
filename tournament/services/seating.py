"""The only writers of where everyone sits: the opening draw, the movement's next game, byes and house players,
rotation charts and their numbers, seat swaps, and each table's link. One transaction each."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring import seeds
from scoring.models import TableLink, TableResult

from .. import charts
from ..engine import roster, rotation
from ..engine.movements import KEEPS_PARTNERS, MOVEMENTS, WISH_RULES, Outcome
from ..engine.types import SeatingError, Table
from ..engine.wishes import last_partnerships
from ..models import Action, Bye, Cause, Entry, Night, Player, Round, RoundEvent, Seating
from .nights import lock_night, require_unfinished

# ---- seating a game: the opening draw, the movement, byes and house players -------------------------------------


def _house_needed(night: Night, real: int) -> int:
    if night.fill == Night.Fill.THREES:
        return 0  # tables of three take the players a table of four cannot (with fixed partners, the odd one too)
    if night.fill == Night.Fill.HOUSE:
        return (-real) % 4
    if night.movement in KEEPS_PARTNERS:
        return real % 2  # an odd one out is partnered by a house player
    return 0


def _present(night: Night) -> tuple[set[int], set[int]]:
    """The players to seat now and, among them, the house players (made or stood down to fill the count)."""
    entries = list(Entry.objects.filter(night=night).select_related("player"))
    real = {e.player_id for e in entries if e.checked_in and e.active and not e.player.house}
    house_entries = sorted((e for e in entries if e.player.house), key=lambda e: e.player.name_key)
    needed = _house_needed(night, len(real))
    while len(house_entries) < needed:
        number = len(house_entries) + 1
        player = Player.objects.create(
            club_id=night.club_id, name=f"House player {number}", house=True, name_key=f"house:{night.pk}:{number}"
        )
        house_entries.extend(Entry.objects.enter(night, [player]))
    for index, entry in enumerate(house_entries):
        active = index < needed
        if entry.active != active:
            entry.active = active
            entry.save(update_fields=["active"])
    house = {e.player_id for e in house_entries[:needed]}
    return real | house, house


def bye_floor(night: Night) -> int:
    """The fewest byes any player here has had so far (0 before the draw): a late arrival's starting count."""
    current = night.rounds.order_by("-number").first()
    if current is None:
        return 0
    # A seated game that has not started is seated again with the newcomer, so its byes do not count yet.
    counts, _ = _bye_history(night, current.number if current.status == Round.Status.SEATED else current.number + 1)
    here = set(
        Entry.objects.filter(night=night, active=True, checked_in=True, player__house=False).values_list(
            "player_id", flat=True
        )
    )
    return min((count for player, count in counts.items() if player in here), default=0)


def _bye_history(night: Night, before: int) -> tuple[dict[int, int], set[int]]:
    """Bye counts before game `before` (0 for anyone who has played; a late arrival's starting count added),
    and who sat out the game before it."""
    counts = {
        p: 0
        for p in Seating.objects.filter(round__night=night, round__number__lt=before).values_list(
            "player_id", flat=True
        )
    }
    last: set[int] = set()
    for number, player in Bye.objects.filter(round__night=night, round__number__lt=before).values_list(
        "round__number", "player_id"
    ):
        counts[player] = counts.get(player, 0) + 1
        if number == before - 1:
            last.add(player)
    for player, offset in Entry.objects.filter(night=night, bye_offset__gt=0).values_list("player_id", "bye_offset"):
        if player in counts:
            counts[player] += offset
    return counts, last


def _partners(round_: Round) -> dict[int, int]:
    """Fixed partnerships as they stood in `round_` (at the tables of four, among the byes, and apart at the
    tables of three)."""
    partners: dict[int, int] = {}
    for table in round_tables(round_):
        for side in () if table.three else ("NS", "EW"):
            a, b = table.pair(side)
            partners[a], partners[b] = b, a
    apart = round_.seatings.filter(partner__isnull=False).values_list("player_id", "partner_id")
    for player, partner in [*round_.byes.values_list("player_id", "partner_id"), *apart]:
        if partner:
            partners[player] = partner
    return partners


def _three_history(night: Night, before: int) -> tuple[dict[int, int], set[int]]:
    """Games at a table of three before game `before` (0 for anyone who has played), and who was at one in the game
    before it: whose turn it is there next on a fixed-partners night."""
    seats: dict[tuple[int, int], list[int]] = {}
    counts: dict[int, int] = {}
    for number, table, player in Seating.objects.filter(round__night=night, round__number__lt=before).values_list(
        "round__number", "table", "player_id"
    ):
        seats.setdefault((number, table), []).append(player)
        counts.setdefault(player, 0)
    last: set[int] = set()
    for (number, _), players in seats.items():
        if len(players) == 3:
            for player in players:
                counts[player] += 1
            if number == before - 1:
                last.update(players)
    return counts, last


def _partnered(night: Night, before: int) -> dict[frozenset[int], int]:
    """How many games each pair of players has partnered before game `before` (one query)."""
    seats: dict[tuple[int, int], dict[str, int]] = {}
    for number, table, seat, player in Seating.objects.filter(round__night=night, round__number__lt=before).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        seats.setdefault((number, table), {})[seat] = player
    counts: dict[frozenset[int], int] = {}
    for by_seat in seats.values():
        for a, b in (("N", "S"), ("E", "W")):
            if a in by_seat and b in by_seat:
                pair = frozenset((by_seat[a], by_seat[b]))
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def _plan(night: Night, number: int, proposed: list[Table], previous: Round | None) -> roster.RoundPlan:
    if night.movement == Night.Movement.ROTATION:
        return _rotation_plan(night, number)
    present, house = _present(night)
    counts, last = _bye_history(night, number)
    partners = None
    three_counts: dict[int, int] = {}
    at_three_last: set[int] = set()
    if night.movement in KEEPS_PARTNERS:
        partners = _partners(previous) if previous else {}
        if night.fill == Night.Fill.THREES:
            three_counts, at_three_last = _three_history(night, number)
    partnered = _partnered(night, number)
    wishes = night.wishes()
    split = previous is not None and WISH_RULES[night.movement] == "split"
    try:
        return roster.plan_round(
            proposed,
            present=present,
            bye_counts=counts,
            sat_out_last=last,
            seed=seeds.seating(night.seed, number),
            partners=partners,
            never_bye=house,
            partnered=partnered,
            wishes=wishes,
            last=last_partnerships(round_tables(previous)) if split and previous is not None else None,
            threes=night.fill == Night.Fill.THREES,
            three_counts=three_counts,
            at_three_last=at_three_last,
        )
    except SeatingError as error:
        raise ValidationError({"round": str(error)}) from error


def _save_plan(round_: Round, plan: roster.RoundPlan) -> None:
    partners = plan.partners or {}
    Seating.objects.bulk_create(
        Seating(
            round=round_,
            table=table.number,
            seat=seat,
            player_id=player,
            partner_id=partners.get(player) if table.three else None,
        )
        for table in plan.tables
        for seat, player in table.seats.items()
    )
    Bye.objects.bulk_create(Bye(round=round_, player_id=p, partner_id=partners.get(p)) for p in plan.byes)


@transaction.atomic
def night_draw(*, night: Night, seed: int | None = None) -> Round:
    """Draw the opening seating at random from the checked-in players and record the seed."""
    night = lock_night(night)
    if night.status != Night.Status.SETUP:
        raise ValidationError({"draw": "The opening seating has already been drawn."})
    night.seed = secrets.randbelow(2**31) if seed is None else seed
    if night.movement == Night.Movement.ROTATION:
        _chart_for_draw(night)
    try:
        plan = _plan(night, 1, [], None)
    except ValidationError as error:
        raise ValidationError({"draw": error.message_dict["round"]}) from error
    night.status = Night.Status.PLAYING
    night.save(update_fields=["seed", "status", "chart", "chart_size"])
    round_ = Round.objects.create(night=night, number=1)
    _save_plan(round_, plan)
    links_for_tables(night)
    RoundEvent.record(round_, Action.SEATED, Cause.DRAW)
    return round_


def reseat_if_waiting(night: Night) -> None:
    """Seat a game that is seated but not started again, after players came or went."""
    current = night.rounds.order_by("-number").first()
    if current is None or current.status != Round.Status.SEATED:
        return
    previous = night.rounds.filter(number=current.number - 1).first()
    proposed = round_tables(current)
    plan = _plan(night, current.number, proposed, previous)
    current.seatings.all().delete()
    current.byes.all().delete()
    _save_plan(current, plan)
    links_for_tables(night)
    RoundEvent.record(current, Action.RESEATED, Cause.RESEATED)


def _lock_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("night").get(pk=round_.pk)


def round_tables(round_: Round) -> list[Table]:
    """The round's seating as engine tables."""
    by_table: dict[int, dict[str, int]] = {}
    for table, seat, player in round_.seatings.values_list("table", "seat", "player_id"):
        by_table.setdefault(table, {})[seat] = player
    return [Table.from_seats(number, seats) for number, seats in sorted(by_table.items())]


def round_seat_next(round_: Round, *, tables: list[Table], winners: Mapping[int, Outcome]) -> Round:
    """Seat the game after `round_` (locked, just closed) by the night's movement from each table's winners.

    Called only by the game's life (`tournament.game.close`), which records the move.
    """
    night = round_.night
    try:
        proposed = [] if night.movement == Night.Movement.ROTATION else MOVEMENTS[night.movement](tables, winners)
    except SeatingError as error:
        raise ValidationError({"round": str(error)}) from error
    plan = _plan(night, round_.number + 1, proposed, round_)
    try:
        next_round = Round.objects.create(night=night, number=round_.number + 1)
    except IntegrityError as error:
        raise ValidationError({"round": f"Game {round_.number + 1} is already seated."}) from error
    _save_plan(next_round, plan)
    links_for_tables(night)
    return next_round


# ---- rotation charts: the whole night fixed in advance, players holding chart numbers -----------------------------


def _chart_size_error(night: Night, size: int) -> str | None:
    numbers = Entry.objects.filter(night=night, number__isnull=False).values_list("number", flat=True)
    taken = max((number for number in numbers if number is not None), default=0)
    if taken > size:
        return f"Number {taken} is already given out: the chart needs at least {taken} places."
    return None


def _build_chart(
    night: Night,
    size: int,
    seed: int,
    field: str,
    apart: set[frozenset[int]] | None = None,
    groups: dict[int, str] | None = None,
) -> None:
    """Build and keep the chart on `night` (not saved here); `apart`: chart numbers who must not partner, `groups`:
    each number's group under a two-group rule."""
    if problem := _chart_size_error(night, size):
        raise ValidationError({field: problem})
    try:
        chart = rotation.build_chart(size, night.games, seed, apart or (), groups, night.fill == Night.Fill.THREES)
    except SeatingError as error:
        raise ValidationError({field: str(error)}) from error
    night.chart = charts.to_json(chart)
    night.chart_size = size


@transaction.atomic
def night_chart_build(*, night: Night, players: int, seed: int | None = None) -> Night:
    """Build the rotation chart for up to `players` before the night, so it and numbered cards can be printed.

    Numbers nobody takes sit out; building again (before the draw) replaces the chart.
    """
    night = lock_night(night)
    if night.movement != Night.Movement.ROTATION:
        raise ValidationError({"chart_size": "Only a rotation night has a chart: choose that movement first."})
    if night.status != Night.Status.SETUP:
        raise ValidationError({"chart_size": "The night has started: its chart can no longer change."})
    _build_chart(night, players, secrets.randbelow(2**31) if seed is None else seed, "chart_size")
    night.save(update_fields=["chart", "chart_size"])
    number_new_entries(night, list(Entry.objects.filter(night=night, number__isnull=True)), "chart_size")
    Night.touch(night.pk, moved=True)
    return night


def _free_numbers(night: Night) -> list[int]:
    taken = set(Entry.objects.filter(night=night, number__isnull=False).values_list("number", flat=True))
    return [number for number in range(1, (night.chart_size or 0) + 1) if number not in taken]


def number_new_entries(night: Night, entries: Sequence[Entry], field: str) -> None:
    """Give each new player on a rotation night a free chart number, in arrival order or at random.

    Before a chart exists the numbers wait for the draw, which builds the chart for whoever is there.
    """
    if night.movement != Night.Movement.ROTATION or not night.chart:
        return
    free = _free_numbers(night)
    waiting = [entry for entry in entries if entry.number is None and not entry.player.house]
    if len(waiting) > len(free):
        raise ValidationError(
            {
                field: f"Every number on the {night.chart_size}-player chart is taken: "
                + (
                    "build the chart again for more players."
                    if night.status == Night.Status.SETUP
                    else "a rotation night cannot seat more players than its chart (unused numbers simply sit "
                    "out, so next time build it for more than you expect)."
                )
            }
        )
    if night.numbering == Night.Numbering.RANDOM:
        random.SystemRandom().shuffle(free)
    for entry, number in zip(waiting, free, strict=False):
        entry.number = number
        entry.save(update_fields=["number"])


def _chart_for_draw(night: Night) -> None:
    """At the draw: a chart for the players here if none was built before, and a number for everyone."""
    present = list(
        Entry.objects.filter(night=night, checked_in=True, active=True, player__house=False)
        .select_related("player")
        .order_by("id")
    )
    if night.chart and night.chart["games"] < night.games:
        raise ValidationError(
            {
                "draw": f"The chart was built for {night.chart['games']} games and the night has {night.games}: "
                "build the chart again."
            }
        )
    if problem := charts.fill_mismatch(night):
        raise ValidationError({"draw": problem})
    wishes = night.wishes()
    if wishes:
        _chart_numbers_by_wishes(night, present, wishes)
        return
    if not night.chart:
        _build_chart(night, night.chart_size or len(present), night.seed or 0, "draw")
    number_new_entries(night, present, "draw")


def _chart_numbers_by_wishes(night: Night, present: list[Entry], wishes) -> None:
    """Numbers for the players without one, chosen so the chart partners as few of them against their wishes as
    it can. Built now, a chart under a two-group rule gets the numbers first and keeps each group's numbers from
    partnering; otherwise the usual chart is built and the numbers are searched. Numbers already handed out stay."""
    seed = night.seed or 0
    size = night.chart_size or len(present)
    fixed = {entry.player_id: entry.number for entry in present if entry.number is not None}
    players = [entry.player_id for entry in present]
    if len(players) > size:
        raise ValidationError({"draw": f"{len(players)} players are here for a {size}-player chart."})
    try:
        if not night.chart and wishes.groups:
            numbers = rotation.number_players(rotation.Chart(size, 0, seed, False, ()), players, wishes, seed, fixed)
            groups = {numbers[p]: group for p, group in wishes.groups.items() if p in numbers}
            _build_chart(night, size, seed, "draw", rotation.apart_numbers(numbers, wishes), groups)
        else:
            if not night.chart:
                _build_chart(night, size, seed, "draw")
            chart = charts.night_chart(night)
            assert chart is not None
            numbers = rotation.number_players(chart, players, wishes, seed, fixed)
    except SeatingError as error:
        raise ValidationError({"draw": str(error)}) from error
    for entry in present:
        if entry.number is None:
            entry.number = numbers[entry.player_id]
            entry.save(update_fields=["number"])


def _rotation_plan(night: Night, number: int) -> roster.RoundPlan:
    """Game `number` as the chart has it. A table missing a player (a number nobody took, or someone who left)
    does not play: the others there sit out with the bye credit, as do the chart's own sit-outs. On a night with
    tables of three, a table of four missing one player plays three-handed instead."""
    assert night.chart is not None, "a rotation night is seated from its chart"
    chart = charts.from_json(night.chart)
    if number > len(chart.rounds):
        raise ValidationError({"round": f"The chart has only {len(chart.rounds)} games."})
    holders = dict(
        Entry.objects.filter(
            night=night, checked_in=True, active=True, player__house=False, number__isnull=False
        ).values_list("number", "player_id")
    )
    game = chart.rounds[number - 1]
    tables, byes = [], [holders[n] for n in game.sit_out if n in holders]
    for table in game.tables:
        seated = [holders[n] for n in table.players if n in holders]
        if len(seated) == len(table.players):
            tables.append(Table(table.number, *seated))
        elif len(seated) == 3 and night.fill == Night.Fill.THREES:
            tables.append(Table.of_three(table.number, seated))
        else:
            byes.extend(seated)
    if not tables:
        raise ValidationError({"round": f"Nobody can play game {number}: no table on the chart has all its players."})
    return roster.RoundPlan(tables=tuple(tables), byes=tuple(sorted(byes)))


@transaction.atomic
def entry_set_number(*, entry: Entry, number: int) -> Entry:
    """Give a player the chart number on the card they were handed (a rotation night). Seated-but-not-started games
    are seated again; games already played keep who played them."""
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    night = lock_night(entry.night)
    if night.movement != Night.Movement.ROTATION or not night.chart_size:
        raise ValidationError({"number": "Chart numbers belong to rotation nights with a chart."})
    require_unfinished(night, "number", "its chart numbers no longer change")
    if not 1 <= number <= night.chart_size:
        raise ValidationError({"number": f"The chart has numbers 1 to {night.chart_size}."})
    holder = Entry.objects.filter(night=night, number=number).exclude(pk=entry.pk).select_related("player").first()
    if holder is not None:
        raise ValidationError({"number": f"Number {number} is {holder.name}'s."})
    if (
        night.status != Night.Status.SETUP
        and entry.number is not None
        and entry.player.seatings.filter(round__night=night).exists()
    ):
        raise ValidationError({"number": f"{entry.name} has played as number {entry.number}: that stays."})
    entry.number = number
    entry.save(update_fields=["number"])
    reseat_if_waiting(night)
    Night.touch(night.pk, moved=True)
    return entry


@transaction.atomic
def seating_swap(*, round_: Round, player: int, other: int) -> None:
    """Put two players in each other's places (a seat or a bye) before their tables' scores are in.

    For a player who sat in the wrong seat: the movement then goes on from what was actually played.
    """
    round_ = _lock_round(round_)
    if round_.status == Round.Status.CLOSED:
        raise ValidationError({"swap": f"Game {round_.number} is closed: its seating is what was played."})
    if player == other:
        raise ValidationError({"swap": "Pick two different players."})
    places = {s.player_id: s for s in round_.seatings.filter(player_id__in=[player, other])}
    byes = {b.player_id: b for b in round_.byes.filter(player_id__in=[player, other])}
    unknown = [p for p in (player, other) if p not in places and p not in byes]
    if unknown:
        raise ValidationError({"swap": "Both players must be seated or sitting out in this game."})
    tables = {s.table for s in places.values()}
    scored = sorted(TableResult.objects.filter(round=round_, table__in=tables).values_list("table", flat=True))
    if scored:
        raise ValidationError({"swap": f"Table {scored[0]} already has a score: correct the score first."})
    seated_a, seated_b = places.get(player), places.get(other)
    if seated_a and seated_b:
        # A fixed partner apart at a table of three keeps their partner if they land at another one.
        keeps = seated_a.partner_id is not None and seated_b.partner_id is not None
        Seating.objects.filter(pk__in=[seated_a.pk, seated_b.pk]).delete()
        Seating.objects.bulk_create(
            Seating(round=round_, table=place.table, seat=place.seat, player_id=who, partner_id=mate if keeps else None)
            for place, who, mate in ((seated_b, player, seated_a.partner_id), (seated_a, other, seated_b.partner_id))
        )
    elif seated_a is not None or seated_b is not None:
        seated, sitting = (seated_a, other) if seated_a is not None else (seated_b, player)
        assert seated is not None
        out = seated.player_id
        Seating.objects.filter(pk=seated.pk).update(player_id=sitting)
        Bye.objects.filter(round=round_, player_id=sitting).update(player_id=out)
    Night.touch(round_.night_id, moved=True)


def links_for_tables(night: Night) -> list[TableLink]:
    """A live link for every table of the night's latest game (made once, kept until regenerated)."""
    current = night.rounds.order_by("-number").first()
    tables = set(current.seatings.values_list("table", flat=True)) if current else set()
    have = set(TableLink.objects.filter(night=night, active=True).values_list("table", flat=True))
    TableLink.objects.bulk_create(
        TableLink(night=night, table=table, token=secrets.token_urlsafe(18)) for table in sorted(tables - have)
    )
    return list(TableLink.objects.filter(night=night, active=True).order_by("table"))


@transaction.atomic
def table_links_ensure(*, night: Night) -> list[TableLink]:
    """Make the links a night's tables lack (the seating makes them; this is for nights seated before it did)."""
    return links_for_tables(night)


@transaction.atomic
def table_link_regenerate(*, night: Night, table: int) -> TableLink:
    """A new link for one table; the old one stops working at once."""
    TableLink.objects.select_for_update().filter(night=night, table=table, active=True).update(active=False)
    return TableLink.objects.create(night=night, table=table, token=secrets.token_urlsafe(18))
