"""A rotation night's chart: build it before the doors open, give out numbers, print the cards and the wall chart."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST

from .. import charts, services
from ..forms import ChartForm, NumberForm, apply_errors
from ..models import Night
from ..permissions import organizer_required


def _page(request, night: Night, *, chart_form=None, number_form=None):
    entries = night.entries.filter(player__house=False).select_related("player").order_by("player__name_key")
    chart = charts.night_chart(night)
    holders = charts.holders(night)
    context = {
        "night": night,
        "chart": chart,
        "fairness": charts.fairness(night),
        "mismatch": charts.fill_mismatch(night),
        "sit_outs": bool(chart) and any(game.sit_out for game in chart.rounds),
        "numbers": [(n, holders.get(n, "")) for n in range(1, chart.players + 1)] if chart else [],
        "chart_form": chart_form
        or ChartForm(initial={"players": night.chart_size or max(entries.filter(checked_in=True).count(), 4)}),
        "number_form": number_form or NumberForm(entries=entries),
    }
    return TemplateResponse(request, "tournament/chart.html", context)


@organizer_required
def chart_page(request, night_id: int):
    return _page(request, get_object_or_404(Night, pk=night_id))


@organizer_required
@require_POST
def chart_build(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = ChartForm(request.POST)
    if form.is_valid():
        try:
            services.night_chart_build(night=night, players=form.cleaned_data["players"])
        except ValidationError as error:
            apply_errors(form, error, aliases={"chart_size": "players"})
        else:
            return redirect("tournament:chart", night.pk)
    return _page(request, night, chart_form=form)


@organizer_required
@require_POST
def chart_number(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = NumberForm(request.POST, entries=night.entries.filter(player__house=False).select_related("player"))
    if form.is_valid():
        try:
            services.entry_set_number(entry=form.cleaned_data["entry"], number=form.cleaned_data["number"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("tournament:chart", night.pk)
    return _page(request, night, number_form=form)
