"""Two people, one table, same second: run by tests/scoring/test_concurrency.py in its own process.

Against a real database file (or DATABASE_URL), threads submit at the same moment through the same service the
pages call; the script prints one JSON line with what happened. Not collected by pytest on its own.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.exceptions import ValidationError  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from scoring.models import Submission, TableResult  # noqa: E402
from tournament import game, services  # noqa: E402
from tournament.game import table_result_submit  # noqa: E402


def main(rounds: int) -> None:
    call_command("migrate", verbosity=0)
    night = services.night_create(name="Race", games=1, auto_advance=False)
    services.players_register(night=night, names=[f"Racer {n}" for n in range(1, 9)])
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    # Table 2, not the head table: it may stop at the bell after a hand, so every score below is one it could make.
    table_result_submit(round_=round_, table=2, ns_points=1, ew_points=0)
    report = {"rounds": rounds, "both_stored": 0, "none_stored": 0, "lost": 0, "double_post_stored": 0}

    def attempt(barrier, outcomes, index, version, score, key):
        try:
            barrier.wait()
            table_result_submit(
                round_=round_, table=2, ns_points=score[0], ew_points=score[1], expected_version=version, key=key
            )
            outcomes[index] = ("stored", score)
        except ValidationError as error:
            outcomes[index] = ("refused", " ".join(error.messages))
        finally:
            connection.close()

    for n in range(rounds):
        version = TableResult.objects.get(round=round_, table=2).version
        double = n % 4 == 3  # every fourth round is one form posted twice at once
        scores = [((n % 9) + 3, 2), ((n % 9) + 3, 2) if double else (2, (n % 9) + 3)]
        keys = [f"k{n}", f"k{n}" if double else f"k{n}b"]
        barrier = threading.Barrier(2)
        outcomes: list = [None, None]
        threads = [
            threading.Thread(target=attempt, args=(barrier, outcomes, i, version, scores[i], keys[i])) for i in (0, 1)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stored = [o for o in outcomes if o[0] == "stored"]
        result = TableResult.objects.get(round=round_, table=2)
        if double:
            report["double_post_stored"] += Submission.objects.filter(key=keys[0]).count()
            if result.version != version + 1:
                report["lost"] += 1
            continue
        if len(stored) != 1:
            print("ROUND", n, outcomes, file=sys.stderr)
        if len(stored) == 2:
            report["both_stored"] += 1
        elif not stored:
            report["none_stored"] += 1
        elif (result.ns_points, result.ew_points) != stored[0][1] or result.version != version + 1:
            report["lost"] += 1
    report["submissions"] = Submission.objects.filter(round=round_, table=2).count()
    print(json.dumps(report))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
