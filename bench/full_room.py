"""A full room at the bell: 250 tables send their scores within 30 s while 1,000 phones poll.

Run from the project root:
    .venv/bin/python bench/full_room.py                 # the venue default: the run command's server + SQLite
    .venv/bin/python bench/full_room.py --one-core      # the server held to one core, as on an old laptop
    .venv/bin/python bench/full_room.py --one-core --hog 1   # ... and half that core taken by another program
    .venv/bin/python bench/full_room.py --server waitress    # the earlier venue server (pip install waitress)
    .venv/bin/python bench/full_room.py --hosted        # gunicorn (a worker a core, 8 threads), PostgreSQL, Redis
    .venv/bin/python bench/full_room.py --hosted --server granian   # the venue's server on the hosted stack

It prepares a 1,000-player night (250 tables) on a throwaway database with game 1 under way and its bell rung,
starts the server as the README does, then from this (second) process on loopback, as the room's pages do: 1,000
players' phones poll their own page every 5 s, each table's phone polls its table page every 3 s, 5 room displays
poll every second (and their "scores in" line every 2 s), and the keeper's desk and the organizer's night page
poll every 3 s, logged in. The pages are opened over the first 10 s (in a hall they are open long before the
bell, not all in one second); then each table's phone posts its score (the form from its page, then the POST),
spread over 30 s; the last one closes the game, moves everyone and seats and starts game 2 inside that request
(the turnaround). Each poller carries the stamp of the page it last drew, as htmx does. Polls are counted from the
end of the 10 s.

It reports the score posts' latency, the turnaround, the polls' latency before and through the rush, and how long
after the turnaround the last player's phone had its new seat (a phone learns of it at its next poll, so the floor
is one poll interval, 5 s). Afterwards it counts the results in the database. Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PREPARE = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.urls import reverse
from tournament import services, game
from tournament.simulation import player_names
from tournament.services import table_links_ensure
import random
night = services.night_create(name="Full room", games=3, confirm_results=False)
services.players_register(night=night, names=player_names({players}, random.Random(1)))
round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
game.round_ring_bell(round_=round_)
links = table_links_ensure(night=night)
organizer = get_user_model().objects.create_user("bench-organizer", password="unused", is_staff=True)
session = import_module(settings.SESSION_ENGINE).SessionStore()
session[SESSION_KEY] = str(organizer.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = organizer.get_session_auth_hash()
session.create()
print(night.pk)
print(" ".join(link.token for link in links))
print(" ".join(str(p) for p in night.entries.values_list("player_id", flat=True)))
night.refresh_from_db()
print(f"{night.moved_at.timestamp():.6f}")
print(session.session_key)
print(reverse("scoring:keeper_desk", args=[night.pk]), reverse("tournament:night_detail", args=[night.pk]))
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


def session_of(user) -> str:
    """A signed-in session for `user`, as its login would make (the benches' keepers and organizers; Django set up)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def desk_fields(page: str, prefix: str) -> dict[str, str]:
    """The hidden fields of one desk row's form (its key and version), as the browser would send them."""
    found = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if name and name.group(1).startswith(prefix) and 'type="hidden"' in tag:
            value = re.search(r'value="([^"]*)"', tag)
            found[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return found


def played_score() -> tuple[int, int]:
    """A game score eight real hands could make (a table's paper total is refused when no hands make it)."""
    from scoring.rules import STANDARD, Hand, score_hand
    from tournament.simulation import random_game

    scores = [score_hand(Hand.of(hand), STANDARD) for hand in random_game(random.Random(), 8, STANDARD)]
    return sum(score.ns for score in scores), sum(score.ew for score in scores)


@dataclass
class Tally:
    """What the load saw: score posts, polls by kind (with the moment each was answered), failures."""

    posts: list[tuple[float, float]] = field(default_factory=list)  # (latency, answered at)
    post_app: list[float] = field(default_factory=list)  # each post's time inside Django (Server-Timing)
    polls: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # kind -> [(latency, answered at)]
    new_seat: list[float] = field(default_factory=list)  # when each player's phone first drew game 2
    errors: list = field(default_factory=list)
    backed_off: int = 0  # polls the server asked to wait longer
    measured_from: float = 0.0  # the pages are open: polls are counted from here


# Where each page's next poll is found in an answer that redrew it (the poller htmx would swap in).
NEXT_POLL = {
    "phone": re.compile(r'id="mine"[^>]*hx-get="([^"]+)"'),
    "table": re.compile(r'id="table-poll"[^>]*hx-get="([^"]+)"'),
    "display": re.compile(r'id="room"[^>]*hx-get="([^"]+)"'),
    "count": re.compile(r'id="room-count"[^>]*hx-get="([^"]+)"'),
    "desk": re.compile(r'id="desk-poll"[^>]*hx-get="([^"]+)"'),
    "night page": re.compile(r'id="round-poll"[^>]*hx-get="([^"]+)"'),
}


async def table_sends(port, token, opens, delay, until, tally, on_saved=None):
    """A table's phone: opens its link after `opens` seconds, posts its score `delay` seconds after the start, and
    polls its page the rest of the time. `on_saved(ns, ew)` is told the points of a score the server saved."""
    from urllib.parse import urlencode

    started = time.monotonic()
    await asyncio.sleep(opens)
    try:
        status, head, page = await request(port, "GET", f"/t/{token}/")
        cookie = re.search(r"csrftoken=([^;]+)", head).group(1)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        poll = html.unescape(NEXT_POLL["table"].search(page).group(1))
    except Exception as error:  # a benchmark counts every failure
        tally.errors.append(repr(error))
        return
    wait = asyncio.create_task(asyncio.sleep(delay - (time.monotonic() - started)))
    polling = asyncio.create_task(poller(port, "table", poll, 3.0, until, tally, random.random() * 3, stop=wait))
    await wait
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
    try:
        sent = time.perf_counter()
        status, head, answer = await request(
            port, "POST", f"/t/{token}/score/", body, {"Cookie": f"csrftoken={cookie}", "X-CSRFToken": csrf}
        )
        if status == 200 and "Saved." in answer:
            tally.posts.append((time.perf_counter() - sent, time.monotonic()))
            if on_saved is not None:
                on_saved(ns, ew)
            if found := re.search(r"Server-Timing: app;dur=([0-9.]+)", head, re.IGNORECASE):
                tally.post_app.append(float(found.group(1)) / 1000)
        else:
            tally.errors.append((status, answer[:200]))
    except Exception as error:
        tally.errors.append(repr(error))
    await polling
    # After its score the phone stays on its table's page, polling (the new game's seats come to it).
    await poller(port, "table", poll, 3.0, until, tally, random.random() * 3)


async def poller(port, kind, url, every, until, tally, offset, *, cookie="", on_new=None, stop=None):
    """A page polling as htmx does: with the stamp of the page it last drew, redrawn only when it changed; `stop`
    ends it early (a table's phone stops to send its score). A `X-Poll-After` answer makes it wait that long."""
    await asyncio.sleep(offset)
    seen = tally.polls.setdefault(kind, [])
    headers = {"Cookie": cookie} if cookie else {}
    while time.monotonic() < until and not (stop is not None and stop.done()):
        due = time.monotonic() + every
        try:
            sent = time.perf_counter()
            status, head, page = await request(port, "GET", url, headers=headers)
            seen.append((time.perf_counter() - sent, time.monotonic()))
            if status == 200 and (found := NEXT_POLL[kind].search(page)):
                url = html.unescape(found.group(1))
                if on_new is not None:
                    on_new(time.monotonic())
                    on_new = None
            elif status not in (200, 204):
                tally.errors.append((kind, status, page[:120]))
            if found := re.search(r"X-Poll-After: ([0-9.]+)", head, re.IGNORECASE):
                tally.backed_off += 1
                due = max(due, time.monotonic() + float(found.group(1)))
        except OSError as error:
            tally.errors.append(repr(error))
        await asyncio.sleep(max(0.0, due - time.monotonic()))


WARM = 10.0  # seconds in which the room's pages are opened, before the first score is sent


async def load(port, night, tokens, players, seconds, stamp, session, desk, night_page):
    """The room: every page opened in the first WARM seconds (as they are before the bell, not all in one second),
    then the scores spread over `seconds`, and the rush after the turnaround."""
    until = time.monotonic() + WARM + seconds + 12  # the rush after the turnaround included
    tally = Tally()
    tally.measured_from = time.monotonic() + WARM
    jobs = [
        table_sends(port, token, random.uniform(0, WARM), WARM + random.uniform(0, seconds), until, tally)
        for token in tokens
    ]
    for n in range(1000):
        player = players[n % len(players)]
        phone = f"/public/nights/{night}/me/{player}/?since={stamp}"
        opens = random.uniform(0, WARM)
        jobs.append(poller(port, "phone", phone, 5.0, until, tally, opens, on_new=tally.new_seat.append))
    display = f"/public/nights/{night}/display/"
    for _ in range(5):
        _, _, page = await request(port, "GET", display)
        for kind in ("display", "count"):
            every = 1.0 if kind == "display" else 2.0
            url = html.unescape(NEXT_POLL[kind].search(page).group(1))
            jobs.append(poller(port, kind, url, every, until, tally, random.random() * every))
    cookie = f"sessionid={session}"
    for kind, path in (("desk", desk), ("night page", night_page)):
        _, _, page = await request(port, "GET", path, headers={"Cookie": cookie})
        url = html.unescape(NEXT_POLL[kind].search(page).group(1))
        jobs.append(poller(port, kind, url, 3.0, until, tally, random.random() * 3, cookie=cookie))
    await asyncio.gather(*jobs)
    return tally


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000 if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children so far, from /proc (Linux)."""
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        pids += [int(child) for child in children]
    return total


def server_command_for(args, python: str) -> list[str]:
    if args.hosted and args.server != "granian":
        return [
            *[python, "-m", "gunicorn", "config.wsgi:application", "--workers", str(args.workers)],
            *["--threads", str(args.threads), "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"],
        ]
    if args.server == "waitress":
        return [
            *[python, "-m", "waitress", f"--listen=127.0.0.1:{args.port}", "--threads=8"],
            *["--connection-limit=1000", "--channel-timeout=30", "config.wsgi:application"],
        ]
    from headtable import server_command

    return server_command(python, str(args.port), host="127.0.0.1")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hosted", action="store_true")
    parser.add_argument(
        "--server",
        choices=["default", "waitress", "granian"],
        default="default",
        help="the web server: the default is the run command's (granian) at the venue, gunicorn with --hosted",
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers (--hosted)")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (--hosted)")
    parser.add_argument("--one-core", action="store_true", help="hold the server to one core (the load the other)")
    parser.add_argument("--hog", type=int, default=0, help="busy programs sharing the server's core (--one-core)")
    parser.add_argument("--slowest", action="store_true", help="list the slowest posts and the heavy polls beside them")
    parser.add_argument("--profile", metavar="FILE", help="record where the server's time goes (py-spy, raw format)")
    args = parser.parse_args()

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
    night, tokens, players, stamp, session = int(out[-6]), out[-5].split(), out[-4].split(), out[-3], out[-2]
    desk, night_page = out[-1].split()
    cores = sorted(os.sched_getaffinity(0))
    server_cores = {cores[0]} if args.one_core else set(cores)
    if args.one_core and len(cores) > 1:
        os.sched_setaffinity(0, set(cores[1:]))  # the load generator keeps off the server's core
    hogs = [
        subprocess.Popen(
            [sys.executable, "-c", "while True: pass"], preexec_fn=lambda: os.sched_setaffinity(0, server_cores)
        )
        for _ in range(args.hog if args.one_core else 0)
    ]
    server = subprocess.Popen(
        server_command_for(args, sys.executable),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.sched_setaffinity(0, server_cores),
    )
    spy = None
    try:
        time.sleep(4)
        if args.profile:  # py-spy (pip install py-spy) samples the server while the room runs
            spy = subprocess.Popen(
                [
                    *["py-spy", "record", "--pid", str(server.pid), "--subprocesses", "--gil", "--format", "raw"],
                    *["--rate", "50", "--duration", str(args.seconds + 15), "-o", args.profile],
                ],
                stdout=subprocess.DEVNULL,
            )
        tally = asyncio.run(load(args.port, night, tokens, players, args.seconds, stamp, session, desk, night_page))
        server_cpu = cpu_seconds(server.pid)
        if spy is not None:
            spy.wait()
    finally:
        server.terminate()
        server.wait()
        for hog in hogs:
            hog.kill()
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
    if args.hosted and args.server == "granian":
        from headtable import server_workers

        setup = f"hosted: granian {server_workers()} processes x 8 threads, PostgreSQL, Redis cache"
    elif args.hosted:
        setup = f"hosted: gunicorn {args.workers} workers x {args.threads} threads, PostgreSQL, Redis cache"
    elif args.server == "waitress":
        setup = "venue: waitress (one process, 8 threads), SQLite"
    else:
        from headtable import server_workers

        setup = f"venue: the run command's server (granian, {server_workers()} processes x 8 threads), SQLite"
    if args.one_core:
        setup += f"; the server held to one core{f' shared with {args.hog} busy program(s)' if args.hog else ''}"
    print(f"{setup}; {len(tokens)} tables, {args.players} players, scores spread over {args.seconds} s")
    print(
        f"scores answered 'Saved.': {len(tally.posts)} of {len(tokens)}; errors: {len(tally.errors)} {tally.errors[:3]}"
    )
    print(f"results in the database: {stored[0]} final; game 1 {stored[1]}; game 2 {stored[2]} with {stored[3]} seats")
    load_cpu = sum(os.times()[:2])
    print(f"CPU used: the server {server_cpu:.1f} s, this load generator {load_cpu:.1f} s")
    if not tally.posts:
        return
    latencies = [took for took, _ in tally.posts]
    print(
        f"score POST ms: p50 {percentile(latencies, 0.5):.0f}  p95 {percentile(latencies, 0.95):.0f}"
        f"  max {max(latencies) * 1000:.0f}"
    )
    inside = tally.post_app
    p50, p95 = percentile(inside, 0.5), percentile(inside, 0.95)
    print(f"  of which inside Django (Server-Timing): p50 {p50:.0f}  p95 {p95:.0f}")
    if args.slowest:
        first = min(at for _, at in tally.posts)
        heavy = sorted(
            (at - took - first, took, kind)
            for kind in ("desk", "night page", "display")
            for took, at in tally.polls.get(kind, [])
            if took > 0.08
        )
        print(
            "  slowest posts (sent at s, took ms):",
            [(round(at - took - first, 2), round(took * 1000)) for took, at in sorted(tally.posts)[-12:]],
        )
        print(
            "  heavy polls (sent at s, took ms, kind):", [(round(a, 2), round(t * 1000), k) for a, t, k in heavy][:40]
        )
    last_took, turned = max(tally.posts, key=lambda item: item[1])
    print(f"turnaround (the last table's POST: close, move everyone, seat and start game 2): {last_took * 1000:.0f} ms")
    every = [poll for polls in tally.polls.values() for poll in polls if poll[1] >= tally.measured_from]
    before = [took for took, at in every if at < turned - last_took]
    rush = [took for took, at in every if at >= turned - last_took]
    print(
        f"polls: {len(every)}, p95 {percentile([t for t, _ in every], 0.95):.0f} ms; before the turnaround p95"
        f" {percentile(before, 0.95):.0f} ms; through the rush (turnaround to the end) p95 {percentile(rush, 0.95):.0f}"
        f" ms, max {max(rush, default=0) * 1000:.0f} ms; asked to back off: {tally.backed_off}"
    )
    for kind, polls in sorted(tally.polls.items()):
        took = [t for t, at in polls if at >= tally.measured_from]
        p50, p95 = percentile(took, 0.5), percentile(took, 0.95)
        print(f"  {kind:<10} {len(took):6d} polls  p50 {p50:6.0f} ms  p95 {p95:6.0f} ms")
    seats = sorted(at - turned for at in tally.new_seat)
    if seats:
        print(
            f"players' phones with their new seat: {len(seats)} of 1000; the last {seats[-1]:.1f} s after the"
            f" turnaround (the median {seats[len(seats) // 2]:.1f} s; one poll interval is 5 s)"
        )


if __name__ == "__main__":
    main()
