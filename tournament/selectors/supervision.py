"""What the venue's run command did to keep the night up: the processes it had to start again (headtable.py)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

# The run command's file in var/ (headtable.RESTARTS): one line a restart, "time<TAB>what<TAB>exit code".
RESTARTS = "restarts.log"
NAMES = {"web server": "The web server", "worker": "The worker (the bell and the printing)"}


@dataclass(frozen=True)
class Restart:
    at: dt.datetime
    what: str
    code: str


def recent_restarts(hours: int = 3) -> list[Restart]:
    """The processes started again in the last `hours`, the latest first (none hosted: no run command)."""
    try:
        lines = (settings.VAR_DIR / RESTARTS).read_text(encoding="utf-8").splitlines()[-200:]
    except OSError:
        return []
    since = timezone.now() - dt.timedelta(hours=hours)
    found = []
    for line in lines:
        at, _, rest = line.partition("\t")
        what, _, code = rest.partition("\t")
        try:
            moment = dt.datetime.fromisoformat(at)
        except ValueError:
            continue  # a line cut short by a power cut
        if moment.tzinfo is not None and moment >= since and what:
            found.append(Restart(at=moment, what=NAMES.get(what, what), code=code))
    return found[::-1]
