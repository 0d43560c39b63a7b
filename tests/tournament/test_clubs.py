"""Clubs on one hosted server, each kept apart (#38): an organizer or a keeper of club A cannot see, list, guess or
change anything of club B's, by any address of the site or any form, with GET or POST."""

from __future__ import annotations

import json

import pytest
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.models import Season
from tests.rehearsed import rehearsed
from tournament import backup, seasons, services
from tournament.models import Club, Entry, Membership, Night, Player, PrintJob, SignUp
from tournament.services import clubs
from tournament.sheets import printing

pytestmark = pytest.mark.django_db

# What a page of club B would show: none of these may reach club A's people.
B_NIGHT = "Birch Hidden Night"
B_SPRING = "Birch Spring Social"
B_SEASON = "Birch Hidden Season"
B_PLAYER = "Zebediah Birchwood"
B_KEEPER = "birch-keeper"

# A form's fields as any page of the site names them, each filled as a person would: a POST that reaches a
# service does something, so a scope missing shows as a change to club B's record, not as a refused empty form.
FORM = {
    "amount": "5",
    "kind": "cash",
    "method": "cash",
    "key": "cross-club-1",
    "name": "Someone New",
    "names": "Someone New",
    "username": B_KEEPER,
    "password": "a-long-password-1",
    "reason": "because",
    "typed_name": B_NIGHT,
    "ns_points": "6",
    "ew_points": "2",
    "t1-ns_points": "6",
    "t1-ew_points": "2",
    "t1-key": "x1",
    "pot": "50-50",
    "price": "5",
    "open": "on",
    "cap": "40",
    "entry": "1",
    "game": "1",
    "confirm": "1",
    "unlisted": "on",
    "games": "3",
    "date": "2027-01-05",
    "movement": "progressive",
}


def _routes():
    """Every address of the two apps: (namespaced name, the names of its parameters, its fixed arguments)."""
    found = []

    def walk(patterns, namespace, prefix, converters):
        for item in patterns:
            route, params = prefix + str(item.pattern), converters | set(item.pattern.converters)
            if isinstance(item, URLResolver):  # an app's addresses, or a group of them under a common start
                walk(item.url_patterns, item.namespace or namespace, route, params)
            elif isinstance(item, URLPattern) and namespace in {"tournament", "scoring"} and item.name:
                found.append((f"{namespace}:{item.name}", route, sorted(params), item.default_args))

    walk(get_resolver().url_patterns, None, "", set())
    return found


ROUTES = _routes()
PUBLIC = ("public/", "t/", "results/")


def _public(route) -> bool:
    """An address for anyone: under a public start, or a sheet of the registry's public audience."""
    return route[1].startswith(PUBLIC) or printing.is_public(route[3].get("key"))


@pytest.fixture
def world(django_user_model):
    """Two clubs, each with an organizer, a keeper, a played night with money, a night taking sign-ups, a season
    and a print job; club B's names are its own."""
    made = {}
    for letter, title in (("a", "Alder Euchre Club"), ("b", "Birch Euchre Club")):
        club = clubs.club_add(name=title)
        organizer = clubs.account_add(club=club, username=f"{letter}-organizer", password="pw-organizer", staff=True)
        night = rehearsed(
            players=8,
            rounds=2,
            seed=3,
            name=f"{title} night",
            club=club,
            money={"currency": "USD", "pre": 500, "door": 500, "member": None, "methods": ("cash",)},
        )
        keeper = services.keeper_add(night=night, username=f"{letter}-scorer", password="tally-card-77")
        spring = services.night_create(name=f"{title} spring", games=3, club=club)
        services.signup_settings(night=spring, open=True, cap=None)
        signup = services.signup_create(night=spring, name=f"{title} sign-up")
        season = seasons.season_create(name=f"{title} season", owner_id=club.pk)
        seasons.season_nights_set(season=season, night_ids=[night.pk])
        job = printing.print_job_start(night=night, sheet="standings")
        made[letter] = dict(
            club=club, organizer=organizer, keeper=keeper, night=night, spring=spring, signup=signup, season=season
        ) | {"job": job, "entry": Entry.objects.filter(night=night).first()}
    b = made["b"]
    Night.objects.filter(pk=b["night"].pk).update(name=B_NIGHT)
    Night.objects.filter(pk=b["spring"].pk).update(name=B_SPRING)
    Season.objects.filter(pk=b["season"].pk).update(name=B_SEASON)
    django_user_model.objects.filter(pk=b["keeper"].pk).update(username=B_KEEPER)
    entry = b["entry"]
    Player.objects.filter(pk=entry.player_id).update(name=B_PLAYER, unlisted=True)
    Entry.objects.filter(pk=entry.pk).update(name=B_PLAYER)
    Player.objects.filter(club=b["club"]).exclude(pk=entry.player_id).update(name=Concat(Value("Birch "), F("name")))
    for key in ("night", "spring", "season", "keeper", "entry"):
        b[key].refresh_from_db()
    return made


def fingerprint(club: Club) -> str:
    """Everything of club B's, as data: a change anywhere in it shows."""
    nights = Night.objects.filter(club=club).order_by("pk")
    return json.dumps(
        {
            "club": [club.name, club.slug],
            "nights": [backup.night_backup_bytes(night).decode() for night in nights],
            "night_rows": list(nights.values()),
            "players": list(Player.objects.filter(club=club).order_by("pk").values()),
            "seasons": [
                (season.name, season.method, sorted(season.nights.values_list("pk", flat=True)))
                for season in Season.objects.filter(owner=club).order_by("pk")
            ],
            "members": sorted(Membership.objects.filter(club=club).values_list("user__username", "user__password")),
            "keepers": sorted(nights.values_list("pk", "keepers__username")),
            "signups": list(SignUp.objects.filter(night__club=club).order_by("pk").values()),
            "jobs": list(PrintJob.objects.filter(night__club=club).order_by("pk").values("pk", "kind", "params")),
        },
        default=str,
        sort_keys=True,
    )


def _arguments(params, default_args, own: dict, other: dict) -> dict:
    """An address's parameters filled from `own` where given, else from club B's records (`other`)."""
    values = {
        "night_id": other["night"].pk,
        "entry_id": other["entry"].pk,
        "signup_id": other["signup"].pk,
        "user_id": other["keeper"].pk,
        "job_id": other["job"].pk,
        "season_id": other["season"].pk,
        "player_id": other["entry"].player_id,
        "number": 1,
        "table": 1,
        "action": "withdraw",
        "token": other["entry"].player.results_token,
        "key": other["signup"].key,
        "slug": other["club"].slug,
    } | own
    return {name: values[name] for name in params if name not in default_args}


def _shows_b(response) -> list[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8", "replace")
    return [name for name in (B_NIGHT, B_SPRING, B_SEASON, B_PLAYER, B_KEEPER) if name in text]


def test_every_address_of_club_b_is_not_found_for_club_a_by_get_and_post(client, world):
    """Each organizer's and keeper's address, given club B's night, season, entry, sign-up, keeper or print job,
    answers club A's organizer and keeper "not found" (or "not allowed"), shows none of B's names, and changes
    nothing of B's."""
    a, b = world["a"], world["b"]
    before = fingerprint(b["club"])
    private = [route for route in ROUTES if not _public(route)]
    scoped = [route for route in private if {"night_id", "season_id"} & set(route[2])]
    assert len(scoped) >= 70, "every address of a night or a season is tried"
    tried = 0
    for user in (a["organizer"], a["keeper"]):
        client.force_login(user)
        for name, _route, params, defaults in scoped:
            url = reverse(name, kwargs=_arguments(params, defaults, {}, b))
            for method in (client.get, client.post):
                response = method(url, FORM)
                assert response.status_code in {403, 404, 405}, f"{user} {method.__name__} {url}: {response}"
                assert _shows_b(response) == [], f"{url} shows club B's {_shows_b(response)}"
                tried += 1
    assert fingerprint(b["club"]) == before
    assert tried == 4 * len(scoped)


def test_club_a_s_own_night_given_club_b_s_records_changes_nothing_of_b(client, world):
    """Club A's own night in the address, club B's entry, sign-up, keeper, print job or player beside it (a
    number guessed or copied): refused or not found, and nothing of B's changes or shows."""
    a, b = world["a"], world["b"]
    before = fingerprint(b["club"])
    mixed = [
        route
        for route in ROUTES
        if not _public(route) and "night_id" in route[2] and len(set(route[2]) - {"number", "table"}) > 1
    ]
    assert {name for name, *_ in mixed} >= {
        "tournament:money_take",
        "tournament:money_refund",
        "tournament:entry_check_in",
        "tournament:entry_remove",
        "tournament:keeper_remove",
        "tournament:print_job",
        "tournament:signup_action",
        "tournament:entry_unlisted",
    }
    client.force_login(a["organizer"])
    for name, _route, params, defaults in mixed:
        own = {"night_id": a["night"].pk}
        url = reverse(name, kwargs=_arguments(params, defaults, own, b))
        for method in (client.get, client.post):
            response = method(url, FORM)
            assert response.status_code != 500
            assert _shows_b(response) == [], f"{url} shows club B's {_shows_b(response)}"
    # the same through a form's fields: B's player picked from the roster, B's night ticked for a season, B's
    # keeper added as a keeper of A's night
    client.post(reverse("tournament:player_roster", args=[a["spring"].pk]), {"players": [b["entry"].player_id]})
    assert not Entry.objects.filter(night=a["spring"], player_id=b["entry"].player_id).exists()
    client.post(reverse("scoring:season_nights", args=[a["season"].pk]), {"nights": [b["night"].pk]})
    assert list(a["season"].nights.values_list("pk", flat=True)) == [a["night"].pk]
    response = client.post(
        reverse("tournament:keeper_add", args=[a["night"].pk]), {"username": B_KEEPER, "password": "x" * 12}
    )
    assert not a["night"].keepers.filter(username=B_KEEPER).exists()
    assert "is taken" in response.content.decode()
    assert fingerprint(b["club"]) == before


def test_club_a_s_lists_and_pages_show_nothing_of_b(client, world):
    a = world["a"]
    client.force_login(a["organizer"])
    for name, args in (
        ("tournament:night_list", []),
        ("scoring:season_list", []),
        ("tournament:night_create", []),
        ("tournament:night_restore", []),
        ("scoring:season_create", []),
        ("tournament:night_detail", [a["night"].pk]),
        ("tournament:night_detail", [a["spring"].pk]),
        ("scoring:season_edit", [a["season"].pk]),
        ("tournament:money", [a["night"].pk]),
    ):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
        assert _shows_b(response) == [], f"{name} shows club B's {_shows_b(response)}"
    page = client.get(reverse("tournament:night_list")).content.decode()
    assert a["night"].name in page and a["spring"].name in page
    client.force_login(a["keeper"])
    page = client.get(reverse("tournament:night_list")).content.decode()
    assert a["night"].name in page and B_NIGHT not in page


def test_the_public_pages_give_club_a_s_organizer_no_more_than_a_visitor(client, world):
    """Public pages are anyone's (the room display, a season's table): an organizer of another club sees them as
    a visitor does, without the players who asked to be left off public lists."""
    a, b = world["a"], world["b"]
    public = [route for route in ROUTES if route[1].startswith("public/") or printing.is_public(route[3].get("key"))]
    assert len([route for route in public if "key" in route[3]]) >= 4  # seating, standings (PDF, CSV), season CSV
    seen = {}
    for who in (None, a["organizer"]):
        client.logout()
        if who is not None:
            client.force_login(who)
        for name, _route, params, defaults in public:
            url = reverse(name, kwargs=_arguments(params, defaults, {}, b))
            response = client.get(url)
            assert response.status_code != 500
            seen.setdefault(url, []).append(response.status_code)
            if response.status_code == 200 and "player_id" not in params:  # (a player's own page names them)
                assert B_PLAYER not in _text(response), f"{url} names the unlisted player to {who}"
    assert all(len(set(codes)) == 1 for codes in seen.values()), seen
    # B's own organizer is the one who sees them
    client.force_login(b["organizer"])
    season_page = client.get(reverse("scoring:season_player", args=[b["season"].pk, b["entry"].player_id]))
    assert season_page.status_code == 200


def test_a_public_address_mixing_club_a_s_link_with_club_b_s_records_shows_nothing_of_b(client, world):
    """A's night, A's player's results link, A's sign-up beside B's player, night or season: nothing of B's."""
    a, b = world["a"], world["b"]
    own = {
        "night_id": a["night"].pk,
        "token": a["entry"].player.results_token,
        "key": a["signup"].key,
        "season_id": a["season"].pk,
        "slug": a["club"].slug,
    }
    public = [route for route in ROUTES if route[1].startswith(PUBLIC)]
    for name, _route, params, defaults in public:
        for keep in own:  # each of A's own in turn, B's records in the rest
            if keep not in params:
                continue
            url = reverse(name, kwargs=_arguments(params, defaults, {keep: own[keep]}, b))
            response = client.get(url)
            assert response.status_code != 500
            assert _shows_b(response) == [], f"{url} shows club B's {_shows_b(response)}"


def _text(response) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode("utf-8", "replace")


def test_a_backup_of_club_b_s_night_restored_by_club_a_is_refused_without_naming_it(client, world):
    a, b = world["a"], world["b"]
    raw = backup.night_backup_bytes(b["night"])
    client.force_login(a["organizer"])
    upload = _upload(raw)
    response = client.post(reverse("tournament:night_restore"), {"file": upload})
    text = response.content.decode()
    assert "another club" in text and B_NIGHT not in text
    assert not Night.objects.filter(club=a["club"], uid=b["night"].uid).exists()


def test_a_backup_restores_into_the_club_that_restores_it(client, world):
    a, b = world["a"], world["b"]
    raw = backup.night_backup_bytes(b["night"])
    Night.objects.filter(pk=b["night"].pk).delete()
    client.force_login(a["organizer"])
    response = client.post(reverse("tournament:night_restore"), {"file": _upload(raw)})
    assert response.status_code == 302
    restored = Night.objects.get(uid=b["night"].uid)
    assert restored.club == a["club"]
    assert set(Player.objects.filter(entries__night=restored).values_list("club", flat=True)) == {a["club"].pk}
    # B's keeper named in the file is B's account: never lent to club A's night
    assert not restored.keepers.filter(username=B_KEEPER).exists()


def _upload(raw: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("night.json", raw, content_type="application/json")


def test_the_same_name_is_two_people_at_two_clubs(world):
    a, b = world["a"], world["b"]
    services.players_register(night=a["spring"], names=[B_PLAYER])
    ours = Player.objects.get(club=a["club"], name=B_PLAYER)
    theirs = Player.objects.get(club=b["club"], name=B_PLAYER)
    assert ours.pk != theirs.pk and theirs.unlisted and not ours.unlisted


def test_an_account_of_no_club_on_a_server_of_several_sees_no_night(client, world, django_user_model):
    stranger = django_user_model.objects.create_user("operator", password="pw", is_staff=True)
    assert not Membership.objects.filter(user=stranger).exists()
    client.force_login(stranger)
    page = client.get(reverse("tournament:night_list")).content.decode()
    assert B_NIGHT not in page and world["a"]["night"].name not in page
    response = client.post(reverse("tournament:night_create"), {"name": "Mine", "games": "3"})
    assert response.status_code == 403 and "works for no club" in response.content.decode()
    assert client.get(reverse("tournament:night_detail", args=[world["b"]["night"].pk])).status_code == 404


def test_on_the_laptop_every_account_and_night_is_the_one_club(django_user_model):
    """At the venue nothing changes for the user: the first account and night make the one club, and every later
    one is its."""
    organizer = django_user_model.objects.create_user("org", password="pw", is_staff=True)
    night = services.night_create(name="Friday", games=2)
    keeper = services.keeper_add(night=night, username="kate", password="keep-score-1")
    club = Club.objects.get()
    assert {organizer.membership.club, keeper.membership.club, night.club} == {club}
