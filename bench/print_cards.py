"""How long the tally cards for a big night take to build: 500 players, 10 games played, 2 and 4 a page.

Run from the project root:  .venv/bin/python bench/print_cards.py [--players 500]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    workdir = tempfile.mkdtemp()
    os.environ["HEADTABLE_VAR_DIR"] = workdir
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/print.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.management.commands.simulate_night import simulate
    from tournament.printing import tally_cards_bytes

    call_command("migrate", verbosity=0)
    night = simulate(players=args.players, rounds=10, seed=1, entry="games")
    for per_page in (2, 4):
        started = time.perf_counter()
        content = tally_cards_bytes(night, per_page=per_page, blank=0)
        seconds = time.perf_counter() - started
        print(f"{args.players} tally cards, {per_page} a page: {seconds:.1f} s, {len(content) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
