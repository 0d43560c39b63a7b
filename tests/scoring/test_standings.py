"""Standings: totals from the tally and ranking by the tie-break chain (total, then wins, then fewest conceded),
with head-to-head as a link where the organizer puts it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import (
    CONCEDED,
    DEFAULT_CHAIN,
    HEAD_TO_HEAD,
    METRICS,
    TOTAL,
    WINS,
    GameTally,
    Meeting,
    PlayerTotals,
    add_up,
    chain_from,
    head_to_head,
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
    # level players with no card number are shown in player id order
    assert _order(standings) == [5, 2, 7, 9]
    assert [s.rank for s in standings] == [1, 2, 2, 4]
    assert [s.rank_label for s in standings] == ["1", "=2", "=2", "4"]
    assert [s.shared for s in standings] == [False, True, True, False]
    assert standings[2].separated_by is None


def test_level_players_are_listed_by_their_cards_number_not_their_id():
    """The same night restored on the club's site has other player ids but the same card numbers: players level on
    every link are listed in one order on both."""
    laptop = [PlayerTotals(player, total=10, wins=1, number=card) for player, card in ((1, 7), (2, 3), (3, 5))]
    site = [PlayerTotals(player, total=10, wins=1, number=card) for player, card in ((40, 7), (12, 3), (25, 5))]
    assert [s.totals.number for s in rank(laptop)] == [3, 5, 7]
    assert [s.totals.number for s in rank(site)] == [3, 5, 7]
    # a player with no number yet comes after the numbered, by id
    mixed = rank([*laptop, PlayerTotals(0, total=10, wins=1)])
    assert [(s.totals.player, s.totals.number) for s in mixed] == [(2, 3), (3, 5), (1, 7), (0, None)]


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


def _rows(total: int, wins: int, conceded: int, min_size: int = 0, max_size: int = 40):
    """Players' totals drawn up to these highest values (few values: many players level)."""
    return st.lists(
        st.builds(
            _totals,
            player=st.integers(min_value=1, max_value=10_000),
            total=st.integers(min_value=0, max_value=total),
            wins=st.integers(min_value=0, max_value=wins),
            conceded=st.integers(min_value=0, max_value=conceded),
        ),
        min_size=min_size,
        max_size=max_size,
        unique_by=lambda row: row.player,
    )


player_rows = _rows(total=30, wins=4, conceded=30)


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


# Few values, so that players level on every link are common.
level_rows = _rows(total=3, wins=1, conceded=2, min_size=2, max_size=30)


@given(level_rows, st.randoms(use_true_random=False))
def test_the_order_does_not_depend_on_the_player_ids(rows, rng):
    """Give every player another id, keep their card's number: the standings read the same, row by row."""
    for card, row in enumerate(rows, start=1):
        row.number = card
    ids = rng.sample(range(1, 100_000), len(rows))
    relabelled = [
        PlayerTotals(new, total=row.total, wins=row.wins, conceded=row.conceded, number=row.number)
        for new, row in zip(ids, rows, strict=True)
    ]

    def read(standings):
        return [(s.rank_label, s.totals.number, s.separated_by) for s in standings]

    assert read(rank(relabelled)) == read(rank(rows))


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


# --- head-to-head -----------------------------------------------------------------------------------------------------

H2H_CHAIN = (TOTAL, HEAD_TO_HEAD, WINS, CONCEDED)


def _game(ns: tuple[int, ...], ew: tuple[int, ...], ns_points: int, ew_points: int) -> Meeting:
    return Meeting((ns, ew), (ns_points, ew_points), 0 if ns_points > ew_points else 1)


def test_head_to_head_is_a_chain_link_the_organizer_can_name():
    assert METRICS["h2h"] is HEAD_TO_HEAD
    assert chain_from(["total", "h2h", "wins"]) == (TOTAL, HEAD_TO_HEAD, WINS)


def test_head_to_head_splits_two_level_players_who_met():
    # 1 and 2 are level on total; 2 has more wins, but 1 beat 2 when they sat opposite each other.
    rows = [_totals(1, 30, wins=1), _totals(2, 30, wins=3), _totals(3, 10)]
    meetings = [_game((1, 7), (2, 8), 10, 6), _game((2, 3), (4, 5), 10, 2)]
    standings = rank(rows, H2H_CHAIN, meetings)
    assert _order(standings) == [1, 2, 3]
    assert [s.rank_label for s in standings] == ["1", "2", "3"]
    assert standings[1].separated_by == "head-to-head"


def test_head_to_head_falls_through_when_the_players_never_met():
    rows = [_totals(1, 30, wins=1), _totals(2, 30, wins=3)]
    meetings = [_game((1, 7), (5, 6), 10, 6), _game((2, 8), (5, 6), 10, 2)]  # partners or strangers, never opponents
    standings = rank(rows, H2H_CHAIN, meetings)
    assert _order(standings) == [2, 1]
    assert standings[1].separated_by == "games won"


def test_partners_do_not_meet():
    rows = [_totals(1, 30, wins=1), _totals(2, 30, wins=3)]
    standings = rank(rows, H2H_CHAIN, [_game((1, 2), (5, 6), 10, 6)])
    assert standings[1].separated_by == "games won"


def test_head_to_head_level_on_games_won_goes_to_the_points_margin():
    rows = [_totals(1, 30), _totals(2, 30)]
    meetings = [_game((1, 5), (2, 6), 10, 8), _game((2, 7), (1, 8), 10, 4)]  # one win each; 2 is +4 overall
    standings = rank(rows, H2H_CHAIN, meetings)
    assert _order(standings) == [2, 1]
    assert standings[1].separated_by == "head-to-head"


def test_head_to_head_level_in_every_way_falls_through():
    rows = [_totals(1, 30, wins=2), _totals(2, 30, wins=1)]
    meetings = [_game((1, 5), (2, 6), 10, 8), _game((2, 7), (1, 8), 10, 8)]
    standings = rank(rows, H2H_CHAIN, meetings)
    assert _order(standings) == [1, 2]
    assert standings[1].separated_by == "games won"


def test_three_level_players_need_to_have_all_met():
    rows = [_totals(1, 30, wins=1), _totals(2, 30, wins=2), _totals(3, 30, wins=3)]
    met_two = [_game((1, 9), (2, 8), 10, 2)]  # 3 met neither: head-to-head does not apply to the three
    assert _order(rank(rows, H2H_CHAIN, met_two)) == [3, 2, 1]
    all_met = [*met_two, _game((1, 9), (3, 8), 10, 2), _game((3, 9), (2, 8), 10, 9)]
    standings = rank(rows, H2H_CHAIN, all_met)
    # 1 won both of its games against them; 3 beat 2 once, 2 won none
    assert _order(standings) == [1, 3, 2]
    assert [s.separated_by for s in standings] == [None, "head-to-head", "head-to-head"]


def test_a_group_split_by_head_to_head_goes_on_down_the_chain():
    rows = [_totals(1, 30, wins=1), _totals(2, 30, wins=2), _totals(3, 30, wins=3, conceded=5)]
    # 1 and 3 each beat 2 by the same margin and drew level with each other: 1 and 3 go on to games won
    meetings = [
        _game((1, 9), (2, 8), 10, 5),
        _game((3, 9), (2, 8), 10, 5),
        _game((1, 9), (3, 8), 10, 5),
        _game((3, 9), (1, 8), 10, 5),
    ]
    standings = rank(rows, H2H_CHAIN, meetings)
    assert _order(standings) == [3, 1, 2]
    assert [s.separated_by for s in standings] == [None, "games won", "head-to-head"]


def test_head_to_head_reports_none_unless_every_pair_met():
    assert head_to_head([1, 2], [_game((1,), (3,), 1, 0)]) is None
    assert head_to_head([1, 2], [_game((1, 3), (2, 4), 10, 4)]) == {1: (1, 6), 2: (0, -6)}


# --- properties with head-to-head -----------------------------------------------------------------------------------

PER_PLAYER = {"total": TOTAL, "wins": WINS, "conceded": CONCEDED}


@st.composite
def nights_with_meetings(draw):
    rows = draw(
        st.lists(
            st.builds(
                _totals,
                player=st.integers(min_value=1, max_value=12),
                total=st.integers(min_value=0, max_value=4),
                wins=st.integers(min_value=0, max_value=2),
                conceded=st.integers(min_value=0, max_value=3),
            ),
            max_size=12,
            unique_by=lambda row: row.player,
        )
    )
    ids = [row.player for row in rows]
    meetings = []
    if len(ids) >= 2:
        for _ in range(draw(st.integers(0, 25))):
            table = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=4, unique=True))
            half = draw(st.integers(1, len(table) - 1))
            points = (draw(st.integers(0, 12)), draw(st.integers(0, 12)))
            winner = draw(st.integers(0, 1))
            meetings.append(Meeting((tuple(table[:half]), tuple(table[half:])), points, winner))
    keys = draw(st.lists(st.sampled_from(sorted(PER_PLAYER)), max_size=3, unique=True))
    position = draw(st.integers(0, len(keys)))
    links = [PER_PLAYER[key] for key in keys]
    chain = (*links[:position], HEAD_TO_HEAD, *links[position:])
    return rows, meetings, chain


def _reference_keys(rows, meetings, chain):
    """What the chain means, written the long way: the links before head-to-head, then head-to-head among the
    players level on all of those (when every two of them met), then the links after it."""
    at = chain.index(HEAD_TO_HEAD)
    before = {row.player: tuple(m.sort_value(row) for m in chain[:at]) for row in rows}
    after = {row.player: tuple(m.sort_value(row) for m in chain[at + 1 :]) for row in rows}
    h2h = {}
    for prefix in set(before.values()):
        group = [p for p in before if before[p] == prefix]
        met, score = set(), {p: [0, 0] for p in group}
        for m in meetings:
            for index in (0, 1):
                mine = [p for p in m.sides[index] if p in score]
                theirs = [p for p in m.sides[1 - index] if p in score]
                if mine and theirs:
                    for p in mine:
                        score[p][0] += m.winner == index
                        score[p][1] += m.points[index] - m.points[1 - index]
                    met |= {frozenset((a, b)) for a in mine for b in theirs}
        applies = len(group) > 1 and len(met) == len(group) * (len(group) - 1) // 2
        for p in group:
            h2h[p] = (-score[p][0], -score[p][1]) if applies else ()
    return {p: (before[p], h2h[p], after[p]) for p in before}


@given(nights_with_meetings(), st.randoms(use_true_random=False))
def test_rank_with_head_to_head_properties(night, rng):
    rows, meetings, chain = night
    standings = rank(rows, chain, meetings)
    # a total order of everyone, whatever order the rows and games come in
    assert sorted(_order(standings)) == sorted(row.player for row in rows)
    shuffled_rows, shuffled_meetings = list(rows), list(meetings)
    rng.shuffle(shuffled_rows)
    rng.shuffle(shuffled_meetings)
    assert rank(shuffled_rows, chain, shuffled_meetings) == standings
    # the order is exactly the chain read link by link, head-to-head among the players level before it
    keys = _reference_keys(rows, meetings, chain)
    assert _order(standings) == sorted(keys, key=lambda p: (keys[p], p))
    for index, standing in enumerate(standings):
        me = keys[standing.totals.player]
        level = [s for s in standings if keys[s.totals.player] == me]
        assert standing.shared == (len(level) > 1)
        assert standing.rank == 1 + sum(keys[s.totals.player] < me for s in standings)
        # the tie with the player above is put down to the first link that separates them
        if index == 0 or keys[standings[index - 1].totals.player] == me:
            assert standing.separated_by is None
            continue
        above = keys[standings[index - 1].totals.player]
        flat_above = [*above[0], above[1], *above[2]]
        flat_me = [*me[0], me[1], *me[2]]
        first = next(i for i, (a, b) in enumerate(zip(flat_above, flat_me, strict=True)) if a != b)
        assert standing.separated_by == (chain[first].label if first else None)


@given(player_rows)
def test_head_to_head_without_games_changes_nothing(rows):
    assert rank(rows, H2H_CHAIN) == rank(rows, (TOTAL, WINS, CONCEDED))
