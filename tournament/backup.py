"""A whole night as one JSON file, and back: players, settings, seating, every hand, every entry and its history.

The file names things the way people do (players by name, games by number, accounts by user name), never by
database ids, so it restores into an empty or another installation and a restored night backs up to the same
file. A checksum guards against a damaged file; the night's uid refuses a second restore of the same night.
Restore is one transaction: refused whole, or done whole.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_date, parse_datetime

from scoring import rules
from scoring.models import Hand, Submission, TableLink, TableResult
from scoring.services import result_extras_refresh

from .models import NIGHT_SETTINGS, Bye, Cause, Entry, Night, Player, Round, RoundEvent, Seating, fresh_code

FORMAT = "headtable-night"
VERSION = 2
# The night's settings (the date and the chart numbering apart: see below) and its state.
NIGHT_FIELDS = (
    *(name for name in NIGHT_SETTINGS if name not in ("date", "numbering")),
    *("rules", "seed", "status"),
)
# Settings added after the format was first written: a backup made before them restores with these values.
LATER_NIGHT_FIELDS = {"chart_size": None, "numbering": "arrival", "chart": None}
# Version 1 files (before causes were stored as data) carry the causes in words only; version 2 adds the reasons.
READS = (1, 2)
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


ROUND_TIMES = ("starts_at", "started_at", "ends_at", "bell_at", "closed_at")


def _when(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _player_key(player: Player) -> str:
    # House players' keys carry their night's database id; in the file they are numbered within the night.
    return f"house:{player.name_key.rsplit(':', 1)[-1]}" if player.house else player.name_key


def _canonical(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def night_export(night: Night) -> dict[str, Any]:
    """The night as plain data, with a checksum of its content."""
    entries = list(night.entries.select_related("player"))
    key = {entry.player_id: _player_key(entry.player) for entry in entries}
    rounds = []
    for round_ in night.rounds.order_by("number"):
        results = []
        for result in TableResult.objects.filter(round=round_).select_related("entered_by").order_by("table"):
            results.append(
                {
                    "table": result.table,
                    "ns": result.ns_points,
                    "ew": result.ew_points,
                    "hands_played": result.hands_played,
                    "winner": result.winner,
                    "tie_break": result.tie_break,
                    "status": result.status,
                    "entry": result.entry,
                    "version": result.version,
                    "entered_by": result.entered_by.username if result.entered_by else None,
                    "hands": [
                        {
                            "number": hand.number,
                            "dealer": hand.dealer,
                            "makers": hand.makers,
                            "maker": hand.maker,
                            "alone": hand.alone,
                            "blind": hand.blind,
                            "defender_alone": hand.defender_alone,
                            "bid": hand.bid,
                            "pepper": hand.pepper,
                            "tricks": hand.tricks,
                            "ns": hand.ns_points,
                            "ew": hand.ew_points,
                            "recorded_at": _when(hand.recorded_at),
                        }
                        for hand in result.hands.order_by("number")
                    ],
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "status": round_.status,
                **{name: _when(getattr(round_, name)) for name in ROUND_TIMES},
                "paused_left": round_.paused_left.total_seconds() if round_.paused_left is not None else None,
                "token": round_.token,
                "bell_cause": round_.bell_cause,
                "bell_reason": round_.bell_reason,
                "seats": sorted([s.table, s.seat, key[s.player_id]] for s in round_.seatings.all()),
                "byes": sorted([key[b.player_id], key.get(b.partner_id)] for b in round_.byes.all()),
                "results": results,
                "submissions": [
                    {
                        "table": s.table,
                        "number": s.number,
                        "role": s.role,
                        "user": s.user.username if s.user else None,
                        "side": s.side,
                        "ns": s.ns_points,
                        "ew": s.ew_points,
                        "last_hand_winner": s.last_hand_winner,
                        "status": s.status,
                        "reason": s.reason,
                        "before": s.before,
                        "confirmed_by": s.confirmed_by,
                        "key": s.key,
                        "created_at": _when(s.created_at),
                    }
                    for s in Submission.objects.filter(round=round_).select_related("user").order_by("table", "number")
                ],
                "events": [
                    {
                        "at": _when(event.at),
                        "action": event.action,
                        "status": event.status,
                        "cause": event.cause,
                        "reason": event.reason,
                        "by": event.by.username if event.by else None,
                    }
                    for event in round_.events.select_related("by").order_by("at", "id")
                ],
            }
        )
    payload = {
        "format": FORMAT,
        "version": VERSION,
        "night": {
            "uid": str(night.uid),
            "date": night.date.isoformat(),
            **{name: getattr(night, name) for name in NIGHT_FIELDS},
            **{name: getattr(night, name) for name in LATER_NIGHT_FIELDS},
            "keepers": sorted(night.keepers.values_list("username", flat=True)),
        },
        "players": sorted(
            (
                {
                    "key": key[entry.player_id],
                    "name": entry.player.name,
                    "house": entry.player.house,
                    "club_number": entry.player.club_number,
                    "category": entry.player.category,
                    "checked_in": entry.checked_in,
                    "active": entry.active,
                    "bye_offset": entry.bye_offset,
                    "number": entry.number,
                    "card": entry.card,
                    "code": entry.code,
                }
                for entry in entries
            ),
            key=lambda row: row["key"],
        ),
        "rounds": rounds,
        "table_links": [
            {"table": link.table, "token": link.token, "active": link.active}
            for link in TableLink.objects.filter(night=night).order_by("table", "token")
        ],
    }
    return {**payload, "checksum": hashlib.sha256(_canonical(payload)).hexdigest()}


def night_backup_bytes(night: Night) -> bytes:
    return json.dumps(night_export(night), indent=1, sort_keys=True, ensure_ascii=False).encode() + b"\n"


def _refuse(message: str) -> ValidationError:
    return ValidationError({"file": message})


def _parse(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _refuse("This is not a Head Table backup: it is not JSON.") from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse("This file is not a Head Table night backup.")
    if data.get("version") not in READS:
        raise _refuse(
            f"This backup is format version {data.get('version')}; this Head Table reads versions 1 to {VERSION}."
        )
    payload = {k: v for k, v in data.items() if k != "checksum"}
    if hashlib.sha256(_canonical(payload)).hexdigest() != data.get("checksum"):
        raise _refuse("This backup is damaged (its checksum does not match its content): nothing was restored.")
    return data


@transaction.atomic
def night_restore(*, raw: bytes, by=None) -> Night:
    """Restore a night from its backup file into this installation. All or nothing."""
    data = _parse(raw)
    info = data["night"]
    if Night.objects.filter(uid=info["uid"]).exists():
        existing = Night.objects.get(uid=info["uid"])
        raise _refuse(f"This night is already here: “{existing.name}” of {existing.date:%Y-%m-%d}. Nothing restored.")
    users = get_user_model()

    def account(username: str | None):
        if not username:
            return None
        user = users.objects.filter(username=username).first()
        if user is None:  # an account named in the history: kept, without a password, so it cannot log in
            user = users(username=username)
            user.set_unusable_password()
            user.save()
        return user

    try:
        night = Night.objects.create(
            uid=info["uid"],
            date=parse_date(info["date"]),
            created_by=by if getattr(by, "is_authenticated", False) else None,
            **{name: info[name] for name in NIGHT_FIELDS},
            **{name: info.get(name, default) for name, default in LATER_NIGHT_FIELDS.items()},
        )
        night.keepers.set([account(name) for name in info["keepers"]])
        ruleset = rules.Ruleset.from_dict(night.rules)
        players: dict[str, Player] = {}
        house_number = 0
        # Cards and codes travel with the night; a backup from before they did gets new ones, in its order.
        next_card = max((row["card"] for row in data["players"] if row.get("card")), default=0)
        codes = {row["code"] for row in data["players"] if row.get("code")}
        for row in data["players"]:
            if not row.get("card"):
                next_card += 1
                row = {**row, "card": next_card}
            if not row.get("code"):
                row = {**row, "code": fresh_code(codes)}
                codes.add(row["code"])
            if row["house"]:
                house_number = int(row["key"].split(":")[1])
                player = Player.objects.create(
                    name=row["name"], house=True, name_key=f"house:{night.pk}:{house_number}"
                )
            else:
                player = Player.objects.filter(name_key=row["key"]).first() or Player.objects.create(
                    name=row["name"], club_number=row.get("club_number", ""), category=row.get("category", "")
                )
            players[row["key"]] = player
            Entry.objects.create(
                night=night,
                player=player,
                checked_in=row["checked_in"],
                active=row["active"],
                bye_offset=row["bye_offset"],
                number=row.get("number"),
                card=row["card"],
                code=row["code"],
            )
        for row in data["rounds"]:
            round_ = Round.objects.create(
                night=night,
                number=row["number"],
                status=row["status"],
                token=row["token"],
                bell_cause=row["bell_cause"],
                bell_reason=row["bell_reason"] if "bell_reason" in row else legacy_reason(row["bell_cause"]),
                paused_left=dt.timedelta(seconds=row["paused_left"]) if row["paused_left"] is not None else None,
                **{name: parse_datetime(row[name]) if row[name] else None for name in ROUND_TIMES},
            )
            Seating.objects.bulk_create(
                Seating(round=round_, table=table, seat=seat, player=players[key]) for table, seat, key in row["seats"]
            )
            Bye.objects.bulk_create(
                Bye(round=round_, player=players[key], partner=players[partner] if partner else None)
                for key, partner in row["byes"]
            )
            for item in row["results"]:
                result = TableResult.objects.create(
                    round=round_,
                    table=item["table"],
                    ns_points=item["ns"],
                    ew_points=item["ew"],
                    hands_played=item["hands_played"],
                    winner=item["winner"],
                    tie_break=item["tie_break"],
                    status=item["status"],
                    entry=item["entry"],
                    version=item["version"],
                    entered_by=account(item["entered_by"]),
                )
                made_hands = []
                for hand in item["hands"]:
                    made = Hand.objects.create(
                        result=result,
                        number=hand["number"],
                        dealer=hand["dealer"],
                        makers=hand["makers"],
                        maker=hand["maker"],
                        alone=hand["alone"],
                        blind=hand["blind"],
                        defender_alone=hand["defender_alone"],
                        bid=hand["bid"],
                        pepper=hand["pepper"],
                        tricks=hand["tricks"],
                        ns_points=hand["ns"],
                        ew_points=hand["ew"],
                    )
                    Hand.objects.filter(pk=made.pk).update(recorded_at=parse_datetime(hand["recorded_at"]))
                    made_hands.append(made)
                result_extras_refresh(result, made_hands, ruleset)  # not in the file: worked out from the hands
                TableResult.objects.filter(pk=result.pk).update(extras=result.extras)
            for item in row["submissions"]:
                made = Submission.objects.create(
                    round=round_,
                    table=item["table"],
                    number=item["number"],
                    role=item["role"],
                    user=account(item["user"]),
                    side=item["side"],
                    ns_points=item["ns"],
                    ew_points=item["ew"],
                    last_hand_winner=item["last_hand_winner"],
                    status=item["status"],
                    reason=item["reason"],
                    before=item["before"],
                    confirmed_by=item["confirmed_by"],
                    key=item["key"],
                )
                Submission.objects.filter(pk=made.pk).update(created_at=parse_datetime(item["created_at"]))
            RoundEvent.objects.bulk_create(
                RoundEvent(
                    round=round_,
                    at=parse_datetime(event["at"]),
                    action=event["action"],
                    status=event["status"],
                    cause=event["cause"],
                    reason=event["reason"] if "reason" in event else legacy_reason(event["cause"]),
                    by=account(event["by"]),
                )
                for event in row["events"]
            )
        TableLink.objects.bulk_create(
            TableLink(night=night, table=link["table"], token=link["token"], active=link["active"])
            for link in data["table_links"]
        )
    except (KeyError, TypeError, ValueError) as error:
        raise _refuse(f"This backup is incomplete or malformed ({error!r}): nothing was restored.") from error
    except IntegrityError as error:
        raise _refuse(f"This backup clashes with what is already here ({error}): nothing was restored.") from error
    return night
