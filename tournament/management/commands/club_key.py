"""A new publishing key for a club's site (the hosted server): printed once, only its SHA-256 kept."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournament import services
from tournament.models import Club


class Command(BaseCommand):
    help = "Make a new publishing key for the club of this short address: printed once; the old key stops at once."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's short address (/c/<slug>/)")

    def handle(self, *args, slug: str, **options):
        club = Club.objects.filter(slug=slug.strip()).first()
        if club is None:
            known = ", ".join(Club.objects.values_list("slug", flat=True)[:20]) or "none yet"
            raise CommandError(f"No club has the short address {slug!r} (the clubs here: {known}).")
        key = services.club_key_new(club=club)
        self.stdout.write(
            f"The publishing key of {club.name} (/c/{club.slug}/): {key}\n"
            "Shown this once: type it on the club's laptop, under “The club's site”, with this site's address"
            f" ending /c/{club.slug}/. Only its fingerprint is kept here; a new key replaces it."
        )
