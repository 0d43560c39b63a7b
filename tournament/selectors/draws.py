"""The night's draws as the pages show them: each winner by card number and name (or ticket), and whether the
record replays to the same winners."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tournament.engine import draws
from tournament.models import Draw, Entry, Night


@dataclass(frozen=True)
class DrawView:
    number: int
    title: str
    at: dt.datetime
    by_tickets: bool
    pool_size: int
    seed: str
    winners: list[tuple[int, str]]  # (card or ticket number, name; "" for a ticket)
    replays: bool  # the seed and the pool give these winners again
    names: list[str]  # everyone in the pool, as the display runs through them before it stops

    tie: bool = False  # a tie's draw: among the players level for a prize
    check: str = ""  # the line that replays it with the README's recipe (`draws.RECIPE`): draw('…', [3, 5], 1)
    drawn: list[int] | None = None  # the winners' numbers in the order drawn, as the recipe gives them back

    @property
    def pool_words(self) -> str:
        if self.by_tickets:
            return f"{self.pool_size} ticket{'s' if self.pool_size != 1 else ''}"
        if self.tie:
            return f"the {self.pool_size} players level"
        return f"{self.pool_size} player{'s' if self.pool_size != 1 else ''} here"


def _view(draw: Draw, names: dict[int, str]) -> DrawView:
    by_tickets = draw.pool_kind == Draw.Pool.TICKETS
    label = (lambda number: "") if by_tickets else (lambda number: names.get(number, f"No. {number}"))
    return DrawView(
        number=draw.number,
        title=draw.title,
        at=draw.at,
        by_tickets=by_tickets,
        pool_size=len(draw.pool),
        seed=draw.seed,
        winners=[(number, label(number)) for number in draw.winners],
        replays=draws.replays(draw.seed, draw.pool, draw.winners),
        names=[f"Ticket {number}" for number in draw.pool[:400]]
        if by_tickets
        else [names.get(number, f"No. {number}") for number in draw.pool],
        tie=draw.pool_kind == Draw.Pool.TIE,
        check=draws.check_call(draw.seed, draw.pool, len(draw.winners)),
        drawn=list(draw.winners),
    )


def _names(night: Night) -> dict[int, str]:
    return dict(Entry.objects.filter(night=night).values_list("card", "name"))


def night_draws(night: Night) -> list[DrawView]:
    """Every draw of the night, the latest first."""
    names = _names(night)
    return [_view(draw, names) for draw in night.draws.order_by("-number")]


def draw_on_display(night: Night) -> DrawView | None:
    draw = night.draws.filter(on_display=True).order_by("-number").first()
    return _view(draw, _names(night)) if draw else None
