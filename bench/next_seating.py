"""How long closing a game and seating the next takes for a big night, and how many SQL queries it runs.

Run from the project root:  .venv/bin/python bench/next_seating.py [--players 1000] [--games 6] [--wishes]
It uses a throwaway SQLite database under a temporary folder (or DATABASE_URL if set), plays a night through the
services, and times only `round_close` (movement, byes, and saving the next game's seats). `--wishes` gives the
night partner wishes: never-partner pairs for 5% of the players and two groups of equal size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scratch import scratch_django


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--movement", default="progressive")
    parser.add_argument("--wishes", action="store_true")
    args = parser.parse_args()

    scratch_django()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournament import game, services
    from tournament.game import table_result_submit
    from tournament.models import Entry

    # Closed by hand, as the organizer's button does: a night that runs by itself would also start the next game.
    night = services.night_create(name="Benchmark", games=args.games + 1, movement=args.movement, auto_advance=False)
    names = [f"Player {n}" for n in range(1, args.players + 1)]
    services.players_register(night=night, names=names)
    if args.wishes:
        # The night's own categories (the entry's, as its import sets them), which the seating reads.
        Entry.objects.filter(night=night, name__in=names[0::2]).update(category="red")
        Entry.objects.filter(night=night, name__in=names[1::2]).update(category="black")
        rng = random.Random(1)
        never = {tuple(sorted(rng.sample(names, 2))) for _ in range(args.players // 20)}
        services.night_wishes_set(
            night=night, never="\n".join(" & ".join(pair) for pair in sorted(never)), always="", groups="red, black"
        )
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
    print(
        f"players={args.players} tables={tables} movement={args.movement} wishes={args.wishes} "
        f"games timed={len(seconds)}"
    )
    print(f"database={connection.vendor}")
    print(
        f"round_close seconds: median {statistics.median(seconds):.3f}  max {max(seconds):.3f}  min {min(seconds):.3f}"
    )
    print(f"SQL queries per round_close: {sorted(set(queries))}")


if __name__ == "__main__":
    main()
