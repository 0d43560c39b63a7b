"""Registering players for a night and checking them in. Each answers htmx with the players partial."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from .. import selectors, services
from ..forms import ImportForm, PlayerAddForm, PlayerPasteForm, RosterPickForm, SubstituteForm, apply_errors
from ..imports import parse_players_csv
from ..models import Entry, Night, Round
from ..permissions import organizer_required
from .context import night_context, players_context, signups_context

PARTIAL = "tournament/night_detail.html#players"
ROSTER = "tournament/night_detail.html#roster"


# Which panel a refused form belongs to, when the page that sent it is not the night's page now (a page opened before
# the draw, or before the last game closed): the panel it came from is drawn again, with the refusal and what was
# typed. The late arrival's form is on both; without htmx to say which, it is the panel of play's.
SETUP_FORMS = ("paste_form", "roster_form", "draw_errors", "entry_error")


def _refused_panel(request, night: Night, forms) -> str:
    """ "players" (the panel before the draw) or "roster" (the panel during play) for a refusal."""
    if request.htmx and request.htmx.target in ("players", "roster"):
        return request.htmx.target
    if night.status == Night.Status.SETUP:
        return "players"
    return "players" if any(name in forms for name in SETUP_FORMS) else "roster"


def _answer(request, night: Night, **forms):
    panel = _refused_panel(request, night, forms) if forms else ""
    if night.status != Night.Status.SETUP:
        # During play a change of players can reseat the next game: show the whole page again.
        if not forms and request.htmx:
            return HttpResponseClientRefresh()
        if request.htmx and panel == "roster":  # the panel with the game it offers swaps in (a refusal keeps its form)
            current = selectors.current_round(night)
            view = selectors.round_view(current) if current else None
            return TemplateResponse(request, ROSTER, {**players_context(night, **forms), "round_view": view})
    if request.htmx:
        return TemplateResponse(request, PARTIAL, players_context(night, **forms))
    if forms:  # a refusal without htmx: the whole page, with the form and its message
        context = {**night_context(night), **players_context(night, **forms), "refused_panel": panel}
        return TemplateResponse(request, "tournament/night_detail.html", context)
    return redirect("tournament:night_detail", night.pk)


def _register(request, night: Night, form, names_of):
    if form.is_valid():
        try:
            names_of(form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error, aliases={"names": "name"} if "name" in form.fields else None)
        else:
            return _answer(request, night)
    key = {PlayerAddForm: "add_form", PlayerPasteForm: "paste_form", RosterPickForm: "roster_form"}[type(form)]
    return _answer(request, night, **{key: form})


@organizer_required
@require_POST
def player_add(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = PlayerAddForm(request.POST)
    return _register(
        request,
        night,
        form,
        lambda data: services.players_register(night=night, names=[data["name"]], checked_in=data["checked_in"]),
    )


@organizer_required
@require_POST
def player_paste(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = PlayerPasteForm(request.POST)
    return _register(
        request, night, form, lambda data: services.players_register(night=night, names=data["names"].splitlines())
    )


@organizer_required
@require_POST
def player_roster(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    form = RosterPickForm(request.POST, queryset=selectors.roster_not_in(night))
    return _register(
        request,
        night,
        form,
        lambda data: services.players_add_from_roster(night=night, player_ids=[p.pk for p in data["players"]]),
    )


@organizer_required
@require_POST
def entry_check_in(request, night_id: int, entry_id: int):
    entry = get_object_or_404(Entry, pk=entry_id, night_id=night_id)
    try:
        services.entry_set_checked_in(entry=entry, checked_in=request.POST.get("checked_in") == "1")
    except ValidationError as error:  # said on the player's line, where the tap was
        return _answer(request, entry.night, entry_error=(entry.pk, " ".join(error.messages)))
    return _answer(request, entry.night)


@organizer_required
@require_POST
def entry_remove(request, night_id: int, entry_id: int):
    entry = get_object_or_404(Entry, pk=entry_id, night_id=night_id)
    night = entry.night
    try:
        services.entry_remove(entry=entry)
    except ValidationError as error:  # said on the player's line, where the ✕ was
        return _answer(request, night, entry_error=(entry.pk, " ".join(error.messages)))
    return _answer(request, night)


@organizer_required
@require_POST
def entry_active(request, night_id: int, entry_id: int):
    """A player leaves (or comes back) during the night."""
    entry = get_object_or_404(Entry, pk=entry_id, night_id=night_id)
    try:
        services.entry_set_active(entry=entry, active=request.POST.get("active") == "1")
    except ValidationError as error:
        return _answer(request, entry.night, swap_errors=error.messages)
    return _answer(request, entry.night)


@organizer_required
@require_POST
def entry_substitute(request, night_id: int):
    """A player who must leave is replaced by a substitute for the rest of the night."""
    night = get_object_or_404(Night, pk=night_id)
    entries = night.entries.filter(player__house=False).select_related("player")
    form = SubstituteForm(request.POST, entries=entries)
    if form.is_valid():
        try:
            services.entry_substitute(
                entry=entries.get(pk=form.cleaned_data["leaving"]), name=form.cleaned_data["name"]
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return _answer(request, night)
    return _answer(request, night, substitute_form=form)


@organizer_required
@require_POST
def seating_swap(request, night_id: int, number: int):
    """Two players change places in a game (someone sat in the wrong seat)."""
    round_ = get_object_or_404(Round.objects.select_related("night"), night_id=night_id, number=number)
    try:
        services.seating_swap(
            round_=round_, player=int(request.POST.get("player") or 0), other=int(request.POST.get("other") or 0)
        )
    except (ValueError, ValidationError) as error:
        messages = error.messages if isinstance(error, ValidationError) else ["Pick two players."]
        return _answer(request, round_.night, swap_errors=messages)
    return _answer(request, round_.night)


IMPORT = "tournament/player_import.html"


@organizer_required
@require_POST
def player_import(request, night_id: int):
    """A CSV of players: first a preview with a verdict on every line (the list kept on the server), then the
    import, all or nothing, confirmed by the preview's token rather than the list sent again."""
    night = get_object_or_404(Night, pk=night_id)
    if "token" in request.POST:
        try:
            services.players_import_confirm(night=night, organizer=request.user, token=request.POST["token"])
        except ValidationError as error:
            return TemplateResponse(request, IMPORT, {"night": night, "form": ImportForm(), "errors": error.messages})
        return redirect(night)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return TemplateResponse(request, IMPORT, {"night": night, "form": form})
    try:
        text = form.cleaned_data["file"].read().decode("utf-8-sig")
    except UnicodeDecodeError:
        form.add_error("file", "This file is not text (UTF-8): save the spreadsheet as CSV UTF-8.")
        return TemplateResponse(request, IMPORT, {"night": night, "form": form})
    lines = parse_players_csv(text)
    try:  # a file of the club's whole history is refused before its preview is drawn
        services.room_for(night.entries.count(), len(lines), "file")
    except ValidationError as error:
        form = ImportForm()
        form.errors["file"] = form.error_class(error.messages)
        return TemplateResponse(request, IMPORT, {"night": night, "form": form})
    rows = services.import_preview(night, lines)
    refused = sum(1 for row in rows if row["error"])
    token = "" if refused else services.import_preview_keep(night=night, organizer=request.user, text=text)
    context = {"night": night, "form": ImportForm(), "rows": rows, "token": token, "refused": refused}
    return TemplateResponse(request, IMPORT, context)


@organizer_required
def players_live(request, night_id: int):
    """The players list's poll before the draw: 204 while nothing changed; else the count and the list (check-ins
    by phone and sign-ups show within one poll). After the draw the page is drawn again whole."""
    since = request.GET.get("since")
    if since and since == selectors.night_stamp(night_id, moved=False):
        return HttpResponse(status=204)
    night = get_object_or_404(Night, pk=night_id)
    if night.status != Night.Status.SETUP:
        return HttpResponseClientRefresh()
    context = {**players_context(night), **signups_context(night), "oob": True}
    return TemplateResponse(request, "tournament/night_detail.html#players_live", context)
