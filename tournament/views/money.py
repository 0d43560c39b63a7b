"""The door list's money: the night's prices, who paid and how, refunds with their reasons, and the cash."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..engine import draws, money
from ..forms import DrawForm, MoneySettingsForm, PotLineForm, RefundForm, apply_errors, new_key
from ..models import Entry, Night
from ..permissions import organizer_required

TEMPLATE = "tournament/money.html"


def _page(request, night: Night, **extra):
    door = selectors.door_money(night)
    standings = selectors.night_standings(night)
    for row in door.rows:
        row.refund_form = RefundForm(prefix=f"r{row.entry.pk}", currency=night.currency)
        row.take_key = new_key()  # the line's payment buttons: a double tap takes the money once
    settings = extra.pop("settings_form", None) or MoneySettingsForm(
        currency=night.currency,
        initial={
            "currency": night.currency,
            "pre": money.typed(night.price_pre, night.currency),
            "door": money.typed(night.price_door, night.currency),
            "member": money.typed(night.price_member, night.currency) if night.price_member is not None else "",
            "house_share": night.house_share,
        },
    )
    context = {
        "night": night,
        "door": door,
        "settings_form": settings,
        "methods": money.METHODS[:-1],
        "prize_money": selectors.prize_payouts(night, door.cash.net, standings.awards),
        "prizes": selectors.night_prizes(night, door.cash.net),
        "draw_form": extra.pop("draw_form", None) or DrawForm(tied=_tied(_tied_awards(standings))),
        "pot_form": extra.pop("pot_form", None) or PotLineForm(currency=night.currency),
        "pots": selectors.night_pots(night),
        "draws": selectors.night_draws(night),
        "draw_recipe": draws.RECIPE,
        # A night that is over keeps its money (`services.nights.require_unfinished`): the page offers no control
        # that would be refused, and says why once.
        "over": night.status == Night.Status.FINISHED,
        "money_left": selectors.money_left(night),
        **extra,
    }
    return TemplateResponse(request, TEMPLATE, context)


@organizer_required
def money_page(request, night_id: int):
    return _page(request, get_object_or_404(Night, pk=night_id))


@organizer_required
@require_POST
def money_settings(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = MoneySettingsForm(request.POST, currency=night.currency)
    if form.is_valid():
        try:
            services.money_settings(night=night, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("tournament:money", night.pk)
    return _page(request, night, settings_form=form)


@organizer_required
@require_POST
def money_take(request, night_id: int, entry_id: int):
    """A button on the door list: what the player owes, by this method (or let in free: comp)."""
    return _row_action(
        request,
        night_id,
        entry_id,
        lambda night, entry: services.payment_take(
            night=night,
            entry=entry,
            method=request.POST.get("method", ""),
            by=request.user,
            key=request.POST.get("key", ""),
            expected=_shown_cents(request.POST.get("owed")),
        ),
    )


def _shown_cents(value: str | None) -> int | None:
    """The amount a payment button showed, in cents, as the page wrote it beside the button (None: not sent, or not
    a whole number of cents, when the button takes what is owed as before)."""
    value = (value or "").strip()
    return int(value) if value.isdecimal() and value.isascii() and len(value) <= 9 else None


@organizer_required
@require_POST
def money_kind(request, night_id: int, entry_id: int):
    """Which price a player pays: pre-registered, at the door, a member's."""
    return _row_action(
        request,
        night_id,
        entry_id,
        lambda night, entry: services.entry_price_kind(night=night, entry=entry, kind=request.POST.get("kind", "")),
    )


def _row_action(request, night_id: int, entry_id: int, act):
    """One player's line changed; a refusal is shown on that line, the page drawn again."""
    night = get_object_or_404(Night, pk=night_id)
    entry = get_object_or_404(Entry, pk=entry_id, night=night)
    try:
        act(night, entry)
    except ValidationError as error:
        return _page(request, night, row_error=(entry.pk, " ".join(error.messages)))
    return redirect(f"{reverse('tournament:money', args=[night.pk])}#entry-{entry.pk}")


@organizer_required
@require_POST
def money_refund(request, night_id: int, entry_id: int):
    night = get_object_or_404(Night, pk=night_id)
    entry = get_object_or_404(Entry, pk=entry_id, night=night)
    form = RefundForm(request.POST, prefix=f"r{entry.pk}", currency=night.currency)
    if form.is_valid():
        try:
            services.payment_refund(night=night, entry=entry, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect(f"{reverse('tournament:money', args=[night.pk])}#entry-{entry.pk}")
    return _page(request, night, refund_form=(entry.pk, form))


@organizer_required
@require_POST
def pot_add(request, night_id: int):
    """A line of a side pot: money in, paid to a winner, or carried over to the club's next night."""
    night = get_object_or_404(Night, pk=night_id)
    form = PotLineForm(request.POST, currency=night.currency)
    return _sent(
        request,
        night,
        form,
        "pot_form",
        "pots",
        lambda data: services.pot_line_add(night=night, by=request.user, **data),
    )


@organizer_required
@require_POST
def pot_take(request, night_id: int):
    """Take in a jackpot an earlier night of the season carried over."""
    night = get_object_or_404(Night, pk=night_id)
    line = request.POST.get("line", "")
    try:
        services.pot_carry_take(
            night=night, line_id=int(line) if line.isdecimal() and len(line) < 10 else 0, by=request.user
        )
    except ValidationError as error:
        return _page(request, night, carry_error=" ".join(error.messages))
    return redirect(f"{reverse('tournament:money', args=[night.pk])}#pots")


def _tied_awards(standings: selectors.NightStandings) -> dict[str, selectors.AwardRow]:
    return {award.key: award for award in standings.awards if award.tie}


def _tied(awards: dict[str, selectors.AwardRow]) -> list[tuple[str, str]]:
    return [(key, f"{award.prize}: {' and '.join(award.names)}") for key, award in awards.items()]


def _sent(request, night: Night, form, name: str, anchor: str, act):
    """A form of the Money page sent: done, back to its card; refused, the page again with the form beside it."""
    if form.is_valid():
        try:
            act(form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect(f"{reverse('tournament:money', args=[night.pk])}#{anchor}")
    return _page(request, night, **{name: form})


@organizer_required
@require_POST
def draw_make(request, night_id: int):
    """A draw made now, recorded with its seed, and shown on the room display; a tie's draw is among the players
    the standings have level for the prize (their card numbers)."""
    night = get_object_or_404(Night, pk=night_id)
    tied = _tied_awards(selectors.night_standings(night))
    form = DrawForm(request.POST, tied=_tied(tied))

    def make(data):
        award = tied.get(data["prize"])
        cards = {entry.player_id: entry.card for entry in selectors.night_entries(night)}
        level = [cards[player] for player in award.player_ids if player in cards] if award else []
        services.draw_make(night=night, by=request.user, tied=level, **data)

    return _sent(request, night, form, "draw_form", "draws", make)


@organizer_required
@require_POST
def draw_hide(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    services.draw_hide(night=night)
    return redirect(f"{reverse('tournament:money', args=[night.pk])}#draws")
