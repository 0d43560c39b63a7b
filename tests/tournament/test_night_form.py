"""A night set up in a minute (issue 33): the short new-night form, the prizes and their money named once in one
field ("high 50%, low 30%, loners 20%"), the entry price with the night's currency, and "More settings" that opens
by itself on its own refusal. Through the pages, as the organizer sends them."""

from __future__ import annotations

import json
import re

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import rules
from tests.conftest import register
from tests.tournament.test_backup_refusals import signed
from tournament import backup, game, services
from tournament.models import NIGHT_SETTINGS, Entry, Night
from tournament.selectors import night_close

pytestmark = pytest.mark.django_db

POINT = rules.Hand(makers="NS", maker="N", tricks=3)  # N–S make their point: 1
LONER = rules.Hand(makers="EW", maker="E", tricks=5, alone=True)  # E alone takes all five: E–W 4


def sent(form: forms.BaseForm, **typed: str) -> dict[str, str]:
    """What the browser sends for `form` as the page shows it, with what the organizer typed over it."""
    data = {}
    for field in form:
        value = field.value()
        if isinstance(field.field.widget, forms.CheckboxInput):
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = str(value)
    return {**data, **typed}


def new_night(client, **typed: str):
    """The new-night form as shown, sent with `typed` over it."""
    url = reverse("tournament:night_create")
    return client.post(url, sent(client.get(url).context["form"], **typed))


def test_a_name_is_all_the_short_form_needs(organizer_client):
    answer = new_night(organizer_client, name="Thursday euchre")
    night = Night.objects.get()
    assert answer.status_code == 302 and answer["Location"] == night.get_absolute_url()
    assert (night.movement, night.games, night.hands_per_game, night.prizes, night.payouts) == (
        "progressive",
        10,
        8,
        "high,second,third,low,loners",
        "",
    )
    assert (night.price_pre, night.price_door, night.currency) == (0, 0, "USD")


def test_a_new_night_s_form_starts_with_the_cursor_in_its_name(organizer_client):
    """A trial: the volunteer tabbed four times to reach the name. The name's box has the cursor (autofocus); the
    form sent back refused puts it on the refusal instead (static/js/errors.js), and editing a night does not."""
    import re

    page = organizer_client.get(reverse("tournament:night_create")).content.decode()
    (name,) = re.findall(r'<input[^>]*name="name"[^>]*>', page)
    assert "autofocus" in name and page.count("autofocus") == 1
    refused = organizer_client.post(reverse("tournament:night_create"), {"name": ""}).content.decode()
    assert "autofocus" not in refused
    night = Night.objects.create(name="Friday euchre")
    assert (
        "autofocus" not in organizer_client.get(reverse("tournament:night_settings", args=[night.pk])).content.decode()
    )


def test_the_short_form_is_short_and_every_other_setting_is_under_more_settings(organizer_client):
    form = organizer_client.get(reverse("tournament:night_create")).context["form"]
    short = [field.name for row in form.short() for field in row]
    more = [field.name for _, fields in form.more() for field in fields]
    assert short == ["name", "date", "games", "movement", "price", "currency", "prizes"]
    assert sorted(short + more) == sorted({*NIGHT_SETTINGS, "price", "currency"})  # each once, none left off
    assert not form.more_errors()


def test_a_fundraiser_from_the_short_form_pays_its_prizes_from_the_cash_box(organizer_client):
    """$20 a head, eight players, one game: a pot of $160. Table 1 (the head table) ends 7–4 with E's loner, table 2
    5–2, so two players are level on 7 (high: 50%, $40 each), two on 2 (low: 30%, $24 each) and E has the loner
    (20%: $32)."""
    new_night(
        organizer_client, name="Harvest fundraiser", games="1", price="20", prizes="High 50%, low 30%, loners 20%"
    )
    night = Night.objects.get()
    assert (night.prizes, night.payouts, night.price_pre, night.price_door) == (
        "high,low,loners",
        "high 50%, low 30%, loners 20%",
        2000,
        2000,
    )
    register(night, 8)
    for entry in Entry.objects.filter(night=night):
        organizer_client.post(reverse("tournament:money_take", args=[night.pk, entry.pk]), {"method": "cash"})
    money_page = reverse("tournament:money", args=[night.pk])
    body = organizer_client.get(money_page).content.decode()
    assert "<b>high 50%, low 30%, loners 20%</b>" in body
    for prize, share in (("High score", "50% of the pot: $80.00"), ("Low score", "30% of the pot: $48.00")):
        assert f"<dt>{prize}</dt><dd>{share}</dd>" in body
    assert "<dt>Most loners</dt><dd>20% of the pot: $32.00</dd>" in body
    assert reverse("tournament:night_settings", args=[night.pk]) + "#id_prizes" in body
    assert 'name="payouts"' not in body  # the money is named with the prizes, not a second time here

    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    for hand in [LONER] + [POINT] * 7:
        game.hand_record(round_=round_, table=1, hand=hand)
    game.table_finish(round_=round_, table=1)
    game.table_result_submit(round_=round_, table=2, ns_points=5, ew_points=2)
    night.refresh_from_db()
    assert night.status == "playing"  # every table in: the last game waits for the organizer's Close
    game.round_close(round_=round_)
    night.refresh_from_db()
    assert night.status == "finished"

    close = night_close(night)
    paid = {prize.prize: (prize.money, len(prize.winners)) for prize in close.prizes}
    assert paid == {
        "High score": ("$40.00 each", 2),
        "Low score": ("$24.00 each", 2),
        "Most loners": ("$32.00", 1),
    }
    figures = {figure.label: figure.shown for figure in close.figures}
    assert (figures["Prize money paid"], figures["The house keeps"]) == ("$160.00", "$0.00")
    body = organizer_client.get(money_page).content.decode()
    assert "<dd>$40.00 each</dd>" in body and "<dd>$32.00</dd>" in body


@pytest.mark.parametrize(
    ("prizes", "refusal"),
    [
        ("high 50%, best 30%", "Unknown prize &#x27;best&#x27;"),  # money for a prize there is none of
        ("high 60%, low 50%", "The shares of the pot add up to more than 100%: they come to 110%, 10% too many."),
        ("high 50%, high $10", "“high” is named twice: name each prize once, with its money."),
        ("high $2O", "Type an amount like 20 or 20.50."),
        ("$20", "Name the prize its money is for, like “high $20”, not “$20” alone."),
        ("high 0%", "A share of the pot is 1% to 100%, not “0%”."),
        ("high 20.505", "Type at most two figures after the point (cents)."),
        (" , ", "Name at least one prize, e.g. “high, low”."),
    ],
)
def test_a_refused_prize_is_said_beside_the_field_and_more_settings_stays_closed(organizer_client, prizes, refusal):
    answer = new_night(organizer_client, name="Refused", prizes=prizes)
    body = answer.content.decode()
    field = body[body.index('id="id_prizes"') : body.index("<details")]
    assert refusal in field
    assert '<details class="more-settings">' in body  # closed: nothing under it is refused
    assert not Night.objects.exists()


def test_more_settings_opens_by_itself_on_its_own_refusal(organizer_client):
    body = new_night(organizer_client, name="Refused", points_target="100", tie_chain="luck").content.decode()
    assert '<details class="more-settings" open>' in body
    more = body[body.index("<details") :]
    assert "Type a number of points from 1 to 99, or 0 for no target." in more
    assert "Unknown tie-break &#x27;luck&#x27;" in more
    assert not Night.objects.exists()


def test_a_price_or_currency_the_box_cannot_take_is_said_beside_it(organizer_client):
    body = new_night(organizer_client, name="Refused", price="twenty", currency="dollars").content.decode()
    assert "Type an amount like 20 or 20.50." in body
    assert "Ensure this value has at most 3 characters (it has 7)." in body
    body = new_night(organizer_client, name="Refused", currency="U5D").content.decode()
    assert "A currency is three letters: USD, CAD, GBP, EUR…" in body
    assert not Night.objects.exists()


def test_the_settings_page_shows_the_prizes_with_their_money_and_changes_them_in_one_place(organizer_client, night):
    url = reverse("tournament:night_settings", args=[night.pk])
    form = organizer_client.get(url).context["form"]
    assert form["prizes"].value() == "high, second, third, low, loners"
    organizer_client.post(url, sent(form, prizes="high 40%, second $25.50, low, loners 10%", price="15"))
    night.refresh_from_db()
    assert (night.prizes, night.payouts) == ("high,second,low,loners", "high 40%, second $25.50, loners 10%")
    assert night.price_pre == night.price_door == 1500
    form = organizer_client.get(url).context["form"]
    assert form["prizes"].value() == "high 40%, second $25.50, low, loners 10%"
    organizer_client.post(url, sent(form, prizes="high, low"))  # the money taken off with the names
    night.refresh_from_db()
    assert (night.prizes, night.payouts, night.price_pre) == ("high,low", "", 1500)


def test_a_price_at_the_door_set_apart_on_the_money_page_stays_apart(organizer_client, night):
    services.money_settings(night=night, currency="CAD", pre=2000, door=2500, member=1500)
    url = reverse("tournament:night_settings", args=[night.pk])
    page = organizer_client.get(url)
    assert "At the door: $25.00, set apart on the Money page." in page.content.decode()
    organizer_client.post(url, sent(page.context["form"], price="18", prizes="high $50"))
    night.refresh_from_db()
    assert (night.price_pre, night.price_door, night.price_member, night.currency) == (1800, 2500, 1500, "CAD")
    assert night.prizes_text == "high $50"


def test_after_the_draw_the_prizes_their_money_and_the_price_still_change(organizer_client, night):
    register(night, 8)
    services.night_draw(night=night, seed=1)
    url = reverse("tournament:night_settings", args=[night.pk])
    form = organizer_client.get(url).context["form"]
    assert not form["prizes"].field.disabled and not form["price"].field.disabled
    organizer_client.post(url, sent(form, prizes="high 60%, low 40%", price="10"))
    night.refresh_from_db()
    assert (night.prizes_text, night.price_pre) == ("high 60%, low 40%", 1000)


def test_money_for_a_prize_the_night_does_not_award_is_refused(night):
    with pytest.raises(ValidationError) as refused:
        services.money_settings(night=night, currency="USD", pre=0, door=0, member=None, payouts="high:lady $10")
    assert refused.value.message_dict["payouts"] == [
        "“high:lady” is not one of the night's prizes (high, second, third, low, loners): name it among the "
        "prizes, with its money, on the night's Settings."
    ]
    services.money_settings(night=night, currency="USD", pre=0, door=0, member=None, payouts="low $10, high 50%")
    night.refresh_from_db()
    assert night.prizes_text == "high 50%, second, third, low $10, loners"  # in the prizes' order


def test_a_winners_stay_night_left_with_the_prizes_as_shown_crowns_a_champion(organizer_client):
    new_night(organizer_client, name="Stay", movement="winners-stay")
    assert Night.objects.get().prizes == "champion,second,third,high,low,loners"


def test_the_prizes_and_their_money_back_up_and_restore_and_an_older_backup_loses_nothing(night):
    night = services.night_update(night=night, prizes="high 50%, low $10, loners")
    raw = backup.night_backup_bytes(night)
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=raw)
    assert restored.prizes_text == "high 50%, low $10, loners"
    assert backup.night_backup_bytes(restored) == raw
    # A night from before the prizes were named once: money for a prize it did not award is kept as it was.
    data = json.loads(raw)
    Night.objects.filter(pk=restored.pk).delete()
    data["version"] = 2  # files from before version 3 (which gives money only to the night's prizes)
    data["night"].update(prizes="high,low", payouts="high 50%, second 30%")
    older = backup.night_restore(raw=signed(data))
    assert (older.prizes, older.payouts, older.prizes_text) == ("high,low", "high 50%, second 30%", "high 50%, low")
    Night.objects.filter(pk=older.pk).delete()
    data["night"].update(payouts="high lots")  # money the Money page could not read: refused, not a broken page
    with pytest.raises(ValidationError, match=re.escape("“payouts”: “high”: Type an amount like 20 or 20.50.")):
        backup.night_restore(raw=signed(data))
