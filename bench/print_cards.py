"""How long the big print jobs take, and how much memory they need (the goals of issue #8, "The print shop").

Builds, in a scratch SQLite database under a temporary folder:

- a 1,000-player progressive night with 10 games played (totals entered), and from it
  1,000 tally cards (2 a page), 250 table score sheets for the last game, and the 1,000-player standings;
- a 400-number rotation night (chart built before the doors open, 10 games), and its numbered tally cards
  (2 a page) and wall chart.

Each sheet is then built in a fresh process (so one sheet's memory does not hide in another's): three timed builds
(the median is shown, from the database query to the last byte, as the print button does it), then one more under
tracemalloc. "peak RSS" is the process's resident-memory high-water mark (ru_maxrss, Django and the data included);
"Python peak" is tracemalloc's peak for one build alone.

Goals: cards under 3 s, standings under 1 s, peak memory under 300 MB.

Run from the project root:  .venv/bin/python bench/print_cards.py [--players 1000] [--games 10] [--rotation 400]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE_URL = "http://192.168.1.20:8000"

# item -> (what it is, the goal in seconds)
ITEMS = {
    "tally-cards": ("tally cards, 2 a page", 3.0),
    "score-sheets": ("table score sheets", None),
    "standings": ("standings", 1.0),
    "rotation-cards": ("rotation tally cards, 2 a page", 3.0),
    "wall-chart": ("rotation wall chart", None),
}


def _django(workdir: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["HEADTABLE_VAR_DIR"] = workdir
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/print.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _setup(args) -> dict:
    """The two nights, in the scratch database; returns their ids."""
    from django.core.management import call_command

    from tournament import services
    from tournament.models import Night
    from tournament.rehearsal import simulate

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    night = simulate(players=args.players, rounds=args.games, seed=1, entry="totals", name="Bench night")
    played = time.perf_counter() - started
    started = time.perf_counter()
    rotation = services.night_create(
        name="Bench rotation", movement=Night.Movement.ROTATION, games=args.games, auto_advance=False
    )
    services.night_chart_build(night=rotation, players=args.rotation, seed=1)
    charted = time.perf_counter() - started
    print(
        f"set-up: {args.players}-player night, {args.games} games played in {played:.0f} s; "
        f"{args.rotation}-number rotation chart built in {charted:.1f} s"
    )
    return {"night": night.pk, "rotation": rotation.pk}


def _builder(item: str, ids: dict):
    """A function that builds `item` the way the print buttons do, and what to call its output."""
    from django.urls import reverse

    from tournament import selectors, services
    from tournament.models import Night
    from tournament.sheets import printing

    night = Night.objects.get(pk=ids["night"])
    rotation = Night.objects.get(pk=ids["rotation"])

    def link_url(token: str) -> str:
        return BASE_URL + reverse("scoring:table_link", args=[token])

    if item == "tally-cards":
        cards = f"{night.entries.count():,} cards"
        return lambda: printing.sheet_bytes(night, "tally-cards", per_page=2, blank=0), cards
    if item == "score-sheets":
        services.table_links_ensure(night=night)  # the links exist before the night starts
        tables = selectors.round_view(selectors.current_round(night)).tables
        return lambda: printing.sheet_bytes(night, "score-sheets", link_url=link_url), f"{len(tables)} sheets"
    if item == "standings":
        return lambda: printing.sheet_bytes(night, "standings"), f"{night.entries.count():,} players"
    if item == "rotation-cards":
        count = rotation.chart["players"]
        return lambda: printing.sheet_bytes(rotation, "tally-cards", per_page=2, blank=0), f"{count} numbered cards"
    if item == "wall-chart":
        return lambda: printing.sheet_bytes(rotation, "chart"), f"{rotation.chart['players']} numbers"
    raise ValueError(item)


def _child(item: str, ids: dict, workdir: str) -> None:
    """Measure one item in this fresh process and print one JSON line."""
    _django(workdir)
    from pypdf import PdfReader

    build, what = _builder(item, ids)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times, content = [], b""
    for _ in range(3):
        started = time.perf_counter()
        content = build()
        times.append(time.perf_counter() - started)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    build()
    _, python_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    pages = len(PdfReader(io.BytesIO(content)).pages)
    print(
        json.dumps(
            {
                "what": what,
                "median": statistics.median(times),
                "times": times,
                "pages": pages,
                "bytes": len(content),
                "rss_before": before * 1024,
                "rss_peak": peak_rss * 1024,
                "python_peak": python_peak,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rotation", type=int, default=400, help="Numbers on the rotation night's chart.")
    parser.add_argument("--only", choices=ITEMS, action="append", help="Measure just this (may be repeated).")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    parser.add_argument("--workdir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, json.loads(args.ids), args.workdir)
        return
    workdir = tempfile.mkdtemp(prefix="headtable-bench-")
    _django(workdir)
    ids = _setup(args)
    row = "{:<50} {:>8} {:>16} {:>6} {:>7} {:>9} {:>11}  {}"
    print(row.format("sheet", "median", "3 runs (s)", "pages", "file", "peak RSS", "Python peak", "goals"))
    for item in args.only or ITEMS:
        label, goal = ITEMS[item]
        out = subprocess.run(
            [sys.executable, __file__, "--child", item, "--ids", json.dumps(ids), "--workdir", workdir],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if out.returncode:
            print(f"{label}: failed\n{out.stderr}")
            continue
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        runs = " ".join(f"{t:.2f}" for t in figures["times"])
        verdicts = [f"< 300 MB {'met' if figures['rss_peak'] < 300e6 else 'MISSED'}"]
        if goal is not None:
            verdicts.insert(0, f"< {goal:.0f} s {'met' if figures['median'] < goal else 'MISSED'}")
        verdict = ", ".join(verdicts)
        print(
            row.format(
                f"{figures['what']}: {label}",
                f"{figures['median']:.2f} s",
                runs,
                figures["pages"],
                f"{figures['bytes'] / 1e6:.1f} MB",
                f"{figures['rss_peak'] / 1e6:.0f} MB",
                f"{figures['python_peak'] / 1e6:.0f} MB",
                verdict,
            )
        )


if __name__ == "__main__":
    main()
