"""Add another organizer account: a staff account that runs nights, not the admin's superuser."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.models import Club, sole_club_id
from tournament.services import clubs


def new_username(username: str) -> str:
    """The user name as Django keeps it, or a CommandError saying why it cannot be one (refused or taken)."""
    username = username.strip()
    User = get_user_model()
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        username = field.clean(username, None)
    except ValidationError as error:  # Django's own words for a name it refuses
        raise CommandError(f"{username!r} cannot be a user name: {' '.join(error.messages)}") from None
    if User.objects.filter(username=username).exists():
        raise CommandError(f"There is already an account named {username!r}: nothing was changed.")
    return username


def organizer_add(club: Club, username: str) -> tuple[str, str]:
    """A new organizer (a staff account) of the club, with a new password: (user name, password)."""
    password = secrets.token_urlsafe(9)
    try:
        clubs.account_add(club=club, username=username, password=password, staff=True)
    except ValidationError as refused:
        raise CommandError(" ".join(refused.messages)) from None
    return username, password


class Command(BaseCommand):
    help = (
        "Add an organizer account (it runs every night of its club; it is not a superuser). The password is printed "
        "once. On a server of several clubs, --club names the club by its short address."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--club", default="", help="the club's short address (its slug), e.g. maple-euchre")

    def handle(self, *args, username: str, club: str, **options):
        username = new_username(username)
        with transaction.atomic():
            username, password = organizer_add(self._club(club.strip()), username)
        self.stdout.write(f"Added the organizer '{username}'. Log in with password {password} (shown this once).")

    def _club(self, slug: str) -> Club:
        if slug:
            found = Club.objects.filter(slug=slug).first()
            if found is None:
                known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True)) or "none yet"
                raise CommandError(f"There is no club at the short address {slug!r} (the clubs here: {known}).")
            return found
        try:  # the laptop's one club (made here if this is its first account)
            return Club.objects.get(pk=sole_club_id())
        except ValidationError:
            raise CommandError("This server holds several clubs: say which with --club <short address>.") from None
