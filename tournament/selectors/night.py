"""Readers for the night's pages: who is registered, the current round's tables and where everyone sits."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, models
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from scoring import names as name_order
from scoring.models import Hand, TableLink, TableResult
from scoring.rules import Ruleset, score_hand
from scoring.seats import HEAD_TABLE, PARTNER_SEAT, SEAT_NAMES, SEATS, is_three

from ..engine import money
from ..models import Bye, Entry, Night, NightContents, Player, Round, Seating, entry_name


@dataclass
class TableView:
    number: int
    label: str  # "Head table", "Tail table" or ""
    seats: dict[str, str] = field(default_factory=dict)  # seat -> player name
    result: TableResult | None = None
    reached: bool = False  # a side reached the night's points target (its game is over, "Game over" to come)

    @property
    def done(self) -> bool:
        return self.result is not None and self.result.status == TableResult.Status.FINAL

    @property
    def by_hands(self) -> bool:
        return self.result is not None and self.result.entry == TableResult.Entry.HANDS

    @property
    def three(self) -> bool:
        """A table of three (three-handed: each player for themselves)."""
        return is_three(self.seats)

    @property
    def winner_name(self) -> str:
        """Who won: the side ("North–South"), or at a table of three the player."""
        if self.result is None:
            return ""
        return self.seats.get(self.result.winner, "?") if self.three else self.result.get_winner_display()


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
    """Every night of the organizer's club; the nights a score keeper keeps, for anyone else (an account of no club:
    none)."""
    here = Q(entries__checked_in=True, entries__active=True, entries__player__house=False)
    nights = Night.objects.filter(club__members__user=user)
    nights = nights if user.is_staff else nights.filter(keepers=user)
    latest = Round.objects.filter(night=OuterRef("pk")).order_by("-number")
    return nights.annotate(
        players=Count("entries", filter=here, distinct=True),
        game=Subquery(latest.values("number")[:1]),
        game_status=Subquery(latest.values("status")[:1]),
    ).order_by("-date", "-id")


def night_entries(night: Night) -> list[Entry]:
    entries = night.entries.filter(player__house=False).select_related("player")
    return sorted(entries, key=lambda entry: name_order.sort_key(entry.name))


@dataclass(frozen=True)
class NightDeletion:
    """What the Delete page says a night holds: each thing deleting it would lose, in words."""

    contents: NightContents
    lines: list[str]


def _count(number: int, one: str, many: str) -> str:
    return f"{number:,} {one if number == 1 else many}"


def night_deletion(night: Night) -> NightDeletion:
    """The night's contents as the Delete page lists them (`Night.contents`, which the deleting service reads)."""
    held = night.contents()
    lines = []
    if held.players:
        lines.append(f"{_count(held.players, 'player', 'players')} (they stay on the club roster)")
    if held.games_scored:
        over = ", and the night is over" if held.finished else ""
        lines.append(f"the scores of {_count(held.games_scored, 'game', 'games')}{over}")
    elif held.finished:
        lines.append("the night is over")
    if held.payments:
        net = money.shown(held.net, night.currency)
        lines.append(f"{_count(held.payments, 'line', 'lines')} of the door's money ({net} in the box)")
    if held.pot_lines:
        lines.append(_count(held.pot_lines, "side-pot line", "side-pot lines"))
    if held.draws:
        lines.append(_count(held.draws, "draw", "draws"))
    for season in held.seasons:
        lines.append(f"its games in the season “{season}” (the season's standings lose them)")
    return NightDeletion(held, lines)


def roster_not_in(night: Night) -> QuerySet[Player]:
    return Player.objects.filter(club=night.club_id, house=False).exclude(entries__night=night).order_by("name")


def current_round(night: Night) -> Round | None:
    return night.rounds.order_by("-number").first()


def joins_game(night: Night) -> int | None:
    """The game a player added now first plays: the seated game not yet started, else the next one (None: the
    night's last game is under way, or the night is over)."""
    if night.status == Night.Status.SETUP:
        return 1
    current = current_round(night)
    if night.status == Night.Status.FINISHED or current is None:
        return None
    number = current.number if current.status == Round.Status.SEATED else current.number + 1
    return number if number <= night.games else None


def card_field(night: Night) -> str:
    """The entry's field a tally card shows: the chart number on a rotation night, else the card number."""
    return "number" if night.movement == Night.Movement.ROTATION else "card"


def card_numbers(night: Night, player_ids) -> dict[int, int]:
    """The number each player's tally card shows, by player."""
    field = card_field(night)
    return {
        player: number
        for player, number in Entry.objects.filter(night=night, player_id__in=list(player_ids)).values_list(
            "player_id", field
        )
        if number is not None
    }


def player_by_card_number(night: Night, number: int) -> int | None:
    """Who holds tally card `number` tonight (a player id), or None."""
    entries = Entry.objects.filter(night=night, player__house=False, **{card_field(night): number})
    return entries.values_list("player_id", flat=True).first()


def table_label(number: int, count: int) -> str:
    if number == 1:
        return "Head table"
    if number == count:
        return "Tail table"
    return ""


def round_view(round_: Round) -> RoundView:
    """The round's tables with who sits where and any score entered (two queries)."""
    tables: dict[int, TableView] = {}
    seatings = list(round_.seatings.annotate(entry_name=entry_name()).order_by("table", "seat"))
    count = max((s.table for s in seatings), default=0)
    for seating in seatings:
        view = tables.setdefault(seating.table, TableView(seating.table, table_label(seating.table, count)))
        view.seats[seating.seat] = seating.entry_name
    end = round_.night.game_end()
    went_to = _last_hands_went_to(round_) if end.on_offense and end.target is not None else {}
    for result in TableResult.objects.filter(round=round_):
        if result.table in tables:
            tables[result.table].result = result
            tables[result.table].reached = (
                end.reached(result.ns_points, result.ew_points, went_to.get(result.pk)) is not None
            )
    return RoundView(round_, [tables[number] for number in sorted(tables)])


def _last_hands_went_to(round_: Round) -> dict[int, str]:
    """For each game still being entered hand by hand, the side its last hand went to (Pepper's "on offense": only
    that side can have reached the target). One query, on such nights only."""
    ruleset = Ruleset.from_dict(round_.night.rules)
    last: dict[int, Hand] = {}
    for hand in Hand.objects.filter(result__round=round_, result__status=TableResult.Status.PLAYING).order_by(
        "result_id", "number"
    ):
        last[hand.result_id] = hand
    return {result: score_hand(hand.as_rules_hand(), ruleset).winner for result, hand in last.items()}


def seat_finder(round_: Round) -> list[SeatFinder]:
    """Everyone in the round, alphabetically, with their table, seat and partner."""
    seatings = list(Seating.objects.filter(round=round_).select_related("player").annotate(entry_name=entry_name()))
    by_place = {(s.table, s.seat): s.entry_name for s in seatings}
    taken: dict[int, set[str]] = {}
    for s in seatings:
        taken.setdefault(s.table, set()).add(s.seat)
    lines = [
        SeatFinder(
            name=s.entry_name,
            table=s.table,
            seat=s.seat,
            seat_name=SEAT_NAMES[s.seat],
            # A table of three (no West) has no partners: each hand's caller plays alone against the other two.
            partner="" if is_three(taken[s.table]) else by_place[(s.table, PARTNER_SEAT[s.seat])],
        )
        for s in seatings
        if not s.player.house
    ]
    lines += [
        SeatFinder(name=name, table=0, seat="", seat_name="sits out this game", partner="")
        for name in round_byes(round_)
    ]
    return sorted(lines, key=lambda line: name_order.sort_key(line.name))


@dataclass(frozen=True)
class FairnessRow:
    player_id: int
    name: str
    games: int
    head_table: int
    byes: int
    partners_again: dict[str, int]  # partner -> games together, where more than once
    opponents_again: dict[str, int]  # opponent -> games against, where more than twice
    at_three: int = 0  # games at a table of three


def fairness(night: Night) -> list[FairnessRow]:
    """For each player: games at the head table, byes, games at a table of three, partners met more than once,
    opponents more than twice.

    Every game seated so far counts, the current one included (three queries).
    """
    names = dict(Entry.objects.filter(night=night, player__house=False).values_list("player_id", "name"))
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
    at_three = {player: 0 for player in names}
    partners: dict[int, dict[int, int]] = {player: {} for player in names}
    opponents: dict[int, dict[int, int]] = {player: {} for player in names}
    for (_, table), seats in tables.items():
        for seat, player in seats.items():
            if player not in names:
                continue  # a house player
            games[player] += 1
            head[player] += table == 1
            three = is_three(seats)  # a table of three: no partner, the other two are opponents
            at_three[player] += three
            partner = None if three else seats.get(PARTNER_SEAT[seat])
            if partner is not None:
                partners[player][partner] = partners[player].get(partner, 0) + 1
            for other in (seats.get(s) for s in SEATS if s != seat and (three or s != PARTNER_SEAT[seat])):
                if other is not None:
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
                at_three=at_three[player],
            )
            for player, name in names.items()
        ),
        key=lambda row: name_order.sort_key(row.name),
    )


def round_byes(round_: Round) -> list[str]:
    """Who sits out this game, by name."""
    byes = round_.byes.filter(player__house=False).annotate(entry_name=entry_name())
    return sorted(byes.values_list("entry_name", flat=True), key=name_order.sort_key)


class Place(models.TextChoices):
    """Where a registered player is in the current game."""

    SEATED = "seated"
    BYE = "bye"
    NEXT = "next"  # registered, joins the next game
    GONE = "gone"


class RoomState(models.TextChoices):
    """What the room is doing, for the room display and the phones."""

    WAITING = "waiting"
    HELD = "held"  # between games: the last one closed, the next not seated until the organizer says
    SEATED = "seated"
    BREAK = "break"
    PLAYING = "playing"
    BELL = "bell"
    FINISHED = "finished"


def players_in_play(night: Night, round_: Round | None) -> list[dict]:
    """Every registered player with where they are in the current game: a table, a bye, or gone."""
    seated = dict(round_.seatings.values_list("player_id", "table")) if round_ else {}
    sitting_out = set(round_.byes.values_list("player_id", flat=True)) if round_ else set()
    rows = []
    entries = night_entries(night)
    name_of = {entry.pk: entry.name for entry in entries}
    replaced_by = {entry.substitute_for_id: entry.name for entry in entries if entry.substitute_for_id}
    for entry in entries:
        if not entry.active:
            place, where = Place.GONE, "gone"
            if entry.pk in replaced_by:
                where = f"gone, replaced by {replaced_by[entry.pk]}"
        elif entry.player_id in seated:
            place, where = Place.SEATED, f"table {seated[entry.player_id]}"
        elif entry.player_id in sitting_out:
            place, where = Place.BYE, "sitting out"
        else:
            joins = (
                "the next game" if round_ is None else f"game {round_.number + (round_.status != Round.Status.SEATED)}"
            )
            place, where = Place.NEXT, f"joins {joins}"
        if entry.substitute_for_id in name_of:
            where += f" · substitute for {name_of[entry.substitute_for_id]}"
        rows.append({"entry": entry, "place": place, "where": where, "replaced": entry.pk in replaced_by})
    return rows


@dataclass
class Room:
    """What the room display and the players' phones show, for one night, right now."""

    night: Night
    round: Round | None
    stamp: str  # changes whenever anything the room sees changes
    state: RoomState
    headline: str
    detail: str
    tables_in: int = 0
    tables: int = 0
    finder: list[SeatFinder] = field(default_factory=list)


def night_stamp(night_id: int, *, moved: bool = True) -> str | None:
    """The night's change stamp (one query): all a poll needs to say "nothing new".

    `moved`: only changes of seating or game state (what phones and the room's seat list show); otherwise any
    change, a score included (the room's "scores in" count).
    """
    field = "moved_at" if moved else "changed_at"
    # Plain SQL: every phone in the hall asks this every few seconds, and building the ORM query cost more than
    # the database took to answer it.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {field} FROM {Night._meta.db_table} WHERE id = %s", [night_id])
        row = cursor.fetchone()
    return None if row is None else stamp_of(row[0])


def stamp_of(moment: dt.datetime | str) -> str:
    """A stored moment as a page's stamp: what `f"{night.moved_at.timestamp():.6f}"` gives for the same value
    (a raw SQLite read gives it without its time zone, which is UTC, and as text where SQLite cannot tell the
    column's type, from a subquery)."""
    if isinstance(moment, str):
        moment = dt.datetime.fromisoformat(moment)
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
    return f"{aware.timestamp():.6f}"


def room(night: Night, *, with_finder: bool = True) -> Room:
    """The room's state; `with_finder` adds everyone's seat (the room display needs it, a phone does not)."""
    current = current_round(night)
    stamp = f"{night.moved_at.timestamp():.6f}"
    if night.status == Night.Status.FINISHED:
        return Room(
            night,
            current,
            stamp,
            RoomState.FINISHED,
            "Thank you for playing!",
            f"The night is over: all {night.games} games played."
            if night.games != 1
            else "The night is over: its one game is played.",
        )
    if current is None:
        return Room(
            night, None, stamp, RoomState.WAITING, night.name, "The seating is drawn once everyone is registered."
        )
    if current.status == Round.Status.CLOSED:  # held before the next game (tournament.game.night_hold)
        return Room(
            night,
            current,
            stamp,
            RoomState.HELD,
            f"Game {current.number} is over",
            f"Game {current.number + 1} is seated in a moment: the organizer will call it.",
        )
    finished = TableResult.objects.filter(round=current, status=TableResult.Status.FINAL).count()
    tables = current.seatings.values("table").distinct().count()
    finder = seat_finder(current) if with_finder else []
    base: dict[str, Any] = {"night": night, "round": current, "stamp": stamp, "tables_in": finished, "tables": tables}
    number = f"Game {current.number} of {night.games}"
    if current.number == night.games and night.games > 1:
        number = f"Game {current.number} of {night.games}: the last game"
    if current.status == Round.Status.SEATED and current.starts_at:
        return Room(
            **base,
            state=RoomState.BREAK,
            headline="Break",
            detail=f"{number} starts at the end of the break.",
            finder=finder,
        )
    if current.status == Round.Status.SEATED:
        return Room(
            **base,
            state=RoomState.SEATED,
            headline=number,
            detail=f"Find your seat: the game starts soon. {night.game_end().words()}.",
            finder=finder,
        )
    if current.status == Round.Status.BELL:
        return Room(
            **base,
            state=RoomState.BELL,
            headline="BELL — finish the hand you are playing",
            detail=f"Scores in: {finished} of {tables} tables",
            finder=finder,
        )
    detail = _playing(night, current, base)
    if night.hold_next and current.number < night.games:
        detail += f" · a pause before game {current.number + 1}"
    return Room(**base, state=RoomState.PLAYING, headline=number, detail=detail, finder=finder)


def _playing(night: Night, current: Round, base: dict[str, Any]) -> str:
    """The room's line while a game is played: the head table's progress where its last hand rings the bell, the
    points target, the tables in."""
    target = f"games to {night.points_target} points" if night.points_target else ""
    scores = f"scores in: {base['tables_in']} of {base['tables']} tables"
    if night.head_table_ends:
        head = Hand.objects.filter(result__round=current, result__table=HEAD_TABLE).count()
        progress = f"head table: {head} of {night.hands_per_game} hands played"
        if current.ends_at or current.paused_left or target:
            parts = [scores, progress, target]
        else:
            parts = [f"{progress}: its hand {night.hands_per_game} rings the bell"]
    else:
        parts = [target, scores]
    line = " · ".join(part for part in parts if part)
    return line[0].upper() + line[1:]


@dataclass(frozen=True)
class PlayerPlace:
    """One player's place now and in the next game, for their phone."""

    name: str
    now: SeatFinder | None
    next: SeatFinder | None


def find_players(night: Night, query: str) -> list[Entry]:
    """Players of the night whose name contains `query`, however typed: case, accents, spacing and punctuation
    ignored ("lukasz zolc" finds Łukasz Żółć, "obrien" O'Brien)."""
    return [e for e in night_entries(night) if name_order.matches(query, e.name)]


def clock(round_: Round | None) -> dict:
    """The numbers a countdown needs: the stored end (or planned start), the warning, and the server's now."""
    now = timezone.now()
    if round_ is None:
        return {"server_now_ms": int(now.timestamp() * 1000)}
    target = round_.ends_at if round_.status == Round.Status.PLAYING else round_.starts_at
    left = (target - now) if target else round_.paused_left
    seconds = max(0, int(left.total_seconds())) if left is not None else 0
    return {
        "round": round_,
        "server_now_ms": int(now.timestamp() * 1000),
        "ends_ms": int(round_.ends_at.timestamp() * 1000) if round_.ends_at else None,
        "starts_ms": int(round_.starts_at.timestamp() * 1000) if round_.starts_at else None,
        "warn_ms": round_.night.warning_minutes * 60_000,
        "left_text": f"{seconds // 60}:{seconds % 60:02d}",
    }


def table_links(night: Night) -> list[TableLink]:
    """The live link of each table, in table order (made by the services when the seating is drawn)."""
    return list(TableLink.objects.filter(night=night, active=True).order_by("table"))


def tables_without_links(night: Night) -> list[int]:
    """Tables of the night's latest game with no live link (a night seated before links were made with the seating)."""
    current = night.rounds.order_by("-number").first()
    tables = set(current.seatings.values_list("table", flat=True)) if current else set()
    return sorted(tables - set(TableLink.objects.filter(night=night, active=True).values_list("table", flat=True)))
