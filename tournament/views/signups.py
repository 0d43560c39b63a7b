"""Sign-up before the night: the public form, a player's own sign-up page, and the organizer's waitlist buttons."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.ending import ordinal

from .. import selectors, services
from ..addresses import phone_address
from ..forms import SignUpForm, SignUpSettingsForm, apply_errors, new_key
from ..models import MONEY_KEY_LENGTH, Night, SignUp
from ..permissions import organizer_required
from ..sheets.qr import qr_svg
from .limits import count
from .nights import night_page

# Sign-ups a minute from one address (a family at one phone signs up a few; a script, hundreds). The door's walk-ins
# count the same way, in a bucket of their own; its check-ins more freely (a tablet at the door may check in a queue).
SIGNUPS_PER_MINUTE = 12
WALK_INS_PER_MINUTE = 12
CHECK_INS_PER_MINUTE = 30
TOO_MANY = "Many {what} came from this network in the last minute: wait a minute, then {again}."


def _counted(request, what: str, night_id: int, limit: int) -> bool:
    """One more of `what` from this address counted, in the counter every server process shares; False once past
    the minute's limit."""
    return count(f"{what}:{night_id}:{request.META.get('REMOTE_ADDR', '')}") <= limit


def signup(request, night_id: int):
    """The night's public sign-up link: a name (and, if the player likes, a contact and a category). Sign-ups from
    one address are counted: a flood of names is turned away for a minute, what was typed kept in the form."""
    night = get_object_or_404(Night, pk=night_id)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not _counted(request, "signup", night_id, SIGNUPS_PER_MINUTE):
            form.add_error("name", TOO_MANY.format(what="sign-ups", again="send again"))
            return _signup_page(request, night, form)
        try:
            made = services.signup_create(night=night, **form.cleaned_data)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return redirect("tournament:signup_page", made.key)
    return _signup_page(request, night, form)


def _signup_page(request, night: Night, form):
    night.refresh_from_db()
    here = night.entries.count()
    full = night.signup_cap is not None and here >= night.signup_cap
    context = {
        "night": night,
        "form": form,
        "full": full,
        "places_left": max(0, (night.signup_cap or 0) - here),
        "closed": night.status != Night.Status.SETUP,
    }
    return TemplateResponse(request, "tournament/signup.html", context)


def _done(request, signup: SignUp, error: str = ""):
    place = selectors.waitlist_place(signup)
    context = {"night": signup.night, "signup": signup, "place": ordinal(place) if place else "", "error": error}
    return TemplateResponse(request, "tournament/signup_done.html", context)


def signup_page(request, key: str):
    """A player's own sign-up: in, waiting (and where), or withdrawn; the address is theirs alone."""
    return _done(request, get_object_or_404(SignUp.objects.select_related("night"), key=key))


@require_POST
def signup_withdraw(request, key: str):
    signup = get_object_or_404(SignUp.objects.select_related("night"), key=key)
    if request.POST.get("sure") != "1":
        return _done(request, signup, "Tick “Yes, I cannot come” to withdraw: nothing was changed.")
    try:
        services.signup_withdraw(signup=signup)
    except ValidationError as error:
        return _done(request, signup, " ".join(error.messages))
    return redirect("tournament:signup_page", key)


@organizer_required
@require_POST
def signup_action(request, night_id: int, signup_id: int, action: str):
    """The organizer's buttons on the waitlist: promote (over the cap) or remove."""
    signup = get_object_or_404(SignUp.objects.select_related("night"), pk=signup_id, night_id=night_id)
    try:
        if action == "promote":
            services.signup_promote(signup=signup)
        else:
            services.signup_withdraw(signup=signup)
    except ValidationError as error:
        return night_page(request, signup.night, signup_error=" ".join(error.messages))
    return redirect(f"{signup.night.get_absolute_url()}#signups")


@organizer_required
@require_POST
def signup_settings(request, night_id: int):
    """Open or close sign-up from the public link, and its cap; a refusal is shown beside the field."""
    night = get_object_or_404(Night, pk=night_id)
    form = SignUpSettingsForm(request.POST)
    if form.is_valid():
        try:
            data = form.cleaned_data
            services.signup_settings(night=night, open=data["open"], cap=data["cap"], checkin=data["checkin"])
        except ValidationError as error:
            apply_errors(form, error, aliases={"signup_cap": "cap"})
        else:
            return redirect(f"{night.get_absolute_url()}#signups")
    return night_page(request, night, signup_form=form)


def door(request, night_id: int):
    """The door's check-in, from its QR code: a player finds their name and taps "I'm here"."""
    night = get_object_or_404(Night, pk=night_id)
    query = request.GET.get("q", "").strip()
    here, error = None, ""
    walk_in = None
    key = request.POST.get("key", "")
    if request.method == "POST" and "walk_in" in request.POST:  # not on the list: sign up here, and check in
        name = request.POST.get("walk_in", "")
        try:
            if not _counted(request, "walk-in", night_id, WALK_INS_PER_MINUTE):
                raise ValidationError({"name": TOO_MANY.format(what="sign-ups at the door", again="tap again")})
            walk_in = services.door_walk_in(night=night, name=name, key=key)
            if walk_in.entry_id is not None:
                here = walk_in.entry
        except ValidationError as error_:
            error, query = " ".join(error_.messages), name.strip()
    elif request.method == "POST":
        entry_id = request.POST.get("entry", "")
        try:
            if not (entry_id.isdecimal() and len(entry_id) < 10):
                raise ValidationError({"entry": "Find your name, then tap “I'm here”."})
            if not _counted(request, "check-in", night_id, CHECK_INS_PER_MINUTE):
                raise ValidationError({"entry": TOO_MANY.format(what="check-ins", again="tap again")})
            here = services.entry_check_in_by_phone(night=night, entry_id=int(entry_id), key=key)
        except ValidationError as error_:
            error = " ".join(error_.messages)
    matches = selectors.find_players(night, query) if query and here is None else []
    context = {
        "night": night,
        "query": query,
        "matches": [entry for entry in matches if not entry.player.house],
        "waiting": selectors.waiting_named(night, query) if query and not matches else None,
        "here": here,
        "walk_in": walk_in if walk_in is not None and here is None else None,
        "walk_in_place": ordinal(place) if walk_in and (place := selectors.waitlist_place(walk_in)) else "",
        "error": error,
        # The walk-in's form: after a refusal (nothing stored) the same form again, with the key it was sent with.
        "key": key if error and len(key) <= MONEY_KEY_LENGTH else new_key(),
    }
    for entry in context["matches"]:
        entry.checkin_form_key = new_key()  # each "I'm here" button its own form
    return TemplateResponse(request, "tournament/door.html", context)


def door_qr(request, night_id: int):
    """The door's check-in as a QR code, at the address phones use (the night page and the room display)."""
    get_object_or_404(Night, pk=night_id)
    url = phone_address(request).of(reverse("tournament:door", args=[night_id]))
    response = HttpResponse(qr_svg(url, size=240), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=300"
    return response
