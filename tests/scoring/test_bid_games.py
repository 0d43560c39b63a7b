"""The Bid Euchre article's other bid games as presets (#19, item 4): Indiana Double Deck, the double deck to 36,
Pepper (Midwest), Pfeffer and Buck. Each is checked twice against its section of the article (000), quoted below: a few
hands worked out by hand, then every hand the preset allows against a table written out from the text alone.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand as StoredHand
from scoring.rules import PRESETS, Hand, ScoringError, legal_hands, score_hand
from tests.conftest import register
from tests.scoring.test_rules import TABLE_ARGS, assert_scores, case

# --- Indiana Double Deck ---------------------------------------------------------------------------------------------

INDIANA_MADE = (
    "If the team that won the bid got the number of tricks they bid, or more, they get points equal to their bid. "
    "For example, if the winning bid is 8 Hearts but the team actually takes 10 tricks, they only get 8 points."
)
INDIANA_SET = (
    "If the team that wins the bid takes less tricks than the number they bid, they are “set” or “euchred” and their "
    "score is reduced by the number they bid. For example, if after taking an 8 Hearts bid the team only gets 7 "
    "tricks, they would lose 8 points from their score."
)
INDIANA_DEFENDERS = "The team that does not take the bid gets 1 point for every trick taken"

INDIANA_CASES = [
    case("NS", 10, bid=8, to=(8, 2), says=f"{INDIANA_MADE}; {INDIANA_DEFENDERS}"),
    case("EW", 7, bid=8, to=(-8, 5), says=f"{INDIANA_SET}; {INDIANA_DEFENDERS}"),
    case("NS", 3, bid=3, to=(3, 9), made=True, says=f"{INDIANA_MADE}; {INDIANA_DEFENDERS}"),
    case("EW", 12, bid=12, to=(12, 0), says=INDIANA_MADE),
    case("NS", 0, bid=3, to=(-3, 12), says=f"{INDIANA_SET}; {INDIANA_DEFENDERS}"),
]


@pytest.mark.parametrize(TABLE_ARGS, INDIANA_CASES)
def test_indiana_double_deck(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["double-deck"], hand, to_makers, to_defenders, made)


def indiana(bid, pepper, tricks):
    """Written from the text: the bid made or lost, a point a trick to the other team; no pepper is played."""
    assert pepper is None
    return (bid if tricks >= bid else -bid), 12 - tricks


# --- the double deck to 36 ------------------------------------------------------------------------------------------

DECK_36 = (
    "Another variation of double deck euchre is a 48 card deck, 12 to each player … Minimum bid is 3 … If you make "
    "your bid, you get one point for each trick your team takes. If the team with highest bid fails to make their "
    "bid, they lose a points equal to their bid. Their opponents get one point for each trick they take."
)

DECK_36_CASES = [
    case("NS", 10, bid=8, to=(10, 2), says=DECK_36),
    case("EW", 7, bid=8, to=(-8, 5), says=DECK_36),
    case("NS", 12, bid=3, to=(12, 0), says=DECK_36),
]


@pytest.mark.parametrize(TABLE_ARGS, DECK_36_CASES)
def test_double_deck_to_36(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["double-deck-36"], hand, to_makers, to_defenders, made)


def deck_36(bid, pepper, tricks):
    assert pepper is None
    return (tricks if tricks >= bid else -bid), 12 - tricks


# --- Pepper, Midwest ------------------------------------------------------------------------------------------------

MIDWEST_BID = "Bidder scores 4,5 or 6 points for bids 4 through 6."
MIDWEST_PEPPERS = "Small is 7 points, Big is 14 points."
MIDWEST_DEFENDERS = "Opponents get 1 point for each trick taken in bids 4-6."
MIDWEST_SHUTOUT = (
    "If opponents fail to get a single trick, they lose the same number of points as winning bidder gains. For "
    "example, opponents failing to take a trick in a 6 bid, bidder gets 6 points and opponent loses 6 points."
)
MIDWEST_PEPPER_SET = (
    "In Small or Big, when bidder is set opponents gain 7 or 14 points and bidder loses 7 or 14 points."
)
MIDWEST_SET = "(not in the text: a bid of 4–6 that is set loses the bid, as Small and Big do; README)"

MIDWEST_CASES = [
    case("NS", 5, bid=4, to=(4, 1), says=f"{MIDWEST_BID} {MIDWEST_DEFENDERS}"),
    case("EW", 6, bid=6, to=(6, -6), says=MIDWEST_SHUTOUT),
    case("NS", 6, bid=4, to=(4, -4), says=MIDWEST_SHUTOUT),
    case("NS", 3, bid=5, to=(-5, 3), says=f"{MIDWEST_SET} {MIDWEST_DEFENDERS}"),
    case("EW", 6, alone=True, maker="E", pepper="little", to=(7, 0), says=MIDWEST_PEPPERS),
    case("NS", 6, alone=True, maker="S", pepper="big", to=(14, 0), says=MIDWEST_PEPPERS),
    case("NS", 5, alone=True, maker="N", pepper="little", to=(-7, 7), says=MIDWEST_PEPPER_SET),
    case("EW", 2, alone=True, maker="W", pepper="big", to=(-14, 14), says=MIDWEST_PEPPER_SET),
]


@pytest.mark.parametrize(TABLE_ARGS, MIDWEST_CASES)
def test_midwest_pepper(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["midwest-pepper"], hand, to_makers, to_defenders, made)


def midwest(bid, pepper, tricks):
    if pepper is not None:
        value = {"little": 7, "big": 14}[pepper]
        return (value, 0) if tricks == 6 else (-value, value)
    bidders = bid if tricks >= bid else -bid
    return bidders, (6 - tricks if tricks < 6 else -bidders)


# --- Pfeffer --------------------------------------------------------------------------------------------------------

PFEFFER_BID = (
    "For Non Pfeffer Bids, the team that declared trump scores one point for each trick taken if they took at least "
    "as many tricks as were bid."
)
PFEFFER_ALL = "If the declaring team takes all 6 tricks, they get 6 points and the opposing are “set”, lose 5 points"
PFEFFER_SET = "If the declaring team takes less than the number of tricks bid, they are “set”, lose 5 points"
PFEFFER_MADE = (
    "For Pfeffer Bids, if the declaring team takes all 6 tricks, they get 12 points and the opposing team are “set”, "
    "lose 5 points"
)
PFEFFER_LOST = "If the declaring team fails to take all 6 tricks, they are set, lose 10 points"
PFEFFER_DEFENDERS = "In all cases, the opposing team simply scores one point for every trick they take."

PFEFFER_CASES = [
    case("NS", 4, bid=4, to=(4, 2), says=f"{PFEFFER_BID} {PFEFFER_DEFENDERS}"),
    case("EW", 6, bid=5, to=(6, -5), says=PFEFFER_ALL),
    case("NS", 3, bid=4, to=(-5, 3), says=f"{PFEFFER_SET} {PFEFFER_DEFENDERS}"),
    case("NS", 6, alone=True, maker="N", pepper="big", to=(12, -5), says=PFEFFER_MADE),
    case("EW", 4, alone=True, maker="E", pepper="big", to=(-10, 2), says=f"{PFEFFER_LOST} {PFEFFER_DEFENDERS}"),
]


@pytest.mark.parametrize(TABLE_ARGS, PFEFFER_CASES)
def test_pfeffer(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["pfeffer"], hand, to_makers, to_defenders, made)


def pfeffer(bid, pepper, tricks):
    if pepper is not None:
        assert pepper == "big"  # the one Pfeffer bid
        bidders = 12 if tricks == 6 else -10
    else:
        bidders = tricks if tricks >= bid else -5
    return bidders, (6 - tricks if tricks < 6 else -5)


# --- Buck ----------------------------------------------------------------------------------------------------------

BUCK_BID = "The minimum bid is three."
BUCK_TRICKS = "Points awarded are number of tricks taken"
BUCK_SKUNK = (
    "if a team takes all six tricks after calling trump, or skunking the other team, they score six plus the number "
    "of the tricks they bid. The skunked team has the number of the winning trump bid subtracted from their score."
)
BUCK_SET = "(not in the text: bidders who miss their bid lose the bid, as in the other bid games; README)"

BUCK_CASES = [
    case("NS", 4, bid=3, to=(4, 2), says=BUCK_TRICKS),
    case("EW", 5, bid=5, to=(5, 1), says=BUCK_TRICKS),
    case("NS", 6, bid=4, to=(10, -4), says=BUCK_SKUNK),
    case("EW", 6, bid=3, to=(9, -3), says=BUCK_SKUNK),
    case("NS", 2, bid=4, to=(-4, 4), says=f"{BUCK_SET} {BUCK_TRICKS}"),
    case("NS", 0, bid=3, to=(-3, 6), says=f"{BUCK_SET} {BUCK_TRICKS}"),
]


@pytest.mark.parametrize(TABLE_ARGS, BUCK_CASES)
def test_buck(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["buck"], hand, to_makers, to_defenders, made)


def buck(bid, pepper, tricks):
    assert pepper is None  # no pepper bid in the text
    if tricks == 6:
        return 6 + bid, -bid
    return (tricks if tricks >= bid else -bid), 6 - tricks


# --- every hand each preset allows, against the table written from its text ----------------------------------------

ORACLES = {
    "double-deck": indiana,
    "double-deck-36": deck_36,
    "midwest-pepper": midwest,
    "pfeffer": pfeffer,
    "buck": buck,
}
BIDS = {
    "double-deck": (list(range(3, 13)), []),  # "a minimum of 3"; no pepper bid in the text
    "double-deck-36": (list(range(3, 13)), []),  # "Minimum bid is 3"
    "midwest-pepper": ([4, 5, 6], ["little", "big"]),  # "minimum bid is 4 … Small and Big bids"
    "pfeffer": ([4, 5, 6], ["big"]),  # "Trump Bids are the numbers Four through Six, and Pfeffer"
    "buck": ([3, 4, 5, 6], []),  # "The minimum bid is three"
}


@pytest.mark.parametrize("name", ORACLES)
def test_every_hand_the_preset_allows_scores_as_its_text_says(name):
    rules = PRESETS[name]
    hands = list(legal_hands(rules))
    bids, peppers = BIDS[name]
    assert {hand.bid for hand in hands if hand.bid} == set(bids)
    assert {hand.pepper for hand in hands if hand.pepper} == set(peppers)
    assert {hand.tricks for hand in hands} == set(range(rules.tricks_per_hand + 1))
    for hand in hands:
        score = score_hand(hand, rules)
        if hand.passed:  # Midwest Pepper's pass: "no points are awarded to them and bidder scores" (test_pass.py)
            made = ORACLES[name](hand.bid, hand.pepper, rules.tricks_per_hand if hand.pepper else hand.bid)[0]
            assert (score.ns, score.ew) == (made, 0), hand
            continue
        assert (score.ns, score.ew) == ORACLES[name](hand.bid, hand.pepper, hand.tricks), hand


@pytest.mark.parametrize(
    ("name", "hand", "match"),
    [
        ("double-deck", Hand("NS", 8, bid=2), r"Record the bid: 3 to 12 tricks\.$"),
        (
            "double-deck",
            Hand("NS", 12, alone=True, pepper="big"),
            r"not played under these rules \(its pepper bids: none\)",
        ),
        ("double-deck", Hand("NS", 13, bid=3), "between 0 and 12"),
        ("midwest-pepper", Hand("NS", 6, bid=3), "Record the bid: 4 to 6 tricks, or a pepper"),
        (
            "pfeffer",
            Hand("NS", 6, alone=True, pepper="little"),
            r"not played under these rules \(its pepper bids: Pfeffer\)",
        ),
    ],
)
def test_bids_a_preset_does_not_play_are_refused_with_the_reason(name, hand, match):
    with pytest.raises(ScoringError, match=match):
        score_hand(hand, PRESETS[name])


@pytest.mark.django_db
def test_a_double_deck_hand_of_12_tricks_is_entered_in_three_taps(organizer_client, night):
    """The caller, the bid, the tricks: the hand page asks for what the preset needs and nothing else."""
    from tournament import game, services

    night.rules = PRESETS["double-deck"].as_dict()
    night.save()
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    page = reverse("scoring:table_hands", args=[night.pk, 1, 1])
    htmx = {"HTTP_HX_REQUEST": "true"}
    first = organizer_client.get(page).content.decode()
    caller = re.search(r'hx-get="([^"]*maker=E[^"]*)"', first).group(1).replace("&amp;", "&")
    second = organizer_client.get(caller, **htmx).content.decode()  # tap 1: who called
    assert "pepper" not in second.lower() and ">2<" not in second  # bids 3 to 12, no pepper
    bid = re.search(r'hx-get="([^"]*bid=8[^"]*)"', second).group(1).replace("&amp;", "&")
    third = organizer_client.get(bid, **htmx).content.decode()  # tap 2: the bid
    assert "E–W +8, N–S +2" in third or "N–S +2, E–W +8" in third  # ten tricks on a bid of 8 (shown before saving)
    assert len(re.findall(r'name="tricks" value="(\d+)"', third)) == 13  # 0 to 12
    organizer_client.post(  # tap 3: the tricks, which saves the hand
        reverse("scoring:hand_add", args=[night.pk, 1, 1]), {"maker": "E", "bid": "8", "tricks": "10"}, **htmx
    )
    stored = StoredHand.objects.get(result__round=round_)
    assert (stored.bid, stored.tricks, stored.ew_points, stored.ns_points) == (8, 10, 8, 2)
