"""The prize table and the organizer's tie-break chain, with cases written out and properties over random nights."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.prizes import award
from scoring.standings import AVERAGE_FIRST, PlayerTotals, chain_from, rank


def night(*rows: tuple[int, int, int, int, int]) -> list[PlayerTotals]:
    """(player, total, wins, loners made, best game)"""
    return [
        PlayerTotals(player=p, total=t, wins=w, loners_made=lo, best_game=b, games=10, per_round={1: b})
        for p, t, w, lo, b in rows
    ]


def winners(awards):
    return {a.key: a.winners for a in awards}


def test_places_low_and_loners_with_one_prize_each():
    rows = night((1, 70, 8, 3, 12), (2, 65, 7, 0, 9), (3, 60, 6, 1, 8), (4, 50, 4, 0, 7), (5, 40, 2, 2, 6))
    got = winners(award(rank(rows), ["high", "second", "third", "low", "loners"]))
    # Player 1 made the most loners but has the high score; 5 and 3 (next for loners) have prizes too, and
    # player 4 made none: nobody is left to take most loners.
    assert got == {"high": (1,), "second": (2,), "third": (3,), "low": (5,), "loners": ()}


def test_without_one_prize_each_a_player_may_take_two():
    rows = night((1, 70, 8, 3, 12), (2, 65, 7, 0, 9), (3, 40, 2, 0, 6))
    got = winners(award(rank(rows), ["high", "loners"], one_each=False))
    assert got == {"high": (1,), "loners": (1,)}


def test_most_loners_goes_to_the_next_in_line_when_the_leader_has_a_prize():
    rows = night((1, 70, 8, 3, 12), (2, 65, 7, 2, 9), (3, 40, 2, 0, 6))
    got = winners(award(rank(rows), ["high", "loners"]))
    assert got == {"high": (1,), "loners": (2,)}


def test_level_players_share_a_prize_as_a_tie():
    rows = night((1, 60, 5, 0, 9), (2, 60, 5, 0, 9), (3, 50, 4, 0, 8))
    awards = award(rank(rows), ["high", "second"])
    assert awards[0].winners == (1, 2) and awards[0].tie
    assert awards[1].winners == (3,)  # the next group down is second


def test_high_single_game():
    rows = night((1, 60, 5, 0, 9), (2, 50, 5, 0, 14), (3, 40, 4, 0, 8))
    assert winners(award(rank(rows), ["high", "high_game"]))["high_game"] == (2,)


def test_the_organizers_chain_and_the_final_draw():
    rows = night((1, 60, 5, 2, 9), (2, 60, 6, 0, 9), (3, 60, 6, 1, 9))
    by_loners = rank(rows, chain_from(["total", "loners"]))
    assert [s.totals.player for s in by_loners] == [1, 3, 2]
    assert by_loners[1].separated_by == "loners made"
    level = night((1, 60, 5, 0, 9), (2, 60, 5, 0, 9))
    shared = rank(level, chain_from(["total", "wins"]))
    assert [s.rank_label for s in shared] == ["=1", "=1"]
    drawn = rank(level, chain_from(["total", "wins"], draw_seed=7))
    assert [s.rank_label for s in drawn] == ["1", "2"] and drawn[1].separated_by == "a draw by the app"
    assert drawn == rank(level, chain_from(["total", "wins"], draw_seed=7))  # the same draw every time
    with pytest.raises(ValueError, match="Unknown tie-breaks: shoe size"):
        chain_from(["total", "shoe size"])


player_rows = st.lists(
    st.tuples(st.integers(0, 80), st.integers(0, 10), st.integers(0, 3), st.integers(0, 16)), min_size=1, max_size=40
)
prize_lists = st.lists(st.sampled_from(["high", "second", "third", "low", "loners", "high_game"]), max_size=6)


@given(player_rows, prize_lists, st.integers(0, 10_000))
def test_one_prize_each_never_gives_anyone_two(rows, prizes, seed):
    totals = night(*[(i, *row) for i, row in enumerate(rows, start=1)])
    standings = rank(totals, chain_from(["total", "wins"], draw_seed=seed))
    given_out = [p for a in award(standings, prizes, one_each=True) for p in a.winners]
    assert len(given_out) == len(set(given_out))


@given(player_rows, st.integers(0, 10_000))
def test_with_the_draw_the_order_is_total_stable_and_split_by_the_first_differing_link(rows, seed):
    totals = night(*[(i, *row) for i, row in enumerate(rows, start=1)])
    chain = chain_from(["total", "wins", "loners"], draw_seed=seed)
    standings = rank(totals, chain)
    assert [s.rank for s in standings] == list(range(1, len(standings) + 1))  # total: no shared ranks
    assert rank(list(reversed(totals)), chain) == standings  # stable whatever the input order
    for above, below in itertools.pairwise(standings):
        first = next(m for m in chain if m.sort_value(above.totals) != m.sort_value(below.totals))
        assert below.separated_by == (None if first is chain[0] else first.label)


def test_high_score_within_a_category():
    rows = night((1, 70, 8, 0, 12), (2, 65, 7, 0, 9), (3, 60, 6, 0, 8), (4, 50, 4, 0, 7))
    categories = {1: "Lady", 2: "man", 3: "lady", 4: "man"}
    got = winners(award(rank(rows), ["high", "high:lady", "high:man"], categories=categories))
    assert got == {"high": (1,), "high:lady": (3,), "high:man": (2,)}  # player 1 already has the high score
    labels = [a.label for a in award(rank(rows), ["high:lady"], categories=categories)]
    assert labels == ["High score, lady"]


def test_the_low_score_goes_to_a_player_who_played_every_game_unless_the_night_says_everyone():
    played = night((1, 70, 8, 3, 12), (2, 41, 3, 0, 9), (3, 45, 4, 0, 8))
    sat_out = PlayerTotals(player=4, total=30, wins=3, games=9, byes=1, per_round={1: 0}, bye_rounds={1})
    late = PlayerTotals(player=5, total=12, wins=1, games=2, per_round={9: 6, 10: 6})
    ranked = rank([*played, sat_out, late])
    assert winners(award(ranked, ["low"])) == {"low": (2,)}  # the lowest of those who played all ten games
    assert winners(award(ranked, ["low_all"])) == {"low_all": (5,)}  # the organizer's choice: everyone counts


def test_a_bye_reads_as_a_bye():
    totals = PlayerTotals(player=1, per_round={1: 0, 2: 6, 3: 4}, bye_rounds={1, 3})
    assert [totals.game_cell(n) for n in (1, 2, 3, 4)] == ["bye", "6", "bye +4", "–"]


WINS_FIRST = chain_from(["wins", "total", "conceded"])


def test_on_a_night_ranked_by_wins_the_champion_and_the_high_score_are_different_prizes():
    # Player 1 won the most games; player 3 has the most points. (player, total, wins, loners, best game)
    rows = night((1, 46, 5, 0, 10), (2, 44, 4, 0, 9), (3, 48, 3, 1, 12), (4, 30, 1, 0, 6))
    awards = award(rank(rows, WINS_FIRST), ["champion", "second", "third", "high"], ranked_by="wins")
    assert winners(awards) == {"champion": (1,), "second": (2,), "third": (3,), "high": (4,)}  # one prize each
    assert awards[0].label == "Champion (most games won)" and awards[0].value == "5 games won, 46 points"
    awards = award(rank(rows, WINS_FIRST), ["champion", "high", "second"], ranked_by="wins")
    assert winners(awards) == {"champion": (1,), "high": (3,), "second": (2,)}
    assert awards[1].label == "High score" and awards[1].value == "48 points"
    # Without one prize each the places are the standings' places, and the high score the most points.
    awards = award(rank(rows, WINS_FIRST), ["high", "second", "third"], one_each=False, ranked_by="wins")
    assert winners(awards) == {"high": (3,), "second": (2,), "third": (3,)}


def test_on_a_night_ranked_by_points_high_is_first_place_and_the_champion_the_most_wins():
    rows = night((1, 46, 5, 0, 10), (2, 44, 6, 0, 9), (3, 48, 3, 1, 12), (4, 30, 6, 0, 6))
    awards = award(rank(rows), ["high", "second", "champion"])
    # 3 has the most points (first place); 2 and 4 won six games each, 2 placed higher (44 points to 30).
    assert winners(awards) == {"high": (3,), "second": (1,), "champion": (2,)}
    assert awards[2].value == "6 games won, 44 points"


@given(
    rows=st.lists(st.tuples(st.integers(0, 90), st.integers(0, 10)), min_size=2, max_size=12),
    one_each=st.booleans(),
)
def test_the_champion_has_the_most_wins_and_the_high_score_the_most_points(rows, one_each):
    totals = night(*((p, t, w, 0, 1) for p, (t, w) in enumerate(rows, start=1)))
    ranked = rank(totals, WINS_FIRST)
    for prizes in (["champion", "high"], ["high", "champion"]):
        got = {a.key: a for a in award(ranked, prizes, one_each=one_each, ranked_by="wins")}
        by_player = {t.player: t for t in totals}
        taken = set(got[prizes[0]].winners) if one_each else set()
        for key, count in (("champion", lambda t: t.wins), ("high", lambda t: t.total)):
            pool = [t for t in totals if key == prizes[0] or t.player not in taken]
            if not pool:
                continue
            most = max(count(t) for t in pool)
            assert got[key].winners and all(count(by_player[p]) == most for p in got[key].winners)


def test_a_categorys_high_score_on_a_night_ranked_by_wins_is_its_most_points():
    rows = night((1, 46, 5, 0, 10), (2, 44, 4, 0, 9), (3, 48, 3, 1, 12), (4, 30, 1, 0, 6))
    ladies = {2: "lady", 3: "lady", 1: "man", 4: "man"}
    got = award(rank(rows, WINS_FIRST), ["high:lady", "high:man"], categories=ladies, ranked_by="wins")
    assert winners(got) == {"high:lady": (3,), "high:man": (1,)}  # 48 points, though 2 won more games
    assert [a.value for a in got] == ["48 points", "46 points"]
    by_points = award(rank(rows), ["high:lady"], categories=ladies)
    assert winners(by_points) == {"high:lady": (3,)}


def test_a_place_says_the_figure_its_ranking_gave_it_not_the_points_alone():
    """Ranked by average per game (players of different games played), the places and the low score say each
    winner's average as the standings show it, then their points; ranked by points, the points alone."""
    rows = [
        PlayerTotals(player=1, total=60, wins=4, games=4),  # the most points a game
        PlayerTotals(player=2, total=70, wins=5, games=6),  # the most points, fewer a game
        PlayerTotals(player=3, total=29, wins=1, games=3),
        PlayerTotals(player=4, total=40, wins=2, games=6),  # the fewest a game among those with the most games
    ]
    by_average = {a.key: a for a in award(rank(rows, AVERAGE_FIRST), ["high", "second", "low"], ranked_by="average")}
    for key, player in (("high", 1), ("second", 2), ("low", 4)):
        totals = rows[player - 1]
        assert by_average[key].winners == (player,)
        assert by_average[key].value == f"average per game {totals.total / totals.games:.2f}, {totals.total} points"
    by_points = {a.key: a for a in award(rank(rows), ["high", "low"])}
    assert by_points["high"].value == "70 points" and by_points["low"].value == "40 points"


def test_a_prize_says_one_point_not_one_points():
    """A trial's low score read "1 points" on the page and the prize sheet."""
    rows = night((1, 12, 2, 0, 9), (2, 1, 0, 0, 1), (3, 5, 1, 0, 5), (4, 4, 1, 0, 4))
    values = {a.key: a.value for a in award(rank(rows), ["high", "second", "low", "high_game"])}
    assert values == {"high": "12 points", "second": "5 points", "low": "1 point", "high_game": "4 points in one game"}
    single = night((1, 1, 0, 0, 1))
    assert award(rank(single), ["high_game"])[0].value == "1 point in one game"
