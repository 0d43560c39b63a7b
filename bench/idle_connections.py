"""Idle and slow connections against the venue's server: can they starve the phones?

Run from the project root:  .venv/bin/python bench/idle_connections.py [--connections 1000]

It starts the server as the run command does (a throwaway SQLite database with a demo night), opens the given
number of connections that send nothing, then as many that send half a request and stop (a "slowloris"), keeps
them open, and meanwhile asks a player's page 50 times from a fresh connection, as a phone would. It reports how
many of those answered and how fast, and how many of the idle connections the server had closed after its
header timeout. Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def phone(url: str) -> float | None:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=10) as page:
            page.read()
            return time.perf_counter() - started
    except OSError as error:
        print("a phone's request failed:", error)
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the idle connections are held")
    args = parser.parse_args()
    from headtable import more_open_files, server_command

    more_open_files()  # as the run command does, for this process's sockets and the server it starts

    var = tempfile.mkdtemp(prefix="headtable-idle-")
    env = {**os.environ, "HEADTABLE_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0"}
    env.pop("DATABASE_URL", None)
    for command in (["migrate", "-v", "0"], ["collectstatic", "--no-input", "-v", "0"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    server = subprocess.Popen(
        server_command(sys.executable, str(args.port), host="127.0.0.1"),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{args.port}/public/nights/1/me/?q=ann"
    try:
        time.sleep(4)
        alone = [phone(url) for _ in range(20)]
        idle, slow = [], []
        for _ in range(args.connections):
            idle.append(socket.create_connection(("127.0.0.1", args.port)))
        for _ in range(args.connections):
            sock = socket.create_connection(("127.0.0.1", args.port))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
            slow.append(sock)
        started = time.monotonic()
        crowded = []
        while time.monotonic() - started < args.hold and len(crowded) < 50:
            crowded.append(phone(url))
            time.sleep(args.hold / 60)
        closed = 0
        for sock in idle + slow:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
            sock.close()
    finally:
        os.killpg(server.pid, 15)
        server.wait()
    ok = [t for t in crowded if t is not None]
    base = [t for t in alone if t is not None]
    held = f"{args.connections} idle + {args.connections} half-sent connections held {args.hold:.0f} s"
    print(f"server: the run command's (granian); {held}")
    print(f"a phone alone: median {statistics.median(base) * 1000:.1f} ms")
    if ok:
        median, most = statistics.median(ok) * 1000, max(ok) * 1000
        print(f"a phone beside them: {len(ok)} of {len(crowded)} answered, median {median:.1f} ms, max {most:.1f} ms")
    else:
        print(f"a phone beside them: none of {len(crowded)} answered")
    print(f"connections the server had closed by the end: {closed} of {2 * args.connections}")


if __name__ == "__main__":
    main()
