"""One table's game as its pages show it: the hand-entry page and the keeper's desk."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db import connection, models
from django.db.models import Count

from scoring import rules
from scoring.models import Hand, Submission, TableLink, TableResult
from scoring.seats import HEAD_TABLE, SIDE_NAMES, is_three
from tournament.models import CodeMiss, Night, Round, entry_name

from .kept import NightReadings
from .night import stamp_of


@dataclass(frozen=True)
class TableGame:
    """One table's game as the hand-entry page shows it."""

    round: Round
    table: int
    seats: dict[str, str]  # seat -> player name
    result: TableResult | None
    hands: list[Hand]
    rules: rules.Ruleset

    @property
    def next_number(self) -> int:
        return len(self.hands) + 1

    @property
    def next_dealer(self) -> str | None:
        """Who deals the next hand; None before the first hand (the scorer picks)."""
        return rules.next_dealer(self.hands[-1].dealer) if self.hands else None

    @property
    def over(self) -> bool:
        return self.result is not None and self.result.status == TableResult.Status.FINAL

    @property
    def head(self) -> bool:
        """The head table, on a night where its last hand rings the bell."""
        return self.table == HEAD_TABLE and self.round.night.head_table_ends

    @property
    def reached(self) -> str | None:
        """The side whose points reached the night's target: the game is over ("NS", "EW"; None)."""
        if self.result is None:
            return None
        end = self.round.night.game_end()
        last = self.hands[-1] if self.hands else None
        # The side the last hand went to: "on offense" only it reaches the target; both at it, it took the bid.
        went_to = rules.score_hand(last.as_rules_hand(), self.rules).winner if last else None
        return end.reached(self.result.ns_points, self.result.ew_points, went_to)

    @property
    def reached_name(self) -> str:
        return SIDE_NAMES[self.reached] if self.reached else ""

    @property
    def all_dealt(self) -> bool:
        """No more hands to enter, only "Game over" (or an undo): the head table has played its hands, or a side
        reached the night's points target."""
        return (self.head and len(self.hands) >= self.round.night.hands_per_game) or self.reached is not None

    @property
    def may_finish(self) -> bool:
        """ "Game over" may be said: some hands entered, and at the head table all of them (or the bell rang)."""
        return (
            bool(self.hands) and not self.over and (not self.head or self.all_dealt or self.round.bell_at is not None)
        )

    @property
    def by_totals(self) -> bool:
        return self.result is not None and self.result.entry == TableResult.Entry.TOTALS

    @property
    def score(self) -> tuple[int, int]:
        return (self.result.ns_points, self.result.ew_points) if self.result else (0, 0)

    @property
    def hickeys(self) -> tuple[int, int] | None:
        """Pfeffer's Hickeys so far this game, (N–S, E–W); None where the rules keep none."""
        if not (self.rules.bidding and self.rules.hickeys):
            return None
        counts = {"NS": 0, "EW": 0}
        for hand in self.hands:
            for side, count in rules.hickeys(hand.as_rules_hand(), self.rules).items():
                counts[side] += count
        return counts["NS"], counts["EW"]


# A phone's poll asks this every few seconds: one plain statement, not three ORM queries (whose building cost more
# than the database's answer). It reads nothing but the table's own rows.
_TABLE_PARTS = (
    "SELECT (SELECT moved_at FROM {night} WHERE id = %s),"
    " (SELECT version FROM {result} WHERE round_id = %s AND {table} = %s),"
    " (SELECT status FROM {result} WHERE round_id = %s AND {table} = %s),"
    " (SELECT MAX(number) FROM {entry} WHERE round_id = %s AND {table} = %s)"
)


_LINK_PARTS = (
    "SELECT link.id, link.night_id, link.{table}, night.moved_at,"
    " (SELECT version FROM {result} WHERE round_id = %s AND {table} = link.{table}),"
    " (SELECT status FROM {result} WHERE round_id = %s AND {table} = link.{table}),"
    " (SELECT MAX(number) FROM {entry} WHERE round_id = %s AND {table} = link.{table})"
    " FROM {link} link JOIN {night} night ON night.id = link.night_id WHERE link.token = %s AND link.active = %s"
)


def table_poll(token: str, round_id: int | None) -> tuple[tuple[int, int, int], str] | None:
    """A table phone's poll in one plain statement: the id, night and table of the live link `token`, and the
    table's stamp (`table_stamp`) for the game `round_id` its page was drawn for. None: no live link there."""
    sql = _LINK_PARTS.format(
        link=TableLink._meta.db_table,
        night=Night._meta.db_table,
        result=TableResult._meta.db_table,
        entry=Submission._meta.db_table,
        table=connection.ops.quote_name("table"),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*[round_id or 0] * 3, token, True])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, night_id, table, moved, version, status, entry = row
    return (pk, night_id, table), _stamp(moved, round_id, version, status, entry)


def table_stamp(night_id: int, round_id: int | None, table: int) -> str:
    """What a table's phone page depends on, as one string: the night's moves (seating, start, bell, close), the
    game it shows, the table's result (each hand, "Game over") and its entries (a draft, a confirmation). One
    statement (each of a hall's table phones asks it every few seconds: hosted, every statement is a round trip);
    the phone's poll compares it with the stamp its page was drawn from."""
    sql = _TABLE_PARTS.format(
        night=Night._meta.db_table,
        result=TableResult._meta.db_table,
        entry=Submission._meta.db_table,
        table=connection.ops.quote_name("table"),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [night_id, *[round_id or 0, table] * 3])
        moved, version, status, entry = cursor.fetchone()
    if moved is None:
        return ""
    return _stamp(moved, round_id, version, status, entry)


def table_stamp_of(
    night: Night, round_id: int | None, result: TableResult | None, entries: Iterable[Submission]
) -> str:
    """`table_stamp` from the rows a table's page was drawn from (no statement of its own): each part is then the
    stamp of exactly what the page shows. The night is read before the rest, so a move landing in between can only
    make the stamp older than the page, which costs one more redraw, never a page left stale."""
    last = max((entry.number for entry in entries), default=None)
    return _stamp(night.moved_at, round_id, result.version if result else None, result.status if result else None, last)


def _stamp(moved: dt.datetime | str, round_id: int | None, version, status, entry) -> str:
    return f"{stamp_of(moved)}:{round_id or 0}:{version or 0}{status or ''}:{entry or 0}"


def stamp_round(stamp: str | None) -> int | None:
    """The game a table stamp was taken for (None when it names none)."""
    parts = (stamp or "").split(":")
    return int(parts[1]) if len(parts) == 4 and parts[1].isdecimal() and len(parts[1]) < 12 else None


@dataclass(frozen=True)
class TableRoom:
    """One night as its table phones see it at one move stamp: the game their pages show, every table's seats in it.

    After a move every table phone of the night redraws within its next poll; the first to ask reads this for all
    of them (three queries), the others draw their page from it (`table_room`)."""

    night: Night
    stamp: str
    round: Round | None  # the game being played, else the latest; None before the opening draw
    seats: Mapping[int, Mapping[str, str]]  # table -> seat -> the player's name, in that game


def shown_round(rounds: Iterable[Round]) -> Round | None:
    """The game a table's pages show, of the night's games latest first: the one being played, else the latest."""
    latest = list(rounds)
    return next((r for r in latest if r.open), None) or (latest[0] if latest else None)


def read_table_room(night_id: int) -> TableRoom | None:
    """The night's current game and its seats as the database has them now. The night (and so its stamp) is read
    first: a move writes its seats and its stamp in one transaction, so what is read after is at least as new."""
    night = Night.objects.filter(pk=night_id).first()
    if night is None:
        return None
    round_ = shown_round(Round.objects.filter(night=night).order_by("-number"))
    seats: dict[int, dict[str, str]] = {}
    if round_ is not None:
        round_.night = night  # the page's round and night are the ones read here, not read again
        rows = round_.seatings.annotate(entry_name=entry_name()).values_list("table", "seat", "entry_name")
        for table, seat, name in rows:
            seats.setdefault(table, {})[seat] = name
    return TableRoom(night, stamp_of(night.moved_at), round_, seats)


_tables: NightReadings[TableRoom] = NightReadings(lambda night_id: read_table_room(night_id))


def table_room(night_id: int, stamp: str) -> TableRoom | None:
    """The night's table pages' shared reading at move stamp `stamp`, read at most once per process and stamp."""
    return _tables.get(night_id, stamp)


def tables_changed_since(round_: Round, since: str | None) -> set[int] | None:
    """The tables whose result or entries changed after the stamp `since` (a night's change stamp), for a live
    page to redraw only those; None when it cannot tell (no stamp, or a change that left no trace, such as the
    last hand undone): then every table is redrawn.

    Scores of one game are written one at a time (each holds the game's lock), so a change committed after the stamp
    was taken is stamped later than it; a quarter second of slack covers clocks that are read a moment apart."""
    try:
        moment = dt.datetime.fromtimestamp(float(since or ""), tz=dt.UTC) - dt.timedelta(seconds=0.25)
    except (ValueError, OverflowError, OSError):
        return None
    changed = set(
        TableResult.objects.filter(round=round_, updated_at__gt=moment).values_list("table", flat=True)
    ) | set(Submission.objects.filter(round=round_, created_at__gt=moment).values_list("table", flat=True))
    return changed or None


def table_game(round_: Round, table: int) -> TableGame:
    seats = dict(
        round_.seatings.filter(table=table).annotate(entry_name=entry_name()).values_list("seat", "entry_name")
    )
    result = TableResult.objects.filter(round=round_, table=table).first()
    hands = list(result.hands.order_by("number")) if result else []
    return TableGame(round_, table, seats, result, hands, rules.Ruleset.from_dict(round_.night.rules))


class DeskState(models.TextChoices):
    """Where a table's score stands on the keeper's desk."""

    MISSING = "missing"
    PLAYING = "playing"  # hands being entered
    DRAFT = "draft"  # typed at the table, waiting for the other side
    DISPUTED = "disputed"
    IN = "in"


@dataclass(frozen=True)
class DeskRow:
    """One table on the keeper's desk."""

    table: int
    ns: str
    ew: str
    result: TableResult | None
    waiting: list[Submission]  # drafts and disputes typed at the table
    status: DeskState
    three: dict[str, str] | None = None  # a table of three: seat -> name (`ns` and `ew` then say who is where)
    locked: bool = False  # too many wrong codes at the table this game: only the keeper enters its score
    seats: Mapping[str, str] = field(default_factory=dict)  # seat -> the player's name

    @property
    def winner_name(self) -> str:
        """Who won a table of three's game (empty at a table of four)."""
        if self.three is None or self.result is None:
            return ""
        return self.three.get(self.result.winner, "?")

    @property
    def three_score(self) -> str:
        """A table of three's score with the players' names: "Ann 5 · Bob 3 · Cy 2"."""
        return three_score(self.three or {}, self.result)

    @property
    def label(self) -> str:
        said = self._label()
        if self.locked and self.status != DeskState.IN:
            return f"{said} · too many wrong codes at the table: enter its score here"
        return said

    def _label(self) -> str:
        if self.status == DeskState.IN:
            return "in"
        if self.three is not None and self.status in (DeskState.DISPUTED, DeskState.DRAFT):
            who = self.three
            if self.status == DeskState.DISPUTED:
                return "disputed: " + " vs ".join(
                    f"{who.get(s.side, s.side)} says {points_words(who, s.seat_points)}" for s in self.waiting
                )
            draft = self.waiting[-1]
            said = points_words(who, draft.seat_points)
            return f"entered by {who.get(draft.side, draft.side)}, {said}: waiting for another player"
        if self.status == DeskState.DISPUTED:
            return "disputed: " + " vs ".join(f"{s.side} says {s.ns_points}–{s.ew_points}" for s in self.waiting)
        if self.status == DeskState.DRAFT:
            draft = self.waiting[-1]
            return f"entered by {draft.side}, {draft.ns_points}–{draft.ew_points}: waiting for the other side"
        if self.status == DeskState.PLAYING:
            return f"hands being entered ({self.result.hands_played if self.result else 0})"
        return "missing"


def points_words(seats: dict[str, str], points: dict[str, int] | None) -> str:
    """A table of three's scores by name, in seat order: "Ann Lee 5, Bob Ray 3, Cy Orr 2" (an entry's words)."""
    return ", ".join(f"{seats.get(seat, seat)} {(points or {}).get(seat, 0)}" for seat in ("N", "E", "S"))


def three_score(seats: dict[str, str], result: TableResult | None) -> str:
    """A table of three's game, each player's name and points, the winner first ("" when it has no score)."""
    if result is None or result.seat_points is None:
        return ""
    points, winner = result.seat_points, result.winner
    order = sorted(points, key=lambda seat: (seat != winner, -points[seat]))
    return " · ".join(f"{seats.get(seat, seat)} {points[seat]}" for seat in order)


def desk_rows(round_: Round, *, table: int | None = None, seats: Mapping[str, str] | None = None) -> list[DeskRow]:
    """Every table of a game with its state, for the keeper's desk (four queries); `table`: that table's row alone
    (a row saved at the desk is drawn again without reading the other tables), and `seats` its players by seat when
    the caller has read them (a score moves nobody within its game: three queries)."""
    only = {} if table is None else {"table": table}
    names: dict[int, dict[str, str]] = {}
    if seats is not None and table is not None:
        names[table] = dict(seats)
    else:
        seated = round_.seatings.filter(**only).annotate(entry_name=entry_name())
        for at, seat, name in seated.values_list("table", "seat", "entry_name"):
            names.setdefault(at, {})[seat] = name
    results = {r.table: r for r in TableResult.objects.filter(round=round_, **only)}
    waiting: dict[int, list[Submission]] = {}
    for submission in Submission.objects.filter(
        round=round_, status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED], **only
    ).order_by("number"):
        waiting.setdefault(submission.table, []).append(submission)
    locked: set[int] = set()
    if round_.night.confirm_results:  # wrong codes are counted only where codes are asked (fixed from the draw on)
        misses = CodeMiss.objects.filter(round=round_, **only).values("table").annotate(n=Count("id"))
        locked = {miss["table"] for miss in misses if miss["n"] >= CodeMiss.LIMIT}
    rows = []
    for at in sorted(names):
        seats, result, pending = names[at], results.get(at), waiting.get(at, [])
        if result is not None and result.status == TableResult.Status.FINAL:
            status = DeskState.IN
        elif any(s.status == Submission.Status.DISPUTED for s in pending):
            status = DeskState.DISPUTED
        elif pending:
            status = DeskState.DRAFT
        elif result is not None:
            status = DeskState.PLAYING
        else:
            status = DeskState.MISSING
        if is_three(seats):  # a table of three: no sides, three players each for themselves
            rows.append(
                DeskRow(
                    at,
                    f"{seats.get('N', '?')}, {seats.get('E', '?')}",
                    seats.get("S", "?"),
                    result,
                    [s for s in pending if status != DeskState.DISPUTED or s.status == Submission.Status.DISPUTED],
                    status,
                    seats,
                    at in locked,
                    seats,
                )
            )
            continue
        rows.append(
            DeskRow(
                table=at,
                ns=f"{seats.get('N', '?')} & {seats.get('S', '?')}",
                ew=f"{seats.get('E', '?')} & {seats.get('W', '?')}",
                result=result,
                waiting=[s for s in pending if status != DeskState.DISPUTED or s.status == Submission.Status.DISPUTED],
                status=status,
                locked=at in locked,
                seats=seats,
            )
        )
    return rows


def table_history(round_: Round, table: int) -> list[Submission]:
    return list(Submission.objects.filter(round=round_, table=table).select_related("user").order_by("number"))


def table_result(round_: Round, table: int) -> TableResult | None:
    """A table's result in a game (None before anything was entered): a game entered hand by hand has no entries
    in its history, so the history says what the result holds."""
    return TableResult.objects.filter(round=round_, table=table).first()
