"""Ranking as clubs with byes rank (#36): win percentage, then points percentage, then the player's number.

Written cases (the issue's 5–2 player with a bye above the 5–3 player, the percentages as a person reads them, a
player with no game played) and a property over random nights with byes, late arrivals and leavers: the chain orders
players exactly as sorting by (win % desc, points % desc, number asc) would, worked out here from the games alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import (
    AVERAGE,
    CLUB_CHAIN,
    METRICS,
    NUMBER,
    POINTS_PER_GAME,
    POINTS_PERCENT,
    WIN_PERCENT,
    WINS,
    GameTally,
    add_up,
    chain_from,
    percent,
    rank,
)


def _games(player: int, record: str, *, points: int = 10, conceded: int = 6, byes: int = 0, credit: int = 0):
    """A player's tally lines from a record such as "WWLW": a win scores `points` to `conceded`, a loss the other
    way round; then `byes` games sat out, each crediting `credit`."""
    lines = [
        GameTally(player, number, *((points, conceded, True) if result == "W" else (conceded, points, False)))
        for number, result in enumerate(record, start=1)
    ]
    start = len(record) + 1
    lines += [GameTally(player, start + n, credit, 0, False, bye=True) for n in range(byes)]
    return lines


def _loss(player: int, number: int, points: int, conceded: int) -> list[GameTally]:
    return [GameTally(player, number, points, conceded, False)]


def _order(standings) -> list[int]:
    return [s.totals.player for s in standings]


def test_a_5_2_player_who_sat_out_once_ranks_above_a_5_3_player():
    """The issue's example: games won is a count, so the two tie on it; win percentage (71.4 % against 62.5 %)
    does not. Same points for and against in every game, so nothing else could have separated them."""
    tallies = [*_games(1, "WWWLLWWL"), *_games(2, "WWWLLWW", byes=1)]
    numbers = {1: 1, 2: 2}  # the 5–3 player even has the better number
    totals = add_up(tallies, numbers=numbers)
    assert (totals[2].wins, totals[2].games, totals[2].byes) == (5, 7, 1)
    assert rank(totals.values(), (WINS,))[0].shared  # by games won they are level
    standings = rank(totals.values(), CLUB_CHAIN)
    assert _order(standings) == [2, 1]
    assert [s.rank_label for s in standings] == ["1", "2"]
    assert [WIN_PERCENT.figure(s.totals) for s in standings] == ["71.4 %", "62.5 %"]


def test_points_percentage_splits_equal_win_percentages_and_leaves_a_byes_credit_out():
    """Both won half their games; 2 scored 40 with 30 against (57.1 %), 1 scored 38 with 62 against (38.0 %). A bye
    crediting 12 points raises 2's total, and leaves both shares as they were."""
    one = [GameTally(1, 1, 10, 6, True), GameTally(1, 2, 10, 8, True), *_loss(1, 3, 9, 10), *_loss(1, 4, 9, 38)]
    two = [GameTally(2, 1, 13, 2, True), GameTally(2, 2, 11, 3, True), *_loss(2, 3, 8, 10), *_loss(2, 4, 8, 15)]
    two.append(GameTally(2, 5, 12, 0, False, bye=True))
    totals = add_up([*one, *two], numbers={1: 2, 2: 1})
    assert totals[1].win_share == totals[2].win_share == Fraction(1, 2)
    assert totals[2].total == 52 > totals[1].total == 38
    assert (totals[2].points_for, totals[2].conceded) == (40, 30)
    assert (totals[1].points_for, totals[1].conceded) == (38, 62)
    standings = rank(totals.values(), CLUB_CHAIN)
    assert _order(standings) == [2, 1]
    assert standings[1].separated_by == "points percentage"
    assert POINTS_PERCENT.figure(totals[2]) == "57.1 %" and POINTS_PERCENT.figure(totals[1]) == "38.0 %"


def test_the_players_number_settles_what_the_percentages_leave_level():
    tallies = [*_games(7, "WL"), *_games(8, "LW"), *_games(9, "WL", byes=2, credit=5)]
    totals = add_up(tallies, numbers={7: 12, 8: 3, 9: 8})
    standings = rank(totals.values(), CLUB_CHAIN)
    assert _order(standings) == [8, 9, 7]  # numbers 3, 8, 12
    assert [s.rank_label for s in standings] == ["1", "2", "3"]
    assert [s.separated_by for s in standings] == [None, "player's number", "player's number"]
    assert [NUMBER.figure(s.totals) for s in standings] == ["3", "8", "12"]


def test_a_player_with_no_game_played_has_no_percentage_and_ranks_below_everyone_who_has_one():
    """A late arrival who sat out the one game they were there for, and one who never played: no figure ("–"), no
    division by zero, below the player who lost every game, and between themselves by number."""
    tallies = [*_games(1, "LLL"), GameTally(2, 3, 4, 0, False, bye=True)]
    totals = add_up(tallies, players=[1, 2, 3], numbers={1: 3, 2: 2, 3: 1})
    assert totals[2].win_share is None and totals[2].points_share is None and totals[2].points_per_game is None
    standings = rank(totals.values(), CLUB_CHAIN)
    assert _order(standings) == [1, 3, 2]
    assert [WIN_PERCENT.figure(s.totals) for s in standings] == ["0.0 %", "–", "–"]
    assert [POINTS_PER_GAME.figure(s.totals) for s in standings] == ["6.00", "–", "–"]


def test_points_percentage_with_scores_below_zero():
    """Under rules where a euchred side loses points, for + against can be nothing or less: no percentage there
    (ranked below), never a division by zero; a negative share is shown as one."""
    level = add_up([GameTally(1, 1, -2, 2, False)])[1]
    below = add_up([GameTally(1, 1, -4, 2, False)])[1]
    negative = add_up([GameTally(1, 1, -2, 6, False)])[1]
    assert level.points_share is None and below.points_share is None
    assert negative.points_share == Fraction(-1, 2) and POINTS_PERCENT.figure(negative) == "-50.0 %"


@pytest.mark.parametrize(
    ("share", "shown"),
    [
        (Fraction(5, 7), "71.4 %"),
        (Fraction(2, 3), "66.7 %"),
        (Fraction(1), "100.0 %"),
        (Fraction(0), "0.0 %"),
        (Fraction(1, 16), "6.3 %"),  # 6.25: halves up
        (Fraction(1, 3), "33.3 %"),
        (None, "–"),
    ],
)
def test_percentages_read_as_a_person_reads_them(share, shown):
    assert percent(share) == shown


def test_points_per_game_played_leaves_a_byes_credit_out_where_the_average_counts_it():
    totals = add_up([*_games(1, "WL", points=10, conceded=4), *_games(1, "", byes=1, credit=6)])[1]
    assert totals.total == 20 and totals.games == 2
    assert totals.points_per_game == 7 and AVERAGE.value(totals) == 10
    assert POINTS_PER_GAME.figure(totals) == "7.00"


def test_each_new_link_has_a_key_a_name_and_an_abbreviation_and_the_preset_is_win_points_number():
    assert chain_from(["win_pct", "points_pct", "number"]) == CLUB_CHAIN == (WIN_PERCENT, POINTS_PERCENT, NUMBER)
    for key, name, abbr in [
        ("win_pct", "win percentage", "Win %"),
        ("points_pct", "points percentage", "Pts %"),
        ("ppg", "points per game played", "PPG"),
        ("number", "player's number", "No."),
    ]:
        assert (METRICS[key].key, METRICS[key].label, METRICS[key].abbr) == (key, name, abbr)


# --- the property: random nights with byes, late arrivals and leavers -------------------------------------------------


@dataclass(frozen=True)
class _Night:
    tallies: list[GameTally]
    numbers: dict[int, int]
    players: list[int]


@st.composite
def nights(draw) -> _Night:
    """Players arrive and leave between games; each game seats the present players four to a table and the rest sit
    out (a bye crediting the night's points); every table's score is drawn, below zero included."""
    count = draw(st.integers(4, 13))
    games = draw(st.integers(1, 7))
    credit = draw(st.sampled_from([0, 0, 3, 8]))
    players = list(range(101, 101 + count))
    there = {}
    for player in players:
        arrives = draw(st.integers(1, games))
        there[player] = (arrives, draw(st.integers(arrives, games)))
    tallies: list[GameTally] = []
    for number in range(1, games + 1):
        present = [p for p in players if there[p][0] <= number <= there[p][1]]
        present = draw(st.permutations(present))
        seated = len(present) - len(present) % 4
        for player in present[seated:]:
            tallies.append(GameTally(player, number, credit, 0, False, bye=True))
        for table in range(seated // 4):
            north, east, south, west = present[table * 4 : table * 4 + 4]
            ns, ew = draw(st.integers(-2, 13)), draw(st.integers(-2, 13))
            ns_won = ns > ew or (ns == ew and draw(st.booleans()))
            for player, (points, conceded, won) in (
                *((p, (ns, ew, ns_won)) for p in (north, south)),
                *((p, (ew, ns, not ns_won)) for p in (east, west)),
            ):
                tallies.append(GameTally(player, number, points, conceded, won))
    numbers = dict(zip(players, draw(st.permutations(range(1, count + 1))), strict=True))
    return _Night(tallies, numbers, players)


def _as_clubs_sort(night: _Night) -> list[int]:
    """The club's order worked out from the games alone: (win % desc, points % desc, number asc), a missing
    percentage below every figure."""
    played: dict[int, list[GameTally]] = {
        p: [t for t in night.tallies if t.player == p and not t.bye] for p in night.players
    }

    def key(player: int):
        games = played[player]
        wins = sum(t.won for t in games)
        scored, against = sum(t.points for t in games), sum(t.conceded for t in games)
        win = Fraction(wins, len(games)) if games else None
        share = Fraction(scored, scored + against) if games and scored + against > 0 else None
        return (win is None, -(win or 0), share is None, -(share or 0), night.numbers[player])

    return sorted(night.players, key=key)


@given(nights())
def test_the_club_chain_orders_a_night_as_sorting_by_win_points_then_number_would(night):
    totals = add_up(night.tallies, players=night.players, numbers=night.numbers)
    standings = rank(totals.values(), CLUB_CHAIN)
    assert _order(standings) == _as_clubs_sort(night)
    assert [s.rank_label for s in standings] == [str(n) for n in range(1, len(night.players) + 1)]
