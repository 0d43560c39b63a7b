"""What each live working screen's poll costs, in process: the table's phone, the keeper's desk, the night page.

Run from the project root:  .venv/bin/python bench/live_screens.py [--players 100 1000] [--repeat 30] [--hosted]

For each room size it prepares a night on a throwaway SQLite database (game 1 being played, a score in at every
other table), then asks each poll as the pages do, with the stamp they were drawn from: "nothing new" (the 204
answer every poll gives while nothing moves) and "redrawn" (the answer after a change). It prints the median CPU
time of the request in this process and the SQL queries it ran: figures that carry from one machine to another
better than wall-clock times under load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(client, url: str, repeat: int, expect: int, before=None, **headers) -> tuple[float, int]:
    """Median CPU ms of `repeat` requests (`before` runs ahead of each, untimed), and the queries of one more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.process_time()
        response = client.get(url, **headers)
        times.append(time.process_time() - started)
        assert response.status_code == expect, (url, response.status_code)
    if before is not None:
        before()
    with CaptureQueriesContext(connection) as queries:
        client.get(url, **headers)
    return statistics.median(times) * 1000, len(queries)


def room(players: int, repeat: int) -> list[tuple[str, float, int]]:
    import random

    from django.contrib.auth import get_user_model
    from django.core.cache import caches

    def clear() -> None:
        for name in ("default", "limits"):
            caches[name].clear()

    from django.test import Client
    from django.urls import reverse

    from scoring.models import TableLink
    from tournament import game, services
    from tournament.simulation import player_names

    night = services.night_create(name=f"Bench {players}", games=10, auto_advance=False)
    services.players_register(night=night, names=player_names(players, random.Random(1)))
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    tables = sorted(set(round_.seatings.values_list("table", flat=True)))
    for table in tables[::2]:
        game.table_result_submit(round_=round_, table=table, ns_points=5, ew_points=3)
    services.table_links_ensure(night=night)
    token = TableLink.objects.get(night=night, table=tables[-1], active=True).token
    organizer = get_user_model().objects.create_user(f"bench{players}", password="x", is_staff=True)
    htmx = {"HTTP_HX_REQUEST": "true"}
    rows = []
    time.sleep(0.5)  # a quiet moment, then one more score: the pages below are drawn from its stamp
    game.table_result_submit(round_=round_, table=tables[1], ns_points=5, ew_points=3)

    phone = Client()
    page = phone.get(reverse("scoring:table_link", args=[token])).content.decode()
    since = page.split("?since=", 1)[1].split('"', 1)[0]
    url = reverse("scoring:table_link", args=[token])
    clear()
    rows.append(("table phone, nothing new", *measure(phone, f"{url}?since={since}", repeat, 204, **htmx)))
    clear()
    rows.append(("table phone, redrawn", *measure(phone, f"{url}?since=old", repeat, 200, **htmx)))
    hands = reverse("scoring:link_hands", args=[token])
    clear()
    rows.append(("table phone's hand page, redrawn", *measure(phone, f"{hands}?since=old", repeat, 200, **htmx)))

    keeper = Client()
    keeper.force_login(organizer)
    desk = keeper.get(reverse("scoring:keeper_desk", args=[night.pk])).content.decode()
    since = desk.split("desk-live/?since=", 1)[1].split('"', 1)[0]
    since, moved = since.split("&amp;moved=")
    desk_live = reverse("scoring:desk_live", args=[night.pk, 1])
    night.refresh_from_db()
    stamp = f"{night.changed_at.timestamp():.6f}"
    page_live = reverse("tournament:round_live", args=[night.pk])
    page_poll = f"{page_live}?since={stamp}&moved={moved}"
    rows.append(
        (
            "keeper's desk, nothing new",
            *measure(keeper, f"{desk_live}?since={since}&moved={moved}", repeat, 204, **htmx),
        )
    )
    rows.append(("night page, nothing new", *measure(keeper, page_poll, repeat, 204, **htmx)))
    time.sleep(0.5)  # the next score comes a moment after the pages were drawn, as in a room
    game.table_result_submit(round_=round_, table=tables[3], ns_points=5, ew_points=3)
    rows.append(
        (
            "keeper's desk, after a score",
            *measure(keeper, f"{desk_live}?since={since}&moved={moved}", repeat, 200, **htmx),
        )
    )
    rows.append(("night page, after a score", *measure(keeper, page_poll, repeat, 200, **htmx)))
    # A player's own page (the public one every phone in the hall polls) and the room display.
    player = round_.seatings.filter(table=tables[0]).values_list("player_id", flat=True).first()
    mine = reverse("tournament:player_page", args=[night.pk, player])
    night.refresh_from_db()
    stamp_moved = f"{night.moved_at.timestamp():.6f}"
    anyone = Client()
    rows.append(("player's page, nothing new", *measure(anyone, f"{mine}?since={stamp_moved}", repeat, 204, **htmx)))
    rows.append(("player's page, redrawn", *measure(anyone, f"{mine}?since=old", repeat, 200, **htmx)))
    display = reverse("tournament:room_display", args=[night.pk])
    redraw = measure(anyone, f"{display}?since=old", 5, 200, before=clear, **htmx)
    rows.append(("room display, drawn (once a change, all screens)", *redraw))
    slow = max(3, repeat // 10)
    rows.append(
        (
            "keeper's desk, after a move (all rows)",
            *measure(keeper, f"{desk_live}?since=old&moved=old", slow, 200, **htmx),
        )
    )
    rows.append(
        (
            "night page, after a move (whole game)",
            *measure(keeper, f"{page_live}?since=old&moved=old", slow, 200, **htmx),
        )
    )
    rows += score_posts(players, repeat)
    return rows


def score_posts(players: int, repeat: int) -> list[tuple[str, float, int]]:
    """A table phone's score post (the form from its page, then the POST: only the POST is timed), and the last
    table's post after the bell, which closes the game, moves everyone and seats and starts the next (the
    turnaround), on a night that runs by itself."""
    import random
    import re

    from django.db import connection
    from django.test import Client

    from bench.full_room import played_score
    from tournament import game, services
    from tournament.simulation import player_names

    night = services.night_create(name=f"Posts {players}", games=3, confirm_results=False)
    services.players_register(night=night, names=player_names(players, random.Random(2)))
    round_ = game.round_start(round_=services.night_draw(night=night, seed=2))
    game.round_ring_bell(round_=round_)
    links = services.table_links_ensure(night=night)
    phone = Client()

    def post(link):
        page = phone.get(f"/t/{link.token}/").content.decode()
        key = re.search(r'name="key" value="([^"]+)"', page).group(1)
        ns, ew = played_score()
        data = {"key": key, "side": "NS", "ns_points": ns, "ew_points": ew, "last_hand_winner": "NS", "game": "1"}
        # Statements counted by a wrapper, not Django's query log: on SQLite the log asks the database to quote
        # every parameter, which costs more than the statements themselves.
        statements = []

        def count(execute, sql, params, many, context):
            statements.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            started = time.process_time()
            answer = phone.post(f"/t/{link.token}/score/", data, HTTP_HX_REQUEST="true")
            took = time.process_time() - started
        assert "Saved." in answer.content.decode(), answer.content[:200]
        return took * 1000, len(statements)

    timed = [post(link) for link in links[: min(repeat, len(links) - 1)]]
    for link in links[len(timed) : -1]:
        game.table_result_submit(round_=round_, table=link.table, ns_points=5, ew_points=3, last_hand_winner="NS")
    last_ms, last_queries = post(links[-1])
    assert night.rounds.filter(number=2, status="playing").exists()
    return [
        ("table's score post", statistics.median(ms for ms, _ in timed), timed[-1][1]),
        ("turnaround (the last post: close, move, seat, start)", last_ms, last_queries),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--hosted", action="store_true", help="PostgreSQL and the Redis cache (on this machine)")
    args = parser.parse_args()
    var = tempfile.mkdtemp(prefix="headtable-bench-")
    os.environ.update(HEADTABLE_VAR_DIR=var, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0")
    os.environ.pop("DATABASE_URL", None)
    if args.hosted:  # a fresh database of its own, kept connections as hosted sets them (README)
        import subprocess

        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q", "-c"]
        subprocess.run([*psql, "drop database if exists headtable_screens"], check=True, capture_output=True)
        subprocess.run([*psql, "create database headtable_screens"], check=True)
        os.environ.update(
            DATABASE_URL="postgres://postgres@127.0.0.1:5432/headtable_screens",
            CACHE_URL="redis://127.0.0.1:6379/12",
            DATABASE_CONN_MAX_AGE="60",
        )
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's hosts, without touching the database settings
    call_command("migrate", verbosity=0)
    for players in args.players:
        print(f"\n{players} players ({players // 4} tables):")
        for name, ms, queries in room(players, args.repeat):
            print(f"  {name:<36} median {ms:7.2f} ms CPU   {queries:3d} queries")


if __name__ == "__main__":
    main()
