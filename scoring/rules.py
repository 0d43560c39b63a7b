"""Scoring rules: one hand -> points for each side and the tally extras it earns, under a ruleset.

Pure Python, no Django. A ruleset is data: named numbers and switches, stored with the night as a dict, so an
organizer can start from a preset and change any number. Each rule lives in one place below.

Sources of the presets (shared/seeds/):
* standard — the Euchre article's scoring table (001).
* progressive — the Progressive Euchre "Scoring" paragraph of the Bid Euchre article (000).
* euchred-loner-3, defend-alone-1, defend-alone-2, blind-loner — the Euchre article's variations (001).
* hall-minus, loner-bonus — hall rules seen at real nights (not in the texts; the numbers are examples).
* bid-euchre — the Bid Euchre / Pepper "Scoring" section (000).
* double-deck, double-deck-36, midwest-pepper, pfeffer, buck — the Bid Euchre article's Indiana Double Deck, its
  other double-deck variation, Pepper (Midwest), Pfeffer and Buckpfeffer sections (000): quoted beside each preset.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator, Mapping
from dataclasses import asdict, astuple, dataclass, field, fields, replace
from typing import Any, Literal

# Seats and sides are `seats`' to say; the rules name them here too, as they always have.
from .seats import SEATS as SEATS
from .seats import SIDE_SEATS, Seat, Side, other_side
from .seats import SIDES as SIDES
from .seats import next_dealer as next_dealer
from .seats import side_of as side_of

TieRule = Literal["last_hand", "draw"]
DefendAlone = Literal["off", "vs_loner", "any"]
BidScore = Literal["tricks", "bid"]
SetLoss = Literal["fixed", "bid"]
ShutoutLoss = Literal["fixed", "made", "bid"]
PepperDefence = Literal["tricks", "set"]
BothReach = Literal["bidders", "higher"]
Pepper = str  # "little" or "big": a plain string as it comes from forms and the database; the rules check it

# The rules speak of seats and sides as `seats` says them; `other` and `SEATS_OF` are the rules' own names for them.
SEATS_OF = SIDE_SEATS
other = other_side
TIE_RULES: dict[str, str] = {
    "last_hand": "the team that won the last hand",
    "draw": "a draw by the app, recorded on the table's result",
}


class ScoringError(ValueError):
    """A hand, game or ruleset that cannot be scored; the message says why, for the person entering it."""


@dataclass(frozen=True)
class Ruleset:
    """What a hand is worth. Numbers are points to the side named; a negative number is taken off that side."""

    name: str = "custom"
    tricks_per_hand: int = field(
        default=5, metadata={"label": "Tricks a hand (5, 6, or 12 double deck)", "min": 5, "max": 12}
    )
    # Makers who make their point (a majority of the tricks).
    makers_point: int = field(default=1, metadata={"label": "Makers take 3 or 4 tricks"})
    makers_march: int = field(default=2, metadata={"label": "Makers take every trick (a march)"})
    alone_point: int = field(default=1, metadata={"label": "Loner takes 3 or 4 tricks"})
    alone_march: int = field(default=4, metadata={"label": "Loner takes every trick"})
    blind_loner_march: int = field(
        default=0, metadata={"label": "Blind double loner takes every trick (0: not played)"}
    )
    # Makers euchred: points to the defenders, and (hall rule) points off the makers.
    euchre: int = field(default=2, metadata={"label": "Defenders euchre the makers"})
    euchre_alone: int = field(default=2, metadata={"label": "Defenders euchre a loner"})
    euchre_sweep: int = field(default=2, metadata={"label": "Defenders take every trick (a euchre sweep)"})
    euchred_makers: int = field(default=0, metadata={"label": "Makers euchred: to the makers (e.g. −2)"})
    euchred_loner: int = field(default=0, metadata={"label": "Loner euchred: to the makers (e.g. −4)"})
    # Defending alone: off, only against a loner (form 1), or against any maker (form 2).
    defend_alone: DefendAlone = field(
        default="off",
        metadata={
            "label": "Defending alone",
            "choices": {"off": "Not played", "vs_loner": "Only against a loner", "any": "Against any maker"},
        },
    )
    defend_alone_euchre: int = field(default=4, metadata={"label": "Lone defender euchres the makers"})
    defend_alone_sweep: int = field(default=8, metadata={"label": "Lone defender takes every trick"})
    # Personal bonus: to the lone player's own tally only, never to the partner or the table's score.
    loner_bonus: int = field(default=0, metadata={"label": "Personal bonus for a loner that takes every trick"})
    # Bid euchre / pepper.
    bidding: bool = field(default=False, metadata={"label": "Bidding (bid euchre / pepper)"})
    per_trick: int = field(default=1, metadata={"label": "Bid made: per trick taken by the bidders"})
    set_back: int = field(default=6, metadata={"label": "Bid missed: taken off the bidders"})
    defender_per_trick: int = field(default=1, metadata={"label": "Defenders: per trick taken"})
    defender_shutout: int = field(default=6, metadata={"label": "Defenders take no trick: taken off them"})
    little_pepper: int = field(default=12, metadata={"label": "Little pepper made (lost: taken off; 0: not played)"})
    big_pepper: int = field(default=14, metadata={"label": "Big pepper made (lost: taken off; 0: not played)"})
    # The bid games' other shapes (Double Deck, Midwest Pepper, Pfeffer): what a made bid scores, what a set costs.
    min_bid: int = field(default=1, metadata={"label": "Lowest bid (tricks)"})
    made_scores: BidScore = field(
        default="tricks",
        metadata={
            "label": "Bid made: the bidders score",
            "choices": {"tricks": "Their tricks (× the points a trick)", "bid": "The bid"},
        },
    )
    set_loses: SetLoss = field(
        default="fixed",
        metadata={"label": "Bid missed: the bidders lose", "choices": {"fixed": "The set-back", "bid": "The bid"}},
    )
    shutout_loses: ShutoutLoss = field(
        default="fixed",
        metadata={
            "label": "Defenders take no trick: they lose",
            "choices": {
                "fixed": "The fixed amount (“taken off them”)",
                "made": "What the bidders score",
                "bid": "The bid",
            },
        },
    )
    march_adds_bid: bool = field(default=False, metadata={"label": "Bidders take every trick: their bid added"})
    # Midwest Pepper: "Opponents are allowed to "pass" playing the hand to avoid scoring penalties … if opponents
    # pass and don't play the hand, no points are awarded to them and bidder scores."
    defenders_may_pass: bool = field(
        default=False, metadata={"label": "The opponents may pass (not play the hand): the bidders score their bid"}
    )
    # Pfeffer's Hickeys: "lose 5 points and receive a Hickey … lose 10 points and receive 2 Hickeys" — a count of
    # the sets each side took, kept beside the score (the text uses them for wagers, not points).
    hickeys: bool = field(default=False, metadata={"label": "Count Hickeys (Pfeffer: the sets each side takes)"})
    # Pepper's "on offense": a side reaches the points target only on a hand that goes to it (its bid made, or the
    # bidders set); points past it on defence do not end the game.
    target_on_offense: bool = field(
        default=False, metadata={"label": "The points target is reached only on offense (a bid made, or a set)"}
    )
    # Both sides at the target after the same hand (a bid game: both score in a hand). Indiana Double Deck: "If both
    # teams get 50 or more points on the same hand, the team that took the bid is the winner"; Pfeffer: "In cases of
    # a tie at 42, the bidding team wins" (read: the higher total, the bidders when level). `scoring.ending` decides.
    both_reach: BothReach = field(
        default="bidders",
        metadata={
            "label": "Both sides reach the target on the same hand: the winner is",
            "choices": {
                "bidders": "The team that took the bid",
                "higher": "The higher total (level: the team that took the bid)",
            },
        },
    )
    pepper_set: int = field(default=0, metadata={"label": "Pepper lost: taken off (0: the pepper's value)"})
    pepper_defenders: PepperDefence = field(
        default="tricks",
        metadata={
            "label": "Against a pepper the defenders score",
            "choices": {"tricks": "Their tricks", "set": "The pepper's value when they set it, else nothing"},
        },
    )
    # What the table calls its two pepper bids ("little pepper,big pepper"; Midwest Pepper's "Small,Big").
    pepper_names: str = field(
        default="little pepper,big pepper", metadata={"label": "The two pepper bids' names (a comma between)"}
    )

    def __hash__(self) -> int:
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        """The hash, worked out once: a ruleset is the key of the rules' caches, asked on every score."""
        return hash(astuple(self))

    def __getstate__(self) -> dict[str, Any]:
        """A copy or a pickle works its own hash out (a string's hash differs from one process to the next)."""
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}

    @property
    def needed(self) -> int:
        """Tricks the makers need without a bid: a majority."""
        return self.tricks_per_hand // 2 + 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """A ruleset from stored data; unknown keys are ignored and missing ones take the default."""
        known = {f.name for f in fields(cls)}
        ruleset = cls(**{key: value for key, value in data.items() if key in known})
        check_ruleset(ruleset)
        return ruleset


def rule_fields() -> list[tuple[str, str, Any]]:
    """(name, label, default) of every number and switch, for the organizer's form."""
    return [(f.name, f.metadata["label"], f.default) for f in fields(Ruleset) if "label" in f.metadata]


def rule_choices(name: str) -> dict[str, str] | None:
    """The choices of a rule that is one of a few words (value -> words), None for a number or a switch."""
    return next((f.metadata.get("choices") for f in fields(Ruleset) if f.name == name), None)


def check_ruleset(rules: Ruleset) -> None:
    if rules.tricks_per_hand not in (5, 6, 12):
        raise ScoringError("A hand has 5 tricks (euchre), 6 (bid euchre) or 12 (double deck).")
    if rules.bidding and rules.tricks_per_hand == 5:
        raise ScoringError("Bid euchre deals six cards: set tricks a hand to 6 (or 12 with a double deck).")
    if not rules.bidding and rules.tricks_per_hand == 12:
        raise ScoringError("Twelve tricks a hand is the double-deck bid game: switch bidding on.")
    for f in fields(Ruleset):
        choices = f.metadata.get("choices")
        if choices and getattr(rules, f.name) not in choices:
            raise ScoringError(f"{f.metadata['label']}: {', '.join(choices.values()).lower()}.")
    for name in ("set_back", "defender_shutout", "little_pepper", "big_pepper", "pepper_set"):
        if getattr(rules, name) < 0:
            raise ScoringError("Set-backs and pepper values are amounts taken off: enter them without a minus.")
    if not 1 <= rules.min_bid <= rules.tricks_per_hand:
        raise ScoringError(f"The lowest bid is 1 to {rules.tricks_per_hand} tricks.")
    names = rules.pepper_names.split(",")
    if len(names) != 2 or len(rules.pepper_names) > 40 or not all(name.strip() for name in names):
        raise ScoringError("Name the two pepper bids, separated by a comma (40 characters at most).")


STANDARD = Ruleset(name="standard")
# "If the team that won the bid got the number of tricks they bid, or more, they get points equal to their bid …
# If the team that wins the bid takes less tricks than the number they bid, they are “set” … and their score is
# reduced by the number they bid … The team that does not take the bid gets 1 point for every trick taken"
# (Indiana Double Deck: 48 cards, 12 a player, "a minimum of 3", game to 50).
DOUBLE_DECK = replace(
    STANDARD,
    name="double-deck",
    tricks_per_hand=12,
    bidding=True,
    min_bid=3,
    made_scores="bid",
    set_loses="bid",
    defender_shutout=0,
    little_pepper=0,
    big_pepper=0,
)
PRESETS: dict[str, Ruleset] = {
    rules.name: rules
    for rules in (
        STANDARD,
        # "one point for 3 or 4 tricks, 2 points for all 5 tricks, 4 points for a loner … 2 points goes to other
        # partners score. A euchre sweep nets 4 points."
        replace(STANDARD, name="progressive", euchre_sweep=4),
        replace(STANDARD, name="euchred-loner-3", euchre_alone=3),
        replace(STANDARD, name="defend-alone-1", defend_alone="vs_loner", defend_alone_euchre=8, defend_alone_sweep=8),
        replace(STANDARD, name="defend-alone-2", defend_alone="any", defend_alone_euchre=4, defend_alone_sweep=8),
        replace(STANDARD, name="blind-loner", blind_loner_march=8),
        replace(STANDARD, name="hall-minus", euchred_makers=-2, euchred_loner=-4),
        replace(STANDARD, name="loner-bonus", loner_bonus=2),
        # "to win, a team must reach 42 on offense, meaning that a team with a point total near 42 must win the bid,
        # meet its contract, and exceed 42 points … a team with 41 points cannot play defense and, by winning one
        # trick, get 42 and win. The exception to this rule is when the defensive side "sets" the offense and, in
        # doing so, meets or exceeds 42 points." (the Pepper section; its target is 42, PRESET_TARGETS)
        replace(STANDARD, name="bid-euchre", tricks_per_hand=6, bidding=True, target_on_offense=True),
        DOUBLE_DECK,
        # "If you make your bid, you get one point for each trick your team takes. If the team with highest bid
        # fails to make their bid, they lose a points equal to their bid. Their opponents get one point for each
        # trick they take. Game is won by the first team to score 36 points." (a 48-card deck, minimum bid 3)
        replace(DOUBLE_DECK, name="double-deck-36", made_scores="tricks"),
        # Midwest Pepper: "minimum bid is 4 … Bidder scores 4,5 or 6 points for bids 4 through 6. Small is 7
        # points, Big is 14 points. Opponents get 1 point for each trick taken in bids 4-6. If opponents fail to
        # get a single trick, they lose the same number of points as winning bidder gains … In Small or Big, when
        # bidder is set opponents gain 7 or 14 points and bidder loses 7 or 14 points." A bid of 4–6 that is set is
        # not given: it loses the bid here, as Small and Big lose theirs (README).
        replace(
            STANDARD,
            name="midwest-pepper",
            tricks_per_hand=6,
            bidding=True,
            min_bid=4,
            made_scores="bid",
            set_loses="bid",
            shutout_loses="made",
            little_pepper=7,
            big_pepper=14,
            pepper_defenders="set",
            pepper_names="Small,Big",
            defenders_may_pass=True,
        ),
        # Pfeffer: "Trump Bids are the numbers Four through Six, and Pfeffer … the team that declared trump scores
        # one point for each trick taken if they took at least as many tricks as were bid. If the declaring team
        # takes all 6 tricks, they get 6 points and the opposing are “set”, lose 5 points … If the declaring team
        # takes less than the number of tricks bid, they are “set”, lose 5 points … For Pfeffer Bids, if the
        # declaring team takes all 6 tricks, they get 12 points … If the declaring team fails to take all 6 tricks,
        # they are set, lose 10 points … In all cases, the opposing team simply scores one point for every trick
        # they take." Game to 42.
        replace(
            STANDARD,
            name="pfeffer",
            tricks_per_hand=6,
            bidding=True,
            min_bid=4,
            set_back=5,
            defender_shutout=5,
            little_pepper=0,
            big_pepper=12,
            pepper_set=10,
            pepper_names="-,Pfeffer",
            hickeys=True,
            both_reach="higher",
        ),
        # Buck ("BuckenPeffer"): "The minimum bid is three … Points awarded are number of tricks taken and the game is
        # generally played to 25 or more … if a team takes all six tricks after calling trump, or skunking the other
        # team, they score six plus the number of the tricks they bid. The skunked team has the number of the winning
        # trump bid subtracted from their score." Not in the text: what bidders who miss their bid lose (here the
        # bid, as in the other bid games), and the "burns" (wagers, not points). No pepper bid is described.
        replace(
            STANDARD,
            name="buck",
            tricks_per_hand=6,
            bidding=True,
            min_bid=3,
            set_loses="bid",
            shutout_loses="bid",
            march_adds_bid=True,
            little_pepper=0,
            big_pepper=0,
        ),
    )
}
PRESET_LABELS: dict[str, str] = {
    "standard": "Standard (Euchre scoring table)",
    "progressive": "Progressive night (euchre sweep 4)",
    "euchred-loner-3": "Euchred loner worth 3",
    "defend-alone-1": "Defending alone against a loner (8)",
    "defend-alone-2": "Defending alone (4, or 8 for every trick)",
    "blind-loner": "Blind double loner worth 8",
    "hall-minus": "Hall rules: −2 for being euchred, −4 on a loner",
    "loner-bonus": "Hall rules: personal loner bonus",
    "bid-euchre": "Bid euchre / pepper (six cards)",
    "double-deck": "Double deck bid euchre, Indiana (12 cards, the bid scores; to 50)",
    "double-deck-36": "Double deck bid euchre, tricks score (12 cards; to 36)",
    "midwest-pepper": "Midwest Pepper (bids 4–6 score the bid, Small 7, Big 14)",
    "pfeffer": "Pfeffer (bids 4–6, a Pfeffer 12, set back 5; to 42)",
    "buck": "Buck (bids 3–6, tricks score, all six add the bid; to 25)",
}
# The points a bid game is played to, as its section says: a night on the preset takes it as its points target
# unless the organizer sets one. Bid euchre and Midwest Pepper ("Same as Pepper"): "the standard winning number is
# 42"; Indiana Double Deck 50; the other double deck 36; Pfeffer "Game is to 42"; Buck "25 or more".
PRESET_TARGETS: dict[str, int] = {
    "bid-euchre": 42,
    "double-deck": 50,
    "double-deck-36": 36,
    "midwest-pepper": 42,
    "pfeffer": 42,
    "buck": 25,
}


@dataclass(frozen=True)
class Hand:
    """One hand as played.

    `makers` made trump (in bid euchre: won the bid); `tricks` is how many the makers took. `maker` is the seat of
    the player who called, needed for a loner. `alone`: that player went alone; `blind`: a blind double loner.
    `defender_alone` is the seat of a defender who defended alone. `bid` is the bid in tricks, or `pepper`.
    """

    makers: Side
    tricks: int
    alone: bool = False
    maker: Seat | None = None
    blind: bool = False
    defender_alone: Seat | None = None
    bid: int | None = None
    pepper: Pepper | None = None
    # Who dealt: kept with the hand for the record (the deal passes to the left); no rule depends on it.
    dealer: Seat | None = None
    # The side that reneged (failed to follow suit): the hand is forfeited to the other side (`forfeited`).
    renege: Side | None = None
    # Midwest Pepper: the opponents passed, the hand was not played (`Ruleset.defenders_may_pass`).
    passed: bool = False

    @classmethod
    def of(cls, hand: Any) -> Hand:
        """The same hand from anything carrying these fields: a form's draft, a simulated hand, a stored row
        (whose empty strings mean "none")."""
        values: dict[str, Any] = {name: getattr(hand, name, None) or _NONE.get(name) for name in _HAND_FIELDS}
        return cls(**values)


_HAND_FIELDS = (
    "makers",
    "tricks",
    "alone",
    "maker",
    "blind",
    "defender_alone",
    "bid",
    "pepper",
    "dealer",
    "renege",
    "passed",
)
# What a missing or empty field means, for the fields that are not "none" when empty.
_NONE: dict[str, Any] = {"tricks": 0, "alone": False, "blind": False, "makers": "", "passed": False}


@dataclass(frozen=True)
class Extras:
    """What a hand adds to one player's tally besides the team score."""

    loners_tried: int = 0
    loners_made: int = 0
    euchres: int = 0  # euchres (sets) made against the opponents
    marches: int = 0
    bonus: int = 0  # personal points, on this player's tally only

    def __add__(self, other: Extras) -> Extras:
        return Extras(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


NO_EXTRAS = Extras()


@dataclass(frozen=True)
class HandScore:
    ns: int
    ew: int
    winner: Side  # the side the hand went to: the makers if they made it, else the defenders
    extras: Mapping[str, Extras] = field(default_factory=dict)  # by seat

    def of(self, side: str) -> int:
        return self.ns if side == "NS" else self.ew


def may_defend_alone(rules: Ruleset, *, against_loner: bool) -> bool:
    """Whether a defender may defend alone against these makers (the rule the hand-entry page offers it by)."""
    return rules.defend_alone == "any" or (rules.defend_alone == "vs_loner" and against_loner)


def _check(hand: Hand, rules: Ruleset) -> None:
    if hand.makers not in SIDES:
        raise ScoringError(f"Makers must be N–S or E–W, not {hand.makers!r}.")
    if (
        isinstance(hand.tricks, bool)
        or not isinstance(hand.tricks, int)
        or not 0 <= hand.tricks <= rules.tricks_per_hand
    ):
        raise ScoringError(f"The makers' tricks must be between 0 and {rules.tricks_per_hand}.")
    if hand.maker is not None and hand.maker not in SEATS_OF[hand.makers]:
        raise ScoringError(f"{hand.maker} is not on the makers' side ({hand.makers}).")
    if hand.alone and hand.maker is None and rules.loner_bonus:
        raise ScoringError("Say which player went alone: the loner bonus is theirs.")
    if hand.blind and not hand.alone:
        raise ScoringError("A blind double loner is played alone.")
    if hand.blind and not rules.blind_loner_march:
        raise ScoringError("The blind double loner is not played under these rules.")
    if hand.defender_alone is not None:
        if hand.defender_alone not in SEATS_OF[other(hand.makers)]:
            raise ScoringError("Only a defender can defend alone, and the defenders are the other side.")
        if rules.defend_alone == "off":
            raise ScoringError("Defending alone is not played under these rules.")
        if not may_defend_alone(rules, against_loner=hand.alone):
            raise ScoringError("Under these rules a defender may defend alone only against a loner.")
    if rules.bidding:
        if hand.pepper is not None:
            if hand.pepper not in ("little", "big"):
                raise ScoringError("A pepper bid is little or big.")
            if hand.bid is not None:
                raise ScoringError("A pepper bid replaces the number of tricks bid.")
            if not pepper_value(hand.pepper, rules):
                played = ", ".join(pepper_name(pepper, rules) for pepper in peppers_played(rules)) or "none"
                raise ScoringError(f"That pepper bid is not played under these rules (its pepper bids: {played}).")
        elif hand.bid is None or not rules.min_bid <= hand.bid <= rules.tricks_per_hand:
            peppers = ", or a pepper" if peppers_played(rules) else ""
            raise ScoringError(f"Record the bid: {rules.min_bid} to {rules.tricks_per_hand} tricks{peppers}.")
        if hand.blind:
            raise ScoringError("There is no blind loner in bid euchre.")
    elif hand.bid is not None or hand.pepper is not None:
        raise ScoringError("Bids are recorded only when the night plays bid euchre.")


def pepper_value(pepper: Pepper, rules: Ruleset) -> int:
    """What a pepper bid is worth made (0: not played under these rules)."""
    return rules.little_pepper if pepper == "little" else rules.big_pepper


def pepper_name(pepper: Pepper, rules: Ruleset) -> str:
    """What the table calls a pepper bid: "little pepper", "Small", "Pfeffer"."""
    little, big = rules.pepper_names.split(",")
    return (little if pepper == "little" else big).strip()


def peppers_played(rules: Ruleset) -> list[Pepper]:
    return [pepper for pepper in ("little", "big") if pepper_value(pepper, rules)]


def _bid_points(hand: Hand, rules: Ruleset) -> tuple[int, int, bool]:
    """(to the bidders, to the defenders, bid made) in the bid games."""
    all_tricks = rules.tricks_per_hand
    defended = all_tricks - hand.tricks
    if hand.pepper is not None:
        value = pepper_value(hand.pepper, rules)
        made = hand.tricks == all_tricks
        bidders = value if made else -(rules.pepper_set or value)
        if rules.pepper_defenders == "set":  # Midwest Pepper: the defenders score the pepper only by setting it
            return bidders, 0 if made else value, made
    else:
        bid = hand.bid or 0
        made = hand.tricks >= bid
        if made:
            bidders = bid if rules.made_scores == "bid" else hand.tricks * rules.per_trick
            if rules.march_adds_bid and hand.tricks == all_tricks:  # Buck: "six plus the number of the tricks they bid"
                bidders += bid
        else:
            bidders = -(bid if rules.set_loses == "bid" else rules.set_back)
    if defended:
        defenders = defended * rules.defender_per_trick
    else:  # shut out: the bidders took every trick, so they made it
        lost = {"made": bidders, "bid": hand.bid or 0}
        defenders = -lost.get(rules.shutout_loses, rules.defender_shutout)
    return bidders, defenders, made


def _euchre_points(hand: Hand, rules: Ruleset) -> tuple[int, int, bool]:
    """(to the makers, to the defenders, makers made it) in euchre."""
    all_tricks = rules.tricks_per_hand
    if hand.tricks >= rules.needed:
        if hand.tricks == all_tricks:
            made = rules.blind_loner_march if hand.blind else rules.alone_march if hand.alone else rules.makers_march
        else:
            made = rules.alone_point if hand.alone else rules.makers_point
        return made, 0, True
    if hand.defender_alone is not None:
        defenders = rules.defend_alone_sweep if hand.tricks == 0 else rules.defend_alone_euchre
    else:
        defenders = rules.euchre_alone if hand.alone else rules.euchre
        if hand.tricks == 0:
            defenders = max(defenders, rules.euchre_sweep)
    return (rules.euchred_loner if hand.alone else rules.euchred_makers), defenders, False


def forfeited(hand: Hand, rules: Ruleset) -> Hand:
    """A reneged hand as it is scored: "Reneging generally causes the hand to be forfeited, with the maximum amount
    of points (usually 2 but can be 4 when opposing team is going alone) awarded to the opposing team" (the Euchre
    article, 001). Read, under every preset, as the other side taking every trick: the makers' renege a euchre
    sweep to the defenders, the defenders' a march to the makers (4 to a loner), a bid made or set in full."""
    if hand.renege not in SIDES:
        raise ScoringError("The side that reneged is N–S or E–W.")
    return replace(hand, tricks=0 if hand.renege == hand.makers else rules.tricks_per_hand)


def score_hand(hand: Hand, rules: Ruleset = STANDARD) -> HandScore:
    """Points for each side and each player's tally extras, for one hand under `rules`.

    A reneged hand is scored as `forfeited` says, whatever tricks it was recorded with, and adds no tally extras
    (no loner, euchre or march was played out)."""
    if hand.passed and hand.renege is not None:
        raise ScoringError("A hand the opponents passed was not played: it has no renege.")
    if hand.renege is not None:
        given = forfeited(hand, rules)
        score = score_hand(replace(given, renege=None), rules)
        return HandScore(ns=score.ns, ew=score.ew, winner=score.winner)
    if hand.passed:
        return _passed(hand, rules)
    _check(hand, rules)
    makers_points, defenders_points, made = (_bid_points if rules.bidding else _euchre_points)(hand, rules)
    makers, defenders = hand.makers, other(hand.makers)
    swept = hand.tricks == rules.tricks_per_hand
    extras: dict[str, Extras] = {}
    if hand.alone and hand.maker:
        extras[hand.maker] = Extras(
            loners_tried=1,
            loners_made=int(made and swept),
            marches=int(swept),
            bonus=rules.loner_bonus if made and swept else 0,
        )
    elif swept and made:
        for seat in SEATS_OF[makers]:
            extras[seat] = Extras(marches=1)
    if not made:
        # A lone defender's partner sat the hand out, so the euchre is the lone defender's alone.
        for seat in (hand.defender_alone,) if hand.defender_alone else SEATS_OF[defenders]:
            extras[seat] = Extras(euchres=1)
    ns, ew = (makers_points, defenders_points) if makers == "NS" else (defenders_points, makers_points)
    return HandScore(ns=ns, ew=ew, winner=makers if made else defenders, extras=extras)


def _passed(hand: Hand, rules: Ruleset) -> HandScore:
    """Midwest Pepper's pass: "if opponents pass and don't play the hand, no points are awarded to them and bidder
    scores" — read as the bidders scoring what their bid made exactly scores (a pepper bid: all the tricks), the
    opponents nothing (no penalty for taking no trick: the hand was not played), no tally extras."""
    if not (rules.bidding and rules.defenders_may_pass):
        raise ScoringError("The opponents may not pass under these rules: enter the hand as it was played.")
    tricks = rules.tricks_per_hand if hand.pepper is not None else (hand.bid or 0)
    made = score_hand(replace(hand, passed=False, tricks=tricks), rules)
    bidders = made.of(hand.makers)
    ns, ew = (bidders, 0) if hand.makers == "NS" else (0, bidders)
    return HandScore(ns=ns, ew=ew, winner=hand.makers)


def hickeys(hand: Hand, rules: Ruleset) -> dict[Side, int]:
    """Pfeffer's Hickeys a hand gives (side -> count; {} where the rules keep none): "If the declaring team takes all
    6 tricks, they get 6 points and the opposing are "set", lose 5 points and receive a Hickey. If the declaring
    team takes less than the number of tricks bid, they are "set", lose 5 points and receive a Hickey … For
    Pfeffer Bids, if the declaring team takes all 6 tricks, they get 12 points and the opposing team are "set",
    lose 5 points and receive a Hickey. If the declaring team fails to take all 6 tricks, they are set, lose 10
    points and receive 2 Hickeys." A renege is read as the hand it forfeits."""
    if not (rules.bidding and rules.hickeys):
        return {}
    if hand.renege is not None:
        hand = forfeited(hand, rules)
    _check(hand, rules)
    all_six = hand.tricks == rules.tricks_per_hand
    if all_six:
        return {other(hand.makers): 1}
    if hand.pepper is not None:  # a Pfeffer that did not take every trick
        return {hand.makers: 2}
    if hand.tricks < (hand.bid or 0):
        return {hand.makers: 1}
    return {}


def legal_hands(rules: Ruleset) -> Iterator[Hand]:
    """Every distinct hand the rules allow with N–S as makers and N as the caller."""
    bids: list[tuple[int | None, Pepper | None]] = (
        [(bid, None) for bid in range(rules.min_bid, rules.tricks_per_hand + 1)]
        + [(None, pepper) for pepper in peppers_played(rules)]
        if rules.bidding
        else [(None, None)]
    )
    for tricks, alone, blind, lone_defender, (bid, pepper) in itertools.product(
        range(rules.tricks_per_hand + 1), (False, True), (False, True), (None, "E"), bids
    ):
        hand = Hand("NS", tricks, alone, "N", blind, lone_defender, bid, pepper)
        try:
            _check(hand, rules)
        except ScoringError:
            continue
        yield hand
        if rules.defenders_may_pass and tricks == 0 and not blind and lone_defender is None:
            yield replace(hand, passed=True)  # the opponents passed: the tricks are not played


@functools.lru_cache(maxsize=64)
def points_range(rules: Ruleset) -> tuple[int, int]:
    """The fewest and the most points one side can get from one hand under `rules`."""
    scores = [score_hand(hand, rules) for hand in legal_hands(rules)]
    values = [score.ns for score in scores] + [score.ew for score in scores]
    return min(values), max(values)


def check_game_total(points: int, hands: int, rules: Ruleset) -> None:
    """Refuse a game total that `hands` hands could not make under `rules`."""
    low, high = points_range(rules)
    if points > hands * high:
        raise ScoringError(f"{points} is more than {hands} hands can make (at most {hands * high}).")
    if points < hands * low:
        raise ScoringError(f"{points} is less than {hands} hands can make (at least {hands * low}).")


@functools.lru_cache(maxsize=64)
def hand_totals(rules: Ruleset) -> frozenset[tuple[int, int]]:
    """Every (N–S, E–W) score one hand can give under `rules`, either side making."""
    scores = [score_hand(hand, rules) for hand in legal_hands(rules)]
    return frozenset({(score.ns, score.ew) for score in scores} | {(score.ew, score.ns) for score in scores})


def _hand_reach(rules: Ruleset) -> int:
    """The most points, either way, one side's total moves on one hand."""
    return max(max(abs(ns), abs(ew)) for ns, ew in hand_totals(rules))


@functools.lru_cache(maxsize=256)
def _reachable(rules: Ruleset, hands: int, exactly: bool, bound: int) -> tuple[dict[int, int], int]:
    """The game totals `hands` hands can make (`exactly` that many, or any number from 1 to `hands`) whose N–S and
    E–W totals are both within ±`bound`: for each N–S total, a bit mask of the E–W totals (bit e + shift for E–W
    total e), and the shift.

    Only games whose running totals stay within ±(`bound` + 4 hands' worth) are followed, and that loses none: the
    hands of a game can be played in any order to the same totals, and some order keeps every running total
    within twice the largest hand of the straight line from 0–0 to the final totals (the Steinitz lemma, whose
    constant is at most the dimension, 2, in any norm — Grinberg and Sevastyanov). Any number of hands stops
    early once one more hand adds no new totals. Without the window a game to 50 that may run to 100 hands
    followed every total 100 hands can make: 20 seconds for a keeper's first double-deck slip."""
    pairs = sorted(hand_totals(rules))
    edge = bound + 4 * _hand_reach(rules)
    shift, width = edge, (1 << (2 * edge + 1)) - 1
    by_ns: dict[int, list[int]] = {}
    for add_ns, add_ew in pairs:
        by_ns.setdefault(add_ns, []).append(add_ew)
    one: dict[int, int] = {}
    for add_ns, add_ew in pairs:
        if abs(add_ns) <= edge and abs(add_ew) <= edge:
            one[add_ns] = one.get(add_ns, 0) | 1 << (add_ew + shift)
    reach = dict(one)
    for _ in range(hands - 1):
        following: dict[int, int] = {} if exactly else dict(one)
        for ns, mask in reach.items():
            for add_ns, ews in by_ns.items():
                row = ns + add_ns
                if not -edge <= row <= edge:
                    continue
                moved = 0
                for add_ew in ews:
                    moved |= mask << add_ew if add_ew >= 0 else mask >> -add_ew
                if moved & width:
                    following[row] = following.get(row, 0) | moved & width
        if not exactly and following == reach:
            break
        reach = following
    return reach, shift


def game_total_possible(ns: int, ew: int, hands: int, rules: Ruleset, *, exactly: bool = True) -> bool:
    """Whether some `hands` hands (or, not `exactly`, some 1 to `hands` hands) make a game of `ns` to `ew`."""
    if hands < 1 or max(abs(ns), abs(ew)) > hands * _hand_reach(rules):
        return False
    bound = 64
    while bound < max(abs(ns), abs(ew)):  # windows of a few sizes, each worked out once
        bound *= 2
    reach, shift = _reachable(rules, hands, exactly, bound)
    return bool(reach.get(ns, 0) >> (ew + shift) & 1)


def check_game_totals(ns: int, ew: int, hands: int, rules: Ruleset, *, exactly: bool = True) -> None:
    """Refuse a pair of game totals that no sequence of hands allowed at the table could make."""
    if game_total_possible(ns, ew, hands, rules, exactly=exactly):
        return
    played = f"{hands} hands" if exactly else f"up to {hands} hands"
    why = " (every hand scores for one side or the other)" if ns == ew == 0 else ""
    raise ScoringError(f"No {played} make N–S {ns}, E–W {ew} under these rules{why}: check the score sheet.")


def unusual_game_totals(ns: int, ew: int, hands_per_game: int, rules: Ruleset) -> str:
    """Why a possible pair of game totals deserves a second look ("" when it does not).

    A table other than the head table may play on until the bell, so it can make totals that the head table's
    whole game of `hands_per_game` hands could not: possible, but more often a slip misread (30–2 for 3–2 or 20–12).
    """
    if game_total_possible(ns, ew, hands_per_game, rules, exactly=False):
        return ""
    return f"N–S {ns}, E–W {ew} is more than {hands_per_game} hands make"


@dataclass(frozen=True)
class GameOutcome:
    winner: Side
    tie_break: TieRule | None  # how a tied game was decided; None when the scores differ


def game_winner(
    ns: int,
    ew: int,
    *,
    tie_rule: str,
    last_hand_winner: Side | None = None,
    draw_seed: int | None = None,
) -> GameOutcome:
    """Who won a game of `ns` to `ew` points. A tie is decided by the night's tie rule.

    `draw_seed` makes the app's draw reproducible (the caller derives it from the night's seed and the table).
    """
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
