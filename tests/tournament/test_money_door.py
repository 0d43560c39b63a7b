"""The fundraiser's door (#21, first part): prices, who paid and how, refunds with a reason, the cash to the cent,
through the services, the page, the CSV and the backup."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import play_round, register
from tournament import backup, game, services
from tournament.models import Entry, Night, Payment
from tournament.selectors import door_money

pytestmark = pytest.mark.django_db


@pytest.fixture
def priced(night):
    """$20 pre-registered, $25 at the door, $15 a member; eight players."""
    services.money_settings(night=night, currency="usd", pre=2000, door=2500, member=1500)
    register(night, 8)
    night.refresh_from_db()
    return night


def entry_of(night, index):
    return list(Entry.objects.filter(night=night).order_by("card"))[index]


def test_a_night_at_the_door_to_the_cent(priced, organizer):
    ann, bob, carol, dave = (entry_of(priced, i) for i in range(4))
    services.payment_take(night=priced, entry=ann, method="cash", by=organizer)
    services.entry_price_kind(night=priced, entry=bob, kind="door")
    services.payment_take(night=priced, entry=bob, method="card")
    services.entry_price_kind(night=priced, entry=carol, kind="member")
    services.payment_take(night=priced, entry=carol, method="e-transfer", cents=2000)  # paid the full price
    services.payment_refund(night=priced, entry=carol, cents=500, method="e-transfer", reason="member price")
    services.payment_take(night=priced, entry=dave, method="comp")
    door = door_money(priced)
    assert door.cash.by_method == {"cash": 2000, "card": 2500, "e-transfer": 1500}
    assert (door.cash.taken, door.cash.refunded, door.cash.net, door.cash.comped) == (6500, 500, 6000, 2000)
    assert door.cash.owed == 4 * 2000  # the four players who have not paid, at the pre-registered price
    assert door.shown["net"] == "$60.00" and door.prices == {"pre": "$20.00", "door": "$25.00", "member": "$15.00"}
    rows = {row.entry.pk: row for row in door.rows}
    assert (rows[carol.pk].standing.paid, rows[carol.pk].standing.owed) == (1500, 0)
    assert [line.shown for line in rows[carol.pk].lines] == ["$20.00", "−$5.00"]
    assert (rows[dave.pk].comped, rows[carol.pk].comped) == ("$20.00", "")


def test_a_comp_reads_as_let_in_free_not_as_money_paid(organizer_client, priced):
    ann, bob = entry_of(priced, 0), entry_of(priced, 1)
    services.payment_take(night=priced, entry=ann, method="comp")
    services.payment_take(night=priced, entry=bob, method="cash", cents=500)
    services.payment_take(night=priced, entry=bob, method="comp")  # the rest of what Bob owed
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    row = {name: page[page.index(name) :].split("</li>")[0] for name in ("Ann Kowalski", "Bob Martin", "Chloé Dubois")}
    assert "comp: let in free, no money in" in row["Ann Kowalski"] and "paid" not in row["Ann Kowalski"]
    assert "paid $20.00 ($15.00 of it a comp, no money in)" in row["Bob Martin"]
    assert "paid $0.00" in row["Chloé Dubois"] and "comp:" not in row["Chloé Dubois"]


@pytest.mark.parametrize(
    ("act", "refusal"),
    [
        (lambda n, e: services.payment_take(night=n, entry=e, method="cash"), "owes nothing: nothing was recorded"),
        (
            lambda n, e: services.payment_take(night=n, entry=e, method="cheque"),
            "Paid by cash, card, e-transfer, comp.",
        ),
        (
            lambda n, e: services.payment_refund(night=n, entry=e, cents=500, method="cash", reason=" "),
            "Say why (a refund or a correction needs a reason).",
        ),
        (
            lambda n, e: services.payment_refund(night=n, entry=e, cents=2001, method="cash", reason="wrong"),
            "paid $20.00 by cash: refund more than 0, up to that.",
        ),
        (
            lambda n, e: services.payment_refund(night=n, entry=e, cents=500, method="card", reason="wrong"),
            "paid nothing by card: there is nothing to give back.",
        ),
        (
            lambda n, e: services.entry_remove(entry=e),
            "has $20.00 cash on the Money page: refund it there first",
        ),
    ],
)
def test_what_the_cash_box_cannot_take_is_refused_with_the_reason_and_nothing_is_written(priced, act, refusal):
    ann = entry_of(priced, 0)
    services.payment_take(night=priced, entry=ann, method="cash")
    before = list(Payment.objects.values_list("cents", "method"))
    with pytest.raises(ValidationError) as refused:
        act(priced, ann)
    assert refusal in " ".join(refused.value.messages)
    assert list(Payment.objects.values_list("cents", "method")) == before
    assert Entry.objects.filter(pk=ann.pk).exists()


def test_a_player_given_their_money_back_leaves_the_night_and_their_lines_stay_in_the_cash(organizer_client, priced):
    """Marie-Ève paid, could not come after all, and had her money back before the draw: she is taken off the night;
    the cash still shows the money in and out under her name, owes nothing for her, and counts her nowhere."""
    chloe, bob = entry_of(priced, 0), entry_of(priced, 1)
    Entry.objects.filter(pk=chloe.pk).update(name="Marie-Ève Roy")
    services.payment_take(night=priced, entry=chloe, method="cash")
    services.payment_take(night=priced, entry=bob, method="comp")
    services.payment_refund(night=priced, entry=chloe, cents=1500, method="cash", reason="cannot come")
    with pytest.raises(ValidationError, match=r"has \$5.00 cash on the Money page"):  # $5 still in the box
        services.entry_remove(entry=chloe)
    with pytest.raises(ValidationError, match=r"has a comp of \$20.00 on the Money page"):
        services.entry_remove(entry=bob)
    services.payment_refund(night=priced, entry=chloe, cents=500, method="cash", reason="cannot come")
    organizer_client.post(reverse("tournament:entry_remove", args=[priced.pk, chloe.pk]))
    assert not Entry.objects.filter(pk=chloe.pk).exists()
    assert list(Payment.objects.filter(entry=None).values_list("name", "cents")) == [
        ("Marie-Ève Roy", 2000),
        ("Marie-Ève Roy", -1500),
        ("Marie-Ève Roy", -500),
    ]
    door = door_money(priced)
    assert (door.cash.taken, door.cash.refunded, door.cash.net, door.cash.comped) == (2000, 2000, 0, 2000)
    assert door.cash.players == 7 and door.cash.owed == 6 * 2000  # Bob comped, six owe; Marie-Ève is nobody's debt
    assert "Marie-Ève Roy" not in [row.entry.name for row in door.rows]
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    assert "Taken off the night" in page and "Marie-Ève Roy" in page and "cannot come" in page
    rows = list(
        csv.reader(
            io.StringIO(organizer_client.get(reverse("tournament:money_csv", args=[priced.pk])).content.decode())
        )
    )
    assert [row[1:4] for row in rows if "Marie-Ève Roy" in row] == [
        ["Marie-Ève Roy", "cash", "20.00"],
        ["Marie-Ève Roy", "cash", "-15.00"],
        ["Marie-Ève Roy", "cash", "-5.00"],
    ]
    # Back after all: she joins again as anyone does, owing the price; her old lines stay as they were.
    (again,) = services.players_register(night=priced, names=["Marie-Ève Roy"])
    assert next(row for row in door_money(priced).rows if row.entry.pk == again.pk).standing.owed == 2000
    assert Payment.objects.filter(entry=None).count() == 3


def test_a_player_taken_off_the_night_backs_up_and_an_edited_file_keeps_no_money_for_them(priced):
    from tests.tournament.test_backup_refusals import signed

    ann = entry_of(priced, 0)
    services.payment_take(night=priced, entry=ann, method="card")
    services.payment_refund(night=priced, entry=ann, cents=2000, method="card", reason="ill")
    services.entry_remove(entry=ann)
    before = door_money(priced)
    first = backup.night_backup_bytes(priced)
    data = json.loads(first)
    assert [(line["player"], line["name"]) for line in data["payments"]] == [(None, ann.name), (None, ann.name)]
    Night.objects.filter(pk=priced.pk).delete()
    restored = backup.night_restore(raw=first)
    after = door_money(restored)
    assert (after.shown, after.removed) == (before.shown, before.removed)
    assert backup.night_backup_bytes(restored) == first
    Night.objects.filter(pk=restored.pk).delete()
    data["payments"].pop()  # the refund gone: the money would still be held for a player who is not there
    with pytest.raises(ValidationError, match="money is still held for"):
        backup.night_restore(raw=signed(data))
    data = json.loads(first)
    data["payments"][0]["name"] = " "
    with pytest.raises(ValidationError, match="Payment 1: a line of a player taken off the night names them"):
        backup.night_restore(raw=signed(data))
    for line in data["payments"]:  # a name that looks like hers and is not
        line["name"] = ann.name.replace(" ", "\u200b ")
    with pytest.raises(ValidationError, match=r"Payment 1: “name” holds an invisible or control character \(U\+200B\)"):
        backup.night_restore(raw=signed(data))
    data = json.loads(first)
    for line in data["payments"]:  # a comp, and half of it taken back
        line.update(method="comp", cents=2000 if line["cents"] > 0 else -1000)
    data["payments"].append({**data["payments"][1]})
    with pytest.raises(ValidationError, match=r"Payment 2: it takes back part of .*'s comp: a comp goes back whole"):
        backup.night_restore(raw=signed(data))
    assert not Night.objects.exists()


def test_a_no_show_owes_nothing_once_the_games_are_drawn_and_is_on_no_list(priced):
    from tournament.selectors import night_standings

    services.players_register(night=priced, names=["Xavier", "Yolanda"])  # ten: eight will come, two tables
    entries = list(Entry.objects.filter(night=priced).order_by("card"))
    ann, bob = entries[0], entries[1]
    services.entry_set_checked_in(entry=ann, checked_in=False)  # paid ahead, never came
    services.payment_take(night=priced, entry=ann, method="e-transfer")
    services.entry_set_checked_in(entry=bob, checked_in=False)  # never paid, never came
    assert door_money(priced).cash.owed == 9 * 2000  # before the draw, the expected still owe (Ann paid)
    first = game.round_start(round_=services.night_draw(night=priced, seed=1))
    priced.refresh_from_db()
    door = door_money(priced)
    rows = {row.entry.pk: row for row in door.rows}
    assert door.cash.owed == 8 * 2000 and door.cash.players == 8
    assert rows[bob.pk].no_show and rows[bob.pk].standing.owed == 0
    assert rows[ann.pk].standing.over == 2000  # paid ahead: to refund, or kept as a gift
    assert (door.cash.net, door.cash.over) == (2000, 2000)  # in the box and the pot, and said so
    from tournament.selectors import night_close

    figures = {figure.label: figure.shown for figure in night_close(priced).figures}
    assert figures["Over the price, in the net (paid ahead by a no-show, a gift)"] == "$20.00"
    assert not rows[entries[2].pk].no_show
    game.round_close(round_=play_round(first, {1: (10, 4), 2: (6, 10)}))
    standings = night_standings(priced)
    assert {row.player_id for row in standings.rows} == {e.player_id for e in entries[2:]}


def test_a_comp_is_taken_back_whole_or_not_at_all(priced):
    ann = entry_of(priced, 0)
    services.payment_take(night=priced, entry=ann, method="comp")
    with pytest.raises(ValidationError) as refused:
        services.payment_refund(night=priced, entry=ann, cents=500, method="comp", reason="paid after all")
    assert refused.value.messages == [f"A comp is taken back whole: {ann.name}'s is $20.00. Type 20.00."]
    services.payment_refund(night=priced, entry=ann, cents=2000, method="comp", reason="paid after all")
    assert next(row for row in door_money(priced).rows if row.entry.pk == ann.pk).standing.owed == 2000


def test_a_late_arrival_pays_the_door_price(priced):
    for entry in Entry.objects.filter(night=priced):
        services.entry_set_checked_in(entry=entry, checked_in=True)
    game.round_start(round_=services.night_draw(night=priced, seed=1))
    (late,) = services.players_register(night=priced, names=["Late Larry"])
    assert late.price_kind == "door"
    row = next(row for row in door_money(priced).rows if row.entry.pk == late.pk)
    assert row.owed == "$25.00"


def test_the_money_page_takes_payments_refuses_beside_the_field_and_writes_the_csv(organizer_client, priced):
    page = reverse("tournament:money", args=[priced.pk])
    assert "Still owed" in organizer_client.get(page).content.decode()
    ann = entry_of(priced, 0)
    bob = entry_of(priced, 1)
    organizer_client.post(reverse("tournament:money_kind", args=[priced.pk, bob.pk]), {"kind": "door"})
    assert Entry.objects.get(pk=bob.pk).price_kind == "door"
    refused_kind = organizer_client.post(reverse("tournament:money_kind", args=[priced.pk, bob.pk]), {"kind": "vip"})
    assert "The price is pre-registered, at the door, or a member&#x27;s." in refused_kind.content.decode()
    organizer_client.post(reverse("tournament:money_kind", args=[priced.pk, bob.pk]), {"kind": "pre"})
    organizer_client.post(reverse("tournament:money_take", args=[priced.pk, ann.pk]), {"method": "cash"})
    refund = reverse("tournament:money_refund", args=[priced.pk, ann.pk])
    refused = organizer_client.post(refund, {f"r{ann.pk}-cents": "5.005", f"r{ann.pk}-method": "cash"})
    body = refused.content.decode()
    assert "Type at most two figures after the point (cents)." in body and "Say why" in body
    organizer_client.post(
        refund, {f"r{ann.pk}-cents": "5", f"r{ann.pk}-method": "cash", f"r{ann.pk}-reason": "=left early"}
    )
    prices = reverse("tournament:money_settings", args=[priced.pk])
    bad = organizer_client.post(prices, {"currency": "dollars", "pre": "20", "door": "twenty"}).content.decode()
    assert "Type an amount like 20 or 20.50." in bad
    rows = list(
        csv.reader(
            io.StringIO(organizer_client.get(reverse("tournament:money_csv", args=[priced.pk])).content.decode())
        )
    )
    assert [row[2:5] for row in rows[1:3]] == [["cash", "20.00", ""], ["cash", "-5.00", "'=left early"]]
    # Ann paid 20 and had 5 back, so she owes 5 again; seven others owe 20.
    assert ["total", "Entries: Net entry money", "", "15.00", "", ""] in rows
    assert ["total", "Entries: Still owed", "", "145.00", "", ""] in rows
    assert ["total", "The house: The house keeps", "", "15.00", "", ""] in rows  # no prize money on this night


def test_a_night_with_money_backs_up_and_restores_to_the_same_cash(priced, organizer):
    from tests.tournament.test_backup_refusals import signed

    ann, bob = entry_of(priced, 0), entry_of(priced, 1)
    services.payment_take(night=priced, entry=ann, method="card", by=organizer)
    services.payment_refund(night=priced, entry=ann, cents=250, method="card", reason="overcharged")
    services.entry_price_kind(night=priced, entry=bob, kind="member")
    services.payment_take(night=priced, entry=bob, method="comp")
    before = door_money(priced).shown
    first = backup.night_backup_bytes(priced)
    Night.objects.filter(pk=priced.pk).delete()
    restored = backup.night_restore(raw=first)
    assert door_money(restored).shown == before
    assert backup.night_backup_bytes(restored) == first
    Night.objects.filter(pk=restored.pk).delete()
    data = json.loads(first)
    data["payments"][1]["cents"] = -5000  # a refund beyond what was paid
    with pytest.raises(ValidationError, match="Payment 2: it gives back more than"):
        backup.night_restore(raw=signed(data))
    data = json.loads(first)
    data["payments"][1]["reason"] = ""
    with pytest.raises(ValidationError, match="a refund says why"):
        backup.night_restore(raw=signed(data))
    assert not Night.objects.exists()


def test_the_prizes_money_comes_from_the_pot_and_a_tie_splits_to_the_cent(priced):
    from tournament.rehearsal import simulate
    from tournament.selectors import night_standings, prize_payouts

    # the money set and taken at the door before the draw (a night that is over keeps its money as it was)
    money = {"currency": "CAD", "pre": 2000, "door": 2500, "member": None, "payouts": "high 50%, second 30%, low $10"}
    night = simulate(players=12, rounds=2, seed=6, money={**money, "house_share": 10, "methods": ("cash",)})
    money = prize_payouts(night, door_money(night).cash.net)
    assert (money.pot, money.house) == ("$216.00", "$24.00")  # 12 × $20, the house's 10%
    awards = {award.prize: award for award in night_standings(night).awards}
    rows = {row.prize: row for row in money.rows}
    high = awards["High score"]
    expected = 10_800 // len(high.player_ids)
    assert rows["High score"].money.each == expected and rows["High score"].money.total == 10_800
    assert rows["Low score"].money.total == 1000
    assert money.left == "$33.20"  # 20% of the pot no share takes ($43.20), less the low score's fixed $10


@pytest.mark.parametrize(
    ("payouts", "refusal"),
    [("best 50%", "“best” is not a prize"), ("high 70%, low 40%", "add up to more than 100%")],
)
def test_prize_money_the_night_cannot_pay_is_refused_beside_the_field(priced, payouts, refusal):
    with pytest.raises(ValidationError) as refused:
        services.money_settings(night=priced, currency="USD", pre=2000, door=2500, member=None, payouts=payouts)
    assert refusal in refused.value.message_dict["payouts"][0]


def test_the_room_display_and_the_night_page_show_each_prizes_money(client, organizer_client):
    from tournament.rehearsal import simulate

    money = {"currency": "USD", "pre": 2500, "door": 2500, "member": None, "payouts": "high 60%, low $5"}
    night = simulate(players=8, rounds=2, seed=3, money={**money, "methods": ("cash",)})
    # $200 in the box: the high score's 60% is $120 (split if tied), the low score $5.
    display = client.get(reverse("tournament:room_display", args=[night.pk])).content.decode()
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    from tournament.selectors import night_standings

    high = next(award for award in night_standings(night).awards if award.key == "high")
    each = f"${120 // len(high.player_ids)}.00{' each' if high.tie else ''}"  # 120 splits evenly by 1, 2 or 3
    for body in (display, page):
        assert '<b class="prize-money">$5.00</b>' in body
        assert f'<b class="prize-money">{each}</b>' in body


@pytest.mark.slow
def test_a_simulated_120_player_fundraiser_reconciles_to_the_cent():
    """`simulate_night --players 120 --price 20 --methods cash,card,e-transfer --payouts … --house 10`: the door's
    totals against every payment, each prize against the pot, a tied prize split with its left-over cent."""
    from tournament.rehearsal import simulate
    from tournament.selectors import night_record, night_standings

    money = {
        **{"currency": "USD", "pre": 2000, "door": 2000, "member": None, "house_share": 10},
        "payouts": "high 33%, second 17%, third 11%, low 7%, loners $25.01",
        "methods": ("cash", "card", "e-transfer"),
    }
    night = simulate(players=120, rounds=3, seed=2, money=money)
    record = night_record(night)["money"]
    paid: dict[str, int] = {}
    for method, cents in Payment.objects.filter(night=night).values_list("method", "cents"):
        paid[method] = paid.get(method, 0) + cents
    assert record["by_method"] == paid and sum(paid.values()) == 120 * 2000
    assert (record["taken"], record["refunded"], record["net"], record["owed"]) == (240_000, 0, 240_000, 0)
    pot = 240_000 - 24_000  # the house's 10%
    prizes = {row["prize"]: row for row in record["prizes"]}
    assert prizes["High score"]["total"] == pot * 33 // 100 == 71_280
    assert prizes["Second"]["total"] == pot * 17 // 100 and prizes["Third"]["total"] == pot * 11 // 100
    assert prizes["Low score"]["total"] == pot * 7 // 100 == 15_120
    loners = prizes["Most loners"]
    award = next(award for award in night_standings(night).awards if award.key == "loners")
    assert loners["winners"] == len(award.player_ids) > 1  # a tie on this seed
    assert loners["each"] * loners["winners"] + loners["left_over"] == 2501 and loners["left_over"] > 0
    # The close of the night: every prize paid to each of its winners, and the house keeps the rest of the box.
    paid_out = sum(row["each"] * row["winners"] for row in record["prizes"])
    assert paid_out == 71_280 + 36_720 + 23_760 + 15_120 + 2501 - loners["left_over"]  # the shares of 216,000
    assert (record["pot"], record["house_share"], record["prizes_paid"]) == (pot, 24_000, paid_out)
    assert record["house_keeps"] == 240_000 - paid_out == 24_000 + (pot - paid_out)


# --- money follows people (#33): a substitute plays on the entry they took over; a late arrival pays at the door ---


def _under_way(night):
    """The priced night's eight players checked in, the opening seating drawn and game 1 started."""
    for entry in Entry.objects.filter(night=night):
        services.entry_set_checked_in(entry=entry, checked_in=True)
    return game.round_start(round_=services.night_draw(night=night, seed=1))


def _row(night, entry):
    return next(row for row in door_money(night).rows if row.entry.pk == entry.pk)


def test_a_substitute_for_a_player_who_paid_owes_nothing_and_the_box_counts_the_seat_once(priced, organizer_client):
    _under_way(priced)
    ann = entry_of(priced, 0)
    services.payment_take(night=priced, entry=ann, method="cash")
    before = door_money(priced).cash
    sub = services.entry_substitute(entry=ann, name="Zoe Quinn")
    after = door_money(priced).cash
    assert (after.players, after.owed, after.net) == (before.players, before.owed, before.net)
    assert after.substitutes == 1
    row = _row(priced, sub)
    assert row.holder == ann.player.name and not row.standing.owed
    assert _row(priced, ann).replaced_by == "Zoe Quinn"
    with pytest.raises(ValidationError, match=f"Zoe Quinn plays on {ann.player.name}'s entry, which owes nothing"):
        services.payment_take(night=priced, entry=sub, method="cash")
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    assert f"{before.players} entries · and 1 substitute on the entry of the player they replaced" in page
    mine = page.split(f'id="entry-{sub.pk}"')[1].split("</li>")[0]
    assert f"substitute, on {ann.player.name}'s entry" in mine
    assert "owes" not in mine and "pre-registered" not in mine  # no price of their own, nothing to take
    leaver = page.split(f'id="entry-{ann.pk}"')[1].split("</li>")[0]
    assert "left; Zoe Quinn took the seat, on this entry" in leaver


def test_an_entry_the_leaver_had_not_paid_is_owed_once_and_the_substitute_may_pay_it(priced, organizer_client):
    _under_way(priced)
    bob = entry_of(priced, 1)
    before = door_money(priced).cash
    sub = services.entry_substitute(entry=bob, name="Zoe Quinn")
    assert door_money(priced).cash.owed == before.owed  # still one price for the seat, not two
    assert _row(priced, sub).standing.owed == priced.price_pre == _row(priced, bob).standing.owed
    organizer_client.post(reverse("tournament:money_take", args=[priced.pk, sub.pk]), {"method": "card"})
    after = door_money(priced)
    assert after.cash.owed == before.owed - priced.price_pre
    assert after.cash.by_method["card"] == priced.price_pre
    assert not _row(priced, bob).standing.owed and not _row(priced, sub).standing.owed
    assert [line.name for line in after.lines] == ["Zoe Quinn"]  # the record says who handed the money in


def test_a_substitute_for_a_substitute_plays_on_the_first_players_entry(priced):
    _under_way(priced)
    carol = entry_of(priced, 2)
    services.payment_take(night=priced, entry=carol, method="e-transfer")
    first = services.entry_substitute(entry=carol, name="Zoe Quinn")
    second = services.entry_substitute(entry=first, name="Yves Roy")
    cash = door_money(priced).cash
    assert (cash.players, cash.substitutes) == (Entry.objects.filter(night=priced).count() - 2, 2)
    assert _row(priced, second).holder == carol.player.name
    assert not _row(priced, second).standing.owed


def test_a_substitutes_price_is_the_entry_they_took_over_and_says_so_beside_the_line(priced, organizer_client):
    _under_way(priced)
    dave = entry_of(priced, 3)
    sub = services.entry_substitute(entry=dave, name="Zoe Quinn")
    answer = organizer_client.post(reverse("tournament:money_kind", args=[priced.pk, sub.pk]), {"kind": "member"})
    mine = answer.content.decode().split(f'id="entry-{sub.pk}"')[1].split("</li>")[0]
    assert f"Zoe Quinn plays on {dave.player.name}&#x27;s entry (a seat is paid for once)" in mine
    assert Entry.objects.get(pk=sub.pk).price_kind == "door" and door_money(priced).cash.substitutes == 1


def test_a_late_arrival_from_the_roster_is_offered_the_door_price(priced, organizer_client):
    from tournament.models import Player

    regular = Player.objects.create(name="Rita Regular")
    _under_way(priced)
    organizer_client.post(reverse("tournament:player_roster", args=[priced.pk]), {"players": [regular.pk]})
    late = Entry.objects.get(night=priced, player=regular)
    assert late.price_kind == "door"
    assert _row(priced, late).standing.owed == priced.price_door
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    mine = page.split(f'id="entry-{late.pk}"')[1].split("</li>")[0]
    assert 'class="small on" name="kind" value="door"' in mine


def test_the_money_csv_gives_times_in_the_night_s_own_time_and_a_comp_as_no_money_in(
    organizer_client, priced, settings
):
    """The treasurer's spreadsheet: each line's time as the hall's clock read it (the column says which), and a
    player let in free as a line that brought no money, so the amounts column adds up to the net entry money."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    settings.TIME_ZONE = "America/Toronto"
    ann, bob, cy = (entry_of(priced, index) for index in range(3))
    take = "tournament:money_take"
    organizer_client.post(reverse(take, args=[priced.pk, ann.pk]), {"method": "cash"})
    organizer_client.post(reverse(take, args=[priced.pk, bob.pk]), {"method": "comp"})
    organizer_client.post(reverse(take, args=[priced.pk, cy.pk]), {"method": "card"})
    evening = dt.datetime(2026, 12, 3, 19, 5, 7, tzinfo=ZoneInfo("America/Toronto"))  # 00:05 UTC the next day
    for minutes, payment in enumerate(Payment.objects.filter(night=priced).order_by("pk")):
        Payment.objects.filter(pk=payment.pk).update(at=evening + dt.timedelta(minutes=minutes))
    text = organizer_client.get(reverse("tournament:money_csv", args=[priced.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][0] == "when (America/Toronto)"
    lines = rows[1:4]
    assert [row[0] for row in lines] == ["2026-12-03 19:05:07", "2026-12-03 19:06:07", "2026-12-03 19:07:07"]
    assert [row[2:4] for row in lines] == [["cash", "20.00"], ["comp", "0.00"], ["card", "20.00"]]
    assert "let in free at 20.00: no money in" in lines[1][4]
    totals = {row[1]: row[3] for row in rows if row and row[0] == "total"}
    assert sum(float(row[3]) for row in lines) == float(totals["Entries: Net entry money"]) == 40.0
    assert totals["Entries: Comped (no money in)"] == "20.00"


def test_what_the_prizes_leave_of_the_pot_counts_their_fixed_amounts_too(organizer_client, priced):
    """$160 in the pot; high takes half of it and low a fixed $10: $70 is left, not the $80 the shares alone leave."""
    services.night_update(night=priced, prizes="high 50%, second, low $10")
    for entry in Entry.objects.filter(night=priced):
        organizer_client.post(reverse("tournament:money_take", args=[priced.pk, entry.pk]), {"method": "cash"})
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    assert "the prizes (shares and fixed amounts) leave $70.00 of it." in page
    services.night_update(night=priced, prizes="high 50%, low $200", prizes_confirmed=True)  # more than the pot
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    assert "leave $0.00 of it." in page
    assert "$120.00 more than the pot, which the house pays" in page


def test_the_prizes_money_is_won_only_once_the_night_is_over(organizer_client, priced):
    """Mid-night the Money page shows who would take each prize's money if the night ended now, never "Won"."""
    from tournament.rehearsal import simulate

    services.money_settings(night=priced, currency="usd", pre=2000, door=2500, member=None, payouts="high 50%")
    first = game.round_start(round_=services.night_draw(night=priced, seed=1))
    game.round_close(round_=play_round(first, {1: (10, 4), 2: (6, 10)}))
    page = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    assert "<h3>If the night ended now</h3>" in page and "<h3>Won</h3>" not in page
    # A trial: the prize sheet, the reconciliation and the CSV printed mid-night said "Prize money paid" with no
    # such word, and a treasurer could pay out early. Each says it is not final.
    said = "Not final: the night is still being played. The prizes and their money are as if it ended now"
    assert all(said in text for text in _files(organizer_client, priced))
    money = {"currency": "USD", "pre": 2000, "door": 2000, "member": None, "payouts": "high 50%"}
    over = simulate(players=8, rounds=2, seed=3, money={**money, "methods": ("cash",)})
    page = organizer_client.get(reverse("tournament:money", args=[over.pk])).content.decode()
    assert "<h3>Won</h3>" in page and "If the night ended now" not in page
    assert not any("Not final" in text for text in _files(organizer_client, over))


def _files(client, night) -> list[str]:
    """The prize sheet's and the reconciliation's words, and the Money CSV."""
    from pypdf import PdfReader

    texts = []
    for name in ("prize_sheet_pdf", "reconciliation_pdf"):
        sheet = client.get(reverse(f"tournament:{name}", args=[night.pk]))
        texts.append(" ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages).split()))
    texts.append(client.get(reverse("tournament:money_csv", args=[night.pk])).content.decode())
    return texts


def test_the_last_game_says_what_money_is_left_to_square_before_the_night_locks_it(organizer_client, priced):
    """From a treasurer's trial: the last slip typed, the night ended and the latecomer's $25 could no longer be
    taken. While the last game is played, the Money page and the night page say what is still owed and what is
    over, by name; before it, and once all is square, they say nothing."""
    night = priced
    Night.objects.filter(pk=night.pk).update(games=2)
    night.refresh_from_db()
    entries = list(Entry.objects.filter(night=night).order_by("card"))
    for entry in entries[:7]:
        services.payment_take(night=night, entry=entry, method="cash")
    pages = (reverse("tournament:money", args=[night.pk]), night.get_absolute_url())
    first = game.round_start(round_=services.night_draw(night=night, seed=1))
    assert all("money-left" not in organizer_client.get(page).content.decode() for page in pages)  # not the last
    game.round_start(round_=game.round_close(round_=play_round(first, {1: (10, 4), 2: (6, 10)})))
    (late,) = services.players_register(night=night, names=["Walter Lee"])
    for page in pages:
        body = organizer_client.get(page).content.decode()
        assert "Game 2 is the night's last: when it closes, the night ends and its money locks" in body
        assert f"Still owed: {entries[7].name} $20.00, Walter Lee $25.00." in body
    for entry in (entries[7], late):
        services.payment_take(night=night, entry=entry, method="card")
    assert all("money-left" not in organizer_client.get(page).content.decode() for page in pages)  # square
