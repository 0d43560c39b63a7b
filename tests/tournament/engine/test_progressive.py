"""Head/tail progressive movement, checked against the "Progressive Euchre" section of the rules text.

Rules text (shared/seeds/000, "Progressive Euchre" > "Basics"): "The losing team at the head table moves to the tail
table; otherwise the winning team at each table advances to the next table, and one member of the losing team changes
seat so that partners in one game are opponents in the next game."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.movements import progressive as next_seating
from tournament.engine.roster import opening
from tournament.engine.types import SIDES, SeatingError, Table, other_side, side_of


def _tables(count: int) -> list[Table]:
    """Tables 1..count with players 1..4*count seated N, E, S, W in order."""
    return [Table(t, 4 * t - 3, 4 * t - 2, 4 * t - 1, 4 * t) for t in range(1, count + 1)]


def _where(tables: list[Table]) -> dict[int, tuple[int, str]]:
    """player -> (table number, seat)."""
    return {player: (table.number, seat) for table in tables for seat, player in table.seats.items()}


def _partnerships(table: Table) -> list[tuple[int, int]]:
    return [table.pair("NS"), table.pair("EW")]


# --- written-out cases ------------------------------------------------------------------------------------------------


def test_three_tables_worked_example():
    # Game 1:   table 1: N1 E2 S3 W4   table 2: N5 E6 S7 W8   table 3: N9 E10 S11 W12
    # Winners:  table 1 NS (1 & 3), table 2 EW (6 & 8), table 3 NS (9 & 11)
    before = _tables(3)
    after = next_seating(before, {1: "NS", 2: "EW", 3: "NS"})

    assert after == [
        # head winners 1 & 3 stay (1 keeps N, 3 takes E); table 2's winners 6 & 8 arrive from below.
        Table(1, n=1, e=3, s=6, w=8),
        # table 2's losers 5 & 7 stay (5 keeps N, 7 takes E); table 3's winners 9 & 11 arrive.
        Table(2, n=5, e=7, s=9, w=11),
        # table 3's losers 10 & 12 stay (10 keeps E, 12 takes S); the head losers 2 & 4 go to the tail.
        Table(3, n=2, e=10, s=12, w=4),
    ]


def test_three_tables_partners_split_into_one_stayer_and_one_arrival():
    after = next_seating(_tables(3), {1: "NS", 2: "EW", 3: "NS"})
    stayed = {1: {1, 3}, 2: {5, 7}, 3: {10, 12}}
    arrived = {1: {6, 8}, 2: {9, 11}, 3: {2, 4}}
    for table in after:
        for pair in _partnerships(table):
            assert len(stayed[table.number] & set(pair)) == 1, (table, pair)
            assert len(arrived[table.number] & set(pair)) == 1, (table, pair)


def test_three_tables_every_old_partnership_now_opposes():
    before = _tables(3)
    after = next_seating(before, {1: "EW", 2: "NS", 3: "EW"})
    where = _where(after)
    for table in before:
        for a, b in _partnerships(table):
            assert where[a][0] == where[b][0]
            assert side_of(where[a][1]) != side_of(where[b][1])


def test_three_tables_ew_winners_everywhere():
    # Winners: table 1 EW (2 & 4), table 2 EW (6 & 8), table 3 EW (10 & 12).
    after = next_seating(_tables(3), {1: "EW", 2: "EW", 3: "EW"})
    assert after == [
        # 2 keeps E, 4 takes S; 6 & 8 arrive into N and W.
        Table(1, n=6, e=2, s=4, w=8),
        # losers 5 & 7 stay (5 keeps N, 7 takes E); 10 & 12 arrive into S and W.
        Table(2, n=5, e=7, s=10, w=12),
        # losers 9 & 11 stay (9 keeps N, 11 takes E); head losers 1 & 3 arrive into S and W.
        Table(3, n=9, e=11, s=1, w=3),
    ]


def test_the_stayer_in_n_or_e_keeps_their_seat_and_the_other_moves_clockwise():
    # Module docstring: "of the two who stay, the one who sat N or E keeps that seat and the other takes the next seat
    # clockwise, so they face each other as opponents and only one of them gets up".
    after = next_seating(_tables(2), {1: "NS", 2: "EW"})
    assert (after[0].n, after[0].e) == (1, 3)  # head winners sat N/S: N keeps N, S -> E
    assert (after[1].n, after[1].e) == (5, 7)  # table 2 losers sat N/S
    after = next_seating(_tables(2), {1: "EW", 2: "NS"})
    assert (after[0].e, after[0].s) == (2, 4)  # head winners sat E/W: E keeps E, W -> S
    assert (after[1].e, after[1].s) == (6, 8)  # table 2 losers sat E/W


def test_one_table_everyone_stays_but_partners_split():
    # With one table the head table is also the tail: the losers "move" back to the same table.
    after = next_seating(_tables(1), {1: "EW"})
    assert after == [Table(1, n=1, e=2, s=4, w=3)]
    assert {frozenset(p) for p in _partnerships(after[0])} == {frozenset({1, 4}), frozenset({2, 3})}


def test_one_table_ns_winners():
    after = next_seating(_tables(1), {1: "NS"})
    assert after == [Table(1, n=1, e=3, s=2, w=4)]
    assert {frozenset(p) for p in _partnerships(after[0])} == {frozenset({1, 2}), frozenset({3, 4})}


def test_two_tables_head_and_tail_swap_teams():
    # Table 1 winners 1 & 3 stay, table 2 winners 5 & 7 move up; table 2 losers 6 & 8 stay, head losers 2 & 4 go down.
    after = next_seating(_tables(2), {1: "NS", 2: "NS"})
    assert after == [
        Table(1, n=1, e=3, s=5, w=7),
        Table(2, n=2, e=6, s=8, w=4),
    ]


def test_two_tables_all_ew_winners():
    after = next_seating(_tables(2), {1: "EW", 2: "EW"})
    assert after == [
        Table(1, n=6, e=2, s=4, w=8),
        Table(2, n=5, e=7, s=1, w=3),
    ]


def test_missing_winner_names_the_table():
    with pytest.raises(SeatingError, match=r"No winner recorded for table\(s\) 2\."):
        next_seating(_tables(3), {1: "NS", 3: "EW"})


def test_missing_winners_name_every_table():
    with pytest.raises(SeatingError, match=r"table\(s\) 1, 3\."):
        next_seating(_tables(3), {2: "NS"})


@pytest.mark.parametrize("bad", ["N", "ns", "", None, "XX"])
def test_a_winner_that_is_not_a_side_counts_as_missing(bad):
    with pytest.raises(SeatingError, match=r"table\(s\) 2\b"):
        next_seating(_tables(2), {1: "NS", 2: bad})


def test_winners_for_tables_that_do_not_exist_are_ignored():
    assert next_seating(_tables(1), {1: "NS", 2: "EW"}) == next_seating(_tables(1), {1: "NS"})


def test_tables_must_be_numbered_from_one_without_gaps():
    tables = [Table(1, 1, 2, 3, 4), Table(3, 5, 6, 7, 8)]
    with pytest.raises(SeatingError, match="numbered"):
        next_seating(tables, {1: "NS", 3: "NS"})


def test_a_player_seated_twice_is_rejected():
    tables = [Table(1, 1, 2, 3, 4), Table(2, 5, 6, 7, 1)]
    with pytest.raises(SeatingError, match="Player 1 is seated twice"):
        next_seating(tables, {1: "NS", 2: "NS"})


def test_input_tables_are_not_changed():
    before = _tables(3)
    snapshot = list(before)
    next_seating(before, {1: "NS", 2: "NS", 3: "NS"})
    assert before == snapshot


# --- properties over random nights ------------------------------------------------------------------------------------


@st.composite
def nights(draw):
    """A random night: a table count, an opening draw seed and the winners of several consecutive games."""
    count = draw(st.integers(min_value=1, max_value=40))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    games = draw(st.integers(min_value=1, max_value=6))
    winners = [{number: draw(st.sampled_from(SIDES)) for number in range(1, count + 1)} for _ in range(games)]
    return count, seed, winners


def _check_movement(before: list[Table], winners: dict[int, str], after: list[Table]) -> None:
    count = len(before)
    old = _where(before)
    new = _where(after)
    by_number = {t.number: t for t in before}
    won = {t: by_number[t].pair(winners[t]) for t in by_number}
    lost = {t: by_number[t].pair(other_side(winners[t])) for t in by_number}

    # (e) everyone seated exactly once, four to a table, tables numbered 1..T.
    assert [t.number for t in after] == list(range(1, count + 1))
    players = [p for t in after for p in t.players]
    assert len(players) == len(set(players)) == 4 * count
    assert set(players) == set(old)

    # (a) the head-table losers sit at the tail table.
    for player in lost[1]:
        assert new[player][0] == count
    # head winners stay at the head table.
    for player in won[1]:
        assert new[player][0] == 1
    for t in range(2, count + 1):
        # (b) winners at table t > 1 move one table toward the head.
        for player in won[t]:
            assert new[player][0] == t - 1
        # (c) losers at table t > 1 stay.
        for player in lost[t]:
            assert new[player][0] == t

    # (d) every partnership sits at one table as opponents.
    for table in before:
        for a, b in _partnerships(table):
            assert new[a][0] == new[b][0]
            assert side_of(new[a][1]) != side_of(new[b][1])

    # every new partnership is one who stayed plus one who arrived.
    stayers = {t: set(won[1] if t == 1 else lost[t]) for t in by_number}
    for table in after:
        for pair in _partnerships(table):
            assert len(stayers[table.number] & set(pair)) == 1

    # (f) at least one of the two who stay keeps their seat.
    for t, pair in stayers.items():
        assert any(new[p] == old[p] for p in pair), (t, pair)


@given(nights())
def test_movement_properties_hold_over_a_night(night):
    count, seed, winners = night
    tables = list(opening(range(100, 100 + 4 * count), seed=seed).tables)
    for game_winners in winners:
        after = next_seating(tables, game_winners)
        _check_movement(tables, game_winners, after)
        tables = after


@given(st.integers(min_value=1, max_value=40), st.data())
def test_missing_winner_is_always_reported_by_table_number(count, data):
    missing = data.draw(st.sets(st.integers(min_value=1, max_value=count), min_size=1))
    winners = {t: data.draw(st.sampled_from(SIDES)) for t in range(1, count + 1) if t not in missing}
    with pytest.raises(SeatingError) as excinfo:
        next_seating(_tables(count), winners)
    assert str(excinfo.value) == f"No winner recorded for table(s) {', '.join(map(str, sorted(missing)))}."
