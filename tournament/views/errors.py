"""Pages for a refused or missing address: a plain sentence and a way on, never a bare status line."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig, TooManyFieldsSent
from django.http import Http404
from django.template.response import TemplateResponse

from ..permissions import NoClub

# Our own Http404s are sentences for the person holding the phone; Django's own say which model was not found.
TECHNICAL = ("matches the given query", "Resolver404", "Http404")


def not_found(request, exception: Exception):
    message = exception.args[0] if isinstance(exception, Http404) and exception.args else ""
    if not isinstance(message, str) or any(word in message for word in TECHNICAL):
        message = ""
    return TemplateResponse(request, "404.html", {"message": message}, status=404)


def forbidden(request, exception: Exception):
    user = request.user
    nights = list(user.kept_nights.all()) if user.is_authenticated else []
    no_club = str(exception) if isinstance(exception, NoClub) else ""
    return TemplateResponse(request, "403.html", {"kept_nights": nights, "no_club": no_club}, status=403)


def bad_request(request, exception: Exception):
    """A request Django would not read: a paste or form past its size limits says so, never a bare status line. A
    page opened (a link followed) is told it was not opened, not that something was not sent: most often a link
    whose address the server is not set to answer to (`DJANGO_ALLOWED_HOSTS`)."""
    if request.method in {"GET", "HEAD"}:
        wrong_host = isinstance(exception, DisallowedHost)
        return TemplateResponse(request, "400_open.html", {"wrong_host": wrong_host}, status=400)
    too_big = isinstance(exception, RequestDataTooBig | TooManyFieldsSent)
    limit = (
        f"{settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} fields"
        if isinstance(exception, TooManyFieldsSent)
        else f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 1_000_000:.1f} MB"
    )
    return TemplateResponse(request, "400.html", {"too_big": too_big, "limit": limit}, status=400)
