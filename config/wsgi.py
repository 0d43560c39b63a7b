"""WSGI entry point for granian (the venue) and gunicorn (hosted)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Read the Unicode collation table (0.3 s) as each server process starts, not inside the first request that sorts
# names: the room display's first draw after a start, or a phone's first find-me.
from scoring import names  # noqa: E402

names.sort_key("Head Table")
