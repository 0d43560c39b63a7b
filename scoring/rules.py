"""Scoring rules: one hand -> points for each side, under a ruleset. Pure Python, no Django.

A ruleset is data (named numbers), not a class per variant. The standard preset is the scoring table of the Euchre
rules text (shared/seeds/001): makers 3 or 4 tricks 1 point, all 5 tricks 2, alone and all 5 tricks 4, alone and
3 or 4 tricks 1, makers euchred 2 to the defenders.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

Side = Literal["NS", "EW"]
TieRule = Literal["last_hand", "draw"]
SIDES: tuple[Side, ...] = ("NS", "EW")
TIE_RULES: dict[str, str] = {
    "last_hand": "the team that won the last hand",
    "draw": "a draw by the app, recorded on the table's result",
}


class ScoringError(ValueError):
    """A hand or game result that cannot be scored; the message is shown beside the field."""


@dataclass(frozen=True)
class Ruleset:
    """The points a hand is worth. Every number has one name and one place."""

    name: str
    tricks_per_hand: int = 5
    makers_point: int = 1  # makers take 3 or 4 tricks
    makers_march: int = 2  # makers take all 5
    alone_point: int = 1  # a loner takes 3 or 4 tricks
    alone_march: int = 4  # a loner takes all 5
    euchre: int = 2  # to the defenders when the makers take fewer than 3
    euchre_alone: int = 2  # to the defenders when a loner is euchred

    @property
    def needed(self) -> int:
        """Tricks the makers must take to score: a majority."""
        return self.tricks_per_hand // 2 + 1


STANDARD = Ruleset(name="standard")
PRESETS: dict[str, Ruleset] = {STANDARD.name: STANDARD}


@dataclass(frozen=True)
class Hand:
    """One hand as played: which side made trump, the makers' tricks, whether the maker went alone."""

    makers: Side
    tricks: int
    alone: bool = False


@dataclass(frozen=True)
class HandScore:
    ns: int
    ew: int

    def of(self, side: Side) -> int:
        return self.ns if side == "NS" else self.ew

    @property
    def winner(self) -> Side:
        """The side that scored on this hand (every hand scores for exactly one side)."""
        return "NS" if self.ns > self.ew else "EW"


def score_hand(hand: Hand, rules: Ruleset = STANDARD) -> HandScore:
    if hand.makers not in SIDES:
        raise ScoringError(f"Makers must be NS or EW, not {hand.makers!r}.")
    if not 0 <= hand.tricks <= rules.tricks_per_hand:
        raise ScoringError(f"Makers' tricks must be between 0 and {rules.tricks_per_hand}.")
    if hand.tricks < rules.needed:
        makers, defenders = 0, rules.euchre_alone if hand.alone else rules.euchre
    elif hand.tricks == rules.tricks_per_hand:
        makers, defenders = (rules.alone_march if hand.alone else rules.makers_march), 0
    else:
        makers, defenders = (rules.alone_point if hand.alone else rules.makers_point), 0
    return HandScore(ns=makers, ew=defenders) if hand.makers == "NS" else HandScore(ns=defenders, ew=makers)


@dataclass(frozen=True)
class GameOutcome:
    winner: Side
    tie_break: TieRule | None  # how a tied game was decided; None when the scores differ


def game_winner(
    ns: int,
    ew: int,
    *,
    tie_rule: TieRule,
    last_hand_winner: Side | None = None,
    draw_seed: int | None = None,
) -> GameOutcome:
    """Who won a game of `ns` to `ew` points. A tie is decided by the night's tie rule.

    `draw_seed` makes the app's draw reproducible (the caller derives it from the night's seed and the table).
    """
    if ns < 0 or ew < 0:
        raise ScoringError("Scores cannot be negative.")
    if ns != ew:
        return GameOutcome(winner="NS" if ns > ew else "EW", tie_break=None)
    if tie_rule == "last_hand":
        if last_hand_winner not in SIDES:
            raise ScoringError("The game is tied: say which team won the last hand.")
        return GameOutcome(winner=last_hand_winner, tie_break="last_hand")
    if tie_rule == "draw":
        if draw_seed is None:
            raise ScoringError("A drawn tie-break needs a seed.")
        return GameOutcome(winner=random.Random(draw_seed).choice(SIDES), tie_break="draw")
    raise ScoringError(f"Unknown tie rule {tie_rule!r}.")
