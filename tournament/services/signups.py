"""The only writers of sign-ups before the night: a player signs up from the night's public link, up to its cap;
past the cap the sign-up waits on the waitlist, in order, and is promoted when someone withdraws. One
transaction each.

A sign-up that is in is an ordinary registration, not yet checked in (the draw seats only who is here); a
waitlisted one has no registration until it is promoted. Names are matched to the club roster as the organizer's
own registration matches them (`players_register`), so a returning player is never a second player.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from ..models import NAME_LENGTH, Entry, Night, Player, SignUp
from .nights import clean_name, form_key, lock_night, require_unfinished
from .players import entry_check_in_by_phone, roster_leave_with, signup_register, waitlist_fill


def _open_for_signups(night: Night) -> None:
    if night.status == Night.Status.FINISHED:
        raise ValidationError({"name": "The night is over: sign-up is closed."})
    if night.status != Night.Status.SETUP:
        raise ValidationError({"name": "The seating is drawn: sign-up is closed. Ask at the door."})
    if not night.signup_open:
        raise ValidationError({"name": "Sign-up for this night is not open: ask the organizer."})


def _sent_before(night: Night, key: str) -> SignUp | None:
    """The sign-up a form with this one-time key stored already (the form sent twice, or two posts at once: the
    night's lock puts the second after the first), if any."""
    return SignUp.objects.filter(night=night, form_key=key).select_related("entry__player").first() if key else None


@transaction.atomic
def signup_create(
    *, night: Night, name: str, contact: str = "", category: str = "", key: str = "", unlisted: bool = False
) -> SignUp:
    """A player signs up: in while the night has room under its cap, else on the waitlist (in the order they came).
    `key`: the form's one-time key; the same form sent again gives back the sign-up it stored."""
    night = lock_night(night)
    key = form_key(key)
    if (done := _sent_before(night, key)) is not None:
        return done
    _open_for_signups(night)
    name = clean_name(name)
    if not name:
        raise ValidationError({"name": "Type your name."})
    if len(name) > NAME_LENGTH:
        raise ValidationError({"name": f"That name is too long ({NAME_LENGTH} characters at most)."})
    name_key = Player.key_for(name)
    if here := Entry.objects.filter(night=night, player__name_key=name_key).select_related("player").first():
        raise ValidationError({"name": f"{here.name} is already signed up for this night."})
    if waiting := next((w for w in SignUp.waiting(night.pk) if Player.key_for(w.name) == name_key), None):
        raise ValidationError({"name": f"{waiting.name} is already on this night's waitlist."})
    # Contact and category cleaned as names are (no control or invisible characters, spaces collapsed), so a
    # category typed with a stray escape still matches its prize and its group.
    signup = SignUp.objects.create(
        night=night,
        name=name,
        contact=clean_name(contact)[:120],
        category=clean_name(category)[:40],
        form_key=key,
        unlisted=unlisted,
    )
    full = night.signup_cap is not None and night.entries.count() >= night.signup_cap
    return signup if full else signup_register(signup)


@transaction.atomic
def door_walk_in(*, night: Night, name: str, key: str = "") -> SignUp:
    """Someone not on the list signs up at the door's page and is checked in, in one transaction: refused whole
    (nothing stored) when check-in at the door is not open; over the cap, on the waitlist and not checked in. The
    same form sent again (`key`) gives back what the first stored and checks nobody in again."""
    night = lock_night(night)
    key = form_key(key)
    if (done := _sent_before(night, key)) is not None:
        return done
    if night.status == Night.Status.SETUP and not night.checkin_open:
        raise ValidationError(
            {"name": "Check-in by phone is not open tonight: give your name at the organizer's table."}
        )
    signup = signup_create(night=night, name=name, key=key)
    if signup.entry_id is not None:
        signup.entry = entry_check_in_by_phone(night=night, entry_id=signup.entry_id)
    return signup


@transaction.atomic
def signup_withdraw(*, signup: SignUp) -> SignUp | None:
    """A player withdraws (from their own link, or the organizer removes them): their place is given to the first
    on the waitlist, who is returned (None when nobody was promoted)."""
    night = lock_night(signup.night)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status == SignUp.Status.WITHDRAWN:
        raise ValidationError({"signup": "This sign-up was already withdrawn."})
    if night.status == Night.Status.FINISHED:
        raise ValidationError({"signup": "The night is over: its sign-ups no longer change."})
    if night.status != Night.Status.SETUP:
        raise ValidationError({"signup": "The seating is drawn: tell the organizer you are leaving."})
    had_place = signup.status == SignUp.Status.IN
    player_id = signup.entry.player_id if signup.entry is not None else None
    if signup.entry_id is not None:
        Entry.objects.filter(pk=signup.entry_id).delete()
    signup.status, signup.entry = SignUp.Status.WITHDRAWN, None
    signup.save(update_fields=["status", "entry"])
    if player_id is not None:
        roster_leave_with(signup, player_id)
    if not had_place:
        return None
    taken = waitlist_fill(night)
    return taken[0] if taken else None


@transaction.atomic
def signup_promote(*, signup: SignUp) -> SignUp:
    """The organizer takes a waitlisted player in now, over the cap if need be (the organizer's call)."""
    night = lock_night(signup.night)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status != SignUp.Status.WAITLIST:
        raise ValidationError({"signup": f"{signup.name} is not on the waitlist."})
    require_unfinished(night, "signup", "who played in it no longer changes")
    if night.status != Night.Status.SETUP:
        raise ValidationError({"signup": "The seating is drawn: add them as a late arrival instead."})
    return signup_register(signup)


@transaction.atomic
def signup_settings(*, night: Night, open: bool, cap: int | None, checkin: bool | None = None) -> Night:
    """Open or close sign-up from the public link, and set the cap (None: no cap); `checkin`: open or close the
    door's check-in by phone. A cap below the players already
    in leaves them in; the waitlist fills from the next sign-up on. A raised cap promotes the waitlist in order."""
    night = lock_night(night)
    if cap is not None and not 4 <= cap <= 2000:
        raise ValidationError({"signup_cap": "A cap is 4 to 2,000 players, or empty for none."})
    night.signup_open, night.signup_cap = open, cap
    if checkin is not None:
        night.checkin_open = checkin
    night.save(update_fields=["signup_open", "signup_cap", "checkin_open"])
    Night.touch(night.pk, moved=True)  # the room display's door code comes or goes
    waitlist_fill(night)  # a raised cap (or none) takes the waitlist in, in order
    return night
