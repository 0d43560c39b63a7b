"""The club's public results (its short address: /public/c/<slug>/) and the organizer's switch that puts a night
on them or takes it off."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..models import Night
from ..permissions import organizer_required


def club_results(request, slug: str):
    """Anyone's: the club's name, the nights its organizers chose to show with their prizes and a way to each
    night's standings, and the seasons those nights count in. Printable as it is."""
    if slug != slug.lower():  # short addresses are made lower-case: one typed or printed in capitals finds its club
        return redirect("tournament:club_results", slug.lower(), permanent=True)
    club = selectors.club_by_slug(slug)
    if club is None:
        raise Http404("There is no club at this address: check the link you were given.")
    year = request.GET.get("year", "")
    results = selectors.club_results(club, int(year) if year.isdecimal() and len(year) == 4 else None)
    context = {"results": results, "club": club}
    return TemplateResponse(request, "tournament/club_results.html", context)


@organizer_required
@require_POST
def night_results_public(request, night_id: int):
    """The night page's "Show on the club's public results" (and "Take it off"): a finished night may be switched
    too, since it changes nothing of its results."""
    night = get_object_or_404(Night, pk=night_id)
    public = request.POST.get("public") == "1"
    services.night_results_public_set(night=night, public=public)
    if public:
        messages.success(request, "The night is shown on the club's public results.")
    else:
        messages.success(request, "The night is no longer on the club's public results.")
    return redirect(night.get_absolute_url() + "#club-results")
