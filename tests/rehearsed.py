"""A rehearsed night for a fixture: played once per test process, then restored from its backup.

Many tests of one file start from the same finished night (`tournament.rehearsal.simulate` with the same plan), and
playing it hand by hand through the services is most of their set-up. The first test of a process that asks for a
plan plays it and keeps the night's backup; every later one gets the night restored from those bytes, which the
backup's own tests (`tests/tournament/test_backup_meaning.py`, `test_backup_stored.py`) prove is the same night on
every page, its standings, money and sheets included, at a quarter of the cost.
"""

from __future__ import annotations

from typing import Any

from tournament import backup
from tournament.models import Night
from tournament.rehearsal import simulate

_KEPT: dict[str, bytes] = {}


def rehearsed(**plan: Any) -> Night:
    """`simulate(**plan)`, or the night it played restored (a new night with the same records, into the plan's
    club) when this process has played that plan before. A plan with a step after each game is always played."""
    if plan.get("after_game") is not None:
        return simulate(**plan)
    club = plan.get("club")
    key = repr(sorted((name, value) for name, value in plan.items() if name != "club"))
    kept = _KEPT.get(key)
    if kept is None:
        night = simulate(**plan)
        _KEPT[key] = backup.night_backup_bytes(night)
        return night
    return backup.night_restore(raw=kept, club=club)
