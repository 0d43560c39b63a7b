"""The close of the night (#21): the prize sheet with a line for each winner to sign, and the cash reconciliation
(PDF and CSV), every figure from `tournament.engine.money` in cents."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.rehearsed import rehearsed
from tournament.engine import money
from tournament.models import Payment
from tournament.rehearsal import simulate
from tournament.selectors import night_close, night_standings


def text_of(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_house_keeps_the_net_less_the_prizes_and_that_is_its_share_plus_the_pot_kept():
    """$500 in, $40 refunded, the house 10%: a pot of $414; a 50% prize split three ways leaves a cent (20,700 / 3
    is 6,900 each: none), a $25.01 prize split two ways leaves one, a fixed $10 prize is paid whole."""
    cash = money.cash({1: 50_000}, [money.Line(1, 50_000, "cash"), money.Line(1, -4_000, "cash")])
    prizes = [
        money.prize_money(money.Payout(percent=50), 41_400, 3),
        money.prize_money(money.Payout(cents=2501), 41_400, 2),
        money.prize_money(money.Payout(cents=1000), 41_400, 1),
    ]
    close = money.reconcile(cash, 10, prizes)
    assert (close.cash.net, close.house_share, close.pot) == (46_000, 4_600, 41_400)
    assert [(prize.each, prize.left_over) for prize in prizes] == [(6_900, 0), (1_250, 1), (1_000, 0)]
    assert close.prizes_paid == 20_700 + 2_500 + 1_000 == 24_200
    assert close.left_over == 1 and close.winners_paid == 6
    assert close.house_keeps == 46_000 - 24_200 == 21_800
    assert close.house_keeps == close.house_share + close.kept_of_pot  # 4,600 + 17,200


def test_prizes_paying_more_than_came_in_leave_the_house_below_zero():
    cash = money.cash({1: 1_000}, [money.Line(1, 1_000, "card")])
    close = money.reconcile(cash, 0, [money.prize_money(money.Payout(cents=5_000), 1_000, 1)])
    assert close.house_keeps == -4_000 and close.kept_of_pot == -4_000


@pytest.fixture
def fundraiser(db):
    """A simulated 40-player fundraiser: $20 a head, the house's 10%, shares and a fixed loners prize."""
    return rehearsed(
        players=40,
        rounds=3,
        seed=2,
        money={
            **{"currency": "USD", "pre": 2000, "door": 2000, "member": None, "house_share": 10},
            "payouts": "high 50%, second 20%, low 5%, loners $25.01",
            "methods": ("cash", "card", "e-transfer"),
        },
    )


@pytest.mark.django_db
def test_the_reconciliation_adds_up_against_the_payments_and_the_prizes(fundraiser):
    close = night_close(fundraiser)
    figures = {(figure.section, figure.label): figure.cents for figure in close.figures}
    taken = sum(Payment.objects.filter(night=fundraiser).values_list("cents", flat=True))
    assert taken == 40 * 2000 == figures[("Entries", "Net entry money")]
    by_method = sum(cents for (section, label), cents in figures.items() if label.endswith("(less refunds)"))
    assert by_method == taken
    pot = 80_000 - 8_000
    assert figures[("Prizes", "The pot (net less the house's 10%)")] == pot
    prize_lines = [
        cents
        for (section, label), cents in figures.items()
        if section == "Prizes" and ":" in label  # one line a prize: "High score: Ann and Bob"
    ]
    assert sum(prize_lines) == figures[("Prizes", "Prize money paid")] == close.reconciliation.prizes_paid
    assert figures[("The house", "The house keeps")] == 80_000 - close.reconciliation.prizes_paid
    assert figures[("The house", "The house keeps")] == 8_000 + figures[("The house", "The pot not paid out")]
    awards = night_standings(fundraiser).awards
    assert [prize.prize for prize in close.prizes] == [award.prize for award in awards]
    assert all(len(prize.winners) == len(award.player_ids) for prize, award in zip(close.prizes, awards, strict=True))


@pytest.mark.django_db
def test_the_prize_sheet_and_the_reconciliation_print_from_the_money_page(organizer_client, fundraiser):
    page = organizer_client.get(reverse("tournament:money", args=[fundraiser.pk])).content.decode()
    for name in ("prize_sheet_pdf", "reconciliation_pdf"):
        assert reverse(f"tournament:{name}", args=[fundraiser.pk]) in page
    close = night_close(fundraiser)
    response = organizer_client.get(reverse("tournament:prize_sheet_pdf", args=[fundraiser.pk]))
    assert response["Content-Type"] == "application/pdf" and "prize-sheet" in response["Content-Disposition"]
    sheet = text_of(response.content)
    signatures = sum(len(prize.winners) for prize in close.prizes)
    assert sheet.count("Signed:") == signatures >= len(close.prizes)
    for prize in close.prizes:
        assert prize.prize in sheet
        assert all(name in sheet for _, name in prize.winners)
    assert f"Prize money paid in all: {close.paid}." in sheet
    reconciliation = text_of(
        organizer_client.get(reverse("tournament:reconciliation_pdf", args=[fundraiser.pk])).content
    )
    for figure in close.figures:
        assert figure.shown in reconciliation
    assert "The house keeps" in reconciliation and "Counted by:" in reconciliation
    rows = list(
        csv.reader(
            io.StringIO(organizer_client.get(reverse("tournament:money_csv", args=[fundraiser.pk])).content.decode())
        )
    )
    keeps = close.reconciliation.house_keeps
    assert ["total", "The house: The house keeps", "", f"{keeps // 100}.{keeps % 100:02d}", "", ""] in rows


@pytest.mark.django_db
def test_the_close_of_the_night_is_for_the_organizer(client, fundraiser):
    for name in ("prize_sheet_pdf", "reconciliation_pdf"):
        response = client.get(reverse(f"tournament:{name}", args=[fundraiser.pk]))
        assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.django_db
def test_a_night_without_prize_money_prints_its_prizes_as_items(organizer_client):
    night = simulate(players=8, rounds=2, seed=1)
    close = night_close(night)
    assert not close.pays_money and close.prizes and all(prize.money == "" for prize in close.prizes)
    sheet = text_of(organizer_client.get(reverse("tournament:prize_sheet_pdf", args=[night.pk])).content)
    assert "Prize money paid" not in sheet and "Signed:" in sheet


def _pages_of(content: bytes) -> list[list[tuple[float, str]]]:
    """Each page's lines of text as (height on the page in points, text), top to bottom."""
    pages = []
    for page in PdfReader(io.BytesIO(content)).pages:
        runs: list[tuple[float, str]] = []

        def visit(text, cm, tm, font, size, runs=runs):
            if text.strip():
                runs.append((tm[5] * cm[3] + cm[5], text.strip()))

        page.extract_text(visitor_text=visit)
        pages.append(sorted(runs, key=lambda run: -run[0]))
    return pages


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_reconciliation_that_fits_on_one_page_is_one_page(organizer_client, fundraiser, paper):
    """The house's section, the note and the signature lines follow the prizes on page 1 when there is room: no
    page left half empty before them."""
    fundraiser.paper = paper
    fundraiser.save(update_fields=["paper"])
    content = organizer_client.get(reverse("tournament:reconciliation_pdf", args=[fundraiser.pk])).content
    (page,) = _pages_of(content)
    texts = [text for _, text in page]
    for section in ("Entries", "Prizes", "The house"):
        assert section in texts
    assert texts.index("Prizes") < texts.index("The house") < texts.index("The house keeps")
    assert any(text.startswith("Counted by:") for text in texts)


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_long_reconciliation_fills_page_1_before_it_runs_on(organizer_client, fundraiser, paper):
    """Twelve side pots run the sheet past a page: page 1 is written down to its foot, and the house's section
    comes whole after the pots, with the note and both signatures under it."""
    from tournament import services

    fundraiser.paper = paper
    fundraiser.save(update_fields=["paper"])
    for number in range(1, 13):
        services.pot_line_add(night=fundraiser, pot=f"Raffle {number}", kind="in", cents=10_000 + number)
        services.pot_line_add(night=fundraiser, pot=f"Raffle {number}", kind="paid", cents=5_000, reason="Ann")
    content = organizer_client.get(reverse("tournament:reconciliation_pdf", args=[fundraiser.pk])).content
    pages = _pages_of(content)
    assert len(pages) == 2
    lowest_on_page_1 = pages[0][-1][0]
    assert lowest_on_page_1 < 842 / 4  # written down into its last quarter: nothing forced the rest on
    house = [text for _, text in pages[-1]]
    assert house.index("The house") < house.index("The house keeps") < len(house) - 1
    assert any(text.startswith("Counted by:") for text in house)
    every = "\n".join(text for page in pages for _, text in page)
    for figure in night_close(fundraiser).figures:
        assert figure.shown in every


@pytest.mark.django_db
def test_a_house_that_pays_more_than_it_took_says_so_plainly_on_the_sheet_and_in_the_csv(organizer_client):
    """Eight players at $5 and a fixed $100 for the high score: the pot holds $40, so the house pays $60 of it. The
    reconciliation and the CSV say so in words, never a bare "The house keeps −$60.00"."""
    door = {"currency": "USD", "pre": 500, "door": 500, "member": None, "payouts": "high $100", "methods": ("cash",)}
    night = simulate(players=8, rounds=1, seed=2, money=door)
    assert night_close(night).reconciliation.house_keeps == 4_000 - 10_000
    sheet = " ".join(
        text_of(organizer_client.get(reverse("tournament:reconciliation_pdf", args=[night.pk])).content).split()
    )
    assert "The house keeps nothing: it pays $60.00 more than it took in" in sheet
    assert "The house keeps −$60.00" not in sheet
    rows = list(
        csv.reader(io.StringIO(organizer_client.get(reverse("tournament:money_csv", args=[night.pk])).content.decode()))
    )
    assert [
        "total",
        "The house: The house keeps nothing: it pays $60.00 more than it took in",
        "",
        "-60.00",
        "",
        "",
    ] in rows


def test_a_prize_nobody_won_is_said_with_its_money_and_the_house_keeps_it(organizer_client):
    """Twelve players at $12.50, the whole pot in shares (high 50%, low 30%, loners 20%), every game in by its
    totals at the desk, so nobody made a loner: the Money page pays out $120.00 of the $150.00 and says where the
    other $30.00 is, and the reconciliation keeps it for the house."""
    door = {
        **{"currency": "USD", "pre": 1250, "door": 1250, "member": None},
        **{"payouts": "high 50%, low 30%, loners 20%", "methods": ("cash",)},
    }
    night = simulate(players=12, rounds=2, seed=4, money=door, entry="totals")
    page = " ".join(organizer_client.get(reverse("tournament:money", args=[night.pk])).content.decode().split())
    assert "<dt>Paid out</dt><dd>$120.00</dd>" in page
    assert "Not won: Most loners ($30.00). Nobody could take it: the house keeps that money." in page
    assert night_close(night).reconciliation.house_keeps == 3_000
