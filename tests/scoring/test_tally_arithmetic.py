"""The tally arithmetic (`scoring.tallies`), pure: every seat of a closed game and every bye is one tally line, a
player's total is the sum of their lines, a bye's credit stays within its rule, and a table of three's lines are
each player's own. Also the tie-break chain (`standings.night_chain`, `chain_refusal`) and the one test of a table
of three by its seats (`seats.is_three`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import rules
from scoring.seats import SEATS, is_three
from scoring.standings import METRICS, chain_from, chain_refusal, night_chain
from scoring.tallies import ByeRule, lines_by_player, meetings, night_totals, tally_lines
from scoring.three import THREE_SEATS


@dataclass(frozen=True)
class Games:
    """A night's closed games as plain data (what `tournament.selectors.standings.NightRows` holds)."""

    players: frozenset[int]
    seats: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)
    results: dict[tuple[int, int], tuple[int, int, str]] = field(default_factory=dict)
    threes: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)
    extras: dict[tuple[int, int], dict[str, rules.Extras]] = field(default_factory=dict)
    byes: list[tuple[int, int]] = field(default_factory=list)


# What a game adds to one player besides the team score (loners tried, made, euchres, marches, a personal bonus):
# each drawn whole, so a night of many seats stays quick to make.
_EXTRAS = [
    rules.NO_EXTRAS,
    rules.Extras(1, 0, 0, 0, 0),
    rules.Extras(1, 1, 0, 0, 0),
    rules.Extras(0, 0, 1, 0, 0),
    rules.Extras(0, 0, 0, 1, 0),
    rules.Extras(0, 0, 0, 0, 2),
    rules.Extras(0, 0, 0, 0, -1),
    rules.Extras(2, 1, 1, 1, 3),
]


@st.composite
def nights(draw) -> Games:
    """Up to five closed games of 3 to 14 players: tables of four, up to two tables of three, the rest sitting out;
    some players without a tally (house players), now and then a table whose result is missing, and extras."""
    count = draw(st.integers(3, 14))
    everyone = list(range(1, count + 1))
    players = frozenset(draw(st.sets(st.sampled_from(everyone), min_size=1)))
    games = Games(players)
    for number in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(everyone))
        threes = draw(st.integers(0, min(2, count // 3)))
        fours = (count - 3 * threes) // 4
        at = 0
        for table in range(1, fours + threes + 1):
            three = table > fours
            taken = THREE_SEATS if three else SEATS
            seats = dict(zip(taken, order[at : at + len(taken)], strict=True))
            at += len(taken)
            games.seats[(number, table)] = seats
            if draw(st.integers(0, 9)) == 0:
                continue  # no result: not a line
            if three:
                points = {seat: draw(st.integers(0, 12)) for seat in THREE_SEATS}
                games.threes[(number, table)] = points
                games.results[(number, table)] = (0, 0, draw(st.sampled_from(THREE_SEATS)))
            else:
                ns, ew = draw(st.integers(-2, 15)), draw(st.integers(-2, 15))
                games.results[(number, table)] = (ns, ew, draw(st.sampled_from(("NS", "EW"))))
            if draw(st.booleans()):
                games.extras[(number, table)] = {seat: draw(st.sampled_from(_EXTRAS)) for seat in seats}
        games.byes.extend((player, number) for player in order[at:] if player in players)
    return games


bye_rules = st.builds(ByeRule, st.sampled_from(("none", "fixed", "own_average", "round_average")), st.integers(0, 12))


@given(nights(), bye_rules)
def test_a_player_s_total_is_the_sum_of_their_lines_and_a_bye_s_credit_stays_within_its_rule(games, bye_rule):
    lines = list(tally_lines(games, bye_rule))
    by_player = lines_by_player(games, bye_rule)
    totals = night_totals(games, bye_rule)
    assert set(by_player) == set(totals) == set(games.players)  # a player with a tally and no line yet has zeros
    for player, player_lines in by_player.items():
        row = totals[player]
        played = [line for line in player_lines if not line.bye]
        assert row.total == sum(line.points for line in player_lines)
        assert row.total == sum(line.team_points + line.extras.bonus for line in played) + sum(
            line.points for line in player_lines if line.bye
        )
        assert (row.games, row.byes) == (len(played), len(player_lines) - len(played))
        assert row.wins == sum(line.won for line in played)
        assert row.conceded == sum(line.conceded for line in played)
        assert row.loners_made == sum(line.extras.loners_made for line in played)
        assert [(line.round, line.table) for line in player_lines] == sorted(
            (line.round, line.table) for line in player_lines
        )
        assert sorted(player_lines, key=repr) == sorted((line for line in lines if line.player == player), key=repr)
    for index, line in enumerate(lines):
        if not line.bye:
            continue
        assert (line.team_points, line.conceded, line.won, line.table, line.partner) == (line.points, 0, False, 0, None)
        before = [earlier.points for earlier in lines[:index] if earlier.player == line.player]
        game = [other.points for other in lines if not other.bye and other.round == line.round]
        if bye_rule.credit == "none":
            assert line.points == 0
        elif bye_rule.credit == "fixed":
            assert line.points == bye_rule.points
        elif bye_rule.credit == "own_average":
            assert (min(before) <= line.points <= max(before)) if before else line.points == 0
        else:
            assert (min(game) <= line.points <= max(game)) if game else line.points == 0


@given(st.lists(st.integers(-30, 30), min_size=1, max_size=12), st.integers(0, 12))
def test_an_average_credit_is_the_average_rounded_half_up(points, fixed):
    for credit in ("own_average", "round_average"):
        own = (sum(points), len(points), 0, 0) if credit == "own_average" else (0, 0, sum(points), len(points))
        worth = ByeRule(credit, fixed).worth(*own)
        assert abs(worth - sum(points) / len(points)) <= 0.5
        assert worth - sum(points) / len(points) != -0.5  # a half goes up
    assert ByeRule("fixed", fixed).worth(0, 0, 0, 0) == fixed and ByeRule().worth(9, 1, 9, 1) == 0


@given(nights(), bye_rules)
def test_each_seat_of_a_closed_game_is_one_line_and_a_table_of_three_s_are_each_player_s_own(games, bye_rule):
    lines = list(tally_lines(games, bye_rule))
    seated = sorted(
        (player, number, table)
        for (number, table), seats in games.seats.items()
        if (number, table) in games.results
        for player in seats.values()
        if player in games.players
    )
    assert sorted((line.player, line.round, line.table) for line in lines if not line.bye) == seated
    assert [(line.player, line.round) for line in lines if line.bye] == games.byes
    assert lines == sorted(lines, key=lambda line: line.bye)  # the games first: a bye's credit reads them
    for line in lines:
        if line.bye:
            continue
        place = (line.round, line.table)
        seats = games.seats[place]
        earned = games.extras.get(place, {}).get(line.seat, rules.NO_EXTRAS)
        assert line.extras == earned and line.points == line.team_points + earned.bonus
        winner = games.results[place][2]
        if place in games.threes:
            points = games.threes[place]
            others = [seat for seat in THREE_SEATS if seat != line.seat]
            assert line.three and line.partner is None
            assert line.opponents == tuple(seats[seat] for seat in others)
            assert line.team_points == points[line.seat]
            assert line.conceded == max(points[seat] for seat in others)
            assert line.won == (winner == line.seat)
        else:
            ns, ew, _ = games.results[place]
            side = "NS" if line.seat in "NS" else "EW"
            partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[line.seat]
            assert not line.three and line.partner == seats[partner]
            assert set(line.opponents) == {player for seat, player in seats.items() if seat not in (line.seat, partner)}
            assert (line.team_points, line.conceded) == ((ns, ew) if side == "NS" else (ew, ns))
            assert line.won == (winner == side)
    found = meetings(games)  # head-to-head: the tables of four only, their players with a tally
    assert len(found) == sum(place in games.results and place not in games.threes for place in games.seats)
    assert all(player in games.players for meeting in found for side in meeting.sides for player in side)


# --- the tie-break chain ----------------------------------------------------------------------------------------------

_keys = st.lists(st.sampled_from([*METRICS, "luck", "shoe size"]), max_size=5)


@given(_keys, st.booleans(), st.sampled_from(("total", "average", "clubs")), st.none() | st.integers(0, 99))
def test_a_night_s_chain_is_the_organizer_s_known_links_or_its_usual_one(keys, wins_first, rank_by, seed):
    refusal = chain_refusal(keys)
    assert (refusal is None) == all(key in METRICS for key in keys)
    if refusal is not None:
        assert refusal.startswith(f"Unknown tie-break {next(k for k in keys if k not in METRICS)!r}")
        with pytest.raises(ValueError, match="Unknown tie-breaks"):
            night_chain(keys, wins_first=wins_first, rank_by=rank_by, draw_seed=seed)
        return
    chain = night_chain(keys, wins_first=wins_first, rank_by=rank_by, draw_seed=seed)
    links = [metric.key for metric in chain]
    if seed is not None:
        assert links.pop() == "draw"
    assert len(links) == len(set(links)) and links
    if wins_first:
        assert links[0] == "wins"
    if keys:
        assert set(links) - {"wins"} == set(keys) - {"wins"}
        again = night_chain(
            list(dict.fromkeys(keys)), wins_first=wins_first, draw_seed=seed
        )  # a repeat changes nothing
        assert [metric.key for metric in again] == [metric.key for metric in chain]
    else:
        assert chain[: len(links)] == chain_from(links)


def test_a_table_of_three_is_told_from_its_seats_in_one_place():
    for size in range(len(SEATS) + 1):
        for taken in itertools.combinations(SEATS, size):
            assert is_three(taken) == (set(taken) == {"N", "E", "S"})
            assert is_three(dict.fromkeys(taken, 1)) == is_three(taken) == is_three(iter(taken))
