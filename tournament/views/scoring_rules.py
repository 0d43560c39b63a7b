"""The night's scoring rules: pick a preset, change any number, rescore what is recorded."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse

from scoring import rules
from tournament.forms import apply_errors
from tournament.models import Night
from tournament.permissions import organizer_required

from .. import services
from ..score_forms import RulesForm


@organizer_required
def night_rules(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    if request.method == "POST" and "load_preset" in request.POST:
        preset = rules.PRESETS.get(request.POST.get("scoring"), rules.STANDARD)
        form = RulesForm(initial={**preset.as_dict(), "scoring": preset.name})
    elif request.method == "POST":
        form = RulesForm(request.POST)
        if form.is_valid():
            try:
                services.night_rules_update(
                    night=night,
                    preset=form.cleaned_data["scoring"],
                    numbers=form.numbers(),
                    confirm=form.cleaned_data["confirm"],
                )
            except ValidationError as error:
                apply_errors(form, error)
            else:
                return redirect(night)
    else:
        form = RulesForm(initial={**night.rules, "scoring": night.scoring})
    return TemplateResponse(request, "scoring/night_rules.html", {"night": night, "form": form})
