"""Many clubs on one hosted server: 20 clubs' nights at the bell in the same minute (#38, "Scale, measured").

Run from the project root (PostgreSQL on 127.0.0.1:5432 with trust for the postgres user, Redis on 127.0.0.1:6379):
    .venv/bin/python bench/clubs_bell.py                  # 50 clubs; 20 nights of 100 players (25 tables) at the bell
    .venv/bin/python bench/clubs_bell.py --clubs 5 --nights 2 --seconds 15    # a quick try
    .venv/bin/python bench/clubs_bell.py --again /tmp/clubs.json    # prepare once, later runs start from a copy

It sets the hosted stack up as the README's "Running a hosted server" does, on a throwaway database of its own
(headtable_bench_clubs) and Redis databases 12 (the Celery broker) and 13 (the cache): gunicorn, a worker a core
with 8 threads, and Celery workers. It makes `--clubs` clubs, each with an organizer; `--nights` of them have a
night of 100 players with game 1 under way and its bell rung and a score keeper logged in, and every other club a
small rehearsed night played to its end (a server's clubs have their past). Then, from this (second) process on
loopback, as bench/full_room.py does for one night and reusing its helpers: every player's phone polls their own
page every 5 s, each table's phone its table page every 3 s, each night's room display every second (its "scores
in" line every 2 s) and its keeper's desk every 3 s. The pages are opened over the first 10 s; then every table of
every night sends its score within the same `--seconds` (60: the same minute): the odd tables from their table's
phone (the form of /t/<token>/, then its POST), the even ones from their keeper's desk (the desk's row form, the
POST a keeper's Save makes, checked against the keeper's club by config.middleware.ClubMiddleware). Each night's
last score closes its game and seats game 2 in that request. Polls are counted once the pages are open.

It reports the score posts' and the polls' p50/p95/max, the errors, how long each player's phone waited for its new
page after its night's last score (what a player waits for their next seat), and then reads the database: every
score sent must be stored once, with the points sent, in its own night.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from full_room import (  # noqa: E402
    NEXT_POLL,
    Tally,
    cpu_seconds,
    desk_fields,
    percentile,
    played_score,
    poller,
    request,
    table_sends,
)

DATABASE = "headtable_bench_clubs"
BROKER, CACHE = "redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/13"
WARM = 10.0  # seconds in which the pages are opened, before the first score

PREPARE = """
import json, random, sys
from django.urls import reverse
from tournament import services, game
from tournament.rehearsal import simulate
from tournament.services import clubs, table_links_ensure
from tournament.simulation import player_names

sys.path.insert(0, "bench")
from full_room import session_of

nights = []
for n in range({clubs}):
    club = clubs.club_add(name=f"Bench Club {n + 1:02d}")
    clubs.account_add(club=club, username=f"club{n + 1:02d}-organizer", password="bench-organizer-pw", staff=True)
    if n >= {nights}:
        simulate(players=12, rounds=3, seed=n, name=f"Club {n + 1:02d} past night", club=club)
        continue
    night = services.night_create(name=f"Club {n + 1:02d} at the bell", games=3, club=club, confirm_results=False)
    services.players_register(night=night, names=player_names({players}, random.Random(n)))
    round_ = game.round_start(round_=services.night_draw(night=night, seed=n))
    game.round_ring_bell(round_=round_)
    links = table_links_ensure(night=night)
    keeper = services.keeper_add(night=night, username=f"club{n + 1:02d}-scorer", password="tally-card-77")
    night.refresh_from_db()
    nights.append({
        "night": night.pk,
        "tables": {link.table: link.token for link in links},
        "players": list(night.entries.values_list("player_id", flat=True)),
        "stamp": f"{night.moved_at.timestamp():.6f}",
        "session": session_of(keeper),
        "desk": reverse("scoring:keeper_desk", args=[night.pk]),
    })
print(json.dumps(nights))
"""

COUNT = """
import json
from scoring.models import TableResult
from tournament.models import Round
sent = json.loads(open({sent!r}).read())
out = {"stored": 0, "wrong": [], "missing": [], "twice": [], "games_2_seated": 0}
for night, tables in sent.items():
    rows = list(TableResult.objects.filter(round__night_id=int(night), round__number=1).values_list(
        "table", "ns_points", "ew_points", "status"))
    by_table = {}
    for table, ns, ew, status in rows:
        by_table.setdefault(table, []).append((ns, ew, status))
    for table, (ns, ew) in tables.items():
        found = by_table.get(int(table), [])
        if not found:
            out["missing"].append((night, table))
        elif len(found) > 1:
            out["twice"].append((night, table))
        elif found[0] != (ns, ew, "final"):
            out["wrong"].append((night, table, found[0], (ns, ew)))
        else:
            out["stored"] += 1
    out["twice"] += [(night, t) for t in by_table if str(t) not in tables]
    r2 = Round.objects.filter(night_id=int(night), number=2).first()
    out["games_2_seated"] += bool(r2 and r2.seatings.exists())
print(json.dumps(out))
"""


def _remember(sent, night, table, ns, ew) -> None:
    sent.setdefault(night, {})[table] = (ns, ew)
    SAVED_AT.setdefault(night, []).append(time.monotonic())


# When each night's scores were answered saved (its last one closed game 1 and seated game 2), and when each of its
# players' phones first drew a new page after that: what a player waits for their new seat after the last table.
SAVED_AT: dict[int, list[float]] = {}
NEW_PAGE_AT: dict[int, list[float]] = {}


def _new_page(night: int, at: float) -> None:
    NEW_PAGE_AT.setdefault(night, []).append(at)


def seat_waits() -> list[float]:
    """Each player's phone's wait from its night's last score answered to its first new page after it.

    The close is the only move in a run (the bells are rung before it starts), so a phone's first new page is its
    new seat. One drawn between the close's commit and its answer reaching this process waited nothing: 0."""
    waits = []
    for night, saved in SAVED_AT.items():
        closed = max(saved)
        waits += [max(0.0, at - closed) for at in NEW_PAGE_AT.get(night, [])]
    return sorted(waits)


async def post_score(port, path, body, headers, tally, sent, key):
    """One score POST, timed; stored in `sent` only when the server said it saved it."""
    ns, ew = key[2]
    try:
        started = time.perf_counter()
        status, _head, answer = await request(port, "POST", path, urlencode(body).encode(), headers)
        if status == 200 and ("Saved." in answer or '<span class="ok">saved</span>' in answer):  # phone, desk
            tally.posts.append((time.perf_counter() - started, time.monotonic()))
            _remember(sent, key[0], key[1], ns, ew)
        else:
            tally.errors.append((path, status, answer[:200]))
    except OSError as error:
        tally.errors.append(repr(error))


async def keeper(port, spec, tables, opens, delays, until, tally, sent):
    """A night's keeper at the desk: opens it, polls it every 3 s, and saves each even table's score at its time,
    as the desk's Save does (its row's form, htmx)."""
    await asyncio.sleep(opens)
    session = f"sessionid={spec['session']}"
    try:
        _, head, page = await request(port, "GET", spec["desk"], headers={"Cookie": session})
        cookie = re.search(r"csrftoken=([^;]+)", head).group(1)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        poll = html.unescape(NEXT_POLL["desk"].search(page).group(1))
        rows = {table: desk_fields(page, f"t{table}-") for table in tables}
    except Exception as error:
        tally.errors.append(repr(error))
        return
    cookies = {"Cookie": f"{session}; csrftoken={cookie}", "X-CSRFToken": csrf}
    polling = asyncio.create_task(poller(port, "desk", poll, 3.0, until, tally, random.random() * 3, cookie=session))
    night = spec["night"]
    desk = spec["desk"].removesuffix("desk/")

    async def save(table, delay):
        await asyncio.sleep(max(0.0, delay - opens))
        ns, ew = played_score()
        body = {"csrfmiddlewaretoken": csrf, **rows[table], f"t{table}-ns_points": ns, f"t{table}-ew_points": ew}
        body[f"t{table}-last_hand_winner"] = "NS"
        path = f"{desk}games/1/tables/{table}/desk/"
        await post_score(port, path, body, cookies, tally, sent, (night, table, (ns, ew)))

    await asyncio.gather(*(save(table, delays[table]) for table in tables), polling)


async def load(port, nights, seconds, tally, sent):
    until = time.monotonic() + WARM + seconds + 12  # the rush after the last turnaround included
    tally.measured_from = time.monotonic() + WARM
    jobs = []
    for spec in nights:
        night = spec["night"]
        delays = {int(table): WARM + random.uniform(0, seconds) for table in spec["tables"]}
        for table, token in spec["tables"].items():
            if int(table) % 2:
                opens = random.uniform(0, WARM)
                saved = partial(_remember, sent, night, int(table))
                jobs.append(table_sends(port, token, opens, delays[int(table)], until, tally, on_saved=saved))
        even = [int(table) for table in spec["tables"] if int(table) % 2 == 0]
        jobs.append(keeper(port, spec, even, random.uniform(0, WARM), delays, until, tally, sent))
        for player in spec["players"]:
            phone = f"/public/nights/{night}/me/{player}/?since={spec['stamp']}"
            opens = random.uniform(0, WARM)
            jobs.append(poller(port, "phone", phone, 5.0, until, tally, opens, on_new=partial(_new_page, night)))
        _, _, page = await request(port, "GET", f"/public/nights/{night}/display/")
        for kind, every in (("display", 1.0), ("count", 2.0)):
            url = html.unescape(NEXT_POLL[kind].search(page).group(1))
            jobs.append(poller(port, kind, url, every, until, tally, random.uniform(0, WARM)))
    await asyncio.gather(*jobs)


def _wait_for(port: int, server: subprocess.Popen, seconds: float = 90) -> None:
    """Until gunicorn answers (on a busy machine it takes more than a few seconds to start)."""
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            time.sleep(2)  # the workers have loaded the app too
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("gunicorn did not start")


def psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", sql], check=True)


def manage(env, *arguments, capture=True) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments], cwd=ROOT, env=env, check=True, capture_output=capture
    )
    return done.stdout.decode() if capture else ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--nights", type=int, default=20, help="clubs with a night at the bell")
    parser.add_argument("--players", type=int, default=100, help="players a night")
    parser.add_argument("--seconds", type=int, default=60, help="every night's scores within these seconds")
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--celery", type=int, default=2, help="Celery worker processes")
    parser.add_argument(
        "--again",
        metavar="FILE",
        help="keep the prepared database (and its nights in FILE) and start later runs from a copy of it",
    )
    parser.add_argument("--profile", metavar="FILE", help="record where the server's time goes (py-spy, raw format)")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp()
    psql(f"drop database if exists {DATABASE}")
    psql(f"create database {DATABASE}")
    env = {
        **os.environ,
        "HEADTABLE_VAR_DIR": workdir,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": BROKER,
        "CACHE_URL": CACHE,
        "DATABASE_CONN_MAX_AGE": "60",
        # One key for every run: the keepers' sessions made when preparing stay good in a run from a copy (--again).
        "DJANGO_SECRET_KEY": "bench-clubs-bell-not-a-secret-only-on-loopback-0123456789",
    }
    subprocess.run(["redis-cli", "-n", "12", "flushdb"], check=True, capture_output=True)
    subprocess.run(["redis-cli", "-n", "13", "flushdb"], check=True, capture_output=True)
    ready = f"{DATABASE}_ready"
    if args.again and Path(args.again).exists():  # the same clubs and nights again, copied from the kept database
        psql(f"drop database {DATABASE}")
        psql(f"create database {DATABASE} template {ready}")
        nights = json.loads(Path(args.again).read_text())
        print(f"{len(nights)} nights at the bell copied from {ready} ({args.again})")
    else:
        manage(env, "migrate", "-v", "0", capture=False)
        made = time.monotonic()
        script = PREPARE.replace("{clubs}", str(args.clubs)).replace("{nights}", str(args.nights))
        out = manage(env, "shell", "-v", "0", "-c", script.replace("{players}", str(args.players)))
        nights = json.loads(out.strip().splitlines()[-1])
        print(f"prepared {args.clubs} clubs, {len(nights)} nights at the bell in {time.monotonic() - made:.0f} s")
        if args.again:
            psql(f"drop database if exists {ready}")
            psql(f"create database {ready} template {DATABASE}")
            Path(args.again).write_text(json.dumps(nights))
    gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", str(args.workers)]
    gunicorn += ["--threads", str(args.threads), "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning"]
    quiet = {"cwd": ROOT, "env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    server = subprocess.Popen(gunicorn, **quiet)
    celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", str(args.celery)]
    workers = subprocess.Popen([*celery, "--loglevel", "WARNING", "-n", f"bench-clubs-{os.getpid()}@%h"], **quiet)
    spy = None
    tally, sent = Tally(), {}
    try:
        _wait_for(args.port, server)
        if args.profile:
            spy = subprocess.Popen(
                [
                    *["py-spy", "record", "--pid", str(server.pid), "--subprocesses", "--gil", "--format", "raw"],
                    *["--rate", "50", "--duration", str(args.seconds + 20), "-o", args.profile],
                ],
                stdout=subprocess.DEVNULL,
            )
        load_avg = os.getloadavg()
        asyncio.run(load(args.port, nights, args.seconds, tally, sent))
        server_cpu, celery_cpu = cpu_seconds(server.pid), cpu_seconds(workers.pid)
        if spy is not None:
            spy.wait()
    finally:
        server.terminate()
        workers.terminate()
        server.wait()
        workers.wait()
    sent_file = Path(workdir) / "sent.json"
    sent_file.write_text(json.dumps({str(night): tables for night, tables in sent.items()}))
    stored = json.loads(manage(env, "shell", "-v", "0", "-c", COUNT.replace("{sent!r}", repr(str(sent_file)))))
    tables = sum(len(spec["tables"]) for spec in nights)
    print(
        f"hosted: gunicorn {args.workers} workers x {args.threads} threads, {args.celery} Celery worker processes,"
        f" PostgreSQL, Redis; {args.clubs} clubs, {len(nights)} nights x {args.players} players ({tables} tables),"
        f" every score within {args.seconds} s; load average before the run {load_avg[0]:.2f}"
    )
    print(f"scores answered saved: {len(tally.posts)} of {tables}; errors: {len(tally.errors)} {tally.errors[:3]}")
    print(
        f"in the database: {stored['stored']} stored once with the points sent; missing {len(stored['missing'])},"
        f" twice or stray {len(stored['twice'])}, other points {len(stored['wrong'])} {stored['wrong'][:2]};"
        f" nights with game 2 seated: {stored['games_2_seated']} of {len(nights)}"
    )
    print(
        f"CPU: the server {server_cpu:.1f} s, Celery {celery_cpu:.1f} s,"
        f" this load generator {sum(os.times()[:2]):.1f} s"
    )
    took = [t for t, _ in tally.posts]
    if took:
        print(
            f"score POST ms: p50 {percentile(took, 0.5):.0f}  p95 {percentile(took, 0.95):.0f}"
            f"  max {max(took) * 1000:.0f}"
        )
    if inside := tally.post_app:  # the table phones' posts: Server-Timing, the time inside Django
        print(
            f"  of which inside Django (the table phones' posts): p50 {percentile(inside, 0.5):.0f}"
            f"  p95 {percentile(inside, 0.95):.0f}"
        )
    every = [t for polls in tally.polls.values() for t, at in polls if at >= tally.measured_from]
    if every:
        print(
            f"polls: {len(every)}, ms: p50 {percentile(every, 0.5):.0f}  p95 {percentile(every, 0.95):.0f}"
            f"  max {max(every) * 1000:.0f}; asked to back off: {tally.backed_off}"
        )
    if waits := seat_waits():
        phones = sum(len(spec["players"]) for spec in nights)
        print(
            f"players' phones with their new seat after their night's last score: {len(waits)} of {phones};"
            f" waited p50 {percentile(waits, 0.5) / 1000:.1f} s, p95 {percentile(waits, 0.95) / 1000:.1f} s, the last"
            f" {waits[-1]:.1f} s (a phone polls every 5 s)"
        )
    for kind, polls in sorted(tally.polls.items()):
        took = [t for t, at in polls if at >= tally.measured_from]
        print(
            f"  {kind:<8} {len(took):6d} polls  p50 {percentile(took, 0.5):5.0f}  p95 {percentile(took, 0.95):5.0f} ms"
        )
    # When the slow answers came: by 10 s of the run, the polls' p95 beside the scores answered (the last score of
    # each night closes its game and seats the next, and every phone of that night then redraws its page).
    windows: dict[int, tuple[list[float], list[float]]] = {}
    for t, at in every_at(tally):
        windows.setdefault(int((at - tally.measured_from) // 10), ([], []))[0].append(t)
    for t, at in tally.posts:
        windows.setdefault(int((at - tally.measured_from) // 10), ([], []))[1].append(t)
    for window, (polls, posts) in sorted(windows.items()):
        print(
            f"  {10 * window:3d}-{10 * window + 10:3d} s: {len(polls):5d} polls p95 {percentile(polls, 0.95):5.0f} ms;"
            f" {len(posts):3d} scores p95 {percentile(posts, 0.95):5.0f} ms"
        )


def every_at(tally: Tally) -> list[tuple[float, float]]:
    """Every poll counted (once the pages were open), with the moment it was answered."""
    return [(t, at) for polls in tally.polls.values() for t, at in polls if at >= tally.measured_from]


if __name__ == "__main__":
    main()
