"""The score keeper's desk: every table of a game on one screen, typed in from paper with the keyboard alone.

Also the table links and their QR codes (organizer), and a table's history of entries (keeper).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.models import Submission, TableLink, TableResult
from scoring.seats import HEAD_TABLE
from tournament.forms import apply_errors
from tournament.models import Night, Round
from tournament.permissions import keeper_required, organizer_required

from .. import game, selectors, services
from ..addresses import phone_address
from ..score_forms import DeskForm
from ..selectors import DeskState, desk_rows
from ..selectors import table_history as history_of
from ..sheets.qr import qr_svg
from .context import result_points

TEMPLATE = "scoring/keeper_desk.html"


def _role(user) -> str:
    return Submission.Role.ORGANIZER if user.is_staff else Submission.Role.KEEPER


def _form(row, round_: Round, data=None) -> DeskForm:
    result = row.result
    initial = {"key": Submission.new_key(), "version": result.version if result else None}
    if result is not None and result.entry == TableResult.Entry.TOTALS:
        initial.update(result_points(result))
    elif row.waiting:  # what the table typed, for the keeper to check and save
        initial.update(result_points(row.waiting[-1]))
    closed = round_.status == Round.Status.CLOSED
    cut_short = _cut_short(round_) if row.table == HEAD_TABLE else None
    if cut_short is not None and result is not None and result.entry == TableResult.Entry.TOTALS:
        initial["hands_played"] = result.hands_played
    return DeskForm(
        data=data, initial=initial, prefix=f"t{row.table}", closed=closed, three=row.three, cut_short=cut_short
    )


def _cut_short(round_: Round) -> int | None:
    """The head table's hands a game, when this game's bell rang before the head table's last hand (the organizer's
    button, the timer): the head table's slip then says how many hands it played. None otherwise."""
    night = round_.night
    return night.hands_per_game if round_.head_table_cut_short(night) else None


def _round(night: Night, number: str | int | None) -> Round | None:
    """The game asked for (a game number; anything else means the current game), or the current one."""
    rounds = night.rounds.order_by("-number")
    if isinstance(number, str):
        number = int(number) if number.isdecimal() and len(number) < 6 else None
    if number:
        return rounds.filter(number=number).first() or next((r for r in rounds if r.open), None) or rounds.first()
    return next((r for r in rounds if r.open), None) or rounds.first()


def _desk(night: Night, round_: Round | None, *, only: set[int] | None = None, **extra) -> dict:
    """Everything the desk shows for one game (`only`: the rows of these tables), with the stamps its live poll
    starts from."""
    rows = desk_rows(round_) if round_ else []
    return {
        "night": night,
        "round": round_,
        "current": selectors.current_round(night),
        "stamp": selectors.night_stamp(night.pk, moved=False),
        "moved": selectors.night_stamp(night.pk),
        "rows": [(row, _form(row, round_)) for row in rows if only is None or row.table in only] if round_ else [],
        "missing": [row.table for row in rows if row.status != DeskState.IN],
        "games": list(night.rounds.order_by("number").values_list("number", flat=True)),
        "cut_short": _cut_short(round_) if round_ else None,
        "last_game": bool(
            round_ and round_.is_last(night)
        ),  # its Close finishes the night: said, and not one Enter away
        **extra,
    }


@keeper_required
def keeper_desk(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return TemplateResponse(request, TEMPLATE, _desk(night, _round(night, request.GET.get("game"))))


@keeper_required
def desk_live(request, night_id: int, number: int):
    """The desk's poll: 204 while nothing changed; after a score, the bar and the rows of the tables that changed;
    after the game moved, every row (a closed game's rows become correction forms). Each part replaces its twin,
    except a row the keeper is typing in, which the page keeps as it is."""
    since = request.GET.get("since")
    if since == selectors.night_stamp(night_id, moved=False):
        return HttpResponse(status=204)
    night = get_object_or_404(Night, pk=night_id)
    round_ = get_object_or_404(Round, night=night, number=number)
    moved = request.GET.get("moved") != selectors.night_stamp(night_id)
    changed = None if moved else selectors.tables_changed_since(round_, since)
    context = _desk(night, round_, only=changed, oob=True, whole=changed is None)
    return TemplateResponse(request, f"{TEMPLATE}#live", context)


@keeper_required
@require_POST
def desk_save(request, night_id: int, number: int, table: int):
    round_ = get_object_or_404(Round.objects.select_related("night"), night_id=night_id, number=number)
    night = round_.night
    row = next(iter(desk_rows(round_, table=table)), None)
    if row is None:
        return HttpResponse(status=404)
    form = _form(row, round_, data=request.POST)
    saved = False
    if form.is_valid():
        try:
            game.table_result_submit(
                round_=round_, table=table, totals=form.totals(), user=request.user, role=_role(request.user)
            )
            saved = True
        except ValidationError as error:
            apply_errors(form, error)
    if not request.htmx and saved:
        return redirect(f"{reverse('scoring:keeper_desk', args=[night.pk])}?game={number}")
    round_ = Round.objects.select_related("night").get(pk=round_.pk)  # the save may have moved the game on
    night = round_.night
    if not request.htmx:  # refused: the whole desk again, this row's form as typed with the refusal beside it
        context = _desk(night, round_)
        context["rows"] = [(r, form if r.table == table else f) for r, f in context["rows"]]
        return TemplateResponse(request, TEMPLATE, context)
    (row,) = desk_rows(round_, table=table, seats=row.seats)
    if saved:
        form = _form(row, round_)
    context = {"night": night, "round": round_, "row": row, "form": form, "saved": saved}
    response = TemplateResponse(request, f"{TEMPLATE}#row", context)
    if saved:  # the desk's poll asks now: the bar's "Waiting for tables …" follows the save, not 3 s later
        response["HX-Trigger"] = "desk-saved"
    return response


@keeper_required
def table_history(request, night_id: int, number: int, table: int):
    round_ = get_object_or_404(Round.objects.select_related("night"), night_id=night_id, number=number)
    context = {
        "night": round_.night,
        "round": round_,
        "table": table,
        "entries": history_of(round_, table),
        "result": selectors.table_result(round_, table),
    }
    return TemplateResponse(request, "scoring/table_history.html", context)


@organizer_required
def table_links(request, night_id: int):
    """Every table's link and QR code. Reading only: the seating makes the links; a POST makes any that are missing
    (a night seated before the seating made them)."""
    night = get_object_or_404(Night, pk=night_id)
    if request.method == "POST":
        services.table_links_ensure(night=night)
        return redirect("scoring:table_links", night.pk)
    links = selectors.table_links(night)
    phones = phone_address(request)
    rows = [(link, phones.of(reverse("scoring:table_link", args=[link.token]))) for link in links]
    context = {
        "night": night,
        "rows": rows,
        "missing": selectors.tables_without_links(night),
        "phones": phones,
        "opened_at": request.build_absolute_uri("/"),
        "public_url": phones.of(reverse("tournament:public_night", args=[night.pk])),
    }
    return TemplateResponse(request, "scoring/table_links.html", context)


@organizer_required
def table_qr(request, night_id: int, table: int):
    link = get_object_or_404(TableLink, night_id=night_id, table=table, active=True)
    url = phone_address(request).of(reverse("scoring:table_link", args=[link.token]))
    return HttpResponse(qr_svg(url, size=200), content_type="image/svg+xml")


@organizer_required
def phone_qr(request, night_id: int):
    """The night's public page at the address phones use: a code to try with a phone before printing."""
    night = get_object_or_404(Night, pk=night_id)
    url = phone_address(request).of(reverse("tournament:public_night", args=[night.pk]))
    return HttpResponse(qr_svg(url, size=200), content_type="image/svg+xml")


@organizer_required
@require_POST
def link_regenerate(request, night_id: int, table: int):
    night = get_object_or_404(Night, pk=night_id)
    services.table_link_regenerate(night=night, table=table)
    return redirect("scoring:table_links", night.pk)


@keeper_required
@require_POST
def desk_close(request, night_id: int, number: int):
    """Close the game from the desk once every table is in; the desk then shows the next game."""
    round_ = get_object_or_404(Round, night_id=night_id, number=number)
    try:
        game.round_close(round_=round_, by=request.user, drawn_from=request.POST.get("seen"))
    except ValidationError as error:
        return TemplateResponse(request, TEMPLATE, _desk(round_.night, round_, close_errors=error.messages))
    return redirect("scoring:keeper_desk", night_id)
