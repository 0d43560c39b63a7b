"""The only writers for clubs and who works for them (a hosted server's many clubs; the laptop's one)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from scoring import names

from ..models import Club, Membership, sole_club_id


@transaction.atomic
def club_add(*, name: str, slug: str = "") -> Club:
    """A new club with its short address (/c/<slug>/), taken from its name where none is given."""
    name = names.clean(name)
    if not name:
        raise ValidationError({"name": "Give the club a name."})
    slug = slugify(slug or name)[:40].strip("-")
    if not slug:
        raise ValidationError({"slug": "Give the club a short address of letters, figures and dashes."})
    if Club.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": f"The address {slug!r} is another club's: choose another."})
    return Club.objects.create(name=name, slug=slug)


@transaction.atomic
def member_add(*, club: Club, user) -> Membership:
    """Make an account one of the club's (an organizer where it is a staff account, else a score keeper). An
    account works for one club: one of another club's is refused, never moved."""
    membership, made = Membership.objects.get_or_create(user=user, defaults={"club": club})
    if not made and membership.club_id != club.pk:
        raise ValidationError({"username": "That account works for another club: choose another name."})
    return membership


def account_made(*, user) -> None:
    """A new account (however made: a command, the admin, a test) works for the only club there is, where there is
    one (the laptop). On a server of several clubs the code that makes an account names its club (`member_add`);
    an account made without one works for none and sees no club's nights."""
    if len(Club.objects.values_list("pk", flat=True)[:2]) <= 1:
        Membership.objects.get_or_create(user=user, defaults={"club_id": sole_club_id()})


def account_add(*, club: Club, username: str, password: str, staff: bool):
    """A new account of the club's (the command that adds a club and its organizer)."""
    User = get_user_model()
    with transaction.atomic():
        user = User(username=username, is_staff=staff)
        user.set_password(password)
        user.save()
        member_add(club=club, user=user)
    return user
