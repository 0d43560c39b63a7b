"""A site operator adds a club and its first organizer (`add_club`); `add_organizer --club` on a server of several
clubs (#38). At the venue (one club) `add_organizer` is as it was (tests/tournament/test_commands.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament import services
from tournament.models import Club, Membership
from tournament.services import clubs

pytestmark = pytest.mark.django_db


def _password(out: str) -> str:
    return out.split("password ")[1].split(" ")[0]


def test_add_club_makes_the_club_and_its_first_organizer_with_a_password_shown_once(capsys, client):
    call_command("add_club", "Maple Leaf Euchre", organizer="maple-ann")
    out = capsys.readouterr().out
    club = Club.objects.get(slug="maple-leaf-euchre")
    assert club.name == "Maple Leaf Euchre" and "/public/c/maple-leaf-euchre/" in out
    user = get_user_model().objects.get(username="maple-ann")
    assert user.is_staff and not user.is_superuser and user.membership.club == club
    password = _password(out)
    assert user.check_password(password) and len(password) >= 12 and out.count(password) == 1
    # the organizer logs in and works in the new club: its nights, not the first club's
    login = client.post("/accounts/login/", {"username": "maple-ann", "password": password})
    assert login.status_code == 302
    services.night_create(name="Maple's first", games=3, club=club)
    other = Club.objects.create(name="Another club", slug="another")
    services.night_create(name="Another club's night", games=3, club=other)
    page = client.get("/").content.decode()
    assert "Maple&#x27;s first" in page and "Another club" not in page


def test_add_club_takes_the_slug_given(capsys):
    call_command("add_club", "Oak Hall Club", slug="Oak Hall", organizer="oak")
    assert Club.objects.filter(slug="oak-hall", name="Oak Hall Club").exists()


def test_a_taken_slug_or_user_name_is_refused_and_nothing_is_made(capsys):
    call_command("add_club", "Birch Club", organizer="birch")
    clubs_before, users_before = Club.objects.count(), get_user_model().objects.count()
    with pytest.raises(CommandError, match="'birch-club' is another club's"):
        call_command("add_club", "Birch Club", organizer="someone-else")
    with pytest.raises(CommandError, match="already an account named 'birch'"):
        call_command("add_club", "Cedar Club", organizer="birch")
    with pytest.raises(CommandError, match="cannot be a user name"):
        call_command("add_club", "Cedar Club", organizer="no spaces allowed!")
    with pytest.raises(CommandError, match="short address"):
        call_command("add_club", "Cedar Club", slug="---", organizer="cedar")
    with pytest.raises(CommandError, match="name"):
        call_command("add_club", "   ", organizer="cedar")
    assert (Club.objects.count(), get_user_model().objects.count()) == (clubs_before, users_before)
    assert not get_user_model().objects.filter(username__in=["someone-else", "cedar"]).exists()


def test_add_organizer_names_the_club_on_a_server_of_several(capsys):
    clubs.club_add(name="Alder Club")
    birch = clubs.club_add(name="Birch Club")
    with pytest.raises(CommandError, match="several clubs: say which with --club"):
        call_command("add_organizer", "nobody")
    with pytest.raises(CommandError, match=r"no club at the short address 'pine'.*alder-club, birch-club"):
        call_command("add_organizer", "nobody", club="pine")
    assert not get_user_model().objects.filter(username="nobody").exists()
    call_command("add_organizer", "second", club="birch-club")
    user = get_user_model().objects.get(username="second")
    assert user.is_staff and user.check_password(_password(capsys.readouterr().out))
    assert Membership.objects.get(user=user).club == birch


def test_add_organizer_on_the_laptop_needs_no_club(capsys):
    call_command("add_organizer", "second")
    (club,) = Club.objects.all()
    assert get_user_model().objects.get(username="second").membership.club == club
    call_command("add_organizer", "third", club=club.slug)  # naming the one club is fine too
    assert get_user_model().objects.get(username="third").membership.club == club


def test_each_club_of_a_hosted_server_loads_its_own_demo_night_once(capsys, client):
    """The demo is one file; each club that loads it gets its own night (its own identity, so its backup restores
    and publishes as that club's), once."""
    from tournament import backup
    from tournament.models import Night

    maple, birch = clubs.club_add(name="Maple Leaf Euchre"), clubs.club_add(name="Birch Euchre Club")
    call_command("load_demo", club=maple.slug)
    call_command("load_demo", club=birch.slug)
    ours, theirs = (Night.objects.get(club=club, name__startswith="Demo") for club in (maple, birch))
    assert ours.uid != theirs.uid
    assert ours.entries.count() == theirs.entries.count() == 24
    assert {entry.player.club_id for entry in theirs.entries.select_related("player")} == {birch.pk}
    for night in (ours, theirs):
        backup.checks.check(backup.checks.parse(backup.night_backup_bytes(night)))
    from scoring.models import TableLink

    for night in (ours, theirs):  # each night's table links are its own and open its tables
        link = TableLink.objects.filter(night=night, active=True).order_by("table").first()
        assert client.get(f"/t/{link.token}/").status_code == 200
    with pytest.raises(CommandError, match="already loaded"):
        call_command("load_demo", club=birch.slug)
    assert Night.objects.filter(name__startswith="Demo").count() == 2
