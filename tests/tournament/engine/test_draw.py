"""The opening draw: random seats for game 1, reproducible from a recorded seed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.engine.draw import opening_draw
from tournament.engine.types import SeatingError, Table


def test_same_seed_gives_same_tables_whatever_the_input_order():
    players = list(range(1, 17))
    first = opening_draw(players, seed=42)
    assert opening_draw(list(reversed(players)), seed=42) == first
    assert opening_draw([9, 3, 16, 1, 5, 12, 2, 8, 15, 4, 11, 6, 14, 7, 13, 10], seed=42) == first
    assert opening_draw(tuple(players), seed=42) == first


def test_different_seeds_give_different_tables():
    players = list(range(1, 17))
    draws = {tuple(opening_draw(players, seed=seed)) for seed in range(10)}
    assert len(draws) > 1


def test_tables_are_numbered_from_the_head_table():
    tables = opening_draw(range(1, 13), seed=7)
    assert [t.number for t in tables] == [1, 2, 3]
    assert all(isinstance(t, Table) for t in tables)


def test_four_players_make_one_table():
    tables = opening_draw([10, 20, 30, 40], seed=0)
    assert len(tables) == 1
    assert sorted(tables[0].players) == [10, 20, 30, 40]


def test_input_is_not_changed():
    players = [4, 3, 2, 1, 8, 7, 6, 5]
    opening_draw(players, seed=3)
    assert players == [4, 3, 2, 1, 8, 7, 6, 5]


@pytest.mark.parametrize(
    ("count", "check_in", "check_out"),
    [(5, 3, 1), (6, 2, 2), (7, 1, 3), (9, 3, 1), (13, 3, 1), (14, 2, 2), (15, 1, 3), (31, 1, 3)],
)
def test_head_count_not_a_multiple_of_four_is_refused_with_advice(count, check_in, check_out):
    with pytest.raises(SeatingError) as excinfo:
        opening_draw(range(1, count + 1), seed=1)
    message = str(excinfo.value)
    assert f"seats players in fours: {count} checked in." in message
    assert f"Check in {check_in} more, or check out {check_out}" in message


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_fewer_than_four_players_is_refused(count):
    with pytest.raises(SeatingError, match=rf"^A night needs at least 4 players; {count} checked in\.$"):
        opening_draw(range(1, count + 1), seed=1)


@pytest.mark.parametrize("players", [[1, 1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 1], [5, 5, 5, 5, 5], [1, 2, 2]])
def test_a_player_listed_twice_is_refused(players):
    with pytest.raises(SeatingError, match="A player is listed twice"):
        opening_draw(players, seed=1)


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.integers(min_value=-(10**9), max_value=10**9), min_size=4, max_size=160).map(sorted),
    st.integers(min_value=0, max_value=2**64),
    st.randoms(use_true_random=False),
)
def test_everyone_is_seated_exactly_once(ids, seed, rng):
    ids = ids[: len(ids) - len(ids) % 4]
    shuffled = list(ids)
    rng.shuffle(shuffled)
    tables = opening_draw(shuffled, seed)
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == ids
    assert [t.number for t in tables] == list(range(1, len(ids) // 4 + 1))
    # the seed, not the order the caller listed the players in, decides the tables
    assert opening_draw(ids, seed) == tables


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=10**6), min_size=4, max_size=80), st.integers(min_value=0))
def test_a_head_count_is_seated_or_refused_never_half_seated(ids, seed):
    if len(ids) % 4:
        with pytest.raises(SeatingError):
            opening_draw(list(ids), seed)
    else:
        assert len(opening_draw(list(ids), seed)) == len(ids) // 4
