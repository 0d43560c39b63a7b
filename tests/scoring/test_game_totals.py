"""Paper totals: exactly the scores some sequence of legal hands can make are accepted (#16, item 6)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    STANDARD,
    ScoringError,
    check_game_totals,
    game_total_possible,
    hand_totals,
    legal_hands,
    score_hand,
    unusual_game_totals,
)


def test_one_hand_under_the_standard_rules_gives_one_side_1_2_or_4():
    assert hand_totals(STANDARD) == {(1, 0), (2, 0), (4, 0), (0, 1), (0, 2), (0, 4)}


@pytest.mark.parametrize(
    ("ns", "ew", "possible"),
    [
        (0, 0, False),  # every hand scores for someone
        (32, 32, False),  # no hand scores for both sides
        (32, 0, True),  # eight loners that take every trick
        (30, 2, False),  # 28 from seven hands at most, and the eighth is the other side's
        (5, 3, True),
        (9, 3, True),  # 4 + 2 + 1 + 1 + 1, and three single points
        (4, 3, False),  # seven points from eight hands, each worth at least one
        (16, 16, True),  # four hands of 4 each way
    ],
)
def test_the_head_tables_eight_hands_under_the_standard_rules(ns, ew, possible):
    assert game_total_possible(ns, ew, 8, STANDARD) is possible


def test_another_table_may_play_on_until_the_bell():
    assert not game_total_possible(30, 2, 8, STANDARD)
    assert game_total_possible(30, 2, 16, STANDARD, exactly=False)  # ten hands: seven loners, a march, two points
    assert game_total_possible(1, 0, 16, STANDARD, exactly=False)  # the bell after a single hand
    assert not game_total_possible(0, 0, 16, STANDARD, exactly=False)


def test_a_total_more_than_a_games_hands_make_is_unusual_not_impossible():
    assert unusual_game_totals(30, 2, 8, STANDARD) == "N–S 30, E–W 2 is more than 8 hands make"
    assert unusual_game_totals(25, 8, 8, STANDARD) == "N–S 25, E–W 8 is more than 8 hands make"  # nine hands at least
    for ns, ew in [(5, 3), (10, 6), (3, 2), (1, 0), (16, 8)]:  # games of eight hands or fewer
        assert unusual_game_totals(ns, ew, 8, STANDARD) == ""


def test_a_refusal_says_why():
    with pytest.raises(ScoringError, match=r"^No 8 hands make N–S 0, E–W 0 under these rules \(every hand scores"):
        check_game_totals(0, 0, 8, STANDARD)
    with pytest.raises(ScoringError, match=r"^No up to 16 hands make N–S 70, E–W 0"):
        check_game_totals(70, 0, 16, STANDARD, exactly=False)
    check_game_totals(5, 3, 8, STANDARD)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("hands", [1, 2, 3])
def test_the_totals_are_exactly_those_of_every_sequence_of_hands(name, hands):
    rules = PRESETS[name]
    pairs = hand_totals(rules)
    made = {tuple(map(sum, zip(*sequence, strict=True))) for sequence in itertools.product(pairs, repeat=hands)}
    lows = [ew for _, ew in pairs] + [ns for ns, _ in pairs]
    span = range(min(lows) * hands - 2, max(lows) * hands + 3)
    for ns, ew in itertools.product(span, span):
        assert game_total_possible(ns, ew, hands, rules) is ((ns, ew) in made), (ns, ew)


@given(st.sampled_from(sorted(PRESETS)), st.integers(1, 16), st.randoms(use_true_random=False))
def test_any_game_really_played_is_accepted(name, hands, rng: random.Random):
    rules = PRESETS[name]
    played = [rng.choice(list(legal_hands(rules))) for _ in range(hands)]
    scores = [score_hand(hand, rules) for hand in played]
    flips = [rng.random() < 0.5 for _ in played]  # E–W made some of them: the mirror image
    ns = sum(score.ew if flip else score.ns for score, flip in zip(scores, flips, strict=True))
    ew = sum(score.ns if flip else score.ew for score, flip in zip(scores, flips, strict=True))
    assert game_total_possible(ns, ew, hands, rules)
    assert game_total_possible(ns, ew, 16, rules, exactly=False)
