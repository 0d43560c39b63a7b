"""How a night's games end, made of parts, the first reached ending it; and, for any totals, whether a game can
stop at them and who won it. Pure Python, no Django.

- The head table's hands (`head_table`, `hands`): its last hand rings the bell for the room (progressive's
  classic rule, 8 hands).
- A points target at each table (`target`): a table whose side reaches it has finished its game (the Euchre
  article's Tournaments paragraph: games "typically to 10 points"; regional variants play to 11 or 15; each bid
  game's own number). At the head table, with the head table's rule on, reaching the target also rings the bell.
  Pepper's "on offense" (`on_offense`): only the side a hand went to reaches the target on it. Both sides at the
  target after one hand (`both_reach`): the team that took the bid (Indiana Double Deck), or the higher total and
  the bidders when level (Pfeffer).
- The timer (`minutes`): its bell; and the organizer's **Ring the bell now**, which any night has.

Whatever rings the bell, every table finishes the hand it is playing; a game the bell ended goes to the higher
total, a tie by the night's tie rule.

`ending` is the one answer every reader asks (the desk, the table's phone, the hand-by-hand entry, the backup's
checks, the room): at these totals, can the game have stopped, and who won? `three_totals_fault` is its twin for a
table of three.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from . import three
from .rules import Ruleset, legal_hands, score_hand
from .seats import SIDES, Side, other_side

# Tables other than the head table deal until the bell or their target; this only stops a runaway entry.
MAX_HANDS_FACTOR = 2
# How far into the hole (and, "on offense", past the target on defence) the search for a game's stopping totals
# looks: a table's totals beyond it are refused as no game (`Stops`). Far beyond any game a table plays.
SEARCH_DEPTH = 150


@dataclass(frozen=True)
class GameEnd:
    hands: int = 8  # the head table's hands a game
    head_table: bool = True  # the head table's last hand rings the bell
    target: int | None = None  # the points at which a table's game is over
    minutes: int | None = None  # the timer's bell
    # Pepper's "on offense" (`Ruleset.target_on_offense`): only the side a hand went to reaches the target on it.
    on_offense: bool = False
    # Both sides at the target after one hand (`Ruleset.both_reach`): "bidders" or "higher".
    both_reach: str = "bidders"

    @classmethod
    def of(cls, end: GameEnd, rules: Ruleset) -> GameEnd:
        """The same ending with the rules' own switches (on offense, both at the target)."""
        return replace(end, on_offense=rules.target_on_offense, both_reach=rules.both_reach)

    @property
    def cap(self) -> int:
        """The most hands any table may enter in one game (a runaway entry is refused beyond it)."""
        return max(self.hands, self.target or 0) * MAX_HANDS_FACTOR

    def head_hands(self, head: bool) -> int | None:
        """The hands a game has at this table when its last hand ends the game for the room (None: any number)."""
        return self.hands if head and self.head_table else None

    def reached(self, ns: int, ew: int, hand_went_to: str | None = None) -> Side | None:
        """The side that won the game at the target with these totals, the hand that made them having gone to
        `hand_went_to` (the makers who made it, or the defenders who set them); None below the target, or without
        one.

        "On offense" only the side the hand went to can have reached the target, whatever the other side's total.
        Both sides at the target after one hand: the team that took the bid (they made it, so the hand went to
        them), or under "higher" the higher total and the bidders when level. Without `hand_went_to` (a game
        entered as totals, which `ending` asks about) the higher side at the target is taken."""
        if self.target is None:
            return None
        went_to = hand_went_to if hand_went_to in SIDES else None
        if self.on_offense and went_to is not None:
            return went_to if (ns if went_to == "NS" else ew) >= self.target else None
        at = [side for side, points in (("NS", ns), ("EW", ew)) if points >= self.target]
        if len(at) < 2:
            return at[0] if at else None
        if went_to is None or (self.both_reach == "higher" and ns != ew):
            return "NS" if ns >= ew else "EW"
        return went_to

    def totals_fault(self, ns: int, ew: int, rules: Ruleset) -> str:
        """Why no game under `rules` stops at these totals ("" when some game does): `ending`'s fault."""
        return ending(self, rules, ns, ew, tie_rule="draw", draw_seed=0).fault

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


@dataclass(frozen=True)
class Ending:
    """How a game stopped at given totals: `fault` when no game can (why, for the person entering it); `ask` when
    the totals do not say who won (the question, answered by naming the team that won the last hand); otherwise
    the winner, how a tie was decided ("last_hand", "draw"; "" when the totals or the target decided), and the side
    that won it at the target (None: the bell or the head table's hands ended the game)."""

    fault: str = ""
    ask: str = ""
    winner: Side | None = None
    tie_break: str = ""
    reached: Side | None = None


def ending(
    end: GameEnd,
    rules: Ruleset,
    ns: int,
    ew: int,
    *,
    last_hand: str | None = None,
    from_hands: bool = False,
    tie_rule: str,
    draw_seed: int | None,
    hands: int | None = None,
) -> Ending:
    """Whether a game under `rules` that ends as `end` says can stop at `ns`–`ew`, and who won it.

    `from_hands`: the totals are the sum of hands entered one by one (each checked as it was entered), the last
    of which went to `last_hand`. Otherwise they were typed from a score sheet: they are checked against every
    game to the target (`stops`), and `last_hand`, the team the keeper says won the last hand, is asked for only
    where the totals leave the winner open (a tie at the bell under the "last hand" rule; both sides past the
    target in a bid game; "on offense", a side past it that may have got there on defence). `hands`: the most
    hands this table's game can have had (the head table's 8, a count the score sheet gives; None: the cap), so
    the game that stops here is one game of that many hands at most; whether its totals are that many hands'
    worth is `rules.check_game_totals`' to check."""
    if from_hands:
        return _outcome(end, ns, ew, last_hand if last_hand in SIDES else None, None, tie_rule, draw_seed)
    most = end.cap if hands is None else min(hands, end.cap)
    found = stops(rules, end.target, end.on_offense, most) if end.target is not None else None
    if found is None:
        candidates: dict[Side, bool | None] = dict.fromkeys(SIDES, None)
    else:
        candidates = {side: how for side in SIDES if (how := found.how(ns, ew, side)) is not None}
        if not candidates:
            anywhere = stops(rules, end.target, end.on_offense, end.cap) if most < end.cap else found
            if any(anywhere.how(ns, ew, side) is not None for side in SIDES):
                return Ending(
                    fault=f"No game to {end.target} of {most} hands or fewer ends at N–S {ns}, E–W {ew}: it would "
                    f"have stopped sooner, or needs more hands. Check the score sheet."
                )
            return Ending(fault=found.fault(ns, ew))
    outcomes = {side: _outcome(end, ns, ew, side, how, tie_rule, draw_seed) for side, how in candidates.items()}
    decided = {(each.winner, each.tie_break) for each in outcomes.values()}
    if len(decided) == 1:  # the same winner whichever way the game stopped
        reached = {each.reached for each in outcomes.values()}
        return replace(next(iter(outcomes.values())), reached=reached.pop() if len(reached) == 1 else None)
    if last_hand in outcomes:  # the answer to the question: the team that won the last hand
        return outcomes[last_hand]
    return Ending(ask=_question(end, ns, ew))


def _outcome(
    end: GameEnd, ns: int, ew: int, went_to: Side | None, at_target: bool | None, tie_rule: str, draw_seed: int | None
) -> Ending:
    """Who won at these totals, the last hand having gone to `went_to`; `at_target`: the game stopped at the
    target (True), at the bell (False), or whichever the totals say (None)."""
    side = end.reached(ns, ew, went_to) if at_target is not False else None
    if side is not None:
        return Ending(winner=side, reached=side)
    if ns != ew:
        return Ending(winner="NS" if ns > ew else "EW")
    if tie_rule == "draw":
        return Ending(winner=random.Random(draw_seed).choice(SIDES), tie_break="draw")
    if went_to is None:
        return Ending(ask="The game is tied: say which team won the last hand.")
    return Ending(winner=went_to, tie_break="last_hand")


def _question(end: GameEnd, ns: int, ew: int) -> str:
    target = end.target
    if target is not None and end.on_offense and max(ns, ew) >= target:
        return (
            f"{target} counts only on offense: say which team won the last hand (the bidders if they made their "
            "bid, the defenders if they set them)."
        )
    if target is not None and min(ns, ew) >= target:
        return (
            f"Both sides are at {target} or more: say which team won the last hand (the team that bid it and made "
            "its bid wins)."
        )
    return "The game is tied: say which team won the last hand."


@dataclass(frozen=True)
class Stops:
    """Every total at which a game to `target` can stop, and the team its last hand can have gone to: for each
    side, the set of (N–S, E–W) totals of the games it ended at the target, and of those the bell ended short of it
    (after one hand or more). A set is one integer's bits, a row of `stride` bits for each N–S total from `low`,
    E–W total `ew` at bit `ew - low + margin` of its row. Totals below `low` or above `high` were not searched."""

    target: int
    low: int
    high: int
    stride: int
    margin: int
    at_target: Mapping[Side, int]
    at_bell: Mapping[Side, int]
    past: bool = False  # a side plays on past the target ("on offense"): `high` is the search's bound, not the game's

    def bit(self, ns: int, ew: int) -> int:
        return (ns - self.low) * self.stride + ew - self.low + self.margin

    def how(self, ns: int, ew: int, went_to: Side) -> bool | None:
        """A game whose last hand went to `went_to` can stop here: at the target (True), at the bell (False);
        None: no such game."""
        if not (self.low <= ns <= self.high and self.low <= ew <= self.high):
            return None
        bit = self.bit(ns, ew)
        if self.at_target[went_to] >> bit & 1:
            return True
        if self.at_bell[went_to] >> bit & 1:
            return False
        return None

    def pairs(self, states: int) -> set[tuple[int, int]]:
        """The (N–S, E–W) totals of a set."""
        found: set[tuple[int, int]] = set()
        for ns in range(self.low, self.high + 1):
            row = states >> self.bit(ns, self.low) & ((1 << (self.high - self.low + 1)) - 1)
            found.update((ns, self.low + col) for col in range(row.bit_length()) if row >> col & 1)
        return found

    def fault(self, ns: int, ew: int) -> str:
        if min(ns, ew) < self.low or (self.past and max(ns, ew) > self.high):
            return f"A game to {self.target} stays between {self.low} and {self.high} points: check the score sheet."
        return (
            f"No game to {self.target} ends at N–S {ns}, E–W {ew} under these rules: the game stops at the hand "
            f"that takes one side to {self.target}."
        )


def hand_steps(rules: Ruleset) -> frozenset[tuple[int, int, Side]]:
    """Every (to N–S, to E–W, the side the hand went to) one hand can give under `rules`, either side making."""
    steps = set()
    for hand in legal_hands(rules):
        score = score_hand(hand, rules)
        steps.add((score.ns, score.ew, score.winner))
        steps.add((score.ew, score.ns, other_side(score.winner)))
    return frozenset(steps)


@functools.lru_cache(maxsize=64)
def stops(rules: Ruleset, target: int, on_offense: bool, hands: int) -> Stops:
    """Every game of at most `hands` hands to `target` under `rules`, searched over (N–S, E–W) states: from 0–0,
    each hand the rules allow, until the hand that ends the game at the target (any side at it; "on offense" the
    side the hand went to). Every state short of it is a total the bell may end the game at. A set of states is
    one integer's bits, so a hand moves all of them at once by a shift: the bid games' tens of thousands of states
    take a fraction of a second."""
    steps = sorted(hand_steps(rules))
    margin = max(max(abs(add_ns), abs(add_ew)) for add_ns, add_ew, _ in steps)
    low = -SEARCH_DEPTH
    # Short of the target both sides are below it, unless "on offense", where a side plays on past it on defence.
    high = max(SEARCH_DEPTH, target + margin) if on_offense else target - 1 + margin
    width = high - low + 1
    stride = width + 2 * margin  # a margin each side of a row takes the E–W totals a hand moves out of the box
    row = ((1 << width) - 1) << margin
    inside = sum(row << (stride * index) for index in range(width))
    rows_past = sum(row << (stride * (ns - low)) for ns in range(max(target, low), high + 1))  # N–S at the target
    col_past = ((1 << (high - target + 1)) - 1) << (target - low + margin) if target <= high else 0
    cols_past = sum(col_past << (stride * index) for index in range(width))  # E–W at the target
    over = {  # the states at which a hand that went to this side ends the game
        side: (rows_past if side == "NS" else cols_past) if on_offense else rows_past | cols_past for side in SIDES
    }
    at_target = dict.fromkeys(SIDES, 0)
    at_bell = dict.fromkeys(SIDES, 0)
    seen = frontier = 1 << ((0 - low) * stride + 0 - low + margin)
    moves = [(add_ns * stride + add_ew, went_to) for add_ns, add_ew, went_to in steps]
    for _ in range(hands):
        reached = 0
        for shift, went_to in moves:
            moved = (frontier << shift if shift >= 0 else frontier >> -shift) & inside
            ended = moved & over[went_to]
            at_target[went_to] |= ended
            alive = moved ^ ended
            at_bell[went_to] |= alive
            reached |= alive
        frontier = reached & ~seen
        if not frontier:
            break
        seen |= frontier
    return Stops(target, low, high, stride, margin, at_target, at_bell, on_offense)


@functools.lru_cache(maxsize=64)
def target_ends(rules: Ruleset, target: int, hands: int) -> frozenset[tuple[int, int]]:
    """Every (N–S, E–W) score at which a game to `target` of at most `hands` hands stops at the target (the
    standard games' set, as a set of pairs; `stops` holds it for every game)."""
    found = stops(rules, target, False, hands)
    ends = found.pairs(found.at_target["NS"]) | found.pairs(found.at_target["EW"])
    return frozenset(ends)


def three_totals_fault(end: GameEnd, points: Mapping[str, int], rules: three.ThreeRules = three.THREE_HANDED) -> str:
    """Why no game of three to the night's target stops at these points ("" when one does, or with no target, or
    below it): a table of three's game stops at the hand that takes a player to the target, so before it every
    player was below it, and a hand gives one player at most a loner's march, or each of two a euchre."""
    target = end.target
    if target is None or max(points.values()) < target:
        return ""
    for hand in three_steps(rules):
        before = {seat: points[seat] - hand.get(seat, 0) for seat in three.THREE_SEATS}
        if (
            min(before.values()) >= 0
            and max(before.values()) < target
            and three.hands_needed(before, rules) is not None
        ):
            return ""
    return (
        f"No game to {target} at a table of three ends at these points: the game stops at the hand that takes one "
        f"player to {target}."
    )


def three_steps(rules: three.ThreeRules = three.THREE_HANDED) -> list[dict[str, int]]:
    """Every seat's points one hand of three can give (the caller's, or each defender's euchre)."""
    values = {rules.point, rules.march, rules.alone_point, rules.alone_march} - {0}
    made = [{seat: value} for seat in three.THREE_SEATS for value in sorted(values)]
    euchred = [{seat: rules.euchre for seat in three.THREE_SEATS if seat != caller} for caller in three.THREE_SEATS]
    return made + euchred
