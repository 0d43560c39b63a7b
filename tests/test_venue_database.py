"""The venue's SQLite database: how it is opened."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_at_the_venue_each_commit_reaches_the_disk_before_saved_is_sent():
    """SQLite in WAL mode with synchronous=FULL: a power cut after "Saved." loses nothing (#22)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the venue's database only")
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] in ("wal", "memory")
