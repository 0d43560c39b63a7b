"""The only writers for nights, players, rounds and seats. Each service is one transaction."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import TableResult
from scoring.rules import PRESETS, STANDARD

from .engine import progressive
from .engine.draw import opening_draw
from .engine.types import SeatingError, Table
from .models import Entry, Night, Player, Round, Seating

MOVEMENTS = {Night.Movement.PROGRESSIVE: progressive.next_seating}


def clean_name(name: str) -> str:
    return " ".join(name.split())


@transaction.atomic
def night_create(
    *,
    name: str,
    date: dt.date | None = None,
    venue: str = "",
    movement: str = Night.Movement.PROGRESSIVE,
    games: int = 10,
    hands_per_game: int = 8,
    minutes_per_game: int | None = None,
    scoring: str = "standard",
    tie_rule: str = "last_hand",
    paper: str = Night.Paper.LETTER,
    created_by=None,
) -> Night:
    night = Night(
        name=clean_name(name),
        date=date or timezone.localdate(),
        venue=venue.strip(),
        movement=movement,
        games=games,
        hands_per_game=hands_per_game,
        minutes_per_game=minutes_per_game,
        scoring=scoring,
        rules=PRESETS.get(scoring, STANDARD).as_dict(),
        tie_rule=tie_rule,
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
        raise ValidationError({field: "The opening seating is already drawn: players can no longer be changed."})


@transaction.atomic
def players_register(*, night: Night, names: Iterable[str], checked_in: bool = True) -> list[Entry]:
    """Register players by name, adding new names to the club roster. All or nothing."""
    night = _lock_night(night)
    _require_setup(night, "names")
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
    roster = {player.name_key: player for player in Player.objects.filter(name_key__in=keys)}
    entries = []
    for name in cleaned:
        player = roster.get(Player.key_for(name)) or Player.objects.create(name=name)
        entries.append(Entry.objects.create(night=night, player=player, checked_in=checked_in))
    return entries


@transaction.atomic
def players_add_from_roster(*, night: Night, player_ids: Sequence[int]) -> list[Entry]:
    night = _lock_night(night)
    _require_setup(night, "players")
    players = list(Player.objects.filter(pk__in=player_ids))
    if not players:
        raise ValidationError({"players": "Pick at least one player from the roster."})
    already = [e.player.name for e in Entry.objects.filter(night=night, player__in=players).select_related("player")]
    if already:
        raise ValidationError({"players": f"Already registered for this night: {', '.join(sorted(already))}."})
    return [Entry.objects.create(night=night, player=player) for player in players]


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


def _save_tables(round_: Round, tables: Sequence[Table]) -> None:
    Seating.objects.bulk_create(
        Seating(round=round_, table=table.number, seat=seat, player_id=player)
        for table in tables
        for seat, player in table.seats.items()
    )


@transaction.atomic
def night_draw(*, night: Night, seed: int | None = None) -> Round:
    """Draw the opening seating at random from the checked-in players and record the seed."""
    night = _lock_night(night)
    if night.status != Night.Status.SETUP:
        raise ValidationError({"draw": "The opening seating has already been drawn."})
    player_ids = list(
        Entry.objects.filter(night=night, checked_in=True, active=True).values_list("player_id", flat=True)
    )
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        tables = opening_draw(player_ids, seed)
    except SeatingError as error:
        raise ValidationError({"draw": str(error)}) from error
    night.seed = seed
    night.status = Night.Status.PLAYING
    night.save(update_fields=["seed", "status"])
    round_ = Round.objects.create(night=night, number=1)
    _save_tables(round_, tables)
    return round_


def _lock_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("night").get(pk=round_.pk)


@transaction.atomic
def round_start(*, round_: Round) -> Round:
    round_ = _lock_round(round_)
    if round_.status != Round.Status.SEATED:
        raise ValidationError({"round": f"Game {round_.number} has already started."})
    round_.status = Round.Status.PLAYING
    round_.started_at = timezone.now()
    round_.save(update_fields=["status", "started_at"])
    return round_


def round_tables(round_: Round) -> list[Table]:
    """The round's seating as engine tables."""
    by_table: dict[int, dict[str, int]] = {}
    for table, seat, player in round_.seatings.values_list("table", "seat", "player_id"):
        by_table.setdefault(table, {})[seat] = player
    return [Table.from_seats(number, seats) for number, seats in sorted(by_table.items())]


@transaction.atomic
def round_close(*, round_: Round) -> Round | None:
    """Close a round once every table is in, apply the movement and seat the next game.

    Returns the next round, or None when this was the night's last game (the night is then finished).
    """
    round_ = _lock_round(round_)
    night = round_.night
    if round_.status == Round.Status.CLOSED:
        raise ValidationError({"round": f"Game {round_.number} is already closed."})
    if round_.status != Round.Status.PLAYING:
        raise ValidationError({"round": f"Game {round_.number} has not started yet."})
    tables = round_tables(round_)
    winners = dict(
        TableResult.objects.filter(round=round_, status=TableResult.Status.FINAL).values_list("table", "winner")
    )
    missing = [table.number for table in tables if table.number not in winners]
    if missing:
        label = "Table" if len(missing) == 1 else "Tables"
        raise ValidationError(
            {"round": f"{label} {', '.join(map(str, missing))} still to enter a score for game {round_.number}."}
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    if round_.number >= night.games:
        Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
        return None
    try:
        next_tables = MOVEMENTS[night.movement](tables, winners)
    except SeatingError as error:
        raise ValidationError({"round": str(error)}) from error
    try:
        next_round = Round.objects.create(night=night, number=round_.number + 1)
    except IntegrityError as error:
        raise ValidationError({"round": f"Game {round_.number + 1} is already seated."}) from error
    _save_tables(next_round, next_tables)
    return next_round
