"""How a night's games end (`scoring.ending`), without a database: the words, the target, and the scores at which
a game to a target can stop, checked against every sequence of hands played out by brute force (#19, item 1).

The Euchre article, Tournaments: "Winners of each game (typically to 10 points) stay at their table"; a hand gives
the makers 1 point for three or four tricks, 2 for all five (a march), 4 for a loner's march, and the defenders 2
when the makers are euchred.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.ending import GameEnd, ordinal, target_ends
from scoring.rules import PRESETS, STANDARD, hand_totals


@pytest.mark.parametrize(
    ("end", "words"),
    [
        (GameEnd(), "Each game ends at the head table's 8th hand"),
        (GameEnd(hands=12), "Each game ends at the head table's 12th hand"),
        (GameEnd(head_table=False, target=10), "Each game ends at 10 points at a table"),
        (GameEnd(target=11), "Each game ends at the head table's 8th hand or at 11 points at a table"),
        (
            GameEnd(hands=6, target=15, minutes=20),
            "Each game ends at the head table's 6th hand, at 15 points at a table or at the 20-minute bell",
        ),
        (GameEnd(head_table=False, minutes=25), "Each game ends at the 25-minute bell"),
        (GameEnd(head_table=False), "Each game ends at the organizer's bell"),
    ],
)
def test_the_rule_in_words(end, words):
    assert end.words() == words


@pytest.mark.parametrize(
    ("number", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (21, "21st")]
)
def test_ordinals(number, text):
    assert ordinal(number) == text


def test_a_side_reaches_the_target_at_it_or_past_it():
    end = GameEnd(head_table=False, target=10)
    assert end.reached(9, 9) is None
    assert end.reached(10, 4) == "NS"
    assert end.reached(7, 13) == "EW"  # a loner's march from 9
    assert GameEnd().reached(40, 0) is None  # no target


def test_the_cap_on_hands_covers_a_long_game_to_the_target():
    assert GameEnd(hands=8).cap == 16
    assert GameEnd(hands=8, target=10).cap == 20  # to 10, one point a hand: 19 hands at the most
    assert GameEnd(hands=8, target=15).cap == 30


def played_out(steps, target: int, hands: int) -> set[tuple[int, int]]:
    """By brute force: every score at which some sequence of at most `hands` hands first takes a side to `target`."""
    ends = set()
    for length in range(1, hands + 1):
        for sequence in itertools.product(steps, repeat=length):
            ns = ew = 0
            for number, (add_ns, add_ew) in enumerate(sequence, start=1):
                ns, ew = ns + add_ns, ew + add_ew
                if max(ns, ew) >= target:
                    if number == length:
                        ends.add((ns, ew))
                    break
    return ends


@pytest.mark.parametrize(("target", "hands"), [(3, 5), (4, 6), (5, 7)])
def test_the_scores_a_game_to_a_target_can_stop_at_match_every_game_played_out(target, hands):
    assert target_ends(STANDARD, target, hands) == played_out(sorted(hand_totals(STANDARD)), target, hands)


def test_a_standard_game_to_10_stops_between_10_and_13_with_the_other_side_below_10():
    ends = target_ends(STANDARD, 10, 20)
    assert (10, 9) in ends and (13, 9) in ends and (9, 10) in ends  # 9 and a loner's march of 4: 13
    assert (10, 0) in ends  # ten single points, or five marches
    assert (14, 0) not in ends  # the most from 9 is a loner's 4
    assert (10, 10) not in ends  # one hand scores for one side only
    assert all(min(score) < 10 <= max(score) <= 13 for score in ends)


def test_totals_at_the_target_are_checked_and_below_it_left_to_the_other_checks():
    end = GameEnd(head_table=False, target=10)
    assert end.totals_fault(11, 6, STANDARD) == ""
    assert end.totals_fault(9, 6, STANDARD) == ""  # the bell came first
    assert end.totals_fault(14, 3, STANDARD) == (
        "No game to 10 ends at N–S 14, E–W 3 under these rules: the game stops at the hand that takes one side to 10."
    )
    assert "No game to 10" in end.totals_fault(10, 12, STANDARD)
    assert GameEnd().totals_fault(30, 2, STANDARD) == ""  # no target: the totals' own checks apply


def test_a_bid_game_to_its_target_stops_only_where_some_game_does():
    """Double deck to 50 (Indiana): before its last hand both sides were below 50 (#35, item 2)."""
    end = GameEnd(head_table=False, target=50)
    rules = PRESETS["double-deck"]
    assert end.totals_fault(55, 52, rules) == ""  # both past it on one hand: 49–46, then a bid of 6 made with 6 tricks
    assert end.totals_fault(62, 3, rules) == (
        "No game to 50 ends at N–S 62, E–W 3 under these rules: the game stops at the hand that takes one side to 50."
    )
    assert end.totals_fault(40, -151, rules).startswith("A game to 50 stays between -150 and 61 points")


@given(
    st.sampled_from(sorted(PRESETS)),
    st.integers(min_value=1, max_value=15),
    st.lists(st.integers(min_value=0, max_value=200), min_size=1, max_size=30),
)
def test_every_game_played_to_its_target_stops_at_a_score_the_check_accepts(preset, target, picks):
    """Play hands (chosen by `picks` from what one hand can score) until a side reaches the target: that score is
    one at which the game can stop, and the totals check accepts it."""
    rules = PRESETS[preset]
    steps = sorted(hand_totals(rules))
    end = GameEnd(head_table=False, target=target)
    ns = ew = 0
    for pick in picks[: end.cap]:
        add_ns, add_ew = steps[pick % len(steps)]
        ns, ew = ns + add_ns, ew + add_ew
        if end.reached(ns, ew):
            if all(min(step) == 0 for step in steps):  # one side scores a hand: every ending is walked
                assert (ns, ew) in target_ends(rules, target, end.cap)
            assert end.totals_fault(ns, ew, rules) == ""
            return
