"""PDF downloads: the standings sheet (public) and the tally cards (organizer)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify

from scoring import exports, pdf
from scoring.selectors import game_lines, night_standings

from .. import backup, selectors
from ..models import Night
from ..permissions import organizer_required


def _header(night: Night) -> pdf.SheetHeader:
    return pdf.SheetHeader(
        night=night.name,
        date=f"{night.date:%A} {night.date.day} {night.date:%B %Y}",
        venue=night.venue,
        paper=night.paper,
    )


def _pdf(content: bytes, night: Night, what: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    name = f"{slugify(night.name) or 'night'}-{night.date:%Y-%m-%d}-{what}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def standings_pdf(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _pdf(pdf.standings_pdf(_header(night), night_standings(night)), night, "standings")


@organizer_required
def tally_cards_pdf(request, night_id: int):
    """Tally cards, ?per_page=1, 2 (the default) or 4; ?blank=N for N blank cards to write names on."""
    night = get_object_or_404(Night, pk=night_id)
    per_page = int(request.GET["per_page"]) if request.GET.get("per_page") in {"1", "2", "4"} else 2
    blank = min(int(request.GET["blank"]), 600) if request.GET.get("blank", "").isdigit() else 0
    if blank:
        cards = [pdf.TallyCard("", [], number) for number in range(1, blank + 1)]
    else:
        lines = game_lines(night)
        cards = [
            pdf.TallyCard(entry.player.name, lines.get(entry.player_id, []), entry.player_id)
            for entry in selectors.night_entries(night)
        ]
    content = pdf.tally_cards_pdf(_header(night), cards, night.games, per_page=per_page)
    return _pdf(content, night, "blank-tally-cards" if blank else "tally-cards")


@organizer_required
def table_cards_pdf(request, night_id: int):
    """A card for each table with its number, head or tail, and the QR code of its scoring link."""
    from django.urls import reverse

    from scoring.services import table_links_ensure

    night = get_object_or_404(Night, pk=night_id)
    links = table_links_ensure(night=night)
    count = len(links)
    cards = [
        pdf.TableCard(
            table=link.table,
            label=selectors.table_label(link.table, count).upper() if count > 1 else "",
            url=request.build_absolute_uri(reverse("scoring:table_link", args=[link.token])),
        )
        for link in links
    ]
    return _pdf(pdf.table_cards_pdf(_header(night), cards), night, "table-cards")


def seating_pdf(request, night_id: int):
    """The wall sheet for the latest seated game (public: it is what the room already sees)."""
    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    if current is None:
        return _pdf(pdf.seating_pdf(_header(night), 0, [], []), night, "seating")
    lines = [
        pdf.SeatLine(line.name, f"Table {line.table} · {line.seat_name}" if line.table else "sits out", line.partner)
        for line in selectors.seat_finder(current)
    ]
    tables = [
        pdf.SeatTable(table.number, table.label.lower(), table.seats) for table in selectors.round_view(current).tables
    ]
    return _pdf(pdf.seating_pdf(_header(night), current.number, lines, tables), night, f"seating-game-{current.number}")


def _download(content: bytes, night: Night, what: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(night.name) or "night"}-{night.date:%Y-%m-%d}-{what}"'
    )
    return response


def standings_csv(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(exports.standings_csv(night).encode("utf-8-sig"), night, "standings.csv", "text/csv")


@organizer_required
def hands_csv(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(exports.hands_csv(night).encode("utf-8-sig"), night, "hands.csv", "text/csv")


@organizer_required
def night_backup(request, night_id: int):
    night = get_object_or_404(Night, pk=night_id)
    return _download(backup.night_backup_bytes(night), night, "backup.json", "application/json")


@organizer_required
def score_sheets_pdf(request, night_id: int):
    """A score sheet for each table of the current game, with the table's QR code for phone entry."""
    from django.urls import reverse

    from scoring.services import table_links_ensure

    night = get_object_or_404(Night, pk=night_id)
    current = selectors.current_round(night)
    links = {link.table: link.token for link in table_links_ensure(night=night)}
    sheets = [
        pdf.ScoreSheet(
            table=table.number,
            label=table.label.lower(),
            game=current.number,
            seats=table.seats,
            url=request.build_absolute_uri(reverse("scoring:table_link", args=[links[table.number]])),
        )
        for table in (selectors.round_view(current).tables if current else [])
        if table.number in links
    ]
    game = current.number if current else 0
    return _pdf(pdf.score_sheets_pdf(_header(night), sheets, night.hands_per_game), night, f"score-sheets-game-{game}")
