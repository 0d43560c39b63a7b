"""Every game to the letter (#35): for every preset, the totals a game can stop at and who won it, from the one
rule every reader asks (`scoring.ending.ending`), checked against games played out by brute force and at random.

The rules texts (shared/seeds/000): Indiana Double Deck, "The deal continues clockwise around the table until one
team gets 50 or more points. If both teams get 50 or more points on the same hand, the team that took the bid is
the winner."; the other double deck, "Game is won by the first team to score 36 points."; Pepper, "to win, a team
must reach 42 on offense"; Pfeffer, "Game is to 42 points. In cases of a tie at 42, the bidding team wins.";
Buck, "the game is generally played to 25 or more".
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import rules, services
from scoring.ending import SEARCH_DEPTH, GameEnd, ending, stops
from scoring.rules import PRESET_TARGETS, PRESETS, legal_hands, score_hand
from scoring.seats import other_side

BID_PRESETS = sorted(PRESET_TARGETS)


def end_of(preset: str, target: int | None = None, **parts) -> GameEnd:
    rules_ = PRESETS[preset]
    return GameEnd.of(GameEnd(head_table=False, target=target or PRESET_TARGETS[preset], **parts), rules_)


def every_hand(ruleset: rules.Ruleset) -> set[tuple[int, int, str]]:
    """What one hand can give (to N–S, to E–W, the side it went to), every legal hand scored with either side
    making."""
    found = set()
    for hand in legal_hands(ruleset):
        score = score_hand(hand, ruleset)
        found.add((score.ns, score.ew, score.winner))
        found.add((score.ew, score.ns, other_side(score.winner)))
    return found


def played_out(ruleset: rules.Ruleset, end: GameEnd, low: int) -> tuple[set, set]:
    """By brute force, one (N–S, E–W) state at a time: the totals at which some game of at most `end.cap` hands
    stops at the target (the hand that takes a side there; "on offense" the side the hand went to), and those at
    which the bell can stop one short of it; states below `low` are left out."""
    target = end.target
    assert target is not None
    steps = [(add_ns, add_ew, went_to == "NS") for add_ns, add_ew, went_to in every_hand(ruleset)]
    offense = end.on_offense
    at_target: set[tuple[int, int]] = set()
    at_bell: set[tuple[int, int]] = set()
    seen = {(0, 0)}
    frontier = [(0, 0)]
    for _ in range(end.cap):
        following = []
        for ns, ew in frontier:
            for add_ns, add_ew, to_ns in steps:
                new_ns, new_ew = ns + add_ns, ew + add_ew
                if new_ns < low or new_ew < low:
                    continue
                # The hand that takes a side to the target ends the game; "on offense" only the side it went to.
                if (
                    (new_ns >= target if to_ns else new_ew >= target)
                    if offense
                    else (new_ns >= target or new_ew >= target)
                ):
                    at_target.add((new_ns, new_ew))
                    continue
                state = (new_ns, new_ew)
                at_bell.add(state)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        frontier = following
    return at_target, at_bell


def desk_accepts(game: services.Game, ns: int, ew: int) -> bool:
    """The desk's check of typed totals (a table other than the head table, no hand count, "yes, that is the
    score" ticked); a question of who won the last hand is answered."""
    try:
        services._check_totals(game, ns, ew, None, True, "NS")
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("preset", BID_PRESETS)
def test_the_desk_accepts_exactly_the_totals_some_game_to_the_target_stops_at(preset):
    """Every pair of totals from −100 to 100, typed at the desk for a game to the preset's target, is accepted
    exactly when some sequence of the preset's hands stops there (the target, or the bell short of it). The brute
    force looks further into the hole than the app does (20 points), so a game the app's search leaves out by
    going too deep would show here."""
    ruleset = PRESETS[preset]
    end = end_of(preset)
    game = services.Game(0, 1, 2, False, ruleset, 8, end, tie_rule="draw", draw_seed=1)
    at_target, at_bell = played_out(ruleset, end, low=-SEARCH_DEPTH - 20)
    possible = at_target | at_bell
    assert len(possible) > 1000
    window = range(-100, 101)
    wrong = [(ns, ew) for ns in window for ew in window if desk_accepts(game, ns, ew) != ((ns, ew) in possible)]
    assert wrong == []


@pytest.mark.parametrize(("preset", "ns", "ew"), [("double-deck", 51, 60), ("double-deck", 61, 61)])
def test_the_search_and_the_brute_force_agree_on_why(preset, ns, ew):
    """The examples of #35 item 2: no game to 50 stops at them (before the last hand both sides were below 50, and
    one hand gives a side at most 12)."""
    ruleset = PRESETS[preset]
    at_target, at_bell = played_out(ruleset, end_of(preset), low=-60)
    assert (ns, ew) not in at_target | at_bell
    assert ending(end_of(preset), ruleset, ns, ew, tie_rule="draw", draw_seed=1).fault


def random_game(rng: random.Random, ruleset: rules.Ruleset, end: GameEnd, bell: int):
    """Hands at random until the target ends the game or the bell rings after `bell` hands: the totals, the side
    the last hand went to."""
    hands = list(legal_hands(ruleset))  # N–S make them; half the time E–W do instead
    mirror = {"N": "E", "S": "W", "E": "N", "W": "S", None: None}
    ns = ew = 0
    went_to = None
    for _ in range(bell):
        hand = rng.choice(hands)
        if rng.random() < 0.5:
            hand = replace(hand, makers="EW", maker=mirror[hand.maker], defender_alone=mirror[hand.defender_alone])
        score = score_hand(hand, ruleset)
        ns, ew, went_to = ns + score.ns, ew + score.ew, score.winner
        if end.reached(ns, ew, went_to):
            break
    return ns, ew, went_to


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.integers(min_value=5, max_value=50),
    st.integers(min_value=1, max_value=60),
    st.sampled_from(["last_hand", "draw"]),
    st.randoms(use_true_random=False),
)
def test_every_game_played_stops_where_the_rule_says_and_typed_it_is_won_alike(preset, target, bell, tie_rule, rng):
    """Any game played hand by hand, to any target, stopped by its target or by the bell: its totals are ones the
    rule accepts, and typed as totals (the team that won the last hand said when asked) it goes to the same winner
    as hand by hand."""
    ruleset = PRESETS[preset]
    end = end_of(preset, target)
    ns, ew, went_to = random_game(rng, ruleset, end, min(bell, end.cap))
    searched = stops(ruleset, target, end.on_offense, end.cap)
    assume(searched.low <= min(ns, ew) and max(ns, ew) <= searched.high)  # within the search's reach
    played = ending(end, ruleset, ns, ew, last_hand=went_to, from_hands=True, tie_rule=tie_rule, draw_seed=7)
    typed = ending(end, ruleset, ns, ew, tie_rule=tie_rule, draw_seed=7)
    assert not typed.fault
    if typed.ask:
        typed = ending(end, ruleset, ns, ew, last_hand=went_to, tie_rule=tie_rule, draw_seed=7)
    assert (typed.winner, typed.tie_break) == (played.winner, played.tie_break)
    if played.reached:
        assert played.winner == played.reached
        assert searched.how(ns, ew, went_to) is True
    else:
        assert played.winner == ("NS" if ns > ew else "EW") or ns == ew
