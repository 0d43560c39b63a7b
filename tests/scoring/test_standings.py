"""Standings: totals from the tally and ranking by the tie-break chain (total, then wins, then fewest conceded)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import (
    CONCEDED,
    DEFAULT_CHAIN,
    TOTAL,
    WINS,
    GameTally,
    PlayerTotals,
    add_up,
    rank,
)


def _totals(player: int, total: int, wins: int = 0, conceded: int = 0) -> PlayerTotals:
    return PlayerTotals(player=player, total=total, wins=wins, conceded=conceded)


def _order(standings) -> list[int]:
    return [s.totals.player for s in standings]


# --- add_up -----------------------------------------------------------------------------------------------------------


def test_add_up_sums_each_players_games():
    tallies = [
        GameTally(player=1, round=1, points=10, conceded=6, won=True),
        GameTally(player=1, round=2, points=7, conceded=10, won=False),
        GameTally(player=2, round=1, points=6, conceded=10, won=False),
        GameTally(player=1, round=3, points=10, conceded=2, won=True),
    ]
    totals = add_up(tallies)
    assert totals[1] == PlayerTotals(
        player=1, total=27, wins=2, conceded=18, games=3, best_game=10, per_round={1: 10, 2: 7, 3: 10}
    )
    assert totals[2] == PlayerTotals(player=2, total=6, wins=0, conceded=10, games=1, best_game=6, per_round={1: 6})


def test_add_up_lists_players_without_games_with_zeros():
    totals = add_up([GameTally(player=1, round=1, points=4, conceded=10, won=False)], players=[1, 2, 3])
    assert set(totals) == {1, 2, 3}
    assert totals[2] == PlayerTotals(player=2)
    assert totals[3].total == totals[3].wins == totals[3].conceded == totals[3].games == 0
    assert totals[1].total == 4


def test_add_up_with_nothing():
    assert add_up([]) == {}


# --- rank -------------------------------------------------------------------------------------------------------------


def test_default_chain_is_total_then_wins_then_fewest_conceded():
    assert DEFAULT_CHAIN == (TOTAL, WINS, CONCEDED)


def test_rank_orders_by_total_first():
    standings = rank([_totals(1, 20, wins=0), _totals(2, 35, wins=1), _totals(3, 28, wins=5)])
    assert _order(standings) == [2, 3, 1]
    assert [s.rank for s in standings] == [1, 2, 3]
    assert [s.rank_label for s in standings] == ["1", "2", "3"]
    assert all(s.separated_by is None for s in standings)
    assert not any(s.shared for s in standings)


def test_tie_on_total_split_by_wins():
    standings = rank([_totals(1, 30, wins=2, conceded=0), _totals(2, 30, wins=4, conceded=99)])
    assert _order(standings) == [2, 1]
    assert [s.rank_label for s in standings] == ["1", "2"]
    assert standings[0].separated_by is None
    assert standings[1].separated_by == WINS.label == "games won"


def test_tie_on_total_and_wins_split_by_fewest_conceded():
    standings = rank([_totals(1, 30, wins=3, conceded=40), _totals(2, 30, wins=3, conceded=25)])
    assert _order(standings) == [2, 1]
    assert [s.rank for s in standings] == [1, 2]
    assert standings[1].separated_by == CONCEDED.label == "fewest points conceded"


def test_separated_by_is_none_when_totals_differ():
    standings = rank([_totals(1, 31, wins=0, conceded=99), _totals(2, 30, wins=9, conceded=0)])
    assert _order(standings) == [1, 2]
    assert standings[1].separated_by is None


def test_fully_level_players_share_the_rank():
    standings = rank(
        [
            _totals(5, 40, wins=5, conceded=20),
            _totals(7, 33, wins=3, conceded=30),
            _totals(2, 33, wins=3, conceded=30),
            _totals(9, 20, wins=1, conceded=50),
        ]
    )
    # level players are shown in player id order
    assert _order(standings) == [5, 2, 7, 9]
    assert [s.rank for s in standings] == [1, 2, 2, 4]
    assert [s.rank_label for s in standings] == ["1", "=2", "=2", "4"]
    assert [s.shared for s in standings] == [False, True, True, False]
    assert standings[2].separated_by is None


def test_everyone_level_shares_first():
    standings = rank([_totals(p, 10, wins=1, conceded=10) for p in (3, 1, 2)])
    assert _order(standings) == [1, 2, 3]
    assert [s.rank_label for s in standings] == ["=1", "=1", "=1"]
    assert all(s.separated_by is None for s in standings)


def test_level_on_total_only_is_not_shared():
    standings = rank([_totals(1, 10, wins=1), _totals(2, 10, wins=2)])
    assert [s.rank_label for s in standings] == ["1", "2"]


def test_custom_chain_total_only_shares_ties_on_total():
    standings = rank([_totals(1, 10, wins=1), _totals(2, 10, wins=2), _totals(3, 8)], chain=[TOTAL])
    assert [s.rank_label for s in standings] == ["=1", "=1", "3"]


def test_rank_of_nobody():
    assert rank([]) == []


def test_one_player_is_first_alone():
    [only] = rank([_totals(4, 0)])
    assert (only.rank, only.shared, only.rank_label, only.separated_by) == (1, False, "1", None)


def test_rank_from_add_up():
    tallies = [
        GameTally(1, 1, 10, 4, True),
        GameTally(2, 1, 10, 4, True),
        GameTally(3, 1, 4, 10, False),
        GameTally(4, 1, 4, 10, False),
        GameTally(1, 2, 8, 10, False),
        GameTally(3, 2, 10, 8, True),
        GameTally(2, 2, 10, 9, True),
        GameTally(4, 2, 9, 10, False),
    ]
    standings = rank(add_up(tallies).values())
    assert _order(standings) == [2, 1, 3, 4]
    assert [s.totals.total for s in standings] == [20, 18, 14, 13]


# --- properties -------------------------------------------------------------------------------------------------------

player_rows = st.lists(
    st.builds(
        _totals,
        player=st.integers(min_value=1, max_value=10_000),
        total=st.integers(min_value=0, max_value=30),
        wins=st.integers(min_value=0, max_value=4),
        conceded=st.integers(min_value=0, max_value=30),
    ),
    max_size=40,
    unique_by=lambda row: row.player,
)


@settings(max_examples=200, deadline=None)
@given(player_rows)
def test_rank_properties(rows):
    standings = rank(rows)
    assert sorted(_order(standings)) == sorted(row.player for row in rows)

    ranks = [s.rank for s in standings]
    assert ranks == sorted(ranks)
    if standings:
        assert ranks[0] == 1

    by_player = {s.totals.player: s for s in standings}
    for a in rows:
        for b in rows:
            if a.total > b.total:
                assert by_player[a.player].rank < by_player[b.player].rank

    def key(row):
        return (-row.total, -row.wins, row.conceded)

    for index, standing in enumerate(standings):
        level = [s for s in standings if key(s.totals) == key(standing.totals)]
        # shared exactly when someone else is level on the whole chain; level players share one rank
        assert standing.shared == (len(level) > 1)
        assert {s.rank for s in level} == {standing.rank}
        # competition ranking: a rank is one more than the number of players strictly ahead
        assert standing.rank == 1 + sum(key(s.totals) < key(standing.totals) for s in standings)
        assert standing.rank_label == (f"={standing.rank}" if standing.shared else str(standing.rank))
        if index == 0:
            assert standing.separated_by is None
        else:
            above = standings[index - 1].totals
            if above.total != standing.totals.total or key(above) == key(standing.totals):
                assert standing.separated_by is None
            elif above.wins != standing.totals.wins:
                assert standing.separated_by == WINS.label
            else:
                assert standing.separated_by == CONCEDED.label


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.builds(
            GameTally,
            player=st.integers(1, 12),
            round=st.integers(1, 10),
            points=st.integers(0, 15),
            conceded=st.integers(0, 15),
            won=st.booleans(),
        ),
        max_size=60,
    )
)
def test_add_up_totals_match_the_tallies(tallies):
    totals = add_up(tallies)
    assert set(totals) == {t.player for t in tallies}
    for player, row in totals.items():
        mine = [t for t in tallies if t.player == player]
        assert row.total == sum(t.points for t in mine)
        assert row.conceded == sum(t.conceded for t in mine)
        assert row.wins == sum(t.won for t in mine)
        assert row.games == len(mine)
