"""What one request of each kind the room sends costs the server in Django, measured alone (#38).

Run from the project root (PostgreSQL on 127.0.0.1:5432 with trust for the postgres user, Redis on 127.0.0.1:6379):
    .venv/bin/python bench/request_cost.py             # 400 of each poll, 96 score posts
    .venv/bin/python bench/request_cost.py --profile "table redraw"    # and where that kind's time goes

The hosted set-up's settings (PostgreSQL, the Redis cache) on a throwaway database of its own
(headtable_bench_cost) and Redis databases 10 and 11. It prepares nights of 100 players with game 1's bell rung
and every table's link, then calls Django's WSGI handler in this one process, as gunicorn's threads do, with no
network and no other load: a player's poll with nothing new (204), a table phone's poll with nothing new (204), each
redrawn after a move (a stamp that no longer holds), and each table's score posted from its phone (the last table
of a night closes its game and seats the next; those are shown apart). For each: CPU per request and the SQL
statements it made. The clubs bench (`bench/clubs_bell.py`) measures the same requests together, under load.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

DATABASE = "headtable_bench_cost"
os.environ.update(
    {
        "HEADTABLE_VAR_DIR": str(Path(os.environ.get("TMPDIR", "/tmp")) / "headtable-bench-cost"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/10",
        "CACHE_URL": "redis://127.0.0.1:6379/11",
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_SECRET_KEY": "bench-request-cost-not-a-secret-only-in-process-0123456789",
    }
)


def psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c", sql], check=True, capture_output=True)


class Handler:
    """Django's WSGI handler called as gunicorn calls it, with an htmx request's headers."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.app = WSGIHandler()

    def __call__(self, path: str, query: str = "", body: bytes = b"", headers: dict | None = None):
        environ = {
            "REQUEST_METHOD": "POST" if body else "GET",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "HTTP_HX_REQUEST": "true",
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/x-www-form-urlencoded",
        }
        environ.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in (headers or {}).items()})
        answer: dict = {}

        def start(status, response_headers, exc_info=None):
            answer["status"], answer["headers"] = int(status.split()[0]), response_headers

        content = b"".join(self.app(environ, start)).decode()
        return answer["status"], answer["headers"], content


def prepare(count: int) -> list[dict]:
    """`count` nights of 100 players, game 1 under way and its bell rung, every table's link made."""
    from django.urls import reverse
    from full_room import session_of

    from tournament import game, services
    from tournament.services import clubs, table_links_ensure
    from tournament.simulation import player_names

    club = clubs.club_add(name="Bench cost club")
    nights = []
    for n in range(count):
        night = services.night_create(name=f"Cost {n}", games=3, club=club, confirm_results=False)
        services.players_register(night=night, names=player_names(100, random.Random(n)))
        round_ = game.round_start(round_=services.night_draw(night=night, seed=n))
        game.round_ring_bell(round_=round_)
        links = table_links_ensure(night=night)
        keeper = services.keeper_add(night=night, username=f"cost-keeper-{n}", password="tally-card-77")
        nights.append(
            {
                "night": night.pk,
                "tokens": [link.token for link in links],
                "players": list(night.entries.values_list("player_id", flat=True)),
                "session": session_of(keeper),
                "desk": reverse("scoring:keeper_desk", args=[night.pk]),
            }
        )
    return nights


def timed(call, requests, profile: cProfile.Profile | None = None) -> tuple[list[float], list[int], list]:
    """Each request's CPU milliseconds and SQL statements, and its answer."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpu, statements, answers = [], [], []
    for arguments in requests:
        started = time.process_time()
        if profile is not None:
            profile.enable()
        with CaptureQueriesContext(connection) as queries:
            answers.append(call(*arguments))
        if profile is not None:
            profile.disable()
        cpu.append((time.process_time() - started) * 1000)
        statements.append(len(queries))
    return cpu, statements, answers


def report(kind: str, cpu: list[float], statements: list[int], answers: list) -> None:
    cpu = sorted(cpu)
    statuses = sorted({status for status, _headers, _content in answers})
    print(
        f"{kind:15} {len(cpu):4} requests, answered {statuses}: CPU p50 {cpu[len(cpu) // 2]:.2f} ms, "
        f"p95 {cpu[int(len(cpu) * 0.95)]:.2f} ms; statements {sorted(set(statements))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polls", type=int, default=400, help="requests of each poll kind")
    parser.add_argument("--nights", type=int, default=4, help="nights whose tables post their scores (25 each)")
    parser.add_argument("--profile", metavar="KIND", help="print where that kind's time goes (cProfile)")
    args = parser.parse_args()
    psql(f"drop database if exists {DATABASE}")
    psql(f"create database {DATABASE}")
    subprocess.run(["redis-cli", "-n", "11", "flushdb"], check=True, capture_output=True)
    import django

    django.setup()
    import logging

    from django.core.cache import caches
    from django.core.management import call_command

    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the polls over a link's budget say 429
    call_command("migrate", verbosity=0)
    nights = prepare(args.nights)
    call = Handler()
    first = nights[0]
    players = itertools.cycle(first["players"])
    tokens = itertools.cycle(first["tokens"])
    page = call(f"/public/nights/{first['night']}/me/{first['players'][0]}/", "since=0")[2]
    player_stamp = re.search(r"since=([0-9.]+)", page).group(1)
    table_stamps = {
        token: re.search(r'since=([^"&]+)"', call(f"/t/{token}/", "since=0")[2]).group(1) for token in first["tokens"]
    }

    def polls(kind: str):
        for _ in range(args.polls):
            if kind.startswith("player"):
                stamp = player_stamp if kind == "player 204" else "1"
                yield (f"/public/nights/{first['night']}/me/{next(players)}/", f"since={stamp}")
            else:
                token = next(tokens)
                yield (f"/t/{token}/", f"since={table_stamps[token] if kind == 'table 204' else '1'}")

    print(f"Django's handler in one process, PostgreSQL and Redis on loopback; {time.strftime('%Y-%m-%d %H:%M UTC')}")
    for kind in ("player 204", "table 204", "player redraw", "table redraw"):
        caches["limits"].clear()  # a link's poll budget is 200 a minute; these are many more
        list(map(lambda arguments: call(*arguments), itertools.islice(polls(kind), 20)))  # warm
        profile = cProfile.Profile() if args.profile == kind else None
        report(kind, *timed(call, polls(kind), profile))
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)

    from full_room import desk_fields, played_score

    caches["limits"].clear()
    phone_posts, desk_posts, closing = [], [], []
    for night in nights:
        _status, headers, desk = call(night["desk"], headers={"Cookie": f"sessionid={night['session']}"})
        cookie = next(v.strip().split(";")[0] for k, v in headers if k == "Set-Cookie" and "csrftoken=" in v)
        desk_csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', desk).group(1)
        for table, token in enumerate(night["tokens"], start=1):
            ns, ew = played_score()
            if table % 2:  # the odd tables from their phone: its page, then its form's POST
                status, headers, page = call(f"/t/{token}/")
                assert status == 200, (status, page[:200])
                mine = next(v.strip().split(";")[0] for k, v in headers if k == "Set-Cookie" and "csrftoken=" in v)
                csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
                key = re.search(r'name="key" value="([^"]+)"', page).group(1)
                fields = {"csrfmiddlewaretoken": csrf, "key": key, "side": "NS", "ns_points": ns, "ew_points": ew}
                body = urlencode({**fields, "last_hand_winner": "NS", "game": "1"}).encode()
                post = (f"/t/{token}/score/", "", body, {"Cookie": mine, "X-CSRFToken": csrf})
            else:  # the even ones from the keeper's desk: its row's form, as the desk's Save sends it
                fields = {
                    "csrfmiddlewaretoken": desk_csrf,
                    **desk_fields(desk, f"t{table}-"),
                    f"t{table}-ns_points": ns,
                    f"t{table}-ew_points": ew,
                    f"t{table}-last_hand_winner": "NS",
                }
                path = f"{night['desk'].removesuffix('desk/')}games/1/tables/{table}/desk/"
                cookies = f"sessionid={night['session']}; {cookie}"
                post = (path, "", urlencode(fields).encode(), {"Cookie": cookies, "X-CSRFToken": desk_csrf})
            (closing if table == len(night["tokens"]) else phone_posts if table % 2 else desk_posts).append(post)
    for kind, posts in (("score, phone", phone_posts), ("score, desk", desk_posts), ("score, closing", closing)):
        profile = cProfile.Profile() if args.profile == kind else None
        cpu, statements, answers = timed(call, posts, profile)
        saved = ("Saved." in content or '<span class="ok">saved</span>' in content for _s, _h, content in answers)
        assert all(saved), f"a score was not saved ({kind})"
        report(kind, cpu, statements, answers)
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    from django.db import connections

    connections.close_all()
    psql(f"drop database {DATABASE}")
    print(json.dumps({"nights": len(nights), "polls": args.polls}))


if __name__ == "__main__":
    main()
