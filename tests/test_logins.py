"""Logins that resist guessing (#22, item 1): five wrong passwords lock that name out from that address for five
minutes, without hashing a password while it lasts; the organizer at the laptop is never locked out by others."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.urls import reverse

from tests.conftest import PROJECT_HASHERS
from tournament.services import keeper_add

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-organizer-secret"


@pytest.fixture(autouse=True)
def _the_real_hasher(settings):
    """These tests count and time the real password hashes (the other tests hash quickly: tests/conftest.py)."""
    settings.PASSWORD_HASHERS = PROJECT_HASHERS
    assert "PBKDF2" in PROJECT_HASHERS[0]


@pytest.fixture
def organizer_account(db):
    return get_user_model().objects.create_user("organizer", password=PASSWORD, is_staff=True)


def log_in(client, password: str, address: str = "192.168.1.50", path: str | None = None):
    return client.post(path or reverse("login"), {"username": "organizer", "password": password}, REMOTE_ADDR=address)


def test_forty_wrong_passwords_then_the_right_one_does_not_get_in(client, organizer_account):
    answers = [log_in(client, f"guess-{n}").status_code for n in range(40)]
    assert answers[:4] == [200] * 4  # the form again, with its message
    assert set(answers[5:]) == {429}  # locked out
    locked = log_in(client, PASSWORD)
    assert locked.status_code == 429 and "Too many wrong passwords" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_locked_out_guess_costs_no_password_hash(client, organizer_account, monkeypatch):
    for n in range(5):
        log_in(client, f"guess-{n}")
    hashed = []
    original = PBKDF2PasswordHasher.verify
    monkeypatch.setattr(PBKDF2PasswordHasher, "verify", lambda self, *a: hashed.append(1) or original(self, *a))
    for n in range(10):
        assert log_in(client, f"more-{n}").status_code == 429
    assert hashed == []


def test_a_flood_from_a_phone_does_not_lock_the_organizer_out_at_the_laptop(client, organizer_account):
    for n in range(20):
        log_in(client, f"guess-{n}", address="192.168.1.66")
    at_the_laptop = log_in(client, PASSWORD, address="127.0.0.1")
    assert at_the_laptop.status_code == 302 and client.session["_auth_user_id"] == str(organizer_account.pk)


def test_the_admins_login_is_throttled_the_same(client, organizer_account, settings):
    settings.ADMIN_ANYWHERE = True
    path = reverse("admin:login")
    answers = [log_in(client, f"guess-{n}", path=path).status_code for n in range(6)]
    assert answers[-1] == 429


def test_a_keeper_cannot_be_given_a_guessable_password():
    from django.core.exceptions import ValidationError

    from tournament import services

    night = services.night_create(name="Guessable", games=3)
    for weak in ("password", "12345678", "qwertyuiop"):
        with pytest.raises(ValidationError) as refused:
            keeper_add(night=night, username="kate", password=weak)
        assert "password" in refused.value.message_dict
    assert keeper_add(night=night, username="kate", password="keep-score-1").username == "kate"
