"""Seasons: the organizer creates one and ticks its nights; anyone reads its table, a player's season and the CSV."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST

from scoring.models import Season
from tournament import seasons as services
from tournament.forms import apply_errors
from tournament.permissions import organizer_of, organizer_required, request_club

from .. import selectors
from ..score_forms import SeasonForm, SeasonNightsForm


@organizer_required
def season_list(request):
    seasons = Season.objects.filter(owner=request_club(request)).order_by("-created_at", "-id")
    seasons = seasons.prefetch_related("nights")
    return TemplateResponse(request, "scoring/season_list.html", {"seasons": seasons})


@organizer_required
def season_create(request):
    club = request_club(request)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(**form.cleaned_data, created_by=request.user, owner_id=club.pk)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("scoring:season_edit", season.pk)
    return TemplateResponse(request, "scoring/season_form.html", {"form": form})


def _edit_page(request, season: Season, form: SeasonForm, nights_form: SeasonNightsForm):
    context = {
        "season": season,
        "form": form,
        "nights_form": nights_form,
        "standings": selectors.season_standings(season),
        "hidden": frozenset(),  # the organizer's page names and links everyone
    }
    return TemplateResponse(request, "scoring/season_edit.html", context)


@organizer_required
def season_edit(request, season_id: int):
    """The organizer's page of a season: its settings, its nights, and the table as it stands."""
    season = get_object_or_404(Season, pk=season_id)
    nights_form = SeasonNightsForm(
        initial={"nights": list(season.nights.values_list("pk", flat=True))}, club_id=season.owner_id
    )
    if request.method != "POST":
        return _edit_page(request, season, SeasonForm(instance=season), nights_form)
    form = SeasonForm(request.POST, instance=Season.objects.get(pk=season.pk))
    if form.is_valid():
        try:
            services.season_update(season=season, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("scoring:season_edit", season.pk)
    return _edit_page(request, season, form, nights_form)


@organizer_required
@require_POST
def season_nights(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    nights_form = SeasonNightsForm(request.POST, club_id=season.owner_id)
    if nights_form.is_valid():
        try:
            services.season_nights_set(
                season=season, night_ids=[night.pk for night in nights_form.cleaned_data["nights"]]
            )
        except ValidationError as error:
            apply_errors(nights_form, error)
        else:
            return redirect("scoring:season_edit", season.pk)
    return _edit_page(request, season, SeasonForm(instance=season), nights_form)


def season_public(request, season_id: int):
    """The season's table for anyone: display names only, printable."""
    season = get_object_or_404(Season, pk=season_id)
    standings = selectors.season_standings(season)
    hidden = selectors.unlisted_players(row.player_id for row in standings.rows)
    context = {"season": season, "standings": selectors.public_season(standings, hidden), "hidden": hidden}
    return TemplateResponse(request, "scoring/season_public.html", context)


def season_player(request, season_id: int, player_id: int):
    season = get_object_or_404(Season, pk=season_id)
    player = selectors.season_player(season, player_id)
    if player is None:
        raise Http404("That player has not played a night of this season.")
    if not organizer_of(request, season.owner_id) and selectors.unlisted_players([player_id]):
        raise Http404("That player has not played a night of this season.")  # they asked to be off public lists
    return TemplateResponse(request, "scoring/season_player.html", {"season": season, "player": player})
