"""The only writers for game results and hands. Each service is one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from tournament.models import Round, Seating

from . import rules
from .models import Hand, TableResult


@dataclass(frozen=True)
class HandInput:
    dealer: str
    makers: rules.Side
    tricks: int
    alone: bool = False


def draw_seed(*, night_seed: int | None, round_number: int, table: int) -> int:
    """A reproducible seed for the app's draw on a tied game, from the night's recorded seed."""
    return ((night_seed or 0) * 1_000_003 + round_number * 1_009 + table) % 2**63


@transaction.atomic
def table_result_submit(
    *,
    round_: Round,
    table: int,
    ns_points: int | None = None,
    ew_points: int | None = None,
    last_hand_winner: str | None = None,
    hands: Sequence[HandInput] | None = None,
    expected_version: int | None = None,
    user=None,
) -> TableResult:
    """Record one table's game: either the two totals, or every hand (the totals are then the hands' sum).

    `expected_version` is the version of the result the person was looking at (None for a first entry); a result
    changed since is refused rather than overwritten.
    """
    round_ = Round.objects.select_for_update().select_related("night").get(pk=round_.pk)
    night = round_.night
    if round_.status == Round.Status.SEATED:
        raise ValidationError({"__all__": f"Game {round_.number} has not started yet."})
    if round_.status == Round.Status.CLOSED:
        raise ValidationError({"__all__": f"Game {round_.number} is closed: its scores can no longer be changed."})
    if not Seating.objects.filter(round=round_, table=table).exists():
        raise ValidationError({"__all__": f"There is no table {table} in game {round_.number}."})

    ruleset = rules.PRESETS[night.scoring]
    scored: list[tuple[HandInput, rules.HandScore]] = []
    if hands:
        if len(hands) > night.hands_per_game:
            raise ValidationError({"hands": f"A game has at most {night.hands_per_game} hands."})
        for number, hand in enumerate(hands, start=1):
            if hand.dealer not in ("N", "E", "S", "W"):
                raise ValidationError({"hands": f"Hand {number}: the dealer must be N, E, S or W."})
            try:
                score = rules.score_hand(rules.Hand(hand.makers, hand.tricks, hand.alone), ruleset)
            except rules.ScoringError as error:
                raise ValidationError({"hands": f"Hand {number}: {error}"}) from error
            scored.append((hand, score))
        ns_points = sum(score.ns for _, score in scored)
        ew_points = sum(score.ew for _, score in scored)
        last_hand_winner = scored[-1][1].winner
    if ns_points is None or ew_points is None:
        raise ValidationError({"__all__": "Enter both teams' points."})
    for field, value in (("ns_points", ns_points), ("ew_points", ew_points)):
        if value < 0:
            raise ValidationError({field: "Points cannot be negative."})
    try:
        outcome = rules.game_winner(
            ns_points,
            ew_points,
            tie_rule=night.tie_rule,
            last_hand_winner=last_hand_winner,
            draw_seed=draw_seed(night_seed=night.seed, round_number=round_.number, table=table),
        )
    except rules.ScoringError as error:
        raise ValidationError({"last_hand_winner": str(error)}) from error

    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    if result is not None and expected_version != result.version:
        raise ValidationError(
            {
                "__all__": f"Table {table} already has a score, {result.ns_points}–{result.ew_points}, "
                "entered since this form was opened. Check it before changing it."
            }
        )
    if result is None:
        result = TableResult(round=round_, table=table, version=1)
    else:
        result.version += 1
    result.ns_points = ns_points
    result.ew_points = ew_points
    result.hands_played = len(scored) if scored else None
    result.winner = outcome.winner
    result.tie_break = outcome.tie_break or ""
    result.entered_by = user if getattr(user, "is_authenticated", False) else None
    result.full_clean(validate_unique=False)
    result.save()
    result.hands.all().delete()
    Hand.objects.bulk_create(
        Hand(
            result=result,
            number=number,
            dealer=hand.dealer,
            makers=hand.makers,
            alone=hand.alone,
            tricks=hand.tricks,
            ns_points=score.ns,
            ew_points=score.ew,
        )
        for number, (hand, score) in enumerate(scored, start=1)
    )
    return result
