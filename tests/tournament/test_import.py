"""Players imported from a CSV: a preview with a verdict for every line, then all or nothing."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.exceptions import ValidationError
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


@pytest.mark.parametrize(
    "text",
    [
        "name;number;category\nAnn Kowalski;123;lady\nBob Martin;;man\n",  # a spreadsheet where "," is the decimal
        "name\tnumber\tcategory\nAnn Kowalski\t123\tlady\nBob Martin\t\tman\n",
        "name|number|category\nAnn Kowalski|123|lady\nBob Martin||man\n",
        "Ann Kowalski,123,lady\nBob Martin,,man\n",
    ],
    ids=["semicolons", "tabs", "bars", "commas"],
)
def test_the_separator_is_found_whatever_the_spreadsheet_saved(text):
    lines = parse_players_csv(text)
    assert [(line.name, line.number, line.category, line.error) for line in lines] == [
        ("Ann Kowalski", "123", "lady", ""),
        ("Bob Martin", "", "man", ""),
    ]


def test_names_alone_and_names_with_quoted_commas_are_read_whole():
    assert [line.name for line in parse_players_csv("Ann Kowalski\nBob Martin\nChloé Dubois\n")] == [
        "Ann Kowalski",
        "Bob Martin",
        "Chloé Dubois",
    ]
    assert parse_players_csv('"Martin, Bob",7\n"Kowalski, Ann",8\n')[0].name == "Martin, Bob"


def test_a_nul_or_a_control_character_never_reaches_the_database(organizer_client, night):
    text = "Ann\x00 Kowalski,1\x00,la\x07dy\nBob\x1b Martin,,\n"
    assert [(line.name, line.number, line.category) for line in parse_players_csv(text)] == [
        ("Ann Kowalski", "1", "lady"),
        ("Bob Martin", "", ""),
    ]
    url = reverse("tournament:player_import", args=[night.pk])
    assert organizer_client.post(url, {"csv_text": text, "confirm": "1"}).status_code == 302
    assert sorted(night.entries.values_list("player__name", flat=True)) == ["Ann Kowalski", "Bob Martin"]


def test_a_file_far_too_big_for_a_list_of_players_is_refused_beside_the_field(organizer_client, night):
    url = reverse("tournament:player_import", args=[night.pk])
    big = SimpleUploadedFile("all.csv", b"Ann Kowalski,1,lady\n" * 60_000)  # 1.2 MB
    answer = organizer_client.post(url, {"file": big})
    body = answer.content.decode()
    assert answer.status_code == 200 and "This file is 1.2 MB: a list of players is far smaller" in body
    assert night.entries.count() == 0


def test_a_file_of_more_players_than_a_night_takes_is_refused_before_its_preview(organizer_client, night):
    # 2,001 lines in well under the size cap: the club's whole history, say. Refused beside the field, no preview
    # drawn (it would be thousands of rows), and the confirm step refuses the same list just as plainly.
    url = reverse("tournament:player_import", args=[night.pk])
    text = "".join(f"Player Number{i:05d},{i}\n" for i in range(2001))
    answer = organizer_client.post(url, {"file": SimpleUploadedFile("all.csv", text.encode())})
    body = answer.content.decode()
    assert answer.status_code == 200 and "A night takes at most 2,000 players" in body
    assert "Player Number00001" not in body  # no preview
    answer = organizer_client.post(url, {"csv_text": text, "confirm": "1"})
    assert "A night takes at most 2,000 players: this one has 0, and the list adds 2,001" in answer.content.decode()
    assert night.entries.count() == 0


def test_a_list_that_would_take_the_night_past_its_most_players_adds_nobody(night):
    services.players_register(night=night, names=[f"Player {i}" for i in range(1990)])
    with pytest.raises(ValidationError, match="this one has 1,990, and the list adds 11"):
        services.players_register(night=night, names=[f"Late {i}" for i in range(11)])
    assert night.entries.count() == 1990
    services.players_register(night=night, names=[f"Late {i}" for i in range(10)])  # exactly the most
    assert night.entries.count() == 2000
