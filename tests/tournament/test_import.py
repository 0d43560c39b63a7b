"""Players imported from a CSV: a preview with a verdict for every line, then all or nothing."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament import services
from tournament.imports import parse_players_csv
from tournament.models import Player

pytestmark = pytest.mark.django_db

GOOD = "name,number,category\nAnn Kowalski,101,lady\nBob Martin,,man\n\n  Łukasz   Żółć ,103,\n"


def test_each_line_is_read_or_refused_with_its_reason():
    lines = parse_players_csv("Name,Number\nAnn Kowalski,1\n,2\nann kowalski,3\n" + "x" * 81 + ",4\n")
    assert [(line.line, line.error) for line in lines] == [
        (2, ""),
        (3, "No name in the first column."),
        (4, "Listed twice: the same name is on line 2."),
        (5, "The name is longer than 80 characters."),
    ]
    assert parse_players_csv(GOOD)[2].name == "Łukasz Żółć"


def test_preview_then_import(organizer_client, night):
    url = reverse("tournament:player_import", args=[night.pk])
    preview = organizer_client.post(url, {"file": SimpleUploadedFile("p.csv", GOOD.encode("utf-8-sig"))})
    body = preview.content.decode()
    assert "3 lines read" in body and "Import these 3 players" in body and "new to the roster" in body
    assert night.entries.count() == 0  # a preview saves nothing
    done = organizer_client.post(url, {"csv_text": GOOD, "confirm": "1"})
    assert done.status_code == 302
    assert night.entries.count() == 3
    ann = Player.objects.get(name="Ann Kowalski")
    assert (ann.club_number, ann.category) == ("101", "lady")


def test_a_file_with_a_bad_line_imports_nothing(organizer_client, night):
    services.players_register(night=night, names=["Bob Martin"])
    url = reverse("tournament:player_import", args=[night.pk])
    body = organizer_client.post(url, {"file": SimpleUploadedFile("p.csv", GOOD.encode())}).content.decode()
    assert "Already registered for this night." in body and "1 with a problem" in body
    assert "Import these" not in body
    response = organizer_client.post(url, {"csv_text": GOOD, "confirm": "1"})
    assert "Line 3, “Bob Martin”: already registered for this night." in unescape(response.content.decode())
    assert night.entries.count() == 1


def test_a_file_that_is_not_text_is_refused_beside_the_field(organizer_client, night):
    url = reverse("tournament:player_import", args=[night.pk])
    body = organizer_client.post(url, {"file": SimpleUploadedFile("p.csv", b"\xff\xfe\x00bad")}).content.decode()
    assert "This file is not text (UTF-8)" in body
