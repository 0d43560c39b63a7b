"""Readers for tallies and standings. Every figure a player sees on a page or a sheet comes from here."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db import connections

from scoring import prizes, rules, tallies
from scoring import standings as standings_core
from scoring.models import Hand, TableResult, extras_of
from scoring.seats import is_three
from tournament.engine.types import PARTNER_SEAT
from tournament.models import Bye, Draw, Entry, Night, Round, Seating


@dataclass(frozen=True)
class GameLine:
    """One player's tally line for one game (or a bye: table 0, the bye credit as points)."""

    player_id: int
    round: int
    table: int
    seat: str
    partner: str
    opponents: tuple[str, ...]
    points: int  # the team's score at the table, or the bye credit
    conceded: int
    won: bool
    extras: rules.Extras
    running_total: int  # tally so far: team scores, personal bonuses and bye credits
    bye: bool = False
    partner_id: int | None = None  # None at a table of three and for a bye

    @property
    def tally(self) -> int:
        """What this game adds to the player's tally: the team's score and any personal bonus."""
        return self.points + self.extras.bonus


@dataclass(frozen=True)
class StandingRow:
    rank_label: str
    player_id: int
    name: str
    total: int
    wins: int
    conceded: int
    games: int
    byes: int
    average: float
    loners_made: int
    loners_tried: int
    euchres: int
    marches: int
    per_round: list[int | None]
    cells: list[str]  # each game as shown: the points, "bye" (with its credit) or "–"
    separated_by: str | None
    figures: list[str] = field(default_factory=list)  # the chain's columns (NightStandings.columns): "71.4 %"
    # The number on the tally's card (a rotation night's chart number; a leaver's passes to their substitute).
    number: int | None = None


@dataclass(frozen=True)
class NightStandings:
    rows: list[StandingRow]
    rounds_closed: int
    high: list[StandingRow]
    low: list[StandingRow]
    chain: list[str]
    bye_note: str  # how a bye counts, said on every standings page and sheet
    ranked_by: str  # the first link of the chain, in words
    awards: list[AwardRow]
    ranked_by_key: str = ""  # the same link's key (a metric of scoring.standings)
    # The chain's links with a column of their own (win %, points %, points per game, number): their headings.
    columns: list[str] = field(default_factory=list)
    column_keys: list[str] = field(default_factory=list)  # the same links' keys ("win_pct", "ppg", "number")
    foot: list[str] = field(default_factory=list)  # each link's name, with its heading where it has a column
    shares_note: str = ""  # what the percentages count, when the chain has one

    @property
    def by_average(self) -> bool:
        """Ranked by average per game first: the standings then show each player's average."""
        return self.ranked_by_key == "average"

    @property
    def champions(self) -> list[StandingRow]:
        """On a night ranked by games won, its first place (the room display names them above the high score)."""
        if self.ranked_by_key != "wins" or not self.rounds_closed:
            return []
        return [row for row in self.rows if row.rank_label.lstrip("=") == "1"]


@dataclass(frozen=True)
class AwardRow:
    prize: str
    names: list[str]
    value: str
    tie: bool
    player_ids: tuple[int, ...] = ()
    key: str = ""  # the prize's key (scoring.prizes): "high", "second", "high:lady"
    money: str = ""  # the prize's money, where the night pays some ("$96.75", "$22.50 each")


def night_chain(night: Night) -> tuple[standings_core.Metric, ...]:
    """The night's tie-break chain (`scoring.standings.night_chain`): the organizer's order, or the movement's
    usual one; a draw last if asked."""
    return standings_core.night_chain(
        night.tie_keys,
        wins_first=night.movement == Night.Movement.WINNERS_STAY,
        rank_by=night.rank_by,
        draw_seed=(night.seed or 0) if night.final_draw else None,
    )


BYE_NOTES = {
    "none": "A bye counts nothing.",
    "fixed": "A bye counts {points} points.",
    "own_average": "A bye counts the player's own average per game played.",
    "round_average": "A bye counts the average score of that game.",
}


def shares_note(chain: Sequence[standings_core.Metric]) -> str:
    """What the chain's shares of the games played count, said under the standings; empty without any."""
    said = [metric.explained for metric in chain if metric.explained]
    if not said:
        return ""
    return (
        "; ".join(said) + ": byes and games not played count in neither part. A player with no game played has "
        "no figure there (–) and ranks below every player with one."
    )


@dataclass
class NightRows:
    """One night's rows, read in bulk with other nights: who played, where they sat, each result, hands' extras."""

    night: Night
    names: dict[int, str] = field(default_factory=dict)  # every entry, house players too
    players: set[int] = field(default_factory=set)  # those with a tally (house players have none)
    categories: dict[int, str] = field(default_factory=dict)
    # What a prize's eligibility reads: still playing at the end, a member (door list or club number).
    standing: dict[int, prizes.Player] = field(default_factory=dict)
    cards: dict[int, int] = field(default_factory=dict)  # tally-card number -> player
    charts: dict[int, int] = field(default_factory=dict)  # player -> chart number (a rotation night's entries)
    settled: dict[str, tuple[frozenset[int], int]] = field(
        default_factory=dict
    )  # a tie's draw: prize -> (level, drawn)
    seats: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)  # (game, table) -> seat -> player
    results: dict[tuple[int, int], tuple[int, int, str]] = field(default_factory=dict)  # N-S, E-W, winner
    threes: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)  # a table of three: seat -> points
    extras: dict[tuple[int, int], dict[str, rules.Extras]] = field(default_factory=dict)  # by seat
    byes: list[tuple[int, int]] = field(default_factory=list)  # (player, game), in the order they were stored
    # Substitutes whose games go on the tally of the player they replaced (the night's "card" rule): sub -> them.
    plays_for: dict[int, int] = field(default_factory=dict)
    # Entries never checked in: a tally only if they played (a no-show, once the games are drawn, is on no list).
    away: set[int] = field(default_factory=set)
    with_extras: bool = True  # False: hands were read only where they can change a total (a personal bonus)


@functools.lru_cache(maxsize=64)
def _bonus_possible(ruleset: rules.Ruleset) -> bool:
    """Whether any hand under these rules puts personal points on a tally (so a total needs the hands)."""
    return any(
        earned.bonus
        for hand in rules.legal_hands(ruleset)
        for earned in rules.score_hand(hand, ruleset).extras.values()
    )


def _fetch(queryset) -> list[tuple]:
    """A values_list query's rows straight from the database cursor, skipping Django's per-row conversion.

    For the big reads (every seat and hand of a night or a season): flags come back as 0/1 on SQLite, which the
    code below only tests for truth.
    """
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def read_nights(nights: Sequence[Night], *, extras: bool = True) -> dict[int, NightRows]:
    """The closed games of any number of nights, in four queries whatever their number or size.

    Each game's loners, euchres, marches and personal bonus come stored on its result (TableResult.extras); only a
    result that has none stored (a loaded fixture) has its hands read, in a fifth query. With `extras` off (a
    season's totals), they are read only for nights whose rules give a personal bonus: elsewhere they cannot
    change a total, and loners, euchres and marches are left at nothing.
    """
    rows = {night.pk: NightRows(night, with_extras=extras) for night in nights}
    ids = list(rows)
    if not ids:
        return rows
    closed = Round.Status.CLOSED
    _read_entries(rows)
    for night_id, number, table, seat, player_id in _fetch(
        Seating.objects.filter(round__night_id__in=ids, round__status=closed)
        .order_by()
        .values_list("round__night_id", "round__number", "table", "seat", "player_id")
    ):
        night_rows = rows[night_id]
        night_rows.seats.setdefault((number, table), {})[seat] = night_rows.plays_for.get(player_id, player_id)
    rulesets = {night.pk: rules.Ruleset.from_dict(night.rules) for night in nights}
    wanted = {pk for pk in ids if extras or _bonus_possible(rulesets[pk])}
    made: dict[tuple, rules.Extras] = {}  # one Extras for each distinct set of numbers
    unknown: dict[int, tuple[int, int, int]] = {}  # results with no extras stored -> (night, game, table)
    for pk, night_id, number, table, ns, ew, winner, stored, three in _fetch(
        TableResult.objects.filter(round__night_id__in=ids, round__status=closed)
        .order_by()
        .values_list(
            "pk",
            "round__night_id",
            "round__number",
            "table",
            "ns_points",
            "ew_points",
            "winner",
            "extras",
            "seat_points",
        )
    ):
        night_rows = rows[night_id]
        if three is not None:  # a table of three: each seat's own points
            night_rows.threes[(number, table)] = json.loads(three) if isinstance(three, str) else three
        night_rows.results[(number, table)] = (ns, ew, winner)
        if night_id not in wanted:
            continue
        if stored is None:
            unknown[pk] = (night_id, number, table)
            continue
        if isinstance(stored, str):  # SQLite hands the raw cursor text; PostgreSQL's driver decodes it already
            if stored == "{}":
                continue
            stored = json.loads(stored)
        if stored:
            by_seat = {}
            for seat, numbers in stored.items():
                key = tuple(numbers)
                earned = made.get(key)
                if earned is None:
                    earned = made[key] = rules.Extras(*key)
                by_seat[seat] = earned
            night_rows.extras[(number, table)] = by_seat
    if unknown:
        hands: dict[int, list[rules.Hand]] = {}
        fields = ("makers", "tricks", "alone", "maker", "blind", "defender_alone", "bid", "pepper", "renege", "passed")
        for result_id, *values in Hand.objects.filter(
            result__round__night_id__in=ids, result__round__status=closed, result__extras__isnull=True
        ).values_list("result_id", *fields):
            hands.setdefault(result_id, []).append(
                rules.Hand.of(SimpleNamespace(**dict(zip(fields, values, strict=True))))
            )
        for pk, (night_id, number, table) in unknown.items():
            by_seat = {
                seat: rules.Extras(*numbers)
                for seat, numbers in extras_of(hands.get(pk, ()), rulesets[night_id]).items()
            }
            if by_seat:
                rows[night_id].extras[(number, table)] = by_seat
    _read_byes(rows)
    for night_rows in rows.values():
        if night_rows.away:
            played = {p for seats in night_rows.seats.values() for p in seats.values()} | {
                p for p, _ in night_rows.byes
            }
            night_rows.players -= night_rows.away - played
    _read_tie_draws(rows)
    return rows


def _read_entries(rows: dict[int, NightRows]) -> None:
    """Who is at each night: names, categories, and the players with a tally (one query)."""
    entries = Entry.objects.filter(night_id__in=list(rows)).values_list(
        "night_id",
        "player_id",
        "name",  # the night's own copies (Entry's), never the roster's: a later import cannot move a prize
        "player__house",
        "category",
        "active",
        "price_kind",
        "club_number",
        "card",
        "substitute_for__player_id",
        "number",
        "checked_in",
    )
    replaced: dict[int, dict[int, int]] = {night_id: {} for night_id in rows}  # sub -> the player they replaced
    for night_id, player_id, name, house, category, active, kind, club_number, card, leaver, chart, came in entries:
        night_rows = rows[night_id]
        if not came:
            night_rows.away.add(player_id)
        night_rows.cards[card] = player_id
        if chart is not None:
            night_rows.charts[player_id] = chart
        night_rows.names[player_id] = name
        night_rows.categories[player_id] = category
        night_rows.standing[player_id] = prizes.Player(present=active, member=kind == "member" or bool(club_number))
        if not house:
            night_rows.players.add(player_id)
        if leaver is not None:
            replaced[night_id][player_id] = leaver
    for night_id, subs in replaced.items():
        if subs:
            _substitutes(rows[night_id], subs)


def _substitutes(rows: NightRows, subs: dict[int, int]) -> None:
    """Name substitutes and, under the night's "card" rule, put their games on the tally they took over."""
    names = dict(rows.names)
    if rows.night.substitutes != "card":
        for sub, leaver in subs.items():
            rows.names[sub] = f"{names[sub]} (for {names.get(leaver, '?')})"
        return
    for sub in sorted(subs, key=lambda player: _depth(player, subs)):
        root = sub
        while root in subs:
            root = subs[root]
        rows.plays_for[sub] = root
        rows.players.discard(sub)
        rows.names[root] = f"{rows.names[root]}, then {names[sub]}"
        rows.standing[root] = rows.standing[sub]  # still playing at the end, as the one who finished the card
    rows.cards = {card: rows.plays_for.get(player, player) for card, player in rows.cards.items()}


def _depth(player: int, subs: dict[int, int]) -> int:
    """How many players came before `player` in a line of substitutes (so the names run in order)."""
    depth = 0
    while player in subs and depth <= len(subs):
        player, depth = subs[player], depth + 1
    return depth


def _read_tie_draws(rows: dict[int, NightRows]) -> None:
    """Ties settled by a recorded draw (the latest for each prize), as players (one query)."""
    draws = Draw.objects.filter(night_id__in=list(rows), pool_kind=Draw.Pool.TIE).order_by("number")
    for night_id, prize, pool, winners in draws.values_list("night_id", "prize", "pool", "winners"):
        cards = rows[night_id].cards
        rows[night_id].settled[prize] = (frozenset(cards.get(card, 0) for card in pool), cards.get(winners[0], 0))


def _read_byes(rows: dict[int, NightRows]) -> None:
    """The closed games each player with a tally sat out, in the order they were stored (one query)."""
    for night_id, player_id, number in Bye.objects.filter(
        round__night_id__in=list(rows), round__status=Round.Status.CLOSED
    ).values_list("round__night_id", "player_id", "round__number"):
        player_id = rows[night_id].plays_for.get(player_id, player_id)
        if player_id in rows[night_id].players:
            rows[night_id].byes.append((player_id, number))


def bye_rule(night: Night) -> tallies.ByeRule:
    """What a bye adds to a tally on this night (`scoring.tallies.ByeRule`)."""
    return tallies.ByeRule(night.bye_credit, night.bye_points)


# What a tally card says in the partner column for a game at a table of three.
THREE_HANDED = "three-handed"


def _lines(rows: NightRows) -> dict[int, list[tallies.TallyLine]]:
    """Every player's tally lines for one night's closed games and byes, in game order: what the cards show."""
    return tallies.lines_by_player(rows, bye_rule(rows.night))


def _tallies(rows: NightRows) -> dict[int, standings_core.PlayerTotals]:
    """Every player's night totals (`scoring.tallies.night_totals`). Players with a tally but no game or bye yet
    are there with zeros."""
    return tallies.night_totals(rows, bye_rule(rows.night), _numbers(rows))


def _numbers(rows: NightRows) -> dict[int, int]:
    """Each tally's number, as its card shows it: the chart number on a rotation night (a leaver's passes to their
    substitute, so a tally taken over keeps it), otherwise the tally-card number (a tally taken over keeps its
    first card's)."""
    numbers: dict[int, int] = {}
    if rows.night.movement == Night.Movement.ROTATION:
        for player, chart in rows.charts.items():
            numbers.setdefault(rows.plays_for.get(player, player), chart)
        return numbers
    for card, player in sorted(rows.cards.items()):
        numbers.setdefault(player, card)
    return numbers


def game_lines(night: Night) -> dict[int, list[GameLine]]:
    """Every player's tally lines for the night's closed games and byes, keyed by player id (five queries).

    House players have no tally.
    """
    return card_lines(read_nights([night])[night.pk])


def card_lines(rows: NightRows) -> dict[int, list[GameLine]]:
    """Every player's tally card lines from a night's rows (no query): what the printed tally card and the player's
    results page show, game by game, with the running total."""
    lines: dict[int, list[GameLine]] = {}
    for player, player_lines in _lines(rows).items():
        running = 0
        lines[player] = []
        for line in player_lines:
            running += line.points
            lines[player].append(
                GameLine(
                    player_id=player,
                    round=line.round,
                    table=line.table,
                    seat=line.seat,
                    partner=rows.names.get(line.partner, "") if line.partner else (THREE_HANDED if line.three else ""),
                    opponents=tuple(rows.names.get(p, "?") for p in line.opponents),
                    points=line.team_points,
                    conceded=line.conceded,
                    won=line.won,
                    extras=line.extras,
                    running_total=running,
                    bye=line.bye,
                    partner_id=line.partner,
                )
            )
    return lines


@dataclass(frozen=True)
class GameSeat:
    """Where a player sits for a game drawn and not yet closed: table and seat, or a bye (table 0)."""

    player_id: int
    round: int
    table: int
    seat: str
    partner: str  # THREE_HANDED at a table of three
    bye: bool = False


def seated_games(night: Night) -> dict[int, list[GameSeat]]:
    """Every player's seat in the night's games drawn and not yet closed (three queries), keyed by player id as
    `game_lines` is: what a card printed before such a game is scored says in that game's row.

    A substitute's seat goes on the card of the player they replaced where the night's rule says so, as their
    scores do. House players have no card.
    """
    rows = {night.pk: NightRows(night)}
    _read_entries(rows)
    known = rows[night.pk]
    closed = Round.Status.CLOSED
    tables: dict[tuple[int, int], dict[str, int]] = {}
    for number, table, seat, player in (
        Seating.objects.filter(round__night=night)
        .exclude(round__status=closed)
        .values_list("round__number", "table", "seat", "player_id")
    ):
        tables.setdefault((number, table), {})[seat] = player
    seated: dict[int, list[GameSeat]] = {}
    for (number, table), seats in tables.items():
        three = is_three(seats)  # no partners
        for seat, player in seats.items():
            holder = known.plays_for.get(player, player)
            if holder not in known.players:
                continue
            partner = THREE_HANDED if three else known.names.get(seats.get(PARTNER_SEAT[seat], 0), "")
            seated.setdefault(holder, []).append(GameSeat(holder, number, table, seat, partner))
    for player, number in (
        Bye.objects.filter(round__night=night).exclude(round__status=closed).values_list("player_id", "round__number")
    ):
        holder = known.plays_for.get(player, player)
        if holder in known.players:
            seated.setdefault(holder, []).append(GameSeat(holder, number, 0, "", "", bye=True))
    for player_seats in seated.values():
        player_seats.sort(key=lambda game: game.round)
    return seated


def standings_of(rows: NightRows) -> NightStandings:
    """A night's standings and prizes from its rows (no query): the one calculation every page and sheet shows."""
    night = rows.night
    totals = _tallies(rows)
    names = rows.names
    rounds_closed = max((max(row.per_round) for row in totals.values() if row.per_round), default=0)
    chain = night_chain(night)
    meetings = tallies.meetings(rows) if any(metric.among for metric in chain) else ()
    ranked = standings_core.rank(totals.values(), chain, meetings)
    columns = [metric for metric in chain if metric.key in standings_core.COLUMNS]
    rows_out = [
        StandingRow(
            rank_label=standing.rank_label,
            player_id=standing.totals.player,
            name=names.get(standing.totals.player, "?"),
            total=standing.totals.total,
            wins=standing.totals.wins,
            conceded=standing.totals.conceded,
            games=standing.totals.games,
            byes=standing.totals.byes,
            average=round(standing.totals.average, 2),
            loners_made=standing.totals.loners_made,
            loners_tried=standing.totals.loners_tried,
            euchres=standing.totals.euchres,
            marches=standing.totals.marches,
            per_round=[standing.totals.per_round.get(n) for n in range(1, rounds_closed + 1)],
            cells=[standing.totals.game_cell(n) for n in range(1, rounds_closed + 1)],
            separated_by=standing.separated_by,
            figures=[metric.figure(standing.totals) for metric in columns],
            number=standing.totals.number,
        )
        for standing in ranked
    ]
    awards = (
        [
            AwardRow(a.label, [names.get(p, "?") for p in a.winners], a.value, a.tie, a.winners, a.key)
            for a in prizes.award(
                ranked,
                night.prize_keys,
                one_each=night.one_prize_each,
                categories=rows.categories,
                ranked_by=chain[0].key,
                rules=prizes.parse_eligibility(night.prize_rules),
                players=rows.standing,
                games_closed=rounds_closed,
                settled=rows.settled,
            )
            if a.winners
        ]
        if rounds_closed
        else []
    )
    high_total = max((row.total for row in rows_out), default=None)
    low_total = min((row.total for row in rows_out), default=None)
    return NightStandings(
        rows=rows_out,
        rounds_closed=rounds_closed,
        high=[row for row in rows_out if rounds_closed and row.total == high_total],
        low=[row for row in rows_out if rounds_closed and row.total == low_total],
        chain=[metric.label for metric in chain],
        bye_note=BYE_NOTES.get(night.bye_credit, "").format(points=night.bye_points),
        ranked_by=chain[0].label,
        ranked_by_key=chain[0].key,
        awards=awards,
        columns=[metric.abbr for metric in columns],
        column_keys=[metric.key for metric in columns],
        foot=[f"{metric.label} ({metric.abbr})" if metric in columns else metric.label for metric in chain],
        shares_note=shares_note(chain),
    )


def night_standings(night: Night) -> NightStandings:
    """The night's standings and prizes (five queries whatever the night's size)."""
    return standings_of(read_nights([night])[night.pk])
