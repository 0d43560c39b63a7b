"""Celery tasks: thin wrappers that take ids and a token and call a service. Harmless late or run twice."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from . import bell


@shared_task(acks_late=True)
def ring_bell(round_id: int, token: int) -> bool:
    return bell.bell_due(round_id=round_id, token=token)


@shared_task(acks_late=True)
def start_round(round_id: int, token: int) -> bool:
    return bell.start_due(round_id=round_id, token=token)


@shared_task
def tick() -> dict[str, int]:
    return bell.rounds_tick()


@worker_ready.connect
def catch_up(**kwargs) -> None:
    """A worker that was down rings what fell due meanwhile, before waiting for beat."""
    bell.rounds_tick()


@shared_task(acks_late=True)
def build_print_job(job_id: int) -> int:
    from .printing import print_job_run

    return print_job_run(job_id=job_id).pk
