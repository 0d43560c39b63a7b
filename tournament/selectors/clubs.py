"""Which club a request works in, and whether a night or a season is that club's (one query each)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

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


@dataclass(frozen=True)
class PublishState:
    """The night page's words on publishing to the club's site."""

    site: str  # the club's site ("": none typed yet)
    words: str  # queued, sent at HH:MM, or the last try's words (the site's refusal, or why it was not reached)
    live: bool
    waiting: bool = False  # queued and not sent since: the night page follows it until the site answers


def publish_state(night: Night) -> PublishState | None:
    """None on the club's site itself (a club with a publishing key here): its nights are the published ones."""
    club = Club.objects.only("site_address", "site_key", "publish_key_hash").get(pk=night.club_id)
    if club.publish_key_hash:
        return None
    site = club.site_address if club.site_key else ""
    asked, sent = night.publish_asked_at, night.published_at
    waiting = night.publish_waiting
    if waiting:
        words = night.publish_note or f"Queued at {timezone.localtime(asked):%H:%M}: sent when the site answers."
    elif sent is not None:
        said = f" The site said: {night.publish_note}" if night.publish_note else ""
        words = f"Sent at {timezone.localtime(sent):%H:%M}.{said}"
    else:
        words = "Not published yet."
    return PublishState(site=site, words=words, live=night.publish_live, waiting=waiting and bool(site))
