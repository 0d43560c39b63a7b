"""Celery tasks: thin wrappers that take ids and a token and call the game's life or a service.

Harmless late or run twice. Sent by name through `tournament.dispatch`, under the names it gives them.
"""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from . import dispatch, game
from .sheets import printing


@shared_task(name=dispatch.RING_BELL, acks_late=True)
def ring_bell(round_id: int, token: int) -> bool:
    return game.bell_due(round_id=round_id, token=token)


@shared_task(name=dispatch.START_ROUND, acks_late=True)
def start_round(round_id: int, token: int) -> bool:
    return game.start_due(round_id=round_id, token=token)


@shared_task(name=dispatch.TICK)
def tick() -> dict[str, int]:
    return game.rounds_tick()


@shared_task(name=dispatch.REVIVE_PRINT_JOBS)
def revive_print_jobs() -> int:
    return printing.print_jobs_revive()


@worker_ready.connect
def catch_up(**kwargs) -> None:
    """A worker that was down rings what fell due meanwhile, before waiting for beat, and takes up the print jobs
    a dead worker left."""
    game.rounds_tick()
    printing.print_jobs_revive()


@shared_task(name=dispatch.BUILD_PRINT_JOB, acks_late=True)
def build_print_job(job_id: int) -> int:
    job = printing.print_job_run(job_id=job_id)
    return job.pk if job is not None else 0
