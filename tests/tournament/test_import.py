"""Players imported from a CSV: a preview with a verdict for every line, then all or nothing."""

from __future__ import annotations

import datetime as dt
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tournament import services
from tournament.imports import parse_players_csv
from tournament.models import ImportPreview, Player

pytestmark = pytest.mark.django_db

GOOD = "name,number,category\nAnn Kowalski,101,lady\nBob Martin,,man\n\n  Łukasz   Żółć ,103,\n"


class ImportButton(HTMLParser):
    """The fields of the preview's Import form (the import's form that sends no file), as a browser sends them."""

    def __init__(self):
        super().__init__()
        self.fields: dict[str, str] | None = None
        self.forms: list[dict[str, str]] = []
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            importing = (attrs.get("action") or "").endswith("/players/import/")
            self.fields = {} if importing and attrs.get("enctype") != "multipart/form-data" else None
        elif self.fields is not None and tag == "input" and attrs.get("name"):
            self.fields[attrs["name"]] = attrs.get("value") or ""
        elif self.fields is not None and tag == "textarea":
            self.textarea = attrs["name"]
            self.fields[self.textarea] = ""

    def handle_data(self, data):
        if self.fields is not None and self.textarea:
            self.fields[self.textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self.textarea = None
        if tag == "form" and self.fields is not None:
            self.forms.append(self.fields)
            self.fields = None


def preview(client, night, text: str | bytes):
    url = reverse("tournament:player_import", args=[night.pk])
    data = text if isinstance(text, bytes) else text.encode("utf-8-sig")
    return client.post(url, {"file": SimpleUploadedFile("p.csv", data)})


def import_button(client, night, page):
    """Press the preview's Import button: its form sent as a browser sends a form without a file (urlencoded)."""
    parser = ImportButton()
    parser.feed(page.content.decode())
    (fields,) = parser.forms
    url = reverse("tournament:player_import", args=[night.pk])
    return client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")


def token_of(page) -> str:
    parser = ImportButton()
    parser.feed(page.content.decode())
    (fields,) = parser.forms
    return fields["token"]


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
    done = import_button(organizer_client, night, preview)
    assert done.status_code == 302
    assert night.entries.count() == 3
    ann = Player.objects.get(name="Ann Kowalski")
    assert (ann.club_number, ann.category) == ("101", "lady")


def test_a_file_with_a_bad_line_imports_nothing(organizer_client, night):
    services.players_register(night=night, names=["Bob Martin"])
    url = reverse("tournament:player_import", args=[night.pk])
    body = organizer_client.post(url, {"file": SimpleUploadedFile("p.csv", GOOD.encode())}).content.decode()
    assert "Already registered for this night." in body and "1 with a problem" in body
    assert "Import these" not in body and 'name="token"' not in body
    assert not ImportPreview.objects.exists()  # nothing kept for a list that cannot be imported


def test_a_line_refused_between_the_preview_and_the_import_imports_nothing(organizer_client, night):
    page = preview(organizer_client, night, GOOD)
    services.players_register(night=night, names=["Bob Martin"])  # at the door, meanwhile
    response = import_button(organizer_client, night, page)
    assert "Line 3, “Bob Martin”: already registered for this night." in unescape(response.content.decode())
    assert night.entries.count() == 1
    services.entry_remove(entry=night.entries.get())
    assert import_button(organizer_client, night, page).status_code == 302  # mended: the same preview imports
    assert night.entries.count() == 3


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
    assert import_button(organizer_client, night, preview(organizer_client, night, text)).status_code == 302
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
    assert "Player Number00001" not in body and 'name="token"' not in body  # no preview, nothing to import
    assert night.entries.count() == 0 and not ImportPreview.objects.exists()


def test_a_list_that_would_take_the_night_past_its_most_players_adds_nobody(night):
    services.players_register(night=night, names=[f"Player {i}" for i in range(1990)])
    with pytest.raises(ValidationError, match="this one has 1,990, and the list adds 11"):
        services.players_register(night=night, names=[f"Late {i}" for i in range(11)])
    assert night.entries.count() == 1990
    services.players_register(night=night, names=[f"Late {i}" for i in range(10)])  # exactly the most
    assert night.entries.count() == 2000


def test_a_spreadsheet_export_with_empty_rows_that_previews_imports(organizer_client, night, settings):
    # 40 players and 190,000 empty rows (",,,": a spreadsheet's export of a sheet with a long grey tail): 0.95 MB,
    # under the 1 MB a file may be, and fine at its preview. Sent back as a form its commas and line ends take
    # three bytes each (2.9 MB), past the 2.5 MB Django reads of a form: the Import button was refused as too large.
    names = [f"Player Number{i:03d}" for i in range(40)]
    text = "name,number,category,notes\r\n" + "".join(f"{name},{i},,\r\n" for i, name in enumerate(names))
    text += ",,,\r\n" * 190_000
    assert 900_000 < len(text.encode()) < 1_000_000
    assert len(urlencode({"csv_text": text})) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    page = preview(organizer_client, night, text)
    assert "40 lines read: check them, then import" in page.content.decode()
    done = import_button(organizer_client, night, page)
    assert done.status_code == 302
    assert sorted(night.entries.values_list("player__name", flat=True)) == names


def _confirm(client, night, token: str):
    url = reverse("tournament:player_import", args=[night.pk])
    return unescape(client.post(url, {"token": token}).content.decode())


def test_a_preview_imports_once(organizer_client, night):
    page = preview(organizer_client, night, GOOD)
    assert import_button(organizer_client, night, page).status_code == 302
    again = import_button(organizer_client, night, page)  # a second click, or the page sent again
    assert "This list was imported already, at" in unescape(again.content.decode())
    assert "nobody was added twice" in unescape(again.content.decode())
    assert night.entries.count() == 3
    assert ImportPreview.objects.get().text == ""  # the list is not kept once imported


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("", "This import is not one previewed here (the page may be out of date)"),
        ("forged-token", "This import is not one previewed here"),
        ("x" * 5000, "This import is not one previewed here"),
    ],
    ids=["empty", "forged", "far-too-long"],
)
def test_a_made_up_token_is_refused_in_words(organizer_client, night, token, said):
    preview(organizer_client, night, GOOD)
    body = _confirm(organizer_client, night, token)
    assert said in body and "choose the file again" in body
    assert night.entries.count() == 0


def test_a_preview_is_its_nights_and_its_organizers_and_goes_stale(organizer_client, organizer, night):
    token = token_of(preview(organizer_client, night, GOOD))
    other_night = services.night_create(name="Another night", venue="Hall", games=3)
    assert "This preview was made for another night" in _confirm(organizer_client, other_night, token)
    assert other_night.entries.count() == 0
    organizer_client.force_login(get_user_model().objects.create_user("second", password="pw", is_staff=True))
    assert "This preview was made by another organizer" in _confirm(organizer_client, night, token)
    organizer_client.force_login(organizer)
    ImportPreview.objects.filter(token=token).update(created_at=timezone.now() - dt.timedelta(minutes=61))
    assert "This preview is more than an hour old: choose the file again" in _confirm(organizer_client, night, token)
    assert night.entries.count() == 0


def test_old_previews_are_dropped_when_a_new_one_is_kept(organizer_client, night):
    old = token_of(preview(organizer_client, night, GOOD))
    ImportPreview.objects.filter(token=old).update(created_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    new = token_of(preview(organizer_client, night, GOOD))
    assert list(ImportPreview.objects.values_list("token", flat=True)) == [new]
