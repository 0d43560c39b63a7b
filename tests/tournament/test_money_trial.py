"""What an independent trial of the money found (#34): a tapped button takes what it showed, amounts in another
currency refused, one draw of a pot per night."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.conftest import register
from tests.tournament.test_backup_meaning import fundraiser_file, refused, restored
from tests.tournament.test_night_form import sent
from tournament import services
from tournament.models import Entry, Payment

pytestmark = pytest.mark.django_db


@pytest.fixture
def priced(night):
    """$30 pre-registered, $40 at the door; four players."""
    services.money_settings(night=night, currency="usd", pre=3000, door=4000, member=None)
    register(night, 4)
    night.refresh_from_db()
    return night


def _first(night):
    return Entry.objects.filter(night=night).order_by("card").first()


def _button_form(page: str, entry) -> dict[str, str]:
    """What the page's payment buttons for `entry` send (hidden fields), as drawn."""
    row = page[page.index(f'id="entry-{entry.pk}"') :]
    form = row[row.index('class="pay"') :]
    form = form[: form.index("</form>")]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def _settings(client, night, **prices):
    data = {"currency": "USD", "pre": "30", "door": "40", "member": "", "house_share": "0", **prices}
    return client.post(reverse("tournament:money_settings", args=[night.pk]), data)


@pytest.mark.parametrize(
    ("change", "now"),
    [
        (lambda client, night, entry: _settings(client, night, pre="45"), "$45.00"),
        (
            lambda client, night, entry: client.post(
                reverse("tournament:money_kind", args=[night.pk, entry.pk]), {"kind": "door"}
            ),
            "$40.00",
        ),
    ],
)
def test_a_button_drawn_before_the_price_changed_records_nothing_and_says_the_new_price(
    organizer_client, priced, change, now
):
    entry = _first(priced)
    page = reverse("tournament:money", args=[priced.pk])
    tab1 = organizer_client.get(page).content.decode()
    assert "$30.00 cash" in tab1
    change(organizer_client, priced, entry)  # tab 2
    sent = {**_button_form(tab1, entry), "method": "cash"}
    answer = organizer_client.post(reverse("tournament:money_take", args=[priced.pk, entry.pk]), sent)
    body = answer.content.decode()
    assert f"The price changed to {now} since this page was drawn" in body and "check and tap again" in body
    assert not Payment.objects.filter(entry=entry).exists()
    assert f"{now} cash" in body  # the page drawn again with what is owed now
    again = {**_button_form(body, entry), "method": "cash"}
    organizer_client.post(reverse("tournament:money_take", args=[priced.pk, entry.pk]), again)
    assert [p.cents for p in Payment.objects.filter(entry=entry)] == [int(now[1:3]) * 100]


def test_a_button_drawn_with_the_price_of_now_takes_it(organizer_client, priced):
    entry = _first(priced)
    tab = organizer_client.get(reverse("tournament:money", args=[priced.pk])).content.decode()
    sent = {**_button_form(tab, entry), "method": "card"}
    organizer_client.post(reverse("tournament:money_take", args=[priced.pk, entry.pk]), sent)
    assert [(p.cents, p.method) for p in Payment.objects.filter(entry=entry)] == [(3000, "card")]


def _field_errors(body: str, field_id: str) -> str:
    """The page from the field `field_id` on (its refusal is drawn next to it)."""
    return body[body.index(f'id="{field_id}"') :][:3000]


@pytest.mark.parametrize("typed", ["€12.50", "¥500", "£5", "12.50 €", "12,50 EUR", "CHF 12.50"])
def test_a_price_in_another_currency_is_refused_beside_the_field_and_nothing_is_stored(organizer_client, priced, typed):
    answer = _settings(organizer_client, priced, pre=typed)
    body = answer.content.decode()
    assert answer.status_code == 200
    assert "This night is in USD: type the amount in dollars." in _field_errors(body, "id_pre")
    priced.refresh_from_db()
    assert priced.price_pre == 3000


def test_the_nights_own_symbol_and_code_are_read(organizer_client, priced):
    assert _settings(organizer_client, priced, pre="$12.50", door="12.50 USD").status_code == 302
    priced.refresh_from_db()
    assert (priced.price_pre, priced.price_door) == (1250, 1250)


def test_a_refund_in_another_currency_is_refused_beside_the_field(organizer_client, priced):
    entry = _first(priced)
    services.payment_take(night=priced, entry=entry, method="cash")
    refund = reverse("tournament:money_refund", args=[priced.pk, entry.pk])
    body = organizer_client.post(
        refund, {f"r{entry.pk}-cents": "€5", f"r{entry.pk}-method": "cash", f"r{entry.pk}-reason": "left"}
    ).content.decode()
    assert "This night is in USD: type the amount in dollars." in body
    assert [p.cents for p in Payment.objects.filter(entry=entry)] == [3000]


@pytest.mark.parametrize(
    ("field", "typed", "words"),
    [
        ("pre", "20000", "That is more than €10.000: check the amount."),
        ("pre", "-5", "An amount cannot be negative: type it without the minus sign."),
        ("door", "NaN", "“NaN” is not a number: type an amount like 20 or 20,50."),
        ("door", "$20", "This night is in EUR: type the amount in euros."),
    ],
)
def test_a_euro_nights_prices_are_refused_in_its_own_words(organizer_client, priced, field, typed, words):
    services.money_settings(night=priced, currency="EUR", pre=3000, door=4000, member=None)
    answer = _settings(organizer_client, priced, **{"currency": "EUR", "pre": "30", "door": "40", field: typed})
    assert words in _field_errors(answer.content.decode(), f"id_{field}")
    priced.refresh_from_db()
    assert (priced.price_pre, priced.price_door) == (3000, 4000)


def test_full_width_figures_are_read_in_a_price_as_in_a_draws_ticket_count(organizer_client, priced):
    assert _settings(organizer_client, priced, pre="２５").status_code == 302
    priced.refresh_from_db()
    assert priced.price_pre == 2500


@pytest.mark.parametrize(
    ("prizes", "words"),
    [
        ("high -5", "“high”: An amount cannot be negative: type it without the minus sign."),
        ("high NaN", "“high”: “NaN” is not a number: type an amount like 20 or 20.50."),
        ("high 50%, low 20000", "“low”: That is more than $10,000: check the amount."),
        ("high €20", "“high”: This night is in USD: type the amount in dollars."),
    ],
)
def test_a_prizes_money_that_cannot_be_read_names_the_prize_beside_the_field(organizer_client, priced, prizes, words):
    settings = reverse("tournament:night_settings", args=[priced.pk])
    form = organizer_client.get(settings).context["form"]
    answer = organizer_client.post(settings, sent(form, prizes=prizes))
    body = answer.content.decode()
    assert words.replace("'", "&#x27;") in _field_errors(body, "id_prizes")
    assert "Unknown prize" not in body
    priced.refresh_from_db()
    assert priced.payouts == ""


def test_a_draw_of_more_winners_than_the_one_player_says_so_in_plain_words(organizer_client, night):
    register(night, 1)
    answer = organizer_client.post(
        reverse("tournament:draw_make", args=[night.pk]), {"title": "Door", "count": "13", "pool_kind": "players"}
    )
    assert "Draw 1 winner (there is only 1 to draw from), not 13." in answer.content.decode()


def test_a_new_currency_keeps_the_prizes_money_as_shown_in_the_new_mark(organizer_client, priced):
    settings = reverse("tournament:night_settings", args=[priced.pk])
    organizer_client.post(settings, sent(organizer_client.get(settings).context["form"], prizes="high 50%, low $5"))
    answer = organizer_client.post(settings, sent(organizer_client.get(settings).context["form"], currency="EUR"))
    assert answer.status_code == 302
    priced.refresh_from_db()
    assert (priced.currency, priced.prizes_text) == ("EUR", "high 50%, low €5")


# ---- restores: only what the forms could make, said in the night's money --------------------------------------


def test_a_backup_in_a_currency_the_app_does_not_know_is_refused_with_the_ones_it_knows(organizer_client):
    data = fundraiser_file(organizer_client)
    data["night"]["currency"] = "XYZ"
    refused(organizer_client, data, "“currency”: XYZ is not a currency the app knows: use one of ", "EUR", "USD")


def test_a_euro_backups_pot_refusal_is_said_in_euros(organizer_client):
    data = fundraiser_file(organizer_client)
    data["night"]["currency"] = "EUR"
    paid = next(line for line in data["pot_lines"] if line["kind"] == "paid")
    paid["cents"] = 999999
    refused(organizer_client, data, "The 50/50 holds €40,00: it cannot pay or carry €9.999,99.")


def _payments_of(data: dict) -> tuple[dict, list[dict]]:
    """The file's first payment and every line of the same player."""
    first = data["payments"][0]
    return first, [line for line in data["payments"] if line["player"] == first["player"]]


def test_a_backup_with_a_comp_for_part_of_the_price_is_refused(organizer_client):
    data = fundraiser_file(organizer_client)
    data["night"]["currency"] = "EUR"
    first, lines = _payments_of(data)
    assert lines == [first] and first["cents"] == data["night"]["price_pre"] == 2000
    first.update(method="comp", cents=500)
    refused(organizer_client, data, "Payment 1: it comps ", "for €5,00, yet ", "owed €20,00", "a comp brings no money")


def test_a_backup_that_takes_money_from_a_comped_player_is_refused(organizer_client):
    data = fundraiser_file(organizer_client)
    data["night"]["currency"] = "EUR"
    first, _ = _payments_of(data)
    first.update(method="comp")
    data["payments"].append({**first, "method": "cash", "cents": 1250, "at": data["payments"][-1]["at"]})
    refused(
        organizer_client,
        data,
        f"Payment {len(data['payments'])}: it takes €12,50 from ",
        "whom a comp let in free and who owed nothing (paid €32,50 · €12,50 over)",
    )
    data["payments"].pop()
    assert restored(organizer_client, data).currency == "EUR"  # a whole comp restores


# ---- a pot is drawn once a night ----------------------------------------------------------------------------------


def _draw(client, night, key: str, **fields: str):
    sent = {"title": "50/50", "count": "1", "pool_kind": "tickets", "tickets": "40", "key": key, **fields}
    return client.post(reverse("tournament:draw_make", args=[night.pk]), sent)


def test_the_50_50_drawn_from_two_tabs_is_drawn_once_and_the_second_says_who_won(organizer_client, priced):
    first = _draw(organizer_client, priced, "tab1")
    assert first.status_code == 302
    winner = priced.draws.get().winners[0]
    second = _draw(organizer_client, priced, "tab2", title=" 50/50 ")
    body = second.content.decode()
    assert second.status_code == 200 and f"Already drawn: ticket {winner} (draw 1," in body
    assert priced.draws.count() == 1
    again = _draw(organizer_client, priced, "tab3", redraw="on")  # the organizer asks for it: drawn again
    assert again.status_code == 302 and priced.draws.count() == 2


def test_a_side_pots_draw_is_made_once_and_door_prizes_as_often_as_asked(organizer_client, priced):
    services.pot_line_add(night=priced, pot="Bump cup", kind="in", cents=1000)
    for key in ("a", "b"):
        _draw(organizer_client, priced, f"door-{key}", title="Door prize", pool_kind="players", tickets="")
    assert priced.draws.count() == 2
    _draw(organizer_client, priced, "cup-1", title="Bump cup", pool_kind="players", tickets="")
    name = Entry.objects.get(night=priced, card=priced.draws.get(title="Bump cup").winners[0]).name
    body = _draw(organizer_client, priced, "cup-2", title="bump  CUP", pool_kind="players", tickets="")
    assert f"Already drawn: {name}" in body.content.decode().replace("&#x27;", "'")
    assert priced.draws.count() == 3
