"""Project middleware."""

import logging
import threading
import time

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from tournament import selectors
from tournament.sheets import printing


class LoadMiddleware:
    """How busy this server process is, told to the pages that poll.

    It counts the requests this process is answering at once. A poll (an htmx GET carrying the `since` stamp of
    its page) answered while `POLL_BUSY_REQUESTS` or more are under way carries `X-Poll-After`: the page waits that
    many seconds before it polls again (static/js/live.js), so that when the laptop cannot keep up the polls thin out
    before anything else slows. A poll that arrives while a POST (a score, a hand) is under way in the process waits
    for it, `POLL_YIELD_SECONDS` at most, so the score is not sharing Python's lock with a wave of polls: measured,
    hosted score posts p95 200 → 67–85 ms (README). Nothing else is ever turned away or delayed for load, a score's
    POST least of all.
    Every answer carries `Server-Timing: app;dur=…`, its milliseconds inside Django, so that a benchmark can tell
    the time a request waited for the server from the time it took.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.lock = threading.Lock()
        self.writes_done = threading.Condition(self.lock)
        self.running = 0
        self.writes = 0

    def __call__(self, request):
        started = time.perf_counter()
        poll = request.method == "GET" and "since" in request.GET and bool(request.headers.get("HX-Request"))
        write = request.method == "POST"
        with self.lock:
            if poll and self.writes:  # a score is being saved here: let it have Python's lock first
                self.writes_done.wait_for(lambda: not self.writes, timeout=settings.POLL_YIELD_SECONDS)
            self.running += 1
            self.writes += write
            busy = self.running >= settings.POLL_BUSY_REQUESTS
        try:
            response = self.get_response(request)
        finally:
            with self.lock:
                self.running -= 1
                self.writes -= write
                if write and not self.writes:
                    self.writes_done.notify_all()
        if busy and poll:
            response["X-Poll-After"] = str(settings.POLL_BACK_OFF_SECONDS)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.1f}"
        return response


LOOPBACK = ("127.", "::1", "::ffff:127.")


class AdminOnTheLaptopMiddleware:
    """At the venue the admin (every table, every account) answers only on the laptop itself: a phone on the
    hall's Wi-Fi that asks for /admin/ gets "not found". `HEADTABLE_ADMIN_ANYWHERE=1` (the default on a hosted
    server, behind TLS) lets it answer anywhere."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            not settings.ADMIN_ANYWHERE
            and request.path.startswith("/admin/")
            and not request.META.get("REMOTE_ADDR", "").startswith(LOOPBACK)
        ):
            body = "The admin opens only on the laptop itself (at http://127.0.0.1)."
            return HttpResponse(body, status=404, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class ClubMiddleware:
    """Each club kept apart on one server: a page of a night or a season (a `night_id` or `season_id` in its
    address) answers an account only if it is that account's club's: anything else is "not found", as a night
    that is not there. One query, for those pages only. The public pages (/public/…, the links on cards and
    tokens, the sheets of the registry's public audience) are for anyone and are not checked; a visitor's request
    is left to the page's own login check."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        match = request.resolver_match
        if match is None or match.route.startswith("public/") or not request.user.is_authenticated:
            return None
        if printing.is_public(kwargs.get("key")):  # a sheet the room may have (seating, standings): as to a visitor
            return None
        if "night_id" in kwargs and not selectors.night_is_theirs(request.user, kwargs["night_id"]):
            raise Http404("No such night here.")
        if "season_id" in kwargs and not selectors.season_is_theirs(request.user, kwargs["season_id"]):
            raise Http404("No such season here.")
        return None


class NotAllowedMiddleware:
    """An address opened in a way it does not take (a GET of an address a form sends to, typed or bookmarked) says
    so in words and offers a way on, not an empty page with 405 (Django's `require_POST` answers with no body)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            match = request.resolver_match
            table_phone = match is not None and "token" in match.kwargs and match.route.startswith("t/")
            back = reverse("scoring:table_link", args=[match.kwargs["token"]]) if table_phone else "/"
            response.content = render_to_string("405.html", {"back": back}, request=request).encode()
            response["Content-Type"] = "text/html; charset=utf-8"
        return response


class HtmxVaryMiddleware:
    """Pages answer htmx requests with a partial, so caches must key on the HX-Request header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


class DatabaseDownMiddleware:
    """When the database does not answer, say so plainly (503) instead of a bare server error.

    Every service runs in one transaction, so a request that met a dead database wrote nothing; the page can be
    sent again once the database is back.
    """

    MESSAGE = "The database is not answering: nothing was saved. Wait a moment and try again."

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logging.getLogger("headtable").error("database unavailable: %s", exception)
        body = f'<!doctype html><meta charset="utf-8"><title>Try again</title><p role="alert">{self.MESSAGE}</p>'
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "5"
        return response
