"""Rotation charts: time, peak memory and fairness figures for full perfect nights and 10-game big nights.

Run with `.venv/bin/python bench/rotation_charts.py`. Goals (issue #5): a full perfect chart under 1 s; a 10-game
chart for 400 players under 2 s and under 200 MB.
"""

from __future__ import annotations

import pathlib
import sys
import time
import tracemalloc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tournament.engine.rotation import build_chart, chart_fairness


def run(players: int, games: int | None) -> None:
    started = time.perf_counter()
    chart = build_chart(players, games)
    elapsed = time.perf_counter() - started
    tracemalloc.start()  # a second build, traced: tracing slows Python down too much to time the same run
    build_chart(players, games)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    fairness = chart_fairness(chart)
    figures = "  ".join(f"{row.key}={row.value}/{row.ideal}{'' if row.ok else '!'}" for row in fairness.rows)
    kind = "perfect" if chart.perfect else "best"
    print(
        f"{players:>4} players {chart.games:>3} games  {kind:<7} {elapsed:6.3f} s {peak / 2**20:7.1f} MB  {figures}",
        flush=True,
    )


def main() -> None:
    print("value/ideal for each figure; ! marks a figure above its ideal")
    print("full nights, v = 4n or 4n+1:")
    for v in range(8, 65):
        if v % 4 in (0, 1):
            run(v, None)
    print("10-game nights:")
    for players in (30, 50, 100, 200, 400):
        run(players, 10)


if __name__ == "__main__":
    main()
