"""The database stops for a moment mid-game (PostgreSQL, the hosted pass): requests fail with a clear message,
nothing is half-written, and the app carries on when the database is back.

The database is "stopped" by closing a TCP relay in front of it, so the machine's PostgreSQL keeps serving the
rest of the suite.
"""

from __future__ import annotations

import http.cookiejar
import re
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.processes import HOSTED, django_shell, isolated_env, stop_server
from tests.tournament.test_faults import SETUP, free_port, start

pytestmark = pytest.mark.postgres


class Relay:
    """Forwards a local port to PostgreSQL until stopped; stopping cuts every connection, as a crash would."""

    def __init__(self, port: int, target: tuple[str, int] = ("127.0.0.1", 5432)):
        self.port, self.target = port, target
        self.sockets: list[socket.socket] = []

    def start(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self.listener.settimeout(0.2)
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass

    def stop(self) -> None:
        self.running = False
        self.listener.close()
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass
        self.sockets.clear()


def fetch(opener, url: str, data: dict | None = None) -> tuple[int, str]:
    try:
        with opener.open(url, urllib.parse.urlencode(data).encode() if data else None) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.skipif(not HOSTED, reason="runs in the test command's PostgreSQL pass (deselected in the first)")
def test_a_database_outage_fails_clearly_and_recovers(tmp_path):
    env = isolated_env(tmp_path, "headtable_outage")
    night, token = django_shell(env, SETUP).split()[-2:]
    relay = Relay(free_port())
    relay.start()
    env = {
        **env,
        "DATABASE_URL": env["DATABASE_URL"].replace(":5432/", f":{relay.port}/"),
        "DATABASE_CONN_MAX_AGE": "0",
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    server = start(env, port)
    try:
        status, page = fetch(opener, f"{base}/t/{token}/")
        assert status == 200
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        form = {"csrfmiddlewaretoken": csrf, "key": key, "side": "NS", "ns_points": "6", "ew_points": "2", "game": "1"}
        relay.stop()  # the database goes away
        status, page = fetch(opener, f"{base}/t/{token}/score/", form)
        assert status == 503 and "The database is not answering: nothing was saved" in page
        status, _ = fetch(opener, f"{base}/public/nights/{night}/display/")
        assert status == 503
        relay.start()  # and comes back
        status, page = fetch(opener, f"{base}/t/{token}/score/", form)  # the phone sends it again
        assert status == 200 and "Saved." in page
    finally:
        stop_server(server)
        relay.stop()
    env["DATABASE_URL"] = env["DATABASE_URL"].replace(f":{relay.port}/", ":5432/")
    count = django_shell(env, "from scoring.models import Submission; print(Submission.objects.count())")
    assert count.split()[-1] == "1"  # one score, stored once: nothing half-written during the outage
