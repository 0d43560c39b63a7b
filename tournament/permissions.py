"""Who may do what: organizer pages need a logged-in staff account."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied


def organizer_required(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("Only the night's organizers may do this.")
        return view(request, *args, **kwargs)

    return wrapped
