"""Pepper to 42 "on offense" (#19), from the Bid Euchre article's Pepper section (shared/seeds/000):

    "the standard winning number is 42. The first team to reach 42 points wins. However, to win, a team must reach
    42 on offense, meaning that a team with a point total near 42 must win the bid, meet its contract, and exceed
    42 points to be considered the winner. This also means that a team with 41 points cannot play defense and, by
    winning one trick, get 42 and win. The exception to this rule is when the defensive side "sets" the offense
    and, in doing so, meets or exceeds 42 points. It is thus possible that a team will have more than 42 points
    before the game is over, for only when a team meets its contract and, in doing so, reaches 42 is it crowned
    the winner."

So on the bid-euchre preset only the side a hand went to (the bidders who made it, or the defenders who set
them) can reach the target on that hand, and the side that reaches it wins, whatever the other side's total.
"""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from scoring import rules
from scoring.ending import GameEnd
from tests.conftest import register
from tournament import backup, game, services
from tournament.models import Night
from tournament.selectors import round_view, table_game

pytestmark = pytest.mark.django_db

OFFENSE = GameEnd(hands=8, head_table=False, target=42, on_offense=True)


@pytest.mark.parametrize(
    ("ns", "ew", "went_to", "reached"),
    [
        (41, 42, "NS", None),  # "a team with 41 points cannot play defense and, by winning one trick, get 42"
        (41, 45, "NS", None),  # "It is thus possible that a team will have more than 42 points before the game is over"
        (43, 48, "NS", "NS"),  # "only when a team meets its contract and, in doing so, reaches 42 is it crowned"
        (30, 42, "EW", "EW"),  # the defenders "set" the offense and reach 42, or made their own bid
        (41, 30, "NS", None),
    ],
)
def test_only_the_side_a_hand_went_to_reaches_the_target(ns, ew, went_to, reached):
    assert OFFENSE.reached(ns, ew, went_to) == reached


def test_without_the_rule_the_higher_side_at_the_target_has_reached_it():
    plain = GameEnd(hands=8, head_table=False, target=42)
    assert plain.reached(41, 45, "NS") == "EW"
    assert rules.PRESETS["bid-euchre"].target_on_offense
    assert not rules.PRESETS["pfeffer"].target_on_offense  # Pfeffer's "Game is to 42 points" says nothing of it


def _pepper_night():
    night = services.night_create(
        name="Pepper night", games=2, auto_advance=False, scoring="bid-euchre", head_table_ends=False
    )
    assert night.points_target == 42 and night.game_end().on_offense
    register(night, 8)
    return night, game.round_start(round_=services.night_draw(night=night, seed=3))


def _hand(makers: str, bid: int, tricks: int) -> rules.Hand:
    return rules.Hand(makers=makers, maker=makers[0], bid=bid, tricks=tricks)


def test_a_side_past_42_on_defence_plays_on_and_the_side_that_reaches_it_on_offense_wins():
    night, round_ = _pepper_night()
    for _ in range(9):  # N–S bid 1 and make it; E–W take five tricks a hand on defence: 9–45
        game.hand_record(round_=round_, table=1, hand=_hand("NS", 1, 1))
    shown = table_game(round_, 1)
    assert shown.score == (9, 45) and shown.reached is None  # E–W are past 42, but on defence
    assert not next(t for t in round_view(round_).tables if t.number == 1).reached
    for _ in range(6):  # N–S bid five and take them, E–W one a hand: 39–51
        game.hand_record(round_=round_, table=1, hand=_hand("NS", 5, 5))
    game.hand_record(round_=round_, table=1, hand=_hand("NS", 3, 3))  # 42–54: N–S reach 42 on offense
    shown = table_game(round_, 1)
    assert shown.score == (42, 54) and shown.reached == "NS"
    assert next(t for t in round_view(round_).tables if t.number == 1).reached
    assert round_.results.get(table=1).winner == "NS"  # the game is theirs with fewer points
    with pytest.raises(ValidationError, match="reached 42 points"):
        game.hand_record(round_=round_, table=1, hand=_hand("EW", 3, 3))
    # The backup carries such a game and a restore accepts it as it is.
    game.table_finish(round_=round_, table=1)
    raw = backup.night_backup_bytes(Night.objects.get(pk=night.pk))
    assert json.loads(raw)["rounds"][0]["results"][0]["winner"] == "NS"
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=raw)
    assert restored.rounds.get(number=1).results.get(table=1).winner == "NS"


def test_the_defenders_who_set_the_bidders_reach_42_on_it():
    _, round_ = _pepper_night()
    for _ in range(7):  # E–W bid six and take all six, seven times: 0–42, on offense
        game.hand_record(round_=round_, table=1, hand=_hand("EW", 6, 6))
    assert table_game(round_, 1).reached == "EW"
    _, round_ = _pepper_night()
    for _ in range(8):  # N–S bid 1 and make it: E–W at 40 on defence
        game.hand_record(round_=round_, table=1, hand=_hand("NS", 1, 1))
    assert table_game(round_, 1).score == (8, 40)
    game.hand_record(round_=round_, table=1, hand=_hand("NS", 4, 2))  # N–S set: E–W take four, 44, on the set
    assert table_game(round_, 1).reached == "EW"
