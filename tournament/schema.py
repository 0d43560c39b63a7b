"""The backup's schema, said once: one codec per record kind, read by the backup's export, checks and restore, and
by the night's record (`selectors.record`, the JSON `simulate_night` writes) for the fields they share.

A codec names the model a kind of record is, where its records sit in the file (`key`, in their parent's record),
the file's name for each field it carries (`fields`), the field that names its parent, the order the file lists
them in, and the keys a file written before them lacks, with what such a file restores with (`later`). Values go
into the file as people name things, never as database ids: an account by its user name, a player by their key in
the night, a time as ISO text, a paused timer's time in seconds.

Every concrete field of every model is either carried by a codec (`carried`) or named in NOT_BACKED_UP with the
reason (tests/tournament/test_backup_schema.py holds every model to it), so a field added tomorrow is not left
out of every backup without anyone deciding so.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime

from scoring.models import ActionKey, Hand, Season, Submission, TableLink, TableResult

from .models import (
    NIGHT_SETTINGS,
    Bye,
    Cause,
    Club,
    CodeMiss,
    Draw,
    Entry,
    ImportPreview,
    Membership,
    Night,
    PartnerWish,
    Payment,
    Player,
    PotLine,
    PrintJob,
    Round,
    RoundEvent,
    Seating,
    SignUp,
)

FORMAT = "headtable-night"
VERSION = 3
# Version 1 files (before causes were stored as data) carry the causes in words only; version 2 adds the reasons;
# version 3 names the carry a pot line took in (“took_in”) and gives money only to the night's own prizes (a night
# of before could have money for a prize it did not award: such a file restores as it was).
READS = (1, 2, 3)
# A pot line's “took_in” (the carry it took in), from version 3 on: written only on a line that took one in, so a
# version 3 line without it took none in, whatever its reason says. Files before version 3 never had it: there a
# line's reason in the service's words ("carried over from November night (03 Nov 2026)") is read once for it.
TOOK_IN_FROM = 3
TOOK_IN_DEFAULT = None

# How version 1's words name each cause, for those files alone (the same table as migration 0014's).
LEGACY_WORDS = (
    ("the head table took back", Cause.HEAD_TABLE_UNDO),
    ("the head table", Cause.HEAD_TABLE),
    ("closed by every table is in", Cause.ALL_IN),
    ("every table is in", Cause.ALL_IN),
    ("closed by the organizer", Cause.ORGANIZER),
    ("the organizer's button", Cause.BUTTON),
    ("the organizer paused", Cause.PAUSED),
    ("the organizer resumed", Cause.RESUMED),
    ("the organizer added", Cause.EXTENDED),
    ("the organizer", Cause.ORGANIZER),
    ("the timer", Cause.TIMER),
    ("the opening draw", Cause.DRAW),
    ("players came or went", Cause.RESEATED),
    ("the movement after", Cause.MOVEMENT),
    ("straight after", Cause.STRAIGHT_ON),
    ("the break is over", Cause.BREAK_OVER),
    ("a ", Cause.BREAK),
)


def legacy_reason(words: str) -> str:
    """The cause a version 1 file gave in words, as data ("" where the words name none)."""
    return next((str(reason) for start, reason in LEGACY_WORDS if words.startswith(start)), "")


# The night's settings (the date and the chart numbering apart: see below) and its state.
NIGHT_FIELDS = (
    *(
        name
        for name in NIGHT_SETTINGS
        if name not in ("date", "numbering", "head_table_ends", "points_target", "prize_rules", "substitutes")
    ),
    *("rules", "seed", "status"),
)
# Settings added after the format was first written: a backup made before them restores with these values.
LATER_NIGHT_FIELDS = {
    "chart_size": None,
    "numbering": "arrival",
    "chart": None,
    "head_table_ends": True,  # how games end: before these two, always the head table's hands and the timer
    "points_target": None,
    "signup_open": False,  # sign-up from the public link: before it, there was none
    "signup_cap": None,
    "checkin_open": False,
    "currency": "USD",  # the door's money: before it, none was kept
    "price_pre": 0,
    "price_door": 0,
    "price_member": None,
    "payouts": "",
    "house_share": 0,
    "prize_rules": "",  # who may take each prize: before it, anyone
    "partner_groups": "",  # partner wishes: before them, none
    "substitutes": "card",  # substitutes: before them, none
    "hold_next": False,  # held before the next game: before it, never
}
ROUND_TIMES = ("starts_at", "started_at", "ends_at", "bell_at", "closed_at")


def _same(*names: str) -> dict[str, str]:
    """File keys that are the model's field names."""
    return {name: name for name in names}


POINTS = {"ns": "ns_points", "ew": "ew_points"}  # a game's or a hand's points, as the file names them


@dataclasses.dataclass
class Names:
    """How the file names what the database names by id: a player (by player id) and an entry (by entry id) by
    the player's key in the night."""

    players: dict[int, str]
    entries: dict[int, str]


@dataclasses.dataclass(frozen=True, eq=False)
class Codec:
    """One kind of record in the file: what it is, where it sits, how each field is written and read back."""

    key: str  # where the records sit: the list of that name in their parent's record (or the file's, the night's)
    model: type[models.Model]
    fields: Mapping[str, str]  # the file's key for each model field carried as its value
    parent: str | None = "night"  # the field naming the record they belong to
    order: tuple[str, ...] = ()  # the database order the file lists them in, or
    sort: tuple[str, ...] = ()  # the file keys they are sorted by (records named by people, not database order)
    compact: bool = False  # each record a list of its values in `fields`' order, the list sorted
    # Keys a file written before them lacks, with what such a file restores with (or a function of its record, for
    # a value worked out from what the file did say).
    later: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    part_of_later: bool = False  # a list a file written before it lacks: restored as none
    omit_empty: bool = False  # left out of its parent's record when there are none
    where: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # which of the model's records it holds
    fills: str = ""  # the kind (by key) whose records these give fields to, matched on the first field
    children: tuple[Codec, ...] = ()
    # Fields carried in a shape of their own, and where; `shaped` writes those keys (reading `related` too).
    elsewhere: Mapping[str, str] = dataclasses.field(default_factory=dict)
    shaped: Callable[[Any, Names], dict[str, Any]] | None = None
    related: tuple[str, ...] = ()

    def field(self, key: str) -> models.Field:
        field = self.model._meta.get_field(self.fields[key])
        assert isinstance(field, models.Field)
        return field

    def parent_column(self) -> str | None:
        """The parent's id as the records hold it (`round_id`), or None for the night's own record."""
        if self.parent is None:
            return None
        field = self.model._meta.get_field(self.parent)
        assert isinstance(field, models.Field)
        return field.attname

    def carried(self) -> set[str]:
        """The model fields this kind carries, in one shape or another."""
        return {*self.fields.values(), *([self.parent] if self.parent else []), *self.elsewhere}

    def values(self, *, without: tuple[str, ...] = ()) -> dict[str, str]:
        """The file keys whose values are the field's own (no account, no player, no duration): what the checks
        hold against the model field's type, range and validators."""
        return {
            key: name
            for key, name in self.fields.items()
            if key not in without
            and not self.field(key).is_relation
            and not isinstance(self.field(key), models.DurationField)
        }

    def accounts(self) -> list[str]:
        """The file keys naming an account (by its user name)."""
        return [key for key in self.fields if self.field(key).related_model is get_user_model()]

    def restored_with(self, row: Mapping[str, Any], key: str) -> Any:
        """What a file's record gives for `key`: its value, or (for a file written before it) the later default."""
        if key in row or key not in self.later:
            return row[key]
        default = self.later[key]
        return default(row) if callable(default) else default


def _player_shape(entry: Entry, names: Names) -> dict[str, Any]:
    # "unlisted" only for a player who asked to be left off public lists: the club's site they are published to
    # keeps them off its lists too (a file without it, or with false, lists nobody anew: see `restore._players`).
    unlisted = {"unlisted": True} if entry.player.unlisted else {}
    # The player's results link, so that the link printed on the tally card (and mailed) opens on the club's site the
    # night is published to; a house player has none (later part of the file: a file without it gets new links).
    results = {} if entry.player.house else {"results": entry.player.results_token}
    return {"key": names.players[entry.player_id], "house": entry.player.house, **unlisted, **results}


def _pair_shape(wish: PartnerWish, names: Names) -> dict[str, Any]:
    return {"players": sorted([names.players[wish.first_id], names.players[wish.second_id]])}


def gone_shape(payment: Payment, _names: Names | None = None) -> dict[str, Any]:
    """A line of a player taken off the night names them (`Payment.name`); any other line names its player."""
    return {"name": payment.name} if payment.entry_id is None else {}


def took_in(line: PotLine, _names: Names | None = None) -> dict[str, Any]:
    """The jackpot carry a line took in, named by the carrying night's uid and its pot line's number there (a later
    part of the file: only on a line that took one in)."""
    name = line.carry_named or (line.carried_from.carry_name() if line.carried_from else "")
    if not name:
        return {}
    uid, _, number = name.rpartition(":")
    return {"took_in": {"night": uid, "line": int(number)}}


NIGHT = Codec(
    "night",
    Night,
    _same("uid", "date", *NIGHT_FIELDS, *LATER_NIGHT_FIELDS),
    parent=None,
    later=LATER_NIGHT_FIELDS,
    elsewhere={"keepers": "“keepers”: their accounts' user names"},
)
# A player and their entry in the night: the entry's fields, the player's key (house players numbered within the
# night) and whether they are a house player. A player new here is put on the roster from the name, club number
# and category the night had.
PLAYERS = Codec(
    "players",
    Entry,
    {
        **_same("name", "club_number", "category", "checked_in", "checked_in_by_phone", "price_kind", "active"),
        **_same("bye_offset", "number", "card", "code"),
    },
    sort=("key",),
    later={
        "club_number": "",
        "category": "",
        "checked_in_by_phone": False,
        "price_kind": "pre",
        "number": None,
        # Cards and codes travel with the night; a file from before they did gets new ones, in its order.
        "card": None,
        "code": None,
    },
    elsewhere={"player": "“key”, “house”, “unlisted” and “results”", "substitute_for": "“substitutes”"},
    shaped=_player_shape,
    related=("player",),
)
# The player a night's entry is, carried in the entry's record: a player new here joins the roster as the night had
# them.
WITH_THE_ENTRY = {
    "name": "“players”: “name”",
    "house": "“players”: “house”",
    "club_number": "“players”: “club_number”",
    "category": "“players”: “category”",
    # written only when true; restored as a wish to be left off public lists, never as a wish to be listed
    "unlisted": "“players”: “unlisted”",
    # a player new here takes the file's link unless another player here has it; one on the roster keeps their own
    "results_token": "“players”: “results”",
}
SUBSTITUTES = Codec(
    "substitutes",
    Entry,
    {"player": "player", "for": "substitute_for"},
    where={"substitute_for__isnull": False},
    sort=("player",),
    fills="players",
    part_of_later=True,
)
SEATS = Codec("seats", Seating, _same("table", "seat", "player"), parent="round", compact=True)
# Fixed partners playing a game apart at the tables of three: their seats' partners (only where any).
APART = Codec(
    "apart",
    Seating,
    _same("player", "partner"),
    parent="round",
    compact=True,
    where={"partner__isnull": False},
    fills="seats",
    part_of_later=True,
    omit_empty=True,
)
BYES = Codec("byes", Bye, _same("player", "partner"), parent="round", compact=True)
HANDS = Codec(
    "hands",
    Hand,
    {
        **_same("number", "dealer", "makers", "maker", "alone", "blind", "defender_alone", "bid", "pepper"),
        **_same("renege", "passed", "tricks", "recorded_at"),
        **POINTS,
    },
    parent="result",
    order=("number",),
    later={"renege": "", "passed": False},
)
RESULTS = Codec(
    "results",
    TableResult,
    {
        **_same("table", "seat_points", "hands_played", "winner", "tie_break", "status", "entry", "version"),
        **_same("entered_by"),
        **POINTS,
    },
    parent="round",
    order=("table",),
    later={"seat_points": None},  # a table of three's points by seat (null at a four)
    children=(HANDS,),
)
SUBMISSIONS = Codec(
    "submissions",
    Submission,
    {
        **_same("table", "number", "role", "user", "side", "seat_points", "last_hand_winner", "status", "reason"),
        **_same("before", "confirmed_by", "key", "created_at"),
        **POINTS,
    },
    parent="round",
    order=("table", "number"),
    later={"seat_points": None},
)
EVENTS = Codec(
    "events",
    RoundEvent,
    _same("at", "action", "status", "cause", "reason", "by"),
    parent="round",
    order=("at", "id"),
    later={"reason": lambda row: legacy_reason(row["cause"])},  # version 1 gave the cause in words only
)
ROUNDS = Codec(
    "rounds",
    Round,
    _same("number", "status", *ROUND_TIMES, "paused_left", "token", "bell_cause", "bell_reason"),
    order=("number",),
    later={"bell_reason": lambda row: legacy_reason(row["bell_cause"])},  # version 1 gave the cause in words only
    children=(SEATS, APART, BYES, RESULTS, SUBMISSIONS, EVENTS),
)
TABLE_LINKS = Codec("table_links", TableLink, _same("table", "token", "active"), order=("table", "token"))
PAYMENTS = Codec(
    "payments",
    Payment,
    {"player": "entry", **_same("cents", "method", "reason", "by", "at")},
    order=("at", "id"),
    part_of_later=True,
    # Only a line whose player was taken off the night (“player” null) names them: before it, no line could
    # outlive its player.
    elsewhere={"name": "“name”, only on a line whose player was taken off the night"},
    shaped=gone_shape,
)
POT_LINES = Codec(
    "pot_lines",
    PotLine,
    _same("pot", "kind", "cents", "reason", "by", "at"),
    order=("at", "id"),
    part_of_later=True,
    # The carry a line took in, by the carrying night's uid and its line's number there (only on such a line; a
    # line without it took none in: TOOK_IN_DEFAULT, from version TOOK_IN_FROM on).
    elsewhere={"carried_from": "“took_in”", "carry_named": "“took_in”"},
    shaped=took_in,
    related=("carried_from__night",),
)
DRAWS = Codec(
    "draws",
    Draw,
    _same("number", "title", "pool_kind", "prize", "pool", "seed", "winners", "on_display", "by", "at"),
    order=("number",),
    part_of_later=True,
)
PARTNER_WISHES = Codec(
    "partner_wishes",
    PartnerWish,
    _same("kind"),
    sort=("kind", "players"),
    part_of_later=True,
    elsewhere={"first": "“players”, the two sorted", "second": "“players”, the two sorted"},
    shaped=_pair_shape,
)
SIGNUPS = Codec(
    "signups",
    SignUp,
    {**_same("name", "contact", "category", "status", "key", "created_at"), "player": "entry"},
    order=("created_at", "id"),
    part_of_later=True,
)

# The file's lists under the night, in the order the restore makes them (a pot line names a payment's player…).
PARTS = (PLAYERS, ROUNDS, TABLE_LINKS, PAYMENTS, POT_LINES, DRAWS, SUBSTITUTES, PARTNER_WISHES, SIGNUPS)


def codecs() -> list[Codec]:
    """Every codec, the night's first, each before its children."""
    found: list[Codec] = []

    def walk(codec: Codec) -> None:
        found.append(codec)
        for child in codec.children:
            walk(child)

    for codec in (NIGHT, *PARTS):
        walk(codec)
    return found


# What a backup leaves out, on purpose, and why. A model field that is in no codec and not here fails
# tests/tournament/test_backup_schema.py: decide where it goes.
ANY_MODEL = {"id": "the file names records by their place and by people's names, never by database ids"}
NOT_BACKED_UP: dict[type[models.Model], dict[str, str]] = {
    Night: {
        "club": "a night is restored into the club that restores it (on a hosted server, the organizer's)",
        "results_public": "whether the club's public results list the night: the club's choice on its own site",
        "publish_live": "the laptop's choice to publish after each game, not the night's record",
        "published_at": "when this laptop last published the night: a restored night was never published from here",
        "publish_asked_at": "when this laptop last queued the night for its club's site: the laptop's, not the night's",
        "publish_note": "why this laptop's last try to publish did not land: the laptop's, not the night's",
        "from_venue_at": "when a venue last sent the night to this site: the site's, not the night's",
        "created_by": "the night is the restoring organizer's, on the laptop it is restored on",
        "created_at": "when the night was made here: the restore's moment",
        "changed_at": "when the pages last changed, for their live polls: the restore's moment",
        "moved_at": "when the seats last moved, for the phones' live polls: the restore's moment",
    },
    Player: {
        "club": "the roster it is on: the restoring club's",
        "name_key": "worked out from the name (a house player's from the night and their number)",
        "created_at": "when the player joined this roster: the restore's moment for one new here",
    },
    Entry: {
        "checkin_key": "the check-in form's one-time key, for a tap sent twice that night",
        "results_mailed_at": "when this laptop e-mailed the results link; a restored night has e-mailed nobody yet",
        "created_at": "when the player joined the night here: the restore's moment",
    },
    TableResult: {
        "extras": "worked out again from the hands on the way in (scoring.services.result_extras_refresh)",
        "updated_at": "when the result was last written: the restore's moment",
    },
    TableLink: {"created_at": "when the link was made: the restore's moment"},
    Payment: {"key": "the door form's one-time key, for a tap sent twice that night"},
    PotLine: {"key": "the Money page's one-time key, for a tap sent twice that night"},
    SignUp: {
        "form_key": "the sign-up form's one-time key, for a form sent twice that night",
        "unlisted": "the player's choice goes with the player once the sign-up is in (“players”: “unlisted”)",
    },
    Draw: {"key": "the draw form's one-time key, for a tap sent twice that night"},
    Hand: {"key": "the table phone's one-time key for the hand, for a hand sent again after a lost answer"},
}
# Whole models a night's backup does not carry, and why.
NOT_A_NIGHTS_RECORD: dict[type[models.Model], str] = {
    Club: "a club holds nights; its name, address and keys are its own, on each server",
    Membership: "which club an account works for, kept on each server apart",
    Season: "a season spans nights and is kept on its own; a restored night is added to one on the Seasons page",
    PrintJob: "a print job is a file being built; the restored night prints its sheets anew",
    ImportPreview: "a previewed CSV waiting an hour at most for its Import button",
    ActionKey: "one-time keys of a table phone's Undo and Game over, for a tap sent again after a lost answer",
    CodeMiss: "wrong confirmation codes typed at a table, counted for a few minutes to slow guessing",
}


# ---- values into the file and back ---------------------------------------------------------------------------------


def value_out(field: models.Field, record: models.Model, names: Names) -> Any:
    """A field's value as the file writes it."""
    value = getattr(record, field.attname)
    if value is None:
        return None
    target = field.related_model
    if target is Player:
        return names.players[value]
    if target is Entry:
        return names.entries[value]
    if field.is_relation:  # an account: the records were read with it
        return getattr(record, field.name).get_username()
    if isinstance(field, models.DateTimeField | models.DateField):
        return value.isoformat()
    if isinstance(field, models.DurationField):
        return value.total_seconds()
    if isinstance(field, models.UUIDField):
        return str(value)
    return value


@dataclasses.dataclass
class Made:
    """What the restore made, by the file's names: accounts by user name, players and entries by key."""

    accounts: dict[str, Any]
    players: dict[str, Player] = dataclasses.field(default_factory=dict)
    entries: dict[str, Entry] = dataclasses.field(default_factory=dict)


def value_in(field: models.Field, value: Any, made: Made) -> Any:
    """A value of the file (checked) as the model field takes it."""
    if value is None:
        return None
    target = field.related_model
    if target is Player:
        return made.players[value]
    if target is Entry:
        return made.entries[value]
    if field.is_relation:  # an account, by user name ("": nobody)
        return made.accounts[value] if value else None
    if isinstance(field, models.DateTimeField):
        return parse_datetime(value)
    if isinstance(field, models.DateField):
        return parse_date(value)
    if isinstance(field, models.DurationField):
        return dt.timedelta(seconds=value)
    return value


def encode(codec: Codec, record: models.Model, names: Names) -> Any:
    """One record as the file writes it (a record of named values, or a compact list)."""
    values = {key: value_out(codec.field(key), record, names) for key in codec.fields}
    return list(values.values()) if codec.compact else values


def decode(codec: Codec, row: Any, made: Made) -> dict[str, Any]:
    """One record of the file (checked) as the model's field values (its parent apart)."""
    if codec.compact:
        row = dict(zip(codec.fields, row, strict=True))
    return {codec.fields[key]: value_in(codec.field(key), codec.restored_with(row, key), made) for key in codec.fields}


def auto_times(codec: Codec) -> list[str]:
    """The fields the database sets when a record is made (auto_now_add) that the file carries: set again after."""
    return [name for name in codec.fields.values() if getattr(codec.model._meta.get_field(name), "auto_now_add", False)]
