"""What goes on the tables: a card with the table's number and QR code, and the score sheet for a game."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import (
    Flowable,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scoring.seats import is_three

from ..qr import draw_qr
from .common import (
    BOLD,
    FONT,
    PAGE_SIZES,
    SheetHeader,
    escape,
    grid_style,
    page_doc,
    register_fonts,
    sheet_styles,
    unbroken,
)


@dataclass(frozen=True)
class TableCard:
    table: int
    label: str  # "HEAD TABLE", "TAIL TABLE" or ""
    url: str  # the table's scoring link, printed and as a QR code


def table_cards_pdf(header: SheetHeader, cards: Sequence[TableCard]) -> bytes:
    """One card a page, to stand on the table: a big number, head or tail table, and the scoring QR code."""
    register_fonts()
    buffer = io.BytesIO()
    width, height = PAGE_SIZES[header.paper]
    page = pdf_canvas.Canvas(buffer, pagesize=(width, height), invariant=1)
    page.setTitle(f"Table cards — {header.night}")
    page.setAuthor("Head Table")
    page.setCreator("Head Table")
    page.setProducer("Head Table")
    for card in cards:
        page.setFont(BOLD, 30)
        page.drawCentredString(width / 2, height - 30 * mm, "TABLE")
        page.setFont(BOLD, 220)
        page.drawCentredString(width / 2, height - 110 * mm, str(card.table))
        if card.label:
            page.setFillColor(colors.HexColor("#0b5cad"))
            page.roundRect(width / 2 - 65 * mm, height - 140 * mm, 130 * mm, 20 * mm, 4 * mm, fill=1, stroke=0)
            page.setFillColor(colors.white)
            page.setFont(BOLD, 30)
            page.drawCentredString(width / 2, height - 133 * mm, card.label)
            page.setFillColor(colors.black)
        size = 70 * mm
        draw_qr(page, card.url, (width - size) / 2, 45 * mm, size)
        page.setFont(FONT, 12)
        page.drawCentredString(width / 2, 37 * mm, "Scan to enter this table's score")
        page.setFont(FONT, 9)
        page.drawCentredString(width / 2, 31 * mm, card.url)
        page.drawCentredString(width / 2, 20 * mm, f"{header.night} · {header.subtitle}")
        page.showPage()
    if not cards:
        page.setFont(FONT, 12)
        page.drawString(20 * mm, height - 30 * mm, "The table cards are ready once the seating is drawn.")
        page.showPage()
    page.save()
    return buffer.getvalue()


@dataclass(frozen=True)
class ScoreSheet:
    table: int
    label: str  # "head table", "tail table" or ""
    game: int
    seats: dict[str, str]  # seat -> name
    url: str  # the table's scoring link, as a QR code for phone entry


def score_sheets_pdf(header: SheetHeader, sheets: Sequence[ScoreSheet], rows: int) -> bytes:
    """One sheet a table for a game: who sits where, `rows` rows for hands, totals, signatures, the scoring QR
    code."""

    class QrCode(Flowable):
        def __init__(self, url: str, size: float):
            super().__init__()
            self.url, self.size = url, size
            self.width = self.height = size

        def draw(self):
            draw_qr(self.canv, self.url, 0, 0, self.size)

    styles = sheet_styles()
    buffer = io.BytesIO()
    margin = 14 * mm
    doc = page_doc(buffer, header, "Score sheets", margin)
    story: list = []
    for index, sheet in enumerate(sheets):
        title = f"Table {sheet.table}{' — ' + sheet.label.upper() if sheet.label else ''} · game {sheet.game}"
        three = is_three(sheet.seats)  # a table of three: each player for themselves
        if three:
            names = [sheet.seats.get(seat, "") for seat in ("N", "E", "S")]
            seats = Table(
                [["Three", *(f"{seat}: {name}" for seat, name in zip("NES", names, strict=True))]],
                colWidths=[18 * mm, *[(doc.width - 18 * mm) / 3] * 3],
            )
        else:
            seats = Table(
                [
                    ["N–S", f"N: {sheet.seats.get('N', '')}", f"S: {sheet.seats.get('S', '')}"],
                    ["E–W", f"E: {sheet.seats.get('E', '')}", f"W: {sheet.seats.get('W', '')}"],
                ],
                colWidths=[18 * mm, (doc.width - 18 * mm) / 2, (doc.width - 18 * mm) / 2],
            )
        seats.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("FONTNAME", (0, 0), (0, -1), BOLD),
                    ("FONTSIZE", (0, 0), (-1, -1), 12),
                    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
                    ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#e8eef5")),
                ]
            )
        )
        head = Table(
            [[Paragraph(escape(title), styles["title"]), QrCode(sheet.url, 28 * mm)]], colWidths=[None, 30 * mm]
        )
        head.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
        if three:  # the caller's tricks, and each player's points: first names head their columns
            grid = [
                ["Hand", "Dealer", "Caller", "Alone", "Tricks", *(name.split()[0] if name else "" for name in names)]
            ]
            widths = [16 * mm, 18 * mm, None, 16 * mm, 16 * mm, 22 * mm, 22 * mm, 22 * mm]
        else:
            grid = [["Hand", "Dealer", "Makers (N–S / E–W)", "Alone", "Tricks", "N–S", "E–W"]]
            widths = [16 * mm, 18 * mm, None, 16 * mm, 16 * mm, 20 * mm, 20 * mm]
        grid += [[str(n)] + [""] * (len(widths) - 1) for n in range(1, rows + 1)]
        grid += [["Total"] + [""] * (len(widths) - 1)]
        hand_table = Table(
            grid,
            colWidths=widths,
            rowHeights=min(9 * mm, 150 * mm / len(grid)),  # a long game's rows closer, on one page
        )
        hand_table.setStyle(
            TableStyle([*grid_style(), ("FONTNAME", (0, -1), (-1, -1), BOLD), ("ALIGN", (0, 0), (-1, -1), "CENTER")])
        )
        signed = (
            ["Signed: ______________"] * 3
            if three
            else ["Signed for N–S: ____________________", "Signed for E–W: ____________________"]
        )
        signatures = Table([signed], colWidths=[None] * len(signed))
        signatures.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 10)]))
        story += [
            head,
            Paragraph(
                f"{escape(header.night)} · {escape(header.subtitle)} · {unbroken(header.game_end)} · "
                + (
                    "three-handed: the caller plays alone against the other two, 1 point for 3 or 4 tricks, 2 for "
                    "all five, 4 alone; a euchred caller gives each of the others 2; bring this sheet to the keeper"
                    if three
                    else "scan the code to enter the score by phone"
                ),
                styles["sub"],
            ),
            Spacer(1, 3 * mm),
            seats,
            Spacer(1, 4 * mm),
            hand_table,
            Spacer(1, 8 * mm),
            signatures,
        ]
        if index + 1 < len(sheets):
            story.append(PageBreak())
    if not story:
        story.append(Paragraph("The score sheets are ready once the seating is drawn.", styles["body"]))
    doc.build(story)
    return buffer.getvalue()
