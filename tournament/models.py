"""The night: the club's roster, nights and their settings, who plays, rounds and seats."""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

from scoring import names
from scoring.ending import GameEnd
from scoring.prizes import PRIZES, parse_eligibility, valid_prize
from scoring.rules import PRESET_LABELS, STANDARD, TIE_RULES
from scoring.seats import SEAT_CHOICES
from scoring.standings import chain_refusal

from .engine import money
from .engine.wishes import Wishes, parse_groups


def default_rules() -> dict:
    return STANDARD.as_dict()


# The longest name a player may have (the roster, the cards and the pages are laid out for it).
NAME_LENGTH = 80
# A form's one-time key (money, a sign-up, a check-in): 32 hex figures (uuid4), sent back with the form.
MONEY_KEY_LENGTH = 40


def results_token() -> str:
    """A player's results link: 32 characters from the operating system's random source, never guessed."""
    return secrets.token_urlsafe(24)


class Club(models.Model):
    """A club: its organizers and keepers, roster, seasons, nights, money and public pages, kept apart from every
    other club's on a hosted server. The laptop at the venue is one club (made by the first night, user or
    migration); a site operator adds more (`manage.py add_club`)."""

    name = models.CharField(max_length=120)
    # The club's short address on a hosted server: /c/<slug>/ (its public results).
    slug = models.SlugField("short address", max_length=40, unique=True)
    # On the hosted server: the SHA-256 of the key a venue publishes this club's nights with (blank: none yet).
    publish_key_hash = models.CharField(max_length=64, blank=True, editable=False)
    # On the laptop: the club's site on the hosted server and the key to publish there with.
    site_address = models.URLField("the club's site", blank=True)
    site_key = models.CharField("publishing key", max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def site_root(self) -> str:
        """Where the club's site starts, before its short address (`https://euchre.example.org` of
        `https://euchre.example.org/c/alpha/`): a player's results link there is this and `/results/<token>/`.
        "" on a laptop with no club site typed."""
        if not self.site_address:
            return ""
        address = self.site_address.rstrip("/")
        head, found, _slug = address.rpartition("/c/")
        return head if found else address


# The club the laptop is, when the first one is made without a name.
FIRST_CLUB = {"name": "Our club", "slug": "club"}


def sole_club_id() -> int:
    """The club a night, a player or a season belongs to where the code that saves it named none: the only club there
    is (the laptop at the venue; made on first need). With several clubs (a hosted server) each must be named, and
    one that is not is refused rather than guessed."""
    clubs = list(Club.objects.values_list("pk", flat=True)[:2])
    if not clubs:
        return Club.objects.get_or_create(slug=FIRST_CLUB["slug"], defaults={"name": FIRST_CLUB["name"]})[0].pk
    if len(clubs) > 1:
        raise ValidationError("This server holds several clubs: say which club this belongs to.")
    return clubs[0]


class Membership(models.Model):
    """Which club an account works for: its organizers (staff accounts) and its score keepers. One club an
    account; an account of no club (a site operator's) sees no club's nights."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")

    def __str__(self) -> str:
        return f"{self.user} of {self.club}"


class Player(models.Model):
    """A person on the club's roster; kept across nights.

    `results_token` is the address of the player's own results page (tonight's card and their history at the club):
    the page is found by it alone. `unlisted`: the player asked to be left off public lists (the public night page,
    the room display, a season's public table), where they are shown as "A player"; the organizer's pages and
    sheets name them as ever.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=NAME_LENGTH)
    # A placeholder or volunteer who fills an empty seat; never in the standings.
    house = models.BooleanField(default=False)
    club_number = models.CharField("club or membership number", max_length=20, blank=True)
    category = models.CharField(max_length=40, blank=True, help_text="For prizes within a group, e.g. lady or man.")
    # The name folded for comparison, kept here because SQLite's lower() ignores letters like Ł and É.
    name_key = models.CharField(max_length=NAME_LENGTH, editable=False)
    results_token = models.CharField(max_length=64, unique=True, default=results_token, editable=False)
    unlisted = models.BooleanField("leave me off public lists", default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name_key"]
        # one roster a club: the same name may be a different person at another club
        constraints = [models.UniqueConstraint(fields=["club", "name_key"], name="player_name_once_a_club")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if self.club_id is None:  # made without naming its club: the laptop's one club (`sole_club_id`)
            self.club_id = sole_club_id()
        if not self.house:  # house players carry a key of their own night's, so names may repeat across nights
            self.name_key = self.key_for(self.name)
        super().save(*args, **kwargs)

    @staticmethod
    def key_for(name: str) -> str:
        """Who a name is: the same letters, whatever the case, the spacing or any invisible character."""
        return names.clean(name).casefold()


# The prize table a night starts with; a winners-stay night, ranked by games won, crowns a champion first and
# gives the high score (the most points) apart.
DEFAULT_PRIZES = "high,second,third,low,loners"
WINNERS_STAY_PRIZES = "champion,second,third,high,low,loners"
# A winners-stay night plays each game to this many points at every table unless the organizer says otherwise.
WINNERS_STAY_TARGET = 10


def prizes_refusal(keys: Sequence[str]) -> str:
    """Why a night cannot award these prizes ("" when each is a prize)."""
    if unknown := [key for key in keys if not valid_prize(key)]:
        return f"Unknown prize {unknown[0]!r}: use {', '.join(PRIZES)} or high:<category>."
    return ""


def _comma_list(text: str) -> list[str]:
    """A setting written as words between commas: each word, without the spaces and the empty ones."""
    return [key.strip() for key in text.split(",") if key.strip()]


class Night(models.Model):
    class Movement(models.TextChoices):
        PROGRESSIVE = "progressive", "Progressive (head/tail, partners split)"
        PROGRESSIVE_DOWN = "progressive-down", "Progressive, losers move down one table"
        WINNERS_STAY = "winners-stay", "Winners stay and split (most wins is champion)"
        FIXED_PARTNERS = "fixed-partners", "Fixed partners (couples and leagues)"
        SEAT_ROTATION = "seat-rotation", "Seat rotation (no head table)"
        ROTATION = "rotation", "Rotation chart (everyone partners everyone; fixed before the night)"

    class Fill(models.TextChoices):
        BYES = "byes", "Byes: players take turns sitting out"
        HOUSE = "house", "A house player fills the empty seats"
        THREES = "threes", "Tables of three at the tail: nobody sits out (three-handed, each player for themselves)"

    class ByeCredit(models.TextChoices):
        NONE = "none", "Nothing"
        FIXED = "fixed", "A fixed number of points"
        OWN_AVERAGE = "own_average", "The player's own average per game"
        ROUND_AVERAGE = "round_average", "The game's average score"

    class RankBy(models.TextChoices):
        TOTAL = "total", "Total points"
        AVERAGE = "average", "Average per game played"
        CLUBS = "clubs", "As clubs with byes rank: win %, then points %, then the player's number"

    class Status(models.TextChoices):
        SETUP = "setup", "Registering players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Numbering(models.TextChoices):
        ARRIVAL = "arrival", "In arrival order"
        RANDOM = "random", "At random"

    class Paper(models.TextChoices):
        LETTER = "letter", "Letter"
        A4 = "a4", "A4"

    # Identifies the night across installations: a backup restored elsewhere keeps it, and a second restore of
    # the same night is refused.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    venue = models.CharField(max_length=120, blank=True)
    movement = models.CharField(max_length=20, choices=Movement.choices, default=Movement.PROGRESSIVE)
    fill = models.CharField(
        "when players are not a multiple of four", max_length=10, choices=Fill.choices, default=Fill.BYES
    )
    bye_credit = models.CharField("a bye counts", max_length=15, choices=ByeCredit.choices, default=ByeCredit.NONE)
    bye_points = models.PositiveSmallIntegerField("points for a bye (fixed)", default=0)
    rank_by = models.CharField("rank players by", max_length=10, choices=RankBy.choices, default=RankBy.TOTAL)
    tie_chain = models.CharField(
        "tie-breaks, in order",
        max_length=80,
        blank=True,
        help_text="Comma-separated, from: total, wins, conceded, average, loners, euchres, h2h (head-to-head: "
        "games won, then points, against the other players still level, when every two of them met), win_pct "
        "(games won ÷ games played), points_pct (points for ÷ (for + against)), ppg (points per game played), "
        "number (the number on the player's tally card). Empty: the order “rank players by” gives (winners-stay: "
        "games won first).",
    )
    final_draw = models.BooleanField(
        "settle ties left after the chain by a draw", default=False, help_text="Off: level players share the rank."
    )
    prizes = models.CharField(
        "prizes, in order",
        max_length=80,
        default=DEFAULT_PRIZES,
        help_text="Comma-separated, from: champion (most games won), high (most points), second, third, low, "
        "loners, high_game, and high:<category> for the best of a group of players (e.g. high:lady, high:man). "
        f"Left as it is on a winners-stay night: {WINNERS_STAY_PRIZES}.",
    )
    one_prize_each = models.BooleanField("nobody takes two prizes", default=True)
    substitutes = models.CharField(
        "a substitute's games count",
        max_length=5,
        choices=[
            ("card", "On the tally card of the player they replace: one line, “Mary Smith, then John Doe”"),
            ("own", "On their own tally: two lines, each with the games they played"),
        ],
        default="card",
    )
    prize_rules = models.CharField(
        "who may take each prize",
        max_length=200,
        blank=True,
        help_text="Optional, e.g. “high: present, every game; loners: members; low: games 3”. present: still playing "
        "at the end; every game: there for every game (a bye counts); games N: at least N played; members: marked "
        "member on the door list or with a club number. A player passed over stays in line for later prizes.",
    )
    partner_groups = models.CharField(
        "two groups: every partnership one of each",
        max_length=81,
        blank=True,
        help_text="Two categories from the door list, e.g. “lady, man”: the seating partners a player of one with a "
        "player of the other wherever it can. Players in neither partner anyone. Empty: no such rule.",
    )
    games = models.PositiveSmallIntegerField(
        "number of games", default=10, validators=[MinValueValidator(1), MaxValueValidator(64)]
    )
    # Rotation nights: the whole night's seating, built once from a head count (see tournament.engine.rotation)
    # and kept, so the cards printed before the doors open stay true. Players hold chart numbers (Entry.number).
    chart_size = models.PositiveSmallIntegerField(
        "chart for up to this many players",
        null=True,
        blank=True,
        validators=[MinValueValidator(4), MaxValueValidator(400)],
        help_text="Rotation charts only. Empty: the chart is built for the players checked in at the draw.",
    )
    numbering = models.CharField(
        "chart numbers are given out", max_length=10, choices=Numbering.choices, default=Numbering.ARRIVAL
    )
    chart = models.JSONField(null=True, blank=True, editable=False)
    hands_per_game = models.PositiveSmallIntegerField(
        default=8, validators=[MinValueValidator(1), MaxValueValidator(24)]
    )
    head_table_ends = models.BooleanField(
        "the head table's last hand rings the bell",
        default=True,
        help_text="Progressive's classic rule. Off: the head table plays on like any other table.",
    )
    points_target = models.PositiveSmallIntegerField(
        "a table's game ends at this many points",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text="A table whose side reaches it is done (its “Game over” as at any table); the bell rings for "
        "the rest. Empty: no target.",
    )
    minutes_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(120)]
    )
    warning_minutes = models.PositiveSmallIntegerField(
        "warn this many minutes before the bell", default=2, validators=[MaxValueValidator(60)]
    )
    auto_advance = models.BooleanField(
        "run the night by itself",
        default=True,
        help_text="Close each game as soon as every table is in after the bell, and start the next one at once.",
    )
    # "Hold before the next game": when the game under way closes, the next one is not seated until the organizer
    # says (latecomers, a break, a speech). One-shot: seating the next game lets it go (tournament.game).
    hold_next = models.BooleanField("hold before the next game", default=False)
    break_after = models.PositiveSmallIntegerField("a break after game", null=True, blank=True)
    break_minutes = models.PositiveSmallIntegerField(
        "break length (minutes)", default=15, validators=[MinValueValidator(1), MaxValueValidator(120)]
    )
    confirm_results = models.BooleanField(
        "the other side confirms scores entered at the table",
        default=True,
        help_text="Switch off for small friendly nights: a score entered on a table's phone then counts at once.",
    )
    signup_open = models.BooleanField(
        "players may sign up from the night's public link", default=False, help_text="Off until the organizer opens it."
    )
    checkin_open = models.BooleanField(
        "players may check themselves in by phone at the door",
        default=False,
        help_text="From the door's QR code; the organizer sees each, and can undo it.",
    )
    signup_cap = models.PositiveSmallIntegerField(
        "the most players signed up", null=True, blank=True, help_text="Later sign-ups join the waitlist."
    )
    # The door's money (tournament.engine.money), in integer cents of the night's currency.
    currency = models.CharField(max_length=3, default="USD")
    price_pre = models.PositiveIntegerField("pre-registered price (cents)", default=0)
    price_door = models.PositiveIntegerField("price at the door (cents)", default=0)
    price_member = models.PositiveIntegerField("a member's price (cents)", null=True, blank=True)
    payouts = models.CharField(
        "prize money",
        max_length=200,
        blank=True,
        help_text="Each prize and its money: a share of the pot or an amount, e.g. “high 50%, second 30%, low $10”.",
    )
    house_share = models.PositiveSmallIntegerField(
        "the house keeps (percent of the entry money)", default=0, validators=[MaxValueValidator(100)]
    )
    keepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="kept_nights")
    # Bumped by every service that changes what the room sees (changed_at: anything, a score included; moved_at:
    # only where people sit or what the game is doing). Pages poll the one they show, so a wave of scores at the
    # bell does not redraw a thousand phones.
    changed_at = models.DateTimeField(default=timezone.now)
    moved_at = models.DateTimeField(default=timezone.now)
    scoring = models.CharField("scoring preset", max_length=30, choices=list(PRESET_LABELS.items()), default="standard")
    # The night's ruleset: the preset's numbers as the organizer left them (scoring.rules.Ruleset.as_dict()).
    rules = models.JSONField(default=default_rules)
    tie_rule = models.CharField(
        "tied games go to",
        max_length=20,
        choices=[(key, text[0].upper() + text[1:]) for key, text in TIE_RULES.items()],
        default="last_hand",
    )
    paper = models.CharField("paper size", max_length=10, choices=Paper.choices, default=Paper.LETTER)
    seed = models.BigIntegerField(null=True, blank=True, help_text="Recorded when the opening seating is drawn.")
    # The club's public results (its site's list of nights) show this night only when the organizer says so.
    results_public = models.BooleanField("show on the club's public results", default=False)
    # On the laptop: publish to the club's site after each game, and when it last went there whole.
    publish_live = models.BooleanField("publish to the club's site after each game", default=False)
    published_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When "Publish to the club's site" (or a game's close, with publish_live) last queued it, and the last words
    # of a try that did not land (the site's refusal, or why it was not reached: tried again then).
    publish_asked_at = models.DateTimeField(null=True, blank=True, editable=False)
    publish_note = models.CharField(max_length=300, blank=True, default="", editable=False)
    # On the club's site: when a venue's send last changed the night (None for one made or restored here). Its page says
    # that a change made on the site is replaced by the venue's next send.
    from_venue_at = models.DateTimeField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(games__gte=1), name="night_games_positive"),
            models.CheckConstraint(condition=models.Q(hands_per_game__gte=1), name="night_hands_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args, **kwargs):
        if self.club_id is None:  # made without naming its club: the laptop's one club (`sole_club_id`)
            self.club_id = sole_club_id()
        super().save(*args, **kwargs)

    # Queued for the club's site and not sent since: the one rule, for a night (`publish_waiting`) and in a query.
    PUBLISH_WAITING = models.Q(publish_asked_at__isnull=False) & (
        models.Q(published_at__isnull=True) | models.Q(published_at__lt=models.F("publish_asked_at"))
    )

    def get_absolute_url(self) -> str:
        return reverse("tournament:night_detail", args=[self.pk])

    @property
    def publish_waiting(self) -> bool:
        asked, sent = self.publish_asked_at, self.published_at
        return asked is not None and (sent is None or sent < asked)

    @property
    def tie_keys(self) -> list[str]:
        """The tie-break chain as the organizer wrote it: its metrics' keys, in order."""
        return _comma_list(self.tie_chain)

    @property
    def prize_keys(self) -> list[str]:
        """The night's prizes as the organizer wrote them: their keys, in order."""
        return _comma_list(self.prizes)

    def prize_list(self) -> list[money.Prize]:
        """The night's prizes in order, each with its money (`payouts`) or none."""
        payouts = money.parse_payouts(self.payouts)
        return [money.Prize(key, payouts.get(key)) for key in self.prize_keys]

    @property
    def prizes_text(self) -> str:
        """The prizes and their money as the organizer types them, the one way: "high 40%, low 30%, loners 30%"."""
        return money.prizes_text(self.prize_list(), self.currency)

    def clean(self):
        errors = {}
        if refusal := chain_refusal(self.tie_keys):
            errors["tie_chain"] = refusal
        if refusal := prizes_refusal(self.prize_keys):
            errors["prizes"] = refusal
        try:  # a backup's prize money is read as the Money page reads it, or refused
            money.parse_payouts(self.payouts)
        except money.MoneyError as error:
            errors["payouts"] = str(error)
        try:
            money.currency_code(self.currency)
        except money.MoneyError as error:
            errors["currency"] = str(error)
        try:
            parse_eligibility(self.prize_rules)
        except ValueError as error:
            errors["prize_rules"] = str(error)
        try:
            parse_groups(self.partner_groups)
        except ValueError as error:
            errors["partner_groups"] = str(error)
        if errors:
            raise ValidationError(errors)

    def prices(self) -> money.Prices:
        return money.Prices(self.price_pre, self.price_door, self.price_member)

    def contents(self) -> NightContents:
        """What deleting the night would take with it (a few counts): the one reading the Delete page shows and
        the service that deletes decides by."""
        payments = self.payments.aggregate(lines=models.Count("id"), net=models.Sum("cents", default=0))
        comped = self.payments.filter(method="comp").aggregate(cents=models.Sum("cents", default=0))["cents"]
        return NightContents(
            finished=self.status == Night.Status.FINISHED,
            players=self.entries.filter(player__house=False).count(),
            games_scored=self.rounds.filter(results__isnull=False).distinct().count(),
            payments=payments["lines"],
            net=payments["net"] - comped,
            pot_lines=self.pot_lines.count(),
            draws=self.draws.count(),
            seasons=tuple(self.seasons.order_by("name").values_list("name", flat=True)),
        )

    def wishes(self) -> Wishes:
        """The night's partner wishes as the seating takes them (two queries)."""
        groups: dict[int, str] = {}
        pair = parse_groups(self.partner_groups)
        if pair:
            group_of = {names.fold(group): group for group in pair}
            for player, category in Entry.objects.filter(night=self).values_list("player_id", "category"):
                if group := group_of.get(names.fold(category)):
                    groups[player] = group
        chosen: dict[str, set[frozenset[int]]] = {kind: set() for kind in PartnerWish.Kind.values}
        for kind, first, second in self.partner_wishes.values_list("kind", "first_id", "second_id"):
            chosen[kind].add(frozenset((first, second)))
        return Wishes(
            never=frozenset(chosen[PartnerWish.Kind.NEVER]),
            always=frozenset(chosen[PartnerWish.Kind.ALWAYS]),
            groups=groups,
        )

    def game_end(self) -> GameEnd:
        """How this night's games end (the head table's hands, a points target, the timer)."""
        stored = self.rules if isinstance(self.rules, dict) else {}
        return GameEnd(
            self.hands_per_game,
            self.head_table_ends,
            self.points_target,
            self.minutes_per_game,
            on_offense=bool(stored.get("target_on_offense")),
            both_reach=str(stored.get("both_reach", "bidders")),
        )

    @staticmethod
    def touch(night_id: int, *, moved: bool = False) -> None:
        """Tell the pages that something changed: a score, or (`moved`) the seating or the game's state."""
        now = timezone.now()
        Night.objects.filter(pk=night_id).update(changed_at=now, **({"moved_at": now} if moved else {}))


# The organizer's choices for a night, said once: the night's form shows these fields, `night_create` takes them
# and the backup keeps them (with the night's state beside them).
NIGHT_SETTINGS: tuple[str, ...] = (
    "name",
    "date",
    "venue",
    "movement",
    "numbering",
    "fill",
    "bye_credit",
    "bye_points",
    "rank_by",
    "tie_chain",
    "final_draw",
    "prizes",
    "one_prize_each",
    "prize_rules",
    "substitutes",
    "games",
    "hands_per_game",
    "head_table_ends",
    "points_target",
    "minutes_per_game",
    "warning_minutes",
    "auto_advance",
    "break_after",
    "break_minutes",
    "scoring",
    "tie_rule",
    "confirm_results",
    "paper",
)


# A confirmation code is four digits, never 0xxx (a leading zero is easy to drop on a phone).
CODE_DIGITS = 4
# The most players one night takes: the hall nights this is for seat up to some 600, the live pages are measured at
# 1,000 (bench/full_room.py), and the four-digit confirmation codes run out at 9,000.
MAX_PLAYERS = 2000


@dataclass(frozen=True)
class NightContents:
    """What a night holds that deleting it would lose: its results and its money guard it (`guarded`)."""

    finished: bool
    players: int
    games_scored: int  # games with at least one table's score
    payments: int  # lines of the door's cash record
    net: int  # the entry money in the box, in cents (comps apart)
    pot_lines: int
    draws: int
    seasons: tuple[str, ...]

    @property
    def guarded(self) -> bool:
        """Results or money: deleting asks for the night's name typed exactly."""
        return bool(self.finished or self.games_scored or self.payments or self.pot_lines or self.draws)


class EntryManager(models.Manager):
    def enter(self, night: Night, players: Sequence[Player], **fields) -> list[Entry]:
        """Add players to a night, each with the next free tally-card number and a fresh confirmation code.

        The caller holds the night's lock, so two arrivals never take the same number.
        """
        taken = self.filter(night=night)
        card = taken.aggregate(models.Max("card"))["card__max"] or 0
        codes = set(taken.values_list("code", flat=True))
        entries = []
        for player in players:
            card += 1
            code = fresh_code(codes)
            codes.add(code)
            entries.append(
                self.create(
                    night=night,
                    player=player,
                    card=card,
                    code=code,
                    **{**as_played(player), **fields},
                )
            )
        return entries


def as_played(player: Player) -> dict[str, str]:
    """What a night keeps of a player when they join it (Entry's name, category and club number): read from the
    roster once, so nothing done later to the roster changes the night."""
    return {"name": player.name, "category": player.category, "club_number": player.club_number}


def fresh_code(taken: set[str]) -> str:
    """A confirmation code no other player of the night holds, drawn by the operating system's random source."""
    low = 10 ** (CODE_DIGITS - 1)
    while True:
        code = str(low + secrets.randbelow(9 * low))
        if code not in taken:
            return code


class Entry(models.Model):
    """A player in one night.

    `card` is the number on the player's tally card (finds their page, printed on every sheet); `code` is the
    confirmation code printed only on their card, which no public page, file or address shows: the other side of
    the table types it to confirm a score. Both belong to the night and travel in its backup unchanged.
    """

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    # The player as this night has them, copied from the roster when they join it (`as_played`) and changed only by
    # this night's own door list (its import, a sign-up's category): every page, sheet, prize and report of the
    # night reads these, so a later night's import or a roster change never rewrites a night already played.
    name = models.CharField(max_length=NAME_LENGTH)
    category = models.CharField(max_length=40, blank=True)
    club_number = models.CharField("club or membership number", max_length=20, blank=True)
    checked_in = models.BooleanField(default=True)
    checked_in_by_phone = models.BooleanField(default=False)  # the player's own "I'm here" at the door
    # The one-time key of the door's "I'm here" form that last checked the player in: that form sent again (a double
    # tap, or a retry after the organizer undid the check-in) changes nothing.
    checkin_key = models.CharField(max_length=MONEY_KEY_LENGTH, blank=True, default="")
    price_kind = models.CharField(
        "pays the price", max_length=6, choices=[(kind, kind) for kind in money.KINDS], default="pre"
    )
    active = models.BooleanField(default=True)
    # A late arrival starts level with the fewest byes anyone had when they came, so fairness does not make them
    # sit out game after game to catch up.
    bye_offset = models.PositiveSmallIntegerField(default=0)
    # Rotation nights: the player's number on the chart (1..chart size); the chart says where it sits each game.
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    # A substitute: the player who left and whose place (seat, chart number, byes so far) this one took.
    substitute_for = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="substitute"
    )
    card = models.PositiveIntegerField("tally-card number")
    code = models.CharField("confirmation code", max_length=CODE_DIGITS)
    # When the player's results link was e-mailed for this night (claimed just before the message is handed to the
    # mail server): set once, so a retry or a second press never mails them twice.
    results_mailed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EntryManager()

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="entry_player_once_per_night"),
            models.UniqueConstraint(fields=["night", "card"], name="entry_card_once_per_night"),
            models.UniqueConstraint(fields=["night", "code"], name="entry_code_once_per_night"),
            models.UniqueConstraint(
                fields=["night", "number"], condition=models.Q(number__isnull=False), name="entry_chart_number_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.night}"


def entry_name(night: str = "round__night_id") -> models.Subquery:
    """The name a seat's or a bye's player has in their night (Entry.name), to annotate Seating and Bye rows with:
    the night's own copy, never the roster's."""
    return models.Subquery(
        Entry.objects.filter(night_id=models.OuterRef(night), player_id=models.OuterRef("player_id")).values("name")[:1]
    )


class PartnerWish(models.Model):
    """Two players of a night who must never partner, or must always partner (a couples' night)."""

    class Kind(models.TextChoices):
        NEVER = "never", "Never partners"
        ALWAYS = "always", "Always partners"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="partner_wishes")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["kind", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "first", "second"], name="partner_wish_pair_once"),
            models.CheckConstraint(condition=models.Q(first__lt=models.F("second")), name="partner_wish_in_order"),
        ]

    def __str__(self) -> str:
        return f"{self.first} and {self.second}: {self.get_kind_display().lower()}"


CARRY_NAME_LENGTH = 50  # a night's uid (36), a colon and a line number


class Payment(models.Model):
    """One line of the door's cash record: money in from a player (positive), or out (a refund or a correction,
    negative, with its reason), by method; "comp" lets a player in free. Never edited.

    A player taken off the night before the draw, their money given back, leaves their lines in the record: the
    entry is gone (None) and `name` keeps who they were. While it is there, the entry cannot be deleted from under
    its lines (RESTRICT)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="payments")
    entry = models.ForeignKey("Entry", null=True, blank=True, on_delete=models.RESTRICT, related_name="payments")
    name = models.CharField("taken off the night", max_length=NAME_LENGTH, blank=True, default="")
    cents = models.IntegerField()
    method = models.CharField(max_length=12, choices=[(method, method) for method in money.METHODS])
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(default=timezone.now)
    # The one-time key of the form that sent it: the same form sent twice (a double tap) is stored once.
    key = models.CharField(max_length=MONEY_KEY_LENGTH, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "key"], condition=~models.Q(key=""), name="payment_key_once")
        ]

    def __str__(self) -> str:
        return f"{money.shown(self.cents, self.night.currency)} {self.method}"

    @property
    def who(self) -> str:
        """The player's name as the night has it, or as it had them before they were taken off it."""
        return self.entry.name if self.entry is not None else self.name


class PotLine(models.Model):
    """One line of a side pot's record (the 50/50, a bump cup, a loner basket, a jackpot): money in, paid to a
    winner, or carried over to the club's next night. Never edited. A line that takes in a jackpot carried from an
    earlier night names the line that carried it (`carried_from`), so a carry is taken in once."""

    class Kind(models.TextChoices):
        IN = "in", "money in"
        PAID = "paid", "paid to a winner"
        CARRIED = "carried", "carried over to the next night"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="pot_lines")
    pot = models.CharField(max_length=40)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    cents = models.PositiveIntegerField()
    reason = models.CharField("who or why", max_length=200, blank=True)
    carried_from = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="taken_in_by"
    )
    # The carry it took in, named as a backup names it ("<the carrying night's uid>:<its pot line number>"), kept
    # when the carrying night is not here (deleted, or not restored yet) so that night's carry is taken in once.
    carry_named = models.CharField(max_length=CARRY_NAME_LENGTH, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(default=timezone.now)
    key = models.CharField(max_length=MONEY_KEY_LENGTH, blank=True, default="")  # as Payment.key

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "key"], condition=~models.Q(key=""), name="pot_line_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.pot}: {self.kind} {money.shown(self.cents, self.night.currency)}"

    def carry_name(self) -> str:
        """This line as a line that takes it in names it: its night's uid and its number in the night's pot lines
        in their order (1, 2, 3…), as the backup lists them."""
        earlier = PotLine.objects.filter(night_id=self.night_id).filter(
            models.Q(at__lt=self.at) | models.Q(at=self.at, id__lt=self.pk)
        )
        return f"{self.night.uid}:{earlier.count() + 1}"

    @staticmethod
    def waiting_for(night: Night) -> list[PotLine]:
        """Money carried over from earlier nights of `night`'s seasons and not yet taken in by any night."""
        earlier = Night.objects.filter(seasons__in=night.seasons.all(), date__lte=night.date).exclude(pk=night.pk)
        return list(
            PotLine.objects.filter(night__in=earlier, kind=PotLine.Kind.CARRIED, taken_in_by__isnull=True)
            .select_related("night")
            .distinct()
            .order_by("at", "id")
        )


class Draw(models.Model):
    """A draw the room watched: a door prize, the 50/50, a tie for a prize. Its seed and its pool (card numbers
    of the players here, or ticket numbers 1..N) give its winners (`tournament.engine.draws`); never edited."""

    class Pool(models.TextChoices):
        PLAYERS = "players", "the players here"
        TICKETS = "tickets", "tickets sold"
        TIE = "tie", "the players level for a prize"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="draws")
    number = models.PositiveSmallIntegerField()  # 1, 2, 3 … in the night
    title = models.CharField("what it is for", max_length=80)
    pool_kind = models.CharField("draw from", max_length=8, choices=Pool.choices, default=Pool.PLAYERS)
    prize = models.CharField(max_length=40, blank=True)  # a tie's draw: the prize it settles (its key)
    pool = models.JSONField(default=list)  # card numbers or ticket numbers, sorted
    seed = models.CharField(max_length=32)
    winners = models.JSONField(default=list)  # in the order drawn
    on_display = models.BooleanField(default=True)  # the room display shows the night's latest draw until hidden
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    at = models.DateTimeField(default=timezone.now)
    key = models.CharField(max_length=MONEY_KEY_LENGTH, blank=True, default="")  # its form's one-time key

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="draw_number_once_per_night"),
            models.UniqueConstraint(fields=["night", "key"], condition=~models.Q(key=""), name="draw_key_once"),
        ]

    def __str__(self) -> str:
        return f"Draw {self.number}: {self.title}"


def signup_key() -> str:
    return secrets.token_urlsafe(12)


class SignUp(models.Model):
    """A player's sign-up from the night's public link, before the night: in (registered, not yet checked in), on
    the waitlist (in the order they came), or withdrawn. `key` is the player's own page's address."""

    class Status(models.TextChoices):
        IN = "in", "in"
        WAITLIST = "waitlist", "on the waitlist"
        WITHDRAWN = "withdrawn", "withdrawn"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="signups")
    name = models.CharField(max_length=NAME_LENGTH)
    contact = models.CharField("phone or email (for the organizer only)", max_length=120, blank=True)
    category = models.CharField(max_length=40, blank=True)
    # The player asked to be left off public lists: the roster takes it when the sign-up is taken in.
    unlisted = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITLIST)
    entry = models.OneToOneField("Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="signup")
    key = models.CharField(max_length=40, unique=True, default=signup_key, editable=False)
    # The one-time key of the form that sent it (the public sign-up, the door's walk-in): sent twice, stored once.
    form_key = models.CharField(max_length=MONEY_KEY_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "form_key"], condition=~models.Q(form_key=""), name="signup_form_key_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"

    @classmethod
    def waiting(cls, night_id: int) -> models.QuerySet[SignUp]:
        """A night's waitlist, first first."""
        return cls.objects.filter(night_id=night_id, status=cls.Status.WAITLIST).order_by("created_at", "id")


def import_token() -> str:
    return secrets.token_urlsafe(32)


class ImportPreview(models.Model):
    """A players list (CSV) as its preview showed it, kept here until the organizer confirms the import: the confirm
    step sends the token, never the list again. Used once, by the organizer who previewed it, for its night, within
    `LIFETIME`; a used one keeps its row (to say so) without its text."""

    LIFETIME = dt.timedelta(hours=1)

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="+")
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64, unique=True, default=import_token, editable=False)
    text = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"A players list previewed for {self.night_id} at {self.created_at:%H:%M}"


class Action(models.TextChoices):
    """A move in a game's life (see tournament.game, which makes them)."""

    SEATED = "seated", "seated"
    RESEATED = "reseated", "seated again"
    START = "start", "started"
    BREAK = "break", "a break planned"
    PAUSE = "pause", "paused"
    RESUME = "resume", "resumed"
    EXTEND = "extend", "extended"
    BELL = "bell", "the bell"
    UNBELL = "unbell", "the bell taken back"
    CLOSE = "close", "closed"


class Cause(models.TextChoices):
    """Why a game moved, stored as data: code decides by these values, never by the words shown beside them."""

    DRAW = "draw", "the opening draw"
    RESEATED = "reseated", "players came or went"
    MOVEMENT = "movement", "the movement after game {game}"
    ORGANIZER = "organizer", "the organizer"
    BUTTON = "button", "the organizer's button"
    TIMER = "timer", "the timer"
    HEAD_TABLE = "head_table", "the head table's hand {hand}"
    HEAD_TABLE_UNDO = "head_table_undo", "the head table took back its last hand"
    ALL_IN = "all_in", "every table is in after the bell"
    ALL_DONE = "all_done", "every table finishing its game"
    STRAIGHT_ON = "straight_on", "straight after game {game}"
    BREAK = "break", "a {minutes}-minute break after game {game}"
    BREAK_OVER = "break_over", "the break is over"
    PAUSED = "paused", "the organizer paused the timer"
    RESUMED = "resumed", "the organizer resumed the timer"
    EXTENDED = "extended", "the organizer added {minutes}"

    def words(self, **detail) -> str:
        """The cause in words for the room and the history, its details filled in."""
        if "minutes" in detail and self is Cause.EXTENDED:
            detail["minutes"] = f"{detail['minutes']} minute{'s' if detail['minutes'] != 1 else ''}"
        return str(self.label).format(**detail)


class Round(models.Model):
    """All tables' games between two bells."""

    class Status(models.TextChoices):
        SEATED = "seated", "Seated"
        PLAYING = "playing", "Playing"
        BELL = "bell", "Bell rung"
        CLOSED = "closed", "Closed"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    starts_at = models.DateTimeField(null=True, blank=True, help_text="A start planned for after a break.")
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="When the timer rings the bell.")
    paused_left = models.DurationField(null=True, blank=True, help_text="Time left on a paused timer.")
    # Changes whenever the end (or the planned start) moves, so a task sent for the old time does nothing.
    token = models.PositiveIntegerField(default=0)
    bell_at = models.DateTimeField(null=True, blank=True)
    bell_cause = models.CharField(max_length=80, blank=True)  # in words, for the room
    bell_reason = models.CharField(max_length=20, choices=Cause.choices, blank=True)  # the same, as data
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["night_id", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="round_number_once_per_night")]

    def __str__(self) -> str:
        return f"Game {self.number} of {self.night}"

    @property
    def open(self) -> bool:
        """Scores may be entered: the game is being played or the bell has rung."""
        return self.status in (self.Status.PLAYING, self.Status.BELL)

    def is_last(self, night: Night) -> bool:
        """The night's last game: closing it finishes the night."""
        return self.number >= night.games

    def head_table_cut_short(self, night: Night) -> bool:
        """On a night whose head table rings the bell with its last hand, this game's bell rang first for another
        cause (the organizer's button, the timer, the night ended early): the head table played fewer hands."""
        return night.head_table_ends and self.bell_at is not None and self.bell_reason not in ("", Cause.HEAD_TABLE)


class RoundEvent(models.Model):
    """Every change in a round's life, with its time and cause."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=20, choices=Action.choices)
    status = models.CharField(max_length=10, choices=Round.Status.choices)  # the status after the change
    cause = models.CharField(max_length=120)  # in words
    reason = models.CharField(max_length=20, choices=Cause.choices, blank=True)  # the same, as data
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["round_id", "at", "id"]

    def __str__(self) -> str:
        return f"{self.round}: {self.action} at {self.at:%H:%M:%S} ({self.cause})"

    @classmethod
    def record(cls, round_: Round, action: Action, reason: Cause, by=None, *, words: str = "", **detail) -> RoundEvent:
        """Store a move in the round's life with its time and cause (in `words`, or the cause's own), and tell the
        room."""
        event = cls.objects.create(
            round=round_,
            action=action,
            status=round_.status,
            cause=words or reason.words(**detail),
            reason=reason,
            by=by if getattr(by, "is_authenticated", False) else None,
        )
        Night.touch(round_.night_id, moved=True)
        return event


class CodeMiss(models.Model):
    """A wrong confirmation code typed at a table. A table has a few a game; then only the keeper enters its score,
    so guessing the other side's code is out of reach."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="code_misses")
    table = models.PositiveSmallIntegerField()
    at = models.DateTimeField(default=timezone.now)

    LIMIT = 5  # wrong codes a table may type in a game before only the keeper enters its score
    LOCKED = "Too many wrong codes at this table this game: the score keeper enters this table's score."

    class Meta:
        ordering = ["round_id", "table", "at"]

    def __str__(self) -> str:
        return f"A wrong code at table {self.table} in {self.round}"

    @classmethod
    def locked(cls, round_id: int, table: int) -> bool:
        """Whether the table has typed too many wrong codes this game (one query)."""
        return cls.objects.filter(round_id=round_id, table=table).count() >= cls.LIMIT


class Bye(models.Model):
    """A player sitting out one game."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="byes")
    # Fixed partners sit out together and keep their partnership.
    partner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["round_id", "player"]
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="bye_once_per_round")]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.round}"


class Seating(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    table = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seatings")
    # Fixed partners only: the partner of a player who plays this game apart, at a table of three (at a table of
    # four the partner is the one across the table).
    partner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["round_id", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seating_one_seat_per_player"),
            models.UniqueConstraint(fields=["round", "table", "seat"], name="seating_one_player_per_seat"),
            models.CheckConstraint(condition=models.Q(seat__in=["N", "E", "S", "W"]), name="seating_seat_valid"),
            models.CheckConstraint(condition=models.Q(table__gte=1), name="seating_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table} {self.seat}"


class PrintJob(models.Model):
    """A big batch of sheets built by a Celery task; the page shows its progress and offers the file when ready."""

    class Status(models.TextChoices):
        QUEUED = "queued", "waiting for the worker"
        RUNNING = "running", "being built"
        DONE = "done", "ready"
        FAILED = "failed", "failed"

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="print_jobs")
    kind = models.CharField(max_length=30)  # "tally_cards"
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="print", blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The build's last sign of life (taken, or a page drawn): a running job silent for longer than
    # settings.PRINT_JOB_STALE_SECONDS was left by a worker that died, and another delivery may take it over.
    beat_at = models.DateTimeField(null=True, blank=True)
    # Which taking-over this build is: only the build that took the job last may report progress or finish it.
    attempt = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.night} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0
