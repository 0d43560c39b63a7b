"""Midwest Pepper's pass (#19), from the Bid Euchre article's Pepper (Midwest) section (shared/seeds/000):

    "Opponents are allowed to "pass" playing the hand to avoid scoring penalties."
    "Bidder scores 4,5 or 6 points for bids 4 through 6. Small is 7 points, Big is 14 points. Opponents get 1 point
    for each trick taken in bids 4-6. If opponents fail to get a single trick, they lose the same number of points
    as winning bidder gains … Note: if opponents pass and don't play the hand, no points are awarded to them and
    bidder scores."

Read as: the bidders score what their bid scores when made (the bid; Small 7, Big 14), the opponents nothing,
never the penalty for taking no trick; no tricks are played, so no tally extras.
"""

from __future__ import annotations

import pytest

from scoring import rules
from scoring.rules import Hand, ScoringError, score_hand

MIDWEST = rules.PRESETS["midwest-pepper"]

# (bid or pepper) -> (bidders, opponents) when the opponents pass, written out from the text.
PASSED = {4: (4, 0), 5: (5, 0), 6: (6, 0), "little": (7, 0), "big": (14, 0)}


@pytest.mark.parametrize("bid", sorted(PASSED, key=str))
@pytest.mark.parametrize("makers", ["NS", "EW"])
def test_a_passed_hand_scores_the_bid_to_the_bidders_and_nothing_to_the_opponents(bid, makers):
    hand = Hand(
        makers,
        0,
        maker=makers[0],
        passed=True,
        **({"pepper": bid, "alone": True} if isinstance(bid, str) else {"bid": bid}),
    )
    score = score_hand(hand, MIDWEST)
    assert (score.of(makers), score.of(rules.other(makers))) == PASSED[bid]
    assert score.winner == makers and not score.extras


def test_playing_it_out_a_six_bid_shut_out_costs_the_opponents_but_passing_it_does_not():
    played = score_hand(Hand("NS", 6, maker="N", bid=6), MIDWEST)
    assert (played.ns, played.ew) == (6, -6)  # "they lose the same number of points as winning bidder gains"
    passed = score_hand(Hand("NS", 0, maker="N", bid=6, passed=True), MIDWEST)
    assert (passed.ns, passed.ew) == (6, 0)  # "no points are awarded to them and bidder scores"


@pytest.mark.parametrize("preset", [name for name in rules.PRESETS if name != "midwest-pepper"])
def test_no_other_preset_lets_the_opponents_pass(preset):
    ruleset = rules.PRESETS[preset]
    hand = Hand("NS", 0, maker="N", passed=True, bid=ruleset.min_bid if ruleset.bidding else None)
    with pytest.raises(ScoringError, match="may not pass"):
        score_hand(hand, ruleset)


def test_the_passed_hands_are_among_the_legal_hands_so_game_totals_allow_them():
    assert any(hand.passed for hand in rules.legal_hands(MIDWEST))
    assert not any(hand.passed for hand in rules.legal_hands(rules.PRESETS["pfeffer"]))


@pytest.mark.parametrize("reneged", ["NS", "EW"])
def test_a_passed_hand_has_no_renege_whoever_is_said_to_have_reneged(reneged):
    """A passed hand "don't play the hand": nobody can have reneged in it (#35, item 6). The renege was scored first
    and forfeited the hand, so the pass's own check never came."""
    with pytest.raises(ScoringError, match="passed was not played: it has no renege"):
        score_hand(Hand("NS", 0, maker="N", bid=5, passed=True, renege=reneged), MIDWEST)
