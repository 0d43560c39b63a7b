"""The club's public results (its site's home page): the nights the organizer opted in, each night's prizes and
places, and the seasons they count in; read in the same few queries whatever the number of nights."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from scoring.models import Season
from tournament.models import Club, Entry, Night

from .results import public_standings
from .standings import NightStandings, read_nights, standings_of


@dataclass(frozen=True)
class ClubNight:
    """One night on the club's public results: its standings as every public page shows them."""

    night: Night
    standings: NightStandings

    @property
    def players(self) -> int:
        return len(self.standings.rows)


@dataclass(frozen=True)
class ClubSeason:
    season: Season
    nights: int  # how many of its nights are on the public results


@dataclass(frozen=True)
class ClubResults:
    club: Club
    nights: list[ClubNight]
    seasons: list[ClubSeason]
    year: int | None = None  # the year whose nights are shown (None: no night is shown at all)
    years: list[int] = field(default_factory=list)  # every year with a night shown, the latest first


def club_by_slug(slug: str) -> Club | None:
    """The club at this short address (/public/c/<slug>/), or None."""
    return Club.objects.filter(slug=slug).first()


def club_results(club: Club, year: int | None = None) -> ClubResults:
    """The club's nights of one year (the latest with any, unless another is asked for) that are shown on its
    public results, newest first, each with its standings, players who asked to be left off public lists as "A
    player"; and the seasons that count at least one shown night. The same few queries whatever the number of
    nights (tests/tournament/test_club_site.py); a year at a time keeps a club of many years' nights as fast."""
    shown_nights = Night.objects.filter(club=club, results_public=True)
    years = sorted({day.year for day in shown_nights.dates("date", "year")}, reverse=True)
    if year not in years:
        year = years[0] if years else None
    nights = list(shown_nights.filter(date__year=year).order_by("-date", "-id")) if year else []
    rows = read_nights(nights)  # with every hand's extras: a "most loners" prize reads as the night's own page
    hidden: dict[int, set[str]] = defaultdict(set)
    unlisted = Entry.objects.filter(night__in=nights, player__unlisted=True, player__house=False)
    for night_id, name in unlisted.values_list("night_id", "name"):
        hidden[night_id].add(name)
    shown = [
        ClubNight(night, public_standings(standings_of(rows[night.pk]), frozenset(hidden[night.pk])))
        for night in nights
    ]
    seasons = (
        Season.objects.filter(owner=club)
        .annotate(shown=Count("nights", filter=Q(nights__results_public=True, nights__club=club), distinct=True))
        .filter(shown__gt=0)
        .order_by("-created_at", "-id")
    )
    return ClubResults(club, shown, [ClubSeason(season, season.shown) for season in seasons], year, years)
