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

from .models import Night


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
