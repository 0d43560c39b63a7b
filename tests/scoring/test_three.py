"""Three-handed tables scored as the Euchre article's three-player section says (shared/seeds/001):

    "The calling player will score one point for winning the hand and 2 points for taking all five tricks. The
    calling player can still elect to "go alone" by choosing not to pick up the dummy hand. Taking all five tricks
    here results in four points. Each player keeps their own score."

The euchred caller (the text is silent) is read as the four-handed euchre: 2 to each defender.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import three
from scoring.three import ThreeError, ThreeHand, check_totals, outcome, score_hand

# Every hand the section allows, North calling: (tricks, alone) -> (N, E, S), written out from the text.
TABLE = {
    (0, False): (0, 2, 2),
    (1, False): (0, 2, 2),
    (2, False): (0, 2, 2),
    (3, False): (1, 0, 0),  # "one point for winning the hand"
    (4, False): (1, 0, 0),
    (5, False): (2, 0, 0),  # "2 points for taking all five tricks"
    (0, True): (0, 2, 2),
    (1, True): (0, 2, 2),
    (2, True): (0, 2, 2),
    (3, True): (1, 0, 0),
    (4, True): (1, 0, 0),
    (5, True): (4, 0, 0),  # "Taking all five tricks here results in four points"
}


@pytest.mark.parametrize(("tricks", "alone"), sorted(TABLE))
def test_every_hand_scores_as_the_text_says(tricks, alone):
    score = score_hand(ThreeHand("N", tricks, alone))
    assert (score["N"], score["E"], score["S"]) == TABLE[(tricks, alone)]


@pytest.mark.parametrize("caller", ["E", "S"])
def test_the_caller_scores_alone_whoever_calls(caller):
    assert score_hand(ThreeHand(caller, 5, alone=True))[caller] == 4
    others = [seat for seat in "NES" if seat != caller]
    assert all(score_hand(ThreeHand(caller, 2))[seat] == 2 for seat in others)
    assert score_hand(ThreeHand(caller, 2))[caller] == 0


def test_a_renege_forfeits_the_hand_to_the_other_side():
    # The caller's renege: a euchre, whatever tricks were written down.
    assert score_hand(ThreeHand("N", 5, renege="N")) == {"N": 0, "E": 2, "S": 2}
    # A defender's renege: a march to the caller, 4 alone.
    assert score_hand(ThreeHand("N", 1, renege="E")) == {"N": 2, "E": 0, "S": 0}
    assert score_hand(ThreeHand("N", 1, alone=True, renege="S")) == {"N": 4, "E": 0, "S": 0}


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (ThreeHand("W", 3), "North, East or South"),
        (ThreeHand("N", 6), "0 to 5 tricks"),
        (ThreeHand("N", 3, renege="W"), "reneged"),
    ],
)
def test_impossible_hands_are_refused_with_the_reason(hand, message):
    with pytest.raises(ThreeError, match=message):
        score_hand(hand)


def test_game_totals_are_checked_against_what_the_hands_can_make():
    assert check_totals({"N": 5, "E": 4, "S": 2}, hands=8) == {}
    assert check_totals({"N": 0, "E": 0, "S": 0}, hands=8) == {}
    assert "more than 8 hands" in check_totals({"N": 33, "E": 0, "S": 0}, hands=8)["N"]
    assert "below 0" in check_totals({"N": -1, "E": 0, "S": 0}, hands=8)["N"]
    assert "Enter" in check_totals({"N": 3, "E": 0}, hands=8)["S"]
    # One hand gives the caller 1, 2 or 4, or both others 2: (1, 1, 0) needs two hands.
    assert check_totals({"N": 1, "E": 1, "S": 0}, hands=1)
    assert check_totals({"N": 1, "E": 1, "S": 0}, hands=2) == {}
    # Two defenders' euchre points come in twos together: (0, 2, 0) takes an E-only score of 2 (a march by E).
    assert check_totals({"N": 0, "E": 3, "S": 0}, hands=1)


@given(st.lists(st.tuples(st.sampled_from("NES"), st.integers(0, 5), st.booleans()), max_size=8))
def test_the_totals_of_any_hands_pass_the_check(hands):
    totals = {"N": 0, "E": 0, "S": 0}
    for caller, tricks, alone in hands:
        for seat, points in score_hand(ThreeHand(caller, tricks, alone)).items():
            totals[seat] += points
    assert check_totals(totals, hands=8) == {}
    assert check_totals(totals, hands=max(len(hands), 1)) == {}


def _every_total(hands):
    """Every (N, E, S) total of up to `hands` hands, by playing them all out (the oracle for the quick check)."""
    shapes = {
        tuple(score_hand(ThreeHand(caller, tricks, alone)).values())
        for caller in "NES"
        for tricks in range(6)
        for alone in (False, True)
    }
    totals = {(0, 0, 0)}
    for _ in range(hands):
        totals |= {tuple(a + b for a, b in zip(total, shape, strict=True)) for total in totals for shape in shapes}
    return totals


@pytest.mark.parametrize("hands", [1, 2, 3, 4])
def test_the_quick_check_agrees_with_playing_every_hand_out(hands):
    reachable = _every_total(hands)
    for n in range(4 * hands + 1):
        for e in range(4 * hands + 1):
            for s in range(4 * hands + 1):
                ok = check_totals({"N": n, "E": e, "S": s}, hands=hands) == {}
                assert ok == ((n, e, s) in reachable), (n, e, s)


def test_the_winner_has_the_most_points_and_a_tie_is_settled_by_the_night_s_rule():
    assert outcome({"N": 3, "E": 7, "S": 5}, tie_rule="draw").order == ("E", "S", "N")
    tied = {"N": 6, "E": 6, "S": 2}
    by_last = outcome(tied, tie_rule="last_hand", last_hand_winners=("E", "S"))
    assert by_last.order == ("E", "N", "S") and by_last.tie_break == "last_hand"
    # The last hand went to both tied players' side... or to neither: the app's draw, the same for the same seed.
    drawn = outcome(tied, tie_rule="last_hand", last_hand_winners=("N", "E"), draw_seed=4)
    assert drawn.tie_break == "draw" and drawn.winner in ("N", "E")
    assert outcome(tied, tie_rule="draw", draw_seed=4) == outcome(tied, tie_rule="draw", draw_seed=4)
    assert three.best_other({"N": 3, "E": 7, "S": 5}, "E") == 5


def test_a_table_of_three_is_told_by_its_empty_west_seat_wherever_the_seats_come_from():
    from scoring.seats import is_three

    assert is_three({"N": 1, "E": 2, "S": 3}) and is_three(("N", "E", "S")) and is_three("NES")
    assert not is_three({"N": 1, "E": 2, "S": 3, "W": 4}) and not is_three(["N", "E", "S", "W"])
