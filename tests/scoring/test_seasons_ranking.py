"""The season's ranking on its own (scoring/seasons.py): hand-made cases and properties over random seasons."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.seasons import NightScore, method_label, season_rank


def test_best_n_takes_the_earlier_of_two_equal_nights():
    scores = [NightScore(1, 7, 10), NightScore(2, 7, 12), NightScore(3, 7, 10)]
    [row] = season_rank(scores, method="best", best_of=2, night_order=[1, 2, 3])
    assert (row.best, row.counted) == (22, frozenset({1, 2}))


def test_labels():
    assert method_label("best", 8, 12) == "best 8 of 12 nights"
    assert method_label("best", 1, 1) == "best 1 of 1 night"
    assert method_label("average", None, 3) == "average per night played"


def test_refusals():
    with pytest.raises(ValueError):
        season_rank([], method="median")
    with pytest.raises(ValueError):
        season_rank([], method="best", best_of=0)


seasons = st.lists(
    st.builds(NightScore, night=st.integers(1, 6), player=st.integers(1, 15), total=st.integers(-5, 40)),
    max_size=60,
    unique_by=lambda s: (s.night, s.player),
)


@given(seasons, st.sampled_from(["total", "average", "best"]), st.integers(1, 7), st.randoms(use_true_random=False))
def test_season_rank_properties(scores, method, best_of, rng):
    order = list(range(1, 7))
    ranked = season_rank(scores, method=method, best_of=best_of, night_order=order)
    shuffled = list(scores)
    rng.shuffle(shuffled)
    assert season_rank(shuffled, method=method, best_of=best_of, night_order=order) == ranked
    assert sorted(row.player for row in ranked) == sorted({s.player for s in scores})
    for row in ranked:
        mine = sorted((s.total for s in scores if s.player == row.player), reverse=True)
        assert row.nights == len(mine)
        assert row.total == sum(mine)
        assert row.average == pytest.approx(row.total / row.nights)
        assert row.best == sum(mine[:best_of])  # the N best, or everything when fewer nights
        assert len(row.counted) == min(best_of, row.nights)
        assert row.score == {"total": row.total, "average": row.average, "best": row.best}[method]
    # ordered best first; competition ranks; level exactly when the figure is equal
    assert [row.score for row in ranked] == sorted((row.score for row in ranked), reverse=True)
    for row in ranked:
        level = [other for other in ranked if other.score == row.score]
        assert row.rank == 1 + sum(other.score > row.score for other in ranked)
        assert row.shared == (len(level) > 1)
        assert row.rank_label == (f"={row.rank}" if row.shared else str(row.rank))
    for above, below in pairwise(ranked):
        if above.score == below.score:
            assert above.player < below.player  # level players in a steady order


@given(seasons)
def test_best_of_every_night_is_the_total(scores):
    by_total = season_rank(scores, method="total")
    by_best = season_rank(scores, method="best", best_of=6)
    assert [(r.player, r.rank_label) for r in by_best] == [(r.player, r.rank_label) for r in by_total]
