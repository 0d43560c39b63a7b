"""A night's partner wishes: the lists and the two-group rule, and how the seating has kept them so far."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse

from .. import selectors, services
from ..forms import WishesForm, apply_errors
from ..models import Night
from ..permissions import organizer_required


@organizer_required
def wishes_page(request, night_id: int):
    """GET: the wishes and every breach so far; POST: replace them (all of it, or nothing, the refusal beside its
    field)."""
    night = get_object_or_404(Night, pk=night_id)
    report = selectors.night_wishes(night)
    if request.method == "POST":
        form = WishesForm(request.POST)
        if form.is_valid():
            try:
                data = form.cleaned_data
                services.night_wishes_set(
                    night=night, never=data["never"], always=data["always"], groups=data["partner_groups"]
                )
            except ValidationError as error:
                apply_errors(form, error)
            else:
                return redirect("tournament:wishes", night.pk)
    else:
        form = WishesForm(
            initial={
                "partner_groups": night.partner_groups,
                "never": report.text("never"),
                "always": report.text("always"),
            }
        )
    return TemplateResponse(
        request, "tournament/wishes.html", {"night": night, "form": form, "report": report, "Movement": Night.Movement}
    )
