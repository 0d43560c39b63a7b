"""Which club a request works in, and whether a night or a season is that club's (one query each)."""

from __future__ import annotations

from scoring.models import Season

from ..models import Club, Night


def club_of(user) -> Club | None:
    """The club an account works for; None for a visitor or an account of no club (a site operator's)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Club.objects.filter(members__user=user).first()


def night_is_theirs(user, night_id: int) -> bool:
    """Whether the night is of the club the account works for: the one check every organizer's and keeper's page
    of a night passes (config.middleware.ClubMiddleware)."""
    return Night.objects.filter(pk=night_id, club__members__user=user).exists()


def season_is_theirs(user, season_id: int) -> bool:
    return Season.objects.filter(pk=season_id, owner__members__user=user).exists()
