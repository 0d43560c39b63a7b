"""The seeds derived from a night's recorded seed stay what they were when the nights were recorded."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring import seeds


def test_the_derived_seeds_written_out():
    assert seeds.seating(2026, 3) == 2026 * 7919 + 3 == 16_043_897
    assert seeds.seating(None, 1) == 1
    assert seeds.tied_game(7, 2, 4) == 7 * 1_000_003 + 2 * 1_009 + 4 == 7_002_043
    assert seeds.tied_game(None, 1, 1) == 1_010
    assert seeds.standings_draw(5, 42) == 5_000_057


@given(st.integers(0, 2**31), st.integers(1, 64), st.integers(1, 150))
def test_two_tables_or_two_games_never_share_a_tie_draw_seed(night, game, table):
    here = seeds.tied_game(night, game, table)
    assert here != seeds.tied_game(night, game, table + 1)
    assert here != seeds.tied_game(night, game + 1, table)
    assert 0 <= here < 2**63
