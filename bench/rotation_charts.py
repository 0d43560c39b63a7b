"""Rotation charts: time, peak memory and fairness figures for full perfect nights and 10-game big nights, and the
full nights beside Julian Wiseman's published individual-pairs designs.

Run with `.venv/bin/python bench/rotation_charts.py`. Goals (issue #5): a full perfect chart under 1 s; a 10-game
chart for 400 players under 2 s and under 200 MB. Issue #36: each figure of `chart_figures` beside the published
design's (the designs are written out in `tests/tournament/engine/data/wiseman_individual_pairs.txt`); the full
nights for 4n+2 and 4n+3 players from 7 to 30 are the stored ones (`rotation_data.py`, `rotation_search.py`).
"""

from __future__ import annotations

import pathlib
import sys
import time
import tracemalloc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tournament.engine.chart_figures import chart_schedule, figures, read_designs
from tournament.engine.rotation import build_chart, chart_fairness

DESIGNS = pathlib.Path(__file__).resolve().parent.parent / "tests/tournament/engine/data/wiseman_individual_pairs.txt"


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


def published(seeds: int = 5) -> None:
    """Each published design's figures, then the worst and best of ours over `seeds` seeds (the full night)."""
    print("full nights beside the published designs: published / ours, worst-best over seeds (! ours worse)")
    for v, design in sorted(read_designs(DESIGNS.read_text()).items()):
        theirs = figures(design.schedule)
        ours = [figures(chart_schedule(build_chart(v, seed=seed))) for seed in range(seeds)]
        cells = []
        for name, value in theirs.items():
            mine = [getattr(f, name) for f in ours]
            cells.append(f"{name}={value}/{max(mine)}-{min(mine)}{'!' if max(mine) > value else ''}")
        print(f"{v:>4} players  " + "  ".join(cells), flush=True)


def main() -> None:
    print("value/ideal for each figure; ! marks a figure above its ideal")
    print("full nights, v = 4n or 4n+1:")
    for v in range(8, 65):
        if v % 4 in (0, 1):
            run(v, None)
    print("full nights, v = 4n+2 or 4n+3 (stored, found by rotation_search):")
    for v in range(7, 31):
        if v % 4 in (2, 3):
            run(v, None)
    print("10-game nights:")
    for players in (30, 50, 100, 200, 400):
        run(players, 10)
    published()


if __name__ == "__main__":
    main()
