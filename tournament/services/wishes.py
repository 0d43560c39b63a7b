"""The only writer of a night's partner wishes: never-partner pairs, always-partner pairs and the two-group rule.

The organizer writes the pairs as a list, one pair a line ("Mary Smith & John Smith"); saving replaces the
night's list. Names are found however they are typed among the night's players. The seating reads the wishes at
the draw and at every game after it, so a change counts from the next game seated. One transaction.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring import names

from ..engine.wishes import WishError, Wishes, parse_groups
from ..models import Entry, Night, PartnerWish
from .nights import lock_night, require_unfinished
from .seating import reseat_if_waiting

# "Mary Smith & John Smith", "Mary Smith and John Smith", "Mary Smith + John Smith", "Mary Smith / John Smith".
_BETWEEN = re.compile(r"\s+(?:&|and|\+|with)\s+|\s*[&+/;]\s*", re.IGNORECASE)
MOST_PAIRS = 300
GROUPS_LENGTH = 81  # Night.partner_groups


def _finder(night: Night):
    """A function from a name as typed to (player id, name), or a reason it finds nobody, or more than one."""
    people = [
        (player, name, names.fold(name))
        for player, name in Entry.objects.filter(night=night, player__house=False)
        .values_list("player_id", "name")
        .order_by("id")
    ]

    def find(typed: str) -> tuple[int, str]:
        folded = names.fold(typed)
        if not folded:
            raise ValueError("a name is missing")
        for whole in (True, False):  # the whole name first, then a part of one
            found = [(p, name) for p, name, key in people if (key == folded if whole else folded in key)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                shown = " or ".join(name for _, name in found[:3])
                raise ValueError(f"“{typed}” could be {shown}: write the whole name")
        raise ValueError(f"nobody called “{typed}” is on tonight's list")

    return find


def _pairs(text: str, find, field: str) -> list[tuple[int, int, str]]:
    """(first, second, line) for each line of `text`; a ValidationError on `field` naming the first bad line."""
    pairs: list[tuple[int, int, str]] = []
    seen: set[frozenset[int]] = set()
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if len(lines) > MOST_PAIRS:
        raise ValidationError({field: f"At most {MOST_PAIRS} pairs."})
    for number, line in enumerate(lines, start=1):
        parts = [part for part in _BETWEEN.split(line) if part.strip()]
        if len(parts) != 2:
            raise ValidationError(
                {field: f"Line {number} (“{line}”): write two names, e.g. “Mary Smith & John Smith”."}
            )
        try:
            (a, a_name), (b, b_name) = find(parts[0]), find(parts[1])
        except ValueError as error:
            raise ValidationError({field: f"Line {number}: {error}."}) from error
        if a == b:
            raise ValidationError({field: f"Line {number}: {a_name} is named twice."})
        if frozenset((a, b)) in seen:
            raise ValidationError({field: f"Line {number}: {a_name} and {b_name} are listed already."})
        seen.add(frozenset((a, b)))
        pairs.append((min(a, b), max(a, b), f"{a_name} & {b_name}"))
    return pairs


@transaction.atomic
def night_wishes_set(*, night: Night, never: str, always: str, groups: str) -> Night:
    """Replace the night's partner wishes with these lists and this two-group rule, or refuse all of it."""
    night = lock_night(night)
    require_unfinished(night, "never", "its seating and partner wishes no longer change")
    try:
        parse_groups(groups)
    except WishError as error:
        raise ValidationError({"partner_groups": str(error)}) from error
    find = _finder(night)
    apart = _pairs(never, find, "never")
    together = _pairs(always, find, "always")
    mates: dict[int, str] = {}
    for a, b, line in together:
        for player in (a, b):
            if player in mates:
                raise ValidationError({"always": f"“{line}”: one of them is already in “{mates[player]}”."})
            mates[player] = line
    both = {frozenset((a, b)) for a, b, _ in apart} & {frozenset((a, b)) for a, b, _ in together}
    if both:
        line = next(line for a, b, line in together if frozenset((a, b)) in both)
        raise ValidationError({"always": f"“{line}” is on both lists: take it off one."})
    try:
        Wishes(never=frozenset(frozenset(p[:2]) for p in apart), always=frozenset(frozenset(p[:2]) for p in together))
    except WishError as error:  # the checks above say it in names; this is the engine's own word on it
        raise ValidationError({"always": str(error)}) from error
    groups = " ".join(groups.split())
    if len(groups) > GROUPS_LENGTH:
        raise ValidationError({"partner_groups": "Two short names, e.g. “lady, man”."})
    night.partner_groups = groups
    night.save(update_fields=["partner_groups"])
    PartnerWish.objects.filter(night=night).delete()
    PartnerWish.objects.bulk_create(
        [PartnerWish(night=night, kind=PartnerWish.Kind.NEVER, first_id=a, second_id=b) for a, b, _ in apart]
        + [PartnerWish(night=night, kind=PartnerWish.Kind.ALWAYS, first_id=a, second_id=b) for a, b, _ in together]
    )
    reseat_if_waiting(night)
    Night.touch(night.pk, moved=True)
    return night
