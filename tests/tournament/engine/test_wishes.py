"""Partner wishes in the pure engine: what a wish costs, the draw's partnerships, the pairing at a table, the
byes, rotation charts, and the judging of every game (`wishes.audit`).

Issue #20: "never-partner pairs, always-partner pairs (couples' nights), and a two-group rule (every partnership
one player from each group). The opening draw honours them; every movement and the byes honour them where the
movement leaves a choice […], and report when a movement's own rule forces a breach; rotation charts are built so
that the wishes hold." Done when: "In 100 simulated nights per movement with random never-partner pairs (5% of
players) and a two-group rule on balanced groups, the opening draw and the rotation charts breach nothing, and
every breach a movement makes is one its rules forced."
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine import rotation
from tournament.engine.movements import KEEPS_PARTNERS, MOVEMENTS, WISH_RULES
from tournament.engine.roster import opening, plan_round
from tournament.engine.types import SIDES, Table
from tournament.engine.wishes import (
    WishError,
    Wishes,
    audit,
    last_partnerships,
    least_same_group,
    pair_up,
    pairings,
    settle,
)


def _pairs(*pairs) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for pair in pairs)


def _partners(tables) -> set[frozenset[int]]:
    return last_partnerships(tables)


# --- what a partnership costs -------------------------------------------------------------------------------------


def test_cost_counts_each_wish_a_partnership_breaks():
    wishes = Wishes(never=_pairs((1, 2)), always=_pairs((3, 4)), groups={1: "lady", 2: "lady", 5: "man", 3: "man"})
    assert wishes.cost(1, 2) == 2  # asked never to partner, and both ladies
    assert wishes.cost(1, 5) == 0  # a lady and a man
    assert wishes.cost(3, 4) == 0  # the couple together
    assert wishes.cost(3, 5) == 2  # both men, and 3 is not with 4
    assert wishes.cost(4, 6) == 1  # 4 is not with 3; 6 has no group
    assert wishes.cost(6, 7) == 0
    assert not Wishes()
    assert Wishes(groups={1: "a"})


def test_contradicting_wishes_are_refused():
    with pytest.raises(WishError, match="two always-partner pairs"):
        Wishes(always=_pairs((1, 2), (2, 3)))
    with pytest.raises(WishError, match="both to partner and never"):
        Wishes(never=_pairs((1, 2)), always=_pairs((1, 2)))


def test_least_same_group_is_the_imbalance_halved():
    groups = {p: "a" for p in range(1, 7)} | {p: "b" for p in range(7, 9)}  # six a, two b
    assert least_same_group(range(1, 9), Wishes(groups=groups)) == 2  # 4 a left over: two a-a partnerships
    assert least_same_group(range(1, 11), Wishes(groups=groups)) == 1  # players 9, 10 have no group
    assert least_same_group([1, 2, 7, 8], Wishes(groups=groups)) == 0


# --- the draw's partnerships ---------------------------------------------------------------------------------------


@given(
    count=st.integers(min_value=6, max_value=80).map(lambda n: 2 * n),  # 12 or more: every draw can keep them
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_pair_up_keeps_balanced_groups_and_never_pairs(count, seed):
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    groups = {p: "lady" if p % 2 else "man" for p in players}
    never = _pairs(*(rng.sample(players, 2) for _ in range(max(1, count // 20))))
    always = _pairs((1, 2)) if frozenset((1, 2)) not in never else frozenset()
    wishes = Wishes(never=never, always=always, groups=groups)
    pairs, odd = pair_up(players, wishes, random.Random(seed))
    assert odd is None
    assert sorted(p for pair in pairs for p in pair) == players
    assert sum(wishes.cost(a, b) for a, b in pairs) == 0


def test_pair_up_with_unequal_groups_breaks_only_what_it_must():
    groups = {p: "a" for p in range(1, 9)} | {p: "b" for p in range(9, 13)}  # eight a, four b
    wishes = Wishes(groups=groups)
    pairs, _ = pair_up(range(1, 13), wishes, random.Random(3))
    assert sum(wishes.cost(a, b) for a, b in pairs) == least_same_group(range(1, 13), wishes) == 2


# --- the pairing at a table (split movements) -------------------------------------------------------------------


def test_settle_re_pairs_a_table_the_movement_left_free():
    # Last game 1 partnered 2 and 3 partnered 4. Now N 1, S 3 are partners and 1 and 3 must never partner:
    # the other split (1 with 4, 2 with 3) breaks nothing. Only the arrivals change seats.
    table = Table(1, n=1, e=2, s=3, w=4)
    last = {frozenset((1, 2)), frozenset((3, 4))}
    [after] = settle([table], Wishes(never=_pairs((1, 3))), last)
    assert {frozenset(after.pair("NS")), frozenset(after.pair("EW"))} == {frozenset((1, 4)), frozenset((2, 3))}
    assert sum(after.seats[s] != table.seats[s] for s in "NESW") == 2


def test_settle_never_puts_last_games_partners_together_again():
    table = Table(1, n=1, e=2, s=3, w=4)
    last = {frozenset((1, 2)), frozenset((3, 4))}
    # Both splits break a wish: 1-3 and 1-4 never. The table stays as the movement seated it.
    wishes = Wishes(never=_pairs((1, 3), (1, 4)))
    assert settle([table], wishes, last) == [table]
    [breach] = audit(2, [table], wishes, rule="split", last=last)
    assert breach.forced and breach.players == (1, 3) and breach.kind == "never"


def test_audit_calls_an_avoidable_breach_unforced():
    table = Table(3, n=1, e=2, s=3, w=4)
    last = {frozenset((1, 2)), frozenset((3, 4))}
    [breach] = audit(5, [table], Wishes(never=_pairs((1, 3))), rule="split", last=last)
    assert (breach.game, breach.table, breach.forced) == (5, 3, False)


def test_audit_by_rule():
    table = Table(1, n=1, e=2, s=3, w=4)  # partners 1-3 and 2-4
    wishes = Wishes(never=_pairs((1, 3)))
    assert not audit(1, [table], wishes, rule="draw")[0].forced  # the draw could have paired them otherwise
    assert audit(2, [table], wishes, rule="seats")[0].forced  # seat rotation has no choice
    kept = {frozenset((1, 3)), frozenset((2, 4))}
    assert audit(2, [table], wishes, rule="keep", last=kept)[0].forced  # fixed partners stay together
    # Two ladies who must partner a man each, with only ladies there: the arithmetic forces both.
    ladies = Wishes(groups=dict.fromkeys((1, 2, 3, 4), "lady"))
    breaches = audit(1, [table], ladies, rule="draw")
    assert [b.forced for b in breaches] == [True, True]
    with pytest.raises(ValueError, match="Unknown rule"):
        audit(1, [table], wishes, rule="anything")


def test_audit_of_an_always_pair():
    table = Table(1, n=1, e=2, s=3, w=4)  # 1 partners 3; the couple 1, 2 sits apart
    couple = Wishes(always=_pairs((1, 2)))
    [breach] = audit(1, [table], couple, rule="draw")
    assert breach.kind == "always" and breach.players == (1, 2) and not breach.forced
    assert audit(1, [Table(1, n=1, e=3, s=2, w=4)], couple, rule="draw") == []
    # Progressive splits every partnership: at different tables that is the movement's rule.
    [split] = audit(2, [table, Table(2, 5, 6, 7, 8)], Wishes(always=_pairs((1, 5))), rule="split", last=set())
    assert split.forced and split.table is None


def test_pairings_are_the_three_ways():
    assert pairings([1, 2, 3, 4]) == [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]


# --- whole nights: the draw, every movement and the byes ---------------------------------------------------------


def _random_wishes(players: list[int], rng: random.Random) -> Wishes:
    """Never-partner pairs for 5% of the players (at least one pair) and two balanced groups."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    groups = {p: ("lady" if k % 2 else "man") for k, p in enumerate(shuffled)}
    never = set()
    while len(never) < max(1, round(0.05 * len(players))):
        never.add(frozenset(rng.sample(players, 2)))
    return Wishes(never=frozenset(never), groups=groups)


def play(movement: str, players: int, games: int, seed: int, wishes: Wishes):
    """A night in the engine alone, as the services seat it: per game (tables, byes, the audit)."""
    rng = random.Random(seed)
    people = list(range(1, players + 1))
    by_pairs = movement in KEEPS_PARTNERS
    plan = opening(people, seed=seed, by_pairs=by_pairs, wishes=wishes)
    bye_counts = dict.fromkeys(people, 0)
    partnered: dict[frozenset[int], int] = {}
    played = []
    for number in range(1, games + 1):
        rule = "draw" if number == 1 else WISH_RULES[movement]
        last = _partners(played[-1][0]) if played else set()
        played.append(
            (plan.tables, plan.byes, audit(number, plan.tables, wishes, rule=rule, byes=plan.byes, last=last))
        )
        for player in plan.byes:
            bye_counts[player] += 1
        for pair in _partners(plan.tables):
            partnered[pair] = partnered.get(pair, 0) + 1
        winners = {t.number: rng.choice(SIDES) for t in plan.tables}
        proposed = MOVEMENTS[movement](list(plan.tables), winners)
        plan = plan_round(
            proposed,
            present=people,
            bye_counts=bye_counts,
            sat_out_last=plan.byes,
            seed=seed * 100 + number,
            partners=plan.partners if by_pairs else None,
            partnered=partnered,
            wishes=wishes,
            last=_partners(plan.tables) if WISH_RULES[movement] == "split" else None,
        )
    return played


@pytest.mark.parametrize("movement", sorted(MOVEMENTS))
def test_a_hundred_nights_per_movement_breach_only_what_the_movement_forces(movement):
    forced: dict[str, int] = {}
    for night in range(100):
        rng = random.Random(night)
        players = rng.choice([12, 16, 18, 20, 24, 26, 32, 40, 48, 64])
        if movement in KEEPS_PARTNERS:
            players -= players % 4  # fixed partners seat pairs: a multiple of four, or house players
        wishes = _random_wishes(list(range(1, players + 1)), rng)
        played = play(movement, players, 8, night, wishes)
        assert played[0][2] == [], f"night {night}: the opening draw broke {played[0][2]}"
        for tables, byes, breaches in played[1:]:
            unforced = [b for b in breaches if not b.forced]
            assert unforced == [], f"night {night} ({players} players): {unforced}"
            for breach in breaches:
                forced[breach.kind] = forced.get(breach.kind, 0) + 1
            seated = sorted(p for t in tables for p in t.players)
            assert sorted(seated + list(byes)) == list(range(1, players + 1))
    if movement != "seat-rotation":
        # Partnerships of one of each group stay so when partners split (the stayers and the arrivals are one of
        # each) or stay together, and the byes keep the groups level: what a movement forces is a never pair at a
        # table where the other pairing would put two of one group together.
        assert "groups" not in forced, forced


def test_seat_rotation_keeps_the_groups_apart_all_night_from_its_opening():
    # The opening puts the first group in N and E: seat rotation partners N with S and E with W all night.
    people = list(range(1, 33))
    wishes = Wishes(groups={p: "lady" if p <= 16 else "man" for p in people})
    played = play("seat-rotation", 32, 8, 7, wishes)
    assert all(breaches == [] for _, _, breaches in played)


def test_byes_keep_the_groups_level():
    # 18 players, nine of each group: two sit out each game, and they are one of each where the fairness of
    # the byes allows it, so the sixteen at the tables partner one of each.
    people = list(range(1, 19))
    wishes = Wishes(groups={p: "lady" if p % 2 else "man" for p in people})
    for seed in range(20):
        for tables, byes, breaches in play("progressive", 18, 9, seed, wishes):
            assert len(byes) == 2
            assert breaches == [] or all(b.forced for b in breaches)
            assert least_same_group([p for t in tables for p in t.players], wishes) == 0


def test_couples_stay_together_with_fixed_partners():
    couples = _pairs(*((k, k + 1) for k in range(1, 25, 2)))
    played = play("fixed-partners", 24, 6, 4, Wishes(always=couples))
    for tables, _, breaches in played:
        assert breaches == []
        assert couples == frozenset(_partners(tables))


# --- rotation charts ---------------------------------------------------------------------------------------------


def _chart_for(players: int, games: int, seed: int, wishes: Wishes) -> tuple[rotation.Chart, dict[int, int]]:
    """As the draw does it: with a two-group rule a numbering first and a chart kept apart by it; otherwise the
    usual chart and the numbering searched."""
    people = list(range(1, players + 1))
    if wishes.groups:
        numbers = rotation.number_players(rotation.build_chart(players, 1, seed), people, Wishes(), seed)
        groups = {numbers[p]: group for p, group in wishes.groups.items()}
        chart = rotation.build_chart(players, games, seed, rotation.apart_numbers(numbers, wishes), groups)
        return chart, numbers
    chart = rotation.build_chart(players, games, seed)
    return chart, rotation.number_players(chart, people, wishes, seed)


def _chart_breaches(chart: rotation.Chart, numbers: dict[int, int], wishes: Wishes) -> list:
    player_of = {n: p for p, n in numbers.items()}
    found = []
    for game in chart.rounds:
        tables = [Table(t.number, *(player_of[n] for n in t.players)) for t in game.tables]
        found += audit(game.number, tables, wishes, rule="chart")
    return found


def test_a_hundred_rotation_charts_breach_nothing():
    for night in range(100):
        rng = random.Random(night)
        players = rng.choice([8, 10, 12, 14, 16, 18, 20, 24, 26, 28, 30, 32, 40])
        wishes = _random_wishes(list(range(1, players + 1)), rng)
        games = min(8, players // 2 - 1)
        chart, numbers = _chart_for(players, games, night, wishes)
        assert _chart_breaches(chart, numbers, wishes) == [], f"night {night}: {players} players"


def test_never_pairs_keep_a_perfect_chart():
    # Without groups the chart stays a whist tournament's start; the numbering steers the never pairs apart.
    wishes = Wishes(never=_pairs((1, 2), (3, 4), (5, 6)))
    chart, numbers = _chart_for(24, 8, 5, wishes)
    assert chart.perfect
    assert _chart_breaches(chart, numbers, wishes) == []
    assert sorted(numbers.values()) == list(range(1, 25))


def test_number_players_keeps_numbers_already_given():
    chart = rotation.build_chart(16, 5, 2)
    wishes = Wishes(never=_pairs((1, 2)))
    numbers = rotation.number_players(chart, list(range(1, 13)), wishes, 9, fixed={1: 7, 2: 8})
    assert numbers[1] == 7 and numbers[2] == 8
    assert len(set(numbers.values())) == 12


def test_a_chart_that_cannot_keep_a_never_pair_and_its_repeats_keeps_the_wish():
    # Twelve players, six of each group, six games: every player must partner each of the other group once, so a
    # never pair across the groups can be kept apart only by a repeated partnership, which the chart then takes.
    people = list(range(1, 13))
    groups = {p: "red" if p % 2 else "black" for p in people}
    wishes = Wishes(never=_pairs((1, 2)), groups=groups)
    for seed in range(10):
        numbers = rotation.number_players(rotation.Chart(12, 0, seed, False, ()), people, Wishes(), seed)
        by_number = {numbers[p]: group for p, group in groups.items()}
        chart = rotation.build_chart(12, 6, seed, rotation.apart_numbers(numbers, wishes), by_number)
        assert _chart_breaches(chart, numbers, wishes) == []
        assert rotation.chart_fairness(chart)["partner_repeats"].value >= 1
