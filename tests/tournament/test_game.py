"""A game's life: every move of the table, every refusal, the causes stored as data, and the bell task run late,
twice and stale."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import rules
from tests.conftest import register
from tournament import game, services, tasks
from tournament.game import hand_record, table_finish, table_result_submit
from tournament.models import Action, Cause, Night, Round

pytestmark = pytest.mark.django_db


def timed_night(**settings) -> Night:
    options = {"minutes_per_game": 20, "games": 3, **settings}
    night = services.night_create(name="Timed", **options)
    register(night, 8)
    return night


def shift(round_: Round, minutes: float) -> None:
    """Pretend time has passed: move the round's end into the past."""
    Round.objects.filter(pk=round_.pk).update(ends_at=timezone.now() - dt.timedelta(minutes=minutes))
    round_.refresh_from_db()


def actions(round_: Round) -> list[str]:
    return list(round_.events.values_list("action", flat=True))


def test_a_timed_game_runs_from_start_to_bell_to_close_with_every_change_logged():
    night = timed_night(auto_advance=False)
    round_ = services.night_draw(night=night, seed=1)
    before = timezone.now()
    round_ = game.round_start(round_=round_)
    assert round_.status == "playing"
    assert before + dt.timedelta(minutes=19) < round_.ends_at <= timezone.now() + dt.timedelta(minutes=20)
    shift(round_, 0.1)
    assert tasks.ring_bell(round_.pk, round_.token) is True
    round_.refresh_from_db()
    assert (round_.status, round_.bell_cause) == ("bell", "the timer")
    for table in (1, 2):
        table_result_submit(round_=round_, table=table, ns_points=5, ew_points=3)
    game.round_close(round_=round_)
    round_.refresh_from_db()
    assert actions(round_) == ["seated", "start", "bell", "close"]
    assert all(event.cause for event in round_.events.all())


def test_the_bell_task_is_harmless_early_twice_and_stale():
    night = timed_night(auto_advance=False)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    token = round_.token
    assert tasks.ring_bell(round_.pk, token) is False  # early: the end has not come
    shift(round_, 1)
    assert tasks.ring_bell(round_.pk, token - 1) is False  # stale: the end moved since
    assert tasks.ring_bell(round_.pk, token) is True
    assert tasks.ring_bell(round_.pk, token) is False  # twice: rings once
    round_.refresh_from_db()
    assert actions(round_).count("bell") == 1


def test_pause_resume_and_extend_move_the_end_and_make_old_tasks_stale():
    night = timed_night(auto_advance=False)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    first_token = round_.token
    paused = game.round_pause(round_=round_)
    assert paused.ends_at is None and dt.timedelta(minutes=19) < paused.paused_left <= dt.timedelta(minutes=20)
    with pytest.raises(ValidationError, match="Only a running timer"):
        game.round_pause(round_=round_)
    extended = game.round_extend(round_=round_, minutes=5)  # while paused: added to the time left
    assert extended.paused_left > dt.timedelta(minutes=24)
    resumed = game.round_resume(round_=round_)
    assert resumed.ends_at > timezone.now() + dt.timedelta(minutes=24)
    shift(round_, 1)
    assert tasks.ring_bell(round_.pk, first_token) is False  # sent for the old end
    assert tasks.ring_bell(round_.pk, resumed.token) is True
    assert actions(round_) == ["seated", "start", "pause", "extend", "resume", "bell"]
    with pytest.raises(ValidationError, match="not paused"):
        game.round_resume(round_=round_)


def test_the_organizers_bell_rings_once():
    night = timed_night(minutes_per_game=None, auto_advance=False)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    game.round_ring_bell(round_=round_)
    with pytest.raises(ValidationError, match="already rung"):
        game.round_ring_bell(round_=round_)
    round_.refresh_from_db()
    assert round_.bell_cause == "the organizer's button"


def test_refusals_for_games_not_started_and_starting_while_the_last_is_open():
    night = timed_night(auto_advance=False)
    round1 = services.night_draw(night=night, seed=1)
    with pytest.raises(ValidationError, match="not started"):
        table_result_submit(round_=round1, table=1, ns_points=5, ew_points=3)
    with pytest.raises(ValidationError, match="not being played"):
        game.round_ring_bell(round_=round1)
    with pytest.raises(ValidationError, match="not being played"):
        game.round_extend(round_=round1, minutes=5)
    game.round_start(round_=round1)
    with pytest.raises(ValidationError, match="already started"):
        game.round_start(round_=round1)
    # A game seated behind an open one cannot start.
    round2 = Round.objects.create(night=night, number=2)
    with pytest.raises(ValidationError, match="Game 1 is still open"):
        game.round_start(round_=round2)
    with pytest.raises(ValidationError, match="between 1 and 120"):
        game.round_extend(round_=round1, minutes=0)


def test_a_night_that_runs_by_itself_closes_and_starts_the_next_game_when_the_last_table_is_in():
    night = timed_night()
    round1 = game.round_start(round_=services.night_draw(night=night, seed=1))
    table_result_submit(round_=round1, table=1, ns_points=5, ew_points=3)
    shift(round1, 0.5)
    tasks.tick()
    round1.refresh_from_db()
    assert round1.status == "bell"  # table 2 is still out
    table_result_submit(round_=round1, table=2, ns_points=2, ew_points=6)
    round1.refresh_from_db()
    round2 = night.rounds.get(number=2)
    assert round1.status == "closed" and round2.status == "playing" and round2.ends_at is not None
    assert actions(round2) == ["seated", "start"]


def test_the_head_tables_last_hand_rings_the_bell_for_the_whole_room():
    night = timed_night(minutes_per_game=None)
    round1 = game.round_start(round_=services.night_draw(night=night, seed=1))
    for _ in range(8):
        hand_record(round_=round1, table=1, hand=rules.Hand(dealer="N", makers="", maker="N", tricks=3))
    round1.refresh_from_db()
    assert (round1.status, round1.bell_cause) == ("bell", "the head table's hand 8")
    hand_record(round_=round1, table=2, hand=rules.Hand(dealer="N", makers="", maker="E", tricks=4))
    table_finish(round_=round1, table=2)
    round1.refresh_from_db()
    assert round1.status == "bell"  # the head table has not said "Game over": a mis-tapped hand can be undone
    table_finish(round_=round1, table=1)
    round1.refresh_from_db()
    assert round1.status == "closed"  # the head table's "Game over" was the last thing the game waited for


def test_a_planned_break_starts_the_next_game_when_it_is_over():
    night = timed_night(break_after=1, break_minutes=15)
    round1 = game.round_start(round_=services.night_draw(night=night, seed=1))
    table_result_submit(round_=round1, table=2, ns_points=5, ew_points=3)
    game.round_ring_bell(round_=round1)
    table_result_submit(round_=round1, table=1, ns_points=5, ew_points=3)  # the last table in closes game 1
    round2 = night.rounds.get(number=2)
    assert round2.status == "seated"
    assert timezone.now() + dt.timedelta(minutes=14) < round2.starts_at
    assert tasks.start_round(round2.pk, round2.token) is False  # not yet
    Round.objects.filter(pk=round2.pk).update(starts_at=timezone.now() - dt.timedelta(seconds=1))
    assert tasks.tick() == {"rung": 0, "started": 1}
    round2.refresh_from_db()
    assert round2.status == "playing"
    assert tasks.start_round(round2.pk, round2.token) is False  # twice: starts once


def test_tick_catches_up_on_every_due_bell():
    nights = [timed_night(auto_advance=False) for _ in range(3)]
    rounds = [game.round_start(round_=services.night_draw(night=n, seed=1)) for n in nights]
    for round_ in rounds[:2]:
        shift(round_, 3)
    assert tasks.tick() == {"rung": 2, "started": 0}
    assert [Round.objects.get(pk=r.pk).status for r in rounds] == ["bell", "bell", "playing"]
    assert tasks.tick() == {"rung": 0, "started": 0}


def test_tasks_are_sent_on_commit_for_the_new_end(django_capture_on_commit_callbacks):
    night = timed_night(auto_advance=False)
    round_ = services.night_draw(night=night, seed=1)
    with django_capture_on_commit_callbacks() as callbacks:
        round_ = game.round_start(round_=round_)
    assert len(callbacks) == 1
    with django_capture_on_commit_callbacks() as callbacks:
        game.round_extend(round_=round_, minutes=2)
    assert len(callbacks) == 1


# ---- the table of moves and the causes stored as data -------------------------------------------------------------


def test_every_move_starts_only_from_the_states_the_table_allows():
    night = timed_night(auto_advance=False)
    round_ = services.night_draw(night=night, seed=1)
    assert {action for action, move in game.MOVES.items() if round_.status in move.sources} == {
        Action.START,
        Action.BREAK,
    }
    with pytest.raises(ValidationError, match="cannot be the bell now"):
        game._move(game._lock(round_), Action.BELL, Cause.BUTTON)
    round_ = game.round_start(round_=round_)
    with pytest.raises(ValidationError, match="cannot be closed now"):
        locked = game._lock(round_)
        locked.status = Round.Status.SEATED  # as if a stale copy were moved: the table still refuses
        game._move(locked, Action.CLOSE, Cause.ORGANIZER)
    round_.refresh_from_db()
    assert round_.status == "playing"
    assert game.MOVES[Action.UNBELL].sources == {Round.Status.BELL}
    assert game.MOVES[Action.CLOSE].target == Round.Status.CLOSED


def test_each_cause_is_stored_as_data_beside_its_words():
    night = timed_night(auto_advance=True, games=2)
    round1 = game.round_start(round_=services.night_draw(night=night, seed=1))
    for _ in range(night.hands_per_game):
        hand_record(round_=round1, table=1, hand=rules.Hand(dealer="N", makers="NS", tricks=3))
    round1.refresh_from_db()
    assert (round1.bell_reason, round1.bell_cause) == (Cause.HEAD_TABLE, "the head table's hand 8")
    table_finish(round_=round1, table=1)
    table_result_submit(round_=round1, table=2, ns_points=5, ew_points=3)
    events = [(e.action, e.reason, e.cause) for e in round1.events.order_by("at", "id")]
    assert events == [
        ("seated", Cause.DRAW, "the opening draw"),
        ("start", Cause.ORGANIZER, "the organizer"),
        ("bell", Cause.HEAD_TABLE, "the head table's hand 8"),
        ("close", Cause.ALL_IN, "every table is in after the bell"),
    ]
    round2 = night.rounds.get(number=2)
    assert [(e.action, e.reason) for e in round2.events.order_by("at", "id")] == [
        ("seated", Cause.MOVEMENT),
        ("start", Cause.STRAIGHT_ON),
    ]
    assert round2.events.get(action="seated").cause == "the movement after game 1"


def test_the_head_tables_undo_reads_the_stored_cause_not_the_words():
    night = timed_night(auto_advance=False)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    for _ in range(night.hands_per_game):
        hand_record(round_=round_, table=1, hand=rules.Hand(dealer="N", makers="NS", tricks=3))
    # Words that read like the head table's, on a bell the organizer rang: the undo must not take that bell back.
    Round.objects.filter(pk=round_.pk).update(bell_reason=Cause.BUTTON)
    game.hand_undo(round_=round_, table=1)
    round_.refresh_from_db()
    assert round_.status == "bell"
    Round.objects.filter(pk=round_.pk).update(bell_reason=Cause.HEAD_TABLE, bell_cause="")
    hand_record(round_=round_, table=1, hand=rules.Hand(dealer="N", makers="NS", tricks=3))
    round_.refresh_from_db()
    assert round_.status == "bell"
    game.hand_undo(round_=round_, table=1)
    round_.refresh_from_db()
    assert (round_.status, round_.bell_reason) == ("playing", "")
    assert round_.events.order_by("-at", "-id").first().reason == Cause.HEAD_TABLE_UNDO


# ---- the head table's game in from its totals (a volunteer's trial: the game waited for a bell nobody rang) -------


def test_the_head_table_s_totals_ring_the_bell_and_the_last_table_in_closes_the_game():
    # Slips typed at the desk: the head table's 8 hands are over when its totals come in, as its last hand would
    # have said from its phone. The room is told BELL, and the last table in closes the game (the night runs by
    # itself); the bell was the head table's, so its totals are not taken as a game cut short.
    from tournament import selectors

    night = services.night_create(name="Slips", games=3)
    register(night, 12)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    table_result_submit(round_=round_, table=2, ns_points=5, ew_points=3)
    assert Round.objects.get(pk=round_.pk).status == "playing"  # another table's score rings nothing
    table_result_submit(round_=round_, table=1, ns_points=4, ew_points=4, last_hand_winner="NS")
    rung = Round.objects.get(pk=round_.pk)
    assert rung.status == "bell" and rung.bell_reason == Cause.HEAD_TABLE
    assert rung.bell_cause == "the head table's game is in"
    assert not rung.head_table_cut_short(night)
    assert selectors.room(Night.objects.get(pk=night.pk)).headline.startswith("BELL")
    table_result_submit(round_=round_, table=3, ns_points=2, ew_points=6)
    assert Round.objects.get(pk=round_.pk).status == "closed"
    assert Night.objects.get(pk=night.pk).rounds.get(number=2).status == "playing"


def test_the_head_table_s_score_from_its_phone_rings_the_bell_once_the_other_side_confirms():
    from tests.conftest import code_at

    night = services.night_create(name="Phones", games=3, auto_advance=False)  # confirmation asked by default
    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    draft = game.table_draft_submit(round_=round_, table=1, ns_points=6, ew_points=2, code=code_at(round_, 1, "N"))
    assert Round.objects.get(pk=round_.pk).status == "playing"  # one side's word is not the game in
    game.table_draft_confirm(round_=round_, table=1, draft_number=draft.number, code=code_at(round_, 1, "E"))
    assert Round.objects.get(pk=round_.pk).status == "bell"


def test_without_the_head_table_s_rule_its_totals_ring_nothing():
    night = services.night_create(name="Timer only", games=3, head_table_ends=False, minutes_per_game=20)
    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    table_result_submit(round_=round_, table=1, ns_points=5, ew_points=3)
    assert Round.objects.get(pk=round_.pk).status == "playing"
