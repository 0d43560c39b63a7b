"""The only writers for nights, players, rounds and seats. Each service is one transaction."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services as score_services
from scoring.models import TableLink, TableResult
from scoring.rules import PRESETS, STANDARD, Ruleset, ScoringError
from scoring.seats import HEAD_TABLE

from . import charts
from .engine import roster, rotation
from .engine.movements import KEEPS_PARTNERS, MOVEMENTS
from .engine.types import SeatingError, Table
from .models import Action, Bye, Cause, Entry, Night, Player, Round, RoundEvent, Seating


def clean_name(name: str) -> str:
    return " ".join(name.split())


@transaction.atomic
def night_create(
    *,
    name: str,
    date: dt.date | None = None,
    venue: str = "",
    movement: str = Night.Movement.PROGRESSIVE,
    numbering: str = Night.Numbering.ARRIVAL,
    fill: str = Night.Fill.BYES,
    bye_credit: str = Night.ByeCredit.NONE,
    bye_points: int = 0,
    rank_by: str = Night.RankBy.TOTAL,
    tie_chain: str = "",
    final_draw: bool = False,
    prizes: str = "high,second,third,low,loners",
    one_prize_each: bool = True,
    games: int = 10,
    hands_per_game: int = 8,
    minutes_per_game: int | None = None,
    warning_minutes: int = 2,
    auto_advance: bool = True,
    break_after: int | None = None,
    break_minutes: int = 15,
    scoring: str = "standard",
    tie_rule: str = "last_hand",
    confirm_results: bool = True,
    paper: str = Night.Paper.LETTER,
    created_by=None,
) -> Night:
    night = Night(
        name=clean_name(name),
        date=date or timezone.localdate(),
        venue=venue.strip(),
        movement=movement,
        numbering=numbering,
        fill=fill,
        bye_credit=bye_credit,
        bye_points=bye_points,
        rank_by=rank_by,
        tie_chain=tie_chain,
        final_draw=final_draw,
        prizes=prizes,
        one_prize_each=one_prize_each,
        games=games,
        hands_per_game=hands_per_game,
        minutes_per_game=minutes_per_game,
        warning_minutes=warning_minutes,
        auto_advance=auto_advance,
        break_after=break_after,
        break_minutes=break_minutes,
        scoring=scoring,
        rules=PRESETS.get(scoring, STANDARD).as_dict(),
        tie_rule=tie_rule,
        confirm_results=confirm_results,
        paper=paper,
        created_by=created_by,
    )
    night.full_clean()
    night.save()
    return night


def _lock_night(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def _require_setup(night: Night, field: str) -> None:
    if night.status != Night.Status.SETUP:
        raise ValidationError({field: "The opening seating is already drawn: mark the player as gone instead."})


def _require_open(night: Night, field: str) -> None:
    if night.status == Night.Status.FINISHED:
        raise ValidationError({field: "The night is over: no more players can join."})


@transaction.atomic
def players_register(*, night: Night, names: Iterable[str], checked_in: bool = True) -> list[Entry]:
    """Register players by name, adding new names to the club roster. All or nothing."""
    night = _lock_night(night)
    _require_open(night, "names")
    cleaned = [clean_name(name) for name in names]
    cleaned = [name for name in cleaned if name]
    if not cleaned:
        raise ValidationError({"names": "Type at least one name."})
    too_long = [name for name in cleaned if len(name) > Player._meta.get_field("name").max_length]
    if too_long:
        raise ValidationError({"names": f"Name too long (80 characters at most): {too_long[0][:40]}…"})
    keys = [Player.key_for(name) for name in cleaned]
    repeated = sorted({name for name, key in zip(cleaned, keys, strict=True) if keys.count(key) > 1})
    if repeated:
        raise ValidationError({"names": f"Listed twice: {', '.join(repeated)}."})
    registered = {e.player.name_key: e.player.name for e in Entry.objects.filter(night=night).select_related("player")}
    already = sorted(registered[key] for key in keys if key in registered)
    if already:
        raise ValidationError({"names": f"Already registered for this night: {', '.join(already)}."})
    known = {player.name_key: player for player in Player.objects.filter(name_key__in=keys)}
    offset = _bye_floor(night)
    entries = []
    for name in cleaned:
        player = known.get(Player.key_for(name)) or Player.objects.create(name=name)
        entries.append(Entry.objects.create(night=night, player=player, checked_in=checked_in, bye_offset=offset))
    _number_new_entries(night, entries, "names")
    _reseat_if_waiting(night)
    return entries


@transaction.atomic
def players_add_from_roster(*, night: Night, player_ids: Sequence[int]) -> list[Entry]:
    night = _lock_night(night)
    _require_open(night, "players")
    players = list(Player.objects.filter(pk__in=player_ids, house=False))
    if not players:
        raise ValidationError({"players": "Pick at least one player from the roster."})
    already = [e.player.name for e in Entry.objects.filter(night=night, player__in=players).select_related("player")]
    if already:
        raise ValidationError({"players": f"Already registered for this night: {', '.join(sorted(already))}."})
    offset = _bye_floor(night)
    entries = [Entry.objects.create(night=night, player=player, bye_offset=offset) for player in players]
    _number_new_entries(night, entries, "players")
    _reseat_if_waiting(night)
    return entries


@transaction.atomic
def entry_set_checked_in(*, entry: Entry, checked_in: bool) -> Entry:
    entry = Entry.objects.select_for_update().select_related("night").get(pk=entry.pk)
    _require_setup(entry.night, "players")
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    return entry


@transaction.atomic
def entry_remove(*, entry: Entry) -> None:
    entry = Entry.objects.select_for_update().select_related("night").get(pk=entry.pk)
    _require_setup(entry.night, "players")
    entry.delete()


@transaction.atomic
def entry_set_active(*, entry: Entry, active: bool) -> Entry:
    """A player leaves the night (or comes back). Their games stay in the standings.

    A player who leaves during a game finishes it; the movement leaves them out of the next. When the next game is
    seated and not yet started, it is seated again at once.
    """
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    if entry.night.status == Night.Status.FINISHED:
        raise ValidationError({"players": "The night is over."})
    entry.active = active
    if active:
        entry.checked_in = True
    entry.save(update_fields=["active", "checked_in"])
    _reseat_if_waiting(entry.night)
    Night.touch(entry.night_id, moved=True)
    return entry


# ---- seating a game: the opening draw, the movement, byes and house players -------------------------------------


def _house_needed(night: Night, real: int) -> int:
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
        player = Player.objects.create(name=f"House player {number}", house=True, name_key=f"house:{night.pk}:{number}")
        house_entries.append(Entry.objects.create(night=night, player=player))
    for index, entry in enumerate(house_entries):
        active = index < needed
        if entry.active != active:
            entry.active = active
            entry.save(update_fields=["active"])
    house = {e.player_id for e in house_entries[:needed]}
    return real | house, house


def _bye_floor(night: Night) -> int:
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
    """Fixed partnerships as they stood in `round_` (at the tables and among the byes)."""
    partners: dict[int, int] = {}
    for table in round_tables(round_):
        for side in ("NS", "EW"):
            a, b = table.pair(side)
            partners[a], partners[b] = b, a
    for player, partner in round_.byes.values_list("player_id", "partner_id"):
        if partner:
            partners[player] = partner
    return partners


def _partnered(night: Night, before: int) -> dict[frozenset[int], int]:
    """How many games each pair of players has partnered before game `before` (one query)."""
    seats: dict[tuple[int, int], dict[str, int]] = {}
    for number, table, seat, player in Seating.objects.filter(round__night=night, round__number__lt=before).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        seats.setdefault((number, table), {})[seat] = player
    counts: dict[frozenset[int], int] = {}
    for table in seats.values():
        for a, b in (("N", "S"), ("E", "W")):
            if a in table and b in table:
                pair = frozenset((table[a], table[b]))
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def _plan(night: Night, number: int, proposed: list[Table], previous: Round | None) -> roster.RoundPlan:
    if night.movement == Night.Movement.ROTATION:
        return _rotation_plan(night, number)
    present, house = _present(night)
    counts, last = _bye_history(night, number)
    partners = None
    if night.movement in KEEPS_PARTNERS:
        partners = _partners(previous) if previous else {}
    partnered = _partnered(night, number)
    try:
        return roster.plan_round(
            proposed,
            present=present,
            bye_counts=counts,
            sat_out_last=last,
            seed=(night.seed or 0) * 7_919 + number,
            partners=partners,
            never_bye=house,
            partnered=partnered,
        )
    except SeatingError as error:
        raise ValidationError({"round": str(error)}) from error


def _save_plan(round_: Round, plan: roster.RoundPlan) -> None:
    Seating.objects.bulk_create(
        Seating(round=round_, table=table.number, seat=seat, player_id=player)
        for table in plan.tables
        for seat, player in table.seats.items()
    )
    partners = plan.partners or {}
    Bye.objects.bulk_create(Bye(round=round_, player_id=p, partner_id=partners.get(p)) for p in plan.byes)


@transaction.atomic
def night_draw(*, night: Night, seed: int | None = None) -> Round:
    """Draw the opening seating at random from the checked-in players and record the seed."""
    night = _lock_night(night)
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
    RoundEvent.record(round_, Action.SEATED, Cause.DRAW)
    return round_


def _reseat_if_waiting(night: Night) -> None:
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
    RoundEvent.record(current, Action.RESEATED, Cause.RESEATED)


def _lock_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("night").get(pk=round_.pk)


def round_tables(round_: Round) -> list[Table]:
    """The round's seating as engine tables."""
    by_table: dict[int, dict[str, int]] = {}
    for table, seat, player in round_.seatings.values_list("table", "seat", "player_id"):
        by_table.setdefault(table, {})[seat] = player
    return [Table.from_seats(number, seats) for number, seats in sorted(by_table.items())]


def round_seat_next(round_: Round, *, tables: list[Table], winners: dict[int, str]) -> Round:
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
    return next_round


# ---- rotation charts: the whole night fixed in advance, players holding chart numbers -----------------------------


def _chart_size_error(night: Night, size: int) -> str | None:
    taken = max(Entry.objects.filter(night=night, number__isnull=False).values_list("number", flat=True), default=0)
    if taken > size:
        return f"Number {taken} is already given out: the chart needs at least {taken} places."
    return None


def _build_chart(night: Night, size: int, seed: int, field: str) -> None:
    """Build and keep the chart on `night` (not saved here)."""
    if error := _chart_size_error(night, size):
        raise ValidationError({field: error})
    try:
        chart = rotation.build_chart(size, night.games, seed)
    except SeatingError as error:
        raise ValidationError({field: str(error)}) from error
    night.chart = charts.to_json(chart)
    night.chart_size = size


@transaction.atomic
def night_chart_build(*, night: Night, players: int, seed: int | None = None) -> Night:
    """Build the rotation chart for up to `players` before the night, so it and numbered cards can be printed.

    Numbers nobody takes sit out; building again (before the draw) replaces the chart.
    """
    night = _lock_night(night)
    if night.movement != Night.Movement.ROTATION:
        raise ValidationError({"chart_size": "Only a rotation night has a chart: choose that movement first."})
    if night.status != Night.Status.SETUP:
        raise ValidationError({"chart_size": "The night has started: its chart can no longer change."})
    _build_chart(night, players, secrets.randbelow(2**31) if seed is None else seed, "chart_size")
    night.save(update_fields=["chart", "chart_size"])
    _number_new_entries(night, list(Entry.objects.filter(night=night, number__isnull=True)), "chart_size")
    Night.touch(night.pk, moved=True)
    return night


def _free_numbers(night: Night) -> list[int]:
    taken = set(Entry.objects.filter(night=night, number__isnull=False).values_list("number", flat=True))
    return [number for number in range(1, (night.chart_size or 0) + 1) if number not in taken]


def _number_new_entries(night: Night, entries: Sequence[Entry], field: str) -> None:
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
    if not night.chart:
        _build_chart(night, night.chart_size or len(present), night.seed, "draw")
    _number_new_entries(night, present, "draw")


def _rotation_plan(night: Night, number: int) -> roster.RoundPlan:
    """Game `number` as the chart has it. A table missing a player (a number nobody took, or someone who left)
    does not play: the others there sit out with the bye credit, as do the chart's own sit-outs."""
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
        seated = [holders.get(n) for n in table.players]
        if None in seated:
            byes.extend(player for player in seated if player is not None)
        else:
            tables.append(Table(table.number, *seated))
    if not tables:
        raise ValidationError({"round": f"Nobody can play game {number}: no table on the chart has all four players."})
    return roster.RoundPlan(tables=tuple(tables), byes=tuple(sorted(byes)))


@transaction.atomic
def entry_set_number(*, entry: Entry, number: int) -> Entry:
    """Give a player the chart number on the card they were handed (a rotation night). Seated-but-not-started games
    are seated again; games already played keep who played them."""
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    night = _lock_night(entry.night)
    if night.movement != Night.Movement.ROTATION or not night.chart_size:
        raise ValidationError({"number": "Chart numbers belong to rotation nights with a chart."})
    if night.status == Night.Status.FINISHED:
        raise ValidationError({"number": "The night is over."})
    if not 1 <= number <= night.chart_size:
        raise ValidationError({"number": f"The chart has numbers 1 to {night.chart_size}."})
    holder = Entry.objects.filter(night=night, number=number).exclude(pk=entry.pk).select_related("player").first()
    if holder is not None:
        raise ValidationError({"number": f"Number {number} is {holder.player.name}'s."})
    if (
        night.status != Night.Status.SETUP
        and entry.number is not None
        and entry.player.seatings.filter(round__night=night).exists()
    ):
        raise ValidationError({"number": f"{entry.player.name} has played as number {entry.number}: that stays."})
    entry.number = number
    entry.save(update_fields=["number"])
    _reseat_if_waiting(night)
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
        seat_a, seat_b = (seated_a.table, seated_a.seat), (seated_b.table, seated_b.seat)
        Seating.objects.filter(pk__in=[seated_a.pk, seated_b.pk]).delete()
        Seating.objects.bulk_create(
            [
                Seating(round=round_, table=seat_b[0], seat=seat_b[1], player_id=player),
                Seating(round=round_, table=seat_a[0], seat=seat_a[1], player_id=other),
            ]
        )
    elif seated_a or seated_b:
        seated, sitting = (seated_a, other) if seated_a else (seated_b, player)
        out = seated.player_id
        Seating.objects.filter(pk=seated.pk).update(player_id=sitting)
        Bye.objects.filter(round=round_, player_id=sitting).update(player_id=out)
    Night.touch(round_.night_id, moved=True)


@transaction.atomic
def keeper_add(*, night: Night, username: str, password: str = "") -> User:
    """Give a person score-keeping rights on this night, making their account if it is new."""
    username = username.strip()
    if not username:
        raise ValidationError({"username": "Type a name to log in with."})
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        if len(password) < 8:
            raise ValidationError({"password": "A new keeper needs a password of at least 8 characters."})
        user = User(username=username)
        user.set_password(password)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as error:
            raise ValidationError({"username": error.messages}) from error
        user.save()
    elif user.is_staff:
        raise ValidationError({"username": f"{user.username} is an organizer and can already keep score."})
    night.keepers.add(user)
    return user


@transaction.atomic
def keeper_remove(*, night: Night, user_id: int) -> None:
    night.keepers.remove(user_id)


@transaction.atomic
def players_import(*, night: Night, lines: Sequence) -> list[Entry]:
    """Register the players of a checked import (see tournament.imports), updating their roster number and
    category. Refused whole while any line has an error or a name is already registered tonight."""
    bad = [line for line in lines if line.error]
    if bad:
        raise ValidationError({"file": f"Line {bad[0].line}: {bad[0].error} Fix the file and try again."})
    if not lines:
        raise ValidationError({"file": "The file has no players in it."})
    entries = players_register(night=night, names=[line.name for line in lines])
    by_key = {Player.key_for(line.name): line for line in lines}
    for entry in entries:
        line = by_key[entry.player.name_key]
        changed = {k: v for k, v in (("club_number", line.number), ("category", line.category)) if v}
        if changed:
            Player.objects.filter(pk=entry.player_id).update(**changed)
    return entries


def import_preview(night: Night, lines: Sequence) -> list[dict]:
    """Each line of an import as the organizer sees it before importing: new, on the roster, or refused."""
    registered = set(Entry.objects.filter(night=night).values_list("player__name_key", flat=True))
    known = set(
        Player.objects.filter(name_key__in=[Player.key_for(line.name) for line in lines]).values_list(
            "name_key", flat=True
        )
    )
    rows = []
    for line in lines:
        key = Player.key_for(line.name) if line.name else ""
        error = line.error or ("Already registered for this night." if key in registered else "")
        status = "refused" if error else ("on the club roster" if key in known else "new to the roster")
        rows.append({"line": line, "error": error, "status": status})
    return rows


# ---- what the record of a table's game is told, and the night's scoring rules ---------------------------------------


def draw_seed(*, night_seed: int | None, round_number: int, table: int) -> int:
    """A reproducible seed for the app's draw on a tied game, from the night's recorded seed."""
    return ((night_seed or 0) * 1_000_003 + round_number * 1_009 + table) % 2**63


def scoring_game(round_: Round, table: int, *, night: Night | None = None) -> score_services.Game:
    """What `scoring.services` needs to know of one table's game (under `night`'s rules when given)."""
    night = night or round_.night
    return score_services.Game(
        round_id=round_.pk,
        number=round_.number,
        table=table,
        head=table == HEAD_TABLE,
        ruleset=Ruleset.from_dict(night.rules),
        hands_per_game=night.hands_per_game,
        tie_rule=night.tie_rule,
        draw_seed=draw_seed(night_seed=night.seed, round_number=round_.number, table=table),
        bell_at=round_.bell_at,
        confirm_results=night.confirm_results,
    )


@transaction.atomic
def night_rules_update(*, night: Night, preset: str, numbers: Mapping[str, Any], confirm: bool = False) -> int:
    """Change the night's ruleset and rescore every stored hand under it. Returns the number of hands rescored.

    With hands already recorded the organizer must confirm; the seating already played is kept even where a
    game's winner changes.
    """
    night = Night.objects.select_for_update().get(pk=night.pk)
    if preset not in PRESETS:
        raise ValidationError({"scoring": f"Unknown preset {preset!r}."})
    try:
        ruleset = Ruleset.from_dict({**numbers, "name": preset})
    except (ScoringError, TypeError) as error:
        raise ValidationError({"__all__": str(error)}) from error
    recorded = score_services.hands_recorded(night.pk)
    if recorded and not confirm:
        raise ValidationError(
            {
                "confirm": f"{recorded} hand{'s are' if recorded > 1 else ' is'} already recorded: "
                "confirm to rescore them under the new rules."
            }
        )
    night.scoring = preset
    night.rules = ruleset.as_dict()
    night.save(update_fields=["scoring", "rules"])
    games = {
        result.pk: scoring_game(result.round, result.table, night=night)
        for result in TableResult.objects.filter(round__night=night, entry=TableResult.Entry.HANDS).select_related(
            "round"
        )
    }
    return score_services.hands_rescore(night_id=night.pk, ruleset=ruleset, games=games)


@transaction.atomic
def table_links_ensure(*, night: Night) -> list[TableLink]:
    """A live link for every table of the night's latest game (made once, kept until regenerated)."""
    current = night.rounds.order_by("-number").first()
    tables = set(current.seatings.values_list("table", flat=True)) if current else set()
    have = set(TableLink.objects.filter(night=night, active=True).values_list("table", flat=True))
    TableLink.objects.bulk_create(
        TableLink(night=night, table=table, token=secrets.token_urlsafe(18)) for table in sorted(tables - have)
    )
    return list(TableLink.objects.filter(night=night, active=True).order_by("table"))


@transaction.atomic
def table_link_regenerate(*, night: Night, table: int) -> TableLink:
    """A new link for one table; the old one stops working at once."""
    TableLink.objects.select_for_update().filter(night=night, table=table, active=True).update(active=False)
    return TableLink.objects.create(night=night, table=table, token=secrets.token_urlsafe(18))
