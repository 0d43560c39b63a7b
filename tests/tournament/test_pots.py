"""Side pots (#21): the 50/50, a bump cup, a jackpot carried over to the club's next night and taken in there once;
each pot's money in, paid and carried, in the reconciliation to the cent, and in the backup."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournament.test_draws import _signed
from tournament import backup, seasons, services
from tournament.engine import money
from tournament.models import Night, Player, PotLine
from tournament.rehearsal import simulate
from tournament.selectors import night_close, night_pots, night_record

pytestmark = pytest.mark.django_db


def test_a_pot_pays_and_carries_no_more_than_came_in_written_out():
    lines = [money.PotLine("50/50", "in", 17_001), money.PotLine("50/50", "paid", money.half(17_001))]
    (total,) = money.pot_totals(lines)
    assert (total.came_in, total.paid, total.carried, total.kept) == (17_001, 8_500, 0, 8_501)  # the odd cent stays
    with pytest.raises(money.MoneyError, match=r"holds \$85.01: it cannot pay or carry \$85.02"):
        money.pot_totals([*lines, money.PotLine("50/50", "carried", 8_502)])
    with pytest.raises(money.MoneyError):
        money.pot_totals([money.PotLine("Jackpot", "paid", 1)])  # nothing came in


def test_the_house_keeps_what_the_side_pots_leave_beside_the_entries():
    cash = money.cash({1: 2_000}, [money.Line(1, 2_000, "cash")])
    pots = money.pot_totals([money.PotLine("Bump cup", "in", 700), money.PotLine("Bump cup", "carried", 500)])
    close = money.reconcile(cash, 10, [money.prize_money(money.Payout(percent=50), 1_800, 1)], pots)
    assert (close.pot, close.prizes_paid, close.kept_of_pots) == (1_800, 900, 200)
    assert close.house_keeps == 2_000 - 900 + 200 == close.house_share + close.kept_of_pot + close.kept_of_pots


def test_a_line_the_pot_cannot_take_is_refused_beside_the_field_and_nothing_is_stored(organizer_client, night):
    add = reverse("tournament:pot_add", args=[night.pk])
    page = organizer_client.post(add, {"pot": "50/50", "kind": "paid", "cents": "40", "reason": "Ann"}).content.decode()
    assert "holds $0.00: it cannot pay or carry $40.00" in page and 'value="40"' in page
    page = organizer_client.post(add, {"pot": "50/50", "kind": "paid", "cents": "4"}).content.decode()
    assert "Say who won it." in page
    page = organizer_client.post(add, {"pot": "50/50", "kind": "in", "cents": "0"}).content.decode()
    assert "Type an amount more than 0." in page and "100,000" not in page  # not a limit the field does not have
    assert not PotLine.objects.exists()
    assert organizer_client.post(add, {"pot": "50/50", "kind": "in", "cents": "170"}).status_code == 302
    page = organizer_client.get(reverse("tournament:money", args=[night.pk])).content.decode()
    assert "$170.00" in page and "half: $85.00" in page


def test_the_money_spreadsheet_names_who_won_each_side_pot_line_by_line(organizer_client, night):
    """The treasurer's spreadsheet had each pot's totals only: who took the 50/50 is a line of its own, with the time
    and who wrote it, and a reason typed as a formula stays text. The printed reconciliation, which two people sign,
    names who took each pot's money too (it said "paid out")."""
    import csv
    import io

    add = reverse("tournament:pot_add", args=[night.pk])
    organizer_client.post(add, {"pot": "50/50", "kind": "in", "cents": "170"})
    organizer_client.post(add, {"pot": "50/50", "kind": "paid", "cents": "85", "reason": "Ann Kowalski, ticket 41"})
    organizer_client.post(add, {"pot": "Bump cup", "kind": "in", "cents": "12"})
    organizer_client.post(add, {"pot": "Bump cup", "kind": "paid", "cents": "12", "reason": "=table 3"})
    text = organizer_client.get(reverse("tournament:money_csv", args=[night.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    start = next(i for i, row in enumerate(rows) if row[1:2] == ["side pot"])
    lines = rows[start + 1 : start + 5]
    assert [row[1:6] for row in lines] == [
        ["50/50", "money in", "170.00", "", "organizer"],
        ["50/50", "paid to a winner", "-85.00", "Ann Kowalski, ticket 41", "organizer"],
        ["Bump cup", "money in", "12.00", "", "organizer"],
        ["Bump cup", "paid to a winner", "-12.00", "'=table 3", "organizer"],
    ]
    assert rows[start + 5] == [] and rows[start + 6][0] == "total"
    totals = {row[1]: row[3] for row in rows if row and row[0] == "total"}
    assert totals["Side pots: 50/50: paid to Ann Kowalski, ticket 41"] == "85.00"
    assert totals["Side pots: 50/50: in"] == "170.00"
    # Each pot's lines add up to what it leaves with the house, as the totals say (a trial summed the column).
    for pot in ("50/50", "Bump cup"):
        left = sum(float(row[3]) for row in lines if row[1] == pot)
        assert f"{left:.2f}" == totals[f"Side pots: {pot}: left with the house"]
    from pypdf import PdfReader

    sheet = organizer_client.get(reverse("tournament:reconciliation_pdf", args=[night.pk]))
    printed = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(sheet.content)).pages).split())
    assert "50/50: paid to Ann Kowalski, ticket 41 $85.00" in printed and "Bump cup: paid to =table 3 $12.00" in printed
    assert ": paid out" not in printed


def test_a_carried_jackpot_is_taken_in_by_the_next_night_of_the_season_once(organizer_client, organizer):
    season = seasons.season_create(name="Winter league")
    first = services.night_create(name="November night", date=dt.date(2026, 11, 3))
    second = services.night_create(name="December night", date=dt.date(2026, 12, 1))
    elsewhere = services.night_create(name="Another club", date=dt.date(2026, 12, 1))
    seasons.season_nights_add(season=season, night_ids=[first.pk, second.pk])
    services.pot_line_add(night=first, pot="Jackpot", kind="in", cents=30_000)
    services.pot_line_add(night=first, pot="Jackpot", kind="paid", cents=5_000, reason="Ann Kowalski, 12 euchres")
    carry = services.pot_line_add(night=first, pot="Jackpot", kind="carried", cents=25_000)
    assert carry.reason == "carried over to the club's next night"
    assert PotLine.waiting_for(elsewhere) == [] and PotLine.waiting_for(first) == []
    page = organizer_client.get(reverse("tournament:money", args=[second.pk])).content.decode()
    assert "carried over from November night (3 Nov 2026)" in page and "$250.00" in page
    take = reverse("tournament:pot_take", args=[second.pk])
    assert organizer_client.post(take, {"line": str(carry.pk)}).status_code == 302
    again = organizer_client.post(take, {"line": str(carry.pk)}).content.decode()
    assert "That money is not waiting for this night: it was taken in already" in again
    assert organizer_client.post(reverse("tournament:pot_take", args=[elsewhere.pk]), {"line": "x"}).status_code == 200
    (taken,) = second.pot_lines.all()
    assert (taken.pot, taken.kind, taken.cents, taken.carried_from) == ("Jackpot", "in", 25_000, carry)
    assert night_pots(second).rows[0].total.came_in == 25_000 and night_pots(first).rows[0].total.kept == 0


def test_a_jackpot_carried_in_another_currency_is_not_taken_in_as_it_is(organizer_client):
    """From a treasurer's trial: €50 carried from a euro night became $50 on a dollar night without a word. It is
    listed with why, offered no button, refused if sent anyway, and nothing is stored."""
    season = seasons.season_create(name="Two currencies")
    euros = services.night_create(name="Soirée", date=dt.date(2026, 11, 3))
    services.money_settings(night=euros, currency="EUR", pre=1000, door=1000, member=None)
    dollars = services.night_create(name="Dollar night", date=dt.date(2026, 12, 1))
    seasons.season_nights_add(season=season, night_ids=[euros.pk, dollars.pk])
    services.pot_line_add(night=euros, pot="Bump cup", kind="in", cents=5_000)
    carry = services.pot_line_add(night=euros, pot="Bump cup", kind="carried", cents=5_000)
    page = organizer_client.get(reverse("tournament:money", args=[dollars.pk])).content.decode()
    assert "Bump cup: €50,00" in page and "carried over in EUR; tonight counts in USD" in page
    assert f'name="line" value="{carry.pk}"' not in page  # no button to take it as it is
    refused = organizer_client.post(reverse("tournament:pot_take", args=[dollars.pk]), {"line": str(carry.pk)})
    assert "carried over in EUR; tonight counts in USD" in refused.content.decode()
    assert not PotLine.objects.filter(carried_from=carry).exists()


def test_a_pots_refusal_on_a_euro_night_is_in_euros(organizer_client):
    night = services.night_create(name="Soirée")
    services.money_settings(night=night, currency="EUR", pre=1000, door=1000, member=None)
    sent = {"pot": "Jackpot", "kind": "paid", "cents": "0,01", "reason": "Ann"}
    page = organizer_client.post(reverse("tournament:pot_add", args=[night.pk]), sent).content.decode()
    assert "The Jackpot holds €0,00: it cannot pay or carry €0,01." in page


@pytest.mark.slow
def test_a_120_player_fundraiser_with_a_carried_jackpot_and_a_50_50_reconciles_to_the_cent():
    """Entries $20 × 120, the house's 10%, prizes with a tied split; a $250 jackpot carried in from last month and
    $80.10 paid from it, the rest carried on; a 50/50 of $340.01 whose winner gets $170.00. Every total by hand."""
    fundraiser = {
        **{"currency": "USD", "pre": 2000, "door": 2000, "member": None, "house_share": 10},
        "payouts": "high 33%, second 17%, third 11%, low 7%, loners $25.01",
        "methods": ("cash", "card", "e-transfer"),
    }
    last = services.night_create(name="Last month", date=dt.date(2026, 11, 3))
    services.pot_line_add(night=last, pot="Jackpot", kind="in", cents=25_000)
    carry = services.pot_line_add(night=last, pot="Jackpot", kind="carried", cents=25_000)
    night = simulate(players=120, rounds=3, seed=2, money=fundraiser)
    season = seasons.season_create(name="Fundraisers")
    seasons.season_nights_add(season=season, night_ids=[last.pk, night.pk])
    services.pot_carry_take(night=night, line_id=carry.pk)
    services.pot_line_add(night=night, pot="Jackpot", kind="paid", cents=8_010, reason="the bump cup's winner")
    services.pot_line_add(night=night, pot="Jackpot", kind="carried", cents=16_990)
    services.pot_line_add(night=night, pot="50/50", kind="in", cents=34_001)
    services.pot_line_add(night=night, pot="50/50", kind="paid", cents=money.half(34_001), reason="ticket 118")

    record = night_record(night)["money"]
    loners = next(row for row in record["prizes"] if row["prize"] == "Most loners")
    paid = 71_280 + 36_720 + 23_760 + 15_120 + (2501 - loners["left_over"])  # the shares of $2,160, a tie's split
    assert record["prizes_paid"] == paid and loners["left_over"] > 0
    assert record["pots"] == [
        {"pot": "Jackpot", "in": 25_000, "paid": 8_010, "carried": 16_990, "kept": 0},
        {"pot": "50/50", "in": 34_001, "paid": 17_000, "carried": 0, "kept": 17_001},
    ]
    assert record["house_keeps"] == 240_000 - paid + 17_001 == 24_000 + (216_000 - paid) + 17_001
    figures = {(f.section, f.label): f.cents for f in night_close(night).figures}
    assert figures[("Side pots", "Jackpot: carried over to the next night")] == 16_990
    assert figures[("Side pots", "50/50: left with the house")] == 17_001
    assert figures[("The house", "What the side pots leave")] == 17_001
    assert figures[("The house", "The house keeps")] == record["house_keeps"]


def test_pot_lines_survive_a_backup_and_a_restore_and_an_overdrawn_pot_is_refused(night):
    services.pot_line_add(night=night, pot="Bump cup", kind="in", cents=1_200)
    services.pot_line_add(night=night, pot="Bump cup", kind="paid", cents=1_000, reason="Table 1's winners")
    raw = backup.night_backup_bytes(night)
    overdrawn = json.loads(raw)
    overdrawn["pot_lines"][1]["cents"] = 1_300
    before = [(line.pot, line.kind, line.cents, line.reason) for line in night.pot_lines.all()]
    ids = list(night.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=night.pk).delete()
    Player.objects.filter(pk__in=ids).delete()
    with pytest.raises(ValidationError, match="Pot line 2: The Bump cup holds"):
        backup.night_restore(raw=_signed(overdrawn))
    restored = backup.night_restore(raw=raw)
    assert [(line.pot, line.kind, line.cents, line.reason) for line in restored.pot_lines.all()] == before
