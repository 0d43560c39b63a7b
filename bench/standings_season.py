"""How long the standings take to read: a big night (standings and prizes) and a long season, with SQL counts.

Run from the project root:  .venv/bin/python bench/standings_season.py [--runs 7] [--db var/bench.sqlite3]

It uses a throwaway SQLite database under a temporary folder (or DATABASE_URL if set); with --db it keeps the
SQLite file and, run again, reads the nights and seasons it built last time instead of building them again.

The nights, players and season go through the services; the games themselves (seats, every hand, each table's
result) are written in bulk with random legal hands scored by scoring.rules, because replaying 200,000 hands through
the scoring services would take most of an hour and the point here is the reading. Each size is built twice, small
and large, to show the number of queries does not grow with players or nights.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_night(*, name: str, date: dt.date, players: list, games: int, rng: random.Random, prizes: str = ""):
    """A finished night: every player seated every game (no byes), every hand stored, every table's result."""
    from scoring import rules
    from scoring.models import Hand, TableResult, extras_of
    from tournament import services
    from tournament.models import Entry, Night, Round, Seating, as_played
    from tournament.simulation import random_game

    night = services.night_create(
        name=name, date=date, games=games, auto_advance=False, **({"prizes": prizes} if prizes else {})
    )
    ruleset = rules.Ruleset.from_dict(night.rules)
    Entry.objects.bulk_create([Entry(night=night, player=player, **as_played(player)) for player in players])
    rounds = Round.objects.bulk_create(
        [Round(night=night, number=n, status=Round.Status.CLOSED) for n in range(1, games + 1)]
    )
    seatings, results, hands = [], [], []
    for round_ in rounds:
        order = list(players)
        rng.shuffle(order)
        for index in range(len(order) // 4):
            table = index + 1
            for seat, player in zip("NESW", order[index * 4 : index * 4 + 4], strict=True):
                seatings.append(Seating(round=round_, table=table, seat=seat, player=player))
            game = random_game(rng, night.hands_per_game, ruleset)
            played = [
                rules.Hand(h.makers, h.tricks, h.alone, h.maker, h.blind, h.defender_alone, h.bid, h.pepper)
                for h in game
            ]
            scores = [rules.score_hand(hand, ruleset) for hand in played]
            ns, ew = sum(s.ns for s in scores), sum(s.ew for s in scores)
            winner = "NS" if ns > ew else "EW" if ew > ns else scores[-1].winner
            result = TableResult(
                round=round_,
                table=table,
                ns_points=ns,
                ew_points=ew,
                winner=winner,
                tie_break="last_hand" if ns == ew else "",
                entry=TableResult.Entry.HANDS,
                hands_played=len(game),
                extras=extras_of(played, ruleset),  # what the scoring services store with the hands
            )
            results.append(result)
            hands.append(
                [
                    Hand(
                        number=number,
                        dealer=h.dealer,
                        makers=h.makers,
                        maker=h.maker,
                        alone=h.alone,
                        blind=h.blind,
                        defender_alone=h.defender_alone or "",
                        tricks=h.tricks,
                        ns_points=s.ns,
                        ew_points=s.ew,
                    )
                    for number, (h, s) in enumerate(zip(game, scores, strict=True), start=1)
                ]
            )
    Seating.objects.bulk_create(seatings, batch_size=2000)
    TableResult.objects.bulk_create(results, batch_size=2000)
    for result, game in zip(results, hands, strict=True):
        for hand in game:
            hand.result = result
    Hand.objects.bulk_create([hand for game in hands for hand in game], batch_size=2000)
    Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
    night.refresh_from_db()
    return night


def roster(count: int, prefix: str) -> list:
    from tournament.models import Player, sole_club_id

    club = sole_club_id()
    return Player.objects.bulk_create(
        [Player(club_id=club, name=f"{prefix} {n}", name_key=f"{prefix} {n}".casefold()) for n in range(1, count + 1)]
    )


def timed(function, runs: int) -> tuple[float, float, float, int]:
    """Median and max seconds over `runs` calls, the median CPU seconds of this process (less swayed by other work
    on a shared machine; SQLite runs in-process, so it counts), and the SQL queries of one call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seconds, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        function()
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    with CaptureQueriesContext(connection) as captured:
        function()
    return statistics.median(seconds), max(seconds), statistics.median(cpu), len(captured)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000, help="Players at the big night.")
    parser.add_argument("--games", type=int, default=12, help="Games at the big night.")
    parser.add_argument("--season-players", type=int, default=200)
    parser.add_argument("--season-nights", type=int, default=40)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", help="A SQLite file to keep the built data in and reuse on the next run.")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    workdir = tempfile.mkdtemp()
    os.environ["HEADTABLE_VAR_DIR"] = workdir
    if args.db:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(args.db).resolve()}"
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Season
    from tournament import selectors
    from tournament.models import Night

    call_command("migrate", verbosity=0)
    rng = random.Random(1)
    start = dt.date(2026, 1, 6)
    print(f"database={connection.vendor}  runs={args.runs} (median, max)  load average {os.getloadavg()[0]:.2f}")

    prizes = "high,second,third,low,loners,high_game"
    for players in sorted({max(8, args.players // 10 // 4 * 4), args.players // 4 * 4}):
        name = f"Big night {players} x {args.games}"
        night = Night.objects.filter(name=name).first() or build_night(
            name=name, date=start, players=roster(players, f"Night{players}"), games=args.games, rng=rng,
            prizes=prizes,
        )  # fmt: skip
        median, worst, cpu, queries = timed(lambda night=night: selectors.night_standings(night), args.runs)
        print(
            f"night standings + prizes, {players} players x {args.games} games: "
            f"median {median:.3f} s  max {worst:.3f} s  cpu {cpu:.3f} s  {queries} queries"
        )

    nights_sizes = sorted({max(2, args.season_nights // 10), args.season_nights})
    for size in nights_sizes:
        season = Season.objects.filter(name=f"Season of {size} x {args.season_players}").first()
        if season is None:
            season = build_season(size, args.season_players, rng, start)
        median, worst, cpu, queries = timed(lambda season=season: selectors.season_standings(season), args.runs)
        print(
            f"season standings, {args.season_players} players x {size} nights: "
            f"median {median:.3f} s  max {worst:.3f} s  cpu {cpu:.3f} s  {queries} queries"
        )


def build_season(size: int, players: int, rng: random.Random, start: dt.date):
    from tournament import seasons as services

    people = roster(players, f"Season{size}")
    nights = []
    for number in range(size):
        # Most come most weeks: each night a different four-divisible share of the club turns up.
        here = rng.sample(people, k=(players - rng.randrange(0, players // 5)) // 4 * 4)
        nights.append(
            build_night(
                name=f"Week {number + 1}", date=start + dt.timedelta(weeks=number), players=here, games=10, rng=rng,
            )
        )  # fmt: skip
    season = services.season_create(name=f"Season of {size} x {players}", method="best", best_of=max(1, size * 3 // 4))
    services.season_nights_set(season=season, night_ids=[night.pk for night in nights])
    return season


if __name__ == "__main__":
    main()
