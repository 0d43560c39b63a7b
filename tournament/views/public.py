"""Read-only pages anyone in the room may open: where to sit and the standings."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse

from scoring.selectors import night_standings

from .. import selectors
from ..models import Night


def public_night(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    context = {
        "night": night,
        "round": current,
        "round_view": selectors.round_view(current) if current else None,
        "finder": selectors.seat_finder(current) if current else [],
        "standings": night_standings(night),
    }
    template = "tournament/public_night.html"
    return TemplateResponse(request, f"{template}#public_body" if request.htmx else template, context)
