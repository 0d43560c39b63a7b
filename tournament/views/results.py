"""A keeper enters one table's game score from the night page."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST

from tournament.forms import apply_errors
from tournament.models import Round
from tournament.permissions import organizer_required
from tournament.selectors import round_view
from tournament.views.context import night_context, round_context, score_form

from .. import game

TEMPLATE = "tournament/night_detail.html"


@organizer_required
@require_POST
def table_score(request, night_id: int, number: int, table: int):
    round_ = get_object_or_404(Round.objects.select_related("night"), night_id=night_id, number=number)
    view = next((t for t in round_view(round_).tables if t.number == table), None)
    if view is None:
        return HttpResponse(status=404)
    form = score_form(view, data=request.POST)
    saved = False
    if form.is_valid():
        try:
            game.table_result_submit(round_=round_, table=table, totals=form.totals(), user=request.user)
            saved = True
        except ValidationError as error:
            apply_errors(form, error)
    if not request.htmx and saved:
        return redirect(round_.night)
    if not request.htmx:  # refused: the whole page again, this table's form as typed with the refusal in it
        round_.night.refresh_from_db()
        context = night_context(round_.night)
        context["table_forms"] = [(t, form if t.number == table else f) for t, f in context["table_forms"]]
        context["score_refused"] = True
        return TemplateResponse(request, TEMPLATE, context)
    context = round_context(round_.night)
    view = next((t for t in round_view(round_).tables if t.number == table), None)
    if view is None:
        return HttpResponse(status=404)
    if saved:  # show the stored result, with the version the next correction must quote
        form = next(f for t, f in context["table_forms"] if t.number == table)
    card = render_to_string(
        f"{TEMPLATE}#table_card", {**context, "table": view, "form": form, "saved": saved}, request=request
    )
    bar = render_to_string(f"{TEMPLATE}#round_bar", {**context, "oob": True}, request=request)
    return HttpResponse(card + bar)
