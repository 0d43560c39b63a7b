"""The round's clock and its bell: services, each one transaction.

A round lives seated -> playing -> bell -> closed. The bell rings once, for the first of: the head table's last
hand, the timer, the organizer's button. The database holds the truth about time (`Round.ends_at`); Celery
tasks sent for that moment carry the round's `token`, which changes whenever the end moves, so a stale task does
nothing and a task run twice rings once. `rounds_tick` (run by Celery beat and when a worker starts) rings any
bell that is due, so a worker that was down catches up.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .models import Night, Round, RoundEvent


def _lock(round_: Round | int) -> Round:
    pk = round_ if isinstance(round_, int) else round_.pk
    return Round.objects.select_for_update().select_related("night").get(pk=pk)


def log(round_: Round, action: str, cause: str, by=None) -> None:
    """Store a change of the round's state with its time and cause, and tell the room."""
    RoundEvent.objects.create(
        round=round_,
        action=action,
        status=round_.status,
        cause=cause,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    Night.touch(round_.night_id, moved=True)


def _send(task_name: str, round_: Round, when: dt.datetime) -> None:
    """Send the task for `when` once the transaction has committed (never for a change that rolled back)."""
    from . import tasks  # the tasks module imports the services

    task = getattr(tasks, task_name)
    args = (round_.pk, round_.token)
    transaction.on_commit(lambda: task.apply_async(args=args, eta=when))


def _move_end(round_: Round, ends_at: dt.datetime | None) -> None:
    round_.ends_at = ends_at
    round_.token += 1
    if ends_at is not None:
        _send("ring_bell", round_, ends_at)


def start(round_: Round, *, cause: str, by=None) -> Round:
    """Start a seated round (the caller holds the lock): the timer runs from now when the night has one."""
    night = round_.night
    if round_.status != Round.Status.SEATED:
        raise ValidationError({"round": f"Game {round_.number} has already started."})
    earlier = night.rounds.filter(number__lt=round_.number).exclude(status=Round.Status.CLOSED)
    if earlier.exists():
        raise ValidationError({"round": f"Game {earlier.first().number} is still open: close it first."})
    now = timezone.now()
    round_.status = Round.Status.PLAYING
    round_.started_at = now
    round_.starts_at = None
    _move_end(round_, now + dt.timedelta(minutes=night.minutes_per_game) if night.minutes_per_game else None)
    round_.save(update_fields=["status", "started_at", "starts_at", "ends_at", "token"])
    log(round_, "start", cause, by)
    return round_


def plan_start(round_: Round, *, at: dt.datetime, cause: str) -> None:
    """Start a seated round later (after a break)."""
    round_.starts_at = at
    round_.token += 1
    round_.save(update_fields=["starts_at", "token"])
    _send("start_round", round_, at)
    log(round_, "break", cause)


def ring(round_: Round, *, cause: str, by=None, at: dt.datetime | None = None, advance: bool = True) -> bool:
    """Ring the bell if it has not rung (the caller holds the lock). Returns whether it rang now.

    With `advance`, a night that runs by itself closes the game at once if every table is already in.
    """
    if round_.status != Round.Status.PLAYING:
        return False
    round_.status = Round.Status.BELL
    round_.bell_at = at or timezone.now()
    round_.bell_cause = cause
    round_.paused_left = None
    round_.token += 1  # any timer task still on its way is now stale
    round_.save(update_fields=["status", "bell_at", "bell_cause", "paused_left", "token"])
    log(round_, "bell", cause, by)
    if advance:
        advance_if_all_in(round_)
    return True


def unring(round_: Round, *, cause: str) -> None:
    """Take the bell back (the head table undid its last hand before anyone else finished)."""
    round_.status = Round.Status.PLAYING
    round_.bell_at, round_.bell_cause = None, ""
    now = timezone.now()
    _move_end(round_, round_.ends_at if round_.ends_at and round_.ends_at > now else None)
    round_.save(update_fields=["status", "bell_at", "bell_cause", "ends_at", "token"])
    log(round_, "unbell", cause)


def advance_if_all_in(round_: Round) -> None:
    """After the bell, once every table is in, a night that runs by itself closes the game and moves on."""
    from scoring.models import TableResult

    from .services import close_round

    if round_.status != Round.Status.BELL or not round_.night.auto_advance:
        return
    tables = set(round_.seatings.values_list("table", flat=True))
    final = set(
        TableResult.objects.filter(round=round_, status=TableResult.Status.FINAL).values_list("table", flat=True)
    )
    if tables <= final:
        close_round(round_, cause="every table is in after the bell")


# ---- the organizer's buttons --------------------------------------------------------------------------------------


@transaction.atomic
def round_ring_bell(*, round_: Round, by=None) -> Round:
    round_ = _lock(round_)
    if round_.status == Round.Status.BELL:
        raise ValidationError({"round": f"The bell has already rung for game {round_.number}."})
    if round_.status != Round.Status.PLAYING:
        raise ValidationError({"round": f"Game {round_.number} is not being played."})
    ring(round_, cause="the organizer's button", by=by)
    return round_


@transaction.atomic
def round_pause(*, round_: Round, by=None) -> Round:
    round_ = _lock(round_)
    if round_.status != Round.Status.PLAYING or round_.ends_at is None:
        raise ValidationError({"round": "Only a running timer can be paused."})
    round_.paused_left = max(round_.ends_at - timezone.now(), dt.timedelta(0))
    _move_end(round_, None)
    round_.save(update_fields=["paused_left", "ends_at", "token"])
    log(round_, "pause", "the organizer paused the timer", by)
    return round_


@transaction.atomic
def round_resume(*, round_: Round, by=None) -> Round:
    round_ = _lock(round_)
    if round_.status != Round.Status.PLAYING or round_.paused_left is None:
        raise ValidationError({"round": "The timer is not paused."})
    _move_end(round_, timezone.now() + round_.paused_left)
    round_.paused_left = None
    round_.save(update_fields=["paused_left", "ends_at", "token"])
    log(round_, "resume", "the organizer resumed the timer", by)
    return round_


@transaction.atomic
def round_extend(*, round_: Round, minutes: int, by=None) -> Round:
    """Add minutes to the game (or start a timer on an untimed game)."""
    round_ = _lock(round_)
    if round_.status != Round.Status.PLAYING:
        raise ValidationError({"round": f"Game {round_.number} is not being played."})
    if not 1 <= minutes <= 120:
        raise ValidationError({"minutes": "Add between 1 and 120 minutes."})
    extra = dt.timedelta(minutes=minutes)
    if round_.paused_left is not None:
        round_.paused_left += extra
        round_.save(update_fields=["paused_left"])
    else:
        base = round_.ends_at or timezone.now()
        _move_end(round_, base + extra)
        round_.save(update_fields=["ends_at", "token"])
    log(round_, "extend", f"the organizer added {minutes} minute{'s' if minutes > 1 else ''}", by)
    return round_


# ---- what the tasks call -------------------------------------------------------------------------------------------


@transaction.atomic
def bell_due(*, round_id: int, token: int) -> bool:
    """The timer's task: ring if this is still the round's end and it has come. Harmless late or twice."""
    round_ = _lock(round_id)
    if round_.token != token or round_.status != Round.Status.PLAYING:
        return False
    if round_.ends_at is None or round_.ends_at > timezone.now():
        return False
    return ring(round_, cause="the timer", at=round_.ends_at)


@transaction.atomic
def start_due(*, round_id: int, token: int) -> bool:
    """The break's task: start the next game when the break is over."""
    round_ = _lock(round_id)
    if round_.token != token or round_.status != Round.Status.SEATED:
        return False
    if round_.starts_at is None or round_.starts_at > timezone.now():
        return False
    start(round_, cause="the break is over")
    return True


def rounds_tick() -> dict[str, int]:
    """Ring every bell and start every game that is due, from what the database says (beat, worker start)."""
    now = timezone.now()
    rung = started = 0
    for round_id, token in Round.objects.filter(status=Round.Status.PLAYING, ends_at__lte=now).values_list(
        "pk", "token"
    ):
        rung += bell_due(round_id=round_id, token=token)
    for round_id, token in Round.objects.filter(status=Round.Status.SEATED, starts_at__lte=now).values_list(
        "pk", "token"
    ):
        started += start_due(round_id=round_id, token=token)
    return {"rung": rung, "started": started}
