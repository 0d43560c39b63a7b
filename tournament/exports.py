"""CSV files of a night (the standings, every hand, the money) and of a season. Built from the same selectors the
pages use; each is one entry of the download registry (`tournament.sheets.printing.SHEETS`), which names and
serves it.

Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (or a tab or a carriage return) as a formula, and a
player's name is typed by anyone at the door: every such text cell is written with a leading apostrophe, which the
spreadsheet shows as text and runs as nothing. Numbers are written as numbers (a negative score stays a number).
A shared rank is written "T3" (tied for 3rd), as golf leaderboards do, where the pages say "=3".
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.utils import timezone

from scoring.models import Hand, Season, TableResult
from scoring.standings import METRICS
from tournament.models import Night, PotLine

from .selectors import (
    UNLISTED,
    door_money,
    night_close,
    night_standings,
    public_season,
    season_standings,
    unlisted_names,
    unlisted_players,
)

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value):
    """A cell a spreadsheet will show as it is: text that would start a formula gets an apostrophe before it."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


class SafeWriter:
    """csv.writer, every cell through `text_cell`."""

    def __init__(self, out: io.StringIO):
        self.writer = csv.writer(out)

    def writerow(self, row) -> None:
        self.writer.writerow([text_cell(value) for value in row])


def rank_cell(label: str) -> str:
    """A rank as the CSV writes it: "=3" (shared, as the pages say) becomes "T3"."""
    return f"T{label[1:]}" if label.startswith("=") else label


def standings_csv(night: Night, *, public: bool = False) -> str:
    """The standings as CSV; `public` (anyone but an organizer): players who asked to be left off public lists are
    "A player", their numbers left out."""
    standings = night_standings(night)
    hidden = unlisted_names(night) if public else frozenset()
    out = io.StringIO()
    writer = SafeWriter(out)
    games = [f"game {n}" for n in range(1, standings.rounds_closed + 1)]
    # The chain's own columns the page shows (win %, points %, points per game), as the page shows them ("71.4 %",
    # "–" for a player with no game played); the player's number is a column already.
    shown = [index for index, key in enumerate(standings.column_keys) if key != "number"]
    links = [METRICS[standings.column_keys[index]].label for index in shown]
    writer.writerow(
        ["rank", "player", "number", "total", "wins", "games", "byes", "loners made", "euchres", *links, *games]
    )
    for row in standings.rows:
        writer.writerow(
            [
                rank_cell(row.rank_label),
                UNLISTED if row.name in hidden else row.name,
                "" if row.name in hidden or row.number is None else row.number,
                row.total,
                row.wins,
                row.games,
                row.byes,
                row.loners_made,
                row.euchres,
                *[row.figures[index] for index in shown],
                *["" if points is None else points for points in row.per_round],
            ]
        )
    return out.getvalue()


def hands_csv(night: Night) -> str:
    """Every table's game of the night, and every hand where hands were entered."""
    out = io.StringIO()
    writer = SafeWriter(out)
    threes = night.fill == night.Fill.THREES  # each player's points at a table of three, in three more columns
    writer.writerow(
        [
            "game",
            "table",
            "hand",
            "dealer",
            "makers",
            "caller",
            "alone",
            "tricks",
            "bid",
            "N-S",
            "E-W",
            "entry",
            "renege",
            *(["three-handed N", "three-handed E", "three-handed S"] if threes else []),
        ]
    )
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(result__round__night=night).order_by("result_id", "number"):
        hands.setdefault(hand.result_id, []).append(hand)
    for result in (
        TableResult.objects.filter(round__night=night).select_related("round").order_by("round__number", "table")
    ):
        number = result.round.number
        for hand in hands.get(result.pk, []):
            bid = f"{hand.pepper} pepper" if hand.pepper else (hand.bid or "")
            if hand.passed:
                bid = f"{bid} (opponents passed)"
            writer.writerow(
                [
                    number,
                    result.table,
                    hand.number,
                    hand.dealer,
                    hand.makers,
                    hand.maker,
                    "yes" if hand.alone else "",
                    hand.tricks,
                    bid,
                    hand.ns_points,
                    hand.ew_points,
                    "hand",
                    hand.renege,
                ]
            )
        writer.writerow(
            [
                number,
                result.table,
                "total",
                "",
                "",
                "",
                "",
                "",
                "",
                "" if result.three else result.ns_points,
                "" if result.three else result.ew_points,
                result.entry,
                "",
                *([(result.seat_points or {}).get(seat, "") for seat in "NES"] if threes else []),
            ]
        )
    return out.getvalue()


def season_csv(season: Season, *, public: bool = False) -> str:
    """The season's table: rank, name, nights played, total, average, best-N total, then each night's total.
    `public`: players who asked to be left off public lists are "A player"."""
    standings = season_standings(season)
    if public:
        standings = public_season(standings, unlisted_players(row.player_id for row in standings.rows))
    out = io.StringIO()
    writer = SafeWriter(out)
    best = [f"best {season.best_of}"] if standings.best else []
    nights = [f"{night.date:%Y-%m-%d} {night.name}" for night in standings.nights]
    writer.writerow(["rank", "player", "nights", "total", "average", *best, *nights])
    for row in standings.rows:
        writer.writerow(
            [
                rank_cell(row.rank_label),
                row.name,
                row.nights,
                row.total,
                f"{row.average:.2f}",
                *([row.best] if standings.best else []),
                *["" if cell.total is None else cell.total for cell in row.cells],
            ]
        )
    return out.getvalue()


def _amount(cents: int) -> Decimal:
    """An amount as a number the spreadsheet adds up (a negative one is a number, not a formula to escape)."""
    return Decimal(cents).scaleb(-2)


def money_csv(night: Night) -> str:
    """Every line of the night's cash record, then each line of its side pots, then the totals: the reconciliation
    as a spreadsheet."""
    door = door_money(night)
    out = io.StringIO()
    writer = SafeWriter(out)  # a reason typed as "=…" is text in the spreadsheet, never a formula
    # Each line's time as the hall's clock read it (the server's time zone, named in the column), and a player let
    # in free as a line that brought no money: the amounts add up to the net entry money, the comp said in words.
    writer.writerow([f"when ({timezone.get_current_timezone_name()})", "player", "method", "amount", "reason", "by"])
    for line in door.lines:
        comp = line.method == "comp"
        freed = f"let in free at {_amount(line.cents)}: no money in"
        writer.writerow(
            [
                timezone.localtime(line.at).strftime("%Y-%m-%d %H:%M:%S"),
                line.name,
                line.method,
                _amount(0 if comp else line.cents),
                "; ".join(filter(None, [freed if comp else "", line.reason])),
                line.by,
            ]
        )
    pots = list(night.pot_lines.select_related("by"))
    # The side pots' record, line by line: who won the 50/50 is in the spreadsheet, not only its total. Money in is
    # a plus, paid or carried a minus, so each pot's lines add up to what it leaves with the house.
    if pots:
        writer.writerow([])
        writer.writerow(
            [f"when ({timezone.get_current_timezone_name()})", "side pot", "line", "amount", "who or why", "by"]
        )
        for pot in pots:
            writer.writerow(
                [
                    timezone.localtime(pot.at).strftime("%Y-%m-%d %H:%M:%S"),
                    pot.pot,
                    pot.get_kind_display(),
                    _amount(
                        pot.cents if pot.kind == PotLine.Kind.IN else -pot.cents
                    ),  # the column adds to what is left
                    pot.reason,
                    pot.by.username if pot.by else "",
                ]
            )
    writer.writerow([])
    close = night_close(night)
    for figure in close.figures:  # the reconciliation, figure for figure as printed
        writer.writerow(["total", f"{figure.section}: {figure.label}", "", _amount(figure.cents), "", ""])
    if close.not_final:  # a file kept mid-night says so, as the sheets do
        writer.writerow(["not final", close.not_final, "", "", "", ""])
    return out.getvalue()
