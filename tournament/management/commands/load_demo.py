"""Load the demo night (fixtures/demo_night.json): 24 players, four games played, game 5 under way."""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import IntegrityError, transaction

from tournament.models import Night

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "demo_night.json"
DEMO_NIGHT = 900_001


class Command(BaseCommand):
    help = "Load the demo night, unless it is already there. Never touches other nights."

    def handle(self, *args, **options):
        if Night.objects.filter(pk=DEMO_NIGHT).exists():
            raise CommandError("The demo night is already loaded; delete it in the admin first to load it afresh.")
        try:
            with transaction.atomic():
                call_command("loaddata", str(FIXTURE), verbosity=0)
        except IntegrityError as error:
            raise CommandError(f"The demo night could not be loaded, so nothing was ({error}).") from error
        night = Night.objects.get(pk=DEMO_NIGHT)
        self.stdout.write(f"Loaded '{night.name}': open {night.get_absolute_url()} (organizer login).")
