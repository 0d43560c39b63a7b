"""Tables of three: three-handed euchre as the Euchre article's three-player section has it. Pure Python.

The text (shared/seeds/001, "Three players"):

    "A common three player variation is played by dealing out four hands, but with the fourth hand acting as a
    dummy hand. The player who calls trump on the current hand picks up the dummy hand and makes the best
    five-card hand for themselves out of his or her hand and the dummy hand. The player will now play alone
    against the other two players, who will play as partners for this hand. The two non-calling players will
    always play as partners which means that partners will switch from hand to hand depending on who calls trump.
    The calling player will score one point for winning the hand and 2 points for taking all five tricks. The
    calling player can still elect to "go alone" by choosing not to pick up the dummy hand. Taking all five tricks
    here results in four points. Each player keeps their own score."

Read so (the ambiguities named):

* The caller who takes 3 or 4 tricks scores 1, all five 2; alone (without the dummy) all five score 4 and 3 or 4
  score 1 (the text gives the loner only the march; the four-handed loner's 1 is kept).
* The text does not say what a euchred caller gives. Read as the four-handed euchre: each of the two defenders
  scores 2 (they played as partners for the hand, and each keeps their own score); the caller scores nothing.
* A renege forfeits the hand to the other side, as the article's four-handed rule: the caller's renege is a euchre
  (2 to each defender), a defender's a march to the caller (2, or 4 alone).
* The game's winner is the player with the most points; the night's tie rule (the last hand's winner, else the
  app's draw) settles a tie between the top two.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .seats import THREE_SEATS as THREE_SEATS

TRICKS = 5
# "Who won the last hand?" at a tie between the top two, when the answer is both (they defended it) or neither.
DRAWN = "draw"


class ThreeError(ValueError):
    """A three-handed hand or score that cannot be; the message is shown beside the field."""


@dataclass(frozen=True)
class ThreeRules:
    """What a three-handed hand is worth (the article's numbers by default)."""

    point: int = 1  # the caller takes 3 or 4 tricks
    march: int = 2  # the caller takes all five
    alone_point: int = 1  # alone (without the dummy): 3 or 4
    alone_march: int = 4  # alone: all five
    euchre: int = 2  # the caller is euchred: to each defender


THREE_HANDED = ThreeRules()


@dataclass(frozen=True)
class ThreeHand:
    """One hand at a table of three: who called (N, E or S), alone or with the dummy, the caller's tricks; a renege
    names the seat that reneged."""

    caller: str
    tricks: int
    alone: bool = False
    renege: str | None = None
    dealer: str | None = None


def check_hand(hand: ThreeHand) -> None:
    if hand.caller not in THREE_SEATS:
        raise ThreeError("Say who called trump: North, East or South.")
    if not 0 <= hand.tricks <= TRICKS:
        raise ThreeError(f"The caller takes 0 to {TRICKS} tricks.")
    if hand.renege is not None and hand.renege not in THREE_SEATS:
        raise ThreeError("The player who reneged sits North, East or South.")
    if hand.dealer is not None and hand.dealer not in THREE_SEATS:
        raise ThreeError("The dealer sits North, East or South.")


def score_hand(hand: ThreeHand, rules: ThreeRules = THREE_HANDED) -> dict[str, int]:
    """Each seat's points from one hand."""
    check_hand(hand)
    tricks = hand.tricks
    if hand.renege is not None:
        tricks = 0 if hand.renege == hand.caller else TRICKS
    points = dict.fromkeys(THREE_SEATS, 0)
    if tricks == TRICKS:
        points[hand.caller] = rules.alone_march if hand.alone else rules.march
    elif tricks >= TRICKS // 2 + 1:
        points[hand.caller] = rules.alone_point if hand.alone else rules.point
    else:
        for seat in THREE_SEATS:
            if seat != hand.caller:
                points[seat] = rules.euchre
    return points


def hand_winners(hand: ThreeHand, rules: ThreeRules = THREE_HANDED) -> tuple[str, ...]:
    """The seats the hand went to: the caller, or the two defenders."""
    return tuple(seat for seat, points in score_hand(hand, rules).items() if points)


def next_dealer(seat: str) -> str:
    """The deal passes to the left round the three: N, E, S."""
    return THREE_SEATS[(THREE_SEATS.index(seat) + 1) % 3]


def _fewest_hands(points: int, rules: ThreeRules) -> int | None:
    """The fewest made hands that give one caller exactly `points` (1, 2 or 4 a hand at the article's numbers)."""
    values = sorted({rules.point, rules.march, rules.alone_point, rules.alone_march} - {0}, reverse=True)
    fewest: list[int | None] = [0] + [None] * points
    for total in range(1, points + 1):
        options = [count for v in values if v <= total and (count := fewest[total - v]) is not None]
        fewest[total] = min(options) + 1 if options else None
    return fewest[points]


def hands_needed(points: Mapping[str, int], rules: ThreeRules = THREE_HANDED) -> int | None:
    """The fewest hands that give the three seats exactly these totals (None: no number of hands does).

    A euchre of one seat gives each of the other two `rules.euchre`; the rest of each seat's points are its own
    made hands. So try every count of euchres against each seat and add the fewest made hands for what is left."""
    n, e, s = (points[seat] for seat in THREE_SEATS)
    step = rules.euchre
    best: int | None = None
    top = max(n, e, s) // step + 1 if step else 1
    for a in range(top):  # euchres of North: E and S score
        for b in range(top):  # of East: N and S
            for c in range(top):  # of South: N and E
                left = (n - step * (b + c), e - step * (a + c), s - step * (a + b))
                if min(left) < 0:
                    continue
                made = [_fewest_hands(value, rules) for value in left]
                if any(m is None for m in made):
                    continue
                total = a + b + c + sum(m for m in made if m is not None)
                if best is None or total < best:
                    best = total
    return best


def check_totals(points: Mapping[str, int], hands: int, rules: ThreeRules = THREE_HANDED) -> dict[str, str]:
    """Why a table of three's game totals cannot be (seat -> reason), or {} when `hands` hands could make them."""
    errors: dict[str, str] = {}
    most = hands * max(rules.march, rules.alone_march, rules.euchre)
    for seat in THREE_SEATS:
        value = points.get(seat)
        if value is None:
            errors[seat] = "Enter this player's points."
        elif value < 0:
            errors[seat] = "Points are never below 0 at a table of three."
        elif value > most:
            errors[seat] = f"{value} is more than {hands} hands can make (at most {most})."
    if errors:
        return errors
    needed = hands_needed(points, rules)
    if needed is None or needed > hands:
        errors["N"] = f"No {hands} hands make these three scores together (each hand scores the caller or both others)."
    return errors


@dataclass(frozen=True)
class ThreeOutcome:
    """A table of three's game: its players' seats from the most points to the fewest, and how a tie at the top
    was settled ("" when the top score is one player's)."""

    order: tuple[str, ...]
    tie_break: str = ""

    @property
    def winner(self) -> str:
        return self.order[0]


def outcome(
    points: Mapping[str, int],
    *,
    tie_rule: str,
    last_hand_winners: Sequence[str] = (),
    draw_seed: int = 0,
) -> ThreeOutcome:
    """Who won a table of three's game, and the order the movement uses (most points first).

    A tie at the top goes, under the "last hand" rule, to the tied player who won the last hand (when exactly one of
    them did), otherwise to the app's draw (seeded, so the same game always gives the same answer). Lower down, a
    tie keeps seat order."""
    order = sorted(THREE_SEATS, key=lambda seat: -points[seat])
    top = [seat for seat in order if points[seat] == points[order[0]]]
    if len(top) == 1:
        return ThreeOutcome(tuple(order))
    winners_of_last = [seat for seat in top if seat in last_hand_winners]
    if tie_rule == "last_hand" and len(winners_of_last) == 1:
        first, how = winners_of_last[0], "last_hand"
    else:
        first, how = random.Random(draw_seed).choice(top), "draw"
    rest = [seat for seat in order if seat != first]
    return ThreeOutcome((first, *rest), how)


def best_other(points: Mapping[str, int], seat: str) -> int:
    """What a player at a table of three "conceded": the better of the other two's scores."""
    return max(points[other] for other in THREE_SEATS if other != seat)
