"""Hand scoring and game winners, checked against the Euchre rules text's scoring table (shared/seeds/001).

| Bidding partnership (makers) wins 3 or 4 tricks | 1 point |
| Bidding partnership (makers) wins 5 tricks | 2 points |
| Bidder goes alone and wins 5 tricks | 4 points |
| Bidder goes alone and wins 3 or 4 tricks | 1 point |
| Defenders win 3 or more tricks (known as a euchre, or setting the bidder) | 2 points |
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    SIDES,
    STANDARD,
    GameOutcome,
    Hand,
    HandScore,
    Ruleset,
    ScoringError,
    game_winner,
    score_hand,
)

MAKERS_3_4 = "makers wins 3 or 4 tricks | 1 point"
MAKERS_5 = "makers wins 5 tricks | 2 points"
ALONE_5 = "goes alone and wins 5 tricks | 4 points"
ALONE_3_4 = "goes alone and wins 3 or 4 tricks | 1 point"
EUCHRE = "Defenders win 3 or more tricks (euchre) | 2 points"
EUCHRE_ALONE = "euchred loner: Defenders win 3 or more tricks | 2 points"

# (makers' tricks, alone, points to makers, points to defenders, rules-text row)
TABLE = [
    (3, False, 1, 0, MAKERS_3_4),
    (4, False, 1, 0, MAKERS_3_4),
    (5, False, 2, 0, MAKERS_5),
    (5, True, 4, 0, ALONE_5),
    (3, True, 1, 0, ALONE_3_4),
    (4, True, 1, 0, ALONE_3_4),
    (2, False, 0, 2, EUCHRE),
    (1, False, 0, 2, EUCHRE),
    (0, False, 0, 2, EUCHRE),
    (2, True, 0, 2, EUCHRE_ALONE),
    (1, True, 0, 2, EUCHRE_ALONE),
    (0, True, 0, 2, EUCHRE_ALONE),
]


@pytest.mark.parametrize(
    ("makers", "tricks", "alone", "to_makers", "to_defenders"),
    [
        pytest.param(makers, tricks, alone, to_makers, to_defenders, id=f"{makers} {tricks} tricks: {row}")
        for makers in SIDES
        for tricks, alone, to_makers, to_defenders, row in TABLE
    ],
)
def test_standard_scoring_table(makers, tricks, alone, to_makers, to_defenders):
    score = score_hand(Hand(makers=makers, tricks=tricks, alone=alone))
    defenders = "EW" if makers == "NS" else "NS"
    assert score.of(makers) == to_makers
    assert score.of(defenders) == to_defenders
    assert score.winner == (makers if to_makers else defenders)


def test_standard_is_the_default_and_a_preset():
    assert PRESETS["standard"] is STANDARD
    assert STANDARD.needed == 3
    assert score_hand(Hand("NS", 5, alone=True)) == score_hand(Hand("NS", 5, alone=True), STANDARD)


def test_ns_and_ew_results_are_mirror_images():
    for tricks in range(6):
        for alone in (False, True):
            ns = score_hand(Hand("NS", tricks, alone))
            ew = score_hand(Hand("EW", tricks, alone))
            assert (ns.ns, ns.ew) == (ew.ew, ew.ns)


def test_a_custom_ruleset_uses_its_own_numbers():
    rules = Ruleset(
        name="house", makers_point=3, makers_march=5, alone_point=6, alone_march=7, euchre=8, euchre_alone=9
    )
    assert score_hand(Hand("NS", 3), rules) == HandScore(ns=3, ew=0)
    assert score_hand(Hand("NS", 5), rules) == HandScore(ns=5, ew=0)
    assert score_hand(Hand("EW", 4, alone=True), rules) == HandScore(ns=0, ew=6)
    assert score_hand(Hand("EW", 5, alone=True), rules) == HandScore(ns=0, ew=7)
    assert score_hand(Hand("NS", 2), rules) == HandScore(ns=0, ew=8)
    assert score_hand(Hand("EW", 0, alone=True), rules) == HandScore(ns=9, ew=0)


@pytest.mark.parametrize("tricks", [-1, 6, 7, 100, -5])
def test_impossible_trick_counts_are_refused(tricks):
    with pytest.raises(ScoringError, match="between 0 and 5"):
        score_hand(Hand("NS", tricks))


@pytest.mark.parametrize("makers", ["N", "ns", "", None, "NE", "SN"])
def test_makers_must_be_a_side(makers):
    with pytest.raises(ScoringError, match="Makers must be NS or EW"):
        score_hand(Hand(makers, 3))


def test_scoring_error_is_a_value_error():
    assert issubclass(ScoringError, ValueError)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SIDES),
    st.integers(min_value=0, max_value=5),
    st.booleans(),
    st.one_of(
        st.just(STANDARD),
        st.builds(
            Ruleset,
            name=st.just("random"),
            makers_point=st.integers(1, 10),
            makers_march=st.integers(1, 10),
            alone_point=st.integers(1, 10),
            alone_march=st.integers(1, 10),
            euchre=st.integers(1, 10),
            euchre_alone=st.integers(1, 10),
        ),
    ),
)
def test_every_hand_gives_points_to_exactly_one_side(makers, tricks, alone, rules):
    score = score_hand(Hand(makers, tricks, alone), rules)
    assert (score.ns > 0) != (score.ew > 0)
    assert min(score.ns, score.ew) == 0
    assert score.of(score.winner) > 0
    # the makers score exactly when they take a majority of the tricks
    assert (score.winner == makers) == (tricks >= 3)


# --- game winner ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tie_rule", ["last_hand", "draw"])
@pytest.mark.parametrize(("ns", "ew", "winner"), [(10, 7, "NS"), (3, 10, "EW"), (1, 0, "NS"), (0, 12, "EW")])
def test_plain_win(ns, ew, winner, tie_rule):
    assert game_winner(ns, ew, tie_rule=tie_rule) == GameOutcome(winner=winner, tie_break=None)


@pytest.mark.parametrize("side", SIDES)
def test_tie_decided_by_last_hand(side):
    assert game_winner(8, 8, tie_rule="last_hand", last_hand_winner=side) == GameOutcome(side, "last_hand")


@pytest.mark.parametrize("last", [None, "N", ""])
def test_tie_without_last_hand_winner_is_refused(last):
    with pytest.raises(ScoringError, match=r"^The game is tied: say which team won the last hand\.$"):
        game_winner(6, 6, tie_rule="last_hand", last_hand_winner=last)


def test_last_hand_winner_is_ignored_when_scores_differ():
    assert game_winner(9, 4, tie_rule="last_hand", last_hand_winner="EW").winner == "NS"


def test_draw_tie_break_is_reproducible_and_marked():
    for seed in range(30):
        first = game_winner(5, 5, tie_rule="draw", draw_seed=seed)
        assert first.tie_break == "draw"
        assert first.winner in SIDES
        assert game_winner(5, 5, tie_rule="draw", draw_seed=seed) == first
        # the score of the tie does not change the draw for a given seed
        assert game_winner(0, 0, tie_rule="draw", draw_seed=seed) == first


def test_draw_tie_break_can_go_either_way():
    winners = {game_winner(4, 4, tie_rule="draw", draw_seed=seed).winner for seed in range(50)}
    assert winners == set(SIDES)


def test_draw_tie_break_needs_a_seed():
    with pytest.raises(ScoringError, match="needs a seed"):
        game_winner(4, 4, tie_rule="draw")


def test_unknown_tie_rule_is_refused():
    with pytest.raises(ScoringError, match="Unknown tie rule"):
        game_winner(4, 4, tie_rule="coin")


@pytest.mark.parametrize(("ns", "ew"), [(-1, 3), (3, -1), (-2, -2), (-1, 0)])
@pytest.mark.parametrize("tie_rule", ["last_hand", "draw"])
def test_negative_scores_are_refused(ns, ew, tie_rule):
    with pytest.raises(ScoringError, match="cannot be negative"):
        game_winner(ns, ew, tie_rule=tie_rule, last_hand_winner="NS", draw_seed=1)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100), st.integers(0, 100), st.sampled_from(SIDES), st.integers())
def test_game_winner_properties(ns, ew, last, seed):
    by_last = game_winner(ns, ew, tie_rule="last_hand", last_hand_winner=last)
    by_draw = game_winner(ns, ew, tie_rule="draw", draw_seed=seed)
    if ns == ew:
        assert by_last == GameOutcome(last, "last_hand")
        assert by_draw.tie_break == "draw"
        assert by_draw == game_winner(ns, ew, tie_rule="draw", draw_seed=seed)
    else:
        expected = GameOutcome("NS" if ns > ew else "EW", None)
        assert by_last == by_draw == expected
