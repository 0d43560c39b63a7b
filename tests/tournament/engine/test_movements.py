"""The other movements: progressive-down, winners-stay, fixed-partners and seat-rotation.

Issue text:
* progressive-down: losers at other tables move down one table instead of staying (head-table winners stay,
  tail-table losers stay).
* winners-stay (shared/seeds/001, "Tournaments"): winners stay at their table and are split apart; losing pairs go to
  the next table down (the tail's losers to the head) and are split to team with that table's winners.
* fixed-partners: partners stay together all night: winning pairs move up one table, losing pairs stay, the head
  table's losers go to the tail.
* seat-rotation: independent of results: N stays, S moves down one table, E up one, W up two (tables wrap around).

Table 1 is the head table, table T the tail; "up" is towards the head (a lower number), "down" towards the tail.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.movements import (
    KEEPS_PARTNERS,
    MOVEMENTS,
    RESULT_FREE,
    fixed_partners,
    progressive,
    progressive_down,
    seat_rotation,
    winners_stay,
)
from tournament.engine.roster import opening
from tournament.engine.types import SEATS, SIDES, SeatingError, Table, other_side, side_of


def _tables(count: int) -> list[Table]:
    """Tables 1..count with players 1..4*count seated N, E, S, W in order."""
    return [Table(t, 4 * t - 3, 4 * t - 2, 4 * t - 1, 4 * t) for t in range(1, count + 1)]


def _where(tables: list[Table]) -> dict[int, tuple[int, str]]:
    """player -> (table number, seat)."""
    return {player: (table.number, seat) for table in tables for seat, player in table.seats.items()}


def _partnerships(table: Table) -> list[tuple[int, int]]:
    return [table.pair("NS"), table.pair("EW")]


def _pair_sets(tables: list[Table]) -> set[frozenset[int]]:
    return {frozenset(pair) for table in tables for pair in _partnerships(table)}


# Game 1 for the written-out cases: table 1: N1 E2 S3 W4, table 2: N5 E6 S7 W8, table 3: N9 E10 S11 W12.
# Winners: table 1 NS (1 & 3; losers 2 & 4), table 2 EW (6 & 8; losers 5 & 7), table 3 NS (9 & 11; losers 10 & 12).
WINNERS_3 = {1: "NS", 2: "EW", 3: "NS"}


def test_movement_names():
    assert set(MOVEMENTS) == {"progressive", "progressive-down", "winners-stay", "fixed-partners", "seat-rotation"}
    assert MOVEMENTS["progressive"] is progressive
    assert MOVEMENTS["progressive-down"] is progressive_down
    assert MOVEMENTS["winners-stay"] is winners_stay
    assert MOVEMENTS["fixed-partners"] is fixed_partners
    assert MOVEMENTS["seat-rotation"] is seat_rotation
    assert {"fixed-partners"} == KEEPS_PARTNERS
    assert {"seat-rotation"} == RESULT_FREE


# --- progressive-down -------------------------------------------------------------------------------------------------


def test_progressive_down_three_tables():
    after = progressive_down(_tables(3), WINNERS_3)
    assert after == [
        # head winners 1 & 3 stay (1 keeps N, 3 moves clockwise to E); table 2's winners 6 & 8 come up into S and W.
        Table(1, n=1, e=3, s=6, w=8),
        # nobody stays at a middle table: table 3's winners 9 & 11 come up (N, E), head losers 2 & 4 come down (S, W).
        Table(2, n=9, e=11, s=2, w=4),
        # tail losers 10 & 12 stay (10 keeps E, 12 moves to S); table 2's losers 5 & 7 come down into N and W.
        Table(3, n=5, e=10, s=12, w=7),
    ]


def test_progressive_down_three_tables_ew_winners():
    after = progressive_down(_tables(3), {1: "EW", 2: "EW", 3: "EW"})
    assert after == [
        Table(1, n=6, e=2, s=4, w=8),  # head winners 2 & 4 stay (2 keeps E, 4 to S); 6 & 8 come up from table 2
        Table(2, n=10, e=12, s=1, w=3),  # 10 & 12 come up from table 3; head losers 1 & 3 come down
        Table(3, n=9, e=11, s=5, w=7),  # tail losers 9 & 11 stay (9 keeps N, 11 to E); 5 & 7 come down from table 2
    ]


def test_progressive_down_one_table_partners_split():
    assert progressive_down(_tables(1), {1: "EW"}) == [Table(1, n=1, e=2, s=4, w=3)]
    assert progressive_down(_tables(1), {1: "NS"}) == [Table(1, n=1, e=3, s=2, w=4)]


def test_progressive_down_two_tables():
    # Head winners 1 & 3 stay, table 2's winners 5 & 7 come up; table 2's losers 6 & 8 stay (tail), head losers 2 & 4
    # move down one table (which is the tail).
    assert progressive_down(_tables(2), {1: "NS", 2: "NS"}) == [
        Table(1, n=1, e=3, s=5, w=7),
        Table(2, n=2, e=6, s=8, w=4),
    ]


@pytest.mark.parametrize("winners", list(itertools.product(SIDES, repeat=2)))
def test_progressive_down_with_two_tables_is_progressive(winners):
    # With two tables "down one table" from the head is the tail, so both movements agree.
    results = dict(enumerate(winners, start=1))
    assert progressive_down(_tables(2), results) == progressive(_tables(2), results)


# --- winners-stay -----------------------------------------------------------------------------------------------------


def test_winners_stay_three_tables():
    after = winners_stay(_tables(3), WINNERS_3)
    assert after == [
        # winners 1 & 3 stay (1 keeps N, 3 to E); the tail's losers 10 & 12 wrap round to the head.
        Table(1, n=1, e=3, s=10, w=12),
        # winners 6 & 8 stay (6 keeps E, 8 to S); the head's losers 2 & 4 come down into N and W.
        Table(2, n=2, e=6, s=8, w=4),
        # winners 9 & 11 stay (9 keeps N, 11 to E); table 2's losers 5 & 7 come down into S and W.
        Table(3, n=9, e=11, s=5, w=7),
    ]


def test_winners_stay_one_table():
    # The tail's losers "move" to the head, which is the same table: everyone stays, partners split.
    assert winners_stay(_tables(1), {1: "NS"}) == [Table(1, n=1, e=3, s=2, w=4)]
    assert winners_stay(_tables(1), {1: "EW"}) == [Table(1, n=1, e=2, s=4, w=3)]


def test_winners_stay_two_tables_losers_swap():
    assert winners_stay(_tables(2), {1: "NS", 2: "EW"}) == [
        Table(1, n=1, e=3, s=5, w=7),  # winners 1 & 3 stay; table 2's losers 5 & 7 wrap round to the head
        Table(2, n=2, e=6, s=8, w=4),  # winners 6 & 8 stay; the head's losers 2 & 4 come down
    ]


# --- fixed-partners ---------------------------------------------------------------------------------------------------


def test_fixed_partners_three_tables():
    after = fixed_partners(_tables(3), WINNERS_3)
    assert after == [
        # head winners 1 & 3 stay in N/S; table 2's winning pair 6 & 8 comes up into E/W.
        Table(1, n=1, e=6, s=3, w=8),
        # table 2's losers 5 & 7 stay in N/S; table 3's winners 9 & 11 come up into E/W.
        Table(2, n=5, e=9, s=7, w=11),
        # tail losers 10 & 12 stay in E/W; the head's losers 2 & 4 go to the tail, into N/S.
        Table(3, n=2, e=10, s=4, w=12),
    ]
    assert _pair_sets(after) == _pair_sets(_tables(3))


def test_fixed_partners_one_table_nobody_moves():
    assert fixed_partners(_tables(1), {1: "NS"}) == _tables(1)
    assert fixed_partners(_tables(1), {1: "EW"}) == _tables(1)


def test_fixed_partners_two_tables():
    assert fixed_partners(_tables(2), {1: "NS", 2: "NS"}) == [
        Table(1, n=1, e=5, s=3, w=7),  # 1 & 3 stay; 5 & 7 come up
        Table(2, n=2, e=6, s=4, w=8),  # 6 & 8 stay in E/W; the head's losers 2 & 4 go to the tail
    ]
    assert fixed_partners(_tables(2), {1: "EW", 2: "EW"}) == [
        Table(1, n=6, e=2, s=8, w=4),  # 2 & 4 stay in E/W; 6 & 8 come up into N/S
        Table(2, n=5, e=1, s=7, w=3),  # 5 & 7 stay in N/S; 1 & 3 go to the tail
    ]


# --- seat-rotation ----------------------------------------------------------------------------------------------------


def test_seat_rotation_three_tables():
    after = seat_rotation(_tables(3), WINNERS_3)
    assert after == [
        # N1 stays; E6 up from 2; S11 down from 3 (wrapping); W12 up two from 3.
        Table(1, n=1, e=6, s=11, w=12),
        # N5 stays; E10 up from 3; S3 down from 1; W4 up two from 1 (wrapping).
        Table(2, n=5, e=10, s=3, w=4),
        # N9 stays; E2 up from 1 (wrapping); S7 down from 2; W8 up two from 2 (wrapping).
        Table(3, n=9, e=2, s=7, w=8),
    ]


def test_seat_rotation_one_table_nobody_moves():
    assert seat_rotation(_tables(1), {1: "NS"}) == _tables(1)
    assert seat_rotation(_tables(1)) == _tables(1)


def test_seat_rotation_two_tables():
    # W moves up two tables: back to where they were.
    assert seat_rotation(_tables(2)) == [
        Table(1, n=1, e=6, s=7, w=4),
        Table(2, n=5, e=2, s=3, w=8),
    ]


@pytest.mark.parametrize("winners", [None, {}, {1: "NS"}, WINNERS_3, {1: "EW", 2: "EW", 3: "EW"}, {2: "bogus"}])
def test_seat_rotation_ignores_results(winners):
    assert seat_rotation(_tables(3), winners) == seat_rotation(_tables(3))


def test_seat_rotation_comes_back_after_a_full_cycle_of_tables():
    # Every seat moves by a fixed number of tables, so after T games (T tables) everyone is back where they started.
    for count in range(1, 8):
        tables = _tables(count)
        for _ in range(count):
            tables = seat_rotation(tables)
        assert tables == _tables(count)


# --- what all movements share -----------------------------------------------------------------------------------------

RESULT_MOVEMENTS = sorted(set(MOVEMENTS) - RESULT_FREE)


@pytest.mark.parametrize("name", RESULT_MOVEMENTS)
def test_missing_winner_is_a_seating_error(name):
    with pytest.raises(SeatingError, match=r"No winner recorded for table\(s\) 1, 3\."):
        MOVEMENTS[name](_tables(3), {2: "NS"})


@pytest.mark.parametrize("name", sorted(MOVEMENTS))
def test_bad_tables_are_a_seating_error(name):
    gap = [Table(1, 1, 2, 3, 4), Table(3, 5, 6, 7, 8)]
    with pytest.raises(SeatingError, match="numbered"):
        MOVEMENTS[name](gap, {1: "NS", 3: "NS"})
    twice = [Table(1, 1, 2, 3, 4), Table(2, 5, 6, 7, 1)]
    with pytest.raises(SeatingError, match="Player 1 is seated twice"):
        MOVEMENTS[name](twice, {1: "NS", 2: "NS"})


@pytest.mark.parametrize("name", sorted(MOVEMENTS))
def test_input_tables_are_not_changed(name):
    before = _tables(3)
    snapshot = list(before)
    MOVEMENTS[name](before, WINNERS_3)
    assert before == snapshot


# --- properties over random nights ------------------------------------------------------------------------------------


def _results(tables: list[Table], winners: dict[int, str]):
    by_number = {t.number: t for t in tables}
    won = {t: by_number[t].pair(winners[t]) for t in by_number}
    lost = {t: by_number[t].pair(other_side(winners[t])) for t in by_number}
    return won, lost


def _check_seated(before: list[Table], after: list[Table]) -> None:
    """Everyone seated exactly once, four to a table, tables numbered 1..T as before."""
    assert [t.number for t in after] == list(range(1, len(before) + 1))
    players = [p for t in after for p in t.players]
    assert len(players) == len(set(players)) == 4 * len(before)
    assert set(players) == {p for t in before for p in t.players}


def _check_destinations(new: dict[int, tuple[int, str]], pair, table: int) -> None:
    for player in pair:
        assert new[player][0] == table, (player, pair, table)


def _check_split(before: list[Table], after: list[Table], stayers: dict[int, tuple], arrivals: dict[int, tuple]):
    """Every old partnership sits at one table as opponents; every new one is one from each group."""
    old, new = _where(before), _where(after)
    for table in before:
        for a, b in _partnerships(table):
            assert new[a][0] == new[b][0]
            assert side_of(new[a][1]) != side_of(new[b][1])
    for table in after:
        for pair in _partnerships(table):
            assert len(set(stayers[table.number]) & set(pair)) == 1, (table, pair)
            assert len(set(arrivals[table.number]) & set(pair)) == 1, (table, pair)
    # Of two who stay, the one in N or E keeps their seat; the other moves one seat clockwise.
    for t, pair in stayers.items():
        if all(new[p][0] == t for p in pair) and all(old[p][0] == t for p in pair):
            first, second = sorted(pair, key=lambda p: SEATS.index(old[p][1]))
            assert new[first] == old[first]
            assert new[second][1] == SEATS[(SEATS.index(old[first][1]) + 1) % 4]


def _check_progressive_down(before, winners, after):
    count = len(before)
    won, lost = _results(before, winners)
    new = _where(after)
    _check_destinations(new, won[1], 1)  # head winners stay
    _check_destinations(new, lost[count], count)  # tail losers stay
    for t in range(2, count + 1):
        _check_destinations(new, won[t], t - 1)  # winners move up one
    for t in range(1, count):
        _check_destinations(new, lost[t], t + 1)  # losers move down one, the head's included
    # Who sits together at each table: at the head the head winners and the winners from table 2, at the tail the
    # tail losers and the losers from above, in the middle the winners from below and the losers from above.
    if count == 1:
        stayers, arrivals = {1: won[1]}, {1: lost[1]}
    else:
        stayers = {t: won[t + 1] if 1 < t < count else (won[1] if t == 1 else lost[count]) for t in range(1, count + 1)}
        arrivals = {t: lost[t - 1] if t > 1 else won[2] for t in range(1, count + 1)}
    _check_split(before, after, stayers, arrivals)
    # In the middle nobody stays: the pair coming up takes N and E, the pair coming down S and W.
    for t in range(2, count):
        table = after[t - 1]
        assert (table.n, table.e) == won[t + 1]
        assert (table.s, table.w) == lost[t - 1]


def _check_winners_stay(before, winners, after):
    count = len(before)
    won, lost = _results(before, winners)
    new = _where(after)
    for t in range(1, count + 1):
        _check_destinations(new, won[t], t)  # winners stay
        _check_destinations(new, lost[t], t % count + 1)  # losers down one; the tail's to the head
    stayers = {t: won[t] for t in range(1, count + 1)}
    arrivals = {t: lost[(t - 2) % count + 1] for t in range(1, count + 1)}
    _check_split(before, after, stayers, arrivals)


def _check_fixed_partners(before, winners, after):
    count = len(before)
    won, lost = _results(before, winners)
    old, new = _where(before), _where(after)
    _check_destinations(new, won[1], 1)  # head winners stay
    _check_destinations(new, lost[1], count)  # head losers go to the tail
    for t in range(2, count + 1):
        _check_destinations(new, won[t], t - 1)  # winners up one
        _check_destinations(new, lost[t], t)  # losers stay
    # Partners stay partners, and a pair that stays keeps its seats.
    assert _pair_sets(after) == _pair_sets(before)
    for t in range(1, count + 1):
        stay = won[1] if t == 1 else lost[t]
        for player in stay:
            assert new[player] == old[player]


def _check_seat_rotation(before, winners, after):
    count = len(before)
    old, new = _where(before), _where(after)
    shift = {"N": 0, "S": 1, "E": -1, "W": -2}
    for player, (table, seat) in old.items():
        assert new[player] == ((table - 1 + shift[seat]) % count + 1, seat)
    # Independent of results.
    flipped = {t: other_side(side) for t, side in winners.items()}
    assert seat_rotation(before, flipped) == after
    assert seat_rotation(before) == after


CHECKS = {
    "progressive-down": _check_progressive_down,
    "winners-stay": _check_winners_stay,
    "fixed-partners": _check_fixed_partners,
    "seat-rotation": _check_seat_rotation,
}


@st.composite
def nights(draw):
    """A random night: a table count, an opening draw seed and the winners of several consecutive games."""
    count = draw(st.one_of(st.integers(min_value=1, max_value=4), st.integers(min_value=1, max_value=40)))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    games = draw(st.integers(min_value=1, max_value=6))
    winners = [{number: draw(st.sampled_from(SIDES)) for number in range(1, count + 1)} for _ in range(games)]
    return count, seed, winners


@pytest.mark.parametrize("name", sorted(CHECKS))
@given(night=nights())
def test_movement_properties_hold_over_a_night(name, night):
    count, seed, winners = night
    movement = MOVEMENTS[name]
    tables = list(opening(range(100, 100 + 4 * count), seed=seed, by_pairs=name in KEEPS_PARTNERS).tables)
    for game_winners in winners:
        after = movement(tables, game_winners)
        _check_seated(tables, after)
        CHECKS[name](tables, game_winners, after)
        tables = after
