"""Hand-by-hand entry: scoring under the night's rules, the dealer's turn, the head table's bell, undo, refusals."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from scoring import rules
from scoring.models import Hand, TableResult
from scoring.rules import PRESETS
from tests.conftest import register
from tournament import game, services
from tournament.game import hand_record, hand_undo, table_finish, table_result_submit
from tournament.selectors import game_lines, night_standings
from tournament.services import night_rules_update

pytestmark = pytest.mark.django_db


def hand(maker="N", tricks=3, **options):
    return rules.Hand(dealer=options.pop("dealer", ""), makers="", maker=maker, tricks=tricks, **options)


@pytest.fixture
def playing(night):
    register(night, 8)
    return game.round_start(round_=services.night_draw(night=night, seed=9))


def test_hands_are_scored_with_the_standard_table_and_summed(playing):
    entered = [
        hand("N", 3),  # makers 3 tricks: 1
        hand("E", 5),  # march: 2 to E-W
        hand("S", 5, alone=True),  # loner march: 4
        hand("W", 4, alone=True),  # loner 4 tricks: 1
        hand("N", 2),  # euchre: 2 to E-W
        hand("E", 0, alone=True),  # euchred loner: 2 to N-S
    ]
    for played in entered:
        hand_record(round_=playing, table=2, hand=played)
    result = TableResult.objects.get(round=playing, table=2)
    assert list(result.hands.values_list("ns_points", "ew_points")) == [(1, 0), (0, 2), (4, 0), (0, 1), (0, 2), (2, 0)]
    assert (result.ns_points, result.ew_points) == (7, 5)
    assert (result.status, result.entry, result.hands_played) == ("playing", "hands", 6)


def test_the_deal_passes_to_the_left_from_the_chosen_first_dealer(playing):
    hand_record(round_=playing, table=2, hand=hand(dealer="S"))
    for _ in range(7):
        hand_record(round_=playing, table=2, hand=hand(dealer="N"))  # ignored after the first hand
    dealers = list(Hand.objects.order_by("number").values_list("dealer", flat=True))
    assert dealers == ["S", "W", "N", "E", "S", "W", "N", "E"]
    assert Counter(dealers) == {"N": 2, "E": 2, "S": 2, "W": 2}


def test_the_head_tables_last_hand_rings_the_bell_and_every_table_is_in_at_game_over(playing):
    for _ in range(7):
        hand_record(round_=playing, table=1, hand=hand())
        hand_record(round_=playing, table=2, hand=hand("E", 4))
    playing.refresh_from_db()
    assert playing.bell_at is None
    hand_record(round_=playing, table=1, hand=hand())
    playing.refresh_from_db()
    assert playing.bell_at is not None and "head table" in playing.bell_cause
    assert TableResult.objects.get(table=1).status == "playing"  # in only at "Game over": an undo is still in time
    with pytest.raises(ValidationError, match="The head table plays 8 hands a game"):
        hand_record(round_=playing, table=1, hand=hand())
    # Table 2 finishes the hand it was playing at the bell and enters any it kept on paper: none makes it final.
    for _ in range(3):
        hand_record(round_=playing, table=2, hand=hand("E", 4))
    assert TableResult.objects.get(table=2).status == "playing"
    with pytest.raises(ValidationError, match="Tables 1, 2 still to enter"):
        game.round_close(round_=playing)
    table_finish(round_=playing, table=1)
    table_finish(round_=playing, table=2)
    assert (TableResult.objects.get(table=2).hands_played, TableResult.objects.get(table=2).status) == (10, "final")
    # a phone's page still open after Game over is sent to the keeper (its Undo is the keeper's now)
    with pytest.raises(
        ValidationError, match=r"Table 2.s game is in: no more hands\. To correct it, ask the score keeper"
    ):
        hand_record(round_=playing, table=2, hand=hand())
    assert game.round_close(round_=playing).number == 2


def test_a_table_that_was_between_hands_at_the_bell_finishes(playing):
    hand_record(round_=playing, table=2, hand=hand())
    for _ in range(8):
        hand_record(round_=playing, table=1, hand=hand())
    with pytest.raises(ValidationError, match=r"Tables 1, 2"):
        game.round_close(round_=playing)
    table_finish(round_=playing, table=1)
    table_finish(round_=playing, table=2)
    game.round_close(round_=playing)


def test_undo_takes_back_the_last_hand_and_reopens_the_game(playing):
    hand_record(round_=playing, table=2, hand=hand("N", 5))
    hand_record(round_=playing, table=2, hand=hand("E", 3))
    result = hand_undo(round_=playing, table=2)
    assert (result.ns_points, result.ew_points, result.hands_played) == (2, 0, 1)
    assert hand_undo(round_=playing, table=2) is None
    assert not TableResult.objects.exists()
    with pytest.raises(ValidationError, match="no hand to undo"):
        hand_undo(round_=playing, table=2)


def test_undoing_the_head_tables_last_hand_unrings_the_bell(playing):
    for _ in range(8):
        hand_record(round_=playing, table=1, hand=hand())
    hand_undo(round_=playing, table=1)
    playing.refresh_from_db()
    assert playing.bell_at is None
    assert TableResult.objects.get(table=1).status == "playing"


@pytest.mark.parametrize(
    "bad,message",
    [
        (hand("N", 6), "between 0 and 5"),
        (hand("N", -1), "between 0 and 5"),
        (hand("N", 3, blind=True), "played alone"),
        (hand("N", 3, alone=True, blind=True), "not played under these rules"),
        (hand("N", 3, defender_alone="E"), "not played under these rules"),
        (hand("N", 3, bid=4), "only when the night plays bid euchre"),
    ],
)
def test_bad_hands_are_refused_and_nothing_is_saved(playing, bad, message):
    with pytest.raises(ValidationError, match=message):
        hand_record(round_=playing, table=2, hand=bad)
    assert not Hand.objects.exists() and not TableResult.objects.exists()


def test_alone_on_the_side_that_did_not_make_trump_is_refused(playing):
    with pytest.raises(ValidationError, match="not on the makers' side"):
        hand_record(round_=playing, table=2, hand=rules.Hand(dealer="", makers="NS", maker="E", tricks=3, alone=True))


def test_no_hand_after_the_game_closed(night):
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    hand_record(round_=round_, table=1, hand=hand())
    table_finish(round_=round_, table=1)
    game.round_close(round_=round_)
    with pytest.raises(ValidationError, match="closed"):
        hand_record(round_=round_, table=1, hand=hand())


def test_totals_and_hands_do_not_mix_on_one_table(playing):
    hand_record(round_=playing, table=2, hand=hand())
    with pytest.raises(ValidationError, match="hand by hand"):
        table_result_submit(round_=playing, table=2, ns_points=5, ew_points=3)
    table_result_submit(round_=playing, table=1, ns_points=5, ew_points=3)
    with pytest.raises(ValidationError, match="as totals"):
        hand_record(round_=playing, table=1, hand=hand())


def test_tallies_carry_the_extras_and_the_personal_loner_bonus(night):
    night.rules = PRESETS["loner-bonus"].as_dict()
    night.save()
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=2))
    seat = {s.seat: s.player_id for s in round_.seatings.all()}
    hand_record(round_=round_, table=1, hand=hand("N", 5, alone=True))  # loner made: 4 to N-S, bonus 2 to N
    hand_record(round_=round_, table=1, hand=hand("E", 2))  # E-W euchred: 2 to N-S, a euchre each for N and S
    hand_record(round_=round_, table=1, hand=hand("S", 5))  # march: 2 to N-S
    hand_record(round_=round_, table=1, hand=hand("W", 1, alone=True))  # loner euchred: tried, 2 to N-S
    table_finish(round_=round_, table=1)
    game.round_close(round_=round_)
    lines = {player: player_lines[0] for player, player_lines in game_lines(night).items()}
    north, south, west = lines[seat["N"]], lines[seat["S"]], lines[seat["W"]]
    assert north.points == south.points == 10
    assert (north.extras.loners_made, north.extras.bonus, north.tally) == (1, 2, 12)
    assert (south.extras.bonus, south.tally, south.extras.euchres, south.extras.marches) == (0, 10, 2, 1)
    assert (west.extras.loners_tried, west.extras.loners_made, west.points) == (1, 0, 0)
    standings = {row.player_id: row for row in night_standings(night).rows}
    assert standings[seat["N"]].total == 12 and standings[seat["S"]].total == 10
    assert standings[seat["N"]].loners_made == 1 and standings[seat["S"]].marches == 1


def test_changing_the_rules_needs_confirming_and_rescores_every_hand(playing):
    hand_record(round_=playing, table=2, hand=hand("N", 2, alone=True))  # a euchred loner: 2 under standard
    hand_record(round_=playing, table=2, hand=hand("E", 0))  # a euchre sweep: 2 under standard
    numbers = PRESETS["euchred-loner-3"].as_dict()
    with pytest.raises(ValidationError, match="2 hands are already recorded"):
        night_rules_update(night=playing.night, preset="euchred-loner-3", numbers=numbers)
    assert night_rules_update(night=playing.night, preset="euchred-loner-3", numbers=numbers, confirm=True) == 2
    result = TableResult.objects.get(table=2)
    assert (result.ns_points, result.ew_points) == (2, 3)
    assert Hand.objects.count() == 2
    numbers = {**PRESETS["progressive"].as_dict()}
    night_rules_update(night=playing.night, preset="progressive", numbers=numbers, confirm=True)
    result.refresh_from_db()
    assert (result.ns_points, result.ew_points) == (4, 2)  # the sweep is worth 4 on a progressive night


def test_rules_the_stored_hands_cannot_meet_are_refused_whole(playing):
    hand_record(round_=playing, table=2, hand=hand("N", 5))
    numbers = PRESETS["bid-euchre"].as_dict()
    with pytest.raises(ValidationError, match="hand 1"):
        night_rules_update(night=playing.night, preset="bid-euchre", numbers=numbers, confirm=True)
    playing.night.refresh_from_db()
    assert playing.night.scoring == "standard"
    assert Hand.objects.get().ns_points == 2


def test_bid_euchre_records_the_bid(night):
    night.rules = PRESETS["bid-euchre"].as_dict()
    night.save()
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=2))
    hand_record(round_=round_, table=1, hand=hand("N", 4, bid=3))  # made: 4 to N-S, 2 to E-W
    hand_record(round_=round_, table=1, hand=hand("E", 4, bid=5))  # set: -6 to E-W, 2 to N-S
    hand_record(round_=round_, table=1, hand=hand("S", 6, alone=True, pepper="little"))  # 12; E-W shut out -6
    result = TableResult.objects.get()
    assert (result.ns_points, result.ew_points) == (4 + 2 + 12, 2 - 6 - 6)
    with pytest.raises(ValidationError, match="Record the bid"):
        hand_record(round_=round_, table=1, hand=hand("N", 4))
