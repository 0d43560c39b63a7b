"""Logging filters for the server's console log."""

from __future__ import annotations

import logging


class QuietRefusals(logging.Filter):
    """A refused page (403: a keeper opening an organizer's page, another club's night) is one line in the log, not
    a traceback: it is the app working as meant, and a night's log full of them hides the errors that matter."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "django.request" and getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
