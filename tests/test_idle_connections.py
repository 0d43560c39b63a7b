"""A thousand connections that send nothing, or half a request, do not lock the phones out (#22, item 6).

The venue's server as the run command starts it; on loopback, 500 connections that send nothing and 500 that stop
half way through their headers are held open while a phone asks for its page: every ask is answered, and the
half-sent ones are closed by the server's header timeout (5 s). Figures for 2,000: bench/idle_connections.py.
"""

from __future__ import annotations

import socket
import time
import urllib.request

import pytest

from headtable import more_open_files
from tests.processes import answers, django_shell, free_port, isolated_env, start_server, stop_server
from tests.test_run_command import SETUP

# The venue's own set-up (the run command, its server, SQLite on disk), which no second pass changes: the first pass
# only.
pytestmark = pytest.mark.venue

HELD = 500


def test_idle_and_half_sent_connections_do_not_starve_a_phone(tmp_path):
    more_open_files()  # this process holds a thousand sockets, as the run command lets the server
    env = isolated_env(tmp_path, "headtable_idle")
    night = django_shell(env, SETUP).split()[-1]
    port = free_port()
    env = {**env, "DJANGO_DEBUG": "0"}
    server = start_server(env, port)
    page = f"http://127.0.0.1:{port}/public/nights/{night}/"
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while answers(page) != 200:
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.3)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(HELD)]
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(HELD)]
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
        held = idle + slow
        started, asked = time.monotonic(), []
        while time.monotonic() - started < 8:
            begun = time.monotonic()
            with urllib.request.urlopen(page, timeout=5) as answer:
                asked.append((answer.status, time.monotonic() - begun))
            time.sleep(0.2)
        assert len(asked) >= 10 and {status for status, _ in asked} == {200}
        closed = 0
        for sock in slow:
            sock.settimeout(0.05)
            try:
                closed += sock.recv(1) == b""
            except TimeoutError:
                pass
            except OSError:
                closed += 1
        assert closed == HELD  # the header timeout closed every half-sent request
    finally:
        for sock in held:
            sock.close()
        stop_server(server)
