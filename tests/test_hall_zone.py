"""The hall's clock: the laptop's own time zone at the venue, the one named where TIME_ZONE says it."""

from __future__ import annotations

import pytest

from config.settings import hall_zone


def test_the_venue_keeps_the_laptops_own_zone_and_a_server_the_one_it_names():
    assert hall_zone({}, local=lambda: "Europe/Paris") == "Europe/Paris"
    assert hall_zone({"TIME_ZONE": "America/Halifax"}, local=lambda: "Europe/Paris") == "America/Halifax"
    assert hall_zone({"TIME_ZONE": "  "}, local=lambda: "Australia/Perth") == "Australia/Perth"


def _unreadable() -> str:
    raise LookupError("no zone configured")


@pytest.mark.parametrize("local", [lambda: None, lambda: "", lambda: "Mars/Olympus_Mons", _unreadable])
def test_a_laptop_whose_zone_cannot_be_read_keeps_utc(local):
    assert hall_zone({}, local=local) == "UTC"


def test_the_tests_run_on_the_stored_pages_clock(settings):
    assert settings.TIME_ZONE == "America/Toronto"
