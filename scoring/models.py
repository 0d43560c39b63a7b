"""What happens at the tables: each table's game result and, where entered, its hands; and seasons of nights."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import astuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse

from . import rules
from .seats import SEAT_CHOICES, SEAT_NAMES, SIDE_CHOICES
from .three import THREE_SEATS

THREE_WINNER_CHOICES = [(seat, f"{SEAT_NAMES[seat]} (a table of three)") for seat in THREE_SEATS]


def extras_of(hands: Iterable[rules.Hand], ruleset: rules.Ruleset) -> dict[str, list[int]]:
    """What a game's hands add to each seat's tally besides the team score, as TableResult.extras stores it.

    Seat -> rules.Extras' numbers in field order (loners tried, loners made, euchres, marches, personal bonus);
    seats that earned nothing are left out.
    """
    sums: dict[str, list[int]] = {}
    for hand in hands:
        for seat, earned in rules.score_hand(hand, ruleset).extras.items():
            numbers = astuple(earned)
            total = sums.setdefault(seat, [0] * len(numbers))
            for index, number in enumerate(numbers):
                total[index] += number
    return {seat: sums[seat] for seat in rules.SEATS if seat in sums and any(sums[seat])}


class TableResult(models.Model):
    """One table's game in one round: the two sides' points and who won."""

    class TieBreak(models.TextChoices):
        LAST_HAND = "last_hand", "won the last hand"
        DRAW = "draw", "drawn by the app"

    class Status(models.TextChoices):
        PLAYING = "playing", "hands being entered"
        FINAL = "final", "in"

    class Entry(models.TextChoices):
        HANDS = "hands", "hand by hand"
        TOTALS = "totals", "game totals"

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="results")
    table = models.PositiveSmallIntegerField()
    # Negative totals happen under bid euchre and hall rules that take points off.
    ns_points = models.SmallIntegerField()
    ew_points = models.SmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FINAL)
    entry = models.CharField(max_length=10, choices=Entry.choices, default=Entry.TOTALS)
    hands_played = models.PositiveSmallIntegerField(null=True, blank=True)
    # The winning side; at a table of three, the winning seat (N, E or S).
    winner = models.CharField(max_length=2, choices=SIDE_CHOICES + THREE_WINNER_CHOICES)
    # A table of three (three-handed, `scoring.three`): each seat's own points, {"N": …, "E": …, "S": …}; the two
    # sides' points are then 0. None at a table of four.
    seat_points = models.JSONField(null=True, blank=True, default=None)
    # Each seat's loners, euchres, marches and personal bonus from the hands (`extras_of`), kept by the services
    # whenever the hands or the night's rules change, so standings never read the hands. {} for a game entered as
    # totals; None where nothing stored it (loaded fixtures): the readers then work it out from the hands.
    extras = models.JSONField(null=True, blank=True, default=None, editable=False)
    tie_break = models.CharField(max_length=10, choices=TieBreak.choices, blank=True, default="")
    # Bumped on every change; a form sends the version it showed, so a second keeper never silently overwrites.
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round_id", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="result_once_per_table"),
            models.CheckConstraint(
                condition=models.Q(winner__in=["NS", "EW"], seat_points__isnull=True)
                | models.Q(winner__in=["N", "E", "S"], seat_points__isnull=False),
                name="result_winner_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(tie_break="") | models.Q(ns_points=models.F("ew_points")),
                name="result_tie_break_only_for_ties",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table}, {self.round}: {self.score_text}"

    @property
    def three(self) -> bool:
        return self.seat_points is not None

    @property
    def score_text(self) -> str:
        """The score as the pages say it: "7–4", or at a table of three "N 5 · E 3 · S 2"."""
        if self.seat_points is not None:
            return " · ".join(f"{seat} {self.seat_points.get(seat, 0)}" for seat in THREE_SEATS)
        return f"{self.ns_points}–{self.ew_points}"


class Hand(models.Model):
    """One hand of a table's game, when entered hand by hand."""

    result = models.ForeignKey(TableResult, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.CharField(max_length=1, choices=SEAT_CHOICES)
    makers = models.CharField(max_length=2, choices=SIDE_CHOICES)
    maker = models.CharField(max_length=1, choices=SEAT_CHOICES, blank=True, help_text="Who called trump.")
    alone = models.BooleanField(default=False)
    blind = models.BooleanField(default=False)
    defender_alone = models.CharField(max_length=1, choices=SEAT_CHOICES, blank=True)
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    pepper = models.CharField(max_length=6, choices=[("little", "little pepper"), ("big", "big pepper")], blank=True)
    tricks = models.PositiveSmallIntegerField(help_text="Tricks taken by the makers.")
    renege = models.CharField(
        max_length=2,
        choices=SIDE_CHOICES,
        blank=True,
        help_text="The side that reneged: the hand went to the other side, as if it took every trick.",
    )
    # Midwest Pepper: the opponents passed and the hand was not played (its tricks are 0).
    passed = models.BooleanField(default=False, help_text="The opponents passed: the hand was not played.")
    ns_points = models.SmallIntegerField()
    ew_points = models.SmallIntegerField()
    # The one-time key of the tap that entered it (a table's phone), so a hand sent again is stored once.
    key = models.CharField(max_length=64, blank=True, default="")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["result_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["result", "number"], name="hand_number_once_per_game"),
            models.UniqueConstraint(fields=["key"], condition=~models.Q(key=""), name="hand_key_once"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number}: {self.makers} made, {self.tricks} tricks"

    def as_rules_hand(self) -> rules.Hand:
        return rules.Hand.of(self)


class TableLink(models.Model):
    """The unguessable link printed on a table's card: it reaches that table's entry in the current game only."""

    night = models.ForeignKey("tournament.Night", on_delete=models.CASCADE, related_name="table_links")
    table = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=40, unique=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night_id", "table", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "table"], condition=models.Q(active=True), name="one_live_link_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.table} link of {self.night}"


class Submission(models.Model):
    """One entry of a table's game score, kept for ever: who, when, from which role, what it said, what became of it.

    Scores typed at the table are drafts until the other side confirms; the keeper's and organizer's entries apply
    at once. `key` is the form's one-time key, so the same form posted twice is stored once.
    """

    class Role(models.TextChoices):
        ORGANIZER = "organizer", "organizer"
        KEEPER = "keeper", "score keeper"
        TABLE = "table", "the table"

    class Status(models.TextChoices):
        DRAFT = "draft", "waiting for the other side"
        CONFIRMED = "confirmed", "confirmed by the other side"
        DISPUTED = "disputed", "the two sides disagree"
        APPLIED = "applied", "entered"
        SUPERSEDED = "superseded", "replaced by a later entry"

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="submissions")
    table = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()  # 1, 2, 3 … for this table in this game
    role = models.CharField(max_length=10, choices=Role.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    side = models.CharField(
        max_length=2,
        choices=SIDE_CHOICES + THREE_WINNER_CHOICES,
        blank=True,
        help_text="The side that entered it (at a table of three, the player's seat).",
    )
    ns_points = models.SmallIntegerField()
    ew_points = models.SmallIntegerField()
    seat_points = models.JSONField(null=True, blank=True, default=None, help_text="At a table of three.")
    # The side, or at a table of three the seat, that won a tied game's last hand.
    last_hand_winner = models.CharField(max_length=2, choices=SIDE_CHOICES + THREE_WINNER_CHOICES, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices)
    reason = models.CharField(max_length=200, blank=True)
    before = models.CharField(max_length=40, blank=True, help_text="The score this entry replaced, if any.")
    confirmed_by = models.CharField(max_length=80, blank=True)
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "number"], name="submission_number_once_per_table")
        ]

    def __str__(self) -> str:
        score = f"{self.ns_points}–{self.ew_points}" if self.seat_points is None else str(self.seat_points)
        return f"Table {self.table}, {self.round}: {score} ({self.get_status_display()})"

    @staticmethod
    def new_key() -> str:
        """A one-time key for a score form, so the same form posted twice is stored once."""
        return secrets.token_urlsafe(24)


class ActionKey(models.Model):
    """The one-time key of an Undo or a Game over sent from a table's phone: the same tap sent again (a phone that
    never heard the answer, or one sending what it kept while offline) is the one already done, never a second."""

    class Kind(models.TextChoices):
        UNDO = "undo", "undo"
        FINISH = "finish", "game over"

    key = models.CharField(max_length=64, unique=True)
    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="action_keys")
    table = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=Kind.choices)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "table", "at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at table {self.table} in {self.round}"


class Season(models.Model):
    """A club's nights taken together: one table over all of them, ranked the way the club chooses."""

    class Method(models.TextChoices):
        TOTAL = "total", "Total points over the season"
        AVERAGE = "average", "Average per night played"
        BEST = "best", "Best N nights"

    # The club whose season it is (`club` below is the name printed on its pages, as the organizer typed it).
    owner = models.ForeignKey("tournament.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True, help_text="Shown on the season's public page, e.g. the prizes.")
    method = models.CharField("rank players by", max_length=10, choices=Method.choices, default=Method.TOTAL)
    best_of = models.PositiveSmallIntegerField(
        "N: how many nights count",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text="For “best N nights”: each player's N best night totals are added up.",
    )
    nights = models.ManyToManyField("tournament.Night", blank=True, related_name="seasons")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(method="best") | models.Q(best_of__gte=1), name="season_best_needs_n"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scoring:season_edit", args=[self.pk])

    def clean(self):
        if self.method == self.Method.BEST and not self.best_of:
            raise ValidationError({"best_of": "Say how many nights count, for example 8 (of 12)."})
