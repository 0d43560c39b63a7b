"""Every field of a night's file checked before anything is written, and what the night means: the checks the
forms and services apply, so a file edited by hand (its checksum recomputed) cannot restore a night they could not
have made. The keys each record is checked by are its codec's (`schema`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
import re
import sys
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_date, parse_datetime

from scoring import names, rules, three
from scoring.ending import GameEnd, ending, three_totals_fault
from scoring.models import Hand, Submission, TableLink, TableResult
from scoring.seats import HEAD_TABLE, SEATS, is_three
from scoring.three import THREE_SEATS

from .. import schema
from ..engine import draws, money, rotation
from ..models import (
    CODE_DIGITS,
    NAME_LENGTH,
    Draw,
    Entry,
    Night,
    PartnerWish,
    Payment,
    Player,
    PotLine,
    Round,
    RoundEvent,
    Seating,
    SignUp,
)
from ..schema import FORMAT, READS, VERSION, _same
from ..services.draws import MOST_TICKETS
from .export import canonical


def refuse(message: str) -> ValidationError:
    return ValidationError({"file": message})


def _limit(name: str) -> int:
    """One of the file's limits (MAX_BYTES, MAX_PLAYERS), as the package `tournament.backup` says it."""
    return getattr(sys.modules[__package__], name)


# A backup nests eight levels deep (a hand in a result in a game); far deeper is not one of ours, and refusing it
# early keeps the checksum's encoder and these checks clear of Python's recursion limit.
MAX_DEPTH = 20
_SURROGATE = re.compile("[\ud800-\udfff]")
NOTHING = "Nothing was restored."


def _shape(data: Any) -> None:
    """Refuse nesting far deeper than a backup's and text that is not Unicode (a lone surrogate from a \\u escape),
    which the checksum's encoder and both databases would fail on. Walked without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise refuse(f"This is not a Head Table backup: its content is nested too deep. {NOTHING}")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in (*value, *value.values()))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and _SURROGATE.search(value):
            raise refuse(
                "This is not a Head Table backup: it holds text that is not valid Unicode (a lone surrogate). "
                + NOTHING
            )


def parse(raw: bytes) -> dict[str, Any]:
    """The file's content, once it is a Head Table backup of a version this reads, with its checksum right."""
    if len(raw) > _limit("MAX_BYTES"):
        raise refuse(
            f"This file is {len(raw) / 1_000_000:.1f} MB: a night's backup is far smaller (at most a few MB)."
            f" Is it the right file? {NOTHING}"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise refuse("This is not a Head Table backup: it is not JSON.") from error
    except RecursionError as error:
        raise refuse(f"This is not a Head Table backup: its content is nested too deep. {NOTHING}") from error
    except ValueError as error:  # a number of thousands of digits, which Python declines to read
        raise refuse(f"This is not a Head Table backup: it holds a number far too long. {NOTHING}") from error
    _shape(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise refuse("This file is not a Head Table night backup.")
    version = data.get("version")
    if isinstance(version, bool) or version not in READS:
        raise refuse(f"This backup is format version {version}; this Head Table reads versions 1 to {VERSION}.")
    payload = {k: v for k, v in data.items() if k != "checksum"}
    if hashlib.sha256(canonical(payload)).hexdigest() != data.get("checksum"):
        raise refuse("This backup is damaged (its checksum does not match its content): nothing was restored.")
    return data


# ---- every field checked before anything is written ---------------------------------------------------------------
#
# A file whose content was edited and its checksum recomputed reaches here. Each value is checked against the model
# field it fills (its type, the column's range on every database, its length, its choices and validators, through
# full_clean) and against the rules the forms and services apply (scores the night's rules can make, seats that
# exist, names that are registered), so a refusal names the first thing wrong and where, and PostgreSQL and SQLite
# refuse the same files, before any statement.

# The column ranges Django declares for every database: SQLite would store larger numbers, PostgreSQL refuses them.
INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges
# The numbers of a ruleset the organizer may type (the rules form's range).
RULE_NUMBERS = (-99, 99)
# A paused timer holds what is left of a game and its extensions: hours, never a week.
MAX_PAUSED = dt.timedelta(days=7)


# The file's names for each record's fields, as its codec gives them; a moment that a record's own check reads
# with its own words (“at”, “created_at”) is left to it.
RESULT_KEYS = schema.RESULTS.values()
HAND_KEYS = schema.HANDS.values()
SUBMISSION_KEYS = schema.SUBMISSIONS.values()
ROUND_KEYS = schema.ROUNDS.values()
EVENT_KEYS = schema.EVENTS.values()
LINK_KEYS = schema.TABLE_LINKS.values()
# A player's name, club number and category are checked as the roster's player takes them; the rest as the entry's.
RESULTS_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")  # a player's results link, as `models.results_token` makes them
PLAYER_KEYS = {**_same("name", "club_number", "category", "unlisted"), "house": "house"}
ENTRY_KEYS = schema.PLAYERS.values(without=tuple(PLAYER_KEYS))
PAYMENT_KEYS = schema.PAYMENTS.values(without=("at",))
SIGNUP_KEYS = schema.SIGNUPS.values(without=("created_at",))
POT_KEYS = schema.POT_LINES.values(without=("at",))
DRAW_KEYS = schema.DRAWS.values(without=("at",))


def fail(place: str, problem: str) -> ValidationError:
    return refuse(f"{place}: {problem} {NOTHING}")


def _shown(value: Any) -> str:
    """A value from the file as a message quotes it, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _no_nul(value: Any, place: str, key: str) -> None:
    """PostgreSQL stores no NUL character in text or JSON; refused here on every database alike."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and "\x00" in item:
            raise fail(place, f"“{key}” holds a NUL character (a zero byte), which no text in a night may hold.")
        if isinstance(item, dict):
            stack.extend((*item, *item.values()))
        elif isinstance(item, list):
            stack.extend(item)


def _visible(value: str, place: str, key: str) -> None:
    """A name as the forms keep it (they drop these characters): no zero-width space or joiner, byte-order mark,
    direction mark or control character, which would make two names that look alike differ, or a category that
    looks like its prize's never match it."""
    if char := names.invisible(value):
        raise fail(
            place,
            f"“{key}” holds an invisible or control character (U+{ord(char):04X}), which no name, category or venue"
            " may hold (the app's forms drop them).",
        )


def _moment(value: Any, place: str, key: str, *, date: bool = False) -> Any:
    """A date (or a date and time, with its time zone) as the file writes it."""
    if not isinstance(value, str):
        raise fail(place, f"“{key}” must be a date written as text, not {_shown(value)}.")
    try:
        parsed = parse_date(value) if date else parse_datetime(value)
        if isinstance(parsed, dt.datetime) and parsed.tzinfo is not None:
            parsed.astimezone(dt.UTC)  # a time at the very end of the calendar overflows when it is stored
    except (ValueError, OverflowError):
        parsed = None
    if parsed is None:
        raise fail(place, f"“{key}” is {_shown(value)}, which is not a date{'' if date else ' and time'}.")
    if isinstance(parsed, dt.datetime) and parsed.tzinfo is None:
        raise fail(place, f"“{key}” is {_shown(value)}, a time without its time zone.")
    return parsed


def _value(model: type[models.Model], name: str, value: Any, place: str, key: str) -> Any:
    """A file's value checked against the type and range of the model field it fills, as that field takes it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    if value is None:
        if field.null:
            return None
        raise fail(place, f"“{key}” is empty (null), and it may not be.")
    kind = field.get_internal_type()
    if kind in INTEGER_RANGES:
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(place, f"“{key}” must be a whole number, not {_shown(value)}.")
        low, high = INTEGER_RANGES[kind]
        if not low <= value <= high:
            raise fail(place, f"“{key}” is {_shown(value)}, outside the range {low} to {high}.")
    elif kind == "BooleanField":
        if not isinstance(value, bool):
            raise fail(place, f"“{key}” must be true or false, not {_shown(value)}.")
    elif kind in ("CharField", "TextField", "UUIDField"):
        if not isinstance(value, str):
            raise fail(place, f"“{key}” must be text, not {_shown(value)}.")
        _no_nul(value, place, key)
    elif kind in ("DateField", "DateTimeField"):
        return _moment(value, place, key, date=kind == "DateField")
    elif kind == "JSONField":
        _no_nul(value, place, key)
    else:  # a field this file does not carry as itself (a duration is written in seconds)
        raise AssertionError(f"{model.__name__}.{name} is not read from a backup as it is")
    return value


def _record(
    model: type[models.Model],
    row: Any,
    place: str,
    keys: Mapping[str, str],
    *,
    optional: Iterable[str] = (),
    extra: Mapping[str, Any] | None = None,
) -> Any:
    """One record of the file, checked field by field and then by the model's own validation (choices, lengths,
    validators, its clean()), as an unsaved instance. `keys` maps the file's names to the model's; `optional`
    keys may be missing (files written before they were); `extra` gives fields already checked."""
    if not isinstance(row, dict):
        raise fail(place, f"this should be a record of named values, not {_shown(row)}.")
    values = dict(extra or {})
    for key, name in keys.items():
        if key in row:
            values[name] = _value(model, name, row[key], place, key)
        elif key not in optional:
            raise fail(place, f"“{key}” is missing: this backup is incomplete or malformed.")
    instance = model(**values)
    try:
        instance.full_clean(
            exclude=[field.name for field in model._meta.fields if field.name not in values],
            validate_unique=False,
            validate_constraints=False,
        )
    except ValidationError as error:
        name, messages = next(iter(error.message_dict.items()))
        key = next((key for key, field in keys.items() if field == name), name)
        raise fail(place, messages[0] if name == NON_FIELD_ERRORS else f"“{key}”: {messages[0]}") from error
    return instance


def _items(row: Mapping[str, Any], key: str, place: str) -> list[Any]:
    if key not in row:
        raise fail(place, f"“{key}” is missing: this backup is incomplete or malformed.")
    if not isinstance(row[key], list):
        raise fail(place, f"“{key}” should be a list, not {_shown(row[key])}.")
    return row[key]


def _of(place: str) -> str:
    """A place as the middle of a sentence says it ("also player 2's")."""
    return place[0].lower() + place[1:]


def _once(values: Iterable[tuple[Any, str]], what: str) -> None:
    """Refuse the second of two records that share what must be theirs alone (`values`: (value, place))."""
    first: dict[Any, str] = {}
    for value, place in values:
        if value in first:
            raise fail(place, f"{what} {_shown(value)} is also {_of(first[value])}'s.")
        first[value] = place


@functools.lru_cache(maxsize=8)
def _points_range(ruleset: rules.Ruleset) -> tuple[int, int]:
    """The fewest and the most points one side can get from one hand under the night's rules or any preset.

    A game entered as totals is not rescored when the organizer changes the night's rules later (its hands were
    never entered), so a total that was right under the rules of its day may be beyond today's: the limit is the
    loosest of the rules a night could have had, which still refuses a total no game could make."""
    ranges = [rules.points_range(each) for each in (ruleset, *rules.PRESETS.values())]
    return min(low for low, _ in ranges), max(high for _, high in ranges)


def _check_points(place: str, ns: int, ew: int, hands: int, ruleset: rules.Ruleset) -> None:
    """A game's totals within what `hands` hands can make (under the loosest rules the night could have had)."""
    low, high = _points_range(ruleset)
    for key, value in (("ns", ns), ("ew", ew)):
        if value < 0 and low >= 0:
            raise fail(place, f"“{key}” is {value}: points cannot be negative under the night's rules.")
        if value > hands * high:
            raise fail(place, f"“{key}” is {value}, more than {hands} hands can make (at most {hands * high}).")
        if value < hands * low:
            raise fail(place, f"“{key}” is {value}, less than {hands} hands can make (at least {hands * low}).")


def _username(value: Any, place: str, key: str, *, required: bool = False) -> None:
    """An account named in the file (made without a password where it is new): a name Django would accept, or none
    (null or "") where the file may name nobody."""
    if (value is None or value == "") and not required:
        return
    if not isinstance(value, str):
        raise fail(place, f"“{key}” must be a login name (text), not {_shown(value)}.")
    _no_nul(value, place, key)
    users = get_user_model()
    field = users._meta.get_field(users.USERNAME_FIELD)
    assert isinstance(field, models.Field)
    try:
        field.clean(value, None)
    except ValidationError as error:
        raise fail(place, f"“{key}” {_shown(value)}: {error.messages[0]}") from error


def _check_rules(value: Any) -> rules.Ruleset:
    """The night's ruleset as the rules form allows it: each number and switch of its type, then the rules' own
    checks (scoring.rules.check_ruleset)."""
    place = "The night's scoring rules"
    if not isinstance(value, dict):
        raise fail(place, f"“rules” should be a record of named numbers and switches, not {_shown(value)}.")
    for field in dataclasses.fields(rules.Ruleset):
        if field.name not in value:
            continue
        given, default = value[field.name], field.default
        if isinstance(default, bool):
            if not isinstance(given, bool):
                raise fail(place, f"“{field.name}” must be true or false, not {_shown(given)}.")
        elif isinstance(default, int):
            low, high = RULE_NUMBERS
            if isinstance(given, bool) or not isinstance(given, int) or not low <= given <= high:
                raise fail(place, f"“{field.name}” must be a whole number from {low} to {high}, not {_shown(given)}.")
        elif not isinstance(given, str):
            raise fail(place, f"“{field.name}” must be text, not {_shown(given)}.")
    try:
        return rules.Ruleset.from_dict(value)
    except rules.ScoringError as error:
        raise fail(place, str(error)) from error


def _check_chart(chart: Any) -> None:
    """A rotation chart as tournament.charts stores it: every game seats each chart number exactly once."""
    place = "The night's rotation chart"
    if not isinstance(chart, dict):
        raise fail(place, f"“chart” should be a record, not {_shown(chart)}.")
    for key, kind, words in (
        ("players", int, "a whole number"),
        ("games", int, "a whole number"),
        ("seed", int, "a whole number"),
        ("perfect", bool, "true or false"),
        ("rounds", list, "a list"),
    ):
        if key not in chart:
            raise fail(place, f"“{key}” is missing: this backup is incomplete or malformed.")
        if not isinstance(chart[key], kind) or (kind is int and isinstance(chart[key], bool)):
            raise fail(place, f"“{key}” must be {words}, not {_shown(chart[key])}.")
    players, games = chart["players"], chart["games"]
    if not rotation.MIN_PLAYERS <= players <= rotation.MAX_PLAYERS:
        raise fail(
            place, f"it is for {players} players; a chart is for {rotation.MIN_PLAYERS} to {rotation.MAX_PLAYERS}."
        )
    if not 1 <= games <= rotation.full_night(players) or len(chart["rounds"]) != games:
        raise fail(place, f"it should have {games} games (1 to {rotation.full_night(players)}), one record each.")
    everyone = Counter(range(1, players + 1))
    for number, game in enumerate(chart["rounds"], start=1):
        tables, out = (game.get(key) if isinstance(game, dict) else None for key in ("tables", "sit_out"))
        if (
            not isinstance(tables, list)
            or not isinstance(out, list)
            or not all(isinstance(table, list) and len(table) in (3, 4) for table in tables)
            or (not chart.get("threes") and any(len(table) == 3 for table in tables))
        ):
            raise fail(
                place,
                f"game {number} should list its tables (of four, or of three on a night with tables "
                "of three) and who sits out.",
            )
        seated = [n for table in tables for n in table] + out
        if not all(type(n) is int for n in seated) or Counter(seated) != everyone:
            raise fail(place, f"game {number} does not seat each of the numbers 1 to {players} exactly once.")


def _check_night(info: Any) -> Night:
    night = _record(
        Night,
        info,
        "The night",
        schema.NIGHT.values(),
        optional=schema.NIGHT.later,
    )
    for key in ("name", "venue"):
        _visible(getattr(night, key), "The night", key)
    for index, name in enumerate(_items(info, "keepers", "The night"), start=1):
        _username(name, f"The night's keeper {index}", "keepers", required=True)
    if night.chart is not None:
        _check_chart(night.chart)
        if night.chart_size is not None and night.chart_size != night.chart["players"]:
            raise fail(
                "The night", f"“chart_size” is {night.chart_size}, yet its chart is for {night.chart['players']}."
            )
    return night


def _check_money_settings(night: Night, version: int) -> None:
    """The night's money as its forms keep it (the model's clean() has read the payouts and the currency): the
    currency written as the night keeps one, and (from version 3) money only for the night's own prizes."""
    if money.currency_code(night.currency) != night.currency:
        raise fail(
            "The night", f"“currency” is {_shown(night.currency)}: a night keeps three capital letters (USD, EUR…)."
        )
    if version >= 3 and (strays := money.payouts_beyond(money.parse_payouts(night.payouts), night.prize_keys)):
        raise fail(
            "The night",
            f"“payouts” pays “{strays[0]}”, which is not one of the night's prizes ({', '.join(night.prize_keys)}).",
        )


def _check_players(rows: list[Any], night: Night) -> dict[str, str]:
    """Each player and their entry in the night; the places the messages name them by, by key."""
    if len(rows) > (most := _limit("MAX_PLAYERS")):
        raise fail("This backup", f"it has {len(rows):,} players; a night takes at most {most:,}.")
    numbered = night.chart["players"] if night.chart else 0
    places: dict[str, str] = {}
    cards: list[tuple[int, str]] = []
    codes: list[tuple[str, str]] = []
    numbers: list[tuple[int, str]] = []
    named: dict[str, str] = {}  # a player's name as the roster knows people (folded): the first place with it
    for index, row in enumerate(rows, start=1):
        place = f"Player {index}"
        if not isinstance(row, dict):
            raise fail(place, f"this should be a record of named values, not {_shown(row)}.")
        key, house = row.get("key"), row.get("house")
        if not isinstance(key, str):
            raise fail(place, f"“key” must be text, not {_shown(key)}.")
        _no_nul(key, place, "key")
        if house is True and not re.fullmatch(r"house:[0-9]{1,9}", key):
            raise fail(place, f"a house player's “key” is “house:” and a number, not {_shown(key)}.")
        if not 1 <= len(key) <= NAME_LENGTH:
            raise fail(place, f"“key” must be 1 to {NAME_LENGTH} characters long (it has {len(key)}).")
        if key in places:
            raise fail(place, f"“key” {_shown(key)} is also {_of(places[key])}'s.")
        place = places[key] = f"Player {index} ({_shown(key)})"
        player = _record(Player, row, place, PLAYER_KEYS, optional=[*schema.PLAYERS.later, "unlisted"])
        results = row.get("results")
        if results is not None and (house or not isinstance(results, str) or not RESULTS_TOKEN.fullmatch(results)):
            raise fail(place, f"“results” must be a results link's 32 letters, digits, - and _, not {_shown(results)}.")
        if not Player.key_for(player.name):
            raise fail(place, "“name” has nothing in it to show (only spaces or invisible characters).")
        for field in ("name", "club_number", "category"):
            _visible(getattr(player, field), place, field)
        if not house and (first := named.setdefault(Player.key_for(player.name), place)) != place:
            # the roster has one player of a name: a night cannot have two (the forms refuse the second)
            raise fail(
                place, f"“name” {_shown(player.name)} is also {_of(first)}'s name: a night has one player of a name."
            )
        # An entry's card and code may be missing (files from before they travelled): they are given out anew.
        given = {k: v for k, v in row.items() if k not in ("card", "code") or v}
        entry = _record(Entry, given, place, ENTRY_KEYS, optional=schema.PLAYERS.later)
        if entry.number is not None and not numbered:
            raise fail(place, f"“number” is {entry.number}, yet the night has no rotation chart to number it on.")
        if entry.number is not None and not 1 <= entry.number <= numbered:
            raise fail(place, f"“number” is {entry.number}: the night's chart numbers are 1 to {numbered}.")
        if "code" in given and not (len(entry.code) == CODE_DIGITS and entry.code.isascii() and entry.code.isdigit()):
            raise fail(place, f"“code” {_shown(entry.code)} is not a confirmation code of {CODE_DIGITS} digits.")
        cards.extend([(entry.card, place)] if "card" in given else [])
        codes.extend([(entry.code, place)] if "code" in given else [])
        numbers.extend([(entry.number, place)] if entry.number is not None else [])
    _once(cards, "Tally-card number")
    _once(codes, "Confirmation code")
    _once(numbers, "Chart number")
    return places


def _check_seats(
    row: dict[str, Any], place: str, players: Mapping[str, str], threes: bool = False
) -> tuple[set[int], set[int]]:
    """A game's seats and byes: real seats at tables of four (or, on a night with `threes`, tables of three in N, E
    and S), each naming a player of the night once. The game's tables, and its tables of three."""
    tables: dict[int, set[str]] = {}
    seated: set[str] = set()
    for number, item in enumerate(_items(row, "seats", place), start=1):
        where = f"{place}, seat {number}"
        if not isinstance(item, list) or len(item) != 3:
            raise fail(where, f"a seat is [table, seat letter, player's key], not {_shown(item)}.")
        table, seat, key = item
        _record(Seating, {"table": table, "seat": seat}, where, _same("table", "seat"))
        if table < 1:
            raise fail(where, f"“table” is {table}: tables are numbered from 1.")
        if not isinstance(key, str) or key not in players:
            raise fail(where, f"it seats {_shown(key)}, who is not among the night's players.")
        if seat in tables.setdefault(table, set()):
            raise fail(where, f"table {table} seat {seat} is given twice.")
        if key in seated:
            raise fail(where, f"{_of(players[key])} has two seats in this game.")
        tables[table].add(seat)
        seated.add(key)
    small = {table for table, seats in tables.items() if threes and is_three(seats)}
    for table, seats in sorted(tables.items()):
        if len(seats) != len(SEATS) and table not in small:
            also = " (or three, N, E and S, on a night with tables of three)" if threes else ""
            raise fail(place, f"table {table} has {len(seats)} seats filled: a table seats four, N, E, S and W{also}.")
    out: set[str] = set()
    for number, item in enumerate(_items(row, "byes", place), start=1):
        where = f"{place}, bye {number}"
        if not isinstance(item, list) or len(item) != 2:
            raise fail(where, f"a bye is [player's key, partner's key or null], not {_shown(item)}.")
        for key in item if item[1] is not None else item[:1]:
            if not isinstance(key, str) or key not in players:
                raise fail(where, f"it names {_shown(key)}, who is not among the night's players.")
        if item[0] in seated:
            raise fail(where, f"{_of(players[item[0]])} both sits out and has a seat in this game.")
        if item[0] in out:
            raise fail(where, f"{_of(players[item[0]])} sits out twice in this game.")
        out.add(item[0])
    return set(tables), small


def _check_apart(row: dict[str, Any], place: str, players: Mapping[str, str], small: set[int], night: Night) -> None:
    """Fixed partners playing a game apart (“apart”: [player's key, partner's key] pairs, optional): a
    fixed-partners night with tables of three, both seated at tables of three, each named once, each other's."""
    rows = row.get("apart", [])
    if not isinstance(rows, list):
        raise fail(place, f"“apart” should be a list, not {_shown(rows)}.")
    if rows and (night.movement != Night.Movement.FIXED_PARTNERS or night.fill != Night.Fill.THREES):
        raise fail(place, "“apart” lists partners playing apart, yet only fixed partners with tables of three do.")
    at_three = {item[2] for item in row["seats"] if item[0] in small}
    partner: dict[str, str] = {}
    for number, item in enumerate(rows, start=1):
        where = f"{place}, apart {number}"
        if not isinstance(item, list) or len(item) != 2 or not all(isinstance(k, str) for k in item):
            raise fail(where, f"it is [player's key, partner's key], not {_shown(item)}.")
        for key in item:
            if key not in at_three:
                raise fail(where, f"{_of(players[key]) if key in players else _shown(key)} is not at a table of three.")
        if item[0] == item[1] or item[0] in partner:
            raise fail(where, f"{_of(players[item[0]])} is named twice, or as their own partner.")
        partner[item[0]] = item[1]
    if any(partner.get(mate) != key for key, mate in partner.items()):
        raise fail(place, "“apart” names a partner who does not name them back.")


def _check_three_points(points: Any, where: str, hands: int) -> dict[str, int]:
    """A table of three's points: a whole number for each of N, E and S that `hands` hands could make."""
    whole = isinstance(points, dict) and all(type(points.get(seat)) is int for seat in THREE_SEATS)
    if not whole or set(points) != set(THREE_SEATS):
        raise fail(where, f"“seat_points” is a whole number for each of N, E and S, not {_shown(points)}.")
    if errors := three.check_totals(points, hands):
        seat, reason = next(iter(errors.items()))
        raise fail(where, f"“seat_points” {seat}: {reason}")
    return points


def _check_result(item: Any, where: str, night: Night, ruleset: rules.Ruleset, small: bool = False) -> TableResult:
    """One table's game: its fields, then what the scoring services would have allowed of it. `small`: the table
    seats three, whose game is each player's points (`seat_points`), entered as totals."""
    result = _record(TableResult, item, where, RESULT_KEYS, optional=schema.RESULTS.later)
    if "entered_by" not in item:
        raise fail(where, "“entered_by” is missing: this backup is incomplete or malformed.")
    _username(item["entered_by"], where, "entered_by")
    hands = _items(item, "hands", where)
    if result.seat_points is not None and not small:
        raise fail(where, "“seat_points” are a table of three's, yet four sit at this table.")
    if small:
        return _check_three_result(result, hands, where, night)
    ns, ew = result.ns_points, result.ew_points
    end = night.game_end()
    cap, head_hands = end.cap, end.head_hands(result.table == HEAD_TABLE)
    if result.entry == TableResult.Entry.TOTALS:
        if hands:
            raise fail(where, "a game entered as totals has no hands, yet hands are listed.")
        if result.status != TableResult.Status.FINAL:
            raise fail(where, "a game entered as totals is always in (“status” final).")
        if result.hands_played is not None and not 1 <= result.hands_played <= cap:
            raise fail(where, f"“hands_played” is {result.hands_played}: it must be between 1 and {cap}.")
        played = result.hands_played or head_hands or cap
        _check_points(where, ns, ew, played, ruleset)
        # As the points' range: any rules the night could have had (a rules change keeps totals).
        under = next((each for each in (ruleset, *rules.PRESETS.values()) if not end.totals_fault(ns, ew, each)), None)
        if under is None:
            raise fail(where, end.totals_fault(ns, ew, ruleset))
        _check_typed_winner(result, where, GameEnd.of(end, under), under)
        return result
    else:
        most = head_hands or cap
        if not 1 <= len(hands) <= most:
            raise fail(where, f"a game entered hand by hand has 1 to {most} hands here, not {len(hands)}.")
        made = (0, 0)
        went_to: str | None = None  # the side the hand before went to ("on offense" only it reaches the target)
        for number, row in enumerate(hands, start=1):
            place = f"{where}, hand {number}"
            hand = _record(Hand, row, place, HAND_KEYS, optional=schema.HANDS.later)
            if hand.number != number:
                raise fail(place, f"“number” is {hand.number}: a game's hands are numbered 1, 2, 3… in order.")
            try:
                score = rules.score_hand(hand.as_rules_hand(), ruleset)
            except rules.ScoringError as error:
                raise fail(place, str(error)) from error
            if (score.ns, score.ew) != (hand.ns_points, hand.ew_points):
                raise fail(
                    place,
                    f"under the night's rules this hand gives N–S {score.ns}, E–W {score.ew}, "
                    f"not {hand.ns_points}–{hand.ew_points}.",
                )
            if end.reached(*made, went_to):
                raise fail(place, f"the game had reached {end.target} points before this hand.")
            made = (made[0] + score.ns, made[1] + score.ew)
            went_to = score.winner
        if made != (ns, ew):
            raise fail(where, f"its hands add up to {made[0]}–{made[1]}, not {ns}–{ew}.")
        if result.hands_played != len(hands):
            raise fail(where, f"“hands_played” is {_shown(result.hands_played)}, yet {len(hands)} hands are listed.")
        _check_hands_winner(result, where, end, ruleset, went_to)
        return result


def _check_hands_winner(
    result: TableResult, where: str, end: GameEnd, ruleset: rules.Ruleset, went_to: str | None
) -> None:
    """A game entered hand by hand is won as the scoring services decide it (`scoring.ending`, from the hands): by
    the side that reached the target with the last hand (on offense, the bid), else by the higher total; a tie
    says how it was decided (the last hand, or the app's draw, by the night's rule of its day)."""
    ns, ew = result.ns_points, result.ew_points
    outcome = ending(end, ruleset, ns, ew, last_hand=went_to, from_hands=True, tie_rule="last_hand", draw_seed=0)
    if outcome.reached is None and ns == ew:
        if not result.tie_break:
            raise fail(where, f"a tied game ({ns}–{ew}) says how it was decided (“tie_break”).")
    elif (result.winner, result.tie_break) != (outcome.winner, ""):
        if outcome.reached is not None:
            raise fail(where, f"{outcome.reached} reached {end.target} with the last hand: the game is theirs.")
        raise fail(where, f"a game of {ns}–{ew} is won by {outcome.winner}, with no “tie_break”.")


def _check_typed_winner(result: TableResult, where: str, end: GameEnd, ruleset: rules.Ruleset) -> None:
    """A game entered as totals is won as the scoring services decide it (`scoring.ending`): at the target by the
    game's rule (where the totals leave it open, the team the keeper said won the last hand decides), at the bell
    by the higher total, a tie by the team that won the last hand or the app's draw."""
    ns, ew = result.ns_points, result.ew_points
    allowed = set()
    for side in ("NS", "EW"):
        outcome = ending(end, ruleset, ns, ew, last_hand=side, tie_rule="last_hand", draw_seed=0)
        if outcome.winner is not None:
            allowed.add((outcome.winner, outcome.tie_break))
            if outcome.tie_break == "last_hand":
                allowed.add((outcome.winner, "draw"))
    if (result.winner, result.tie_break) in allowed:
        return
    if ns != ew and all(winner == ("NS" if ns > ew else "EW") and not tie for winner, tie in allowed):
        raise fail(where, f"a game of {ns}–{ew} is won by {'NS' if ns > ew else 'EW'}, with no “tie_break”.")
    if ns == ew and all(tie for _, tie in allowed):
        raise fail(where, f"a tied game ({ns}–{ew}) says how it was decided (“tie_break”).")
    winners = " or ".join(sorted({winner for winner, _ in allowed}))
    raise fail(where, f"a game of {ns}–{ew} is won by {winners} under the night's rules, not {_shown(result.winner)}.")


def _check_three_result(result: TableResult, hands: list[Any], where: str, night: Night) -> TableResult:
    """A table of three's game as the desk stores it: totals only, each seat's points, its winner among the top."""
    if result.seat_points is None:
        raise fail(where, "a table of three's game gives each player's points (“seat_points”).")
    if result.entry != TableResult.Entry.TOTALS or hands or result.status != TableResult.Status.FINAL:
        raise fail(where, "a table of three's game goes in as its players' points: totals, no hands, final.")
    if result.ns_points or result.ew_points:
        raise fail(where, "a table of three has no sides: “ns” and “ew” are 0.")
    cap = night.game_end().cap
    if result.hands_played is not None and not 1 <= result.hands_played <= cap:
        raise fail(where, f"“hands_played” is {result.hands_played}: it must be between 1 and {cap}.")
    points = _check_three_points(result.seat_points, where, result.hands_played or cap)
    if fault := three_totals_fault(night.game_end(), points):
        raise fail(where, fault)
    # As the desk decides it (`scoring.three.outcome`): the most points; a tie at the top to the player named.
    decided = three.outcome(points, tie_rule="last_hand", last_hand_winners=(str(result.winner),))
    if decided.winner != result.winner:
        top = [seat for seat in decided.order if points[seat] == points[decided.winner]]
        raise fail(where, f"“winner” is {_shown(result.winner)}: the game goes to the most points ({', '.join(top)}).")
    if bool(decided.tie_break) != bool(result.tie_break):
        raise fail(where, "a tie at the top says how it was decided (“tie_break”), and only a tie does.")
    return result


def _check_history(
    row: dict[str, Any], place: str, tables: set[int], cap: int, ruleset: rules.Ruleset
) -> list[tuple[str, str]]:
    """A game's score entries and events; each entry's one-time key, with where it is."""
    keys = []
    entries: set[tuple[int, int]] = set()
    for number, item in enumerate(_items(row, "submissions", place), start=1):
        where = f"{place}, score entry {number}"
        entry = _record(Submission, item, where, SUBMISSION_KEYS, optional=schema.SUBMISSIONS.later)
        if "user" not in item:
            raise fail(where, "“user” is missing: this backup is incomplete or malformed.")
        _username(item["user"], where, "user")
        if entry.table not in tables:
            raise fail(where, f"nobody sits at table {entry.table} in this game.")
        if (entry.table, entry.number) in entries:
            raise fail(where, f"table {entry.table} has two score entries numbered {entry.number}.")
        entries.add((entry.table, entry.number))
        # Any entry, the drafts included, passed the scoring service's limits: the loosest is the cap on hands.
        _check_points(where, entry.ns_points, entry.ew_points, cap, ruleset)
        if entry.seat_points is not None:
            _check_three_points(entry.seat_points, where, cap)
        keys.append((entry.key, where))
    for number, item in enumerate(_items(row, "events", place), start=1):
        where = f"{place}, event {number}"
        _record(RoundEvent, item, where, EVENT_KEYS, optional=schema.EVENTS.later)  # version 1: the cause in words only
        if "by" not in item:
            raise fail(where, "“by” is missing: this backup is incomplete or malformed.")
        _username(item["by"], where, "by")
    return keys


def _check_results_as_entered(row: dict[str, Any], typed: Mapping[int, tuple[str, TableResult]]) -> None:
    """A game entered as totals is the score its table's last entry that counted says (entered by the desk, or
    confirmed by the other side: the scoring services write the two together), so a file whose score was edited
    without its history is refused. A table with no such entry (a file of before they were kept) is left as it is."""
    counted = (Submission.Status.APPLIED, Submission.Status.CONFIRMED)
    last: dict[int, dict[str, Any]] = {}
    for item in row.get("submissions", []):  # checked already by `_check_history`
        if item["status"] in counted and item["number"] > last.get(item["table"], {}).get("number", 0):
            last[item["table"]] = item
    for table, (where, result) in typed.items():
        if (entry := last.get(table)) is None:
            continue
        said = (entry["ns"], entry["ew"], entry.get("seat_points"))
        if said != (result.ns_points, result.ew_points, result.seat_points):
            shown = (
                " ".join(f"{seat} {points}" for seat, points in said[2].items())
                if said[2] is not None
                else f"{said[0]}–{said[1]}"
            )
            raise fail(
                where,
                f"its score differs from the one its table's history says went in ({shown}, score entry "
                f"{entry['number']}): a score changes only by a new entry, which this file does not have.",
            )


def _check_rounds(rows: list[Any], night: Night, ruleset: rules.Ruleset, players: Mapping[str, str]) -> None:
    cap = night.game_end().cap
    keys: list[tuple[str, str]] = []
    for index, row in enumerate(rows, start=1):
        place = f"Game {index}"
        if not isinstance(row, dict):
            raise fail(place, f"this should be a record of named values, not {_shown(row)}.")
        if "paused_left" not in row:
            raise fail(place, "“paused_left” is missing: this backup is incomplete or malformed.")
        paused = row["paused_left"]
        if paused is not None:
            most = MAX_PAUSED.total_seconds()
            if isinstance(paused, bool) or not isinstance(paused, int | float) or not 0 <= paused <= most:
                raise fail(
                    place,
                    f"“paused_left” is the seconds left on a paused timer (0 to {most:.0f}), not {_shown(paused)}.",
                )
            paused = dt.timedelta(seconds=paused)
        round_ = _record(
            Round,
            row,
            place,
            ROUND_KEYS,
            optional=schema.ROUNDS.later,  # version 1 gave the cause in words only
            extra={"paused_left": paused},
        )
        if round_.number != index:
            raise fail(place, f"“number” is {round_.number}: the night's games are numbered 1, 2, 3… in order.")
        if index < len(rows) and round_.status != Round.Status.CLOSED:
            raise fail(place, f"it is {round_.status}, yet a later game follows: every game but the last is closed.")
        tables, small = _check_seats(row, place, players, night.fill == Night.Fill.THREES)
        _check_apart(row, place, players, small, night)
        scored: set[int] = set()
        finals: set[int] = set()
        typed: dict[int, tuple[str, TableResult]] = {}  # the games entered as totals, by table
        for number, item in enumerate(_items(row, "results", place), start=1):
            table = item.get("table") if isinstance(item, dict) else None
            where = f"{place}, table {table}" if type(table) is int else f"{place}, result {number}"
            result = _check_result(item, where, night, ruleset, type(table) is int and table in small)
            if result.table not in tables:
                raise fail(where, f"nobody sits at table {result.table} in this game.")
            if result.table in scored:
                raise fail(where, "this table has a second result in this game.")
            scored.add(result.table)
            if result.status == TableResult.Status.FINAL:
                finals.add(result.table)
            if result.entry == TableResult.Entry.TOTALS:
                typed[result.table] = (where, result)
        keys.extend(_check_history(row, place, tables, cap, ruleset))
        _check_results_as_entered(row, typed)
        if round_.status == Round.Status.CLOSED and (missing := sorted(tables - finals)):
            raise fail(place, f"it is closed, yet table {missing[0]}'s score is not in.")
    _once(keys, "The entry's key")


def _check_signups(rows: Any, players: Mapping[str, str]) -> None:
    """The sign-ups from the public link (a later part of the file: none before it): each a sign-up the service
    could make, the ones that are in naming a player of the file, each player and each key once."""
    if not isinstance(rows, list):
        raise fail("This backup", f"“signups” should be a list, not {_shown(rows)}.")
    keys, held = [], []
    for number, item in enumerate(rows, start=1):
        where = f"Sign-up {number}"
        signup = _record(SignUp, item, where, SIGNUP_KEYS)
        for field in ("name", "contact", "category"):
            _visible(getattr(signup, field), where, field)
        when = item.get("created_at")
        if not isinstance(when, str) or _parsed_moment(when) is None:
            raise fail(where, f"“created_at” is when it was made (an ISO date and time), not {_shown(when)}.")
        player = item.get("player")
        if (player is not None) != (signup.status == SignUp.Status.IN):
            raise fail(where, f"a sign-up that is {signup.status} has {'no' if player is None else 'a'} “player”.")
        if player is not None:
            if player not in players:
                raise fail(where, f"“player” {_shown(player)} is not one of the file's players.")
            held.append((player, where))
        keys.append((signup.key, where))
    _once(keys, "The sign-up's key")
    _once(held, "The sign-up of player")


def _check_substitutes(rows: Any, players: Mapping[str, str]) -> None:
    """Who replaced whom (a later part of the file: none before it): two different players of the file, each
    replaced once and each a substitute once."""
    if not isinstance(rows, list):
        raise fail("This backup", f"“substitutes” should be a list, not {_shown(rows)}.")
    subs, replaced = [], []
    for number, item in enumerate(rows, start=1):
        where = f"Substitute {number}"
        two = [item.get("player"), item.get("for")] if isinstance(item, dict) else [None, None]
        if not all(isinstance(p, str) and p in players for p in two):
            raise fail(where, f"“player” and “for” are two of the file's players, not {_shown(item)}.")
        if two[0] == two[1]:
            raise fail(where, "a player cannot replace themselves.")
        subs.append((two[0], where))
        replaced.append((two[1], where))
    _once(subs, "The substitute")
    _once(replaced, "The player replaced")


def _check_partner_wishes(rows: Any, players: Mapping[str, str]) -> None:
    """The partner wishes (a later part of the file: none before them): each two different players of the file,
    never or always; no pair twice, nobody in two always-partner pairs."""
    if not isinstance(rows, list):
        raise fail("This backup", f"“partner_wishes” should be a list, not {_shown(rows)}.")
    pairs, mates = [], []
    for number, item in enumerate(rows, start=1):
        where = f"Partner wish {number}"
        if not isinstance(item, dict) or item.get("kind") not in PartnerWish.Kind.values:
            raise fail(
                where, f"“kind” is never or always, not {_shown(item.get('kind') if isinstance(item, dict) else item)}."
            )
        two = item.get("players")
        if not (isinstance(two, list) and len(two) == 2 and all(isinstance(p, str) and p in players for p in two)):
            raise fail(where, f"“players” are two of the file's players, not {_shown(two)}.")
        if two[0] == two[1]:
            raise fail(where, "a player cannot be their own partner.")
        pairs.append((tuple(sorted(two)), where))
        if item["kind"] == PartnerWish.Kind.ALWAYS:
            mates += [(player, where) for player in two]
    _once(pairs, "The partner wish for")
    _once(mates, "The always-partner wish of")


class _Seats:
    """Each seat's money as the file's cash record runs (a substitute pays on the entry they took over), and its
    price at the night's prices."""

    def __init__(self, night: Night, data: dict[str, Any], players: Mapping[str, str]) -> None:
        kinds = {row.get("key"): row.get("price_kind") for row in data["players"] if isinstance(row, dict)}
        self.prices = {key: night.prices().of(kind) for key, kind in kinds.items() if kind in money.KINDS}
        rows = data.get("substitutes", [])
        self.replaced = {row["player"]: row["for"] for row in rows if isinstance(row, dict)}
        self.paid: dict[str, int] = {}
        self.comped: dict[str, int] = {}
        self.names = players

    def seat(self, player: str) -> str:
        line = [player]
        while line[-1] in self.replaced and self.replaced[line[-1]] not in line:
            line.append(self.replaced[line[-1]])
        return line[-1]

    def add(self, player: str, payment: Payment) -> None:
        seat = self.seat(player)
        self.paid[seat] = self.paid.get(seat, 0) + payment.cents
        if payment.method == "comp":
            self.comped[seat] = self.comped.get(seat, 0) + payment.cents


def _check_taken(where: str, payment: Payment, seat: str, seats: _Seats, currency: str) -> None:
    """Money in as the Money page's buttons take it: a comp for what the seat owes, whole; nothing more from a seat
    a comp let in that owes nothing."""
    price, before = seats.prices.get(seat, 0), seats.paid.get(seat, 0)
    who = _of(seats.names[seat])
    if payment.method == "comp" and before >= price:
        raise fail(where, f"it comps {who}, who owed nothing: a comp lets a player in free for what they owe.")
    if payment.method == "comp" and before + payment.cents != price:
        raise fail(
            where,
            f"it comps {who} for {money.shown(payment.cents, currency)}, yet {who} owed "
            f"{money.shown(price - before, currency)}: a comp lets a player in free for what they owe, whole (a comp "
            "brings no money).",
        )
    if payment.method != "comp" and seats.comped.get(seat, 0) > 0 and before >= price:
        raise fail(
            where,
            f"it takes {money.shown(payment.cents, currency)} from {who}, whom a comp let in free and who owed "
            f"nothing (paid {money.shown(before + payment.cents, currency)} · "
            f"{money.shown(before + payment.cents - price, currency)} over): the door takes no more.",
        )


def _check_payments(rows: Any, players: Mapping[str, str], night: Night, data: dict[str, Any]) -> None:
    """The door's cash record (a later part of the file: none before it): each line as the service could make it,
    a refund with its reason, naming a player of the file; no player's money by a method below nothing; a comp for
    what the seat owed at the night's price, never part of it (a comp brings no money); no money taken from a seat
    a comp let in free that owed nothing more (`payment_take` refuses both)."""
    if not isinstance(rows, list):
        raise fail("This backup", f"“payments” should be a list, not {_shown(rows)}.")
    held: dict[tuple[str | None, str, str], int] = {}  # (player, or None and the name taken off, method) -> net
    seats = _Seats(night, data, players)
    for number, item in enumerate(rows, start=1):
        where = f"Payment {number}"
        payment = _record(Payment, item, where, PAYMENT_KEYS)
        if not isinstance(item.get("at"), str) or _parsed_moment(item["at"]) is None:
            raise fail(where, f"“at” is when it was taken (an ISO date and time), not {_shown(item.get('at'))}.")
        player = item.get("player")
        if player is None:  # a player taken off the night: named, their lines netting to nothing (below)
            payment.name = item.get("name")
            if not isinstance(payment.name, str) or not payment.name.strip() or len(payment.name) > NAME_LENGTH:
                raise fail(where, "a line of a player taken off the night names them (“name”, a name).")
            _visible(payment.name, where, "name")
        elif "name" in item:
            raise fail(where, "“name” is only on a line whose player was taken off the night (“player” null).")
        elif player not in players:
            raise fail(where, f"“player” {_shown(player)} is not one of the file's players.")
        _username(item.get("by"), where, "by")
        if payment.cents == 0 or (payment.cents < 0 and not payment.reason.strip()):
            raise fail(where, "a line moves money (not 0), and a refund says why (“reason”).")
        who = _of(players[player]) if player is not None else f"{_shown(payment.name)} (taken off the night)"
        place = (player, payment.name if player is None else "", payment.method)
        if payment.method == "comp" and payment.cents < 0 and held.get(place, 0) != -payment.cents:
            raise fail(
                where, f"it takes back part of {who}'s comp: a comp goes back whole, as the Money page takes it."
            )
        held[place] = held.get(place, 0) + payment.cents
        if held[place] < 0:
            raise fail(where, f"it gives back more than {who} paid by {payment.method}.")
        if player is None:
            continue
        if payment.cents > 0:
            _check_taken(where, payment, seats.seat(player), seats, night.currency)
        seats.add(player, payment)
    if kept := sorted({name for (owner, name, _), cents in held.items() if cents and owner is None}):
        raise fail(
            "This backup's payments",
            f"money is still held for {_shown(kept[0])}, taken off the night: a player leaves "
            "the night once their money is given back.",
        )


def _made_records(rows: Any, key: str, what: str, model: type[models.Model], keys: Mapping[str, str]):
    """Each record of a list in the file that someone made at a moment (`at`, `by`), checked, with its place."""
    if not isinstance(rows, list):
        raise fail("This backup", f"“{key}” should be a list, not {_shown(rows)}.")
    for index, item in enumerate(rows, start=1):
        where = f"{what} {index}"
        record = _record(model, item, where, keys)
        if not isinstance(item.get("at"), str) or _parsed_moment(item["at"]) is None:
            raise fail(where, f"“at” is when it was made (an ISO date and time), not {_shown(item.get('at'))}.")
        _username(item.get("by"), where, "by")
        yield where, record


def _check_pot_lines(rows: Any, currency: str) -> list[PotLine]:
    """The side pots' record (a later part of the file: none before it): each line as the service could make it,
    in the order they were made (a carry is named by its place in it), and no pot paying or carrying more than came
    into it. The lines, unsaved."""
    lines: list[money.PotLine] = []
    made: list[PotLine] = []
    for where, line in _made_records(rows, "pot_lines", "Pot line", PotLine, POT_KEYS):
        _visible(line.pot, where, "pot")
        if line.cents <= 0:
            raise fail(where, "a line moves money (more than 0).")
        line.at = _moment(rows[len(made)]["at"], where, "at")
        if made and line.at < made[-1].at:
            raise fail(where, "it was made before the line above it: a pot's record lists its lines in time order.")
        lines.append(money.PotLine(line.pot, line.kind, line.cents))
        made.append(line)
        try:
            money.pot_totals(lines, currency)
        except money.MoneyError as error:
            raise fail(where, str(error)) from error
    return made


# A line that took in a carried jackpot before the backup named the carry says so in its reason, as the service
# writes it: "carried over from November night (03 Nov 2026)".
CARRIED_WORDS = re.compile(r"carried over from (?P<name>.+) \((?P<date>[0-9]{2} [A-Za-z]{3} [0-9]{4})\)")


def _carried_words(night: Night) -> str:
    return f"carried over from {night.name} ({night.date:%d %b %Y})"


@dataclasses.dataclass
class Carries:
    """What the restore links once the file's pot lines are made: the carry each of its lines took in (line index ->
    the carry's name, and the carrying line when it is here), and lines of other nights here that took in one of
    the file's own carries (the file's line index -> the line that took it)."""

    taken: dict[int, tuple[str, PotLine | None]] = dataclasses.field(default_factory=dict)
    taken_by: dict[int, PotLine] = dataclasses.field(default_factory=dict)


def _taker(name: str, club_id: int) -> PotLine | None:
    """The line of the club's that names carry `name` as the one it took in, if any."""
    return PotLine.objects.filter(carry_named=name, night__club_id=club_id).select_related("night").first()


def check_carries(rows: Any, lines: list[PotLine], night: Night, version: int = schema.VERSION) -> Carries:
    """Each carried jackpot taken in once. A line that took one in names it (“took_in”: the carrying night's uid
    and its line number; older files say it in the line's reason only): money in, from another, earlier night,
    named by one line only, here and in the file; where that night is here, its line is that carry, the same pot
    and amount, and no other night took it in. The file's own carries that a night restored before took in are
    linked to it. From version 3 a line names the carry it took in, and one that names none took none in
    (`schema.TOOK_IN_DEFAULT`): its reason is words, never read for a carry."""
    plan = Carries()
    claimed: dict[str, str] = {}
    for index, (row, line) in enumerate(zip(rows, lines, strict=True)):
        where = f"Pot line {index + 1}"
        took = row.get("took_in", schema.TOOK_IN_DEFAULT)
        if took is None:
            if version >= schema.TOOK_IN_FROM:
                continue  # took no carry in (the schema's default for a line without “took_in”)
            if line.kind == PotLine.Kind.IN and (words := CARRIED_WORDS.fullmatch(line.reason)):
                carry = _carry_by_words(words["name"], words["date"], line, night, claimed)
                if carry is not None:
                    name = carry.carry_name()
                    claimed[name] = where
                    plan.taken[index] = (name, carry)
            continue
        uid, number = (took.get("night"), took.get("line")) if isinstance(took, dict) else (None, None)
        if not (isinstance(uid, str) and type(number) is int and 1 <= number <= 100_000):
            raise fail(where, f"“took_in” names a carry by its night's uid and line number, not {_shown(took)}.")
        try:
            uid = str(uuid.UUID(uid))
        except ValueError as error:
            raise fail(where, f"“took_in” names a night by its uid, not {_shown(uid)}.") from error
        if line.kind != PotLine.Kind.IN:
            raise fail(where, "“took_in” is on a line that is not money in: a carry is taken in as money in.")
        if uid == str(night.uid):
            raise fail(where, "it takes in a carry of its own night: a carry goes to a later night.")
        name = f"{uid}:{number}"
        if name in claimed:
            raise fail(where, f"it takes in the carry {_of(claimed[name])} took in: a carry is taken in once.")
        claimed[name] = where
        if (other := _taker(name, night.club_id)) is not None:
            raise fail(where, f"that carry was taken in already, by {other.night.name} ({other.night.date:%Y-%m-%d}).")
        carry = _carry_here(uid, number, where, line, night)
        plan.taken[index] = (name, carry)
    for index, line in enumerate(lines):
        if line.kind != PotLine.Kind.CARRIED:
            continue
        name = f"{night.uid}:{index + 1}"
        taker = _taker(name, night.club_id) or _taker_by_words(line, night, set(plan.taken_by.values()))
        if taker is None:
            continue
        if (taker.pot, taker.cents) != (line.pot, line.cents):
            raise fail(
                f"Pot line {index + 1}",
                f"{taker.night.name} ({taker.night.date:%Y-%m-%d}) took in this carry as {taker.pot}, "
                f"{money.shown(taker.cents, taker.night.currency)}: not what it carries.",
            )
        plan.taken_by[index] = taker
    return plan


def _carry_here(uid: str, number: int, where: str, line: PotLine, night: Night) -> PotLine | None:
    """The carry a line names, where its night is here (checked: a carry of the same pot and amount, from an
    earlier night, not taken in by another); None where that night is not here (yet)."""
    earlier = Night.objects.filter(uid=uid, club_id=night.club_id).first()  # another club's nights are not here
    if earlier is None:
        return None
    carries = list(PotLine.objects.filter(night=earlier).order_by("at", "id"))
    carry = carries[number - 1] if number <= len(carries) else None
    named = f"{earlier.name} ({earlier.date:%Y-%m-%d})"
    if carry is None or carry.kind != PotLine.Kind.CARRIED:
        raise fail(where, f"it takes in line {number} of {named}, which carries nothing over.")
    if (carry.pot, carry.cents) != (line.pot, line.cents):
        raise fail(
            where,
            f"it takes in {named}'s carry of {carry.pot}, {money.shown(carry.cents, earlier.currency)}, as "
            f"{line.pot}, {money.shown(line.cents, night.currency)}: a carry is taken in whole, into its own pot.",
        )
    if earlier.date > night.date:
        raise fail(where, f"it takes in a carry of {named}, a later night: a carry goes to a later night.")
    if hasattr(carry, "taken_in_by"):
        taker = carry.taken_in_by.night
        raise fail(where, f"that carry was taken in already, by {taker.name} ({taker.date:%Y-%m-%d}).")
    return carry


def _carry_by_words(name: str, date: str, line: PotLine, night: Night, claimed: Mapping[str, str]) -> PotLine | None:
    """An older file's line that took in a carry, read from its reason: the first carry of that night here (by
    name and date), of the same pot and amount, that no line took in; None where there is none."""
    try:
        day = dt.datetime.strptime(date, "%d %b %Y").date()
    except ValueError:
        return None
    for carry in PotLine.objects.filter(
        night__club_id=night.club_id,
        night__name=name,
        night__date=day,
        night__date__lte=night.date,
        kind=PotLine.Kind.CARRIED,
        pot=line.pot,
        cents=line.cents,
        taken_in_by__isnull=True,
    ).order_by("at", "id"):
        named = carry.carry_name()
        if named not in claimed and _taker(named, night.club_id) is None:
            return carry
    return None


def _taker_by_words(line: PotLine, night: Night, taken: set[PotLine]) -> PotLine | None:
    """A line of a later night here, restored from an older file, that took in this carry and says so in its
    reason only (and names no carry): the first one of the same pot and amount."""
    return next(
        (
            taker
            for taker in PotLine.objects.filter(
                night__club_id=night.club_id,
                kind=PotLine.Kind.IN,
                reason=_carried_words(night),
                pot=line.pot,
                cents=line.cents,
                carried_from__isnull=True,
                carry_named="",
                night__date__gte=night.date,
            )
            .select_related("night")
            .order_by("at", "id")
            if taker not in taken
        ),
        None,
    )


def _check_draws(rows: Any, night: Night, came: Iterable[int], cards: Iterable[int]) -> None:
    """The night's draws (a later part of the file: none before it): each numbered once, each replaying from its
    seed and its pool to the winners it names, so a file cannot carry a draw that was not made, and each pool one
    the Money page could have drawn from: tickets 1..N, the card numbers of players who came (`came`: checked in or
    seated), a tie's between players of the night (`cards`) for one of its prizes. Whether a tie's players were
    level for it is checked once the night is read as its pages read it (`_check_readings`)."""
    numbers = []
    for where, draw in _made_records(rows, "draws", "Draw", Draw, DRAW_KEYS):
        whole = all(isinstance(number, int) and not isinstance(number, bool) for number in [*draw.pool, *draw.winners])
        if not (isinstance(draw.pool, list) and isinstance(draw.winners, list) and whole):
            raise fail(where, "“pool” and “winners” are lists of whole numbers.")
        if not " ".join(draw.title.split()):
            raise fail(where, "“title” says what the draw is for; it has nothing in it.")
        tie = draw.pool_kind == Draw.Pool.TIE
        if problem := draws.recorded_pool_fault(
            draw.pool_kind, draw.pool, draw.winners, cards=cards if tie else came, most_tickets=MOST_TICKETS
        ):
            raise fail(where, problem)
        if tie and draw.prize not in night.prize_keys:
            raise fail(where, f"it settles a tie for {_shown(draw.prize)}, which is not one of the night's prizes.")
        if not tie and draw.prize:
            raise fail(where, f"“prize” is {_shown(draw.prize)}, yet only a tie's draw settles a prize.")
        if not draws.replays(draw.seed, draw.pool, draw.winners):
            raise fail(where, "its winners are not what its seed and its pool give: it was not made as recorded.")
        numbers.append((draw.number, where))
    _once(numbers, "The draw number")


def check_not_here(data: dict[str, Any], club_id: int) -> None:
    """Refuse a copy of a night already on this laptop under another uid (edited, or a night copied by hand): its
    score entries, table links or sign-ups are already here, and each of those is one of a kind on the laptop."""
    entries = [
        item.get("key") for row in data["rounds"] for item in row.get("submissions", []) if isinstance(item, dict)
    ]
    tokens = [item.get("token") for item in data["table_links"] if isinstance(item, dict)]
    signups = [item.get("key") for item in data.get("signups", []) if isinstance(item, dict)]
    night = None
    for lookup, values in (
        ("rounds__submissions__key__in", entries),
        ("table_links__token__in", tokens),
        ("signups__key__in", signups),
    ):
        for start in range(0, len(values), 500):  # a statement's parameters are limited (SQLite's 999 of old)
            if night := Night.objects.filter(**{lookup: values[start : start + 500]}).first():
                break
        if night is not None:
            break
    if night is not None and night.club_id != club_id:
        # another club's night on this server: said without naming it (its name is that club's business)
        raise refuse(f"This backup's night is on this server already, as another club's. {NOTHING}")
    if night is not None:
        raise refuse(
            f"This backup's night is already here: “{night.name}” of {night.date:%Y-%m-%d} has its score entries,"
            " table links or sign-ups (a copy of that night, its uid changed). A night is on a laptop once: delete"
            f" that night first to restore this file instead. {NOTHING}"
        )


def _parsed_moment(text: str) -> dt.datetime | None:
    try:
        return parse_datetime(text)
    except ValueError:
        return None


def _check_links(rows: list[Any]) -> None:
    tokens, live = [], []
    for number, item in enumerate(rows, start=1):
        where = f"Table link {number}"
        link = _record(TableLink, item, where, LINK_KEYS)
        if link.table < 1:
            raise fail(where, f"“table” is {link.table}: tables are numbered from 1.")
        tokens.append((link.token, where))
        if link.active:
            live.append((link.table, where))
    _once(tokens, "The link's token")
    _once(live, "The live link of table")


def _cards(data: dict[str, Any]) -> tuple[set[int], set[int]]:
    """The card numbers of the file's players (house players have none) who came (checked in, or seated or given a
    bye in a game), and of them all."""
    seated = {item[key] for row in data["rounds"] for key, name in ((2, "seats"), (0, "byes")) for item in row[name]}
    players = [row for row in data["players"] if not row["house"] and row.get("card")]
    came = {row["card"] for row in players if row["checked_in"] or row["key"] in seated}
    return came, {row["card"] for row in players}


def check(data: dict[str, Any]) -> tuple[Night, list[PotLine]]:
    """Refuse, with the first reason, a backup that would restore a night the forms and services could not make.
    The night and its pot lines, unsaved, for the checks that read what is here (`_check_carries`)."""
    for key, kind in (("night", dict), ("players", list), ("rounds", list), ("table_links", list)):
        if key not in data:
            raise fail("This backup", f"“{key}” is missing: it is incomplete or malformed.")
        if not isinstance(data[key], kind):
            raise fail(
                "This backup", f"“{key}” should be a {'record' if kind is dict else 'list'}, not {_shown(data[key])}."
            )
    night = _check_night(data["night"])
    _check_money_settings(night, data["version"])
    ruleset = _check_rules(night.rules)
    players = _check_players(data["players"], night)
    rounds = data["rounds"]
    _check_rounds(rounds, night, ruleset, players)
    _check_links(data["table_links"])
    _check_signups(data.get("signups", []), players)
    _check_partner_wishes(data.get("partner_wishes", []), players)
    _check_substitutes(data.get("substitutes", []), players)
    _check_payments(data.get("payments", []), players, night, data)
    lines = _check_pot_lines(data.get("pot_lines", []), night.currency)
    _check_draws(data.get("draws", []), night, *_cards(data))
    if (night.status == Night.Status.SETUP) != (not rounds):
        raise fail(
            "The night",
            f"“status” is {night.status}, yet the file has {len(rounds) or 'no'} game{'s' if len(rounds) != 1 else ''}:"
            " a night is registering players until its opening seating is drawn.",
        )
    if night.status == Night.Status.FINISHED and rounds[-1]["status"] != Round.Status.CLOSED:
        raise fail("The night", f"“status” is finished, yet game {len(rounds)} is not closed.")
    if rounds and night.seed is None:
        raise fail("The night", "“seed” is empty (null), yet its opening seating was drawn.")
    if rounds and night.movement == Night.Movement.ROTATION and night.chart is None:
        raise fail("The night", "it plays a rotation chart, yet the file has none (“chart” is empty).")
    return night, lines
