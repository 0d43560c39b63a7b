"""Draws from a seed and a pool alone (#21): the same record gives the same winners, whatever order the pool is in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.draws import RECIPE, DrawError, check_call, new_seed, pick, replays


def test_a_recorded_draw_gives_the_same_winners_written_out():
    # Fixed here so that a change to how a seed becomes winners cannot pass unseen: every recorded draw would
    # then replay to other winners.
    assert pick("5f0c2a9e11d4b7c3", range(1, 41), 3) == pick("5f0c2a9e11d4b7c3", list(range(40, 0, -1)), 3)
    assert pick("5f0c2a9e11d4b7c3", range(1, 41), 3) == [8, 35, 29]


@given(st.text(min_size=1, max_size=20), st.sets(st.integers(1, 600), min_size=1, max_size=80), st.data())
def test_winners_are_different_members_of_the_pool_and_replay(seed, pool, data):
    count = data.draw(st.integers(1, len(pool)))
    winners = pick(seed, pool, count)
    assert len(set(winners)) == count and set(winners) <= pool
    assert replays(seed, sorted(pool, reverse=True), winners)


def test_another_seed_or_pool_does_not_replay():
    winners = pick("abc", range(1, 101), 5)
    assert not replays("abd", range(1, 101), winners)
    assert not replays("abc", range(2, 101), winners)


def test_a_draw_too_big_or_from_nobody_says_why():
    with pytest.raises(DrawError, match="Nobody to draw from"):
        pick("x", [], 1)
    with pytest.raises(DrawError, match="Draw from 1 to 3"):
        pick("x", [1, 2, 3], 4)
    with pytest.raises(DrawError, match="not 0"):
        pick("x", [1, 2, 3], 0)


def test_seeds_are_sixteen_hex_digits_and_differ():
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(len(seed) == 16 and int(seed, 16) >= 0 for seed in seeds)


def _recipe_draw():
    space: dict = {}
    exec(RECIPE, space)
    return space["draw"]


@given(st.text(max_size=20), st.lists(st.integers(1, 2000), min_size=1, max_size=80), st.data())
def test_the_printed_recipe_is_the_draw(seed, pool, data):
    """The recipe anyone runs gives what the app drew, for any seed and any pool in any order, repeats and all;
    and the line the Money page prints for the draw, run after it, gives the same."""
    count = data.draw(st.integers(1, len(set(pool))))
    draw = _recipe_draw()
    assert draw(seed, pool, count) == pick(seed, pool, count)
    assert eval(check_call(seed, pool, count), {"draw": draw}) == pick(seed, pool, count)


def test_the_check_line_writes_tickets_as_a_range_and_any_other_pool_as_its_numbers():
    assert check_call("5f0c", list(range(1, 251)), 1) == "draw('5f0c', range(1, 251), 1)"
    assert check_call("5f0c", [9, 3, 4, 3], 2) == "draw('5f0c', [3, 4, 9], 2)"
