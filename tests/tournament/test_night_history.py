"""A night played is history (#34, item 9): what it printed and paid never changes afterwards.

Each night keeps its players as it had them when they joined (Entry's name, category and club number). A later
night's import with other categories, a roster change, a season's settings, another night's money: none of it
moves a finished night's prizes, money, standings or reports. Every check reads the night through its pages and
files, before and after.
"""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournament.test_import import import_button, preview
from tournament import seasons, services
from tournament.models import Entry, Night, Player, PotLine
from tournament.rehearsal import simulate

pytestmark = pytest.mark.django_db

SWAP = {"red": "black", "black": "red"}

# Every file of a night, by its address's name: the printed sheets (PDFs, built invariant: the same night gives the
# same bytes), the CSV exports and the backup.
FILES = (
    "standings_pdf",
    "prize_sheet_pdf",
    "reconciliation_pdf",
    "tally_cards_pdf",
    "table_cards_pdf",
    "seating_pdf",
    "score_sheets_pdf",
    "standings_csv",
    "hands_csv",
    "money_csv",
    "night_backup",
)


def _main(html: str) -> str:
    """A page's main content, without what differs at every request by design (a form's one-time keys, the
    server's clock for the countdowns)."""
    main = re.search(r"<main>(.*)</main>", html, re.S)
    assert main is not None
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", main.group(1))
    text = re.sub(r'name="([a-z0-9]+-)?key" value="[0-9a-f]*"', "", text)
    return re.sub(r'data-server-now="[0-9]+"', "", text)


def _played(seed: int = 5) -> Night:
    """A finished fundraiser of 16 players in two groups ("red", "black") with never-partner wishes, a prize for
    the best red player, prize money, side pots (one carried on), a door-prize draw, a season."""
    night = simulate(
        players=16,
        rounds=3,
        seed=seed,
        name="First night",
        two_groups=True,
        never_share=0.2,
        leave={2: 1},
        money={"currency": "USD", "pre": 1000, "door": 1200, "member": 800, "methods": ("cash", "card")},
        prizes="high 40%, high:red 30%, low 30%, loners $5",  # a night that is over keeps the prizes it had
    )
    assert night.status == Night.Status.FINISHED
    services.pot_line_add(night=night, pot="50/50", kind="in", cents=6000)
    services.pot_line_add(night=night, pot="50/50", kind="paid", cents=3000, reason="ticket 12")
    services.pot_line_add(night=night, pot="Jackpot", kind="in", cents=2500)
    services.pot_line_add(night=night, pot="Jackpot", kind="carried", cents=2500)
    services.draw_make(night=night, title="Door prize", count=1, pool_kind="players")
    season = seasons.season_create(name="Winter")
    seasons.season_nights_set(season=season, night_ids=[night.pk])
    return night


def _pages(client, night: Night) -> dict[str, bytes | str]:
    """The night as anyone reads it: every file, and the main content of its pages."""
    seen: dict[str, bytes | str] = {}
    for name in FILES:
        response = client.get(reverse(f"tournament:{name}", args=[night.pk]))
        assert response.status_code == 200, name
        seen[name] = response.content
    for name in ("public_night", "wishes", "money", "room_display", "night_detail", "night_fairness"):
        response = client.get(reverse(f"tournament:{name}", args=[night.pk]))
        assert response.status_code == 200, name
        seen[name] = _main(response.content.decode())
    for player in night.entries.filter(player__house=False).values_list("player_id", flat=True):
        response = client.get(reverse("tournament:player_page", args=[night.pk, player]))
        assert response.status_code == 200
        seen[f"player {player}"] = _main(response.content.decode())
    return seen


def _import(client, night: Night, rows: list[tuple[str, str, str]]) -> None:
    """The organizer imports a CSV of players (name, number, category) onto `night`: preview, then import."""
    text = "name,number,category\n" + "".join(f"{name},{number},{category}\n" for name, number, category in rows)
    page = preview(client, night, text)
    assert page.status_code == 200
    assert import_button(client, night, page).status_code == 302


def _roster(night: Night) -> list[tuple[str, str, str]]:
    return list(
        night.entries.filter(player__house=False).order_by("card").values_list("name", "club_number", "category")
    )


def _award(client, night: Night, prize: str) -> str:
    """Who the night's public page names for `prize` (its award line, as shown)."""
    html = client.get(reverse("tournament:public_night", args=[night.pk])).content.decode()
    line = re.search(rf'<span class="prize-name">{re.escape(prize)}</span>(.*?)</div>', html, re.S)
    assert line is not None, prize
    return line.group(1)


def test_a_later_import_with_other_categories_moves_no_prize_and_no_breach(organizer_client):
    first = _played()
    best_red = _award(organizer_client, first, "High score, red")
    wishes = _main(organizer_client.get(reverse("tournament:wishes", args=[first.pk])).content.decode())
    breaches = re.search(r'<section class="card" id="breaches">.*?</section>', wishes, re.S)
    assert breaches is not None
    roster = _roster(first)
    later = services.night_create(name="Second night")
    # The same players in other groups: the first half of the list red, the rest black.
    regrouped = [(name, "", "red" if k < len(roster) // 2 else "black") for k, (name, _, _) in enumerate(roster)]
    _import(organizer_client, later, regrouped)
    for name, _, category in regrouped:  # the roster now has them as the later night's list does
        assert Player.objects.get(name_key=Player.key_for(name)).category == category
    assert sum(category != then for (_, _, category), (_, _, then) in zip(regrouped, roster, strict=True)) >= 4
    assert _award(organizer_client, first, "High score, red") == best_red
    again = _main(organizer_client.get(reverse("tournament:wishes", args=[first.pk])).content.decode())
    assert re.search(r'<section class="card" id="breaches">.*?</section>', again, re.S).group(0) == breaches.group(0)
    assert again == wishes
    assert _roster(later) == regrouped  # the later night plays them as its own list says


def test_nothing_done_later_changes_a_finished_night(organizer_client, client):
    first = _played()
    before = _pages(organizer_client, first)
    season = first.seasons.get()
    roster = _roster(first)

    # Another night with the same players, other categories and club numbers, its own money, and the carried jackpot.
    later = services.night_create(name="Second night")
    _import(organizer_client, later, [(name, f"M-{k}", SWAP[cat]) for k, (name, _, cat) in enumerate(roster, 1)])
    nights = reverse("scoring:season_nights", args=[season.pk])
    assert organizer_client.post(nights, {"nights": [first.pk, later.pk]}).status_code == 302
    carried = PotLine.objects.get(night=first, kind=PotLine.Kind.CARRIED)
    assert (
        organizer_client.post(reverse("tournament:pot_take", args=[later.pk]), {"line": carried.pk}).status_code == 302
    )
    assert PotLine.objects.filter(night=later, carried_from=carried).exists()
    edit = reverse("scoring:season_edit", args=[season.pk])
    changed = {"name": "Winter, renamed", "club": "Another club", "notes": "", "method": "best", "best_of": "1"}
    assert organizer_client.post(edit, changed).status_code == 302
    services.signup_settings(night=later, open=True, cap=None)
    signup = reverse("tournament:signup", args=[later.pk])
    assert client.post(signup, {"name": "Newcomer Jones", "contact": "555-0100", "category": "red"}).status_code == 302
    assert _roster(later)[-1] == ("Newcomer Jones", "", "red")  # the sign-up's category is the later night's
    services.money_settings(night=later, currency="EUR", pre=500, door=700, member=None)
    # A third night played by some of the same people (the rehearsal's names overlap), with its own categories.
    simulate(players=12, rounds=2, seed=5, name="Third night", two_groups=True)

    # And the roster itself: every name, category and club number changed.
    for k, player in enumerate(Player.objects.filter(entries__night=first, house=False), start=1):
        player.name, player.category, player.club_number = f"Renamed {k}", "lady", f"X{k}"
        player.save()

    after = _pages(organizer_client, first)
    assert sorted(after) == sorted(before)
    for name, seen in before.items():
        assert after[name] == seen, name
    assert _roster(first) == roster


def test_a_backup_restored_after_the_roster_changed_keeps_its_players_as_they_were(organizer_client):
    first = _played()
    best_red = _award(organizer_client, first, "High score, red")
    standings = organizer_client.get(reverse("tournament:standings_csv", args=[first.pk])).content
    saved = organizer_client.get(reverse("tournament:night_backup", args=[first.pk])).content
    roster = _roster(first)
    services.night_delete(night=first, typed_name=first.name)
    later = services.night_create(name="Second night")
    regrouped = [(name, "", "red" if k < len(roster) // 2 else "black") for k, (name, _, _) in enumerate(roster)]
    _import(organizer_client, later, regrouped)  # the roster now has other groups for the same players
    restore = reverse("tournament:night_restore")
    response = organizer_client.post(restore, {"file": SimpleUploadedFile("night.json", saved)})
    assert response.status_code == 302
    restored = Night.objects.get(name="First night")
    assert _roster(restored) == roster
    assert _award(organizer_client, restored, "High score, red") == best_red
    assert organizer_client.get(reverse("tournament:standings_csv", args=[restored.pk])).content == standings


def test_the_migration_fills_each_night_from_the_roster():
    """The nights already stored get their players as the roster has them (their only record until now)."""
    night = services.night_create(name="Old night")
    services.players_register(night=night, names=["Ann Kowalski", "Bob Martin"])
    Player.objects.filter(name="Ann Kowalski").update(category="lady", club_number="101")
    Entry.objects.filter(night=night).update(name="", category="", club_number="")
    migration = import_module("tournament.migrations.0038_night_history")
    migration.fill_from_roster(apps, None)
    assert _roster(night) == [("Ann Kowalski", "101", "lady"), ("Bob Martin", "", "")]
