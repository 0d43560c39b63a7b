"""Partner wishes on a night (#20): the organizer's lists and two-group rule, refused whole with the reason beside
the field; kept by the draw and the games after it, judged game by game on the wishes page, the fairness report
and the simulation's JSON; carried whole by the backup."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import NAMES, register
from tournament import backup, charts, services
from tournament.engine.movements import MOVEMENTS
from tournament.models import Entry, Night, PartnerWish, Player
from tournament.rehearsal import simulate
from tournament.selectors import night_record, night_wishes, wish_breaches

pytestmark = pytest.mark.django_db


def _set(night, never="", always="", groups=""):
    services.night_wishes_set(night=night, never=never, always=always, groups=groups)
    night.refresh_from_db()


def _pairs(night, kind):
    names = dict(Player.objects.values_list("pk", "name"))
    return {
        frozenset((names[a], names[b]))
        for a, b in PartnerWish.objects.filter(night=night, kind=kind).values_list("first_id", "second_id")
    }


def test_pairs_are_found_however_the_names_are_typed(night):
    register(night, 16)
    _set(
        night,
        never="ann kowalski & bob martin\n  Chloe Dubois and  lukasz zolc \n\nEdna / Frank Hill",
        always="Grace Novak + Hank Rossi",
    )
    assert _pairs(night, "never") == {
        frozenset(("Ann Kowalski", "Bob Martin")),
        frozenset(("Chloé Dubois", "Łukasz Żółć")),
        frozenset(("Edna Walsh", "Frank Hill")),
    }
    assert _pairs(night, "always") == {frozenset(("Grace Novak", "Hank Rossi"))}
    report = night_wishes(night)
    assert report.text("always") == "Grace Novak & Hank Rossi"
    # Saving again replaces the lists.
    _set(night, never="Irene Becker & Jack Gagnon")
    assert _pairs(night, "never") == {frozenset(("Irene Becker", "Jack Gagnon"))} and not _pairs(night, "always")


@pytest.mark.parametrize(
    ("field", "values", "words"),
    [
        ("never", {"never": "Ann Kowalski & Zed Nobody"}, "Line 1: nobody called “Zed Nobody” is on tonight's list."),
        ("never", {"never": "Ann Kowalski"}, "Line 1 (“Ann Kowalski”): write two names"),
        ("never", {"never": "Bob Martin & Ann\nAnn & Bob"}, "Line 2: Ann Kowalski and Bob Martin are listed already."),
        ("never", {"never": "Ann & Ann Kowalski"}, "Line 1: Ann Kowalski is named twice."),
        ("never", {"never": "an & Bob"}, "could be"),
        ("always", {"always": "Ann & Bob\nBob & Chloé"}, "one of them is already in “Ann Kowalski & Bob Martin”"),
        ("always", {"never": "Ann & Bob", "always": "Bob & Ann"}, "is on both lists"),
        ("partner_groups", {"groups": "lady"}, "Name two different groups"),
        ("partner_groups", {"groups": "lady, Lady"}, "Name two different groups"),
    ],
)
def test_a_bad_list_is_refused_whole_and_says_why_beside_its_field(night, field, values, words):
    register(night, 16)
    _set(night, never="Irene Becker & Jack Gagnon", groups="lady, man")
    with pytest.raises(ValidationError) as refused:
        _set(night, **values)
    assert field in refused.value.message_dict
    assert words in refused.value.message_dict[field][0]
    night.refresh_from_db()
    assert night.partner_groups == "lady, man"
    assert _pairs(night, "never") == {frozenset(("Irene Becker", "Jack Gagnon"))}


def test_the_page_saves_the_wishes_and_shows_a_refusal_beside_the_field(organizer_client, night):
    register(night, 8)
    url = reverse("tournament:wishes", args=[night.pk])
    page = organizer_client.get(url)
    assert page.status_code == 200 and "Never partners" in page.content.decode()
    refused = organizer_client.post(url, {"never": "Ann & Nobody Here", "always": "", "partner_groups": ""})
    text = refused.content.decode()
    assert refused.status_code == 200 and "nobody called “Nobody Here”" in text
    assert "Ann &amp; Nobody Here" in text  # what was typed is kept in the box
    saved = organizer_client.post(url, {"never": "Ann & Bob", "always": "", "partner_groups": ""})
    assert saved.status_code == 302 and _pairs(night, "never") == {frozenset(("Ann Kowalski", "Bob Martin"))}
    assert "Ann Kowalski &amp; Bob Martin" in organizer_client.get(url).content.decode()


def _categories(night, first="lady", second="man"):
    for k, entry in enumerate(night.entries.select_related("player").order_by("card")):
        Entry.objects.filter(pk=entry.pk).update(category=(first, second)[k % 2])  # the night's door list


def test_the_opening_draw_keeps_the_wishes(night):
    register(night, 16)
    _categories(night)
    _set(night, never="Ann & Chloé\nBob & Edna Walsh\nGrace & Irene", groups="Lady, Man")  # categories any case
    wishes = night.wishes()
    assert len(wishes.groups) == 16 and len(wishes.never) == 3
    for seed in range(15):
        Night.objects.filter(pk=night.pk).update(status=Night.Status.SETUP)
        night.rounds.all().delete()
        services.night_draw(night=night, seed=seed)
        assert wish_breaches(night) == []


@pytest.mark.parametrize("movement", [*sorted(MOVEMENTS), "rotation"])
def test_a_rehearsed_night_breaks_only_what_its_movement_forces(movement):
    for seed in (1, 2):
        night = simulate(players=18, rounds=5, seed=seed, movement=movement, never_share=0.1, two_groups=True)
        record = night_record(night)["wishes"]
        assert len(record["never"]) == 2 and len(record["groups"]) == 18
        assert record["avoidable"] == 0, record["breaches"]
        assert not [b for b in record["breaches"] if b["game"] == 1 and not b["forced"]]
        assert record["forced"] == sum(b["forced"] for b in record["breaches"])


def test_couples_partner_all_night_with_fixed_partners(night):
    Night.objects.filter(pk=night.pk).update(movement=Night.Movement.FIXED_PARTNERS)
    night.refresh_from_db()
    register(night, 16)
    _set(night, always="Ann & Bob\nChloé & Łukasz\nEdna & Frank")
    services.night_draw(night=night, seed=3)
    seats = {s.player.name: (s.table, s.seat) for s in night.rounds.get().seatings.select_related("player")}
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}
    for a, b in (("Ann Kowalski", "Bob Martin"), ("Chloé Dubois", "Łukasz Żółć"), ("Edna Walsh", "Frank Hill")):
        assert seats[b] == (seats[a][0], partner[seats[a][1]])


def test_a_rotation_chart_built_at_the_draw_keeps_the_wishes(night):
    Night.objects.filter(pk=night.pk).update(movement=Night.Movement.ROTATION, games=6)
    night.refresh_from_db()
    register(night, 16)
    _categories(night, "red", "black")
    _set(night, never="Ann & Chloé\nBob & Edna", groups="red, black")
    services.night_draw(night=night, seed=11)
    assert night.entries.filter(number__isnull=True).count() == 0
    night.refresh_from_db()
    chart = charts.night_chart(night)
    holder = dict(night.entries.values_list("number", "player_id"))
    wishes = night.wishes()
    for game in chart.rounds:
        for table in game.tables:
            for a, b in (table.pair("NS"), table.pair("EW")):
                assert wishes.cost(holder[a], holder[b]) == 0


def test_the_fairness_report_counts_the_breaches_beside_the_ideal(organizer_client):
    night = simulate(players=16, rounds=3, seed=5, movement="seat-rotation", never_share=0.2)
    report = night_wishes(night)
    page = organizer_client.get(reverse("tournament:night_fairness", args=[night.pk])).content.decode()
    assert "Partner wishes" in page and "Wishes broken that the seating could have kept" in page
    data = organizer_client.get(reverse("tournament:night_fairness_json", args=[night.pk])).json()
    assert data["wishes"]["avoidable"] == report.avoidable == 0 and data["wishes"]["ideal"] == 0
    assert data["wishes"]["broken"] == len(report.breaches)
    wishes_page = organizer_client.get(reverse("tournament:wishes", args=[night.pk])).content.decode()
    assert "Seat rotation moves every seat by its rule" in wishes_page


def test_wishes_survive_a_backup_and_a_restore(night):
    register(night, 16)
    _categories(night)
    _set(night, never="Ann & Chloé", always="Bob & Edna", groups="lady, man")
    before = night.wishes()
    names = dict(Player.objects.values_list("pk", "name"))
    raw = backup.night_backup_bytes(night)
    data = json.loads(raw)
    assert sorted(row["kind"] for row in data["partner_wishes"]) == ["always", "never"]
    ids = list(night.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=night.pk).delete()
    Player.objects.filter(pk__in=ids).delete()
    restored = backup.night_restore(raw=raw)
    after = restored.wishes()
    names_after = dict(Player.objects.values_list("pk", "name"))

    def named(pairs, table):
        return {frozenset(table[p] for p in pair) for pair in pairs}

    assert restored.partner_groups == "lady, man"
    assert named(after.never, names_after) == named(before.never, names)
    assert named(after.always, names_after) == named(before.always, names)
    assert len(after.groups) == 16


def test_a_forged_wish_in_a_backup_is_refused(night):
    register(night, 8)
    _set(night, always="Ann & Bob")
    data = json.loads(backup.night_backup_bytes(night))
    data["partner_wishes"].append({"kind": "always", "players": [data["partner_wishes"][0]["players"][0], "nobody"]})
    payload = {key: value for key, value in data.items() if key != "checksum"}
    data["checksum"] = hashlib.sha256(backup._canonical(payload)).hexdigest()
    ids = list(night.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=night.pk).delete()
    Player.objects.filter(pk__in=ids).delete()
    with pytest.raises(ValidationError, match="Partner wish 2"):
        backup.night_restore(raw=json.dumps(data).encode())


def test_names_in_the_list_are_this_nights(night):
    register(night, 8)
    other = services.night_create(name="Another night")
    services.players_register(night=other, names=[NAMES[10]])
    with pytest.raises(ValidationError, match="nobody called “Karen Smith”"):
        _set(night, never="Ann & Karen Smith")
