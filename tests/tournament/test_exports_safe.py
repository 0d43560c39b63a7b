"""Every CSV export writes text a spreadsheet would run as a formula as plain text (#22, item 2)."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tournament import exports
from tournament import seasons as season_services
from tournament.rehearsal import simulate

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTab Start", "Plain Name"]


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def dangerous(cell: str) -> bool:
    """A cell a spreadsheet would run: it starts a formula and is not simply a negative number."""
    return cell.startswith(exports.FORMULA_STARTS) and not cell.removeprefix("-").replace(".", "", 1).isdecimal()


def test_text_cells_are_made_safe_and_numbers_stay_numbers():
    assert [exports.text_cell(name) for name in HOSTILE] == [
        '\'=HYPERLINK("http://x")',
        "'+1+cmd|' /C calc'!A0",
        "'-2+3",
        "'@SUM(A1:A9)",
        "'\tTab Start",
        "Plain Name",
    ]
    assert exports.text_cell(-3) == -3 and exports.text_cell(0) == 0
    assert exports.rank_cell("=3") == "T3" and exports.rank_cell("4") == "4"


def test_no_export_of_a_night_or_a_season_carries_a_formula(client, organizer_client):
    night = simulate(players=8, rounds=2, seed=5, entry="hands", name="Formula night")
    for entry, name in zip(night.entries.order_by("card"), HOSTILE, strict=False):
        entry.name = name  # the name the night has for the player, which its files print
        entry.save(update_fields=["name"])
    season = season_services.season_create(name="=Winter", club="@club")
    season_services.season_nights_set(season=season, night_ids=[night.pk])
    files = [
        client.get(reverse("tournament:standings_csv", args=[night.pk])).content.decode("utf-8"),
        organizer_client.get(reverse("tournament:hands_csv", args=[night.pk])).content.decode("utf-8"),
        client.get(reverse("scoring:season_csv", args=[season.pk])).content.decode("utf-8"),
    ]
    cells = [cell for text in files for row in rows(text) for cell in row]
    assert len(cells) > 100 and not [cell for cell in cells if dangerous(cell)]
    for text in (files[0], files[2]):
        names = {row[1] for row in rows(text)[1:]}
        assert '\'=HYPERLINK("http://x")' in names and "Plain Name" in names
