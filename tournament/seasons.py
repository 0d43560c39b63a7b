"""The only writers for seasons: a club's nights put together in one table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring import names
from scoring.models import Season

from .models import Night, sole_club_id

SEASON_FIELDS = ("name", "club", "notes", "method", "best_of")


def _season_save(season: Season) -> Season:
    # as names are kept: no zero-width or control characters, spaces collapsed (`scoring.names.clean`)
    season.name = names.clean(season.name)
    season.club = names.clean(season.club)
    season.notes = season.notes.strip()
    if not season.name:
        raise ValidationError({"name": "Give the season a name, for example “Winter 2027”."})
    if season.method != Season.Method.BEST:
        season.best_of = None  # a number that counts for nothing would only confuse the next reader
    season.full_clean(exclude=["created_by", "owner"])
    season.save()
    return season


@transaction.atomic
def season_create(
    *,
    name: str,
    club: str = "",
    notes: str = "",
    method: str = Season.Method.TOTAL,
    best_of: int | None = None,
    created_by=None,
    owner_id: int | None = None,
) -> Season:
    """A new season with no nights yet, of the club `owner_id` (on the laptop: its one club)."""
    season = Season(name=name, club=club, notes=notes, method=method, best_of=best_of)
    season.owner_id = owner_id or sole_club_id()
    season.created_by = created_by if getattr(created_by, "is_authenticated", False) else None
    return _season_save(season)


@transaction.atomic
def season_update(*, season: Season, **changes: Any) -> Season:
    """Change a season's name, club, notes or how it ranks players."""
    unknown = sorted(set(changes) - set(SEASON_FIELDS))
    if unknown:
        raise ValidationError({"__all__": f"A season has no setting {unknown[0]!r}."})
    season = Season.objects.select_for_update().get(pk=season.pk)
    for name, value in changes.items():
        setattr(season, name, value)
    return _season_save(season)


def _nights(season: Season, night_ids: Sequence[int]) -> list[Night]:
    """The nights of these numbers, each of the season's own club (another club's night is no such night here)."""
    ids = list(dict.fromkeys(night_ids))
    nights = list(Night.objects.filter(pk__in=ids, club_id=season.owner_id))
    if len(nights) != len(ids):
        missing = sorted(set(ids) - {night.pk for night in nights})
        raise ValidationError({"nights": f"No such night: {', '.join(map(str, missing))}."})
    return nights


@transaction.atomic
def season_nights_add(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Add nights to a season; a night already in it stays once."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    nights = _nights(season, night_ids)
    if not nights:
        raise ValidationError({"nights": "Pick at least one night to add."})
    season.nights.add(*nights)
    return season


@transaction.atomic
def season_nights_remove(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Take nights out of a season (the nights themselves are kept)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    ids = set(night_ids)
    outside = sorted(ids - set(season.nights.filter(pk__in=ids).values_list("pk", flat=True)))
    if outside:
        raise ValidationError({"nights": f"Not in this season: night {', '.join(map(str, outside))}."})
    season.nights.remove(*ids)
    return season


@transaction.atomic
def season_nights_set(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Make the season's nights exactly these (the organizer's ticked list)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.nights.set(_nights(season, night_ids))
    return season
