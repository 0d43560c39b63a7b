"""Paper totals: exactly the scores some sequence of legal hands can make are accepted (#16, item 6)."""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    STANDARD,
    ScoringError,
    _reachable,
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
    made = {(0, 0)}
    for _ in range(hands):  # every sequence of `hands` hands, added up one hand at a time
        made = {(ns + add_ns, ew + add_ew) for ns, ew in made for add_ns, add_ew in pairs}
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


@functools.cache
def every_total(name: str, hands: int, exactly: bool) -> tuple[dict[int, int], int]:
    """The check's totals worked out the long way (as the app did before it kept to a window): every running
    total of every game followed, however far it strays, as one bit mask of E–W totals for each N–S total."""
    pairs = sorted(hand_totals(PRESETS[name]))
    shift = -min(0, *(ew for _, ew in pairs)) * hands
    reach, union = {0: 1 << shift}, {}
    for _ in range(hands):
        following: dict[int, int] = {}
        for ns, mask in reach.items():
            for add_ns, add_ew in pairs:
                moved = mask << add_ew if add_ew >= 0 else mask >> -add_ew
                following[ns + add_ns] = following.get(ns + add_ns, 0) | moved
        reach = following
        for ns, mask in reach.items():
            union[ns] = union.get(ns, 0) | mask
    return (reach if exactly else union), shift


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_long_games_are_judged_as_following_every_running_total_would(name):
    """The check follows only games whose running totals stay near the final ones (the Steinitz lemma says that
    loses none): for games long enough to stray past that window, the totals it finds within ±`bound` are
    exactly those that following every game finds, and a total past the window is judged in a wider one."""
    rules = PRESETS[name]
    reach = max(max(abs(ns), abs(ew)) for ns, ew in hand_totals(rules))
    hands = 40 if reach <= 8 else 18  # past the window either way: hands × reach > bound + 4 × reach
    for bound in (64, 128):
        assert hands * reach > bound + 4 * reach
        for exactly in (True, False):
            made, shift = every_total(name, hands, exactly)
            found, found_shift = _reachable(rules, hands, exactly, bound)
            window = (1 << (2 * bound + 1)) - 1  # E–W totals -bound..bound
            wrong = [
                ns
                for ns in range(-bound, bound + 1)
                if (found.get(ns, 0) >> (found_shift - bound)) & window
                != (made.get(ns, 0) >> (shift - bound) if shift >= bound else made.get(ns, 0) << (bound - shift))
                & window
            ]
            assert wrong == [], (hands, exactly, bound, wrong[:5])
    far = hands * reach  # a side's total past both windows: one side took every hand's most
    assert game_total_possible(far, 0, hands, rules) is (any(ew == 0 for ns, ew in hand_totals(rules) if ns == reach))
    assert not game_total_possible(far + 1, 0, hands, rules, exactly=False)
