"""Sign-up before the night from its public link (#20): a cap, a waitlist in order, promotion when someone
withdraws, returning players matched to the roster, and every refusal said beside the field."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournament import services
from tournament.models import Entry, Player, SignUp

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_night(night):
    return services.signup_settings(night=night, open=True, cap=8)


def sign(night, name, **more):
    return services.signup_create(night=night, name=name, **more)


def test_sign_ups_past_the_cap_wait_in_order_and_the_first_is_promoted_when_someone_withdraws(open_night):
    signed = [sign(open_night, f"Player {n}") for n in range(1, 11)]
    assert [s.status for s in signed] == ["in"] * 8 + ["waitlist"] * 2
    assert open_night.entries.count() == 8 and not open_night.entries.filter(checked_in=True).exists()
    promoted = services.signup_withdraw(signup=signed[2])
    assert promoted.name == "Player 9" and promoted.status == "in"
    assert set(open_night.entries.values_list("player__name", flat=True)) == {
        f"Player {n}" for n in (1, 2, 4, 5, 6, 7, 8, 9)
    }
    signed[9].refresh_from_db()
    assert signed[9].status == "waitlist"
    # Withdrawing from the waitlist promotes nobody; the organizer may take someone in over the cap.
    assert services.signup_withdraw(signup=signed[9]) is None
    late = sign(open_night, "Player 11")
    assert late.status == "waitlist"
    assert services.signup_promote(signup=late).status == "in"
    assert open_night.entries.count() == 9


def test_a_raised_cap_takes_the_waitlist_in_in_order(open_night):
    for n in range(1, 12):
        sign(open_night, f"Player {n}")
    services.signup_settings(night=open_night, open=True, cap=10)
    assert list(SignUp.objects.filter(status="waitlist").values_list("name", flat=True)) == ["Player 11"]
    services.signup_settings(night=open_night, open=True, cap=None)
    assert not SignUp.objects.filter(status="waitlist").exists()


def test_a_returning_player_is_matched_to_the_roster_never_duplicated(open_night):
    regular = Player.objects.create(name="Łukasz Żółć")
    made = sign(open_night, "  łukasz   ŻÓŁĆ ", category="man")
    assert made.entry.player_id == regular.pk
    assert Player.objects.filter(name_key=regular.name_key).count() == 1
    regular.refresh_from_db()
    assert regular.category == "man"  # the roster had none


@pytest.mark.parametrize(
    ("setup", "name", "refusal"),
    [
        ("twice", "ann  KOWALSKI", "Ann Kowalski is already signed up for this night."),
        ("waiting", "Player 9", "Player 9 is already on this night's waitlist."),
        ("closed", "Bob", "Sign-up for this night is not open: ask the organizer."),
        ("drawn", "Bob", "The seating is drawn: sign-up is closed. Ask at the door."),
        ("open", "   ", "Type your name."),
        ("open", "x" * 81, "That name is too long (80 characters at most)."),
    ],
)
def test_a_refused_sign_up_says_why_and_adds_nobody(open_night, setup, name, refusal):
    sign(open_night, "Ann Kowalski")
    if setup == "waiting":
        for n in range(2, 10):
            sign(open_night, f"Player {n}")
    if setup == "closed":
        services.signup_settings(night=open_night, open=False, cap=8)
    if setup == "drawn":
        for n in range(2, 5):
            sign(open_night, f"Player {n}")
        Entry.objects.filter(night=open_night).update(checked_in=True)
        services.night_draw(night=open_night, seed=1)
    before = (Entry.objects.count(), SignUp.objects.count())
    with pytest.raises(ValidationError) as refused:
        sign(open_night, name)
    assert refused.value.message_dict == {"name": [refusal]}
    assert (Entry.objects.count(), SignUp.objects.count()) == before


def test_the_public_form_signs_up_and_the_players_page_says_where_they_stand(client, open_night):
    url = reverse("tournament:signup", args=[open_night.pk])
    assert "8 places left of 8." in client.get(url).content.decode()
    for n in range(1, 9):
        sign(open_night, f"Player {n}")
    page = client.get(url).content.decode()
    assert "The night is full (8 players)" in page and "Join the waitlist" in page
    answer = client.post(url, {"name": "Maria Rossi", "contact": "555-0101"}, follow=True)
    body = answer.content.decode()
    assert "Maria Rossi: you are 1st on the waitlist." in body
    waiting = SignUp.objects.get(name="Maria Rossi")
    assert answer.redirect_chain[-1][0] == reverse("tournament:signup_page", args=[waiting.key])
    # Someone withdraws from their own page: Maria's page now says she is in.
    first = SignUp.objects.get(name="Player 1")
    unsure = client.post(reverse("tournament:signup_withdraw", args=[first.key])).content.decode()
    assert "Tick “Yes, I cannot come” to withdraw: nothing was changed." in unsure
    assert SignUp.objects.get(pk=first.pk).status == "in"
    client.post(reverse("tournament:signup_withdraw", args=[first.key]), {"sure": "1"})
    assert (
        "Player 1: your sign-up is withdrawn."
        in client.get(reverse("tournament:signup_page", args=[first.key])).content.decode()
    )
    assert (
        "You are in, Maria Rossi." in client.get(reverse("tournament:signup_page", args=[waiting.key])).content.decode()
    )


def test_a_refusal_on_the_public_form_is_shown_beside_the_name(client, open_night):
    sign(open_night, "Ann Kowalski")
    body = client.post(reverse("tournament:signup", args=[open_night.pk]), {"name": "ann kowalski"}).content.decode()
    assert "is already signed up for this night." in body
    assert 'class="field has-error"' in body


def test_the_organizer_opens_sign_up_sets_a_cap_and_works_the_waitlist(organizer_client, night):
    settings_url = reverse("tournament:signup_settings", args=[night.pk])
    refused = organizer_client.post(settings_url, {"open": "on", "cap": "3"})
    assert "A cap is at least 4 players (one table)." in refused.content.decode()
    night.refresh_from_db()
    assert not night.signup_open
    organizer_client.post(settings_url, {"open": "on", "cap": "4"})
    night.refresh_from_db()
    assert (night.signup_open, night.signup_cap) == (True, 4)
    for n in range(1, 6):
        sign(night, f"Player {n}")
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert 'Sign-up and check-in by phone</b> — sign-up open<span id="signup-count"> · 4 in, 1 waiting</span>' in page
    assert f"/public/nights/{night.pk}/signup/" in page
    waiting = SignUp.objects.get(name="Player 5")
    organizer_client.post(reverse("tournament:signup_action", args=[night.pk, waiting.pk, "promote"]))
    waiting.refresh_from_db()
    assert waiting.status == "in" and night.entries.count() == 5


def test_the_organizer_taking_a_signed_up_player_off_gives_the_place_to_the_waitlist(open_night):
    for n in range(1, 10):
        sign(open_night, f"Player {n}")
    gone = Entry.objects.get(night=open_night, player__name="Player 4")
    services.entry_remove(entry=gone)
    assert SignUp.objects.get(name="Player 4").status == "withdrawn"
    assert SignUp.objects.get(name="Player 9").status == "in"
    assert open_night.entries.count() == 8


def test_sign_ups_and_the_waitlist_travel_in_the_backup(open_night):
    import json

    from tests.tournament.test_backup_refusals import signed
    from tournament import backup
    from tournament.models import Night

    for n in range(1, 11):
        sign(open_night, f"Player {n}", contact=f"555-01{n:02}")
    services.signup_withdraw(signup=SignUp.objects.get(name="Player 10"))
    open_night.refresh_from_db()
    first = backup.night_backup_bytes(open_night)
    data = json.loads(first)
    assert [row["status"] for row in data["signups"]] == ["in"] * 8 + ["waitlist", "withdrawn"]
    Night.objects.filter(pk=open_night.pk).delete()
    restored = backup.night_restore(raw=first)
    assert (restored.signup_open, restored.signup_cap) == (True, 8)
    assert backup.night_backup_bytes(restored) == first
    # Still the same waitlist: a withdrawal promotes Player 9.
    services.signup_withdraw(signup=SignUp.objects.get(night=restored, name="Player 1"))
    assert SignUp.objects.get(night=restored, name="Player 9").status == "in"
    # A file edited by hand is refused with the first fault, before anything is written.
    Night.objects.filter(pk=restored.pk).delete()
    for edit, refusal in (
        (
            lambda d: d["signups"][8].update(player=d["players"][0]["key"]),
            "Sign-up 9: a sign-up that is waitlist has a",
        ),
        (lambda d: d["signups"][0].update(player=None), "Sign-up 1: a sign-up that is in has no “player”"),
        (lambda d: d["signups"][1].update(key=d["signups"][0]["key"]), "Sign-up 2: The sign-up's key"),
        (lambda d: d["signups"][0].update(status="maybe"), "Sign-up 1: “status”"),
        (lambda d: d["signups"][0].update(created_at="yesterday"), "Sign-up 1: “created_at” is when it was made"),
    ):
        edited = json.loads(first)
        edit(edited)
        with pytest.raises(ValidationError) as refused:
            backup.night_restore(raw=signed(edited))
        assert refusal in " ".join(refused.value.messages)
        assert not Night.objects.filter(uid=edited["night"]["uid"]).exists()


# --- check-in by phone at the door ----------------------------------------------------------------------------------


@pytest.fixture
def door_night(open_night):
    services.signup_settings(night=open_night, open=True, cap=8, checkin=True)
    for n in range(1, 10):
        sign(open_night, f"Player {n}")
    open_night.refresh_from_db()
    return open_night


def test_a_player_checks_in_by_phone_once_and_the_organizer_can_undo_it(door_night):
    entry = Entry.objects.get(night=door_night, player__name="Player 3")
    services.entry_check_in_by_phone(night=door_night, entry_id=entry.pk)
    services.entry_check_in_by_phone(night=door_night, entry_id=entry.pk)  # a second tap: nothing more
    entry.refresh_from_db()
    assert (entry.checked_in, entry.checked_in_by_phone) == (True, True)
    services.entry_set_checked_in(entry=entry, checked_in=False)
    entry.refresh_from_db()
    assert (entry.checked_in, entry.checked_in_by_phone) == (False, False)


@pytest.mark.parametrize(
    ("setup", "refusal"),
    [
        ("closed", "Check-in by phone is not open tonight: check in at the organizer's table."),
        ("drawn", "The seating is drawn: tell the organizer you are here."),
        ("elsewhere", "That name is not on tonight's list: ask at the organizer's table."),
    ],
)
def test_a_check_in_by_phone_that_cannot_be_is_refused_with_the_reason(door_night, setup, refusal):
    entry = Entry.objects.get(night=door_night, player__name="Player 1")
    if setup == "closed":
        services.signup_settings(night=door_night, open=True, cap=8, checkin=False)
    if setup == "drawn":
        Entry.objects.filter(night=door_night).update(checked_in=True)
        services.night_draw(night=door_night, seed=2)
        Entry.objects.filter(pk=entry.pk).update(checked_in=False)
    if setup == "elsewhere":
        other = services.night_create(name="Another night")
        (entry,) = services.players_register(night=other, names=["Someone Else"], checked_in=False)
    with pytest.raises(ValidationError) as refused:
        services.entry_check_in_by_phone(night=door_night, entry_id=entry.pk)
    assert refused.value.messages == [refusal]
    entry.refresh_from_db()
    assert not entry.checked_in


def test_the_door_page_finds_the_name_and_checks_in(client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    found = client.get(url, {"q": "player 4"}).content.decode()
    assert "Player 4: I'm here" in found
    entry = Entry.objects.get(night=door_night, player__name="Player 4")
    done = client.post(url, {"entry": str(entry.pk)}).content.decode()
    assert "Welcome, Player 4: you are checked in." in done
    assert "already checked in" in client.get(url, {"q": "player 4"}).content.decode()
    assert (
        "Player 9 is on the waitlist: ask at the organizer's table."
        in client.get(url, {"q": "player 9"}).content.decode()
    )
    missing = client.get(url, {"q": "nobody here"}).content.decode()
    assert "Nobody on tonight's list matches “nobody here”" in missing and "Sign up and check in" in missing
    assert "Find your name, then tap" in client.post(url, {"entry": "x"}).content.decode()


def test_the_organizers_list_follows_check_ins_by_phone_within_one_poll(organizer_client, door_night):
    page = organizer_client.get(door_night.get_absolute_url()).content.decode()
    since = page.split("players/live/?since=", 1)[1].split('"', 1)[0]
    live = reverse("tournament:players_live", args=[door_night.pk])
    assert organizer_client.get(live, {"since": since}, HTTP_HX_REQUEST="true").status_code == 204
    entry = Entry.objects.get(night=door_night, player__name="Player 2")
    services.entry_check_in_by_phone(night=door_night, entry_id=entry.pk)
    answer = organizer_client.get(live, {"since": since}, HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert answer.status_code == 200 and "✓ Here (by phone)" in body and "1 checked in of 8" in body
    assert body.count('hx-swap-oob="true"') == 5  # the counts, the lists and the next poll
    Entry.objects.filter(night=door_night).update(checked_in=True)
    services.night_draw(night=door_night, seed=1)
    assert organizer_client.get(live, {"since": since}, HTTP_HX_REQUEST="true").headers["HX-Refresh"] == "true"


def test_the_room_display_shows_the_doors_code_before_the_draw_while_check_in_is_open(client, door_night):
    display = client.get(reverse("tournament:room_display", args=[door_night.pk])).content.decode()
    assert reverse("tournament:door_qr", args=[door_night.pk]) in display and "Check in on your phone" in display
    services.signup_settings(night=door_night, open=True, cap=8, checkin=False)
    display = client.get(reverse("tournament:room_display", args=[door_night.pk])).content.decode()
    assert "Find your table on your phone" in display and "Check in on your phone" not in display
    assert client.get(reverse("tournament:door_qr", args=[door_night.pk])).content.startswith(b"<svg")


def test_a_flood_of_sign_ups_from_one_address_is_turned_away_for_a_minute_with_what_was_typed_kept(client, night):
    from tournament.views.signups import SIGNUPS_PER_MINUTE

    services.signup_settings(night=night, open=True, cap=None)
    url = reverse("tournament:signup", args=[night.pk])
    for n in range(SIGNUPS_PER_MINUTE):
        client.post(url, {"name": f"Player {n}"})
    answer = client.post(url, {"name": "One Too Many", "contact": "555-0199"}).content.decode()
    assert "Many sign-ups came from this network in the last minute" in answer
    assert 'value="One Too Many"' in answer and 'value="555-0199"' in answer
    assert SignUp.objects.count() == SIGNUPS_PER_MINUTE


def test_the_organizer_adds_keepers_before_the_draw(organizer_client, night):
    assert "Score keepers" in organizer_client.get(night.get_absolute_url()).content.decode()


def test_a_walk_in_signs_up_and_checks_in_from_the_door_page(client, door_night):
    url = reverse("tournament:door", args=[door_night.pk])
    services.signup_settings(night=door_night, open=True, cap=None, checkin=True)  # room for everyone
    assert "Sign up and check in" in client.get(url, {"q": "Walk In Wanda"}).content.decode()
    done = client.post(url, {"walk_in": "Walk In Wanda"}).content.decode()
    assert "Welcome, Walk In Wanda: you are checked in." in done
    wanda = Entry.objects.get(night=door_night, player__name="Walk In Wanda")
    assert (wanda.checked_in, wanda.checked_in_by_phone) == (True, True)
    services.signup_settings(night=door_night, open=True, cap=10, checkin=True)
    full = client.post(url, {"walk_in": "Late Lou"}).content.decode()
    assert "Late Lou: the night is full; you are 1st on the waitlist." in full
    refused = client.post(url, {"walk_in": "walk in wanda"}).content.decode()
    assert "Walk In Wanda is already signed up for this night." in refused


def test_a_walk_in_at_a_door_whose_check_in_is_off_is_told_so_and_nothing_is_stored(client, door_night):
    """#34 item 6: the door's page answered "the night is full; you are on the waitlist" while it stored a confirmed
    place. With check-in off the walk-in is refused whole, with a sentence that says why."""
    services.signup_settings(night=door_night, open=True, cap=None, checkin=False)
    before = SignUp.objects.count()
    answer = client.post(reverse("tournament:door", args=[door_night.pk]), {"walk_in": "Walk In Wanda"})
    body = answer.content.decode()
    assert "Check-in by phone is not open tonight" in body
    assert "waitlist" not in body and "Welcome" not in body
    with pytest.raises(ValidationError, match="give your name at the organizer's table"):
        services.door_walk_in(night=door_night, name="Walk In Wanda")
    assert SignUp.objects.count() == before
    assert not Entry.objects.filter(night=door_night, player__name="Walk In Wanda").exists()


def test_contact_and_category_are_cleaned_as_names_are(door_night):
    """#34 item 7: an escape sequence, a bell or a backspace in the category kept it from matching its prize."""
    services.signup_settings(night=door_night, open=True, cap=None)
    signup = services.signup_create(
        night=door_night, name="Ann Lee", contact="555\x07-0100\u200b", category="\x1b[31mlady\x08 "
    )
    assert (signup.contact, signup.category) == ("555-0100", "[31mlady")


def roster_offered(client, night) -> str:
    """The names the organizer's night page offers to add from the club's roster."""
    page = client.get(night.get_absolute_url()).content.decode()
    return page[page.index('name="players"') :] if 'name="players"' in page else ""


def test_a_name_the_sign_up_put_on_the_roster_leaves_it_with_the_sign_up(client, organizer_client, open_night):
    """A stranger who signs up and withdraws, or whom the organizer takes off, is not left on the club's roster for
    every night to come; a regular of the roster who signs up and withdraws stays on it."""
    regular = services.night_create(name="Last month")
    services.players_register(night=regular, names=["Rita Regular"])
    url = reverse("tournament:signup", args=[open_night.pk])
    for name in ("Zed Stranger", "Yan Passing", "Rita Regular"):
        assert client.post(url, {"name": name}).status_code == 302
    zed, rita = SignUp.objects.get(name="Zed Stranger"), SignUp.objects.get(name="Rita Regular")
    for signup in (zed, rita):
        client.post(reverse("tournament:signup_withdraw", args=[signup.key]), {"sure": "1"})
    yan = Entry.objects.get(night=open_night, name="Yan Passing")
    organizer_client.post(reverse("tournament:entry_remove", args=[open_night.pk, yan.pk]))
    assert set(SignUp.objects.values_list("status", flat=True)) == {"withdrawn"}
    later = services.night_create(name="Next month")
    offered = roster_offered(organizer_client, later)
    assert "Rita Regular" in offered
    assert "Zed Stranger" not in offered and "Yan Passing" not in offered
    assert not Player.objects.filter(name__in=["Zed Stranger", "Yan Passing"]).exists()
    # The sign-up's own page still says what happened.
    page = client.get(reverse("tournament:signup_page", args=[zed.key])).content.decode()
    assert "Zed Stranger: your sign-up is withdrawn." in page


def test_a_waitlisted_sign_up_s_page_after_the_draw_says_the_waitlist_stopped(client, open_night):
    for n in range(1, 10):
        sign(open_night, f"Player {n}")
    waiting = SignUp.objects.get(name="Player 9")
    assert waiting.status == "waitlist"
    for entry in open_night.entries.all():
        services.entry_set_checked_in(entry=entry, checked_in=True)
    services.night_draw(night=open_night, seed=1)
    page = client.get(reverse("tournament:signup_page", args=[waiting.key])).content.decode()
    assert "Player 9: the night has started without a place for you." in page
    assert "ask at the organizer's table: a late arrival can still be added" in page
    assert "You take a place in order when someone withdraws" not in page
    assert "Withdraw my sign-up" not in page
