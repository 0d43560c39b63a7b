"""Games to a points target (#19, item 1): a table whose side reaches the target is done, the bell rings for the
rest, and a night where every table is done moves on without it. Through the services, the pages and a backup.

The Euchre article, Tournaments: "Winners of each game (typically to 10 points) stay at their table and are split
apart"; its regional variants play to 11 or 15.
"""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import rules
from scoring.models import TableResult
from tests.conftest import code_at, register
from tests.tournament.test_backup_refusals import signed
from tournament import backup, game, services
from tournament.forms import NightForm
from tournament.game import hand_record, table_finish, table_result_submit
from tournament.models import Cause, Night, Round
from tournament.rehearsal import simulate
from tournament.selectors import night_record, room

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}

POINT = rules.Hand(dealer="", makers="", maker="N", tricks=3)  # N–S make their point: 1
MARCH = rules.Hand(dealer="", makers="", maker="N", tricks=5)  # N–S march: 2
LONER = rules.Hand(dealer="", makers="", maker="E", tricks=5, alone=True)  # E alone takes all five: E–W 4


def to_target(target: int = 10, players: int = 8, **settings) -> Round:
    night = services.night_create(name="To ten", points_target=target, head_table_ends=False, **settings)
    register(night, players)
    return game.round_start(round_=services.night_draw(night=night, seed=3))


def play(round_: Round, table: int, hands) -> None:
    for hand in hands:
        hand_record(round_=round_, table=table, hand=hand)


def test_a_winners_stay_night_plays_to_10_by_default_and_a_progressive_night_to_the_head_tables_hands():
    stay = services.night_create(name="Stay", movement="winners-stay")
    assert (stay.points_target, stay.head_table_ends) == (10, False)
    assert stay.game_end().words() == "Each game ends at 10 points at a table"
    classic = services.night_create(name="Classic")
    assert (classic.points_target, classic.head_table_ends) == (None, True)
    chosen = services.night_create(name="Eleven", movement="winners-stay", points_target=11)
    assert (chosen.points_target, chosen.head_table_ends) == (11, True)


@pytest.mark.parametrize(
    ("movement", "typed", "target", "head", "scoring"),
    [
        ("winners-stay", "", 10, False, "standard"),  # empty: the movement's own rule
        ("winners-stay", "0", None, True, "standard"),  # 0: no target
        ("winners-stay", "15", 15, True, "standard"),
        ("progressive", "", None, True, "standard"),
        ("progressive", "11", 11, True, "standard"),
        ("progressive", "", 50, True, "double-deck"),  # empty: a bid game's own target
        ("progressive", "", 25, True, "buck"),
        ("progressive", "0", None, True, "pfeffer"),
        ("winners-stay", "", 10, False, "pfeffer"),  # the movement's rule first
    ],
)
def test_the_night_form_reads_the_target_as_its_help_says(movement, typed, target, head, scoring):
    form = NightForm(
        {
            "name": "Form night",
            "date": "2026-12-04",
            "movement": movement,
            "fill": "byes",
            "bye_credit": "none",
            "bye_points": "0",
            "rank_by": "total",
            "prizes": "high,second,third,low,loners",
            "one_prize_each": "on",
            "games": "6",
            "hands_per_game": "8",
            "head_table_ends": "on",
            "points_target": typed,
            "warning_minutes": "2",
            "auto_advance": "on",
            "break_minutes": "15",
            "scoring": scoring,
            "tie_rule": "last_hand",
            "confirm_results": "on",
            "paper": "letter",
            "substitutes": "card",
        }
    )
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["points_target"], form.cleaned_data["head_table_ends"]) == (target, head)


@pytest.mark.parametrize(
    ("scoring", "target"),
    [
        ("standard", None),
        ("bid-euchre", 42),
        ("double-deck", 50),
        ("double-deck-36", 36),
        ("pfeffer", 42),
        ("buck", 25),
    ],
)
def test_a_bid_game_plays_to_its_own_target_unless_the_organizer_says_otherwise(scoring, target):
    """ "Game is to 42 points" (Pfeffer), "played to 25 or more" (Buck), to 50 (Indiana), to 36, "the standard
    winning number is 42" (bid euchre and Midwest Pepper): the preset's target is the night's when none is given."""
    assert services.night_create(name="Bid night", scoring=scoring).points_target == target
    assert services.night_create(name="Own target", scoring=scoring, points_target=None).points_target is None


def test_the_night_form_refuses_a_target_it_cannot_play_beside_the_field():
    form = NightForm({"name": "Bad", "points_target": "100"})
    assert not form.is_valid()
    assert form.errors["points_target"] == ["Type a number of points from 1 to 99, or 0 for no target."]


def test_the_hand_that_reaches_the_target_ends_the_tables_hands_until_game_over():
    round_ = to_target()
    play(round_, 2, [MARCH] * 4 + [POINT])  # 2+2+2+2+1 = 9: still playing
    play(round_, 2, [MARCH])  # 11: N–S reached 10
    result = TableResult.objects.get(round=round_, table=2)
    assert (result.ns_points, result.ew_points, result.status) == (11, 0, "playing")  # not in until "Game over"
    with pytest.raises(ValidationError, match="N–S reached 10 points: table 2's game is over"):
        hand_record(round_=round_, table=2, hand=POINT)
    # A mis-tapped last hand is undone, and the game goes on.
    game.hand_undo(round_=round_, table=2)
    hand_record(round_=round_, table=2, hand=POINT)
    result.refresh_from_db()
    assert (result.ns_points, result.hands_played) == (10, 6)
    round_.refresh_from_db()
    assert round_.status == "playing"  # no bell: the other table plays on


def test_every_table_done_closes_the_game_without_a_bell_on_a_night_that_runs_by_itself():
    round_ = to_target(auto_advance=True)
    play(round_, 1, [MARCH] * 5)  # the head table plays on like any other: N–S 10
    table_finish(round_=round_, table=1, codes={"NS": code_at(round_, 1, "N"), "EW": code_at(round_, 1, "E")})
    round_.refresh_from_db()
    assert round_.status == "playing"  # table 2 is still playing
    table_result_submit(round_=round_, table=2, ns_points=6, ew_points=11)
    round_.refresh_from_db()
    assert (round_.status, round_.bell_reason) == ("closed", Cause.ALL_DONE)
    assert round_.bell_cause == "closed by every table finishing its game"
    assert round_.night.rounds.get(number=2).status == "playing"  # the next game started


def test_the_head_tables_target_rings_the_bell_where_its_last_hand_would():
    round_ = to_target(target=5, auto_advance=False)
    Night.objects.filter(pk=round_.night_id).update(head_table_ends=True)
    round_.refresh_from_db()
    play(round_, 1, [MARCH, MARCH, POINT])  # 5 after three hands, not eight
    round_.refresh_from_db()
    assert (round_.status, round_.bell_reason, round_.bell_cause) == (
        "bell",
        Cause.HEAD_TABLE,
        "the head table's hand 3",
    )


@pytest.mark.parametrize(
    ("ns", "ew", "refusal"),
    [
        (14, 3, "No game to 10 ends at N–S 14, E–W 3"),  # from 9, one hand gives at most a loner's 4
        (10, 11, "No game to 10 ends at N–S 10, E–W 11"),  # the game stopped when the first side got there
    ],
)
def test_totals_a_game_to_the_target_cannot_stop_at_are_refused_and_nothing_is_saved(ns, ew, refusal):
    round_ = to_target()
    with pytest.raises(ValidationError, match=refusal):
        table_result_submit(round_=round_, table=2, ns_points=ns, ew_points=ew)
    assert not TableResult.objects.exists()


def test_totals_at_the_target_and_below_it_after_the_bell_are_taken():
    round_ = to_target(auto_advance=False)
    table_result_submit(round_=round_, table=1, ns_points=13, ew_points=9)  # a loner's march from 9
    game.round_ring_bell(round_=round_)
    table_result_submit(round_=round_, table=2, ns_points=7, ew_points=8)  # the bell before either side got there
    assert dict(TableResult.objects.values_list("table", "winner")) == {1: "NS", 2: "EW"}


def test_the_hand_page_says_the_target_and_when_it_is_reached(organizer_client):
    round_ = to_target()
    page = reverse("scoring:table_hands", args=[round_.night_id, round_.number, 2])
    assert "Hand 1 · game to 10 · " in organizer_client.get(page).content.decode()
    play(round_, 2, [LONER, LONER, POINT, MARCH, LONER])
    body = organizer_client.get(page).content.decode()
    assert "E–W reached 10 points: the game is over." in body  # 4 + 4 + 4 (N–S 1, then 2)
    assert "Who called trump?" not in body  # no more hands offered


def test_the_room_and_the_night_page_say_how_the_games_end(organizer_client):
    round_ = to_target()
    night = round_.night
    assert room(night).detail == "Games to 10 points · scores in: 0 of 2 tables"
    body = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert "each game ends at 10 points at a table" in body


def test_a_night_to_a_target_backs_up_and_restores_to_the_same_file():
    night = simulate(players=12, rounds=3, seed=5, movement="winners-stay")
    first = backup.night_backup_bytes(night)
    data = json.loads(first)
    assert (data["night"]["points_target"], data["night"]["head_table_ends"]) == (10, False)
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=first)
    assert (restored.points_target, restored.head_table_ends) == (10, False)
    assert backup.night_backup_bytes(restored) == first


def test_a_restore_refuses_a_hand_entered_after_the_target_was_reached():
    night = simulate(players=8, rounds=1, seed=5, movement="winners-stay")
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    data["night"]["points_target"] = 3  # the stored games ran past it
    with pytest.raises(ValidationError, match="reached 3 points before this hand"):
        backup.night_restore(raw=signed(data))
    assert not Night.objects.exists()


@pytest.mark.parametrize(
    ("options", "ended_by"),
    [
        ({"movement": "winners-stay"}, {"all_done"}),  # every table to 10, no bell
        ({"target": 0}, {"head_table"}),  # progressive: the head table's 8th hand
        ({"target": 10}, {"head_table"}),  # its 8th hand or its 10 points, whichever first
        ({"head_table": False, "bell_after": 5}, {"button"}),  # the organizer's bell, for the timer
    ],
)
def test_the_rehearsal_plays_each_end_rule_and_its_record_says_why_each_game_ended(options, ended_by):
    night = simulate(players=16, rounds=3, seed=11, entry="hands", **options)
    record = night_record(night)
    assert {game["ended_by"] for game in record["rounds"]} == ended_by
    target = record["night"]["points_target"]
    for played in record["rounds"]:
        for table in played["tables"]:
            score = table["score"]
            if target and played["ended_by"] == "all_done":
                assert max(score["NS"], score["EW"]) >= target > min(score["NS"], score["EW"])
            if options.get("bell_after"):
                assert len(table["hands"]) == 5
