"""How a night's games end, made of parts, the first reached ending it. Pure Python, no Django.

- The head table's hands (`head_table`, `hands`): its last hand rings the bell for the room (progressive's
  classic rule, 8 hands).
- A points target at each table (`target`): a table whose side reaches it has finished its game (the Euchre
  article's Tournaments paragraph: games "typically to 10 points"; regional variants play to 11 or 15). At the
  head table, with the head table's rule on, reaching the target also rings the bell: the head table is done.
- The timer (`minutes`): its bell.

Whatever rings the bell, every table finishes the hand it is playing; a night where no part is set ends each game
at the organizer's bell.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .rules import Ruleset, hand_totals

# Tables other than the head table deal until the bell or their target; this only stops a runaway entry.
MAX_HANDS_FACTOR = 2


@dataclass(frozen=True)
class GameEnd:
    hands: int = 8  # the head table's hands a game
    head_table: bool = True  # the head table's last hand rings the bell
    target: int | None = None  # the points at which a table's game is over
    minutes: int | None = None  # the timer's bell
    # Pepper's "on offense" (`Ruleset.target_on_offense`): only the side a hand went to reaches the target on it.
    on_offense: bool = False

    @property
    def cap(self) -> int:
        """The most hands any table may enter in one game (a runaway entry is refused beyond it)."""
        return max(self.hands, self.target or 0) * MAX_HANDS_FACTOR

    def head_hands(self, head: bool) -> int | None:
        """The hands a game has at this table when its last hand ends the game for the room (None: any number)."""
        return self.hands if head and self.head_table else None

    def reached(self, ns: int, ew: int, hand_went_to: str | None = None) -> str | None:
        """The side ("NS" or "EW") that has reached the target with these totals; None below it or without one.

        `hand_went_to` is the side the game's last hand went to (the makers who made it, or the defenders who set
        them): "on offense" only that side can have reached the target, whatever the other side's total. Without
        it (a game entered as totals) the higher side at the target is taken."""
        if self.target is None:
            return None
        if self.on_offense and hand_went_to in ("NS", "EW"):
            return hand_went_to if (ns if hand_went_to == "NS" else ew) >= self.target else None
        if max(ns, ew) < self.target:
            return None
        return "NS" if ns >= ew else "EW"

    def totals_fault(self, ns: int, ew: int, rules: Ruleset) -> str:
        """Why game totals at or past the target cannot end a game to it ("" when they can, when both sides are
        below it, or when there is no target): the game stops at the hand that takes a side to the target."""
        if self.target is None or max(ns, ew) < self.target or self.on_offense:
            return ""  # "on offense" both sides may stand past the target: only the cap on hands bounds the game
        steps = hand_totals(rules)
        if any(min(step) < 0 or min(step) > 0 for step in steps):
            # The bid games (both sides score in a hand, or a side loses points): far too many games to walk, so
            # only the bound every game keeps: before its last hand the winner was below the target.
            highest = self.target - 1 + max(max(step) for step in steps)
            if max(ns, ew) <= highest:
                return ""
            return f"A game to {self.target} ends at {highest} points at most under these rules."
        if (ns, ew) in target_ends(rules, self.target, self.cap):
            return ""
        return (
            f"No game to {self.target} ends at N–S {ns}, E–W {ew} under these rules: the game stops at the hand "
            f"that takes one side to {self.target}."
        )

    def words(self) -> str:
        """The night's rule for the room and the printed sheets, e.g. "Each game ends at the head table's 8th
        hand, at 10 points at a table, or at the 20-minute bell"."""
        parts = []
        if self.head_table:
            parts.append(f"at the head table's {ordinal(self.hands)} hand")
        if self.target is not None:
            parts.append(f"at {self.target} points at a table")
        if self.minutes is not None:
            parts.append(f"at the {self.minutes}-minute bell")
        if not parts:
            return "Each game ends at the organizer's bell"
        if len(parts) == 1:
            return f"Each game ends {parts[0]}"
        return f"Each game ends {', '.join(parts[:-1])} or {parts[-1]}"


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@functools.lru_cache(maxsize=64)
def target_ends(rules: Ruleset, target: int, hands: int) -> frozenset[tuple[int, int]]:
    """Every (N–S, E–W) score at which a game to `target` of at most `hands` hands can stop: the hand that takes a
    side to the target (or past it) ends it, so every score before that hand has both sides below it. For rules
    where each hand scores one side only, never negative (the euchre presets): the states stay below the target."""
    steps = sorted(hand_totals(rules))
    ends: set[tuple[int, int]] = set()
    seen = {(0, 0)}
    level = [(0, 0)]
    for _ in range(hands):
        following = []
        for ns, ew in level:
            for add_ns, add_ew in steps:
                score = (ns + add_ns, ew + add_ew)
                if max(score) >= target:
                    ends.add(score)
                elif score not in seen:
                    seen.add(score)
                    following.append(score)
        level = following
    return frozenset(ends)
