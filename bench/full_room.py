"""A full room at the bell: 250 tables send their scores within 30 s while 1,000 phones poll.

Run from the project root:
    .venv/bin/python bench/full_room.py            # the venue default: waitress + SQLite
    .venv/bin/python bench/full_room.py --hosted   # gunicorn (a worker a core, 8 threads), PostgreSQL, Redis

It prepares a 1,000-player night (250 tables) on a throwaway database with game 1 under way and its bell rung,
starts the server as the README does, then from this (second) process on loopback: 1,000 phones poll their page
every 5 s, 5 room displays every second, and each table's phone opens its link and posts its score (GET for the
form, POST the score), spread over 30 s. Afterwards it counts the results in the database and reports the
turnaround: the last table's score closes the game, moves everyone and seats and starts game 2 inside that
request. Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PREPARE = """
from tournament import services, game
from tournament.simulation import player_names
from tournament.services import table_links_ensure
import random
night = services.night_create(name="Full room", games=3, confirm_results=False)
services.players_register(night=night, names=player_names({players}, random.Random(1)))
round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
game.round_ring_bell(round_=round_)
links = table_links_ensure(night=night)
print(night.pk)
print(" ".join(link.token for link in links))
print(" ".join(str(p) for p in night.entries.values_list("player_id", flat=True)))
night.refresh_from_db()
print(f"{night.moved_at.timestamp():.6f}")
"""


async def request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "HX-Request: true"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if body:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return status, head.decode("latin-1"), content.decode("utf-8", "replace")


def played_score() -> tuple[int, int]:
    """A game score eight real hands could make (a table's paper total is refused when no hands make it)."""
    from scoring.rules import STANDARD, Hand, score_hand
    from tournament.simulation import random_game

    scores = [score_hand(Hand.of(hand), STANDARD) for hand in random_game(random.Random(), 8, STANDARD)]
    return sum(score.ns for score in scores), sum(score.ew for score in scores)


async def table_sends(port, token, delay, results, errors):
    from urllib.parse import urlencode

    await asyncio.sleep(delay)
    try:
        status, head, page = await request(port, "GET", f"/t/{token}/")
        cookie = re.search(r"csrftoken=([^;]+)", head).group(1)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        ns, ew = played_score()
        body = urlencode(
            {
                "csrfmiddlewaretoken": csrf,
                "key": key,
                "side": "NS",
                "ns_points": ns,
                "ew_points": ew,
                "last_hand_winner": "NS",
                "game": "1",
            }
        ).encode()
        started = time.perf_counter()
        status, _, answer = await request(
            port, "POST", f"/t/{token}/score/", body, {"Cookie": f"csrftoken={cookie}", "X-CSRFToken": csrf}
        )
        took = time.perf_counter() - started
        if status == 200 and "Saved." in answer:
            results.append((took, time.perf_counter()))
        else:
            errors.append((status, answer[:200]))
    except Exception as error:  # a benchmark counts every failure
        errors.append(repr(error))


async def poller(port, path, every, until, polls, errors, offset, since):
    """A page polling as htmx does: with the stamp of the last page it drew, redrawn only when it changed.

    Every phone and display has drawn its page before the bell (`since`), as in the room.
    """
    await asyncio.sleep(offset)
    while time.monotonic() < until:
        due = time.monotonic() + every
        try:
            started = time.perf_counter()
            status, _, page = await request(port, "GET", f"{path}?since={since}")
            polls.append(time.perf_counter() - started)
            if status == 200 and (found := re.search(r"since=([0-9.]+)", page)):
                since = found.group(1)
            elif status not in (200, 204):
                errors.append(status)
        except OSError as error:
            errors.append(repr(error))
        await asyncio.sleep(max(0.0, due - time.monotonic()))


async def load(port, night, tokens, players, seconds, stamp):
    until = time.monotonic() + seconds + 5
    results, errors, polls = [], [], []
    jobs = [table_sends(port, token, random.uniform(0, seconds), results, errors) for token in tokens]
    for n in range(1000):
        player = players[n % len(players)]
        phone = f"/public/nights/{night}/me/{player}/"
        jobs.append(poller(port, phone, 5.0, until, polls, errors, random.random() * 5, stamp))
    for _ in range(5):
        jobs.append(poller(port, f"/public/nights/{night}/display/", 1.0, until, polls, errors, 0, stamp))
    await asyncio.gather(*jobs)
    return results, errors, polls


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hosted", action="store_true")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers (--hosted)")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (--hosted)")
    args = parser.parse_args()
    from headtable import server_command

    workdir = tempfile.mkdtemp()
    env = {**os.environ, "HEADTABLE_VAR_DIR": workdir, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0"}
    if args.hosted:
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", "drop database if exists headtable_room"]
        )
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", "create database headtable_room"])
        env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/headtable_room"
        env["CACHE_URL"] = "redis://127.0.0.1:6379/13"
        env["DATABASE_CONN_MAX_AGE"] = "60"  # keep connections: a new PostgreSQL backend per request is slow
    else:
        env["DATABASE_URL"] = f"sqlite:///{workdir}/room.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    out = (
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", PREPARE.replace("{players}", str(args.players))],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .strip()
        .splitlines()
    )
    night, tokens, players, stamp = int(out[-4]), out[-3].split(), out[-2].split(), out[-1]
    if args.hosted:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--bind",
            f"127.0.0.1:{args.port}",
            "--log-level",
            "warning",
        ]
    else:
        command = server_command(sys.executable, str(args.port), host="127.0.0.1")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(3)
        results, errors, polls = asyncio.run(load(args.port, night, tokens, players, args.seconds, stamp))
    finally:
        server.terminate()
        server.wait()
    count = f"""
from scoring.models import TableResult
from tournament.models import Round
r1 = Round.objects.get(night_id={night}, number=1)
r2 = Round.objects.filter(night_id={night}, number=2).first()
print(TableResult.objects.filter(round=r1, status="final").count(), r1.status, r2.status if r2 else None,
      r2.seatings.count() if r2 else 0)
"""
    stored = (
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", count], cwd=ROOT, env=env, capture_output=True
        )
        .stdout.decode()
        .split()
    )
    latencies = sorted(took for took, _ in results)
    polls.sort()
    setup = (
        f"hosted: gunicorn {args.workers} workers x {args.threads} threads, PostgreSQL, Redis cache"
        if args.hosted
        else "venue: waitress, SQLite"
    )
    print(f"{setup}; {len(tokens)} tables, {args.players} players, scores spread over {args.seconds} s")
    print(f"scores answered 'Saved.': {len(results)} of {len(tokens)}; errors: {len(errors)} {errors[:3]}")
    print(f"results in the database: {stored[0]} final; game 1 {stored[1]}; game 2 {stored[2]} with {stored[3]} seats")
    if latencies:
        p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000  # noqa: E731
        print(f"score POST ms: p50 {p(0.5):.0f}  p95 {p(0.95):.0f}  max {latencies[-1] * 1000:.0f}")
        last = max(results, key=lambda item: item[1])
        what = "the last table's POST: close, move everyone, seat and start game 2"
        print(f"turnaround ({what}): {last[0] * 1000:.0f} ms")
    if polls:
        print(f"polls: {len(polls)}, p95 {polls[int(len(polls) * 0.95)] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
