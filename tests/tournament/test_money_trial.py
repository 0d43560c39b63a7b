"""What an independent trial of the money found (#34): a tapped button takes what it showed, amounts in another
currency refused, one draw of a pot per night."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.conftest import register
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
