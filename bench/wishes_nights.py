"""Partner wishes over many rehearsed nights: what each movement breaks, and whether its own rule forced it.

Run from the project root:  .venv/bin/python bench/wishes_nights.py [--nights 100] [--games 6] [--movement NAME]
Each night is `simulate_night`'s rehearsal (the services and the game's life the pages use, on a throwaway SQLite
database under a temporary folder, or DATABASE_URL if set) with never-partner pairs for 5% of the players and two
groups of equal size, every partnership to be one of each; the head count is drawn from 12 to 42. It prints, per
movement, the breaches the simulation's JSON records (`wishes`): in the opening draw, later, forced by the
movement's rule, and ones the seating could have kept (the ideal is none), with the seconds a night took.
"""

from __future__ import annotations

import argparse
import random
import time

from scratch import scratch_django

MOVEMENTS = ("progressive", "progressive-down", "winners-stay", "fixed-partners", "seat-rotation", "rotation")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--movement", choices=MOVEMENTS, action="append")
    args = parser.parse_args()

    scratch_django()

    from tournament.rehearsal import simulate
    from tournament.selectors import night_record

    print(f"{args.nights} nights of {args.games} games per movement; never pairs 5% of the players, two equal groups")
    print(f"{'movement':<18}{'opening':>8}{'later':>7}{'forced':>8}{'avoidable':>10}{'s/night':>9}")
    for movement in args.movement or MOVEMENTS:
        opening = later = forced = avoidable = 0
        started = time.perf_counter()
        for seed in range(1, args.nights + 1):
            players = random.Random(seed).randrange(12, 43, 2)  # even: the groups are of equal size
            if movement == "fixed-partners":
                players -= players % 4  # fixed partners seat pairs: a multiple of four (or house players)
            night = simulate(
                players=players, rounds=args.games, seed=seed, movement=movement, never_share=0.05, two_groups=True
            )
            wishes = night_record(night)["wishes"]
            opening += sum(breach["game"] == 1 for breach in wishes["breaches"])
            later += sum(breach["game"] > 1 for breach in wishes["breaches"])
            forced += wishes["forced"]
            avoidable += wishes["avoidable"]
        seconds = (time.perf_counter() - started) / args.nights
        print(f"{movement:<18}{opening:>8}{later:>7}{forced:>8}{avoidable:>10}{seconds:>9.2f}")


if __name__ == "__main__":
    main()
