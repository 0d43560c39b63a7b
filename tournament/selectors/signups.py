"""Who signed up for a night from its public link, and where each waiting player stands."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import names as name_order
from tournament.models import Night, SignUp


@dataclass(frozen=True)
class NightSignUps:
    signed: list[SignUp]  # in: registered, expected at the door
    waiting: list[SignUp]  # the waitlist, first first
    withdrawn: int

    @property
    def any(self) -> bool:
        return bool(self.signed or self.waiting or self.withdrawn)


def night_signups(night: Night) -> NightSignUps:
    """The night's sign-ups by state (one query)."""
    signups = list(SignUp.objects.filter(night=night).select_related("entry").order_by("created_at", "id"))
    return NightSignUps(
        signed=[s for s in signups if s.status == SignUp.Status.IN],
        waiting=[s for s in signups if s.status == SignUp.Status.WAITLIST],
        withdrawn=sum(1 for s in signups if s.status == SignUp.Status.WITHDRAWN),
    )


def waitlist_place(signup: SignUp) -> int | None:
    """Where a waiting sign-up stands on its night's waitlist (1 is next in); None when it is not waiting."""
    if signup.status != SignUp.Status.WAITLIST:
        return None
    return list(SignUp.waiting(signup.night_id).values_list("pk", flat=True)).index(signup.pk) + 1


def waiting_named(night: Night, query: str) -> SignUp | None:
    """The waitlisted sign-up a door search names, however typed (None when there is none)."""
    return next((signup for signup in SignUp.waiting(night.pk) if name_order.matches(query, signup.name)), None)
