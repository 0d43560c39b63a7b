"""The night's services: registration, the draw, starting and closing games, and every refusal."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import NAMES, play_round, register
from tournament import game, services
from tournament.models import Entry, Night, Player, Round, Seating

pytestmark = pytest.mark.django_db


def seats_of(round_):
    return {(s.table, s.seat): s.player.name for s in round_.seatings.select_related("player")}


def test_names_match_the_roster_whatever_the_case_and_accents_case(night, db):
    Player.objects.create(name="Łukasz Żółć")
    services.players_register(night=night, names=["ŁUKASZ  żółć"])
    assert Player.objects.count() == 1
    assert night.entries.get().player.name == "Łukasz Żółć"


def test_register_adds_new_names_to_the_roster_and_reuses_old_ones(night):
    Player.objects.create(name="Ann Kowalski")
    services.players_register(night=night, names=["  ann   kowalski ", "Bob Martin", ""])
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann Kowalski", "Bob Martin"]
    assert night.entries.count() == 2


def test_duplicate_name_in_one_night_is_refused_and_nothing_is_saved(night):
    services.players_register(night=night, names=["Ann Kowalski"])
    with pytest.raises(ValidationError) as error:
        services.players_register(night=night, names=["Bob Martin", "ANN KOWALSKI"])
    assert error.value.message_dict["names"] == [
        "Line 2, “ANN KOWALSKI”: already registered for this night (as Ann Kowalski).",
        "Nobody was added: take out or change the lines above, then add the list again.",
    ]
    assert list(night.entries.values_list("player__name", flat=True)) == ["Ann Kowalski"]
    assert not Player.objects.filter(name="Bob Martin").exists()


def test_a_name_listed_twice_in_one_paste_is_refused(night):
    with pytest.raises(ValidationError) as error:
        services.players_register(night=night, names=["Bob Martin", "bob martin"])
    assert error.value.message_dict["names"][0] == "Line 2, “bob martin”: listed twice (also on line 1)."
    assert night.entries.count() == 0


def test_names_that_differ_only_by_accents_capitals_or_marks_are_asked_about_not_added_twice(night):
    """A paste of the club's list with "chloe DUBOIS" and "Chloé Dubois": one player typed twice far more often
    than two. Refused with both lines named; one typed beside a registered "Chloé Dubois" is refused too."""
    with pytest.raises(ValidationError) as error:
        services.players_register(night=night, names=["Chloé Dubois", "Bob Martin", "chloe DUBOIS"])
    assert error.value.message_dict["names"][0] == (
        "Line 3, “chloe DUBOIS”: the same name as “Chloé Dubois” on line 1 but for accents, capitals or marks: the "
        "same player twice? Take one out, or tell the two apart (an initial)."
    )
    assert night.entries.count() == 0 and not Player.objects.exists()
    services.players_register(night=night, names=["Chloé Dubois", "Bob Martin"])
    for typed in ("Chloe Dubois", "CHLOÉ DU-BOIS"):
        with pytest.raises(ValidationError) as error:
            services.players_register(night=night, names=[typed])
        assert error.value.messages[0].startswith("The same name as Chloé Dubois, already registered for this night")
    # Told apart, both play.
    services.players_register(night=night, names=["Chloé M. Dubois"])
    assert night.entries.count() == 3


def test_a_name_typed_without_the_rosters_accents_is_the_rosters_player(db):
    """Chloé Dubois played last week; tonight the organizer types "chloe dubois": the same person, in the roster's
    spelling (her season, her results link), not a second one. Picked from Regulars beside a "chloe DUBOIS" typed
    earlier tonight, she is refused as one player twice."""
    last_week = services.night_create(name="Last week")
    services.players_register(night=last_week, names=["Chloé Dubois", "Jean Côté", "Jean Cote-Smith"])
    tonight = services.night_create(name="Tonight")
    (entry,) = services.players_register(night=tonight, names=["chloe dubois"])
    assert (entry.player.name, entry.name) == ("Chloé Dubois", "Chloé Dubois")
    assert Player.objects.filter(name__icontains="dubois").count() == 1
    other = services.night_create(name="Another")
    services.players_register(night=other, names=["CHLOE DUBOIS"])
    chloe = Player.objects.get(name="Chloé Dubois")
    with pytest.raises(ValidationError) as error:
        services.players_add_from_roster(night=other, player_ids=[chloe.pk])
    assert "Already registered for this night: Chloé Dubois." in error.value.messages[0]


def test_a_roster_pick_that_is_a_name_already_here_but_for_accents_is_refused(db):
    first = services.night_create(name="First")
    services.players_register(night=first, names=["Łukasz Żółć", "Ann Kowalski"])
    lukasz = Player.objects.get(name="Łukasz Żółć")
    tonight = services.night_create(name="Tonight")
    Player.objects.create(club_id=tonight.club_id, name="Lukasz Zolc")  # from before names were matched so
    services.players_register(night=tonight, names=["Ann Kowalski"])
    entries = list(tonight.entries.values_list("name", flat=True))
    services.players_add_from_roster(night=tonight, player_ids=[lukasz.pk])
    with pytest.raises(ValidationError) as error:
        services.players_add_from_roster(night=tonight, player_ids=[Player.objects.get(name="Lukasz Zolc").pk])
    assert error.value.messages == [
        "Lukasz Zolc is the same name as Łukasz Żółć but for accents, capitals or marks: the same player twice? "
        "Nobody was added; if they are two, tell them apart on the roster (an initial)."
    ]
    assert sorted(tonight.entries.values_list("name", flat=True)) == sorted([*entries, "Łukasz Żółć"])
    # Two of the roster a typed name could be: asked, nobody added.
    other = services.night_create(name="Other")
    with pytest.raises(ValidationError) as error:
        services.players_register(night=other, names=["Lukasz Żolc"])
    assert error.value.messages == [
        "“Lukasz Żolc”: the roster has Lukasz Zolc and Łukasz Żółć, which of them is it? Pick the one from Regulars. "
        "Nobody was added."
    ]
    assert not other.entries.exists()


def test_roster_pick_refuses_players_already_in(night):
    services.players_register(night=night, names=["Ann Kowalski"])
    ann = Player.objects.get(name="Ann Kowalski")
    with pytest.raises(ValidationError) as error:
        services.players_add_from_roster(night=night, player_ids=[ann.pk])
    assert "Already registered" in error.value.message_dict["players"][0]


def test_draw_seats_checked_in_players_in_fours_and_records_the_seed(night):
    register(night, 16)
    (late,) = services.players_register(night=night, names=["Zoë Late"])
    services.entry_set_checked_in(entry=late, checked_in=False)
    round_ = services.night_draw(night=night, seed=42)
    night.refresh_from_db()
    assert (night.seed, night.status, round_.number, round_.status) == (42, "playing", 1, "seated")
    seated = set(round_.seatings.values_list("player__name", flat=True))
    assert seated == set(NAMES[:16])
    assert sorted(set(round_.seatings.values_list("table", flat=True))) == [1, 2, 3, 4]


def test_same_seed_gives_the_same_opening_seating(db):
    first = services.night_create(name="One", games=1)
    second = services.night_create(name="Two", games=1)
    register(first)
    register(second)
    assert seats_of(services.night_draw(night=first, seed=5)) == seats_of(services.night_draw(night=second, seed=5))


@pytest.mark.parametrize("count", [0, 1, 3])
def test_draw_refuses_fewer_than_four_players(night, count):
    if count:
        register(night, count)
    with pytest.raises(ValidationError) as error:
        services.night_draw(night=night)
    assert str(count) in error.value.message_dict["draw"][0]
    night.refresh_from_db()
    assert (night.status, night.seed, night.rounds.count()) == ("setup", None, 0)


def test_after_the_draw_players_are_marked_gone_not_removed(night):
    register(night, 8)
    services.night_draw(night=night, seed=1)
    with pytest.raises(ValidationError, match="mark the player as gone"):
        services.entry_remove(entry=night.entries.first())


@pytest.mark.parametrize("count,tables,byes", [(5, 1, 1), (6, 1, 2), (7, 1, 3), (15, 3, 3), (16, 4, 0)])
def test_the_draw_seats_fours_and_gives_the_rest_a_bye(night, count, tables, byes):
    register(night, count)
    round_ = services.night_draw(night=night, seed=4)
    assert round_.seatings.values("table").distinct().count() == tables
    assert round_.byes.count() == byes
    assert round_.seatings.count() + round_.byes.count() == count


def test_close_names_the_missing_tables_and_changes_nothing(night):
    register(night)
    round_ = play_round(services.night_draw(night=night, seed=3), {2: (5, 3), 3: (2, 6)})
    with pytest.raises(ValidationError) as error:
        game.round_close(round_=round_)
    assert error.value.message_dict["round"] == ["Tables 1, 4 still to enter a score for game 1."]
    round_.refresh_from_db()
    assert round_.status == "playing"
    assert Round.objects.filter(night=night).count() == 1


def test_cannot_close_a_game_that_has_not_started(night):
    register(night, 4)
    round_ = services.night_draw(night=night, seed=3)
    with pytest.raises(ValidationError, match="not started"):
        game.round_close(round_=round_)


def test_closing_applies_the_head_tail_movement(night):
    register(night)
    round1 = services.night_draw(night=night, seed=11)
    before = seats_of(round1)
    # N-S win at tables 1 and 3, E-W at 2 and 4.
    play_round(round1, {1: (6, 2), 2: (3, 5), 3: (7, 1), 4: (4, 4, "EW")})
    round2 = game.round_close(round_=round1)
    after = {name: table for (table, _), name in seats_of(round2).items()}
    # Head table: N-S winners stay, E-W losers go to the tail (table 4).
    assert after[before[(1, "N")]] == after[before[(1, "S")]] == 1
    assert after[before[(1, "E")]] == after[before[(1, "W")]] == 4
    # Winners at other tables move up one; losers stay.
    assert after[before[(2, "E")]] == after[before[(2, "W")]] == 1
    assert after[before[(2, "N")]] == after[before[(2, "S")]] == 2
    assert after[before[(3, "N")]] == after[before[(3, "S")]] == 2
    assert after[before[(4, "E")]] == after[before[(4, "W")]] == 3  # won the tie on the last hand
    assert after[before[(4, "N")]] == after[before[(4, "S")]] == 4
    # Partners of game 1 are opponents in game 2.
    side = {name: ("NS" if seat in "NS" else "EW") for (_, seat), name in seats_of(round2).items()}
    for table in range(1, 5):
        for a, b in (("N", "S"), ("E", "W")):
            assert side[before[(table, a)]] != side[before[(table, b)]]


def test_closing_the_last_game_finishes_the_night(night):
    register(night, 4)
    round_ = services.night_draw(night=night, seed=1)
    for _ in range(night.games):
        round_ = game.round_close(round_=play_round(round_, {1: (5, 3)}))
    assert round_ is None
    night.refresh_from_db()
    assert night.status == Night.Status.FINISHED
    assert night.rounds.count() == 3


def test_a_round_cannot_be_started_twice(night):
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    with pytest.raises(ValidationError, match="already started"):
        game.round_start(round_=round_)


def test_database_refuses_two_seats_for_one_player(night):
    from django.db import IntegrityError, transaction

    register(night, 4)
    round_ = services.night_draw(night=night, seed=1)
    seating = round_.seatings.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.create(round=round_, table=2, seat="N", player=seating.player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.create(
            round=round_, table=seating.table, seat=seating.seat, player=Player.objects.create(name="X")
        )


def test_night_settings_are_validated(db):
    with pytest.raises(ValidationError) as error:
        services.night_create(name="Bad", games=0, hands_per_game=8)
    assert "games" in error.value.message_dict
    assert Night.objects.count() == 0
    assert Entry.objects.count() == 0
