"""Who may take each prize (#21): present at the end, there for every game, at least N games, members only; a player
passed over stays in line for the later prizes. Cases written out, then through a night's pages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.prizes import Eligible, Player, award, eligible, parse_eligibility
from scoring.standings import PlayerTotals, rank


def totals(player, total, games=5, byes=0, loners=0):
    return PlayerTotals(player=player, total=total, games=games, byes=byes, loners_made=loners, per_round={1: 1})


def winners(awards):
    return {a.key: a.winners for a in awards}


def test_the_rules_read_as_the_organizer_writes_them():
    rules = parse_eligibility("high: present, every game; loners: Members; low: games 3 ; high:lady: present")
    assert rules == {
        "high": Eligible(present=True, every_game=True),
        "loners": Eligible(members=True),
        "low": Eligible(min_games=3),
        "high:lady": Eligible(present=True),
    }
    assert rules["high"].words() == "present at the end, there for every game"
    assert parse_eligibility("") == {}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("high present", "Write each prize and who may take it"),
        ("best: present", "Write each prize and who may take it"),
        ("high: here", "“here” is not a rule for a prize"),
        ("high: present; high: members", "“high” has its rule twice"),
        ("low: games three", "“games three” is not a rule"),
    ],
)
def test_a_rule_that_is_not_one_is_refused_in_words(text, words):
    with pytest.raises(ValueError, match=words):
        parse_eligibility(text)


def test_a_player_who_left_early_is_passed_over_for_high_and_stays_in_line_for_second():
    # Player 1 has the most points but left after game 4 of 5; 2 is the high score, 1 still takes second.
    ranked = rank([totals(1, 60, games=4), totals(2, 55), totals(3, 50), totals(4, 30)])
    players = {1: Player(present=False), 2: Player(), 3: Player(), 4: Player()}
    rules = parse_eligibility("high: present, every game")
    got = winners(award(ranked, ["high", "second", "low"], rules=rules, players=players, games_closed=5))
    assert got == {"high": (2,), "second": (1,), "low": (4,)}


def test_a_bye_counts_as_there_for_the_game_a_late_arrival_does_not():
    ranked = rank([totals(1, 60, games=4, byes=1), totals(2, 58, games=3), totals(3, 50)])
    rules = parse_eligibility("high: every game")
    assert winners(award(ranked, ["high"], rules=rules, games_closed=5)) == {"high": (1,)}
    ranked = rank([totals(2, 61, games=3), totals(1, 60, games=4, byes=1)])
    assert winners(award(ranked, ["high"], rules=rules, games_closed=5)) == {"high": (1,)}


def test_members_only_and_at_least_n_games():
    ranked = rank([totals(1, 60, loners=3), totals(2, 50, loners=2), totals(3, 40, games=2), totals(4, 20)])
    players = {1: Player(), 2: Player(member=True), 3: Player(member=True), 4: Player()}
    rules = parse_eligibility("loners: members; low: games 3")
    got = winners(award(ranked, ["loners", "low"], rules=rules, players=players, games_closed=5, one_each=False))
    assert got == {"loners": (2,), "low": (4,)}  # 3 played two games: not for the low prize


def test_without_one_prize_each_a_place_goes_to_the_first_group_that_may_take_it():
    ranked = rank([totals(1, 60), totals(2, 55), totals(3, 50)])
    players = {1: Player(present=False), 2: Player(), 3: Player()}
    got = winners(
        award(
            ranked,
            ["high", "second"],
            one_each=False,
            rules=parse_eligibility("high: present; second: present"),
            players=players,
        )
    )
    assert got == {"high": (2,), "second": (3,)}


@given(
    st.lists(
        st.tuples(st.integers(0, 80), st.integers(0, 5), st.integers(0, 2), st.booleans(), st.booleans()),
        min_size=1,
        max_size=24,
    ),
    st.sampled_from(["present", "every game", "games 4", "members", "present, every game, members"]),
    st.booleans(),
)
def test_no_prize_goes_to_a_player_its_rule_passes_over(rows, rule_text, one_each):
    ranked = rank(
        [
            totals(n, total, games=games, byes=byes, loners=games % 2)
            for n, (total, games, byes, _, _) in enumerate(rows)
        ]
    )
    players = {n: Player(present=present, member=member) for n, (_, _, _, present, member) in enumerate(rows)}
    keys = ["high", "second", "third", "low", "loners"]
    rules = parse_eligibility("; ".join(f"{key}: {rule_text}" for key in keys))
    by_player = {standing.totals.player: standing for standing in ranked}
    for prize in award(ranked, keys, rules=rules, players=players, games_closed=5, one_each=one_each):
        assert all(eligible(rules[prize.key], by_player[p], players[p], 5) for p in prize.winners)


def test_nobody_eligible_leaves_the_prize_untaken():
    ranked = rank([totals(1, 60), totals(2, 55)])
    got = winners(award(ranked, ["high"], rules=parse_eligibility("high: members"), players={}))
    assert got == {"high": ()}


def test_a_tie_settled_by_a_draw_gives_the_prize_to_the_one_drawn_and_the_other_takes_the_next():
    ranked = rank([totals(1, 60), totals(2, 60), totals(3, 50), totals(4, 30)])
    assert winners(award(ranked, ["high", "second"])) == {"high": (1, 2), "second": (3,)}
    settled = {"high": (frozenset({1, 2}), 2)}
    awards = award(ranked, ["high", "second"], settled=settled)
    assert winners(awards) == {"high": (2,), "second": (1,)} and awards[0].value == "60 points (won the draw)"
    # A draw recorded for other players (the standings changed since) settles nothing.
    stale = {"high": (frozenset({1, 3}), 3)}
    assert winners(award(ranked, ["high"], settled=stale)) == {"high": (1, 2)}
