"""Make sure an organizer account exists, and say how to log in."""

from __future__ import annotations

import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the organizer account on first run (password kept in var/organizer-password.txt)."

    def handle(self, *args, **options):
        username = os.environ.get("HEADTABLE_ORGANIZER", "organizer")
        password_file = settings.VAR_DIR / "organizer-password.txt"
        User = get_user_model()
        if not User.objects.filter(username=username).exists():
            password = os.environ.get("HEADTABLE_ORGANIZER_PASSWORD") or secrets.token_urlsafe(9)
            User.objects.create_superuser(username=username, password=password, email="")
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
            self.stdout.write(f"Created the organizer account '{username}'.")
        if password_file.exists():
            self.stdout.write(
                f"Log in as '{username}' with password {password_file.read_text().strip()} (kept in {password_file})."
            )
        else:
            self.stdout.write(
                f"Log in as '{username}' with the password you chose "
                f"(to set a new one: python manage.py changepassword {username})."
            )
