"""Readers for the night's pages: who is registered, the current round's tables and where everyone sits."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from scoring.models import TableResult

from .engine.types import PARTNER_SEAT
from .models import Entry, Night, Player, Round, Seating

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass
class TableView:
    number: int
    label: str  # "Head table", "Tail table" or ""
    seats: dict[str, str] = field(default_factory=dict)  # seat -> player name
    result: TableResult | None = None

    @property
    def done(self) -> bool:
        return self.result is not None and self.result.status == TableResult.Status.FINAL

    @property
    def by_hands(self) -> bool:
        return self.result is not None and self.result.entry == TableResult.Entry.HANDS


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]

    @property
    def missing(self) -> list[int]:
        """Tables whose game is not in yet (no score, or hands still being entered)."""
        return [table.number for table in self.tables if not table.done]

    @property
    def entered(self) -> int:
        return len(self.tables) - len(self.missing)


@dataclass(frozen=True)
class SeatFinder:
    """A line of the 'find your name' list."""

    name: str
    table: int
    seat: str
    seat_name: str
    partner: str


def nights_for(user) -> QuerySet[Night]:
    return Night.objects.annotate(
        players=Count("entries", filter=Q(entries__checked_in=True, entries__active=True))
    ).order_by("-date", "-id")


def night_entries(night: Night) -> list[Entry]:
    return list(night.entries.select_related("player").order_by("player__name"))


def roster_not_in(night: Night) -> QuerySet[Player]:
    return Player.objects.exclude(entries__night=night).order_by("name")


def current_round(night: Night) -> Round | None:
    return night.rounds.order_by("-number").first()


def table_label(number: int, count: int) -> str:
    if number == 1:
        return "Head table"
    if number == count:
        return "Tail table"
    return ""


def round_view(round_: Round) -> RoundView:
    """The round's tables with who sits where and any score entered (two queries)."""
    tables: dict[int, TableView] = {}
    seatings = list(round_.seatings.select_related("player").order_by("table", "seat"))
    count = max((s.table for s in seatings), default=0)
    for seating in seatings:
        view = tables.setdefault(seating.table, TableView(seating.table, table_label(seating.table, count)))
        view.seats[seating.seat] = seating.player.name
    for result in TableResult.objects.filter(round=round_):
        if result.table in tables:
            tables[result.table].result = result
    return RoundView(round_, [tables[number] for number in sorted(tables)])


def seat_finder(round_: Round) -> list[SeatFinder]:
    """Everyone in the round, alphabetically, with their table, seat and partner."""
    seatings = list(Seating.objects.filter(round=round_).select_related("player"))
    by_place = {(s.table, s.seat): s.player.name for s in seatings}
    return sorted(
        (
            SeatFinder(
                name=s.player.name,
                table=s.table,
                seat=s.seat,
                seat_name=SEAT_NAMES[s.seat],
                partner=by_place[(s.table, PARTNER_SEAT[s.seat])],
            )
            for s in seatings
        ),
        key=lambda line: line.name.lower(),
    )
