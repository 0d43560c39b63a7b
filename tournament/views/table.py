"""The table's own pages, reached only through the link on its card: this table, the current game, nothing else.

Each request is counted against the link: more than a phone could sensibly send is turned away for a minute.
"""

from __future__ import annotations

import copy
from typing import NoReturn

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.models import Submission, TableLink, TableResult
from scoring.seats import is_three
from tournament.forms import apply_errors
from tournament.models import CodeMiss, Round, entry_name

from .. import game, selectors
from ..score_forms import ConfirmForm, FinishForm, TableScoreForm
from .hands import SAVED, Draft, answer, posted_key, posted_number, posted_seen, record_hand, undo_hand
from .limits import count as _count

TEMPLATE = "scoring/table_link.html"
REQUESTS_PER_MINUTE = 60
# The pages' own polls (every few seconds from each phone at the table) have a budget of their own.
POLLS_PER_MINUTE = 200


def _spend(link_id: int, *, poll: bool) -> None:
    """Count one request against the link's budget for the minute (a page's polls have their own)."""
    if _count(f"table-{'poll' if poll else 'link'}:{link_id}") > (POLLS_PER_MINUTE if poll else REQUESTS_PER_MINUTE):
        raise TooMany


def _missing(token: str) -> NoReturn:
    """No live link at `token`: "not found", saying why."""
    if TableLink.objects.filter(token=token).exists():  # only on the refusal's path: a retired link
        raise Http404("This table link is no longer in use: scan the code on the table's card again.")
    raise Http404(
        "There is no table link at this address: check it was typed whole, or scan the code on the table's card."
    )


def _link(token: str, *, counted: bool = False) -> TableLink:
    """The table's active link, its request counted (unless a poll's check has counted it already)."""
    link = TableLink.objects.select_related("night").filter(token=token, active=True).first()
    if link is None:
        _missing(token)
    if not counted:
        _spend(link.pk, poll=False)
    return link


def _current(link: TableLink) -> Round | None:
    """The game the table's pages show: the one being played, else the latest."""
    return selectors.shown_round(link.night.rounds.order_by("-number"))


def _at(token: str, polled: tuple[tuple[int, int, int], str] | None) -> tuple[TableLink, selectors.TableRoom]:
    """The table's live link and its night's reading shared by all its table phones (`table_room`: the night, the
    game the pages show, every table's seats), at the night's move stamp in `polled` (`table_poll`'s answer)."""
    if polled is None:
        _missing(token)
    (pk, night_id, table), stamp = polled
    room = selectors.table_room(night_id, stamp.partition(":")[0])
    if room is None:
        _missing(token)
    return TableLink(pk=pk, token=token, table=table, night=room.night, active=True), room


def _resolve(request, token: str) -> tuple[TableLink, Round | None, dict[str, str]]:
    """For an action from the table's phone: its live link (the request counted), the game its pages show and the
    table's players in it by seat, from the night's shared reading. The game is this request's own copy: the
    action locks and reads it again, and the page after it reads it once more."""
    polled = selectors.table_poll(token, None)
    if polled is not None:
        _spend(polled[0][0], poll=False)
    link, room = _at(token, polled)
    if room.round is None:
        return link, None, {}
    return link, copy.copy(room.round), dict(room.seats.get(link.table, {}))


def _polled(request) -> bool:
    return bool(request.htmx and request.GET.get("since"))


def _poll_stamp(request, token: str) -> tuple[tuple[int, int, int], str] | None:
    """A phone's poll: its live link (id, night, table), counted against the link's poll budget, and the stamp the
    table has now for the game the page was drawn for. None: no live link at `token` (the full answer says why).

    The stamp names that game and the night's last move: while the night has not moved, that game is still the one
    the page shows."""
    polled = selectors.table_poll(token, selectors.stamp_round(request.GET.get("since")))
    if polled is not None:
        _spend(polled[0][0], poll=True)
    return polled


def _unchanged(request, token: str) -> bool:
    """A phone's poll with nothing new at its table since its page was drawn."""
    polled = _poll_stamp(request, token)
    return polled is not None and polled[1] == request.GET.get("since")


class TooMany(Exception):
    pass


def _limited(view):
    def wrapped(request, token: str, *args, **kwargs):
        try:
            return view(request, token, *args, **kwargs)
        except TooMany:
            return HttpResponse("Too many requests from this table's link: wait a minute.", status=429)

    wrapped.__name__ = view.__name__
    return wrapped


def _drawn_for(request) -> int:
    """The game a phone's form was drawn for (0 for a form that does not say: it is refused as out of date)."""
    return posted_number(request, "game") or 0


def _urls(link: TableLink) -> dict[str, str]:
    return {
        "base": reverse("scoring:link_hands", args=[link.token]),
        "add": reverse("scoring:link_hand_add", args=[link.token]),
        "undo": reverse("scoring:link_hand_undo", args=[link.token]),
        "finish": reverse("scoring:link_finish", args=[link.token]),
        "back": reverse("scoring:table_link", args=[link.token]),
    }


def _page(request, link: TableLink, round_: Round | None, *, poll: bool = False, seats=None, **extra):
    """The table's page for `round_`; `seats`, the table's players in that game when the caller has read them (a
    score does not change who sits where)."""
    if round_ is not None and request.method == "POST":
        round_.refresh_from_db()  # the score may have moved the game (the last table in closes it)
    if seats is None:
        seats = _seats(round_, link.table) if round_ else {}
    three = is_three(seats)  # a table of three: each player's own points
    result = TableResult.objects.filter(round=round_, table=link.table).first() if round_ else None
    entries = list(Submission.objects.filter(round=round_, table=link.table)) if round_ else []
    waiting = [s for s in entries if s.status in (Submission.Status.DRAFT, Submission.Status.DISPUTED)]
    context = {
        "link": link,
        "night": link.night,
        "round": round_,
        "seats": seats,
        "three": three,
        "three_score": selectors.three_score(seats, result),
        "three_winner": seats.get(result.winner, "") if result else "",
        # At a table of three each entry is one player's: who typed it, and the three scores by name.
        "draft_line": next((_said(seats, s, "entered") for s in waiting if s.status == Submission.Status.DRAFT), ""),
        "disputed_lines": [_said(seats, s, "says") for s in waiting if s.status == Submission.Status.DISPUTED],
        "result": result,
        "draft": next((s for s in waiting if s.status == Submission.Status.DRAFT), None),
        "disputed": [s for s in waiting if s.status == Submission.Status.DISPUTED],
        "form": extra.pop("form", None)
        or TableScoreForm(
            initial={"key": Submission.new_key()}, confirm=link.night.confirm_results, three=seats if three else None
        ),
        "confirm_form": extra.pop("confirm_form", None) or ConfirmForm(),
        # The table's codes refused for the rest of the game: said when the page is drawn, not only at a save.
        "codes_locked": CodeMiss.LOCKED
        if round_ is not None and round_.open and link.night.confirm_results and CodeMiss.locked(round_.pk, link.table)
        else "",
        # the stamp of the rows read above (the night first), not read again: it is the stamp of what is shown
        "stamp": selectors.table_stamp_of(link.night, round_.pk if round_ else None, result, entries),
        "oob": poll,  # a poll's answer replaces the entry as a twin; every htmx answer brings the poller
        "poll_oob": True,
        **extra,
    }
    template = f"{TEMPLATE}#live" if request.htmx else TEMPLATE
    return TemplateResponse(request, template, context)


@_limited
def table_link(request, token: str):
    """The table's page; its poll (`?since=`) answers 204 while nothing changed at the table.

    A poll after a move (the game closed, the next one seated) is drawn from the night's reading shared by all its
    table phones (`table_room`: the night, the game shown and every table's seats, read once per move), not from
    readings of its own: every table of the night asks within a few seconds of the move."""
    if not _polled(request):
        link = _link(token)
        return _page(request, link, _current(link))
    polled = _poll_stamp(request, token)
    if polled is not None and polled[1] == request.GET.get("since"):
        return HttpResponse(status=204)
    link, room = _at(token, polled)
    seats = dict(room.seats.get(link.table, {})) if room.round is not None else {}
    return _page(request, link, room.round, poll=True, seats=seats)


@_limited
@require_POST
def link_submit(request, token: str):
    link, round_, seats = _resolve(request, token)
    if round_ is not None and _drawn_for(request) != round_.number:
        # The form was drawn for another game (the night moved on while the page was open, kept as typed): refused,
        # and nothing typed on it comes back in this game's form, where one more Save would store it here.
        refused = game.drawn_for_words(round_.number, _drawn_for(request))
        return _page(request, link, round_, seats=seats, refused=refused)
    three = seats if is_three(seats) else None
    form = TableScoreForm(request.POST, confirm=link.night.confirm_results, three=three)
    if form.is_valid() and round_ is not None:
        try:
            game.table_draft_submit(
                round_=round_,
                table=link.table,
                totals=form.totals(),
                code=form.cleaned_data.get("code", ""),
                drawn_for=_drawn_for(request),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return _saved(_page(request, link, round_, seats=seats, saved=True))
    return _page(request, link, round_, seats=seats, form=form)


@_limited
@require_POST
def link_confirm(request, token: str):
    link, round_, seats = _resolve(request, token)
    form = ConfirmForm(request.POST)
    if form.is_valid() and round_ is not None:
        try:
            game.table_draft_confirm(
                round_=round_,
                table=link.table,
                draft_number=form.cleaned_data["draft"],
                code=form.cleaned_data["code"],
                drawn_for=_drawn_for(request),
            )
        except ValidationError as error:
            apply_errors(form, error)
        else:
            return _saved(_page(request, link, round_, seats=seats, saved=True))
    return _page(request, link, round_, seats=seats, confirm_form=form)


def _saved(response):
    """Mark the answer to an action that was stored (a phone sending what it kept offline reads the mark)."""
    response[SAVED] = "1"
    return response


def _said(seats: dict[str, str], entry: Submission, verb: str) -> str:
    """A table of three's entry in words: "Ann Lee entered Ann Lee 5, Bob Ray 3, Cy Orr 2"."""
    return f"{seats.get(entry.side, entry.side)} {verb} {selectors.points_words(seats, entry.seat_points)}"


def _seats(round_: Round, table: int) -> dict[str, str]:
    """A table's players by seat, by the names their night has for them."""
    rows = round_.seatings.filter(table=table).annotate(entry_name=entry_name())
    return dict(rows.values_list("seat", "entry_name"))


def _hand_round(link: TableLink, round_: Round | None) -> Round:
    if round_ is None or not round_.seatings.filter(table=link.table).exists():
        raise Http404("This table has no game to score right now.")
    return round_


@_limited
def link_hands(request, token: str):
    poll = _polled(request)
    if poll and _unchanged(request, token):
        return HttpResponse(status=204)
    link = _link(token, counted=poll)
    round_ = _hand_round(link, _current(link))
    extra = {"table_link": True, "needs_confirmer": link.night.confirm_results}
    draft = Draft.from_query(request.GET)
    return answer(request, round_, link.table, draft, urls=_urls(link), extra=extra, live=poll)


@_limited
@require_POST
def link_hand_add(request, token: str):
    link, round_, _ = _resolve(request, token)
    extra = {"table_link": True, "needs_confirmer": link.night.confirm_results}
    round_ = _hand_round(link, round_)
    drawn_for = _drawn_for(request)
    return record_hand(request, round_, link.table, role="table", urls=_urls(link), extra=extra, drawn_for=drawn_for)


@_limited
@require_POST
def link_hand_undo(request, token: str):
    link, round_, _ = _resolve(request, token)
    extra = {"table_link": True, "needs_confirmer": link.night.confirm_results}
    round_ = _hand_round(link, round_)
    return undo_hand(request, round_, link.table, urls=_urls(link), extra=extra, drawn_for=_drawn_for(request))


@_limited
@require_POST
def link_finish(request, token: str):
    """Game over from the table's phone: with confirmation on, a code from each side of the table."""
    link, round_, _ = _resolve(request, token)
    round_ = _hand_round(link, round_)
    extra = {"table_link": True, "needs_confirmer": link.night.confirm_results}
    form = FinishForm(request.POST)
    # Codes are asked while the game is open; a Game over for a closed game is refused by the service, in words.
    if not link.night.confirm_results or not round_.open or form.is_valid():
        codes = {"NS": form.data.get("ns_code", ""), "EW": form.data.get("ew_code", "")}
        try:
            game.table_finish(
                round_=round_,
                table=link.table,
                codes=codes,
                drawn_for=_drawn_for(request),
                key=posted_key(request),
                **posted_seen(request),
            )
        except ValidationError as error:
            if not any(name != "__all__" for name in getattr(error, "error_dict", {})):
                # Refused for the game (the hands changed, the game is in): said above the panel, since the
                # Game over form may no longer be offered; the codes are typed again.
                return answer(request, round_, link.table, Draft(), " ".join(error.messages), _urls(link), extra)
            apply_errors(form, error)
        else:
            return answer(request, round_, link.table, Draft(), urls=_urls(link), extra=extra)
    round_.refresh_from_db()
    # The form shows its refusals while the game is open; once it is closed (the night over) the panel says them.
    refused = "" if round_.open else " ".join(form.non_field_errors())
    return answer(request, round_, link.table, Draft(), refused, _urls(link), {**extra, "finish_form": form})
