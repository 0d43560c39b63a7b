"""Tasks sent by name once the transaction commits, so no service or game module imports the tasks module.

The names are the tasks' own (`tournament.tasks` registers each under these); a change that rolls back sends
nothing.
"""

from __future__ import annotations

import datetime as dt

from celery import current_app
from django.db import transaction

RING_BELL = "tournament.tasks.ring_bell"
START_ROUND = "tournament.tasks.start_round"
TICK = "tournament.tasks.tick"
BUILD_PRINT_JOB = "tournament.tasks.build_print_job"
REVIVE_PRINT_JOBS = "tournament.tasks.revive_print_jobs"
MAIL_RESULTS = "tournament.tasks.mail_results"
PUBLISH_NIGHT = "tournament.tasks.publish_night"


def _task(name: str):
    app = current_app
    if name not in app.tasks:
        app.loader.import_default_modules()  # Celery's autodiscovery: each app's tasks module registers its tasks
    return app.tasks[name]


def send_on_commit(name: str, *args: int | str, eta: dt.datetime | None = None) -> None:
    """Send the task called `name` with `args` (ids and tokens) after the commit, at `eta` if given."""
    transaction.on_commit(lambda: _task(name).apply_async(args=args, eta=eta))
