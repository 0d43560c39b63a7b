"""Tables of three: a third answer to "not a multiple of four", beside byes and a house player.

Issue #19: "one to three tables of three (placed at the tail by default, so the head table is always four) … and
every movement knowing how to move players through a table of three." The Euchre article's three-player section
(shared/seeds/001): "The player will now play alone against the other two players, who will play as partners for
this hand … Each player keeps their own score." So a table of three has no partnerships, and its game leaves an
order of its three players by points rather than a winning side.

The rules here: 13, 14 and 15 players make one, two and three short tables... precisely: 13 = 4 + 3 + 3 + 3,
14 = 4 + 4 + 3 + 3, 15 = 4 + 4 + 4 + 3; nobody sits out whenever a mix of fours and threes makes the head count
(everything from 6 up). Five players cannot be seated so: one table of four and a bye.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.movements import MOVEMENTS, progressive, progressive_down, seat_rotation, winners_stay
from tournament.engine.roster import opening, plan_round, table_sizes
from tournament.engine.types import SIDES, SeatingError, Table

SPLIT_MOVEMENTS = ["progressive", "progressive-down", "winners-stay", "seat-rotation"]
ALL_MOVEMENTS = [*SPLIT_MOVEMENTS, "fixed-partners"]  # rotation charts: tests/tournament/engine/test_rotation_threes.py


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (4, [4]),
        (5, [4]),  # five: a bye, no mix of fours and threes makes five
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (15, [4, 4, 4, 3]),
        (16, [4, 4, 4, 4]),
        (601, [4] * 148 + [3] * 3),
    ],
)
def test_table_sizes_put_the_tables_of_three_at_the_tail(players, sizes):
    assert table_sizes(players, threes=True) == sizes
    assert sum(sizes) == players or players == 5


def test_without_threes_the_sizes_are_fours_and_the_rest_sit_out():
    assert table_sizes(15, threes=False) == [4, 4, 4]


def test_a_table_of_three_has_no_partnerships():
    table = Table.of_three(4, [7, 8, 9])
    assert table.three and table.players == (7, 8, 9) and table.seats == {"N": 7, "E": 8, "S": 9}
    with pytest.raises(SeatingError, match="no partnerships"):
        table.pair("NS")
    with pytest.raises(SeatingError, match="needs three players"):
        Table.of_three(1, [1, 2])


@pytest.mark.parametrize("count", [13, 14, 15])
def test_the_opening_draw_seats_everyone_with_no_byes(count):
    plan = opening(set(range(1, count + 1)), seed=3, threes=True)
    assert plan.byes == ()
    assert [len(t.players) for t in plan.tables] == table_sizes(count, True)
    assert sorted(p for t in plan.tables for p in t.players) == list(range(1, count + 1))
    assert not plan.tables[0].three


def test_fixed_partners_move_the_tables_of_four_and_leave_the_tables_of_three_to_the_seating():
    """Pairs move head/tail among the tables of four: at table 1 N-S (1 & 3) win and stay, E-W (2 & 4) go to the
    tail table of four (2); at table 2 N-S (5 & 7) win and move up. Table 3, of three, is passed on as it was:
    who plays there next is the seating's choice by turns."""
    tables = [Table(1, 1, 2, 3, 4), Table(2, 5, 6, 7, 8), Table.of_three(3, [9, 10, 11])]
    after = MOVEMENTS["fixed-partners"](tables, {1: "NS", 2: "NS", 3: (9, 10, 11)})
    assert {frozenset(after[0].pair("NS")), frozenset(after[0].pair("EW"))} == {frozenset((1, 3)), frozenset((5, 7))}
    assert {frozenset(after[1].pair("NS")), frozenset(after[1].pair("EW"))} == {frozenset((2, 4)), frozenset((6, 8))}
    assert after[2] == tables[2]


def test_fixed_partners_take_turns_apart_at_the_tables_of_three():
    """14 players, 7 pairs: two tables of four hold four pairs, the other three pairs play apart at the two tables
    of three (4 + 4 + 3 + 3), each partner at a different table. Next game the three pairs that were apart are
    back at the tables of four and three others take their turn: nobody at a table of three twice running here
    (four pairs were at the fours, three are needed)."""
    pairs = {1: 2, 3: 4, 5: 6, 7: 8, 9: 10, 11: 12, 13: 14}
    partners = pairs | {b: a for a, b in pairs.items()}
    plan = plan_round([], present=set(range(1, 15)), bye_counts={}, seed=4, partners=partners, threes=True)
    assert plan.byes == () and [len(t.players) for t in plan.tables] == [4, 4, 3, 3]
    assert plan.partners == partners
    apart = [t for t in plan.tables if t.three]
    for table in apart:
        assert not {partners[p] for p in table.players} & set(table.players)  # partners at the other table
    for table in plan.tables[:2]:
        assert all(partners[a] == b for a, b in (table.pair("NS"), table.pair("EW")))
    first_apart = {p for t in apart for p in t.players}
    proposed = MOVEMENTS["fixed-partners"](
        list(plan.tables), {1: "NS", 2: "EW", 3: apart[0].players, 4: apart[1].players}
    )
    counts = {p: int(p in first_apart) for p in range(1, 15)}
    after = plan_round(
        proposed,
        present=set(range(1, 15)),
        bye_counts=dict.fromkeys(range(1, 15), 0),
        seed=5,
        partners=plan.partners,
        threes=True,
        three_counts=counts,
        at_three_last=first_apart,
    )
    assert after.partners == partners and after.byes == ()
    now_apart = {p for t in after.tables if t.three for p in t.players}
    assert len(now_apart) == 6 and not now_apart & first_apart
    assert first_apart <= {p for t in after.tables if not t.three for p in t.players}


def test_with_fixed_partners_the_odd_one_out_plays_at_a_table_of_three_and_needs_no_house_player():
    """15 players: seven pairs and one without a partner. 4 + 4 + 4 + 3: the single and one pair (together, as
    opponents: there is only one table of three) at the table of three."""
    plan = plan_round([], present=set(range(1, 16)), bye_counts={}, seed=2, partners={}, threes=True)
    assert plan.byes == () and [len(t.players) for t in plan.tables] == [4, 4, 4, 3]
    three = plan.tables[3]
    single = set(range(1, 16)) - set(plan.partners or {})
    assert len(single) == 1 and single <= set(three.players)


# --- each movement through a table of three, written out ----------------------------------------------------------

# 14 players: tables 1 and 2 of four, 3 and 4 of three. Winners NS everywhere; at a table of three the first
# listed has the most points.
FOURTEEN = [Table(1, 1, 2, 3, 4), Table(2, 5, 6, 7, 8), Table.of_three(3, [9, 10, 11]), Table.of_three(4, [12, 13, 14])]
RESULTS = {1: "NS", 2: "NS", 3: (11, 10, 9), 4: (12, 14, 13)}


def _by_table(tables):
    return {t.number: set(t.players) for t in tables}


def test_progressive_moves_the_top_two_of_a_table_of_three_up_and_keeps_the_third():
    # Head: winners 1, 3 stay, table 2's winners 5, 7 arrive. Table 2: losers 6, 8 stay, table 3's top two (11, 10)
    # arrive. Table 3: its third (9) stays, table 4's top two (12, 14) arrive. Table 4 (tail): its third (13) stays,
    # the head's losers (2, 4) arrive.
    after = progressive(FOURTEEN, RESULTS)
    assert _by_table(after) == {1: {1, 3, 5, 7}, 2: {6, 8, 11, 10}, 3: {9, 12, 14}, 4: {13, 2, 4}}
    assert [len(t.players) for t in after] == [4, 4, 3, 3]
    assert after[2].seats == {"N": 9, "E": 12, "S": 14}  # the one who stays first


def test_winners_stay_keeps_the_winner_of_a_table_of_three_and_sends_the_other_two_down():
    # Winners stay; losing pairs move down one table, the tail's to the head. At a table of three the winner stays
    # and the other two are its losing pair.
    after = winners_stay(FOURTEEN, RESULTS)
    assert _by_table(after) == {1: {1, 3, 14, 13}, 2: {5, 7, 2, 4}, 3: {11, 6, 8}, 4: {12, 10, 9}}
    assert [len(t.players) for t in after] == [4, 4, 3, 3]


def test_progressive_down_keeps_every_table_at_its_size():
    # Head: winners 1, 3 stay, table 2's winners 5, 7 arrive. Table 2 meets table 3's top two (11, 10) and the
    # head's losers (2, 4). Table 3 would meet table 4's top two (12, 14) and table 2's losers (6, 8): four at a
    # table of three, so its last arrival (8) takes the seat the tail is short. Tail: its third (13) stays, table
    # 3's third (9) arrives, and 8.
    after = progressive_down(FOURTEEN, RESULTS)
    assert _by_table(after) == {1: {1, 3, 5, 7}, 2: {11, 10, 2, 4}, 3: {12, 14, 6}, 4: {13, 9, 8}}


def test_seat_rotation_keeps_every_table_at_its_size():
    after = seat_rotation(FOURTEEN)
    assert [len(t.players) for t in after] == [4, 4, 3, 3]
    assert sorted(p for t in after for p in t.players) == list(range(1, 15))
    # North stays at a table of four. A table of three has no West, so the Wests moving up two leave tables 1 and 2
    # short and overfill 3 and 4: there the North who would have stayed (9, 12) takes the empty seat.
    assert [t.n for t in after[:2]] == [1, 5]
    assert {9, 12} <= set(after[0].players) | set(after[1].players)


# --- whole nights: every movement, arrivals and departures, no byes ----------------------------------------------


def _outcomes(tables, rng):
    result = {}
    for table in tables:
        if table.three:
            order = list(table.players)
            rng.shuffle(order)
            result[table.number] = tuple(order)
        else:
            result[table.number] = rng.choice(SIDES)
    return result


def _play_night(movement: str, count: int, games: int, seed: int, churn: bool) -> list[tuple[int, ...]]:
    """Play a night in the engine; return each game's table sizes, checking every game on the way. Under fixed
    partners, also that every pair at a table of four is a pair of the night (kept since the opening, or, after
    someone left, formed from two players without one), and that partners apart sit at different tables of three
    where there are two or more."""
    rng = random.Random(seed)
    present = set(range(1, count + 1))
    next_id = count + 1
    by_pairs = movement == "fixed-partners"
    plan = opening(present, seed=seed, threes=True, by_pairs=by_pairs)
    bye_counts = dict.fromkeys(present, 0)
    three_counts = dict.fromkeys(present, 0)
    shapes = []
    pairs_before: dict[int, int] = dict(plan.partners or {})
    for game in range(games):
        if by_pairs:
            partners = plan.partners or {}
            for p, q in partners.items():
                assert partners[q] == p
                assert pairs_before.get(p, q) == q or pairs_before.get(p) not in present or p not in pairs_before
            for table in plan.tables:
                if table.three:
                    if sum(t.three for t in plan.tables) > 1:
                        assert not {partners.get(p) for p in table.players} & set(table.players)
                else:
                    assert all(partners[a] == b for a, b in (table.pair("NS"), table.pair("EW")))
            pairs_before = dict(partners)
        last_three = {p for t in plan.tables if t.three for p in t.players}
        for p in last_three:
            three_counts[p] = three_counts.get(p, 0) + 1
        seated = [p for t in plan.tables for p in t.players]
        assert len(seated) == len(set(seated)), f"game {game + 1}: someone seated twice"
        assert set(seated) | set(plan.byes) == present
        sizes = table_sizes(len(present), True)
        assert [len(t.players) for t in plan.tables] == sizes, f"game {game + 1}: {[t.players for t in plan.tables]}"
        assert len(plan.byes) == len(present) - sum(sizes)
        assert all(t.w is None for t in plan.tables if len(t.players) == 3)
        shapes.append(tuple(sizes))
        for p in plan.byes:
            bye_counts[p] += 1
        proposed = MOVEMENTS[movement](list(plan.tables), _outcomes(plan.tables, rng))
        if churn and rng.random() < 0.4:
            if rng.random() < 0.5 and len(present) > 7:
                present.discard(rng.choice(sorted(present)))
            else:
                present.add(next_id)
                next_id += 1
        plan = plan_round(
            proposed,
            present=present,
            bye_counts={p: bye_counts.get(p, 0) for p in present if p in bye_counts},
            sat_out_last=plan.byes,
            seed=seed + game + 1,
            threes=True,
            partners=plan.partners if by_pairs else None,
            three_counts={p: three_counts[p] for p in present if p in three_counts},
            at_three_last=last_three,
        )
    return shapes


@pytest.mark.parametrize("movement", ALL_MOVEMENTS)
@pytest.mark.parametrize("count", [13, 14, 15])
def test_thirteen_fourteen_fifteen_players_play_a_night_with_no_byes(movement, count):
    shapes = _play_night(movement, count, games=8, seed=count, churn=False)
    assert all(shape == tuple(table_sizes(count, True)) for shape in shapes)


@given(
    movement=st.sampled_from(ALL_MOVEMENTS),
    count=st.integers(min_value=6, max_value=70),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_any_night_with_players_coming_and_going_seats_everyone(movement, count, seed):
    _play_night(movement, count, games=6, seed=seed, churn=True)


def test_seat_rotation_keeps_nobody_at_a_table_of_three_all_night():
    """North stays put under seat rotation; at a table of three whoever stayed takes South and moves on."""
    present = set(range(1, 15))
    plan = opening(present, seed=5, threes=True)
    at_three: dict[int, int] = dict.fromkeys(present, 0)
    for game in range(8):
        for table in plan.tables:
            for p in table.players:
                at_three[p] += table.three
        plan = plan_round(seat_rotation(list(plan.tables)), present=present, bye_counts={}, seed=game, threes=True)
    assert sum(at_three.values()) == 8 * 6
    assert max(at_three.values()) < 8
