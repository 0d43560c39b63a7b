"""The only writers of the side pots (the 50/50, a bump cup, a loner basket, a jackpot): a line in, paid or carried
over, and a jackpot carried from an earlier night of the club taken in. One transaction each; never edited."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from ..engine import money
from ..models import Night, PotLine
from .nights import clean_name, create_once, form_key, lock_night

MOST_CENTS = 100_000_00


def _lines(night: Night) -> list[money.PotLine]:
    return [money.PotLine(line.pot, line.kind, line.cents) for line in PotLine.objects.filter(night=night)]


@transaction.atomic
def pot_line_add(*, night: Night, pot: str, kind: str, cents: int, reason: str = "", by=None, key: str = "") -> PotLine:
    """Money into a pot, paid from it to a winner (who, in `reason`), or carried over to the club's next night;
    refused where it would pay or carry more than the pot holds."""
    night = lock_night(night)
    key = form_key(key)
    if key and (done := PotLine.objects.filter(night=night, key=key).first()) is not None:
        return done  # the same line sent twice: stored once
    # A pot's name kept as names are (no zero-width or control character): "50/50" typed twice is one pot, however
    # it was pasted.
    pot, reason = clean_name(pot), " ".join(reason.split())
    if not pot:
        raise ValidationError({"pot": "Name the pot: “50/50”, “Bump cup”, “Jackpot”…"})
    if kind not in PotLine.Kind.values:
        raise ValidationError({"kind": "A line is money in, paid to a winner, or carried over."})
    if cents <= 0:  # a treasurer's trial: "0" was told "at most 100,000", where the field stops at €10.000
        raise ValidationError({"cents": "Type an amount more than 0."})
    if cents > MOST_CENTS:  # a pot's carried lines may add up past one typed amount's limit, never past this
        raise ValidationError({"cents": f"A pot's line is at most {money.shown(MOST_CENTS, night.currency)}."})
    if kind == PotLine.Kind.PAID and not reason:
        raise ValidationError({"reason": "Say who won it."})
    try:
        money.pot_totals([*_lines(night), money.PotLine(pot, kind, cents)], night.currency)
    except money.MoneyError as error:
        raise ValidationError({"cents": str(error)}) from error
    if kind == PotLine.Kind.CARRIED and not reason:
        reason = "carried over to the club's next night"
    made, _ = create_once(PotLine, key=key, night=night, pot=pot, kind=kind, cents=cents, reason=reason, by=by)
    Night.touch(night.pk)
    return made


@transaction.atomic
def pot_carry_take(*, night: Night, line_id: int, by=None) -> PotLine:
    """Take into this night's pot a jackpot an earlier night of its season carried over; each carry once."""
    night = lock_night(night)
    carried = next((line for line in PotLine.waiting_for(night) if line.pk == line_id), None)
    if carried is None:
        why = "it was taken in already, or its night is not in a season with this one"
        raise ValidationError({"carry": f"That money is not waiting for this night: {why}."})
    if carried.night.currency != night.currency:
        raise ValidationError(
            {"carry": money.carry_in_other_currency(carried.pot, carried.night.currency, night.currency)}
        )
    when = f"{carried.night.date:%d %b %Y}"
    try:
        with transaction.atomic():
            made = PotLine.objects.create(
                night=night,
                pot=carried.pot,
                kind=PotLine.Kind.IN,
                cents=carried.cents,
                reason=f"carried over from {carried.night.name} ({when})",
                carried_from=carried,
                carry_named=carried.carry_name(),  # kept should the carrying night be deleted and restored
                by=by,
            )
    except IntegrityError as error:  # another desk took it in at the same moment
        raise ValidationError({"carry": "That money was just taken in by another night."}) from error
    Night.touch(night.pk)
    return made
