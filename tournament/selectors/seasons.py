"""A season's table and a player's season, from the nights' own standings."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Case, Count, F, FilteredRelation, Q, Sum, When

from scoring import rules
from scoring import seasons as seasons_core
from scoring.models import Season
from tournament.models import Night, Round, Seating

from .standings import (
    NightRows,
    _bonus_possible,
    _fetch,
    _lines,
    _read_byes,
    _read_entries,
    _tallies,
    bye_rule,
    read_nights,
    standings_of,
)


@dataclass(frozen=True)
class SeasonNight:
    id: int
    name: str
    date: dt.date
    venue: str


@dataclass(frozen=True)
class SeasonCell:
    """One player's total on one night of the season (None: not there), and whether it counts in a best-N total."""

    total: int | None
    counted: bool


@dataclass(frozen=True)
class SeasonLine:
    rank_label: str
    player_id: int
    name: str
    nights: int  # nights played
    total: int
    average: float
    best: int
    cells: list[SeasonCell]  # one a night, in date order: the attendance table


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    nights: list[SeasonNight]
    rows: list[SeasonLine]
    ranked_on: str  # "total points", "best 8 of 12 nights"

    @property
    def best(self) -> bool:
        return self.season.method == Season.Method.BEST


def _season_nights(season: Season) -> list[Night]:
    return list(season.nights.order_by("date", "id"))


def _night_totals(rows: NightRows) -> dict[int, int]:
    """The night total of each player who played or sat out a closed game: their standings total."""
    return {row.player: row.total for row in _tallies(rows).values() if row.games or row.byes}


def _summed_totals(rows: NightRows, sums: dict[int, tuple[int, int]]) -> dict[int, int]:
    """`_night_totals` from each player's games and team points as the database summed them (`sums`).

    Only for a night whose rules give no personal bonus and whose byes do not count the game's average: there a
    tally is the team's score, so the sum is the same, and a bye's credit needs no other player's figures.
    """
    totals: dict[int, list[int]] = {}  # player -> [total, tally lines]
    for player, (games, points) in sums.items():
        if player in rows.players:
            totals[player] = [points, games]
    rule = bye_rule(rows.night)
    for player, _ in rows.byes:
        line = totals.setdefault(player, [0, 0])
        line[0] += rule.worth(line[0], line[1], 0, 0)
        line[1] += 1
    return {player: total for player, (total, _) in totals.items()}


def _summable(night: Night) -> bool:
    """Whether a night's totals can be summed by the database (see `_summed_totals`): not where a table of three's
    players each have their own points, nor where a total needs each game's figures."""
    if night.fill == Night.Fill.THREES:
        return False
    return night.bye_credit != "round_average" and not _bonus_possible(rules.Ruleset.from_dict(night.rules))


def season_totals(nights: Sequence[Night]) -> tuple[dict[int, dict[int, int]], dict[int, str]]:
    """Each night's totals by player, exactly as that night's standings add them, and the players' names.

    A constant number of queries: most nights' game points are summed by the database, per player; the few whose
    totals need each game's figures (a personal bonus, byes worth the game's average) are read game by game.
    """
    summed = {night.pk: NightRows(night, with_extras=False) for night in nights if _summable(night)}
    read = read_nights([night for night in nights if night.pk not in summed], extras=False)
    totals = {pk: _night_totals(rows) for pk, rows in read.items()}
    if summed:
        _read_entries(summed)
        _read_byes(summed)
        sums: dict[int, dict[int, tuple[int, int]]] = {pk: {} for pk in summed}
        for night_id, player_id, games, points in _fetch(
            Seating.objects.filter(round__night_id__in=list(summed), round__status=Round.Status.CLOSED)
            .annotate(game=FilteredRelation("round__results", condition=Q(round__results__table=F("table"))))
            .filter(game__isnull=False)
            .order_by()
            .values("round__night_id", "player_id")
            .annotate(
                games=Count("pk"),
                points=Sum(
                    Case(When(seat__in=rules.SEATS_OF["NS"], then=F("game__ns_points")), default=F("game__ew_points"))
                ),
            )
            .values_list("round__night_id", "player_id", "games", "points")
        ):
            sums[night_id][player_id] = (games, points)
        totals.update((pk, _summed_totals(rows, sums[pk])) for pk, rows in summed.items())
    names: dict[int, str] = {}
    for pk, rows in (*read.items(), *summed.items()):
        names.update((player, rows.names[player]) for player in totals[pk])
    return totals, names


def _season_table(
    season: Season, nights: list[Night], totals: dict[int, dict[int, int]], names: dict[int, str]
) -> SeasonStandings:
    """The season's table from each night's totals by player (`season_totals`)."""
    scores = [
        seasons_core.NightScore(night.pk, player, total)
        for night in nights
        for player, total in totals[night.pk].items()
    ]
    ranked = seasons_core.season_rank(
        scores, method=season.method, best_of=season.best_of, night_order=[night.pk for night in nights]
    )
    by_player: dict[int, dict[int, int]] = {}
    for score in scores:
        by_player.setdefault(score.player, {})[score.night] = score.total
    counting = season.method == Season.Method.BEST
    night_ids = [night.pk for night in nights]
    lines_out = [
        SeasonLine(
            rank_label=row.rank_label,
            player_id=row.player,
            name=names[row.player],
            nights=row.nights,
            total=row.total,
            average=round(row.average, 2),
            best=row.best,
            cells=[SeasonCell(by_player[row.player].get(pk), counting and pk in row.counted) for pk in night_ids],
        )
        for row in ranked
    ]
    return SeasonStandings(
        season=season,
        nights=[SeasonNight(night.pk, night.name, night.date, night.venue) for night in nights],
        rows=lines_out,
        ranked_on=seasons_core.method_label(season.method, season.best_of, len(nights)),
    )


def season_standings(season: Season) -> SeasonStandings:
    """The season's table and attendance: four queries whatever the number of nights or players (up to nine when
    some nights give a personal bonus or count a bye as the game's average).

    A player is counted at a night when they played a closed game or sat one out there.
    """
    nights = _season_nights(season)
    return _season_table(season, nights, *season_totals(nights))


@dataclass(frozen=True)
class PlayerNight:
    night: SeasonNight
    place: str  # rank label at that night, "=3"
    players: int  # how many were ranked that night
    total: int
    counted: bool  # one of the nights in the player's best-N total
    prizes: list[str]


@dataclass(frozen=True)
class PlayerGame:
    night: SeasonNight
    number: int
    table: int
    partner: str
    opponents: tuple[str, ...]
    points: int  # the team's score, or a bye's credit
    conceded: int
    won: bool
    bye: bool


@dataclass(frozen=True)
class SeasonPlayer:
    season: Season
    player_id: int
    name: str
    line: SeasonLine | None  # their line in the season's table
    season_players: int  # how many are in the season's table
    ranked_on: str
    nights: list[PlayerNight]
    games: list[PlayerGame]
    partners: list[tuple[str, int]]  # who they partnered and how often, most often first
    prizes: list[tuple[SeasonNight, str]]


def season_player(season: Season, player_id: int) -> SeasonPlayer | None:
    """One player's season: their nights (place, total, prizes), every game, and their partners (seven queries)."""
    nights = _season_nights(season)
    read = read_nights(nights)
    totals = {pk: _night_totals(rows) for pk, rows in read.items()}
    names = {player: rows.names[player] for pk, rows in read.items() for player in totals[pk]}
    table = _season_table(season, nights, totals, names)
    line = next((row for row in table.rows if row.player_id == player_id), None)
    if line is None:
        return None
    played: list[PlayerNight] = []
    games: list[PlayerGame] = []
    partners: Counter[str] = Counter()
    prizes: list[tuple[SeasonNight, str]] = []
    for night, season_night, cell in zip(nights, table.nights, line.cells, strict=True):
        if cell.total is None:
            continue
        rows = read[night.pk]
        standings = standings_of(rows)
        mine = next(row for row in standings.rows if row.player_id == player_id)
        won = [
            f"{award.prize} ({award.value})" if award.value else award.prize
            for award in standings.awards
            if player_id in award.player_ids
        ]
        prizes.extend((season_night, prize) for prize in won)
        played.append(PlayerNight(season_night, mine.rank_label, len(standings.rows), mine.total, cell.counted, won))
        for game in _lines(rows)[player_id]:
            partner = rows.names.get(game.partner, "") if game.partner else ""
            if partner:
                partners[partner] += 1
            games.append(
                PlayerGame(
                    night=season_night,
                    number=game.round,
                    table=game.table,
                    partner=partner,
                    opponents=tuple(rows.names.get(p, "?") for p in game.opponents),
                    points=game.team_points,
                    conceded=game.conceded,
                    won=game.won,
                    bye=game.bye,
                )
            )
    return SeasonPlayer(
        season=season,
        player_id=player_id,
        name=line.name,
        line=line,
        season_players=len(table.rows),
        ranked_on=table.ranked_on,
        nights=played,
        games=games,
        partners=sorted(partners.items(), key=lambda item: (-item[1], item[0])),
        prizes=prizes,
    )
