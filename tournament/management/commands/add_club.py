"""A site operator adds a club to a hosted server, with its first organizer."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.services import clubs

from .add_organizer import new_username, organizer_add


class Command(BaseCommand):
    help = (
        "Add a club (a hosted server's) and its first organizer, a staff account of that club; the password is "
        "printed once. The club's public results are at /public/c/<short address>/."
    )

    def add_arguments(self, parser):
        parser.add_argument("name", help="the club's name, as its pages show it")
        parser.add_argument("--slug", default="", help="its short address (letters, figures, dashes); from the name")
        parser.add_argument("--organizer", required=True, help="the user name of the club's first organizer")

    def handle(self, *args, name: str, slug: str, organizer: str, **options):
        username = new_username(organizer)
        with transaction.atomic():  # a club without its organizer is never left behind
            try:
                club = clubs.club_add(name=name, slug=slug)
            except ValidationError as refused:
                raise CommandError(" ".join(refused.messages)) from None
            username, password = organizer_add(club, username)
        self.stdout.write(f"Added the club '{club.name}' at the short address '{club.slug}' (/public/c/{club.slug}/).")
        self.stdout.write(f"Its organizer '{username}' logs in with password {password} (shown this once).")
