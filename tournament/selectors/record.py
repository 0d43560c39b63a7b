"""The whole night as plain data, as `simulate_night --json` writes it."""

from __future__ import annotations

from typing import Any

from django.db import models

from scoring.models import Hand, TableResult
from scoring.seats import is_three
from tournament.models import Bye, Entry, Night, Seating
from tournament.schema import HANDS, POINTS, RESULTS, Codec

from .money import night_close
from .standings import night_standings
from .wishes import breaches

# A hand in the record is the backup's hand (its codec's fields, said there once) but for these: its number is its
# place in the game's list, its time is not part of a rehearsal, and its points are one record by side.
HAND_LEFT_OUT = ("number", "recorded_at", *POINTS)
HAND_KEYS = tuple(key for key in HANDS.fields if key not in HAND_LEFT_OUT)


def _read(codec: Codec, record: models.Model | None, keys: tuple[str, ...]) -> dict[str, Any]:
    """A record's values for these keys of its codec, as the record writes them: a text left blank is None (and
    every value None where there is no record yet)."""
    values = {}
    for key in keys:
        field = codec.field(key)
        value = getattr(record, field.attname) if record is not None else None
        values[key] = (value or None) if isinstance(field, models.CharField) and field.blank else value
    return values


def _hand(hand: Hand) -> dict[str, Any]:
    return {
        **_read(HANDS, hand, HAND_KEYS),
        "points": {side.upper(): getattr(hand, name) for side, name in POINTS.items()},
    }


def _score(result: TableResult | None) -> dict[str, int] | None:
    """A result's points: by side, or at a table of three by seat."""
    if result is None:
        return None
    if result.seat_points is not None:
        return dict(result.seat_points)
    return {"NS": result.ns_points, "EW": result.ew_points}


def night_record(night: Night) -> dict:
    """The whole night as plain data: settings, players, every round's tables and hands, standings.

    This is the format `simulate_night --json` writes, in a constant number of queries whatever the night's size.
    """
    entries = list(Entry.objects.filter(night=night).select_related("player").order_by("player_id"))
    house = [entry.player_id for entry in entries if entry.player.house]
    entries = [entry for entry in entries if not entry.player.house]
    seats: dict[tuple[int, int], dict[str, int]] = {}
    for number, table, seat, player_id in Seating.objects.filter(round__night=night).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        seats.setdefault((number, table), {})[seat] = player_id
    results = {
        (r.round.number, r.table): r
        for r in TableResult.objects.filter(round__night=night).select_related("round").prefetch_related("hands")
    }
    byes: dict[int, list[int]] = {}
    for number, player in (
        Bye.objects.filter(round__night=night).order_by("player_id").values_list("round__number", "player_id")
    ):
        byes.setdefault(number, []).append(player)
    rounds = []
    for round_ in night.rounds.order_by("number"):
        tables = []
        for (number, table), by_seat in sorted(seats.items()):
            if number != round_.number:
                continue
            result = results.get((number, table))
            tables.append(
                {
                    "table": table,
                    # A table of three has no West.
                    "seats": {seat: by_seat[seat] for seat in ("N", "E", "S", "W") if seat in by_seat},
                    "three": is_three(by_seat),
                    "hands": [_hand(hand) for hand in (result.hands.all() if result else [])],
                    # At a table of three each player's own points, by seat.
                    "score": _score(result),
                    **_read(RESULTS, result, ("winner", "tie_break")),
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "ended_by": round_.bell_reason or None,  # why the game ended (a `Cause`: head_table, timer, all_done…)
                "ended": round_.bell_cause or None,  # the same in words
                "tables": tables,
                "byes": byes.get(round_.number, []),
            }
        )
    wishes = night.wishes()
    broken = breaches(night, wishes)
    standings = night_standings(night)
    closing = night_close(night, standings)
    prizes, close = closing.payouts, closing.reconciliation
    return {
        "night": {
            "movement": night.movement,
            "fill": night.fill,  # not a multiple of four: byes, a house player, or tables of three
            "rounds": night.games,
            "hands_per_round": night.hands_per_game,
            "head_table_ends": night.head_table_ends,
            "points_target": night.points_target,
            "minutes_per_game": night.minutes_per_game,
            "game_end": night.game_end().words(),
            "scoring": night.scoring,
            "rules": night.rules,
            "seed": night.seed,
        },
        "players": [{"id": entry.player_id, "name": entry.name} for entry in entries],
        # In cents: what the door took (by method) and what each prize pays (a tie's split and its left-over).
        "money": {
            "currency": night.currency,
            "by_method": close.cash.by_method,
            "taken": close.cash.taken,
            "refunded": close.cash.refunded,
            "net": close.cash.net,
            "comped": close.cash.comped,
            "owed": close.cash.owed,
            "pot": close.pot,
            "house_share": close.house_share,
            "prizes_paid": close.prizes_paid,
            "house_keeps": close.house_keeps,
            "pots": [
                {"pot": pot.pot, "in": pot.came_in, "paid": pot.paid, "carried": pot.carried, "kept": pot.kept}
                for pot in close.pots
            ],
            "prizes": [
                {
                    "prize": row.prize,
                    "winners": row.money.winners,
                    "total": row.money.total,
                    "each": row.money.each,
                    "left_over": row.money.left_over,
                }
                for row in (prizes.rows if prizes else [])
            ],
        },
        "house_players": house,
        # Partner wishes (player ids) and every one broken, with whether the movement's own rule forced it.
        "wishes": {
            "never": sorted(sorted(pair) for pair in wishes.never),
            "always": sorted(sorted(pair) for pair in wishes.always),
            "groups": {str(player): group for player, group in sorted(wishes.groups.items())},
            "breaches": [breach.as_dict() for breach in broken],
            "forced": sum(breach.forced for breach in broken),
            "avoidable": sum(not breach.forced for breach in broken),
        },
        "rounds": rounds,
        "standings": [
            {
                "rank": int(row.rank_label.lstrip("=")),
                "player": row.player_id,
                "total": row.total,
                "wins": row.wins,
                "loners_made": row.loners_made,
                "euchres": row.euchres,
                "marches": row.marches,
            }
            for row in standings.rows
        ],
    }
