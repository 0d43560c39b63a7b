"""The only writers of the door's money: the night's prices, each player's price, payments and refunds. One
transaction each; nothing is edited: a refund or a correction is a new line with its reason (`tournament.engine.money`
works out every figure)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.prizes import valid_prize

from ..engine import money
from ..models import Entry, Night, Payment
from .nights import create_once, form_key, lock_night, prizes_ask, prizes_questions, require_unfinished


def _locked_entry(night: Night, entry: Entry) -> Entry:
    found = Entry.objects.select_related("player").filter(pk=entry.pk, night=night).first()
    if found is None:
        raise ValidationError({"entry": "That player is not on this night's list."})
    return found


def _substitutes(night: Night) -> dict[int, int]:
    """The night's substitutes: each one's player -> the player they replaced."""
    found = Entry.objects.filter(night=night, substitute_for__isnull=False)
    return dict(found.values_list("player_id", "substitute_for__player_id"))


def _holder(night: Night, entry: Entry) -> Entry:
    """The entry `entry` plays on: their own, or for a substitute the entry of the first player of their line."""
    if entry.substitute_for_id is None:
        return entry
    player = money.entry_of(entry.player_id, _substitutes(night))
    return Entry.objects.select_related("player").get(night=night, player_id=player)


def entry_money(entry: Entry) -> money.Standing:
    """Where the entry `entry` plays on stands: their own, or for a substitute the one they took over (a seat is
    paid for once: what anyone who played in it paid counts)."""
    night = entry.night
    subs = _substitutes(night)
    holder = _holder(night, entry)
    seat = {holder.player_id} | {player for player in subs if money.entry_of(player, subs) == holder.player_id}
    paid = Payment.objects.filter(entry__night=night, entry__player_id__in=seat)
    lines = [money.Line(*line) for line in paid.values_list("entry__player_id", "cents", "method")]
    drawn = night.status != Night.Status.SETUP
    prices = {holder.player_id: money.asked(night.prices().of(holder.price_kind), came=holder.checked_in, drawn=drawn)}
    return money.entries(prices, lines, subs)[holder.player_id]


@transaction.atomic
def money_settings(
    *,
    night: Night,
    currency: str,
    pre: int,
    door: int,
    member: int | None,
    payouts: str | None = None,
    house_share: int = 0,
    confirmed: bool = False,
) -> Night:
    """The night's prices in cents (a member's price of None: the pre-registered price), its currency and the
    house's share of the entry money; `payouts` gives money to some of the night's prizes ("high 50%, low $10"; None:
    as they are). The prizes themselves, with their money, are named on the night's form (`night_update`). Money the
    pot cannot cover, or a category prize nobody tonight is in, is asked about first, as on the night's form, unless
    `confirmed` (`nights.prizes_questions`)."""
    night = lock_night(night)
    require_unfinished(night, "currency", "its prices, currency and prize money no longer change")
    try:
        currency = money.currency_code(currency)
    except money.MoneyError as error:
        raise ValidationError({"currency": str(error)}) from error
    for name, cents in (("pre", pre), ("door", door), ("member", member)):
        if cents is not None and not 0 <= cents <= money.MAX_CENTS:
            raise ValidationError({name: f"A price is from 0 to {money.limit_words(currency)}."})
    if payouts is not None:
        try:
            paid = money.parse_payouts(payouts, currency)
        except money.MoneyError as error:
            raise ValidationError({"payouts": str(error)}) from error
        if unknown := [key for key in paid if not valid_prize(key)]:
            raise ValidationError(
                {"payouts": f"“{unknown[0]}” is not a prize: use the night's prizes ({night.prizes})."}
            )
        if missing := [key for key in paid if key not in night.prize_keys]:
            raise ValidationError(
                {
                    "payouts": f"“{missing[0]}” is not one of the night's prizes ({', '.join(night.prize_keys)}): "
                    "name it among the prizes, with its money, on the night's Settings."
                }
            )
        prizes = [money.Prize(key, paid.get(key)) for key in night.prize_keys]
        if not confirmed and 0 <= house_share <= 100:
            prizes_ask("payouts", prizes_questions(night, prizes, house_share))
        night.payouts = money.prizes_text([prize for prize in prizes if prize.payout], currency)
    if not 0 <= house_share <= 100:
        raise ValidationError({"house_share": "The house keeps 0 to 100 percent."})
    if payouts is None and currency != night.currency:
        night.payouts = money.payouts_in(night.payouts, currency)  # the prizes' money in the night's new mark
    night.currency, night.price_pre, night.price_door, night.price_member = currency, pre, door, member
    night.house_share = house_share
    night.save(update_fields=["currency", "price_pre", "price_door", "price_member", "payouts", "house_share"])
    Night.touch(night.pk, moved=True)  # the room display's prize money
    return night


@transaction.atomic
def entry_price_kind(*, night: Night, entry: Entry, kind: str) -> Entry:
    """Which price a player pays: pre-registered, at the door, or a member's."""
    night = lock_night(night)
    require_unfinished(night, "kind", "the prices its players paid no longer change")
    entry = _locked_entry(night, entry)
    if kind not in money.KINDS:
        raise ValidationError({"kind": "The price is pre-registered, at the door, or a member's."})
    if entry.substitute_for_id is not None:
        holder = _holder(night, entry)
        raise ValidationError(
            {
                "kind": f"{entry.name} plays on {holder.name}'s entry (a seat is paid for once): "
                f"change the price on {holder.name}'s line."
            }
        )
    entry.price_kind = kind
    entry.save(update_fields=["price_kind"])
    return entry


@transaction.atomic
def payment_take(
    *,
    night: Night,
    entry: Entry,
    method: str,
    cents: int | None = None,
    by=None,
    key: str = "",
    expected: int | None = None,
) -> Payment:
    """Money in from a player: `cents` (None: what they owe) by `method`; "comp" lets them in free (what they owe,
    counted as paid, no money in). A substitute owes what is still owed on the entry they took over, if anything.

    `expected` is the amount the tapped button showed: where what is owed now differs (another tab changed a price
    or the player's kind of price since the page was drawn), nothing is recorded and the person is told, so the
    box never holds other money than the button said."""
    night = lock_night(night)
    key = form_key(key)
    if key and (done := Payment.objects.filter(night=night, key=key).first()) is not None:
        return done  # the same tap sent twice: taken once
    require_unfinished(night, "cents", "its cash is counted (the prize pot is a share of it)")
    entry = _locked_entry(night, entry)
    if method not in money.METHODS:
        raise ValidationError({"method": f"Paid by {', '.join(money.METHODS)}."})
    owed = entry_money(entry).owed
    if cents is None or method == "comp":
        if not owed:
            holder = _holder(night, entry)
            whose = f" plays on {holder.name}'s entry, which" if holder.pk != entry.pk else ""
            raise ValidationError({"cents": f"{entry.name}{whose} owes nothing: nothing was recorded."})
        cents = owed
    if expected is not None and owed != expected:
        raise ValidationError(
            {
                "cents": f"The price changed to {money.shown(owed, night.currency)} since this page was drawn "
                f"(the button said {money.shown(expected, night.currency)}): check and tap again."
                if owed
                else f"{entry.name} owes nothing now (the button said {money.shown(expected, night.currency)}): "
                "nothing was recorded."
            }
        )
    if cents <= 0:
        raise ValidationError({"cents": "An amount paid is more than 0 (a refund is its own line)."})
    Night.touch(night.pk)  # the prize money shown beside the standings follows the pot
    by = by if getattr(by, "is_authenticated", False) else None
    return create_once(Payment, key=key, night=night, entry=entry, cents=cents, method=method, by=by)[0]


@transaction.atomic
def payment_refund(
    *, night: Night, entry: Entry, cents: int, method: str, reason: str, by=None, key: str = ""
) -> Payment:
    """Money back to a player (or a correction): a new line taking `cents` off `method`, with its reason; never
    more than the player paid by that method."""
    night = lock_night(night)
    key = form_key(key)
    if key and (done := Payment.objects.filter(night=night, key=key).first()) is not None:
        return done  # the same refund sent twice: given back once
    require_unfinished(night, "cents", "its cash is counted (the prize pot is a share of it)")
    entry = _locked_entry(night, entry)
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError({"reason": "Say why (a refund or a correction needs a reason)."})
    if method not in money.METHODS:
        raise ValidationError({"method": f"Refunded by {', '.join(money.METHODS)}."})
    paid = sum(p.cents for p in Payment.objects.filter(entry=entry, method=method))
    have = money.shown(paid, night.currency)
    if method == "comp" and paid and cents != paid:  # a comp lets a player in free, whole: it goes back whole
        raise ValidationError(
            {
                "cents": f"A comp is taken back whole: {entry.name}'s is {have}. "
                f"Type {money.typed(paid, night.currency)}."
            }
        )
    if not paid:
        raise ValidationError({"cents": f"{entry.name} paid nothing by {method}: there is nothing to give back."})
    if not 0 < cents <= paid:
        raise ValidationError({"cents": f"{entry.name} paid {have} by {method}: refund more than 0, up to that."})
    Night.touch(night.pk)
    by = by if getattr(by, "is_authenticated", False) else None
    return create_once(
        Payment, key=key, night=night, entry=entry, cents=-cents, method=method, reason=reason[:200], by=by
    )[0]
