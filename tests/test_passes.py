"""What decides which pass runs a test (tests/conftest.py): a test without the database runs in the first pass
only, and so may not use the cache either, which the second pass keeps in Redis."""

from __future__ import annotations

import pytest


def test_a_test_without_the_database_runs_once_and_has_no_cache(request):
    from django.core.cache import caches

    assert request.node.get_closest_marker("once")
    for alias in ("default", "limits"):
        with pytest.raises(AssertionError, match="mark it `backend`"):
            caches[alias].get("anything")


@pytest.mark.django_db
def test_a_database_test_runs_in_both_passes_with_the_passs_cache(request):
    from django.core.cache import caches

    assert not request.node.get_closest_marker("once")
    caches["default"].set("seen", 1)
    assert caches["default"].get("seen") == 1
