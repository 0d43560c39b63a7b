"""The engine's checks a restore makes of a recorded draw's pool and of the prize money (#34, item 10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournament.engine import money
from tournament.engine.draws import pick, recorded_pool_fault

CARDS = st.sets(st.integers(1, 600), min_size=2, max_size=60)


def test_recorded_pools_written_out():
    here = [3, 5, 8, 13]
    assert recorded_pool_fault("players", [3, 8], [8], cards=here, most_tickets=100) is None
    assert recorded_pool_fault("tickets", [1, 2, 3], [2], cards=[], most_tickets=100) is None
    assert recorded_pool_fault("tie", [5, 13], [5], cards=here, most_tickets=100) is None
    assert "tickets 1 to N" in str(recorded_pool_fault("tickets", [1, 99], [99], cards=[], most_tickets=100))
    assert "tickets 1 to N" in str(recorded_pool_fault("tickets", [1, 2, 3], [1], cards=[], most_tickets=2))
    assert "holds card 4" in str(recorded_pool_fault("players", [3, 4], [3], cards=here, most_tickets=100))
    assert "in order" in str(recorded_pool_fault("players", [8, 3], [3], cards=here, most_tickets=100))
    assert "in order" in str(recorded_pool_fault("players", [3, 3], [3], cards=here, most_tickets=100))
    assert "two or more" in str(recorded_pool_fault("tie", [5], [5], cards=here, most_tickets=100))
    assert "one winner" in str(recorded_pool_fault("tie", [5, 8, 13], [5, 8], cards=here, most_tickets=100))


@given(CARDS, st.data())
def test_every_pool_the_page_draws_from_passes(cards, data):
    """What the Money page stores (sorted, each once, from the players here or tickets 1..N) is never refused."""
    here = sorted(data.draw(st.sets(st.sampled_from(sorted(cards)), min_size=1)))
    count = data.draw(st.integers(1, len(here)))
    assert recorded_pool_fault("players", here, pick("s", here, count), cards=cards, most_tickets=10) is None
    tickets = list(range(1, data.draw(st.integers(1, 500)) + 1))
    assert recorded_pool_fault("tickets", tickets, pick("s", tickets, 1), cards=(), most_tickets=500) is None
    if len(here) >= 2:
        assert recorded_pool_fault("tie", here, pick("s", here, 1), cards=cards, most_tickets=10) is None


@given(CARDS, st.integers(601, 10_000), st.data())
def test_a_pool_with_a_stranger_or_out_of_order_is_refused(cards, stranger, data):
    here = sorted(data.draw(st.sets(st.sampled_from(sorted(cards)), min_size=1)))
    assert recorded_pool_fault("players", sorted([*here, stranger]), [stranger], cards=cards, most_tickets=10)
    assert recorded_pool_fault("tie", sorted([*here, stranger]), [stranger], cards=cards, most_tickets=10)
    if len(here) >= 2:
        assert recorded_pool_fault("players", here[::-1], here[:1], cards=cards, most_tickets=10)


@given(st.lists(st.sampled_from(["high", "second", "low", "loners", "champion", "high:lady"]), unique=True), st.data())
def test_payouts_beyond_the_night_s_prizes_are_those_it_does_not_award(paid, data):
    prizes = data.draw(st.lists(st.sampled_from(["high", "second", "low", "loners"]), unique=True))
    payouts = {key: money.Payout(percent=1) for key in paid}
    assert money.payouts_beyond(payouts, prizes) == [key for key in paid if key not in prizes]
