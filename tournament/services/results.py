"""Players' results: the e-mail of their results link (once a player a night) and their choice to be left off
public lists."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .. import dispatch
from ..models import Entry, Night, Player


@transaction.atomic
def results_mail_start(*, night: Night, base_url: str) -> None:
    """The organizer's "E-mail players their results": the worker mails each player of the finished night who gave
    an e-mail address at sign-up their results link, on `base_url` (the address phones use). Pressed again, or the
    task run again, only those not yet mailed are."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    if night.status != Night.Status.FINISHED:
        raise ValidationError({"mail": "The results go out once the night is over."})
    if not base_url.startswith(("http://", "https://")):
        raise ValidationError({"mail": "No address to put in the links: set HEADTABLE_PHONE_URL."})
    dispatch.send_on_commit(dispatch.MAIL_RESULTS, night.pk, base_url)


def results_mail_claim(*, entry_id: int) -> dt.datetime | None:
    """Take a player's results e-mail for sending: the moment it was claimed, or None when it was already (by an
    earlier run, a second press, another worker). One statement, so two runs never both claim it."""
    at = timezone.now()
    claimed = Entry.objects.filter(pk=entry_id, results_mailed_at__isnull=True).update(results_mailed_at=at)
    return at if claimed else None


def results_mail_release(*, entry_id: int, claimed_at: dt.datetime) -> None:
    """The mail server refused or could not be reached: the player is mailed by the next try."""
    Entry.objects.filter(pk=entry_id, results_mailed_at=claimed_at).update(results_mailed_at=None)


@transaction.atomic
def player_unlisted_set(*, player: Player, unlisted: bool) -> Player:
    """Leave a player off the public lists (or put them back on): the roster's choice, for every night of theirs."""
    Player.objects.filter(pk=player.pk).update(unlisted=unlisted)
    player.unlisted = unlisted
    now = timezone.now()  # the public pages and the room display redraw without (or with) the name
    Night.objects.filter(pk__in=Entry.objects.filter(player=player).values("night_id")).update(
        changed_at=now, moved_at=now
    )
    return player


@transaction.atomic
def night_results_public_set(*, night: Night, public: bool) -> Night:
    """Show the night on the club's public results (or take it off). Any night, a finished one too: it changes
    what the club's public page lists, never a result, a standing or the night's record."""
    Night.objects.filter(pk=night.pk).update(results_public=public)
    night.results_public = public
    return night
