"""PDF downloads: the standings sheet (public) and the tally cards (organizer)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify

from scoring import pdf
from scoring.selectors import game_lines, night_standings

from .. import selectors
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
    night = get_object_or_404(Night, pk=night_id)
    lines = game_lines(night)
    cards = [
        pdf.TallyCard(entry.player.name, lines.get(entry.player_id, []), entry.player_id)
        for entry in selectors.night_entries(night)
    ]
    return _pdf(pdf.tally_cards_pdf(_header(night), cards, night.games), night, "tally-cards")


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
