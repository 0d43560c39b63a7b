"""A whole fundraiser through the pages, at random (#34, Done when): prices typed the local way in two currencies,
every money form sent twice, refunds, a substitute, side pots, a jackpot carried in from the season's last night,
prizes with ties. The night's money reconciles to the cent against what the treasurer typed, counted here from the
test's own list of what was sent, and nothing read from the night changes after everything changeable is changed
later.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.conftest import play_round, register
from tests.tournament.test_night_history import _pages
from tournament import game, seasons, services
from tournament.engine import money
from tournament.models import Entry, Night, Payment, Player, PotLine, Round
from tournament.selectors import night_close

pytestmark = pytest.mark.django_db

# (currency, how its treasurer types an amount of cents): the decimal comma where that is the custom.
TYPED = {
    "EUR": lambda cents: f"{cents // 100},{cents % 100:02d}",
    "USD": lambda cents: f"{cents // 100}.{cents % 100:02d}",
    "SEK": lambda cents: f"{cents // 100:,}".replace(",", " ") + f",{cents % 100:02d}",
    "CAD": lambda cents: f"{cents // 100:,}.{cents % 100:02d}",
}


def twice(client, url: str, data: dict) -> None:
    """A double tap: the same form sent twice; both answers a page or a redirect, never an error."""
    for _ in range(2):
        assert client.post(url, data).status_code in (200, 302)


def money_page(client, night: Night):
    response = client.get(reverse("tournament:money", args=[night.pk]))
    assert response.status_code == 200
    return response.context


@pytest.mark.parametrize(("seed", "currency"), [(1, "EUR"), (2, "USD"), (3, "SEK"), (4, "CAD")])
def test_a_random_fundraiser_sent_twice_everywhere_reconciles_to_the_cent_and_stays_as_it_was(
    organizer_client, seed, currency
):
    rng = random.Random(seed)
    typed = TYPED[currency]
    players = rng.choice([12, 13, 16, 17])
    pre, door = rng.randrange(500, 2500, 5), rng.randrange(500, 3000, 5)
    house = rng.choice([0, 10, 15])

    # Last month's night of the season carried a jackpot over (in the thousands: typed with their separator).
    last = services.night_create(name="Last month")
    services.money_settings(night=last, currency=currency, pre=pre, door=door, member=None)  # the club's currency
    services.pot_line_add(night=last, pot="Jackpot", kind="in", cents=rng.randrange(100_000, 900_000))
    carried = services.pot_line_add(night=last, pot="Jackpot", kind="carried", cents=PotLine.objects.get().cents)

    night = services.night_create(name=f"Fundraiser {seed}", games=3)
    services.night_update(night=night, prizes="high 40%, second 20%, low 10%, loners 5%")
    register(night, players)
    prices = {"currency": currency, "pre": typed(pre), "door": typed(door), "member": "", "house_share": str(house)}
    twice(organizer_client, reverse("tournament:money_settings", args=[night.pk]), prices)
    night.refresh_from_db()
    assert (night.currency, night.price_pre, night.price_door, night.house_share) == (currency, pre, door, house)
    season = seasons.season_create(name="Fundraisers")
    seasons.season_nights_add(season=season, night_ids=[last.pk, night.pk])

    # The door: everyone pays what they owe by a method of their choosing, each tap twice.
    door_rows = money_page(organizer_client, night)["door"].rows
    paid_by = {}
    for row in door_rows:
        take = reverse("tournament:money_take", args=[night.pk, row.entry.pk])
        paid_by[row.entry.pk] = rng.choice(["cash", "card", "e-transfer"])
        twice(organizer_client, take, {"method": paid_by[row.entry.pk], "key": row.take_key})
    taken = pre * players
    # Two refunds, typed the local way, each sent twice.
    refunded = 0
    for row in rng.sample(door_rows, 2):
        cents = rng.randrange(1, pre)
        refunded += cents
        fields = money_page(organizer_client, night)["door"].rows
        form = next(r for r in fields if r.entry.pk == row.entry.pk).refund_form
        prefix = f"r{row.entry.pk}-"
        refund = {
            f"{prefix}key": form["key"].value(),
            f"{prefix}cents": typed(cents),
            f"{prefix}method": paid_by[row.entry.pk],  # back the way it came
            f"{prefix}reason": "left early",
        }
        twice(organizer_client, reverse("tournament:money_refund", args=[night.pk, row.entry.pk]), refund)
    # Side pots: a 50/50 in and half of it paid out; the carried jackpot taken in (twice), some of it paid and the
    # rest carried on to next month.
    fifty = rng.randrange(2_000, 600_000)
    jackpot_paid = rng.randrange(1, carried.cents)
    for pot, kind, cents, reason in (
        ("50/50", "in", fifty, ""),
        ("50/50", "paid", money.half(fifty), "ticket 7"),
    ):
        key = money_page(organizer_client, night)["pot_form"]["key"].value()
        sent = {"key": key, "pot": pot, "kind": kind, "cents": typed(cents), "reason": reason}
        twice(organizer_client, reverse("tournament:pot_add", args=[night.pk]), sent)
    twice(organizer_client, reverse("tournament:pot_take", args=[night.pk]), {"line": str(carried.pk)})
    for kind, cents, reason in (("paid", jackpot_paid, "the bump cup"), ("carried", carried.cents - jackpot_paid, "")):
        key = money_page(organizer_client, night)["pot_form"]["key"].value()
        sent = {"key": key, "pot": "Jackpot", "kind": kind, "cents": typed(cents), "reason": reason}
        twice(organizer_client, reverse("tournament:pot_add", args=[night.pk]), sent)

    # The games: every table 5–3 one way or the other, so that players end level
    # for prizes; a player leaves after game 1 for a substitute.
    round_ = game.round_start(round_=services.night_draw(night=night, seed=seed))
    for number in range(1, 4):
        tables = sorted(set(round_.seatings.values_list("table", flat=True)))
        play_round(round_, {table: rng.choice([(5, 3), (3, 5)]) for table in tables})
        if number == 1:
            leaving = Entry.objects.filter(night=night, player__house=False).order_by("card").last()
            substitute = {"leaving": str(leaving.pk), "name": "Sam Substitute"}
            twice(organizer_client, reverse("tournament:entry_substitute", args=[night.pk]), substitute)
            assert Player.objects.filter(name="Sam Substitute").count() == 1
        # The night runs by itself: the head table's score rang the bell, and the last table in closed the game;
        # the night's last game waits for the organizer's Close (sent twice, as a tap is), after a last look.
        if number == 3:
            assert Round.objects.get(pk=round_.pk).status == "bell"
            close = reverse("tournament:round_close", args=[night.pk, 3])
            twice(organizer_client, close, {"seen": game.seen(Round.objects.get(pk=round_.pk))})
        assert Round.objects.get(pk=round_.pk).status == "closed"
        round_ = night.rounds.filter(number=number + 1).first()
    night.refresh_from_db()
    assert night.status == Night.Status.FINISHED

    # What was stored is what was typed, once each.
    lines = list(Payment.objects.filter(night=night).values_list("cents", flat=True))
    assert sum(cents for cents in lines if cents > 0) == taken and len(lines) == players + 2
    assert -sum(cents for cents in lines if cents < 0) == refunded
    assert PotLine.objects.filter(night=night).count() == 5

    # The reconciliation, figure by figure, from the test's own sums: the house takes its percent of the net
    # rounded up to the cent, each prize its share of the rest rounded down, a tie splits it to the cent and the
    # cents it cannot split stay with the house, the 50/50's odd cent too.
    close = night_close(night)
    figures = {(f.section, f.label): f.cents for f in close.figures}
    net = taken - refunded
    house_cents = -(-net * house // 100)
    pot = net - house_cents
    assert (figures[("Entries", "Taken")], figures[("Entries", "Refunded")]) == (taken, refunded)
    assert figures[("Entries", "Net entry money")] == net
    assert figures[("Prizes", f"The pot (net less the house's {house}%)")] == pot
    assert figures[("The house", f"The house's share ({house}%)")] == house_cents
    shares = {"High score": 40, "Second": 20, "Low score": 10, "Most loners": 5}
    paid = left_over = 0
    for line in close.prizes:
        (label,) = [label for section, label in figures if section == "Prizes" and label.startswith(f"{line.prize}:")]
        whole = pot * shares[line.prize] // 100
        each, left = divmod(whole, len(line.winners))
        assert figures[("Prizes", label)] == each * len(line.winners)
        paid += each * len(line.winners)
        left_over += left
    ties = [line for line in close.prizes if line.tie]
    assert figures[("Prizes", "Prize money paid")] == paid
    assert figures[("Prizes", "Cents a tie could not split")] == left_over
    kept_of_pots = fifty - fifty // 2  # the jackpot: what it took in is paid out or carried on, nothing kept
    jackpot_on = carried.cents - jackpot_paid
    assert figures[("Side pots", "Jackpot: carried over to the next night")] == jackpot_on
    assert figures[("Side pots", "50/50: left with the house")] == kept_of_pots
    assert figures[("The house", "The house keeps")] == net - paid + kept_of_pots
    assert ties, "two players level for a prize: the night this test means to play"

    # Everything changeable, changed later: the roster, a later night's prices and categories, the season.
    before = _pages(organizer_client, night)
    later = services.night_create(name="Next month")
    services.players_register(night=later, names=[entry.name for entry in Entry.objects.filter(night=night)][:8])
    twice(organizer_client, reverse("tournament:money_settings", args=[later.pk]), {**prices, "currency": "USD"})
    for k, player in enumerate(Player.objects.filter(entries__night=night, house=False), start=1):
        player.name, player.category, player.club_number = f"Renamed {k}", "lady", f"X{k}"
        player.save()
    edit = reverse("scoring:season_edit", args=[season.pk])
    changed = {"name": "Renamed season", "club": "Another club", "notes": "", "method": "best", "best_of": "1"}
    assert organizer_client.post(edit, changed).status_code == 302
    after = _pages(organizer_client, night)
    assert sorted(after) == sorted(before)
    for name, seen in before.items():
        assert after[name] == seen, name
