"""Readers for the night's pages: who is registered, the current round's tables and where everyone sits."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet

from scoring.models import TableResult

from .engine.types import PARTNER_SEAT, SEATS
from .models import Bye, Entry, Night, Player, Round, Seating

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
    here = Q(entries__checked_in=True, entries__active=True, entries__player__house=False)
    return Night.objects.annotate(players=Count("entries", filter=here)).order_by("-date", "-id")


def night_entries(night: Night) -> list[Entry]:
    return list(night.entries.filter(player__house=False).select_related("player").order_by("player__name"))


def roster_not_in(night: Night) -> QuerySet[Player]:
    return Player.objects.filter(house=False).exclude(entries__night=night).order_by("name")


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
    lines = [
        SeatFinder(
            name=s.player.name,
            table=s.table,
            seat=s.seat,
            seat_name=SEAT_NAMES[s.seat],
            partner=by_place[(s.table, PARTNER_SEAT[s.seat])],
        )
        for s in seatings
        if not s.player.house
    ]
    lines += [
        SeatFinder(name=name, table=0, seat="", seat_name="sits out this game", partner="")
        for name in round_byes(round_)
    ]
    return sorted(lines, key=lambda line: line.name.lower())


@dataclass(frozen=True)
class FairnessRow:
    player_id: int
    name: str
    games: int
    head_table: int
    byes: int
    partners_again: dict[str, int]  # partner -> games together, where more than once
    opponents_again: dict[str, int]  # opponent -> games against, where more than twice


def fairness(night: Night) -> list[FairnessRow]:
    """For each player: games at the head table, byes, partners met more than once, opponents more than twice.

    Every game seated so far counts, the current one included (three queries).
    """
    names = dict(Entry.objects.filter(night=night, player__house=False).values_list("player_id", "player__name"))
    tables: dict[tuple[int, int], dict[str, int]] = {}
    for number, table, seat, player in Seating.objects.filter(round__night=night).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        tables.setdefault((number, table), {})[seat] = player
    byes: dict[int, int] = {}
    for player in Bye.objects.filter(round__night=night).values_list("player_id", flat=True):
        byes[player] = byes.get(player, 0) + 1
    games = {player: 0 for player in names}
    head = {player: 0 for player in names}
    partners: dict[int, dict[int, int]] = {player: {} for player in names}
    opponents: dict[int, dict[int, int]] = {player: {} for player in names}
    for (_, table), seats in tables.items():
        for seat, player in seats.items():
            if player not in names:
                continue  # a house player
            games[player] += 1
            head[player] += table == 1
            partner = seats.get(PARTNER_SEAT[seat])
            partners[player][partner] = partners[player].get(partner, 0) + 1
            for other in (seats.get(s) for s in SEATS if s not in (seat, PARTNER_SEAT[seat])):
                opponents[player][other] = opponents[player].get(other, 0) + 1

    def named(counts: dict[int, int], more_than: int) -> dict[str, int]:
        return {
            names[p]: n for p, n in sorted(counts.items(), key=lambda item: -item[1]) if p in names and n > more_than
        }

    return sorted(
        (
            FairnessRow(
                player_id=player,
                name=name,
                games=games[player],
                head_table=head[player],
                byes=byes.get(player, 0),
                partners_again=named(partners[player], 1),
                opponents_again=named(opponents[player], 2),
            )
            for player, name in names.items()
        ),
        key=lambda row: row.name.lower(),
    )


def round_byes(round_: Round) -> list[str]:
    """Who sits out this game, by name."""
    return sorted(round_.byes.filter(player__house=False).values_list("player__name", flat=True), key=str.lower)


def players_in_play(night: Night, round_: Round | None) -> list[dict]:
    """Every registered player with where they are in the current game: a table, a bye, or gone."""
    seated = dict(round_.seatings.values_list("player_id", "table")) if round_ else {}
    sitting_out = set(round_.byes.values_list("player_id", flat=True)) if round_ else set()
    rows = []
    for entry in night.entries.filter(player__house=False).select_related("player").order_by("player__name"):
        if not entry.active:
            where = "gone"
        elif entry.player_id in seated:
            where = f"table {seated[entry.player_id]}"
        elif entry.player_id in sitting_out:
            where = "sitting out"
        else:
            where = "joins next game"
        rows.append({"entry": entry, "where": where})
    return rows
