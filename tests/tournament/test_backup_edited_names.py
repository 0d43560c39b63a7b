"""A backup edited by hand is refused with the reason and nothing written (#34, the remaining cases of item 10).

Each case is the organizer's path: a fundraiser played through the pages, its backup downloaded, the file edited
and its checksum recomputed as a person would, then sent to the restore page. Two players of one name, a name or
category with an invisible or control character, a copy of a night already here under another uid: each refused
beside the file field with what is wrong, never a database's own words and never a server error.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import uuid

import pytest
from django.urls import reverse

from tournament import services
from tournament.models import Night, Player

from .test_backup_meaning import carry_files, download, fundraiser_file, in_one_season, refused, restore, restored
from .test_night_form import new_night

pytestmark = pytest.mark.django_db


def named(data: dict, index: int) -> str:
    """How the refusal names the file's player at `index`."""
    return f'Player {index + 1} ("{data["players"][index]["key"]}")'


def test_two_players_of_one_name_in_one_night_are_refused(organizer_client):
    data = fundraiser_file(organizer_client)
    first = data["players"][0]["name"]
    data["players"][1]["name"] = first.upper()  # the same person as the roster knows names, another key
    refused(
        organizer_client,
        data,
        named(data, 1),
        f'“name” "{first.upper()}" is also player 1 (',
        "a night has one player of a name",
    )


INVISIBLE = [
    ("zero-width space", "\u200b"),
    ("zero-width non-joiner", "\u200c"),
    ("zero-width joiner", "\u200d"),
    ("byte-order mark", "\ufeff"),
    ("word joiner", "\u2060"),
    ("escape", "\x1b"),
    ("bell", "\x07"),
]
FIELDS = [
    ("player's name", lambda d: d["players"][0], "name"),
    ("player's category", lambda d: d["players"][0], "category"),
    ("player's club number", lambda d: d["players"][0], "club_number"),
    ("night's name", lambda d: d["night"], "name"),
    ("venue", lambda d: d["night"], "venue"),
]


@pytest.mark.parametrize(("what", "char"), INVISIBLE, ids=[case[0] for case in INVISIBLE])
@pytest.mark.parametrize(("field", "record", "key"), FIELDS, ids=[case[0] for case in FIELDS])
def test_an_invisible_or_control_character_in_a_name_is_refused(organizer_client, what, char, field, record, key):
    data = fundraiser_file(organizer_client)
    row = record(data)
    row[key] = f"Ann{char}Smith"
    place = named(data, 0) if row is data["players"][0] else "The night"
    refused(organizer_client, data, place, f"“{key}” holds an invisible or control character (U+{ord(char):04X})")


def test_a_copy_of_a_night_already_here_under_another_uid_is_refused_in_words(organizer_client):
    data = fundraiser_file(organizer_client)
    night = restored(organizer_client, copy.deepcopy(data))
    data["night"]["uid"] = str(uuid.uuid4())  # the same night, its uid edited: its score entries are here already
    refused(
        organizer_client,
        data,
        f"This backup's night is already here: “{night.name}” of {night.date:%Y-%m-%d}",
    )
    page = restore(organizer_client, data).content.decode()
    assert "UNIQUE" not in page and "IntegrityError" not in page and "constraint" not in page


def test_a_clash_the_checks_did_not_foresee_is_said_in_words_not_the_database_s(organizer_client):
    """Whatever else makes two rows clash (here a roster player the file's row names by another key) is refused in
    the app's words: the database's message stays in the log."""
    data = fundraiser_file(organizer_client)
    Player.objects.create(name=data["players"][0]["name"])
    data = json.loads(json.dumps(data).replace(f'"{data["players"][0]["key"]}"', '"someone-else"'))
    response = restore(organizer_client, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "UNIQUE" not in page and "constraint" not in page
    assert not Night.objects.filter(uid=data["night"]["uid"]).exists()


def test_a_version_3_line_without_took_in_took_no_carry_in(organizer_client):
    """A version 3 file names the carry a line took in; a line that names none took none in, whatever its reason
    says (the schema's default), so December's carried-over words alone do not take November's carry."""
    november, december = carry_files(organizer_client)
    del december["pot_lines"][0]["took_in"]
    first, second = restored(organizer_client, november), restored(organizer_client, december)
    assert second.pot_lines.get().carried_from is None
    january = services.night_create(name="January night", date=dt.date(2027, 1, 5))
    in_one_season(first, second, january)
    page = organizer_client.get(reverse("tournament:money", args=[january.pk])).content.decode()
    assert reverse("tournament:pot_take", args=[january.pk]) in page  # still waiting to be taken in
    assert "took_in" not in download(organizer_client, second)["pot_lines"][0]


# ---- the forms drop them (the README: stripped, never refused, since nobody types one on purpose) ----------------


def test_the_new_night_form_drops_invisible_and_control_characters_from_the_name_and_venue(organizer_client):
    answer = new_night(organizer_client, name="Thursday\u200b euchre\x1b", venue="St Mary\u2060's\ufeff hall\x07")
    assert answer.status_code == 302
    night = Night.objects.get()
    assert (night.name, night.venue) == ("Thursday euchre", "St Mary's hall")
    page = organizer_client.get(reverse("tournament:public_night", args=[night.pk])).content.decode()
    assert "\u2060" not in page and "\x07" not in page and "\ufeff" not in page


def test_the_season_form_drops_invisible_and_control_characters_from_its_name_and_club(organizer_client):
    from scoring.models import Season

    typed = {"name": "Winter\u200b 2027\x1b", "club": "St Mary\u200d's\ufeff club\x07", "method": "total"}
    assert organizer_client.post(reverse("scoring:season_create"), typed).status_code == 302
    season = Season.objects.get()
    assert (season.name, season.club) == ("Winter 2027", "St Mary's club")


def test_a_pot_named_with_an_invisible_character_is_the_same_pot(organizer_client, night):
    pots = reverse("tournament:pot_add", args=[night.pk])
    assert organizer_client.post(pots, {"pot": "50/50", "kind": "in", "cents": "40"}).status_code == 302
    paid = {"pot": "50/50\u200b", "kind": "paid", "cents": "20", "reason": "ticket 7"}  # pasted from a message
    assert organizer_client.post(pots, paid).status_code == 302
    assert sorted(night.pot_lines.values_list("pot", flat=True)) == ["50/50", "50/50"]


def test_a_pot_line_with_an_invisible_character_in_its_pot_is_refused_on_restore(organizer_client):
    data = fundraiser_file(organizer_client)
    data["pot_lines"][1]["pot"] = "50/50\u200b"
    refused(organizer_client, data, "Pot line 2", "“pot” holds an invisible or control character (U+200B)")
