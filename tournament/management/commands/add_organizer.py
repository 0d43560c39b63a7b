"""Add another organizer account: a staff account that runs nights, not the admin's superuser."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Add an organizer account (it runs every night; it is not a superuser). The password is printed once."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **options):
        username = username.strip()
        User = get_user_model()
        field = User._meta.get_field(User.USERNAME_FIELD)
        try:
            username = field.clean(username, None)
        except ValidationError as error:  # Django's own words for a name it refuses
            raise CommandError(f"{username!r} cannot be a user name: {' '.join(error.messages)}") from None
        if User.objects.filter(username=username).exists():
            raise CommandError(f"There is already an account named {username!r}: nothing was changed.")
        password = secrets.token_urlsafe(9)
        User.objects.create_user(username=username, password=password, is_staff=True)
        self.stdout.write(f"Added the organizer '{username}'. Log in with password {password} (shown this once).")
