"""A table's totals as typed are one value (`scoring.entry.Totals`): every score form builds it, the game's life and
the record take it whole, and what the desk posts reaches the record (the phone's and the night page's posts:
test_table_links, test_scores)."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

from scoring.entry import Totals
from scoring.models import Submission, TableResult
from tests.conftest import register
from tournament import game, services
from tournament.models import Round
from tournament.score_forms import DeskForm, ScoreForm, TableScoreForm

# The boxes a form names differently from the value it builds.
_FORM_NAMES = {"version": "expected_version", "n_points": "seat_points", "e_points": "seat_points"}


def test_every_field_of_the_totals_is_one_a_score_form_fills():
    """A field added to `Totals` that no form fills (or a form's box that reaches no field) is caught here."""
    forms = [
        DeskForm(closed=True, cut_short=8),
        DeskForm(three={"N": "Ann", "E": "Bob", "S": "Cy"}),
        ScoreForm(),
        TableScoreForm(confirm=False),
        TableScoreForm(confirm=True, three={"N": "Ann", "E": "Bob", "S": "Cy"}),
    ]
    boxes = {_FORM_NAMES.get(name, name) for form in forms for name in form.fields}
    fields = {field.name for field in dataclasses.fields(Totals)}
    assert fields - boxes == set()  # every field comes from some form
    assert boxes - fields == {"code", "s_points"}  # the code proves a side; S's box is the third seat's points


def test_a_form_s_totals_carry_everything_it_was_given():
    form = DeskForm(
        {
            "ns_points": "3",
            "ew_points": "8",
            "last_hand_winner": "EW",
            "version": "4",
            "sure": "on",
            "key": "k-1",
            "take_over": "on",
            "hands_played": "6",
            "reason": "the   slip  misread",
        },
        closed=True,
        cut_short=8,
    )
    assert form.is_valid(), form.errors
    assert form.totals() == Totals(
        ns_points=3,
        ew_points=8,
        last_hand_winner="EW",
        hands_played=6,
        sure=True,
        expected_version=4,
        key="k-1",
        reason="the   slip  misread",
        take_over=True,
    )
    phone = TableScoreForm(
        {"side": "E", "n_points": "2", "e_points": "5", "s_points": "4", "last_hand_winner": "", "key": "p"},
        confirm=False,
        three={"N": "Ann", "E": "Bob", "S": "Cy"},
    )
    assert phone.is_valid(), phone.errors
    assert phone.totals() == Totals(seat_points={"N": 2, "E": 5, "S": 4}, key="p", side="E")


@pytest.mark.django_db
def test_the_totals_are_given_once(night):
    register(night, 8)
    playing = game.round_start(round_=services.night_draw(night=night, seed=9))
    with pytest.raises(TypeError, match="Give the totals once"):
        game.table_result_submit(round_=playing, table=2, totals=Totals(ns_points=5, ew_points=3), ns_points=5)
    with pytest.raises(TypeError):
        game.table_result_submit(round_=playing, table=2, points=5)  # not a field of the totals
    assert not TableResult.objects.exists()


@pytest.mark.django_db
def test_a_correction_typed_on_the_desk_reaches_the_record_whole(organizer_client, night):
    """The desk's slip for a closed game: its totals, version, key and reason (spaces tidied) are what is stored."""
    register(night, 8)
    playing = game.round_start(round_=services.night_draw(night=night, seed=9))
    for table in (1, 2):
        game.table_result_submit(round_=playing, table=table, ns_points=5, ew_points=3)
    closed = Round.objects.get(pk=playing.pk)
    if closed.status != Round.Status.CLOSED:
        game.round_close(round_=closed)
    save = reverse("scoring:desk_save", args=[night.pk, 1, 2])
    data = {
        "t2-ns_points": "2",
        "t2-ew_points": "6",
        "t2-version": "1",
        "t2-key": "desk-1",
        "t2-reason": " slip  misread",
    }
    organizer_client.post(save, data, HTTP_HX_REQUEST="true")
    result = TableResult.objects.get(round=playing, table=2)
    assert (result.ns_points, result.ew_points, result.winner, result.version) == (2, 6, "EW", 2)
    entry = Submission.objects.get(key="desk-1")
    assert (entry.reason, entry.before, entry.role, entry.ns_points) == ("slip misread", "5–3", "organizer", 2)


def test_a_tie_typed_at_the_desk_says_who_took_it(organizer_client, night):
    """A 6–6 slip with E–W's last hand: the desk's row says the score and who won the tie, as the slip does."""
    register(night, 8)
    game.round_start(round_=services.night_draw(night=night, seed=9))
    save = reverse("scoring:desk_save", args=[night.pk, 1, 2])
    data = {"t2-ns_points": "6", "t2-ew_points": "6", "t2-last_hand_winner": "EW", "t2-key": "desk-tie"}
    row = organizer_client.post(save, data, HTTP_HX_REQUEST="true").content.decode()
    assert "6–6 in, E–W won the last hand" in row
    assert (
        "6–6 in, E–W won the last hand"
        in organizer_client.get(reverse("scoring:keeper_desk", args=[night.pk])).content.decode()
    )
