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
            # Staff, not a superuser: the app's every page is the organizer's, and the admin (users, groups) is
            # not needed to run a night. `createsuperuser` makes an admin account for whoever needs one.
            User.objects.create_user(username=username, password=password, is_staff=True)
            password_file.write_text(password + "\n")
            password_file.chmod(0o600)
            self.stdout.write(f"Created the organizer account '{username}'.")
            # The password is shown this once, on the laptop's screen; after that only where it is kept, so a
            # screen seen by the hall on a later start does not show it.
            self.stdout.write(f"Log in as '{username}' with password {password} (kept in {password_file}).")
        elif password_file.exists():
            self.stdout.write(f"Log in as '{username}': the password is in {password_file}.")
        else:
            self.stdout.write(
                f"Log in as '{username}' with the password you chose "
                f"(to set a new one: python manage.py changepassword {username})."
            )
