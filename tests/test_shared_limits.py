"""Limits that hold across the server's processes (#34, item 5).

The venue's server as the run command starts it (granian, several processes; here two and four), on loopback with a
var/ of its own. Every request below comes on a fresh connection, as from phones that reconnect, so it lands on
whichever process takes it: 40 sign-ups sent at once from one address store the minute's limit and no more, and the
same for the door's walk-ins; a table link answers its minute's budget and then "too many"; ten wrong passwords
sent at once lock the name out, so the right password is then refused. The old counters lived in each process's
memory: 30 sign-ups from one address stored 24.
"""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import threading
import time
import urllib.parse

import pytest

from headtable import server_command
from tests.processes import ROOT, answers, django_shell, free_port, isolated_env, stop_server
from tournament.views.signups import SIGNUPS_PER_MINUTE, WALK_INS_PER_MINUTE
from tournament.views.table import REQUESTS_PER_MINUTE

# The venue's own set-up (the run command, its server, SQLite on disk), which no second pass changes: the first pass
# only.
pytestmark = pytest.mark.venue

AT_ONCE = 40

SETUP = """
from django.contrib.auth.models import User
from django.urls import reverse
from scoring.models import TableLink
from tournament import services
night = services.night_create(name="At the door", games=3)
services.signup_settings(night=night, open=True, cap=None, checkin=True)
other = services.night_create(name="Playing", games=3)
services.players_register(night=other, names=[f"Player {n}" for n in range(1, 9)])
services.night_draw(night=other, seed=1)
User.objects.create_user("organizer", password="the-right-password-here", is_staff=True)
link = TableLink.objects.filter(night=other, active=True).first()
print(night.pk, reverse("scoring:table_link", args=[link.token]))
"""

COUNT = """
from tournament.models import SignUp
print(*(SignUp.objects.filter(night_id={night}, name__startswith=name).count() for name in ("Guest", "Walk")))
"""


def ask(port: int, method: str, path: str, body: dict | None = None, cookie: str = "") -> tuple[int, str, str]:
    """One request on a connection of its own: (status, body, the csrftoken cookie it set, if any)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Connection": "close", "Cookie": cookie}
    data = None
    if body is not None:
        data = urllib.parse.urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        token = re.search(r"csrftoken=([^;]+)", answer.getheader("Set-Cookie") or "")
        return answer.status, answer.read().decode(), token.group(1) if token else ""
    finally:
        connection.close()


def form_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def all_at_once(count: int, send) -> list[tuple[int, str, str]]:
    """`send(n)` from `count` threads released together; their answers in order."""
    start, results = threading.Barrier(count), [None] * count

    def one(n: int) -> None:
        start.wait()
        results[n] = send(n)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results  # type: ignore[return-value]


@pytest.mark.parametrize("processes", [2, 4])
def test_sign_ups_walk_ins_table_links_and_logins_are_limited_across_the_servers_processes(tmp_path, processes):
    env = isolated_env(tmp_path, "headtable_limits")
    night, link = django_shell(env, SETUP).split()[-2:]
    port = free_port()
    command = server_command(sys.executable, str(port), host="127.0.0.1")
    command[command.index("--workers") + 1] = str(processes)
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**env, "DJANGO_DEBUG": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its worker processes with it, so that all of it can be killed at once
    )
    try:
        deadline = time.monotonic() + 60
        while answers(f"http://127.0.0.1:{port}/public/nights/{night}/signup/") != 200:
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.3)

        signup = f"/public/nights/{night}/signup/"
        _, page, token = ask(port, "GET", signup)
        cookie, csrf = f"csrftoken={token}", form_token(page)
        sent = all_at_once(
            AT_ONCE, lambda n: ask(port, "POST", signup, {"csrfmiddlewaretoken": csrf, "name": f"Guest {n}"}, cookie)
        )
        refused = [body for status, body, _ in sent if status == 200]
        assert all("Many sign-ups came from this network in the last minute" in body for body in refused)
        assert {status for status, _, _ in sent} <= {200, 302}

        door = f"/public/nights/{night}/door/"
        walked = all_at_once(
            AT_ONCE, lambda n: ask(port, "POST", door, {"csrfmiddlewaretoken": csrf, "walk_in": f"Walk {n}"}, cookie)
        )
        welcomed = [body for status, body, _ in walked if "you are checked in" in body]
        assert len(welcomed) + sum("Many sign-ups at the door came" in body for _, body, _ in walked) == AT_ONCE

        signed_up, walked_in = map(int, django_shell(env, COUNT.format(night=night)).split()[-2:])
        assert 0 < signed_up <= SIGNUPS_PER_MINUTE and len(refused) == AT_ONCE - signed_up
        assert 0 < walked_in <= WALK_INS_PER_MINUTE and len(welcomed) == walked_in

        table = [ask(port, "GET", link)[0] for _ in range(REQUESTS_PER_MINUTE + 10)]
        assert table.count(200) == REQUESTS_PER_MINUTE and set(table[REQUESTS_PER_MINUTE:]) == {429}

        _, page, token = ask(port, "GET", "/accounts/login/")
        cookie, csrf = f"csrftoken={token}", form_token(page)

        def log_in(password: str) -> int:
            sent = {"csrfmiddlewaretoken": csrf, "username": "organizer", "password": password}
            return ask(port, "POST", "/accounts/login/", sent, cookie)[0]

        guesses = all_at_once(10, lambda n: log_in(f"wrong-guess-{n}"))
        assert set(guesses) <= {200, 429}  # the form again, or locked out
        assert log_in("the-right-password-here") == 429  # the name is locked out from this address, in every process
    finally:
        stop_server(server)
