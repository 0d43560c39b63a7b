"""Safe defaults at the venue (#22, item 4): the admin only on the laptop, no password reset by mail."""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, reverse

pytestmark = pytest.mark.django_db


def test_the_admin_answers_only_on_the_laptop_itself(client, admin_user, settings):
    settings.ADMIN_ANYWHERE = False
    client.force_login(admin_user)
    phone = client.get("/admin/", REMOTE_ADDR="192.168.1.34")
    assert phone.status_code == 404 and "only on the laptop itself" in phone.content.decode()
    assert client.get("/admin/login/", REMOTE_ADDR="192.168.1.34").status_code == 404
    assert client.get("/admin/", REMOTE_ADDR="127.0.0.1").status_code == 200
    assert client.get("/admin/", REMOTE_ADDR="::1").status_code == 200
    # The rest of the site answers phones as ever.
    assert client.get("/", REMOTE_ADDR="192.168.1.34").status_code in (200, 302)


def test_a_hosted_server_may_open_the_admin_anywhere(client, admin_user, settings):
    settings.ADMIN_ANYWHERE = True
    client.force_login(admin_user)
    assert client.get("/admin/", REMOTE_ADDR="203.0.113.9").status_code == 200


def test_there_is_no_password_reset_to_point_elsewhere(client):
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.get(reverse("login")).status_code == 200


def test_the_hosted_settings_pass_djangos_deployment_checks(tmp_path):
    # `check --deploy` with the hosted environment the README gives (HTTPS behind a proxy, a secret key, the host,
    # PostgreSQL and Redis named): no warning at all, --fail-level WARNING turning any into a failure.
    import os
    import secrets
    import subprocess
    import sys

    from tests.processes import ROOT

    env = {
        **os.environ,
        "HEADTABLE_VAR_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "euchre.example.org",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/headtable",
        "CACHE_URL": "redis://127.0.0.1:6379/14",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own, set in this test process, not a server's
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
