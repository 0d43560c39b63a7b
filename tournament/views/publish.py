"""Publishing to the club's site: the hosted side's endpoint (a venue's laptop sends a night), and the laptop's
pages (the club's site and key, typed once; "Publish to the club's site" and "after each game" on the night page).
"""

from __future__ import annotations

import hmac

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .. import backup, selectors, services
from ..addresses import phone_address
from ..forms import ClubSiteForm, apply_errors
from ..models import Club, Night
from ..permissions import organizer_required, request_club
from ..services.publish import key_hash
from .limits import count

# Publishes a club's site takes a minute (one after each game and the laptop's retries are far fewer), and tries
# from one address with a wrong key or none.
PUBLISHES_PER_MINUTE = 30
WRONG_KEYS_PER_MINUTE = 10


def _answer(status: int, message: str, **more) -> JsonResponse:
    return JsonResponse({"ok": 200 <= status < 300, "message": message, **more}, status=status)


def _key(request) -> str:
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return key.strip() if scheme.lower() == "bearer" else ""


@csrf_exempt  # a laptop's program, with the club's key, not a browser's form with a session
def club_publish(request, slug: str):
    """A night's backup file from the club's laptop, with the club's key (Authorization: Bearer …): made the club's
    night, put in place of its copy, or unchanged; refused with the reason in words (JSON, never a 500)."""
    if request.method != "POST":
        return _answer(405, "Send the night with POST.")
    # Behind the hosted set-up's TLS proxy every laptop has the proxy's address: only wrong keys are counted by
    # address, so a stranger's guesses never hold up a club that sends its right key (it counts by the club).
    address = request.META.get("REMOTE_ADDR", "")
    club = Club.objects.filter(slug=slug.lower()).exclude(publish_key_hash="").first()  # short addresses: lower-case
    key = _key(request)
    right = club is not None and hmac.compare_digest(key_hash(key), club.publish_key_hash)
    if not right:  # no club of that address, no key, a wrong key or another club's: the same answer
        if count(f"publish-wrong:{address}") > WRONG_KEYS_PER_MINUTE:
            return _answer(429, "Too many wrong keys from this address: wait a minute.")
        # The same words for a club that is not there: a stranger learns nothing of which clubs the site holds.
        if not key:
            return _answer(
                403, "No publishing key was sent: type the key the club's site gave in the laptop's “The club's site”."
            )
        return _answer(
            403,
            "This publishing key is not the key of a club at this address: check the club's short address at the end"
            " of the site address (…/c/<short address>/), then the key, in the laptop's “The club's site”.",
        )
    if count(f"publish:{club.pk}") > PUBLISHES_PER_MINUTE:
        return _answer(429, "Too many publishes this minute: wait a minute.")
    raw = request.read(backup.MAX_BYTES + 1)  # read here, not as request.body: no upload limit of forms applies
    if len(raw) > backup.MAX_BYTES:
        return _answer(413, "This file is far larger than a night's backup. Nothing was published.")
    try:
        published = backup.night_publish(raw=raw, club=club)
    except backup.Finished as finished:
        return _answer(409, " ".join(finished.messages))
    except ValidationError as refused:
        return _answer(400, " ".join(refused.messages))
    night = published.night
    said = {
        backup.MADE: f"“{night.name}” is on the club's site.",
        backup.REPLACED: f"“{night.name}” is updated on the club's site.",
        backup.UNCHANGED: f"“{night.name}” was already on the club's site as sent: nothing changed.",
    }[published.outcome]
    if night.status == Night.Status.FINISHED:  # each player with an e-mail gets their results link, once
        try:
            services.results_mail_start(night=night, base_url=phone_address(request).url)
        except (ValidationError, DatabaseError):
            said += " The players' results e-mails could not be queued: the site's organizer can send them."
        else:
            said += " Each player who gave an e-mail is sent their results link once (none twice)."
    return _answer(201 if published.outcome == backup.MADE else 200, said, outcome=published.outcome)


@organizer_required
def club_site(request):
    """The club's site and publishing key, typed once on the laptop."""
    club = request_club(request)  # an account of no club is refused there, with the reason
    form = ClubSiteForm(request.POST or None, initial={"address": club.site_address})
    if request.method == "POST" and form.is_valid():
        try:
            services.club_site_set(club=club, address=form.cleaned_data["address"], key=form.cleaned_data["key"])
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, "The club's site is kept." if club.site_address else "No club site is kept.")
            back = request.POST.get("next", "")
            return redirect(back if back.startswith("/nights/") else "tournament:night_list")
    context = {"form": form, "club": club, "next": request.GET.get("next", request.POST.get("next", ""))}
    return TemplateResponse(request, "tournament/club_site.html", context)


@organizer_required
@require_POST
def night_publish(request, night_id: int):
    """The night page's "Publish to the club's site": queued; the worker sends it until the site answers."""
    night = get_object_or_404(Night, pk=night_id)
    try:
        services.night_publish_start(night=night)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, f"Queued for the club's site at {timezone.localtime():%H:%M}.")
    return redirect(night.get_absolute_url() + "#publish")


@organizer_required
@require_GET
def night_publish_state(request, night_id: int):
    """The night page's words on its send, polled while it waits for the site: "Sent at …" or the refusal shows
    without a reload (the poll stops with the answer)."""
    night = get_object_or_404(Night, pk=night_id)
    context = {"night": night, "publish": selectors.publish_state(night)}
    return TemplateResponse(request, "tournament/night_detail.html#publish_words", context)


@organizer_required
@require_POST
def night_publish_live(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    services.night_publish_live_set(night=night, live=request.POST.get("live") == "1")
    return redirect(night.get_absolute_url() + "#publish")
