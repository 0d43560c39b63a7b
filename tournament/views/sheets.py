"""Downloads: every printed sheet and every CSV through one view (the registry in tournament.sheets.printing),
and the backup."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify

from .. import backup
from ..addresses import phone_address
from ..models import Night, PrintJob
from ..permissions import organizer_of, organizer_required
from ..sheets import printing
from ..sheets.printing import Audience


def _file(content: bytes, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def download(request, key: str, **address) -> HttpResponse:
    """Any sheet or CSV of the registry, by its key (the address gives it, with the night's or the season's id).
    Who may have it is its entry's audience, checked here and nowhere else."""
    return _SERVE[printing.sheet_of(key).audience](request, key, **address)


def _serve(request, key: str, *, night_id: int | None = None, season_id: int | None = None) -> HttpResponse:
    """A download built now; a big batch of a sheet is the worker's: the GET offers it, and its POST queues it and
    shows its progress (a GET never writes)."""
    sheet = printing.sheet_of(key)
    subject = get_object_or_404(sheet.subject, pk=season_id if sheet.subject is not Night else night_id)
    options = sheet.query(request.GET)
    if sheet.hides_unlisted:
        club_id = subject.owner_id if sheet.subject is not Night else subject.club_id
        options["public"] = not organizer_of(request, club_id)
    if sheet.kind == printing.PDF:
        options["link_url"] = _link_url(request)
        options["phone_url"] = phone_address(request).of
        count = printing.batch_size(subject, key, **options)
        if count > printing.BATCH_THRESHOLD:
            if request.method != "POST":
                context = {"night": subject, "sheet": sheet, "count": count}
                return TemplateResponse(request, "tournament/print_start.html", context)
            options.pop("link_url")
            options.pop("phone_url")
            job = printing.print_job_start(night=subject, sheet=key, base_url=phone_address(request).url, **options)
            return redirect("tournament:print_job", subject.pk, job.pk)
    content = printing.sheet_bytes(subject, key, **options)
    return _file(content, printing.download_name(subject, sheet, printing.Options(**options)), sheet.content_type)


# Each audience's gate, in front of the same view.
_SERVE = {Audience.PUBLIC: _serve, Audience.ORGANIZER: organizer_required(_serve)}


def _link_url(request):
    """Table links as phones open them (never the laptop's own 127.0.0.1, see tournament.addresses)."""
    phones = phone_address(request)
    return lambda token: phones.of(reverse("scoring:table_link", args=[token]))


@organizer_required
def print_job(request, night_id: int, job_id: int):
    """A big batch's progress (the page polls itself) and, when it is ready, the file."""
    job = get_object_or_404(PrintJob.objects.select_related("night"), pk=job_id, night_id=night_id)
    sheet = printing.job_sheet(job)
    if request.GET.get("download") and job.status == PrintJob.Status.DONE:
        with job.file.open("rb") as handle:
            name = printing.download_name(job.night, sheet, printing.Options(**job.params))
            return _file(handle.read(), name, sheet.content_type)
    template = "tournament/print_job.html"
    context = {"job": job, "sheet": sheet}
    return TemplateResponse(request, f"{template}#progress" if request.htmx else template, context)


@organizer_required
def night_backup(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    name = f"{slugify(night.name) or 'night'}-{night.date:%Y-%m-%d}-backup.json"
    return _file(backup.night_backup_bytes(night), name, "application/json")
