"""Downloads: the printed sheets (built in tournament.sheets.printing), the CSV exports and the night's backup."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify

from tournament import exports

from .. import backup, selectors
from ..models import Night, PrintJob
from ..permissions import organizer_required
from ..sheets import printing


def _pdf(content: bytes, night: Night, what: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(night.name) or 'night'}-{night.date:%Y-%m-%d}-{what}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def standings_pdf(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _pdf(printing.standings_bytes(night), night, "standings")


@organizer_required
def tally_cards_pdf(request, night_id: int):
    """Tally cards, ?per_page=1, 2 (the default) or 4; ?blank=N for N blank cards to write names on.

    A big batch is handed to the worker and the page shows its progress.
    """
    night = get_object_or_404(Night, pk=night_id)
    per_page = int(request.GET["per_page"]) if request.GET.get("per_page") in {"1", "2", "4"} else 2
    blank = min(int(request.GET["blank"]), 600) if request.GET.get("blank", "").isdigit() else 0
    count = blank or night.entries.filter(player__house=False).count()
    if count > printing.BATCH_THRESHOLD:
        job = printing.print_job_start(night=night, per_page=per_page, blank=blank)
        return redirect("tournament:print_job", night.pk, job.pk)
    content = printing.tally_cards_bytes(night, per_page=per_page, blank=blank)
    return _pdf(content, night, "blank-tally-cards" if blank else "tally-cards")


@organizer_required
def print_job(request, night_id: int, job_id: int):
    """A big batch's progress (the page polls itself) and, when it is ready, the file."""
    job = get_object_or_404(PrintJob.objects.select_related("night"), pk=job_id, night_id=night_id)
    if request.GET.get("download") and job.status == PrintJob.Status.DONE:
        with job.file.open("rb") as handle:
            return _pdf(handle.read(), job.night, "tally-cards")
    template = "tournament/print_job.html"
    return TemplateResponse(request, f"{template}#progress" if request.htmx else template, {"job": job})


def _link_url(request):
    return lambda token: request.build_absolute_uri(reverse("scoring:table_link", args=[token]))


@organizer_required
def table_cards_pdf(request, night_id: int):
    """A card for each table with its number, head or tail, and the QR code of its scoring link."""
    night = get_object_or_404(Night, pk=night_id)
    return _pdf(printing.table_cards_bytes(night, _link_url(request)), night, "table-cards")


def seating_pdf(request, night_id: int):
    """The wall sheet for the latest seated game (public: it is what the room already sees)."""
    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    what = f"seating-game-{current.number}" if current else "seating"
    return _pdf(printing.seating_bytes(night), night, what)


def _download(content: bytes, night: Night, what: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(night.name) or "night"}-{night.date:%Y-%m-%d}-{what}"'
    )
    return response


def standings_csv(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(exports.standings_csv(night).encode("utf-8-sig"), night, "standings.csv", "text/csv")


@organizer_required
def hands_csv(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(exports.hands_csv(night).encode("utf-8-sig"), night, "hands.csv", "text/csv")


@organizer_required
def night_backup(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(backup.night_backup_bytes(night), night, "backup.json", "application/json")


@organizer_required
def score_sheets_pdf(request, night_id: int):
    """A score sheet for each table of the current game, with the table's QR code for phone entry."""
    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    game = current.number if current else 0
    return _pdf(printing.score_sheets_bytes(night, _link_url(request)), night, f"score-sheets-game-{game}")
