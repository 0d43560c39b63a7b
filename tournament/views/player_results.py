"""A player's results page, found by their results link alone; its PDF; the way to it from the phone page at the
end of the night; and the organizer's "E-mail players their results" and "leave off public lists"."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from .. import selectors, services
from ..addresses import phone_address
from ..models import Entry, Night
from ..permissions import organizer_required
from ..sheets import printing
from .limits import count

# Codes typed on the phone page to open one's results, from one address in a minute: a player mistypes a few; a
# script trying every code is stopped long before it finds one.
CODE_TRIES_A_MINUTE = 10


def _results(token: str, night_id: int | None):
    player = selectors.player_by_token(token)
    if player is None:
        raise Http404("No such results page.")
    results = selectors.player_results(player, night_id)
    if results is None:
        raise Http404("No such night for this player.")
    return results


def results_page(request, token: str, night_id: int | None = None):
    """Tonight's card (or the night asked for) and the player's history at the club. No login: the link is the
    key, so the page is never listed, linked from a public page or cached by a shared proxy."""
    results = _results(token, night_id)
    context = {"results": results, "night": results.night}
    response = TemplateResponse(request, "tournament/player_results.html", context)
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def results_pdf(request, token: str, night_id: int):
    """The same page as a printable sheet (the sheet registry's "player-results")."""
    results = _results(token, night_id)
    night = get_object_or_404(Night, pk=night_id)
    content = printing.sheet_bytes(night, "player-results", player=token)
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(results.name) or 'player'}-{night.date:%Y-%m-%d}-results.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def results_by_code(request, night_id: int, player_id: int):
    """The phone page at the end of the night: the code printed on the player's tally card opens their results
    (the phone page's own address is a number anyone can change, so it never carries the link itself)."""
    entry = Entry.objects.filter(night_id=night_id, player_id=player_id, player__house=False).select_related("player")
    found = entry.first()
    if found is None:
        raise Http404("No such player tonight.")
    back = reverse("tournament:player_page", args=[night_id, player_id])
    if count(f"results-code:{request.META.get('REMOTE_ADDR', '')}") > CODE_TRIES_A_MINUTE:
        messages.error(request, "Too many codes tried from this phone: wait a minute and try again.")
        return redirect(back)
    typed = "".join(request.POST.get("code", "").split())  # "19 08" as read off the card is 1908
    if typed != found.code:
        messages.error(request, "That is not your code: it is the number after “Code” at the top of your tally card.")
        return redirect(back)
    return redirect("tournament:results_night", found.player.results_token, night_id)


@organizer_required
@require_POST
def results_mail(request, night_id: int):
    """E-mail each player of the finished night who gave an address at sign-up their results link (once each)."""
    night = get_object_or_404(Night, pk=night_id)
    try:
        services.results_mail_start(night=night, base_url=phone_address(request).url)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, "The results are being e-mailed: each player is mailed once.")
    return redirect(night)


@organizer_required
@require_POST
def entry_unlisted(request, night_id: int, entry_id: int):
    """The organizer leaves a player off the public lists (or puts them back), for every night of theirs."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, night_id=night_id)
    services.player_unlisted_set(player=entry.player, unlisted=request.POST.get("unlisted") == "1")
    return redirect(reverse("tournament:night_detail", args=[night_id]) + "#players")
