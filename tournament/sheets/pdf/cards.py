"""Tally cards: a progressive night's (a row a game, filled in after each game, or blank) and a rotation night's
numbered cards with every game's seat printed in advance."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scoring.seats import SEAT_NAMES

from ...charts import short_name
from ...selectors import GameLine, GameSeat
from ..pdfgrid import Fit, Grid, line_height
from ..qr import draw_qr
from .common import BOLD, FONT, PAGE_SIZES, SheetHeader, document, escape, sheet_styles, unbroken


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
    lines: Sequence[GameLine]  # the games played (closed) and the byes: their scores
    number: int | None = None  # the player's tally-card number: finds their page
    code: str = ""  # the player's confirmation code: printed here and nowhere public
    seated: Sequence[GameSeat] = ()  # the games drawn and not yet played: where the player sits
    results_url: str = ""  # the player's results page, as a QR code in the card's corner


# Cards a page -> (columns, rows) of the page's grid.
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2)}

# A progressive card's columns and their widths (None: the partner's, what the others leave). "Initials": an opponent
# initials the score at the table; a card printed after the game shows theirs. A quarter card (four a page) has every
# column but Euchres, narrower and under smaller heads, and heads the initials box "Opp.".
HEADS = ("Game", "Table", "Seat", "Partner", "Score", "Won", "Loners", "Euchres", "Initials", "Total")
WIDTHS = {
    "Game": 13 * mm,
    "Table": 13 * mm,
    "Seat": 11 * mm,
    "Partner": None,
    "Score": 15 * mm,
    "Won": 12 * mm,
    "Loners": 16 * mm,
    "Euchres": 16 * mm,
    "Initials": 18 * mm,
    "Total": 15 * mm,
}
QUARTER_WIDTHS = {
    "Game": 8.5 * mm,
    "Table": 8.5 * mm,
    "Seat": 7.5 * mm,
    "Partner": None,
    "Score": 8.5 * mm,
    "Won": 7.5 * mm,
    "Loners": 10 * mm,
    "Initials": 9.5 * mm,
    "Total": 8 * mm,
}
LEFT = frozenset({"Game", "Table", "Partner"})  # the columns set from the left; the rest are centred


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

    doc = BaseDocTemplate(buffer, **document(buffer, header, title))
    doc.addPageTemplates([PageTemplate(id="cards", frames=frames, onPage=cut_line)])
    return doc, cell_w - gap - 2 * pad, cell_h - 2 * pad


def _game_row(number: int, line: GameLine | None, seat: GameSeat | None, small: bool, size: float) -> list:
    """A game's row on a progressive card, a cell for each of HEADS: its score once played, where the player sits
    once it is drawn, else only its number."""
    if line is not None and line.bye:
        return [str(number), "bye", "", "", str(line.points), "", "", "", "", str(line.running_total)]
    if line is not None:
        return [
            str(number),
            str(line.table),
            line.seat,
            Fit(line.partner, 6 if small else 8, size if small else 10, short=short_name(line.partner)),
            str(line.tally),
            "✓" if line.won else "",
            _loners(line.extras.loners_made, line.extras.loners_tried),
            str(line.extras.euchres or ""),
            Fit(" ".join(initials(name) for name in line.opponents), 6),
            str(line.running_total),
        ]
    if seat is not None and seat.bye:
        return [str(number), "bye"] + [""] * 8
    if seat is not None:  # drawn, not played: the opponents initial the box, and the pen writes the rest
        partner = Fit(seat.partner, 6 if small else 8, size if small else 10, short=short_name(seat.partner))
        return [str(number), str(seat.table), seat.seat, partner] + [""] * 6
    return [str(number)] + [""] * 9


def _total_row(card: TallyCard) -> list[str]:
    """The card's total row: the games scored so far; empty, for the pen, while none is (never a printed 0)."""
    if not card.lines:
        return ["Total"] + [""] * 9
    total = card.lines[-1].running_total
    wins = sum(1 for line in card.lines if line.won)
    made = sum(line.extras.loners_made for line in card.lines)
    tried = sum(line.extras.loners_tried for line in card.lines)
    euchres = sum(line.extras.euchres for line in card.lines)
    return ["Total", "", "", "", str(total), str(wins), _loners(made, tried), str(euchres), "", str(total)]


class _Qr(Flowable):
    """A QR code of `url`, `size` across, with what it opens said under it."""

    CAPTION = "Your results"

    def __init__(self, url: str, size: float):
        super().__init__()
        self.url, self.size = url, size
        self.width, self.height = size, size + 3 * mm

    def draw(self):
        draw_qr(self.canv, self.url, 0, 3 * mm, self.size)
        self.canv.setFont(FONT, 6)
        self.canv.drawCentredString(self.size / 2, 0.5 * mm, self.CAPTION)


def _with_qr(title: Paragraph, url: str, width: float, size: float) -> Table | Paragraph:
    """The card's name with the QR code of the player's results page beside it (none on a blank card)."""
    if not url:
        return title
    heading = Table([[title, _Qr(url, size)]], colWidths=[width - size - 2 * mm, size + 2 * mm])
    heading.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return heading


def tally_cards_pdf(
    header: SheetHeader, cards: Sequence[TallyCard], games: int, per_page: int = 2, progress=None
) -> bytes:
    """Tally cards 1, 2 or 4 a page: a row per game with table, seat, partner, score, won, loners, euchres (not on a
    quarter card), a box for an opponent's initials (the opponents' own, once the game is played) and the running
    total; a game drawn and not yet played shows its table, seat and partner.

    A card with no name is a blank card for a night where names are written in by hand. `progress(done, total)`
    is told, every 25 cards, how far the build has come.
    """
    styles = sheet_styles()
    buffer = io.BytesIO()
    doc, card_w, card_h = _card_doc(buffer, header, per_page, "Tally cards")
    small = per_page == 4
    size = 7 if small else 9
    if small:  # a quarter card: the name and the night's line smaller, so each stays on as few lines as it can
        title_style = ParagraphStyle("card-small", parent=styles["card"], fontSize=13, leading=16)
        sub_style = ParagraphStyle("sub-small", parent=styles["sub"], fontSize=8.5, leading=11)
        columns = QUARTER_WIDTHS
        # Narrow columns under small heads, a little padding each side: room for the partner's name.
        head_size, pads = 6.0, [3 if head == "Partner" else 2 for head in columns]
    else:
        title_style, sub_style = styles["card"], styles["sub"]
        columns, head_size, pads = WIDTHS, size, [6] * len(WIDTHS)
    kept = [HEADS.index(head) for head in columns]
    heads = ["Opp." if small and head == "Initials" else head for head in columns]
    widths = [width or card_w - sum(width for width in columns.values() if width) for width in columns.values()]
    align = ["left" if head in LEFT else "center" for head in columns]
    head_align = ["left", "left"] + ["center"] * (len(widths) - 2)
    subtitle = " · ".join(
        part for part in (escape(header.night), escape(header.subtitle), unbroken(header.game_end)) if part
    )
    sub_h = Paragraph(subtitle, sub_style).wrap(card_w, card_h)[1]
    # The results page's code, on the full and half cards (a quarter card keeps its width for the name and number).
    qr_size = 18 * mm
    story: list = []
    for index, card in enumerate(cards):
        by_round = {line.round: line for line in card.lines}
        seated = {seat.round: seat for seat in card.seated}
        every = [_game_row(n, by_round.get(n), seated.get(n), small, size) for n in range(1, games + 1)]
        every.append(_total_row(card))
        rows: list[list] = [heads] + [[row[column] for column in kept] for row in every]
        name = card.name or "Name: ______________________"
        title = _with_qr(
            Paragraph(escape(name + _number_and_code(card.number, card.code)), title_style),
            "" if small else card.results_url,
            card_w,
            qr_size,
        )
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
            pads=pads,
            bold_rows=[-1],
            head_size=head_size,
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
    code: str = ""  # the holder's confirmation code, once the number is taken


def _number_and_code(number: int | None, code: str) -> str:
    """The part of a card's heading after the name: its number, and the code the other side types to confirm."""
    return (f"  ·  No. {number}" if number is not None else "") + (f"  ·  Code {code}" if code else "")


def _numbers_only(text: str) -> str:
    """ "12 Leo B. & 2 Bob M." -> "12 & 2": the numbers of a partner or opponents, for a small card."""
    return " & ".join(part.split()[0] for part in text.split(" & ") if part.split())


def rotation_cards_pdf(header: SheetHeader, cards: Sequence[PlanCard], per_page: int = 2) -> bytes:
    """Rotation-night tally cards: each player's whole night printed in advance (table, seat, partner, opponents,
    sit-outs) with boxes for the scores. Large type: a card is read at arm's length across a busy table."""
    styles = sheet_styles()
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
    subtitle = " · ".join(
        part for part in (escape(header.night), escape(header.subtitle), unbroken(header.game_end)) if part
    )
    sub_h = Paragraph(subtitle, styles["sub"]).wrap(card_w, card_h)[1]
    story: list = []
    for index, card in enumerate(cards):
        games = max(len(card.rows), 1)
        name = card.name or "Name: ______________________"
        title = Paragraph(escape(f"No. {card.number}  ·  {name}" + _number_and_code(None, card.code)), styles["card"])
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
