"""Who may do what.

* organizer: a staff account; everything.
* score keeper: an account the organizer added to the night; enters, corrects and confirms any table's score and
  closes games, but changes no night settings.
* table: the link on a table's card; that table's entry in the current game only (see tournament.views.table).
* public: the read-only pages.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied

from .models import Club, Night
from .selectors import club_of


def organizer_required(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("Only the night's organizers may do this.")
        return view(request, *args, **kwargs)

    return wrapped


def can_keep(user, night_id: int) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_staff or Night.objects.filter(pk=night_id, keepers=user).exists()


def keeper_required(view):
    """The organizer or one of the night's score keepers (the view takes `night_id`)."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not can_keep(request.user, kwargs["night_id"]):
            raise PermissionDenied("Only this night's organizers and score keepers may do this.")
        return view(request, *args, **kwargs)

    return wrapped


def _club(request) -> Club | None:
    """The club the signed-in account works for, read once a request."""
    if not hasattr(request, "_club"):
        request._club = club_of(request.user)
    return request._club


class NoClub(PermissionDenied):
    """An account of no club asked for a club's page (on a hosted server: a site operator's account)."""


def request_club(request) -> Club:
    """The club the signed-in account works for (the pages that list or make a club's nights and seasons); an
    account of no club is refused with the reason. Every page of one night or season is checked against it by
    config.middleware.ClubMiddleware."""
    club = _club(request)
    if club is None:
        raise NoClub("This account works for no club here: ask the site's operator to add it to one.")
    return club


def organizer_of(request, club_id: int) -> bool:
    """Whether the account is an organizer of this club (who sees, on a public page, the players who asked to be
    left off public lists). An organizer of another club is anyone here."""
    if not request.user.is_staff:
        return False
    club = _club(request)
    return club is not None and club.pk == club_id
