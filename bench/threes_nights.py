"""Tables of three over many rehearsed nights: byes, how the games at a table of three spread over the room, and
what a game there is worth beside a game at a table of four.

Run from the project root:  .venv/bin/python bench/threes_nights.py [--nights 30] [--games 8] [--movement NAME]
Each night is `simulate_night --fill threes` (the services and the game's life the pages use, on a throwaway
SQLite database under a temporary folder, or DATABASE_URL if set), 13, 14 or 15 players in turn. It prints, per
movement: byes (the ideal is none), each player's games at a table of three (the fewest, the mean and the most
over all the nights' players, and the widest gap between two players of one night), and the mean points a
player scores in a game at a table of three and at a table of four, with the seconds a night took.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scratch import scratch_django

MOVEMENTS = ("progressive", "progressive-down", "winners-stay", "seat-rotation", "fixed-partners", "rotation")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nights", type=int, default=30)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--movement", choices=MOVEMENTS, action="append")
    args = parser.parse_args()

    scratch_django()

    from tournament.rehearsal import simulate
    from tournament.selectors import night_record

    print(f"{args.nights} nights of {args.games} games per movement, 13, 14 and 15 players in turn, tables of three")
    print(
        f"{'movement':<18}{'byes':>5}{'at three: fewest':>18}{'mean':>6}{'most':>6}{'gap':>5}"
        f"{'pts/game at 3':>15}{'at 4':>7}{'s/night':>9}"
    )
    for movement in args.movement or MOVEMENTS:
        byes = 0
        spread: list[int] = []
        gap = 0
        at_three: list[int] = []
        at_four: list[int] = []
        started = time.perf_counter()
        for seed in range(1, args.nights + 1):
            players = 13 + seed % 3
            night = simulate(players=players, rounds=args.games, seed=seed, movement=movement, fill="threes")
            record = night_record(night)
            games_at_three = {player["id"]: 0 for player in record["players"]}
            for round_ in record["rounds"]:
                byes += len(round_["byes"])
                for table in round_["tables"]:
                    for seat, player in table["seats"].items():
                        if table["three"]:
                            games_at_three[player] += 1
                            at_three.append(table["score"][seat])
                        else:
                            at_four.append(table["score"]["NS" if seat in "NS" else "EW"])
            spread.extend(games_at_three.values())
            gap = max(gap, max(games_at_three.values()) - min(games_at_three.values()))
        seconds = (time.perf_counter() - started) / args.nights
        print(
            f"{movement:<18}{byes:>5}{min(spread):>18}{statistics.mean(spread):>6.1f}{max(spread):>6}{gap:>5}"
            f"{statistics.mean(at_three):>15.1f}{statistics.mean(at_four):>7.1f}{seconds:>9.2f}"
        )


if __name__ == "__main__":
    main()
