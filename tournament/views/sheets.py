"""Downloads: the printed sheets (the registry in tournament.sheets.printing), the CSV exports and the backup."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify

from tournament import exports

from .. import backup
from ..addresses import phone_address
from ..models import Night, PrintJob
from ..permissions import organizer_required
from ..sheets import printing


def _pdf(content: bytes, night: Night, what: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(night.name) or 'night'}-{night.date:%Y-%m-%d}-{what}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _sheet(request, night: Night, key: str, **options) -> HttpResponse:
    """Any sheet of the registry as a download. A big batch is the worker's: the GET offers it, and its POST queues
    it and shows its progress (a GET never writes)."""
    options.setdefault("link_url", _link_url(request))
    options.setdefault("phone_url", phone_address(request).of)
    count = printing.batch_size(night, key, **options)
    if count > printing.BATCH_THRESHOLD:
        if request.method != "POST":
            context = {"night": night, "sheet": printing.sheet_of(key), "count": count}
            return TemplateResponse(request, "tournament/print_start.html", context)
        options.pop("link_url")
        options.pop("phone_url")
        job = printing.print_job_start(night=night, sheet=key, base_url=phone_address(request).url, **options)
        return redirect("tournament:print_job", night.pk, job.pk)
    content = printing.sheet_bytes(night, key, **options)
    return _pdf(content, night, printing.sheet_of(key).file_name(night, printing.Options(**options)))


def _link_url(request):
    """Table links as phones open them (never the laptop's own 127.0.0.1, see tournament.addresses)."""
    phones = phone_address(request)
    return lambda token: phones.of(reverse("scoring:table_link", args=[token]))


def standings_pdf(request, night_id: int):
    """The standings sheet (public: the public page links to it); anyone but an organizer gets the players who asked
    to be left off public lists as "A player"."""
    return _sheet(request, get_object_or_404(Night, pk=night_id), "standings", public=not request.user.is_staff)


@organizer_required
def prize_sheet_pdf(request, night_id: int):
    return _sheet(request, get_object_or_404(Night, pk=night_id), "prizes")


@organizer_required
def reconciliation_pdf(request, night_id: int):
    return _sheet(request, get_object_or_404(Night, pk=night_id), "reconciliation")


@organizer_required
def tally_cards_pdf(request, night_id: int):
    """Tally cards, ?per_page=1, 2 (the default) or 4; ?blank=N for N blank cards to write names on."""
    night = get_object_or_404(Night, pk=night_id)
    per_page = int(request.GET["per_page"]) if request.GET.get("per_page") in {"1", "2", "4"} else 2
    blank = min(int(request.GET["blank"]), 600) if request.GET.get("blank", "").isdecimal() else 0
    return _sheet(request, night, "tally-cards", per_page=per_page, blank=blank)


@organizer_required
def print_job(request, night_id: int, job_id: int):
    """A big batch's progress (the page polls itself) and, when it is ready, the file."""
    job = get_object_or_404(PrintJob.objects.select_related("night"), pk=job_id, night_id=night_id)
    sheet = printing.job_sheet(job)
    if request.GET.get("download") and job.status == PrintJob.Status.DONE:
        with job.file.open("rb") as handle:
            options = printing.Options(**job.params)
            return _pdf(handle.read(), job.night, sheet.file_name(job.night, options))
    template = "tournament/print_job.html"
    context = {"job": job, "sheet": sheet}
    return TemplateResponse(request, f"{template}#progress" if request.htmx else template, context)


@organizer_required
def table_cards_pdf(request, night_id: int):
    """A card for each table with its number, head or tail, and the QR code of its scoring link."""
    return _sheet(request, get_object_or_404(Night, pk=night_id), "table-cards")


def seating_pdf(request, night_id: int):
    """The wall sheet for the latest seated game (public: it is what the room already sees)."""
    return _sheet(request, get_object_or_404(Night, pk=night_id), "seating")


def _download(content: bytes, night: Night, what: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(night.name) or "night"}-{night.date:%Y-%m-%d}-{what}"'
    )
    return response


def standings_csv(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    content = exports.standings_csv(night, public=not request.user.is_staff)
    return _download(content.encode("utf-8-sig"), night, "standings.csv", "text/csv")


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
    return _sheet(request, get_object_or_404(Night, pk=night_id), "score-sheets")
