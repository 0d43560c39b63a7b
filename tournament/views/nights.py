"""The organizer's list of nights, a new night, and a night's page."""

from __future__ import annotations

from dataclasses import asdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from .. import backup, charts, game, selectors, services
from ..addresses import phone_address
from ..forms import KeeperForm, NightDeleteForm, NightForm, RestoreForm, apply_errors
from ..models import Night
from ..permissions import organizer_required, request_club
from .context import night_context


@login_required
def night_list(request):
    """Organizers see every night; a score keeper sees the nights they keep, with the way to the desk."""
    context = {"nights": selectors.nights_for(request.user), "club": selectors.club_of(request.user)}
    return TemplateResponse(request, "tournament/night_list.html", context)


@organizer_required
def night_create(request):
    club = request_club(request)
    form = NightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            night = services.night_create(**form.cleaned_data, created_by=request.user, club=club)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("tournament:night_detail", night.pk)
    return TemplateResponse(request, "tournament/night_form.html", {"form": form})


@organizer_required
def night_settings(request, night_id: int):
    """The night's settings, changed: every one before the opening draw, after it what the room reads and prints."""
    night = get_object_or_404(Night, pk=night_id)
    form = NightForm(request.POST or None, instance=night, editing=True)
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            game.night_settings_change(night=Night.objects.get(pk=night.pk), by=request.user, **changed)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect(night)
    return TemplateResponse(request, "tournament/night_form.html", {"form": form, "night": night})


@organizer_required
def night_delete(request, night_id: int):
    """Delete a night, asked first: the page lists what it holds; one with results or money asks for its name."""
    night = get_object_or_404(Night, pk=night_id)
    form = NightDeleteForm(request.POST if request.method == "POST" else None)  # a plain "yes" sends no field
    if form.is_valid():
        try:
            name = services.night_delete(night=night, typed_name=form.cleaned_data["typed_name"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, f"“{name}” was deleted, with everything in it.")
            return redirect("tournament:night_list")
    context = {"night": night, "form": form, "deletion": selectors.night_deletion(night)}
    return TemplateResponse(request, "tournament/night_delete.html", context)


@organizer_required
def night_detail(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return night_page(request, night)


def night_page(request, night: Night, **forms) -> TemplateResponse:
    """The organizer's night page, with any form given (bound, its refusals beside its fields)."""
    phones = phone_address(request)
    context = {
        **night_context(night, **forms),
        "phones": phones,
        "restarts": selectors.recent_restarts(),
        "signup_link": phones.of(reverse("tournament:signup", args=[night.pk])),
        "door_link": phones.of(reverse("tournament:door", args=[night.pk])),
        "publish": selectors.publish_state(night),
        "money_left": selectors.money_left(night),
    }
    return TemplateResponse(request, "tournament/night_detail.html", context)


@organizer_required
def night_fairness(request, night_id: int):
    """How evenly the night has treated everyone: head-table games, byes, repeated partners and opponents."""
    night = get_object_or_404(Night, pk=night_id)
    rows = selectors.fairness(night)
    chart = charts.fairness(night)  # a rotation night: the whole chart's figures, each beside its ideal
    wishes = selectors.night_wishes(night)
    if request.path.endswith(".json"):
        payload = {"night": night.pk, "players": [asdict(row) for row in rows]}
        if chart is not None:
            payload["chart"] = [asdict(figure) for figure in chart.rows]
        if wishes.any:
            payload["wishes"] = {
                "broken": len(wishes.breaches),
                "avoidable": wishes.avoidable,
                "ideal": 0,
                "breaches": [asdict(line) for line in wishes.breaches],
            }
        return JsonResponse(payload)
    threes = any(row.at_three for row in rows)
    context = {"night": night, "rows": rows, "chart": chart, "wishes": wishes, "threes": threes}
    return TemplateResponse(request, "tournament/fairness.html", context)


@organizer_required
@require_POST
def keeper_add(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = KeeperForm(request.POST)
    if form.is_valid():
        try:
            services.keeper_add(night=night, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect(night)
    return night_page(request, night, keeper_form=form)


@organizer_required
@require_POST
def keeper_remove(request, night_id: int, user_id: int):
    night = get_object_or_404(Night, pk=night_id)
    services.keeper_remove(night=night, user_id=user_id)
    return redirect(night)


@organizer_required
def night_restore(request):
    """Restore a night from a backup file: refused whole with the reason, or restored whole."""
    club = request_club(request)
    form = RestoreForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            raw = form.cleaned_data["file"].read()
            night = backup.night_restore(raw=raw, by=request.user, club=club)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect(night)
    return TemplateResponse(request, "tournament/night_restore.html", {"form": form})
