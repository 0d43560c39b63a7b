"""Readers for tallies and standings. Every figure a player sees on a page or a sheet comes from here."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tournament.engine.types import PARTNER_SEAT
from tournament.models import Bye, Entry, Night, Round, Seating

from . import prizes, rules
from . import standings as standings_core
from .models import Hand, Submission, TableResult


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
    separated_by: str | None


@dataclass(frozen=True)
class NightStandings:
    rows: list[StandingRow]
    rounds_closed: int
    high: list[StandingRow]
    low: list[StandingRow]
    chain: list[str]
    bye_note: str  # how a bye counts, said on every standings page and sheet
    ranked_by: str
    awards: list[AwardRow]


@dataclass(frozen=True)
class AwardRow:
    prize: str
    names: list[str]
    value: str
    tie: bool


def _keys(text: str) -> list[str]:
    return [key.strip() for key in text.split(",") if key.strip()]


def night_chain(night: Night) -> tuple[standings_core.Metric, ...]:
    """The night's tie-break chain: the organizer's order, or the movement's usual one; a draw last if asked."""
    keys = _keys(night.tie_chain)
    if not keys:
        if night.movement == "winners-stay":
            keys = [m.key for m in standings_core.WINS_FIRST]
        elif night.rank_by == "average":
            keys = [m.key for m in standings_core.AVERAGE_FIRST]
        else:
            keys = [m.key for m in standings_core.DEFAULT_CHAIN]
    return standings_core.chain_from(keys, draw_seed=(night.seed or 0) if night.final_draw else None)


BYE_NOTES = {
    "none": "A bye counts nothing.",
    "fixed": "A bye counts {points} points.",
    "own_average": "A bye counts the player's own average per game played.",
    "round_average": "A bye counts the average score of that game.",
}


def _hand_extras(night: Night) -> dict[tuple[int, int], dict[str, rules.Extras]]:
    """Each closed game's extras by seat, from its stored hands scored under the night's rules (one query)."""
    ruleset = rules.Ruleset.from_dict(night.rules)
    extras: dict[tuple[int, int], dict[str, rules.Extras]] = {}
    hands = Hand.objects.filter(result__round__night=night, result__round__status=Round.Status.CLOSED).values_list(
        "result__round__number",
        "result__table",
        "makers",
        "tricks",
        "alone",
        "maker",
        "blind",
        "defender_alone",
        "bid",
        "pepper",
    )
    for number, table, makers, tricks, alone, maker, blind, defender_alone, bid, pepper in hands:
        hand = rules.Hand(makers, tricks, alone, maker or None, blind, defender_alone or None, bid, pepper or None)
        by_seat = extras.setdefault((number, table), {})
        for seat, earned in rules.score_hand(hand, ruleset).extras.items():
            by_seat[seat] = by_seat.get(seat, rules.NO_EXTRAS) + earned
    return extras


def _half_up(value: float) -> int:
    return math.floor(value + 0.5)


def game_lines(night: Night) -> dict[int, list[GameLine]]:
    """Every player's tally lines for the night's closed games and byes, keyed by player id (six queries).

    House players have no tally.
    """
    seatings = list(
        Seating.objects.filter(round__night=night, round__status=Round.Status.CLOSED)
        .select_related("player", "round")
        .order_by("round__number", "table", "seat")
    )
    results = {
        (r.round.number, r.table): r
        for r in TableResult.objects.filter(round__night=night, round__status=Round.Status.CLOSED).select_related(
            "round"
        )
    }
    extras = _hand_extras(night)
    at_table: dict[tuple[int, int], dict[str, Seating]] = {}
    for seating in seatings:
        at_table.setdefault((seating.round.number, seating.table), {})[seating.seat] = seating
    players = set(Entry.objects.filter(night=night, player__house=False).values_list("player_id", flat=True))
    played: dict[int, list[dict]] = {player: [] for player in players}
    for seating in seatings:
        key = (seating.round.number, seating.table)
        result = results.get(key)
        if result is None or seating.player_id not in players:
            continue
        seats = at_table[key]
        side = rules.side_of(seating.seat)
        points, conceded = (
            (result.ns_points, result.ew_points) if side == "NS" else (result.ew_points, result.ns_points)
        )
        played[seating.player_id].append(
            {
                "player_id": seating.player_id,
                "round": seating.round.number,
                "table": seating.table,
                "seat": seating.seat,
                "partner": seats[PARTNER_SEAT[seating.seat]].player.name,
                "opponents": tuple(seats[s].player.name for s in rules.SEATS_OF[rules.other(side)]),
                "points": points,
                "conceded": conceded,
                "won": result.winner == side,
                "extras": extras.get(key, {}).get(seating.seat, rules.NO_EXTRAS),
            }
        )
    byes = list(
        Bye.objects.filter(round__night=night, round__status=Round.Status.CLOSED, player_id__in=players).values_list(
            "player_id", "round__number"
        )
    )
    by_round: dict[int, list[int]] = {}
    for player_lines in played.values():
        for line in player_lines:
            by_round.setdefault(line["round"], []).append(line["points"] + line["extras"].bonus)
    for player, number in byes:
        own = [line["points"] + line["extras"].bonus for line in played[player]]
        credit = {
            "fixed": night.bye_points,
            "own_average": _half_up(sum(own) / len(own)) if own else 0,
            "round_average": _half_up(sum(by_round[number]) / len(by_round[number])) if by_round.get(number) else 0,
        }.get(night.bye_credit, 0)
        played[player].append(
            {
                "player_id": player,
                "round": number,
                "table": 0,
                "seat": "",
                "partner": "",
                "opponents": (),
                "points": credit,
                "conceded": 0,
                "won": False,
                "extras": rules.NO_EXTRAS,
                "bye": True,
            }
        )
    lines: dict[int, list[GameLine]] = {}
    for player, player_lines in played.items():
        running = 0
        lines[player] = []
        for line in sorted(player_lines, key=lambda line: line["round"]):
            running += line["points"] + line["extras"].bonus
            lines[player].append(GameLine(**line, running_total=running))
    return lines


def night_standings(night: Night) -> NightStandings:
    lines = game_lines(night)
    names = dict(Entry.objects.filter(night=night, player__house=False).values_list("player_id", "player__name"))
    tallies = [
        standings_core.GameTally(
            line.player_id,
            line.round,
            line.tally,
            line.conceded,
            line.won,
            loners_made=line.extras.loners_made,
            loners_tried=line.extras.loners_tried,
            euchres=line.extras.euchres,
            marches=line.extras.marches,
            bye=line.bye,
        )
        for player_lines in lines.values()
        for line in player_lines
    ]
    totals = standings_core.add_up(tallies, players=names)
    rounds_closed = max((line.round for ls in lines.values() for line in ls), default=0)
    chain = night_chain(night)
    ranked = standings_core.rank(totals.values(), chain)
    rows = [
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
            separated_by=standing.separated_by,
        )
        for standing in ranked
    ]
    awards = (
        [
            AwardRow(a.label, [names.get(p, "?") for p in a.winners], a.value, a.tie)
            for a in prizes.award(
                ranked,
                _keys(night.prizes),
                one_each=night.one_prize_each,
                categories=dict(Entry.objects.filter(night=night).values_list("player_id", "player__category")),
            )
            if a.winners
        ]
        if rounds_closed
        else []
    )
    high_total = max((row.total for row in rows), default=None)
    low_total = min((row.total for row in rows), default=None)
    return NightStandings(
        rows=rows,
        rounds_closed=rounds_closed,
        high=[row for row in rows if rounds_closed and row.total == high_total],
        low=[row for row in rows if rounds_closed and row.total == low_total],
        chain=[metric.label for metric in chain],
        bye_note=BYE_NOTES.get(night.bye_credit, "").format(points=night.bye_points),
        ranked_by=chain[0].label,
        awards=awards,
    )


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
                    "seats": {seat: by_seat[seat] for seat in ("N", "E", "S", "W")},
                    "hands": [
                        {
                            "dealer": hand.dealer,
                            "makers": hand.makers,
                            "maker": hand.maker or None,
                            "alone": hand.alone,
                            "blind": hand.blind,
                            "defender_alone": hand.defender_alone or None,
                            "bid": hand.bid,
                            "pepper": hand.pepper or None,
                            "tricks": hand.tricks,
                            "points": {"NS": hand.ns_points, "EW": hand.ew_points},
                        }
                        for hand in (result.hands.all() if result else [])
                    ],
                    "score": {"NS": result.ns_points, "EW": result.ew_points} if result else None,
                    "winner": result.winner if result else None,
                    "tie_break": (result.tie_break or None) if result else None,
                }
            )
        rounds.append({"number": round_.number, "tables": tables, "byes": byes.get(round_.number, [])})
    standings = night_standings(night)
    return {
        "night": {
            "movement": night.movement,
            "rounds": night.games,
            "hands_per_round": night.hands_per_game,
            "scoring": night.scoring,
            "rules": night.rules,
            "seed": night.seed,
        },
        "players": [{"id": entry.player_id, "name": entry.player.name} for entry in entries],
        "house_players": house,
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
    def by_totals(self) -> bool:
        return self.result is not None and self.result.entry == TableResult.Entry.TOTALS

    @property
    def score(self) -> tuple[int, int]:
        return (self.result.ns_points, self.result.ew_points) if self.result else (0, 0)


def table_game(round_: Round, table: int) -> TableGame:
    seats = dict(round_.seatings.filter(table=table).values_list("seat", "player__name"))
    result = TableResult.objects.filter(round=round_, table=table).first()
    hands = list(result.hands.order_by("number")) if result else []
    return TableGame(round_, table, seats, result, hands, rules.Ruleset.from_dict(round_.night.rules))


@dataclass(frozen=True)
class DeskRow:
    """One table on the keeper's desk."""

    table: int
    ns: str
    ew: str
    result: TableResult | None
    waiting: list[Submission]  # drafts and disputes typed at the table
    status: str  # "missing", "playing", "draft", "disputed", "in"

    @property
    def label(self) -> str:
        if self.status == "in":
            return "in"
        if self.status == "disputed":
            return "disputed: " + " vs ".join(f"{s.side} says {s.ns_points}–{s.ew_points}" for s in self.waiting)
        if self.status == "draft":
            draft = self.waiting[-1]
            return f"entered by {draft.side}, {draft.ns_points}–{draft.ew_points}: waiting for the other side"
        if self.status == "playing":
            return f"hands being entered ({self.result.hands_played})"
        return "missing"


def desk_rows(round_: Round) -> list[DeskRow]:
    """Every table of a game with its state, for the keeper's desk (three queries)."""
    names: dict[int, dict[str, str]] = {}
    for table, seat, name in round_.seatings.values_list("table", "seat", "player__name"):
        names.setdefault(table, {})[seat] = name
    results = {r.table: r for r in TableResult.objects.filter(round=round_)}
    waiting: dict[int, list[Submission]] = {}
    for submission in Submission.objects.filter(
        round=round_, status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED]
    ).order_by("number"):
        waiting.setdefault(submission.table, []).append(submission)
    rows = []
    for table in sorted(names):
        seats, result, pending = names[table], results.get(table), waiting.get(table, [])
        if result is not None and result.status == TableResult.Status.FINAL:
            status = "in"
        elif any(s.status == Submission.Status.DISPUTED for s in pending):
            status = "disputed"
        elif pending:
            status = "draft"
        elif result is not None:
            status = "playing"
        else:
            status = "missing"
        rows.append(
            DeskRow(
                table=table,
                ns=f"{seats.get('N', '?')} & {seats.get('S', '?')}",
                ew=f"{seats.get('E', '?')} & {seats.get('W', '?')}",
                result=result,
                waiting=[s for s in pending if status != "disputed" or s.status == Submission.Status.DISPUTED],
                status=status,
            )
        )
    return rows


def table_history(round_: Round, table: int) -> list[Submission]:
    return list(Submission.objects.filter(round=round_, table=table).select_related("user").order_by("number"))
