"""A night published to its club's site (the hosted side of "Publish to the club's site"): its backup file, checked
as a restore checks it, made the club's night, or put in place of the club's copy of the same night (by its uid).

Sent again, it replaces that copy in one transaction (never a second copy) and keeps what the club chose on its
own site: whether its public results list the night, the seasons that count it, who was mailed their results
link. The same night again changes nothing. A night finished on the site is its record: only the very same night
is taken again.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ..models import Club, Entry, Night, Player
from . import checks
from .export import night_export
from .restore import as_restored_checksum, night_restore

MADE, REPLACED, UNCHANGED = "made", "replaced", "unchanged"


class Finished(ValidationError):
    """The site's copy is finished and the file is not the same night: refused (the laptop is told why)."""


@dataclasses.dataclass(frozen=True)
class Published:
    night: Night
    outcome: str  # MADE, REPLACED or UNCHANGED


def _uid(data: dict[str, Any]) -> uuid.UUID:
    info = data.get("night")
    try:
        return uuid.UUID(str(info["uid"]))  # type: ignore[index]
    except (KeyError, TypeError, ValueError) as error:
        raise checks.refuse(f"This backup names no night (its uid is missing or wrong). {checks.NOTHING}") from error


@transaction.atomic
def night_publish(*, raw: bytes, club: Club) -> Published:
    """The night in `raw` (a night's backup file) as `club`'s night on this server: made, replaced or unchanged."""
    data = checks.parse(raw)  # the file whole, its checksum right
    uid = _uid(data)
    # One club's publishes one at a time: two first sends of a new night at the same moment (a press and the task
    # after a game) would both find no night and the second be refused as a clash; waiting here, the second finds
    # the first's night and replaces it or leaves it unchanged. Other clubs, and rows that only point at the club (a
    # player, a night), are not held up (FOR NO KEY UPDATE).
    Club.objects.select_for_update(no_key=True).filter(pk=club.pk).first()
    here = Night.objects.select_for_update().filter(uid=uid).first()
    if here is None:
        return Published(_from_venue(night_restore(raw=raw, club=club)), MADE)
    if here.club_id != club.pk:  # another club's: not named
        raise checks.refuse(f"This night is on this server already, as another club's. {checks.NOTHING}")
    if night_export(here)["checksum"] == as_restored_checksum(data, club.pk):
        return Published(here, UNCHANGED)
    if here.status == Night.Status.FINISHED:
        raise Finished(
            f"“{here.name}” of {here.date:%Y-%m-%d} is finished on the club's site, and its record never changes:"
            " this file is not the same night as that record (was it changed on the laptop after it was published?)."
            f" {checks.NOTHING}"
        )
    return Published(_from_venue(_replace(here, raw)), REPLACED)


def _from_venue(night: Night) -> Night:
    """Mark the night as the venue's on this site (its page says a change made here is replaced by the next send)."""
    night.from_venue_at = timezone.now()
    Night.objects.filter(pk=night.pk).update(from_venue_at=night.from_venue_at)
    return night


def _replace(here: Night, raw: bytes) -> Night:
    """The club's copy deleted and the file restored in its place, at the same address, with the club's own choices
    put back (inside the caller's transaction: a refusal leaves the copy as it was)."""
    seasons = list(here.seasons.values_list("pk", flat=True))
    mailed = dict(
        Entry.objects.filter(night=here, results_mailed_at__isnull=False).values_list("player_id", "results_mailed_at")
    )
    house = Player.objects.filter(club_id=here.club_id, house=True, name_key__startswith=f"house:{here.pk}:")
    pk, club, public = here.pk, here.club, here.results_public
    here.delete()
    house.delete()  # a night's house players are its own: made again from the file with the same keys
    night = night_restore(raw=raw, club=club, pk=pk)
    Night.objects.filter(pk=pk).update(results_public=public)
    night.results_public = public
    night.seasons.set(seasons)
    for player_id, at in mailed.items():  # nobody is mailed twice
        Entry.objects.filter(night=night, player_id=player_id).update(results_mailed_at=at)
    return night
