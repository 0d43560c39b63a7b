"""How long closing a game and seating the next takes for a big night, and how many SQL queries it runs.

Run from the project root:  .venv/bin/python bench/next_seating.py [--players 1000] [--games 6]
It uses a throwaway SQLite database under a temporary folder (or DATABASE_URL if set), plays a night through the
services, and times only `round_close` (movement, byes, and saving the next game's seats).
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--movement", default="progressive")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    workdir = tempfile.mkdtemp()
    os.environ["HEADTABLE_VAR_DIR"] = workdir
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament import game, services
    from tournament.game import table_result_submit

    call_command("migrate", verbosity=0)
    # Closed by hand, as the organizer's button does: a night that runs by itself would also start the next game.
    night = services.night_create(name="Benchmark", games=args.games + 1, movement=args.movement, auto_advance=False)
    services.players_register(night=night, names=[f"Player {n}" for n in range(1, args.players + 1)])
    round_ = services.night_draw(night=night, seed=1)
    seconds, queries = [], []
    for _ in range(args.games):
        game.round_start(round_=round_)
        for table in sorted(set(round_.seatings.values_list("table", flat=True))):
            table_result_submit(round_=round_, table=table, ns_points=5 + table % 3, ew_points=4)
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            round_ = game.round_close(round_=round_)
            seconds.append(time.perf_counter() - started)
        queries.append(len(captured))
    tables = round_.seatings.values("table").distinct().count()
    print(f"players={args.players} tables={tables} movement={args.movement} games timed={len(seconds)}")
    print(f"database={connection.vendor}")
    print(
        f"round_close seconds: median {statistics.median(seconds):.3f}  max {max(seconds):.3f}  min {min(seconds):.3f}"
    )
    print(f"SQL queries per round_close: {sorted(set(queries))}")


if __name__ == "__main__":
    main()
