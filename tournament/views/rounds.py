"""Drawing the opening seating, starting a game and closing it (which seats the next one)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from .. import game, selectors, services
from ..models import Night, Round
from ..permissions import organizer_required
from .context import night_context, players_context, round_context


@organizer_required
def round_live(request, night_id: int):
    """The night page's poll: 204 while nothing changed; after a score, the bar and the table cards (each to
    replace its twin, except a card the organizer is typing in); after the game moved, the whole game section."""
    since, moved = request.GET.get("since"), request.GET.get("moved")
    if since and since == selectors.night_stamp(night_id, moved=False):
        return HttpResponse(status=204)
    night = get_object_or_404(Night, pk=night_id)
    # A score: only the cards of the tables that changed. A move: the whole game.
    context = round_context(night, changed_since=since if moved == f"{night.moved_at.timestamp():.6f}" else None)
    whole = not context["partial"]
    context.update(whole=whole, oob_round=whole, oob=not whole, poll_oob=True)
    return TemplateResponse(request, "tournament/night_detail.html#round_live", context)


def _done(request, night: Night):
    if request.htmx:
        return HttpResponseClientRedirect(night.get_absolute_url())
    return redirect(night)


@organizer_required
@require_POST
def night_draw(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    try:
        services.night_draw(night=night)
    except ValidationError as error:
        context = players_context(night, draw_errors=error.messages)
        if request.htmx:
            return TemplateResponse(request, "tournament/night_detail.html#players", context)
        return TemplateResponse(request, "tournament/night_detail.html", {**night_context(night), **context})
    return _done(request, night)


def _round_action(request, night_id: int, number: int, action, **options):
    round_ = get_object_or_404(Round, night_id=night_id, number=number)
    try:
        # The buttons say which state of the game they were drawn from; an old page's button is refused.
        action(round_=round_, by=request.user, drawn_from=request.POST.get("seen"), **options)
    except ValidationError as error:
        context = round_context(round_.night, round_errors=error.messages)
        if request.htmx:
            return TemplateResponse(request, "tournament/night_detail.html#round", context)
        return TemplateResponse(request, "tournament/night_detail.html", {**night_context(round_.night), **context})
    return _done(request, round_.night)


@organizer_required
@require_POST
def round_start(request, night_id: int, number: int):
    return _round_action(request, night_id, number, game.round_start)


@organizer_required
@require_POST
def round_close(request, night_id: int, number: int):
    return _round_action(request, night_id, number, game.round_close)


@organizer_required
@require_POST
def round_bell(request, night_id: int, number: int):
    return _round_action(request, night_id, number, game.round_ring_bell)


@organizer_required
@require_POST
def round_pause(request, night_id: int, number: int):
    return _round_action(request, night_id, number, game.round_pause)


@organizer_required
@require_POST
def round_resume(request, night_id: int, number: int):
    return _round_action(request, night_id, number, game.round_resume)


@organizer_required
@require_POST
def round_extend(request, night_id: int, number: int):
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        minutes = 0
    return _round_action(request, night_id, number, game.round_extend, minutes=minutes)


# ---- the night's length: the last game, a hold before the next, the end now --------------------------------------


def _game_named(request) -> int | None:
    """The game a night-length button was drawn for (its page's `game`), or None from a form without one."""
    value = request.POST.get("game", "")
    return int(value) if value.isdecimal() and len(value) < 4 else None


def _night_action(request, night_id: int, action, **options):
    """One of the night's length buttons: done, or refused with the reason beside the game's bar."""
    night = get_object_or_404(Night, pk=night_id)
    try:
        action(night=night, by=request.user, **options)
    except ValidationError as error:
        context = round_context(night, round_errors=error.messages)
        if request.htmx:
            return TemplateResponse(request, "tournament/night_detail.html#round", context)
        return TemplateResponse(request, "tournament/night_detail.html", {**night_context(night), **context})
    return _done(request, night)


@organizer_required
@require_POST
def night_last_game(request, night_id: int):
    return _night_action(request, night_id, game.night_last_game, game=_game_named(request))


@organizer_required
@require_POST
def night_hold(request, night_id: int):
    return _night_action(
        request, night_id, game.night_hold, hold=request.POST.get("hold") == "1", game=_game_named(request)
    )


@organizer_required
@require_POST
def night_seat_next(request, night_id: int):
    return _night_action(request, night_id, game.night_seat_next, start_now=request.POST.get("start") == "1")


@organizer_required
def night_end(request, night_id: int):
    """“End the night now”: first what it does to the game under way, then, confirmed, done."""
    night = get_object_or_404(Night, pk=night_id)
    error = ""
    if request.method == "POST" and night.status == Night.Status.FINISHED:
        return redirect(night)  # ended already (a second tap on the button): nothing more to do
    if request.method == "POST":
        try:
            drops = int(request.POST.get("drops", "") or 0) or None
        except ValueError:
            drops = None
        try:
            game.night_end(night=night, by=request.user, drops=drops)
        except ValidationError as refusal:
            error = " ".join(refusal.messages)
        else:
            return redirect(night)
    context = {"night": night, "ending": game.night_ending(night), "error": error}
    return TemplateResponse(request, "tournament/night_end.html", context, status=400 if error else 200)
