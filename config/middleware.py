"""Project middleware."""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers


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
