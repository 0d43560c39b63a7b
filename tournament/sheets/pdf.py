"""Printed sheets for a night: the final standings and the players' tally cards. Data in, PDF bytes out.

Every figure comes from tournament.selectors, the same functions the pages use. Output is deterministic (ReportLab's
invariant mode, fixed metadata) so the same data always gives the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from scoring.seats import SEAT_NAMES

from ..selectors import GameLine, NightStandings
from .pdfgrid import Fit, Grid, line_height
from .qr import draw_qr

FONT_DIR = Path(__file__).resolve().parents[2] / "static" / "fonts"
FONT, BOLD = "HeadTable", "HeadTable-Bold"
PAGE_SIZES = {"letter": LETTER, "a4": A4}


def _register_fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))
        pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def _styles() -> dict[str, ParagraphStyle]:
    _register_fonts()
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=18, leading=22, spaceAfter=2),
        "sub": ParagraphStyle("sub", fontName=FONT, fontSize=10, leading=13, textColor=colors.HexColor("#444444")),
        "body": ParagraphStyle("body", fontName=FONT, fontSize=10, leading=13),
        "prize": ParagraphStyle("prize", fontName=BOLD, fontSize=12, leading=16),
        "card": ParagraphStyle("card", fontName=BOLD, fontSize=16, leading=19),
    }


@dataclass(frozen=True)
class SheetHeader:
    night: str
    date: str
    venue: str
    paper: str  # "letter" or "a4"

    @property
    def subtitle(self) -> str:
        return " · ".join(part for part in (self.date, self.venue) if part)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _grid(header_rows: int = 1) -> list[tuple]:
    return [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), BOLD),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#e8eef5")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
    ]


def _document(buffer: io.BytesIO, header: SheetHeader, title: str, **kwargs) -> dict:
    return {
        "pagesize": PAGE_SIZES[header.paper],
        "title": f"{title} — {header.night}",
        "author": "Head Table",
        "creator": "Head Table",
        "producer": "Head Table",
        "subject": header.subtitle,
        "invariant": 1,
        **kwargs,
    }


def _page_doc(buffer: io.BytesIO, header: SheetHeader, title: str, margin: float) -> SimpleDocTemplate:
    """A plain flowing document on the night's paper, the same margin all round."""
    return SimpleDocTemplate(
        buffer,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        **_document(buffer, header, title),
    )


def standings_pdf(header: SheetHeader, standings: NightStandings) -> bytes:
    """The final standings: prizes at the top, then every player with total, wins and each game's score."""
    styles = _styles()
    buffer = io.BytesIO()
    margin = 14 * mm
    doc = _page_doc(buffer, header, "Standings", margin)
    story: list = [
        Paragraph(_escape(header.night), styles["title"]),
        Paragraph(_escape(f"Standings after {standings.rounds_closed} game(s) · {header.subtitle}"), styles["sub"]),
        Spacer(1, 4 * mm),
    ]
    if standings.awards:
        for award in standings.awards:
            tie = " (tie)" if award.tie else ""
            line = f"{award.prize}: {' and '.join(award.names)}{tie} — {award.value}"
            story.append(Paragraph(_escape(line), styles["prize"]))
        story.append(Spacer(1, 3 * mm))
    elif standings.high:
        high = ", ".join(row.name for row in standings.high)
        low = ", ".join(row.name for row in standings.low)
        story += [
            Paragraph(_escape(f"High score: {high} — {standings.high[0].total} points"), styles["prize"]),
            Paragraph(_escape(f"Low score: {low} — {standings.low[0].total} points"), styles["prize"]),
            Spacer(1, 3 * mm),
        ]
    games = standings.rounds_closed
    usable = doc.width
    fixed = [12 * mm, 0, 14 * mm, 12 * mm, 14 * mm]
    per_game = min(9 * mm, (usable - 100 * mm) / games) if games else 0
    labels = [f"G{n}" for n in range(1, games + 1)]
    game_size, game_pad = 9.0, 6.0
    if games and per_game < pdfmetrics.stringWidth(labels[-1], BOLD, 9) + 2 * game_pad:
        # Many games (a long rotation night): the name column gives way down to a floor, the game columns lose
        # most of their padding, head them with the bare number if "G23" would not fit, and the type shrinks to fit.
        game_pad = 1.5
        per_game = max(per_game, min(9 * mm, (usable - sum(fixed) - 34 * mm) / games))
        room = per_game - 2 * game_pad
        if pdfmetrics.stringWidth(labels[-1], BOLD, 7) > room:
            labels = [str(n) for n in range(1, games + 1)]
        widest = max(pdfmetrics.stringWidth(labels[-1], BOLD, 1), pdfmetrics.stringWidth("88", FONT, 1))
        game_size = min(9.0, math.floor(room / widest * 4) / 4)
    head = ["Rank", "Name", "Total", "Wins", "Loners", *labels]
    rows = [head] + [
        [
            row.rank_label,
            Paragraph(_escape(row.name), styles["body"]),
            str(row.total),
            str(row.wins),
            str(row.loners_made),
            *["" if points is None else str(points) for points in row.per_round],
        ]
        for row in standings.rows
    ]
    fixed[1] = usable - sum(fixed) - per_game * games
    table = Table(rows, colWidths=[*fixed, *([per_game] * games)], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                *_grid(),
                ("FONTNAME", (2, 1), (2, -1), BOLD),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
                *(
                    [
                        ("FONTSIZE", (5, 0), (-1, -1), game_size),
                        ("LEFTPADDING", (5, 0), (-1, -1), game_pad),
                        ("RIGHTPADDING", (5, 0), (-1, -1), game_pad),
                    ]
                    if game_size < 9 or game_pad < 6
                    else []
                ),
            ]
        )
    )
    story += [
        table,
        Spacer(1, 3 * mm),
        Paragraph(_escape("Ties are broken by: " + ", then ".join(standings.chain) + "."), styles["sub"]),
    ]
    doc.build(story)
    return buffer.getvalue()


def initials(name: str) -> str:
    """ "Łukasz Żółć" -> "ŁŻ", "Ann B." -> "AB", "Cher" -> "C": what an opponent writes to agree a score."""
    words = [word for word in name.replace(".", " ").split() if word[0].isalnum()]
    if not words:
        return ""
    return (words[0][0] + (words[-1][0] if len(words) > 1 else "")).upper()


def _loners(made: int, tried: int) -> str:
    """Loners made, and tried when some failed: "1", "1/2"."""
    if not tried:
        return ""
    return str(made) if made == tried else f"{made}/{tried}"


@dataclass(frozen=True)
class TallyCard:
    name: str
    lines: Sequence[GameLine]
    number: int | None = None  # the player's number: confirms scores at the table and finds their page


# Cards a page -> (columns, rows) of the page's grid.
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2)}


def _card_doc(
    buffer: io.BytesIO, header: SheetHeader, per_page: int, title: str
) -> tuple[BaseDocTemplate, float, float]:
    """A document of cards 1, 2 or 4 a page with dashed cut lines between them; returns it and the width and height
    a card's contents have (its frame less the frame's padding)."""
    width, height = PAGE_SIZES[header.paper]
    margin = 10 * mm
    columns, rows_on_page = LAYOUTS[per_page]
    cell_w = (width - 2 * margin) / columns
    cell_h = (height - 2 * margin) / rows_on_page
    gap = 4 * mm if per_page == 4 else 0
    pad = 6  # ReportLab's usual frame padding, said here so the card's inner size can be worked out
    frames = [
        Frame(
            margin + c * cell_w + gap / 2,
            margin + r * cell_h,
            cell_w - gap,
            cell_h,
            leftPadding=pad,
            rightPadding=pad,
            topPadding=pad,
            bottomPadding=pad,
            id=f"c{r}{c}",
            showBoundary=0,
        )
        for r in reversed(range(rows_on_page))
        for c in range(columns)
    ]

    def cut_line(canvas, _doc):
        canvas.saveState()
        canvas.setDash(3, 3)
        canvas.setStrokeColor(colors.HexColor("#bbbbbb"))
        for r in range(1, rows_on_page):
            canvas.line(margin, margin + r * cell_h, width - margin, margin + r * cell_h)
        for c in range(1, columns):
            canvas.line(margin + c * cell_w, margin, margin + c * cell_w, height - margin)
        canvas.restoreState()

    doc = BaseDocTemplate(buffer, **_document(buffer, header, title))
    doc.addPageTemplates([PageTemplate(id="cards", frames=frames, onPage=cut_line)])
    return doc, cell_w - gap - 2 * pad, cell_h - 2 * pad


def tally_cards_pdf(
    header: SheetHeader, cards: Sequence[TallyCard], games: int, per_page: int = 2, progress=None
) -> bytes:
    """Tally cards 1, 2 or 4 a page: a row per game with table, seat, partner, score, won, loners, euchres, a box
    for an opponent's initials (the opponents' own, once the game is played) and the running total.

    A card with no name is a blank card for a night where names are written in by hand. `progress(done, total)`
    is told, every 25 cards, how far the build has come.
    """
    styles = _styles()
    buffer = io.BytesIO()
    doc, card_w, card_h = _card_doc(buffer, header, per_page, "Tally cards")
    small = per_page == 4
    size = 7 if small else 9
    if small:  # a quarter card: the name and the night's line smaller, so each stays on as few lines as it can
        title_style = ParagraphStyle("card-small", parent=styles["card"], fontSize=13, leading=16)
        sub_style = ParagraphStyle("sub-small", parent=styles["sub"], fontSize=8.5, leading=11)
        widths = [11 * mm, 11 * mm, None, 11 * mm, 10 * mm, 13 * mm, 11 * mm]
        align = ["left", "left", "left", "center", "center", "center", "center"]
    else:
        title_style, sub_style = styles["card"], styles["sub"]
        widths = [13 * mm, 13 * mm, 11 * mm, None, 15 * mm, 12 * mm, 16 * mm, 16 * mm, 18 * mm, 15 * mm]
        align = ["left", "left", "center", "left", "center", "center", "center", "center", "center", "center"]
    widths = [width or card_w - sum(width for width in widths if width) for width in widths]
    head_align = ["left", "left"] + ["center"] * (len(widths) - 2)
    subtitle = _escape(f"{header.night} · {header.subtitle}")
    sub_h = Paragraph(subtitle, sub_style).wrap(card_w, card_h)[1]
    story: list = []
    for index, card in enumerate(cards):
        by_round = {line.round: line for line in card.lines}
        # "Initials": an opponent initials the score at the table; a card printed after the game shows theirs.
        rows: list[list] = [
            ["Game", "Table", "Seat", "Partner", "Score", "Won", "Loners", "Euchres", "Initials", "Total"]
        ]
        for number in range(1, games + 1):
            line = by_round.get(number)
            if line is not None and line.bye:
                rows.append([str(number), "bye", "", "", str(line.points), "", "", "", "", str(line.running_total)])
                continue
            rows.append(
                [str(number)]
                + (
                    [
                        str(line.table),
                        line.seat,
                        Fit(line.partner, 6 if small else 8, size if small else 10),
                        str(line.tally),
                        "✓" if line.won else "",
                        _loners(line.extras.loners_made, line.extras.loners_tried),
                        str(line.extras.euchres or ""),
                        Fit(" ".join(initials(name) for name in line.opponents), 6),
                        str(line.running_total),
                    ]
                    if line
                    else [""] * 9
                )
            )
        total = card.lines[-1].running_total if card.lines else 0
        wins = sum(1 for line in card.lines if line.won)
        made = sum(line.extras.loners_made for line in card.lines)
        tried = sum(line.extras.loners_tried for line in card.lines)
        euchres = sum(line.extras.euchres for line in card.lines)
        if card.lines or card.name:
            rows.append(
                ["Total", "", "", "", str(total), str(wins), _loners(made, tried), str(euchres), "", str(total)]
            )
        else:  # a blank card: the player adds it up
            rows.append(["Total", "", "", "", "", "", "", "", "", ""])
        if small:  # a quarter page: the columns a player fills in by hand, smaller
            rows = [[row[0], row[1], row[3], row[4], row[5], row[8], row[9]] for row in rows]
            rows[0][5] = "Opp."
        name = card.name or "Name: ______________________"
        title = Paragraph(_escape(name + (f"  ·  No. {card.number}" if card.number is not None else "")), title_style)
        # The rows share what the card has left once its heading and the grid's head row are set, so the whole card
        # stays in its own box however the name wraps (the head row: a line of type and its padding).
        head_h = line_height(size)
        left = card_h - title.wrap(card_w, card_h)[1] - sub_h - 3 * mm - head_h - 2
        table = Grid(
            rows,
            widths,
            [head_h] + [min(9 * mm, left / (games + 1))] * (games + 1),
            font=FONT,
            bold=BOLD,
            size=size,
            align=align,
            head_align=head_align,
            bold_rows=[-1],
        )
        story.append(KeepTogether([title, Paragraph(subtitle, sub_style), Spacer(1, 3 * mm), table]))
        if index + 1 < len(cards):
            story.append(FrameBreak())
    if not story:
        story.append(Paragraph("No players registered.", styles["body"]))
    if progress is not None:
        # ReportLab reports the flowables it lays out; each card is one KeepTogether and one FrameBreak.
        def report(kind: str, value: int) -> None:
            if kind == "PROGRESS" and value % 50 == 0:
                progress(min(len(cards), value // 2), len(cards))

        doc.setProgressCallBack(report)
    doc.build(story)
    return buffer.getvalue()


@dataclass(frozen=True)
class TableCard:
    table: int
    label: str  # "HEAD TABLE", "TAIL TABLE" or ""
    url: str  # the table's scoring link, printed and as a QR code


def table_cards_pdf(header: SheetHeader, cards: Sequence[TableCard]) -> bytes:
    """One card a page, to stand on the table: a big number, head or tail table, and the scoring QR code."""
    _register_fonts()
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
class SeatLine:
    name: str
    where: str  # "Table 3 · North" or "sits out"
    partner: str


@dataclass(frozen=True)
class SeatTable:
    table: int
    label: str
    seats: dict[str, str]  # seat -> name


def seating_pdf(header: SheetHeader, game: int, lines: Sequence[SeatLine], tables: Sequence[SeatTable]) -> bytes:
    """The wall sheet for one game: everyone alphabetically with table and seat, then the tables one by one."""
    styles = _styles()
    buffer = io.BytesIO()
    margin = 12 * mm
    doc = _page_doc(buffer, header, f"Seating for game {game}", margin)
    story: list = [
        Paragraph(_escape(f"{header.night} — where to sit for game {game}"), styles["title"]),
        Paragraph(_escape(header.subtitle), styles["sub"]),
        Spacer(1, 4 * mm),
    ]
    usable = doc.width
    # Two columns read down then across, a page at a time, so the alphabet never jumps between pages.
    per_column = 38
    for start in range(0, len(lines), 2 * per_column):
        chunk = list(lines[start : start + 2 * per_column])
        left, right = chunk[:per_column], chunk[per_column:]
        rows = [["Name", "Where", "", "Name", "Where"]]
        for index, a in enumerate(left):
            b = right[index] if index < len(right) else None
            rows.append(
                [
                    Paragraph(_escape(a.name), styles["body"]),
                    a.where,
                    "",
                    Paragraph(_escape(b.name), styles["body"]) if b else "",
                    b.where if b else "",
                ]
            )
        finder = Table(rows, colWidths=[usable * 0.3, usable * 0.17, usable * 0.06, usable * 0.3, usable * 0.17])
        finder.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("FONTNAME", (0, 0), (-1, 0), BOLD),
                    ("FONTNAME", (1, 1), (1, -1), BOLD),
                    ("FONTNAME", (4, 1), (4, -1), BOLD),
                    ("FONTSIZE", (0, 0), (-1, -1), 10),
                    ("LINEBELOW", (0, 0), (1, -1), 0.3, colors.HexColor("#bbbbbb")),
                    ("LINEBELOW", (3, 0), (4, -1), 0.3, colors.HexColor("#bbbbbb")),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        story.append(finder)
        if start + 2 * per_column < len(lines):
            story.append(PageBreak())
    story += [PageBreak(), Paragraph("Table by table", styles["prize"]), Spacer(1, 2 * mm)]
    grid = [["Table", "North", "South", "East", "West"]] + [
        [
            f"{t.table}{' ' + t.label if t.label else ''}",
            *[Paragraph(_escape(t.seats.get(seat, "")), styles["body"]) for seat in ("N", "S", "E", "W")],
        ]
        for t in tables
    ]
    by_table = Table(grid, colWidths=[usable * 0.16] + [usable * 0.21] * 4, repeatRows=1)
    by_table.setStyle(TableStyle(_grid()))
    story.append(by_table)
    doc.build(story)
    return buffer.getvalue()


@dataclass(frozen=True)
class ScoreSheet:
    table: int
    label: str  # "head table", "tail table" or ""
    game: int
    seats: dict[str, str]  # seat -> name
    url: str  # the table's scoring link, as a QR code for phone entry


def score_sheets_pdf(header: SheetHeader, sheets: Sequence[ScoreSheet], hands: int) -> bytes:
    """One sheet a table for a game: who sits where, a row per hand, totals, signatures, the scoring QR code."""

    class QrCode(Flowable):
        def __init__(self, url: str, size: float):
            super().__init__()
            self.url, self.size = url, size
            self.width = self.height = size

        def draw(self):
            draw_qr(self.canv, self.url, 0, 0, self.size)

    styles = _styles()
    buffer = io.BytesIO()
    margin = 14 * mm
    doc = _page_doc(buffer, header, "Score sheets", margin)
    story: list = []
    for index, sheet in enumerate(sheets):
        title = f"Table {sheet.table}{' — ' + sheet.label.upper() if sheet.label else ''} · game {sheet.game}"
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
            [[Paragraph(_escape(title), styles["title"]), QrCode(sheet.url, 28 * mm)]], colWidths=[None, 30 * mm]
        )
        head.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
        # Two spare rows: tables other than the head table may play on until the bell.
        grid = [["Hand", "Dealer", "Makers (N–S / E–W)", "Alone", "Tricks", "N–S", "E–W"]]
        grid += [[str(n), "", "", "", "", "", ""] for n in range(1, hands + 3)]
        grid += [["Total", "", "", "", "", "", ""]]
        hand_table = Table(
            grid, colWidths=[16 * mm, 18 * mm, None, 16 * mm, 16 * mm, 20 * mm, 20 * mm], rowHeights=9 * mm
        )
        hand_table.setStyle(
            TableStyle([*_grid(), ("FONTNAME", (0, -1), (-1, -1), BOLD), ("ALIGN", (0, 0), (-1, -1), "CENTER")])
        )
        signatures = Table(
            [["Signed for N–S: ____________________", "Signed for E–W: ____________________"]],
            colWidths=[None, None],
        )
        signatures.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 10)]))
        story += [
            head,
            Paragraph(
                _escape(f"{header.night} · {header.subtitle} · scan the code to enter the score by phone"),
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


@dataclass(frozen=True)
class PlanRow:
    """One game on a rotation card, printed in advance. `table` None: the player sits out that game."""

    game: int
    table: int | None
    seat: str
    partner: str
    opponents: str


@dataclass(frozen=True)
class PlanCard:
    number: int
    name: str  # empty: printed before the names are known
    rows: Sequence[PlanRow]


def _numbers_only(text: str) -> str:
    """ "12 Leo B. & 2 Bob M." -> "12 & 2": the numbers of a partner or opponents, for a small card."""
    return " & ".join(part.split()[0] for part in text.split(" & ") if part.split())


def rotation_cards_pdf(header: SheetHeader, cards: Sequence[PlanCard], per_page: int = 2) -> bytes:
    """Rotation-night tally cards: each player's whole night printed in advance (table, seat, partner, opponents,
    sit-outs) with boxes for the scores. Large type: a card is read at arm's length across a busy table."""
    styles = _styles()
    buffer = io.BytesIO()
    doc, card_w, card_h = _card_doc(buffer, header, per_page, "Rotation tally cards")
    small = per_page == 4
    size = 8 if small else 11
    if small:
        widths = [9 * mm, 9 * mm, 7 * mm, None, None, 10 * mm, 10 * mm]
    else:
        widths = [13 * mm, 14 * mm, 15 * mm, None, None, 18 * mm, 18 * mm]
    pad = 3 if small else 6  # a cell's padding left and right in the partner and opponents columns
    rest = (card_w - sum(width for width in widths if width)) / 2
    widths = [width or rest for width in widths]
    subtitle = _escape(f"{header.night} · {header.subtitle}")
    sub_h = Paragraph(subtitle, styles["sub"]).wrap(card_w, card_h)[1]
    story: list = []
    for index, card in enumerate(cards):
        games = max(len(card.rows), 1)
        name = card.name or "Name: ______________________"
        title = Paragraph(_escape(f"No. {card.number}  ·  {name}"), styles["card"])
        # The rows share what is left under the heading and the grid's head row, so the card stays in its box.
        head_h = line_height(size)
        left = card_h - title.wrap(card_w, card_h)[1] - sub_h - 2 * mm - head_h - 2
        row_h = min(11 * mm, left / (games + 1))
        rows: list[list] = [["Game", "Table", "Seat", "Partner", "Opponents", "Score", "Total"]]
        sitting_out = {}
        for row in card.rows:
            if row.table is None:
                sitting_out[len(rows)] = (1, 4)
                rows.append([str(row.game), "sits out this game", "", "", "", "", ""])
            elif small:  # a quarter card: numbers only, so every line stays one line
                partner, opponents = _numbers_only(row.partner), _numbers_only(row.opponents)
                rows.append([str(row.game), str(row.table), row.seat, Fit(partner, 6), Fit(opponents, 6), "", ""])
            else:
                rows.append(
                    [
                        str(row.game),
                        str(row.table),
                        SEAT_NAMES.get(row.seat, row.seat),
                        Fit(row.partner, 8, short=_numbers_only(row.partner)),
                        Fit(row.opponents, 8, short=_numbers_only(row.opponents)),
                        "",
                        "",
                    ]
                )
        rows.append(["Total", "", "", "", "", "", ""])
        table = Grid(
            rows,
            widths,
            [head_h] + [row_h] * (len(rows) - 1),
            font=FONT,
            bold=BOLD,
            size=size,
            align=["center", "center", "center", "left", "left", "center", "center"],
            head_align=["center"] * 7,
            pads=[6, 6, 6, pad, pad, 6, 6],
            bold_rows=[-1],
            bold_columns=[1],
            spans=sitting_out,
        )
        story.append(KeepTogether([title, Paragraph(subtitle, styles["sub"]), Spacer(1, 2 * mm), table]))
        if index + 1 < len(cards):
            story.append(FrameBreak())
    if not story:
        story.append(Paragraph("The chart is not built yet.", styles["body"]))
    doc.build(story)
    return buffer.getvalue()


@dataclass(frozen=True)
class WallGame:
    """One game on the wall chart: each table's four numbers by seat, and who sits out."""

    game: int
    tables: dict[int, dict[str, int]]  # table -> seat -> chart number
    sit_out: Sequence[int]


def wall_chart_pdf(header: SheetHeader, games: Sequence[WallGame], tables: int, note: str = "") -> bytes:
    """The rotation chart for the wall, landscape: a row per game, a column per table (six tables a page across),
    partners printed together, and who sits out."""
    styles = _styles()
    buffer = io.BytesIO()
    margin = 10 * mm
    doc = SimpleDocTemplate(
        buffer,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        **_document(buffer, header, "Rotation chart", pagesize=landscape(PAGE_SIZES[header.paper])),
    )
    # Every game on one page where it fits: the rows shrink (to a floor) as the games grow.
    usable = landscape(PAGE_SIZES[header.paper])[1] - 2 * margin - 32 * mm
    leading = max(9.0, min(16.0, (usable / (len(games) + 1) - 6) / 2))
    big = ParagraphStyle("wall", fontName=BOLD, fontSize=leading - 3, leading=leading, alignment=1)
    per_page = 6
    sit_outs = any(game.sit_out for game in games)
    story: list = []
    for first in range(1, tables + 1, per_page):
        shown = list(range(first, min(first + per_page, tables + 1)))
        last_chunk = shown[-1] == tables
        heading = f"{header.night} — rotation chart"
        if tables > per_page:
            heading += f", tables {shown[0]}–{shown[-1]} of {tables}"
        story += [
            Paragraph(_escape(heading), styles["title"]),
            Paragraph(_escape(" · ".join(part for part in (header.subtitle, note) if part)), styles["sub"]),
            Spacer(1, 3 * mm),
        ]
        head = ["Game"] + [f"Table {t}" for t in shown] + (["Sit out"] if sit_outs and last_chunk else [])
        rows: list[list] = [head]
        for game in games:
            row: list = [str(game.game)]
            for t in shown:
                seats = game.tables.get(t)
                if seats is None:
                    row.append("")
                    continue
                text = f"{seats['N']} &amp; {seats['S']}<br/>v {seats['E']} &amp; {seats['W']}"
                row.append(Paragraph(text, big))
            if sit_outs and last_chunk:
                row.append(Paragraph(", ".join(map(str, game.sit_out)), big))
            rows.append(row)
        game_w = 16 * mm
        rest = (doc.width - game_w) / (len(head) - 1)
        grid = Table(rows, colWidths=[game_w] + [rest] * (len(head) - 1), repeatRows=1)
        grid.setStyle(
            TableStyle(
                [
                    *_grid(),
                    ("FONTSIZE", (0, 0), (-1, 0), 11),
                    ("FONTNAME", (0, 1), (0, -1), BOLD),
                    ("FONTSIZE", (0, 1), (0, -1), leading - 2),
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f6fa")]),
                ]
            )
        )
        story.append(grid)
        story.append(Spacer(1, 3 * mm))
        story.append(Paragraph("North &amp; South are partners against East &amp; West.", styles["sub"]))
        if not last_chunk:
            story.append(PageBreak())
    if not games:
        story.append(Paragraph("The chart is not built yet.", styles["body"]))
    doc.build(story)
    return buffer.getvalue()
