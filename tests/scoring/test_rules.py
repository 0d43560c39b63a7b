"""Hand scoring, rulesets and game winners, checked against the rules texts in shared/seeds/.

The standard preset is the Euchre article's scoring table (001):

| Bidding partnership (makers) wins 3 or 4 tricks | 1 point |
| Bidding partnership (makers) wins 5 tricks | 2 points |
| Bidder goes alone and wins 5 tricks | 4 points |
| Bidder goes alone and wins 3 or 4 tricks | 1 point |
| Defenders win 3 or more tricks (known as a euchre, or setting the bidder) | 2 points |

The other presets come from the same article's loner paragraph and variations (001), the Progressive Euchre and
Bid Euchre "Scoring" paragraphs (000), and hall rules that are not in the texts (hall-minus, loner-bonus).
Every table case below quotes the sentence it checks in its id.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    SEATS,
    SEATS_OF,
    SIDES,
    STANDARD,
    Extras,
    GameOutcome,
    Hand,
    Ruleset,
    ScoringError,
    check_game_total,
    check_ruleset,
    game_winner,
    legal_hands,
    next_dealer,
    other,
    points_range,
    rule_fields,
    score_hand,
)

# --- helpers --------------------------------------------------------------------------------------------------------

# Relabel the seats: MIRROR swaps the sides (N-S makers become E-W), PARTNER swaps the partners within each side.
IDENTITY = {"N": "N", "E": "E", "S": "S", "W": "W"}
MIRROR = {"N": "E", "E": "N", "S": "W", "W": "S"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
MIRROR_PARTNER = {seat: PARTNER[MIRROR[seat]] for seat in SEATS}
SEATINGS = (IDENTITY, MIRROR, PARTNER, MIRROR_PARTNER)


def reseat(hand: Hand, seats: dict[str, str]) -> Hand:
    """The same hand played with every seat renamed by `seats`."""
    makers = other(hand.makers) if seats["N"] in ("E", "W") else hand.makers
    return replace(
        hand,
        makers=makers,
        maker=seats[hand.maker] if hand.maker else None,
        defender_alone=seats[hand.defender_alone] if hand.defender_alone else None,
    )


def describe(hand: Hand) -> str:
    parts = [f"{hand.makers} make, {hand.tricks} tricks"]
    if hand.alone:
        parts.append(f"{hand.maker or 'someone'} alone")
    if hand.blind:
        parts.append("blind")
    if hand.defender_alone:
        parts.append(f"{hand.defender_alone} defends alone")
    if hand.bid is not None:
        parts.append(f"bid {hand.bid}")
    if hand.pepper:
        parts.append(f"{hand.pepper} pepper")
    return ", ".join(parts)


def case(
    makers,
    tricks,
    *,
    alone=False,
    maker=None,
    blind=False,
    defender_alone=None,
    bid=None,
    pepper=None,
    to,
    says,
    made=None,
):
    """One written-out table row: the hand, then (points to makers, points to defenders), and the rules text.

    `made`: whether the makers won the hand; by default, whether their points are the larger.
    """
    hand = Hand(makers, tricks, alone, maker, blind, defender_alone, bid, pepper)
    to_makers, to_defenders = to
    if made is None:
        made = to_makers > to_defenders
    return pytest.param(
        hand, to_makers, to_defenders, made, id=f"{says} | {describe(hand)} -> {to_makers}/{to_defenders}"
    )


def refused(makers, tricks, *, alone=False, maker=None, blind=False, defender_alone=None, bid=None, pepper=None, match):
    hand = Hand(makers, tricks, alone, maker, blind, defender_alone, bid, pepper)
    return pytest.param(hand, match, id=f"{describe(hand)} refused: {match}")


def assert_scores(rules: Ruleset, hand: Hand, to_makers: int, to_defenders: int, made: bool) -> None:
    """The hand scores as the table says, and so does the same hand played from the other side of the table."""
    for seats in SEATINGS:
        seated = reseat(hand, seats)
        score = score_hand(seated, rules)
        makers, defenders = seated.makers, other(seated.makers)
        assert (score.of(makers), score.of(defenders)) == (to_makers, to_defenders), seats
        assert score.winner == (makers if made else defenders), seats


TABLE_ARGS = ("hand", "to_makers", "to_defenders", "made")


# --- standard: the Euchre article's scoring table (001) -------------------------------------------------------------

MAKERS_3_4 = "Bidding partnership (makers) wins 3 or 4 tricks | 1 point"
MAKERS_5 = "Bidding partnership (makers) wins 5 tricks | 2 points"
ALONE_5 = "Bidder goes alone and wins 5 tricks | 4 points"
ALONE_3_4 = "Bidder goes alone and wins 3 or 4 tricks | 1 point"
EUCHRE = "Defenders win 3 or more tricks (known as a euchre, or setting the bidder) | 2 points"
EUCHRE_ALONE = "If euchred while playing alone, the opposing team still only receives two points."

STANDARD_CASES = [
    case("NS", 3, to=(1, 0), says=MAKERS_3_4),
    case("EW", 4, to=(1, 0), says=MAKERS_3_4),
    case("NS", 5, to=(2, 0), says=MAKERS_5),
    case("EW", 5, maker="W", to=(2, 0), says=MAKERS_5),
    case("NS", 5, alone=True, maker="N", to=(4, 0), says=ALONE_5),
    case("EW", 5, alone=True, maker="E", to=(4, 0), says=ALONE_5),
    case("NS", 3, alone=True, maker="S", to=(1, 0), says=ALONE_3_4),
    case("EW", 4, alone=True, maker="W", to=(1, 0), says=ALONE_3_4),
    case("NS", 2, to=(0, 2), says=EUCHRE),
    case("EW", 1, to=(0, 2), says=EUCHRE),
    case("NS", 0, to=(0, 2), says=EUCHRE),
    case("EW", 2, alone=True, maker="E", to=(0, 2), says=EUCHRE_ALONE),
    case("NS", 1, alone=True, maker="N", to=(0, 2), says=EUCHRE_ALONE),
    case("EW", 0, alone=True, maker="W", to=(0, 2), says=EUCHRE_ALONE),
]


@pytest.mark.parametrize(TABLE_ARGS, STANDARD_CASES)
def test_standard(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["standard"], hand, to_makers, to_defenders, made)


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
def test_standard_scoring_table_without_a_maker_seat(makers, tricks, alone, to_makers, to_defenders):
    score = score_hand(Hand(makers=makers, tricks=tricks, alone=alone))
    assert score.of(makers) == to_makers
    assert score.of(other(makers)) == to_defenders
    assert score.winner == (makers if to_makers else other(makers))


def test_standard_is_the_default_and_a_preset():
    assert PRESETS["standard"] is STANDARD
    assert Ruleset(name="standard") == STANDARD
    assert STANDARD.needed == 3
    assert score_hand(Hand("NS", 5, alone=True)) == score_hand(Hand("NS", 5, alone=True), STANDARD)


def test_ns_and_ew_results_are_mirror_images():
    for tricks in range(6):
        for alone in (False, True):
            ns = score_hand(Hand("NS", tricks, alone))
            ew = score_hand(Hand("EW", tricks, alone))
            assert (ns.ns, ns.ew) == (ew.ew, ew.ns)


# --- progressive: the Progressive Euchre "Scoring" paragraph (000) --------------------------------------------------

PROG_3_4 = "Teams score one point for 3 or 4 tricks"
PROG_5 = "2 points for all 5 tricks"
PROG_LONER = "4 points for a loner"
PROG_EUCHRE = "A team failing to achieve their number of tricks ... 2 points goes to other partners score"
PROG_SWEEP = "A euchre sweep nets 4 points"

PROGRESSIVE_CASES = [
    case("NS", 3, to=(1, 0), says=PROG_3_4),
    case("EW", 4, to=(1, 0), says=PROG_3_4),
    case("NS", 5, to=(2, 0), says=PROG_5),
    case("EW", 5, alone=True, maker="W", to=(4, 0), says=PROG_LONER),
    case("NS", 2, to=(0, 2), says=PROG_EUCHRE),
    case("EW", 1, to=(0, 2), says=PROG_EUCHRE),
    case("NS", 2, alone=True, maker="N", to=(0, 2), says=PROG_EUCHRE),
    # defenders take every trick
    case("NS", 0, to=(0, 4), says=PROG_SWEEP),
    case("EW", 0, to=(0, 4), says=PROG_SWEEP),
    case("NS", 0, alone=True, maker="S", to=(0, 4), says=PROG_SWEEP),
]


@pytest.mark.parametrize(TABLE_ARGS, PROGRESSIVE_CASES)
def test_progressive(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["progressive"], hand, to_makers, to_defenders, made)


# --- euchred-loner-3: the loner paragraph (001) ---------------------------------------------------------------------

LONER_3 = "(In some places, a euchred loner is worth 3 points.)"
PLAIN_EUCHRE = "A failure of the bidding partnership to win three tricks ... giving the opposing partnership two points"

EUCHRED_LONER_3_CASES = [
    case("NS", 2, alone=True, maker="N", to=(0, 3), says=LONER_3),
    case("EW", 1, alone=True, maker="W", to=(0, 3), says=LONER_3),
    case("NS", 0, alone=True, maker="S", to=(0, 3), says=LONER_3),
    case("NS", 2, to=(0, 2), says=PLAIN_EUCHRE),
    case("EW", 0, to=(0, 2), says=PLAIN_EUCHRE),
    case("NS", 5, alone=True, maker="N", to=(4, 0), says=ALONE_5),
    case("EW", 3, alone=True, maker="E", to=(1, 0), says=ALONE_3_4),
    case("NS", 4, to=(1, 0), says=MAKERS_3_4),
    case("EW", 5, to=(2, 0), says=MAKERS_5),
]


@pytest.mark.parametrize(TABLE_ARGS, EUCHRED_LONER_3_CASES)
def test_euchred_loner_3(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["euchred-loner-3"], hand, to_makers, to_defenders, made)


# --- defend-alone-1: "Defending Alone (1)" (001) --------------------------------------------------------------------

DEFEND_1 = "if the lone defender Euchres the loner, then his team earns 8 points"
DEFEND_1_FAILS = "the game is played by normal loner rules (the lone defender did not euchre the loner)"
DEFEND_1_ONLY_LONER = "When a maker decides to go alone, one of the opposing players has the option of defending alone"

DEFEND_ALONE_1_CASES = [
    case("NS", 2, alone=True, maker="N", defender_alone="E", to=(0, 8), says=DEFEND_1),
    case("NS", 1, alone=True, maker="S", defender_alone="W", to=(0, 8), says=DEFEND_1),
    case("EW", 0, alone=True, maker="E", defender_alone="S", to=(0, 8), says=DEFEND_1),
    case("NS", 5, alone=True, maker="N", defender_alone="E", to=(4, 0), says=DEFEND_1_FAILS),
    case("EW", 3, alone=True, maker="W", defender_alone="N", to=(1, 0), says=DEFEND_1_FAILS),
    # nobody defends alone: the standard table
    case("NS", 2, alone=True, maker="N", to=(0, 2), says=EUCHRE_ALONE),
    case("EW", 1, to=(0, 2), says=EUCHRE),
    case("NS", 5, to=(2, 0), says=MAKERS_5),
]


@pytest.mark.parametrize(TABLE_ARGS, DEFEND_ALONE_1_CASES)
def test_defend_alone_1(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["defend-alone-1"], hand, to_makers, to_defenders, made)


# --- defend-alone-2: "Defending Alone (2)" (001) --------------------------------------------------------------------

DEFEND_2 = "If they succeed, they score four points instead of the usual two."
DEFEND_2_SWEEP = "If they take all five tricks, they score eight points for their team."
DEFEND_2_FAILS = "a lone defender who does not take three tricks: the makers score as usual"

DEFEND_ALONE_2_CASES = [
    # against makers who did not go alone
    case("NS", 2, maker="N", defender_alone="E", to=(0, 4), says=DEFEND_2),
    case("EW", 1, defender_alone="S", to=(0, 4), says=DEFEND_2),
    case("NS", 0, defender_alone="W", to=(0, 8), says=DEFEND_2_SWEEP),
    case("EW", 0, maker="W", defender_alone="N", to=(0, 8), says=DEFEND_2_SWEEP),
    # against a loner
    case("NS", 1, alone=True, maker="S", defender_alone="E", to=(0, 4), says=DEFEND_2),
    case("EW", 0, alone=True, maker="E", defender_alone="S", to=(0, 8), says=DEFEND_2_SWEEP),
    # the lone defender fails
    case("NS", 3, defender_alone="E", to=(1, 0), says=DEFEND_2_FAILS),
    case("EW", 5, defender_alone="N", to=(2, 0), says=DEFEND_2_FAILS),
    case("NS", 5, alone=True, maker="N", defender_alone="W", to=(4, 0), says=DEFEND_2_FAILS),
    # nobody defends alone
    case("NS", 2, to=(0, 2), says=EUCHRE),
]


@pytest.mark.parametrize(TABLE_ARGS, DEFEND_ALONE_2_CASES)
def test_defend_alone_2(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["defend-alone-2"], hand, to_makers, to_defenders, made)


# --- blind-loner: "Blind-Double Loner" (001) ------------------------------------------------------------------------

BLIND_5 = "If the Blind-double Loner wins all 5 tricks, 8 points are awarded to the player's team."
BLIND_RULES = "the game is played by normal loner rules"

BLIND_LONER_CASES = [
    case("NS", 5, alone=True, maker="N", blind=True, to=(8, 0), says=BLIND_5),
    case("EW", 5, alone=True, maker="W", blind=True, to=(8, 0), says=BLIND_5),
    case("NS", 4, alone=True, maker="S", blind=True, to=(1, 0), says=BLIND_RULES + ": " + ALONE_3_4),
    case("EW", 3, alone=True, maker="E", blind=True, to=(1, 0), says=BLIND_RULES + ": " + ALONE_3_4),
    case("NS", 2, alone=True, maker="N", blind=True, to=(0, 2), says=BLIND_RULES + ": " + EUCHRE_ALONE),
    case("EW", 0, alone=True, maker="W", blind=True, to=(0, 2), says=BLIND_RULES + ": " + EUCHRE_ALONE),
    # a loner who looked at the cards first is an ordinary loner
    case("NS", 5, alone=True, maker="N", to=(4, 0), says=ALONE_5),
    case("EW", 5, to=(2, 0), says=MAKERS_5),
]


@pytest.mark.parametrize(TABLE_ARGS, BLIND_LONER_CASES)
def test_blind_loner(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["blind-loner"], hand, to_makers, to_defenders, made)


# --- hall-minus: a hall rule (not in the texts) ---------------------------------------------------------------------

HALL_MINUS = "hall rule: makers euchred lose 2 points"
HALL_MINUS_LONER = "hall rule: a euchred loner loses 4 points"

HALL_MINUS_CASES = [
    case("NS", 2, to=(-2, 2), says=HALL_MINUS + "; " + EUCHRE),
    case("EW", 1, maker="E", to=(-2, 2), says=HALL_MINUS + "; " + EUCHRE),
    case("NS", 0, to=(-2, 2), says=HALL_MINUS + "; " + EUCHRE),
    case("EW", 2, alone=True, maker="W", to=(-4, 2), says=HALL_MINUS_LONER + "; " + EUCHRE_ALONE),
    case("NS", 0, alone=True, maker="N", to=(-4, 2), says=HALL_MINUS_LONER + "; " + EUCHRE_ALONE),
    case("NS", 3, to=(1, 0), says=MAKERS_3_4),
    case("EW", 5, to=(2, 0), says=MAKERS_5),
    case("NS", 5, alone=True, maker="S", to=(4, 0), says=ALONE_5),
    case("EW", 4, alone=True, maker="E", to=(1, 0), says=ALONE_3_4),
]


@pytest.mark.parametrize(TABLE_ARGS, HALL_MINUS_CASES)
def test_hall_minus(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["hall-minus"], hand, to_makers, to_defenders, made)


# --- loner-bonus: a hall rule (not in the texts) --------------------------------------------------------------------

BONUS = "hall rule: a loner who takes every trick gets 2 points on their own tally"

# (makers, tricks, loner's seat, points to makers, points to defenders, the loner's bonus, rules text)
LONER_BONUS_CASES = [
    pytest.param("NS", 5, "N", 4, 0, 2, id=f"{ALONE_5}; {BONUS} | N alone takes 5"),
    pytest.param("NS", 5, "S", 4, 0, 2, id=f"{ALONE_5}; {BONUS} | S alone takes 5"),
    pytest.param("EW", 5, "E", 4, 0, 2, id=f"{ALONE_5}; {BONUS} | E alone takes 5"),
    pytest.param("EW", 5, "W", 4, 0, 2, id=f"{ALONE_5}; {BONUS} | W alone takes 5"),
    pytest.param("NS", 4, "N", 1, 0, 0, id=f"{ALONE_3_4}; no bonus | N alone takes 4"),
    pytest.param("EW", 3, "W", 1, 0, 0, id=f"{ALONE_3_4}; no bonus | W alone takes 3"),
    pytest.param("NS", 2, "S", 0, 2, 0, id=f"{EUCHRE_ALONE}; no bonus | S alone takes 2"),
]


@pytest.mark.parametrize(("makers", "tricks", "loner", "to_makers", "to_defenders", "bonus"), LONER_BONUS_CASES)
def test_loner_bonus(makers, tricks, loner, to_makers, to_defenders, bonus):
    rules = PRESETS["loner-bonus"]
    score = score_hand(Hand(makers, tricks, alone=True, maker=loner), rules)
    assert (score.of(makers), score.of(other(makers))) == (to_makers, to_defenders)
    assert score.extras[loner].bonus == bonus
    partner = next(seat for seat in SEATS_OF[makers] if seat != loner)
    assert score.extras.get(partner, Extras()).bonus == 0
    # the bonus is personal: it is on no other seat, and not in the team's points
    assert sum(extras.bonus for extras in score.extras.values()) == bonus


@pytest.mark.parametrize("makers", SIDES)
def test_loner_bonus_is_not_given_for_a_plain_march(makers):
    score = score_hand(Hand(makers, 5, maker=SEATS_OF[makers][0]), PRESETS["loner-bonus"])
    assert score.of(makers) == 2
    assert all(extras.bonus == 0 for extras in score.extras.values())


def test_loner_bonus_is_zero_in_the_other_presets():
    for name, rules in PRESETS.items():
        if name != "loner-bonus":
            hand = Hand("NS", rules.tricks_per_hand, alone=True, maker="N", bid=5 if rules.bidding else None)
            assert score_hand(hand, rules).extras["N"].bonus == 0, name


# --- bid-euchre: the Bid Euchre "Scoring" section (000) -------------------------------------------------------------

BID_MADE = "The contracting side scores one point for each trick taken if it makes at least its contract"
BID_SET = "but is set back six points if it fails to make its contract, regardless of the value of the contract"
DEFENDERS = "The opposing side always scores one point for each trick taken."
SHUTOUT = "If the side playing defense fails to get any tricks, it goes back six points."
PEPPER_MADE = "With this contract, if all the tricks are taken, the contracting side wins 14 or 12 points."
PEPPER_LOST = "if the contracting side fails to take all six tricks, it is set back 14 or 12 points"
PEPPER_SHUTOUT = "If the defensive side does not get any tricks in a small or big pepper, it loses just six points."

BID_EUCHRE_CASES = [
    case("NS", 4, bid=3, to=(4, 2), says=f"{BID_MADE}; {DEFENDERS}"),
    case("EW", 3, bid=3, to=(3, 3), made=True, says=f"{BID_MADE}; {DEFENDERS}"),
    case("NS", 2, bid=2, to=(2, 4), made=True, says=f"{BID_MADE}; {DEFENDERS}"),
    case("EW", 5, bid=1, to=(5, 1), says=f"{BID_MADE}; {DEFENDERS}"),
    case("NS", 4, bid=5, to=(-6, 2), says=f"{BID_SET}; {DEFENDERS}"),
    case("EW", 0, bid=3, to=(-6, 6), says=f"{BID_SET}; {DEFENDERS}"),
    case("NS", 5, bid=6, to=(-6, 1), says=f"{BID_SET}; {DEFENDERS}"),
    case("NS", 6, bid=4, to=(6, -6), says=f"{BID_MADE}; {SHUTOUT}"),
    case("EW", 6, bid=6, to=(6, -6), says=f"{BID_MADE}; {SHUTOUT}"),
    case("NS", 6, alone=True, maker="S", pepper="little", to=(12, -6), says=f"{PEPPER_MADE}; {PEPPER_SHUTOUT}"),
    case("EW", 6, alone=True, maker="E", pepper="big", to=(14, -6), says=f"{PEPPER_MADE}; {PEPPER_SHUTOUT}"),
    case("NS", 6, pepper="big", to=(14, -6), says=f"{PEPPER_MADE}; {PEPPER_SHUTOUT}"),
    case("NS", 5, alone=True, maker="N", pepper="little", to=(-12, 1), says=f"{PEPPER_LOST}; {DEFENDERS}"),
    case("EW", 5, pepper="big", to=(-14, 1), says=f"{PEPPER_LOST}; {DEFENDERS}"),
    case("NS", 0, pepper="big", to=(-14, 6), says=f"{PEPPER_LOST}; {DEFENDERS}"),
]


@pytest.mark.parametrize(TABLE_ARGS, BID_EUCHRE_CASES)
def test_bid_euchre(hand, to_makers, to_defenders, made):
    assert_scores(PRESETS["bid-euchre"], hand, to_makers, to_defenders, made)


def test_bid_euchre_deals_six_cards():
    rules = PRESETS["bid-euchre"]
    assert (rules.tricks_per_hand, rules.bidding) == (6, True)
    with pytest.raises(ScoringError, match="between 0 and 6"):
        score_hand(Hand("NS", 7, bid=3), rules)


# --- refusals, by preset --------------------------------------------------------------------------------------------

REFUSALS = {
    "standard": [
        refused("NS", 6, match="between 0 and 5"),
        refused("NS", 5, alone=True, maker="N", blind=True, match="blind double loner is not played"),
        refused("NS", 2, alone=True, maker="N", defender_alone="E", match="Defending alone is not played"),
        refused("NS", 3, bid=3, match="Bids are recorded only when the night plays bid euchre"),
        refused("EW", 5, pepper="little", match="Bids are recorded only when the night plays bid euchre"),
        refused("NS", 3, alone=True, maker="E", match="E is not on the makers' side"),
    ],
    "defend-alone-1": [
        # "When a maker decides to go alone, one of the opposing players has the option of defending alone"
        refused("NS", 2, maker="N", defender_alone="E", match="only against a loner"),
        refused("EW", 0, defender_alone="S", match="only against a loner"),
        refused("NS", 2, alone=True, maker="N", defender_alone="S", match="Only a defender can defend alone"),
    ],
    "defend-alone-2": [
        refused("EW", 2, defender_alone="E", match="Only a defender can defend alone"),
        refused("NS", 2, defender_alone="X", match="Only a defender can defend alone"),
    ],
    "blind-loner": [
        refused("NS", 5, maker="N", blind=True, match="A blind double loner is played alone"),
        refused("NS", 5, alone=True, maker="N", blind=True, bid=3, match="Bids are recorded only"),
    ],
    "loner-bonus": [
        refused("NS", 5, alone=True, match="Say which player went alone"),
    ],
    "bid-euchre": [
        refused("NS", 4, match=r"Record the bid: 1 to 6 tricks, or a pepper"),
        refused("NS", 4, bid=0, match=r"Record the bid: 1 to 6 tricks"),
        refused("NS", 4, bid=7, match=r"Record the bid: 1 to 6 tricks"),
        refused("NS", 4, bid=-1, match=r"Record the bid: 1 to 6 tricks"),
        refused("NS", 6, bid=6, pepper="big", match="A pepper bid replaces the number of tricks bid"),
        refused("NS", 6, pepper="medium", match="A pepper bid is little or big"),
        refused("NS", 6, alone=True, maker="N", blind=True, bid=6, match="not played under these rules"),
        refused("NS", 2, bid=3, defender_alone="E", match="Defending alone is not played"),
        refused("NS", 7, bid=3, match="between 0 and 6"),
    ],
}


@pytest.mark.parametrize(
    ("preset", "hand", "match"),
    [
        pytest.param(name, *param.values, id=f"{name}: {param.id}")
        for name, params in REFUSALS.items()
        for param in params
    ],
)
def test_refusals(preset, hand, match):
    with pytest.raises(ScoringError, match=match):
        score_hand(hand, PRESETS[preset])


@pytest.mark.parametrize("preset", [name for name in PRESETS if name != "blind-loner"])
def test_blind_loner_is_refused_unless_the_ruleset_plays_it(preset):
    with pytest.raises(ScoringError, match="not played under these rules"):
        score_hand(Hand("NS", 5, alone=True, maker="N", blind=True, bid=6), PRESETS[preset])


@pytest.mark.parametrize("preset", [name for name in PRESETS if not name.startswith("defend-alone")])
def test_defending_alone_is_refused_unless_the_ruleset_plays_it(preset):
    with pytest.raises(ScoringError, match="Defending alone is not played"):
        score_hand(Hand("NS", 2, alone=True, maker="N", defender_alone="E", bid=3), PRESETS[preset])


@pytest.mark.parametrize("tricks", [-1, 6, 7, 100, -5])
def test_impossible_trick_counts_are_refused(tricks):
    with pytest.raises(ScoringError, match="between 0 and 5"):
        score_hand(Hand("NS", tricks))


@pytest.mark.parametrize("makers", ["N", "ns", "", None, "NE", "SN"])
def test_makers_must_be_a_side(makers):
    with pytest.raises(ScoringError, match=r"^Makers must be N–S or E–W"):
        score_hand(Hand(makers, 3))


def test_scoring_error_is_a_value_error():
    assert issubclass(ScoringError, ValueError)


def test_a_custom_ruleset_uses_its_own_numbers():
    rules = Ruleset(
        name="house", makers_point=3, makers_march=5, alone_point=6, alone_march=7, euchre=8, euchre_alone=9
    )

    def points(hand):
        score = score_hand(hand, rules)
        return score.ns, score.ew, score.winner

    assert points(Hand("NS", 3)) == (3, 0, "NS")
    assert points(Hand("NS", 5)) == (5, 0, "NS")
    assert points(Hand("EW", 4, alone=True)) == (0, 6, "EW")
    assert points(Hand("EW", 5, alone=True)) == (0, 7, "EW")
    assert points(Hand("NS", 2)) == (0, 8, "EW")
    assert points(Hand("EW", 0, alone=True)) == (9, 0, "NS")


# --- presets as data ------------------------------------------------------------------------------------------------

# What each preset changes from the standard table, and nothing else.
PRESET_CHANGES = {
    "standard": {},
    "progressive": {"euchre_sweep": 4},
    "euchred-loner-3": {"euchre_alone": 3},
    "defend-alone-1": {"defend_alone": "vs_loner", "defend_alone_euchre": 8, "defend_alone_sweep": 8},
    "defend-alone-2": {"defend_alone": "any", "defend_alone_euchre": 4, "defend_alone_sweep": 8},
    "blind-loner": {"blind_loner_march": 8},
    "hall-minus": {"euchred_makers": -2, "euchred_loner": -4},
    "loner-bonus": {"loner_bonus": 2},
    "bid-euchre": {"tricks_per_hand": 6, "bidding": True, "target_on_offense": True},
    "double-deck": {
        **{"tricks_per_hand": 12, "bidding": True, "min_bid": 3, "made_scores": "bid", "set_loses": "bid"},
        **{"defender_shutout": 0, "little_pepper": 0, "big_pepper": 0},
    },
    "double-deck-36": {
        **{"tricks_per_hand": 12, "bidding": True, "min_bid": 3, "set_loses": "bid", "defender_shutout": 0},
        **{"little_pepper": 0, "big_pepper": 0},
    },
    "midwest-pepper": {
        **{"tricks_per_hand": 6, "bidding": True, "min_bid": 4, "made_scores": "bid", "set_loses": "bid"},
        **{"shutout_loses": "made", "little_pepper": 7, "big_pepper": 14, "pepper_defenders": "set"},
        "pepper_names": "Small,Big",
        "defenders_may_pass": True,
    },
    "pfeffer": {
        **{"tricks_per_hand": 6, "bidding": True, "min_bid": 4, "set_back": 5, "defender_shutout": 5},
        **{"little_pepper": 0, "big_pepper": 12, "pepper_set": 10, "pepper_names": "-,Pfeffer"},
        "hickeys": True,
        "both_reach": "higher",
    },
    "buck": {
        **{"tricks_per_hand": 6, "bidding": True, "min_bid": 3, "set_loses": "bid", "shutout_loses": "bid"},
        **{"march_adds_bid": True, "little_pepper": 0, "big_pepper": 0},
    },
}


@pytest.mark.parametrize("name", PRESETS)
def test_presets_change_only_their_own_numbers(name):
    rules = PRESETS[name]
    assert rules.name == name
    assert rules == replace(STANDARD, name=name, **PRESET_CHANGES[name])
    check_ruleset(rules)


def test_every_preset_is_listed():
    assert set(PRESETS) == set(PRESET_CHANGES)


@pytest.mark.parametrize("name", PRESETS)
def test_ruleset_round_trips_through_a_dict(name):
    rules = PRESETS[name]
    assert Ruleset.from_dict(rules.as_dict()) == rules
    assert Ruleset.from_dict(dict(rules.as_dict())).as_dict() == rules.as_dict()


def test_from_dict_ignores_unknown_keys_and_defaults_missing_ones():
    rules = Ruleset.from_dict({"name": "house", "euchre": 3, "colour": "green", "tricks": 9})
    assert rules == replace(STANDARD, name="house", euchre=3)
    assert Ruleset.from_dict({}) == Ruleset(name="custom")
    assert Ruleset.from_dict({"unknown": 1}) == Ruleset()


@pytest.mark.parametrize(
    ("data", "match"),
    [
        pytest.param({"tricks_per_hand": 7}, r"5 tricks .euchre., 6 .bid euchre. or 12", id="tricks 7"),
        pytest.param({"tricks_per_hand": 4}, r"5 tricks .euchre., 6 .bid euchre. or 12", id="tricks 4"),
        pytest.param({"tricks_per_hand": 12}, "switch bidding on", id="12 tricks without bidding"),
        pytest.param({"tricks_per_hand": 6, "bidding": True, "min_bid": 7}, "lowest bid is 1 to 6", id="bid 7 of 6"),
        pytest.param({"made_scores": "points"}, "the bidders score: their tricks", id="made_scores unknown"),
        pytest.param({"pepper_names": "Small"}, "Name the two pepper bids", id="one pepper name"),
        pytest.param({"bidding": True}, "set tricks a hand to 6", id="bidding with 5 tricks"),
        pytest.param({"tricks_per_hand": 6, "bidding": True, "set_back": -6}, "without a minus", id="set_back -6"),
        pytest.param({"defender_shutout": -6}, "without a minus", id="defender_shutout -6"),
        pytest.param({"little_pepper": -12}, "without a minus", id="little_pepper -12"),
        pytest.param({"big_pepper": -1}, "without a minus", id="big_pepper -1"),
        pytest.param(
            {"defend_alone": "always"},
            "Defending alone: not played, only against a loner, against any maker",
            id="defend_alone unknown",
        ),
    ],
)
def test_check_ruleset_refusals(data, match):
    with pytest.raises(ScoringError, match=match):
        check_ruleset(Ruleset(**data))
    with pytest.raises(ScoringError, match=match):
        Ruleset.from_dict(data)


def test_rule_fields_cover_every_number_with_its_standard_default():
    listed = {name: default for name, _label, default in rule_fields()}
    assert listed == {key: value for key, value in STANDARD.as_dict().items() if key != "name"}
    assert all(label for _name, label, _default in rule_fields())


# --- extras: the players' tallies -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("makers", "loner"), [("NS", "N"), ("NS", "S"), ("EW", "E"), ("EW", "W")])
def test_a_loner_that_takes_every_trick_is_tried_and_made_for_the_maker_seat(makers, loner):
    score = score_hand(Hand(makers, 5, alone=True, maker=loner))
    assert score.extras == {loner: Extras(loners_tried=1, loners_made=1, marches=1)}


@pytest.mark.parametrize(("makers", "loner"), [("NS", "N"), ("EW", "W")])
@pytest.mark.parametrize("tricks", [3, 4])
def test_a_loner_that_takes_3_or_4_tricks_is_tried_not_made(makers, loner, tricks):
    score = score_hand(Hand(makers, tricks, alone=True, maker=loner))
    assert score.of(makers) == 1
    assert score.extras == {loner: Extras(loners_tried=1)}


@pytest.mark.parametrize(("makers", "loner"), [("NS", "S"), ("EW", "E")])
@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_a_euchred_loner_counts_as_tried_not_made_and_euchres_both_defenders(makers, loner, tricks):
    score = score_hand(Hand(makers, tricks, alone=True, maker=loner))
    defenders = SEATS_OF[other(makers)]
    assert score.extras == {
        loner: Extras(loners_tried=1),
        defenders[0]: Extras(euchres=1),
        defenders[1]: Extras(euchres=1),
    }


@pytest.mark.parametrize("makers", SIDES)
@pytest.mark.parametrize("maker", [None, "first", "second"])
def test_a_plain_march_counts_for_both_makers(makers, maker):
    seat = {"first": SEATS_OF[makers][0], "second": SEATS_OF[makers][1], None: None}[maker]
    score = score_hand(Hand(makers, 5, maker=seat))
    assert score.extras == {seat: Extras(marches=1) for seat in SEATS_OF[makers]}


@pytest.mark.parametrize("makers", SIDES)
@pytest.mark.parametrize("tricks", [0, 1, 2])
def test_euchred_makers_give_a_euchre_to_both_defenders(makers, tricks):
    score = score_hand(Hand(makers, tricks))
    assert score.extras == {seat: Extras(euchres=1) for seat in SEATS_OF[other(makers)]}


@pytest.mark.parametrize("tricks", [3, 4])
def test_a_plain_point_earns_no_extras(tricks):
    assert score_hand(Hand("NS", tricks, maker="N")).extras == {}


def test_a_lone_defender_euchre_counts_for_the_lone_defender_only():
    # The lone defender's partner sat the hand out, as a loner's partner does.
    score = score_hand(Hand("NS", 1, alone=True, maker="N", defender_alone="E"), PRESETS["defend-alone-1"])
    assert score.extras == {"N": Extras(loners_tried=1), "E": Extras(euchres=1)}


def test_a_missed_bid_is_a_euchre_and_a_six_trick_bid_a_march():
    rules = PRESETS["bid-euchre"]
    assert score_hand(Hand("EW", 2, bid=3), rules).extras == {"N": Extras(euchres=1), "S": Extras(euchres=1)}
    assert score_hand(Hand("EW", 6, bid=4), rules).extras == {"E": Extras(marches=1), "W": Extras(marches=1)}
    assert score_hand(Hand("EW", 6, alone=True, maker="E", pepper="little"), rules).extras == {
        "E": Extras(loners_tried=1, loners_made=1, marches=1)
    }


def test_extras_add_up_field_by_field():
    total = Extras(1, 0, 2, 1, 2) + Extras(0, 1, 1, 0, 3)
    assert total == Extras(loners_tried=1, loners_made=1, euchres=3, marches=1, bonus=5)
    assert Extras() + Extras() == Extras()


# --- points range and game totals -----------------------------------------------------------------------------------

POINTS_RANGES = {
    "standard": (0, 4),
    "progressive": (0, 4),
    "euchred-loner-3": (0, 4),
    "defend-alone-1": (0, 8),
    "defend-alone-2": (0, 8),
    "blind-loner": (0, 8),
    "hall-minus": (-4, 4),
    "loner-bonus": (0, 4),
    "bid-euchre": (-14, 14),
}


@pytest.mark.parametrize(("name", "expected"), POINTS_RANGES.items())
def test_points_range(name, expected):
    assert points_range(PRESETS[name]) == expected


def test_a_standard_game_of_8_hands_makes_at_most_32():
    check_game_total(32, 8, STANDARD)
    check_game_total(0, 8, STANDARD)
    with pytest.raises(ScoringError, match=r"^33 is more than 8 hands can make \(at most 32\)\.$"):
        check_game_total(33, 8, STANDARD)
    with pytest.raises(ScoringError, match=r"at least 0"):
        check_game_total(-1, 8, STANDARD)


def test_negative_game_totals_where_the_rules_allow_them():
    check_game_total(-32, 8, PRESETS["hall-minus"])
    with pytest.raises(ScoringError, match=r"at least -32"):
        check_game_total(-33, 8, PRESETS["hall-minus"])
    check_game_total(-112, 8, PRESETS["bid-euchre"])
    check_game_total(112, 8, PRESETS["bid-euchre"])
    with pytest.raises(ScoringError, match=r"at most 112"):
        check_game_total(113, 8, PRESETS["bid-euchre"])


# --- dealing --------------------------------------------------------------------------------------------------------


def test_the_deal_passes_to_the_left():
    assert [next_dealer(seat) for seat in "NESW"] == ["E", "S", "W", "N"]


@pytest.mark.parametrize("first", SEATS)
def test_in_8_hands_each_seat_deals_twice(first):
    dealers = [first]
    for _ in range(7):
        dealers.append(next_dealer(dealers[-1]))
    assert {seat: dealers.count(seat) for seat in SEATS} == dict.fromkeys(SEATS, 2)
    assert next_dealer(dealers[-1]) == first


# --- properties over random legal hands -----------------------------------------------------------------------------

POOLS = {name: tuple(legal_hands(rules)) for name, rules in PRESETS.items()}
NO_NEGATIVES = (
    "standard",
    "progressive",
    "euchred-loner-3",
    "blind-loner",
    "loner-bonus",
    "defend-alone-1",
    "defend-alone-2",
)


def hands_under(name: str) -> st.SearchStrategy[Hand]:
    """A legal hand of the preset, from any side of the table."""
    return st.builds(reseat, st.sampled_from(POOLS[name]), st.sampled_from(SEATINGS))


def rules_and_hand(names=tuple(PRESETS)) -> st.SearchStrategy[tuple[Ruleset, Hand]]:
    return st.sampled_from(names).flatmap(lambda name: st.tuples(st.just(PRESETS[name]), hands_under(name)))


def bid_made(hand: Hand, rules: Ruleset) -> bool:
    if hand.pepper is not None:
        return hand.tricks == rules.tricks_per_hand
    return hand.tricks >= hand.bid


def test_the_pools_hold_every_kind_of_hand():
    assert all(POOLS.values())
    assert any(hand.blind for hand in POOLS["blind-loner"])
    assert any(hand.defender_alone and not hand.alone for hand in POOLS["defend-alone-2"])
    assert not any(hand.defender_alone and not hand.alone for hand in POOLS["defend-alone-1"])
    assert {hand.pepper for hand in POOLS["bid-euchre"]} == {None, "little", "big"}
    assert not any(hand.blind or hand.defender_alone for hand in POOLS["standard"])


@given(rules_and_hand())
def test_score_hand_is_deterministic(rules_hand):
    rules, hand = rules_hand
    assert score_hand(hand, rules) == score_hand(hand, rules)
    assert score_hand(hand, rules) == score_hand(replace(hand), Ruleset.from_dict(rules.as_dict()))


@given(rules_and_hand(NO_NEGATIVES))
def test_exactly_one_side_scores_without_negative_rules(rules_hand):
    rules, hand = rules_hand
    score = score_hand(hand, rules)
    assert (score.ns > 0) != (score.ew > 0)
    assert min(score.ns, score.ew) == 0
    assert score.of(score.winner) > 0
    assert (score.winner == hand.makers) == (hand.tricks >= rules.needed)


@given(rules_and_hand())
def test_the_hand_goes_to_the_makers_iff_they_score_more_or_make_their_bid(rules_hand):
    rules, hand = rules_hand
    score = score_hand(hand, rules)
    makers_won = score.of(hand.makers) > score.of(other(hand.makers)) or (rules.bidding and bid_made(hand, rules))
    assert (score.winner == hand.makers) == makers_won


@given(rules_and_hand())
def test_the_other_side_of_the_table_scores_the_same_hand_the_same(rules_hand):
    rules, hand = rules_hand
    score = score_hand(hand, rules)
    mirrored = score_hand(reseat(hand, MIRROR), rules)
    assert (mirrored.ns, mirrored.ew) == (score.ew, score.ns)
    assert mirrored.winner == other(score.winner)
    assert mirrored.extras == {MIRROR[seat]: extras for seat, extras in score.extras.items()}
    partners = score_hand(reseat(hand, PARTNER), rules)
    assert (partners.ns, partners.ew, partners.winner) == (score.ns, score.ew, score.winner)
    assert partners.extras == {PARTNER[seat]: extras for seat, extras in score.extras.items()}


@given(
    st.sampled_from(tuple(PRESETS)).flatmap(
        lambda name: st.tuples(st.just(PRESETS[name]), st.lists(hands_under(name), min_size=1, max_size=12))
    )
)
def test_a_game_is_the_sum_of_its_hands(rules_hands):
    rules, hands = rules_hands
    scores = [score_hand(hand, rules) for hand in hands]
    ns = ew = 0
    tallies = {seat: [0, 0, 0, 0, 0] for seat in SEATS}
    for score in scores:
        ns += score.ns
        ew += score.ew
        for seat, extras in score.extras.items():
            tally = tallies[seat]
            tally[0] += extras.loners_tried
            tally[1] += extras.loners_made
            tally[2] += extras.euchres
            tally[3] += extras.marches
            tally[4] += extras.bonus
    assert (sum(score.ns for score in scores), sum(score.ew for score in scores)) == (ns, ew)
    # the sum is a total the hands could make
    check_game_total(ns, len(hands), rules)
    check_game_total(ew, len(hands), rules)
    # the side with more points wins the game; a tie goes to the winner of the last hand
    outcome = game_winner(ns, ew, tie_rule="last_hand", last_hand_winner=scores[-1].winner)
    if ns == ew:
        assert outcome == GameOutcome(scores[-1].winner, "last_hand")
    else:
        assert outcome == GameOutcome("NS" if ns > ew else "EW", None)
    # each seat's tally is the sum of its extras
    for seat in SEATS:
        added = Extras()
        for score in scores:
            added = added + score.extras.get(seat, Extras())
        assert added == Extras(*tallies[seat])


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
            euchre_sweep=st.integers(0, 10),
        ),
    ),
)
def test_every_hand_gives_points_to_exactly_one_side_under_random_positive_numbers(makers, tricks, alone, rules):
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


@pytest.mark.parametrize("tie_rule", ["last_hand", "draw"])
@pytest.mark.parametrize(
    ("ns", "ew", "winner"),
    [(-1, 3, "EW"), (3, -1, "NS"), (-1, 0, "EW"), (0, -6, "NS"), (-6, -2, "EW"), (-14, -20, "NS"), (-12, 1, "EW")],
)
def test_negative_totals_are_compared_normally(ns, ew, winner, tie_rule):
    assert game_winner(ns, ew, tie_rule=tie_rule) == GameOutcome(winner=winner, tie_break=None)


@pytest.mark.parametrize("side", SIDES)
def test_a_negative_tie_is_decided_like_any_tie(side):
    assert game_winner(-6, -6, tie_rule="last_hand", last_hand_winner=side) == GameOutcome(side, "last_hand")
    assert game_winner(-6, -6, tie_rule="draw", draw_seed=3) == game_winner(0, 0, tie_rule="draw", draw_seed=3)


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


@given(st.integers(-200, 200), st.integers(-200, 200), st.sampled_from(SIDES), st.integers())
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
