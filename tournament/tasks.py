"""Celery tasks: thin wrappers that take ids and a token and call the game's life or a service.

Harmless late or run twice. Sent by name through `tournament.dispatch`, under the names it gives them.
"""

from __future__ import annotations

import smtplib

from celery import shared_task
from celery.signals import worker_ready
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from . import backup, dispatch, game, selectors, services
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


@shared_task(name=dispatch.MAIL_RESULTS, bind=True, acks_late=True, max_retries=6, default_retry_delay=300)
def mail_results(self, night_id: int, base_url: str) -> int:
    """E-mail each player of the night who gave an address at sign-up their results link, once: each is claimed
    (`results_mail_claim`) before their message goes, so a second run or a second press skips them; one the mail
    server refused is released and tried again by the retry, five minutes later."""
    night = selectors.night_for_mail(night_id)
    if night is None:
        return 0
    sent = failed = 0
    for one in selectors.mail_recipients(night_id):
        claimed = services.results_mail_claim(entry_id=one.entry_id)
        if claimed is None:
            continue
        link = base_url.rstrip("/") + reverse("tournament:results_night", args=[one.token, night_id])
        context = {"name": one.name, "night": night, "link": link}
        try:
            send_mail(
                render_to_string("tournament/results_mail_subject.txt", context).strip(),
                render_to_string("tournament/results_mail.txt", context),
                None,
                [one.address],
            )
        except (OSError, smtplib.SMTPException):
            services.results_mail_release(entry_id=one.entry_id, claimed_at=claimed)
            failed += 1
        else:
            sent += 1
    if failed:
        raise self.retry()
    return sent


@shared_task(name=dispatch.PUBLISH_NIGHT, bind=True, acks_late=True, max_retries=None)
def publish_night(self, night_id: int) -> str:
    """Send the night as it is now to the club's site; tried again, later and later, until the site answers (a
    refusal is an answer: the night page shows it)."""
    tried = backup.night_publish_send(night_id=night_id, tries=self.request.retries)
    if tried.again:
        raise self.retry(countdown=backup.retry_after(self.request.retries))
    return tried.words
