"""Read-only pages anyone in the room may open: where to sit, the room display, a player's own page.

Each polls itself every few seconds with the stamp it was drawn from; while nothing has changed the answer is
an empty 204 from one query, so a hall full of phones costs next to nothing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from tournament.selectors import night_standings

from .. import selectors
from ..addresses import phone_address
from ..models import Night
from ..selectors import RoomState
from ..sheets.qr import qr_svg


def _unchanged(request, night_id: int) -> bool:
    since = request.GET.get("since")
    return bool(request.htmx and since and since == selectors.night_stamp(night_id))


def public_night(request, night_id: int):
    if _unchanged(request, night_id):
        return HttpResponse(status=204)
    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    hidden = selectors.unlisted_names(night)  # players who asked to be left off public lists
    context = {
        "night": night,
        "stamp": f"{night.moved_at.timestamp():.6f}",
        "round": current,
        "round_view": selectors.public_round(selectors.round_view(current) if current else None, hidden),
        "finder": selectors.public_finder(selectors.seat_finder(current) if current else [], hidden),
        "standings": selectors.public_standings(selectors.standings_with_money(night, night_standings(night)), hidden),
    }
    template = "tournament/public_night.html"
    return TemplateResponse(request, f"{template}#public_body" if request.htmx else template, context)


# A draw stays on the room display this long after it was made, then goes by itself (the organizer may take it off
# sooner on the Money page).
DRAW_SECONDS = 180


@dataclass(frozen=True)
class Share:
    """This screen's share of the seating where several displays show a big room (`?share=2/3`: the second third
    of the names, alphabetically)."""

    part: int = 1
    parts: int = 1

    @classmethod
    def parse(cls, text: str | None) -> Share:
        part, _, parts = (text or "").partition("/")
        if part.isdecimal() and parts.isdecimal() and 1 <= int(part) <= int(parts) <= 8:
            return cls(int(part), int(parts))
        return cls()

    @property
    def label(self) -> str:
        return f"{self.part}/{self.parts}"

    def of(self, lines: list) -> list:
        size = -(-len(lines) // self.parts)
        return lines[(self.part - 1) * size : self.part * size]


def room_display(request, night_id: int):
    """The full-screen page for a projector or TV.

    Several displays ask for the same state: the drawn room is kept in the cache under the night's stamp, so it
    is drawn once per change whatever the number of screens.
    """
    if _unchanged(request, night_id):
        return HttpResponse(status=204)
    stamp = selectors.night_stamp(night_id, moved=False)  # any change, a score included: the page shows the count
    if stamp is None:
        raise Http404("No such night.")
    share = Share.parse(request.GET.get("share"))
    key = f"room:{night_id}:{stamp}:{bool(request.htmx)}:{request.get_host()}:{share.label}"
    body = cache.get(key)
    if body is None:
        night = get_object_or_404(Night, pk=night_id)
        room = selectors.room(night)
        hidden = selectors.unlisted_names(night)  # players who asked to be left off public lists
        room = replace(room, finder=selectors.public_finder(room.finder, hidden))
        if share.parts > 1:
            room = replace(room, finder=share.of(room.finder))
        draw = selectors.draw_on_display(night)
        if draw is not None and draw.at < timezone.now() - dt.timedelta(seconds=DRAW_SECONDS):
            draw = None
        count_stamp = selectors.night_stamp(night_id, moved=False)
        phones = phone_address(request)
        find_url = phones.of(reverse("tournament:player_find", args=[night.pk]))
        context = {
            "night": night,
            "room": room,
            "count_stamp": count_stamp,
            "find_url": find_url,
            "door_url": phones.of(reverse("tournament:door", args=[night.pk])),
            "draw": draw,
            "draw_until_ms": int((draw.at.timestamp() + DRAW_SECONDS) * 1000) if draw else None,
            "share": {
                "parts": share.parts,
                "label": share.label,
                "first": room.finder[0].name if room.finder else "",
                "last": room.finder[-1].name if room.finder else "",
            },
            **selectors.clock(room.round),
        }
        if room.state in (RoomState.HELD, RoomState.FINISHED) or (room.round and room.round.number > 1):
            context["standings"] = selectors.public_standings(
                selectors.standings_with_money(night, night_standings(night)), hidden
            )
        template = "tournament/room_display.html"
        response = TemplateResponse(request, f"{template}#room" if request.htmx else template, context)
        body = response.render().content.decode()
        # The countdown's server clock is read when the page is drawn; a cached copy stays fresh for 1 s.
        cache.set(key, body, timeout=1)
    return HttpResponse(body)


def player_find(request, night_id: int):
    """A player finds themselves by name (or by their number, as printed on the tally card)."""
    night = get_object_or_404(Night, pk=night_id)
    query = request.GET.get("q", "").strip()
    if query.isdecimal() and len(query) < 10 and (player := selectors.player_by_card_number(night, int(query))):
        return redirect("tournament:player_page", night.pk, player)
    matches = selectors.find_players(night, query)
    if len(matches) == 1:
        return redirect("tournament:player_page", night.pk, matches[0].player_id)
    context = {"night": night, "query": query, "matches": matches, "missing": "missing" in request.GET}
    return TemplateResponse(request, "tournament/player_find.html", context)


def player_page(request, night_id: int, player_id: int):
    """A player's own page: where they sit now and next, or for one who left, when and who took their seat. Every
    phone in the hall polls it, so it is answered from the night's places read once per move (`phone_room`), not
    from a reading of its own."""
    stamp = selectors.night_stamp(night_id)
    if stamp is None:
        raise Http404("No such night.")
    if request.htmx and request.GET.get("since") == stamp:
        return HttpResponse(status=204)
    phones = selectors.phone_room(night_id, stamp)
    if phones is None:
        raise Http404("No such night.")
    place = phones.places.get(player_id)
    if place is None:  # a link to no player of the night (mistyped, or from another night): the finder says so
        return redirect(f"{reverse('tournament:player_find', args=[night_id])}?{urlencode({'missing': 1})}")
    context = {
        "night": phones.night,
        "place": place,
        "room": phones.room,
        "player_id": player_id,
        "card_number": phones.cards.get(player_id, ""),
        # The few who left are read on their own: when, who took their seat, their games.
        "left": selectors.player_left(phones.night, player_id) if player_id in phones.gone else None,
        **selectors.clock(phones.room.round),
    }
    template = "tournament/player_page.html"
    return TemplateResponse(request, f"{template}#mine" if request.htmx else template, context)


def find_qr(request, night_id: int):
    """The QR code of "find your table" at the address phones use, for the room display's corner."""
    get_object_or_404(Night, pk=night_id)
    url = phone_address(request).of(reverse("tournament:player_find", args=[night_id]))
    response = HttpResponse(qr_svg(url, size=240), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=300"
    return response


def room_count(request, night_id: int):
    """The room display's "scores in" line, polled on its own: it changes with every score, the rest does not."""
    since = request.GET.get("since")
    stamp = selectors.night_stamp(night_id, moved=False)
    if stamp is None:
        raise Http404("No such night.")
    if request.htmx and since == stamp:
        return HttpResponse(status=204)
    night = get_object_or_404(Night, pk=night_id)
    room = selectors.room(night, with_finder=False)
    return TemplateResponse(
        request, "tournament/room_display.html#count", {"night": night, "room": room, "count_stamp": stamp}
    )
