"""Pfeffer's Hickeys (#19), from the Bid Euchre article's Pfeffer section (shared/seeds/000):

    "For Non Pfeffer Bids, the team that declared trump scores one point for each trick taken if they took at least
    as many tricks as were bid. If the declaring team takes all 6 tricks, they get 6 points and the opposing are
    "set", lose 5 points and receive a Hickey. If the declaring team takes less than the number of tricks bid, they
    are "set", lose 5 points and receive a Hickey.
    For Pfeffer Bids, if the declaring team takes all 6 tricks, they get 12 points and the opposing team are "set",
    lose 5 points and receive a Hickey. If the declaring team fails to take all 6 tricks, they are set, lose 10
    points and receive 2 Hickeys."

The Hickeys are a count beside the score (the text uses sets for wagers), kept on Pfeffer nights only.
"""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.rules import Hand, hickeys, score_hand

PFEFFER = rules.PRESETS["pfeffer"]


def _expected(bid, pepper, tricks):
    """The text, case by case: (the bidders' Hickeys, the opponents')."""
    if tricks == 6:
        return (0, 1)  # "takes all 6 tricks … the opposing are "set" … receive a Hickey" (a Pfeffer too)
    if pepper:
        return (2, 0)  # "fails to take all 6 tricks, they are set … receive 2 Hickeys"
    if tricks < bid:
        return (1, 0)  # "takes less than the number of tricks bid, they are "set" … receive a Hickey"
    return (0, 0)


@pytest.mark.parametrize("tricks", range(7))
@pytest.mark.parametrize(("bid", "pepper"), [(4, None), (5, None), (6, None), (None, "big")])
def test_every_pfeffer_hand_gives_the_hickeys_the_text_says(bid, pepper, tricks):
    hand = Hand("EW", tricks, alone=bool(pepper), maker="E", bid=bid, pepper=pepper)
    got = hickeys(hand, PFEFFER)
    assert (got.get("EW", 0), got.get("NS", 0)) == _expected(bid, pepper, tricks)
    # The points beside them, as the same sentences say: a set loses 5 (a Pfeffer 10); all six, the opposing lose 5.
    score = score_hand(hand, PFEFFER)
    if tricks == 6:
        assert score.ns == -5
    elif pepper or tricks < bid:
        assert score.ew == (-10 if pepper else -5)


def test_a_renege_gives_the_hickeys_of_the_hand_it_forfeits():
    assert hickeys(Hand("NS", 2, maker="N", bid=4, renege="EW"), PFEFFER) == {"EW": 1}  # N–S take all six
    assert hickeys(Hand("NS", 6, maker="N", bid=4, renege="NS"), PFEFFER) == {"NS": 1}  # N–S set


@pytest.mark.parametrize("preset", [name for name in rules.PRESETS if name != "pfeffer"])
def test_no_other_preset_keeps_hickeys(preset):
    ruleset = rules.PRESETS[preset]
    hand = Hand("NS", 0, maker="N", bid=ruleset.min_bid if ruleset.bidding else None)
    assert hickeys(hand, ruleset) == {}
