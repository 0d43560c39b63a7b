"""Big print batches: made by a Celery task with progress the page can show. Small batches come straight back.

Services: `print_job_start` (the view's side: one transaction, the task sent on commit) and `print_job_run`
(the task's side: builds the file, saving progress as it goes, harmless if run twice).
"""

from __future__ import annotations

from django.core.files.base import ContentFile
from django.db import transaction

from scoring import pdf
from scoring.selectors import game_lines

from . import selectors
from .models import Night, PrintJob

# More cards than this are built by the worker, with a progress bar; fewer come straight back.
BATCH_THRESHOLD = 300


def header(night: Night) -> pdf.SheetHeader:
    return pdf.SheetHeader(
        night=night.name,
        date=f"{night.date:%A} {night.date.day} {night.date:%B %Y}",
        venue=night.venue,
        paper=night.paper,
    )


def tally_cards(night: Night, *, per_page: int, blank: int) -> list[pdf.TallyCard]:
    if blank:
        return [pdf.TallyCard("", [], number) for number in range(1, blank + 1)]
    lines = game_lines(night)
    return [
        pdf.TallyCard(entry.player.name, lines.get(entry.player_id, []), entry.player_id)
        for entry in selectors.night_entries(night)
    ]


def tally_cards_bytes(night: Night, *, per_page: int, blank: int, progress=None) -> bytes:
    cards = tally_cards(night, per_page=per_page, blank=blank)
    return pdf.tally_cards_pdf(header(night), cards, night.games, per_page=per_page, progress=progress)


@transaction.atomic
def print_job_start(*, night: Night, per_page: int, blank: int) -> PrintJob:
    from . import tasks

    job = PrintJob.objects.create(night=night, kind="tally_cards", params={"per_page": per_page, "blank": blank})
    transaction.on_commit(lambda: tasks.build_print_job.delay(job.pk))
    return job


def print_job_run(*, job_id: int) -> PrintJob:
    job = PrintJob.objects.select_related("night").get(pk=job_id)
    if job.status in (PrintJob.Status.DONE, PrintJob.Status.RUNNING):
        return job  # a task delivered twice builds once
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING)

    def progress(done: int, total: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(done=done, total=total)

    try:
        content = tally_cards_bytes(job.night, progress=progress, **job.params)
    except Exception as error:
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=str(error)[:300])
        raise
    job.refresh_from_db()
    job.file.save(f"tally-cards-{job.night_id}-{job.pk}.pdf", ContentFile(content), save=False)
    job.status = PrintJob.Status.DONE
    job.done = job.total
    job.save(update_fields=["file", "status", "done"])
    return job
