"""A hall of phones and room displays polling the server, as the run command serves it.

Run from the project root:  .venv/bin/python bench/polling.py [--phones 1000] [--displays 5] [--seconds 60]

It prepares a night on a throwaway SQLite database, starts the web server exactly as `headtable.py run` does
(granian, DEBUG off), then every phone asks its own page every 5 s and every display asks the room display
every 2 s, each with the night's stamp (so the answer is "nothing new" unless a score came in; a keeper enters
one every few seconds). It prints the rate held, latency percentiles and errors, then the poll endpoint's own
time and queries measured in-process. Only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def prepare(env: dict[str, str], players: int) -> tuple[int, list[int]]:
    code = f"""
from tournament import game
from tournament import services
from tournament.simulation import player_names
import random
night = services.night_create(name="Bench", games=10, minutes_per_game=30, auto_advance=False)
services.players_register(night=night, names=player_names({players}, random.Random(1)))
game.round_start(round_=services.night_draw(night=night, seed=1))
print(night.pk, *night.entries.values_list("player_id", flat=True))
"""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    night, *ids = map(int, out.stdout.split())
    return night, ids


async def get(port: int, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHX-Request: true\r\nConnection: close\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    status_line = await reader.readline()
    await reader.read()
    writer.close()
    return int(status_line.split()[1]), time.perf_counter() - started


async def poller(port, path_of, every, until, results, errors, offset):
    await asyncio.sleep(offset)
    while time.monotonic() < until:
        due = time.monotonic() + every
        try:
            status, seconds = await get(port, path_of())
            if status in (200, 204):
                results.append(seconds)
            else:
                errors.append(status)
        except OSError as error:
            errors.append(repr(error))
        await asyncio.sleep(max(0.0, due - time.monotonic()))


def setup_django(env) -> None:
    os.environ.update(env)
    import django

    django.setup()


def keeper_step(night: int) -> str:
    """A score keeper correcting a score: the night's stamp moves and every page redraws once."""
    from scoring.models import TableResult
    from tournament.game import table_result_submit
    from tournament.models import Round
    from tournament.selectors import night_stamp

    round_ = Round.objects.get(night_id=night, number=1)
    table = random.randint(1, 50)
    current = TableResult.objects.filter(round=round_, table=table).first()
    table_result_submit(
        round_=round_,
        table=table,
        ns_points=random.randint(0, 12),
        ew_points=random.randint(0, 12),
        last_hand_winner="NS",
        expected_version=current.version if current else None,
    )
    return night_stamp(night)


async def keeper(night, until, stamp_box):
    while time.monotonic() < until:
        await asyncio.sleep(5)
        stamp_box[0] = await asyncio.to_thread(keeper_step, night)


async def load(port, env, night, ids, phones, displays, seconds):
    until = time.monotonic() + seconds
    from tournament.selectors import night_stamp

    stamp_box = [await asyncio.to_thread(night_stamp, night)]
    results: list[float] = []
    errors: list = []
    tasks = []
    for n in range(phones):
        player = ids[n % len(ids)]

        def phone_path(player=player):
            return f"/public/nights/{night}/me/{player}/?since={stamp_box[0]}"

        tasks.append(poller(port, phone_path, 5.0, until, results, errors, random.random() * 5))
    for _ in range(displays):
        tasks.append(
            poller(
                port, lambda: f"/public/nights/{night}/display/?since={stamp_box[0]}", 2.0, until, results, errors, 0
            )
        )
    tasks.append(keeper(night, until, stamp_box))
    await asyncio.gather(*tasks)
    return results, errors


def in_process(night) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournament.selectors import night_stamp

    client = Client()
    url = f"/public/nights/{night}/display/"
    since = night_stamp(night)
    times = []
    for _ in range(500):
        started = time.perf_counter()
        response = client.get(url, {"since": since}, HTTP_HX_REQUEST="true")
        times.append(time.perf_counter() - started)
    with CaptureQueriesContext(connection) as queries:
        client.get(url, {"since": since}, HTTP_HX_REQUEST="true")
    times.sort()
    print(
        f"poll endpoint in-process: status {response.status_code}, median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms, {len(queries)} queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--displays", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--port", type=int, default=8790)
    args = parser.parse_args()
    from headtable import server_command

    workdir = tempfile.mkdtemp()
    env = {
        **os.environ,
        "HEADTABLE_VAR_DIR": workdir,
        "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
    }
    night, ids = prepare(env, args.players)
    setup_django(env)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=ROOT, env=env)
    server = subprocess.Popen(
        server_command(sys.executable, str(args.port), host="127.0.0.1"),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(2)
        results, errors = asyncio.run(load(args.port, env, night, ids, args.phones, args.displays, args.seconds))
    finally:
        server.terminate()
        server.wait()
    results.sort()
    print(f"{args.phones} phones every 5 s, {args.displays} displays every 2 s, for {args.seconds} s")
    print(f"requests {len(results)} ok, {len(errors)} errors, {len(results) / args.seconds:.0f} per second")
    if results:
        pct = {p: results[min(len(results) - 1, int(len(results) * p / 100))] * 1000 for p in (50, 95, 99)}
        print(f"latency ms: p50 {pct[50]:.1f}  p95 {pct[95]:.1f}  p99 {pct[99]:.1f}  max {results[-1] * 1000:.1f}")
    if errors:
        print("first errors:", errors[:5])
    in_process(night)


if __name__ == "__main__":
    main()
