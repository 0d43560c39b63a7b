"""The only writer of draws: one made from the players here or the tickets sold, and one taken off the room display.
One transaction each; a draw is never edited (its seed and its pool give its winners, `tournament.engine.draws`)."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from ..engine import draws
from ..models import Draw, Entry, Night, Player, PotLine
from .nights import form_key, lock_night

MOST_TICKETS = 100_000


@transaction.atomic
def draw_make(
    *,
    night: Night,
    title: str,
    count: int,
    pool_kind: str,
    tickets: int | None = None,
    prize: str = "",
    tied: Sequence[int] = (),
    by=None,
    key: str = "",
    redraw: bool = False,
) -> Draw:
    """Draw `count` winners for `title` from the players here (checked in, still playing), from tickets 1..N, or
    (a tie) one of the players level for `prize` (`tied`: their card numbers, from the standings); record it with
    its seed, and put it on the room display. A tie's draw settles the prize: the standings give it to the one drawn.
    `key`: the form's one-time key; the same form sent again (a double tap, two posts at once) gives back the draw
    the first made, never a second draw with other winners.

    A pot's draw (one winner for the 50/50 or another of the night's side pots) and a tie's draw are made once a
    night: a second, from another tab or another key, is refused with the first's winner, unless the organizer
    asks to draw it again (`redraw`; the first stays in the record)."""
    night = lock_night(night)
    key = form_key(key)
    if key and (done := Draw.objects.filter(night=night, key=key).first()) is not None:
        return done
    title = " ".join(title.split())
    if not title:
        raise ValidationError({"title": "Say what the draw is for: “Door prize”, “50/50”…"})
    if pool_kind == Draw.Pool.TICKETS:
        if tickets is None or not 1 <= tickets <= MOST_TICKETS:
            raise ValidationError({"tickets": f"Say how many tickets were sold (1 to {MOST_TICKETS:,})."})
        pool = list(range(1, tickets + 1))
    elif pool_kind == Draw.Pool.TIE:
        if len(set(tied)) < 2:
            raise ValidationError({"prize": "Choose a prize that is tied: there is nobody to draw between."})
        if count != 1:
            raise ValidationError({"count": "A tie's draw has one winner."})
        pool = sorted(set(tied))
    elif pool_kind == Draw.Pool.PLAYERS:
        here = Entry.objects.filter(night=night, active=True, checked_in=True, player__house=False)
        pool = sorted(here.values_list("card", flat=True))
    else:
        raise ValidationError(
            {"pool_kind": "Draw from the players here, the tickets sold or the players level for a prize."}
        )
    if not redraw and count == 1 and (earlier := _drawn_before(night, title, pool_kind, prize)) is not None:
        raise ValidationError(
            {
                "title": f"Already drawn: {_winner_words(night, earlier)} (draw {earlier.number}, "
                f"“{earlier.title}”). To draw it again, tick “Draw again”: the first draw stays in the record."
            }
        )
    seed = draws.new_seed()
    try:
        winners = draws.pick(seed, pool, count)
    except draws.DrawError as error:
        raise ValidationError({"count": str(error)}) from error
    Draw.objects.filter(night=night, on_display=True).update(on_display=False)
    number = (night.draws.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    made = Draw.objects.create(
        night=night,
        number=number,
        title=title,
        pool_kind=pool_kind,
        prize=prize if pool_kind == Draw.Pool.TIE else "",
        pool=pool,
        seed=seed,
        winners=winners,
        by=by,
        key=key,
    )
    Night.touch(night.pk, moved=True)  # the room display shows it
    return made


@transaction.atomic
def draw_hide(*, night: Night) -> None:
    """Take the draw off the room display (the record stays)."""
    night = lock_night(night)
    if Draw.objects.filter(night=night, on_display=True).update(on_display=False):
        Night.touch(night.pk, moved=True)


def _folded(name: str) -> str:
    return Player.key_for(name)


def _drawn_before(night: Night, title: str, pool_kind: str, prize: str) -> Draw | None:
    """The night's earlier draw of the same one-winner pot: the same tied prize, or a title that names the 50/50
    or one of the night's side pots (names compared as names are: case, spaces and invisible characters aside)."""
    one = Draw.objects.filter(night=night).order_by("number")
    if pool_kind == Draw.Pool.TIE:
        return next((draw for draw in one.filter(pool_kind=Draw.Pool.TIE, prize=prize) if len(draw.winners) == 1), None)
    folded = _folded(title)
    pots = {_folded(name) for name in PotLine.objects.filter(night=night).values_list("pot", flat=True)}
    if "50/50" not in folded and folded not in pots:
        return None
    return next(
        (
            draw
            for draw in one.exclude(pool_kind=Draw.Pool.TIE)
            if len(draw.winners) == 1 and _folded(draw.title) == folded
        ),
        None,
    )


def _winner_words(night: Night, draw: Draw) -> str:
    number = draw.winners[0]
    if draw.pool_kind == Draw.Pool.TICKETS:
        return f"ticket {number}"
    name = Entry.objects.filter(night=night, card=number).values_list("name", flat=True).first()
    return f"{name} (No. {number})" if name else f"No. {number}"
