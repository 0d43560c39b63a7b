"""The close of the night on paper: the prize sheet (a line for each winner to sign) and the cash reconciliation."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ...selectors import NightClose
from .common import BOLD, FONT, SheetHeader, escape, games_word, page_doc, sheet_styles

RULE = colors.HexColor("#999999")


def _start(buffer: io.BytesIO, header: SheetHeader, close: NightClose, title: str, what: str):
    """The page, the sheet's heading ("Prizes after 3 games · the date · the venue") and the styles."""
    styles = sheet_styles()
    doc = page_doc(buffer, header, title, 16 * mm)
    story: list = [
        Paragraph(escape(header.night), styles["title"]),
        Paragraph(escape(f"{what} after {games_word(close.games_closed)} · {header.subtitle}"), styles["sub"]),
        *([Paragraph(f"<b>{escape(close.not_final)}</b>", styles["body"])] if close.not_final else []),
        Spacer(1, 5 * mm),
    ]
    return doc, story, styles


def prize_sheet_pdf(header: SheetHeader, close: NightClose) -> bytes:
    """Each prize, what won it and its money, and under it each winner's name, card number and a line to sign."""
    buffer = io.BytesIO()
    doc, story, styles = _start(buffer, header, close, "Prize sheet", "Prizes")
    if not close.prizes:
        story.append(Paragraph("No prizes yet: they are known once a game is closed.", styles["body"]))
    width = doc.width
    money_style = ParagraphStyle("money", parent=styles["prize"], alignment=TA_RIGHT)
    for prize in close.prizes:
        title = (
            f"{prize.prize} — {prize.value}"
            + (" (tie)" if prize.tie else "")
            + (f" · {prize.rule}" if prize.rule else "")
        )
        rows: list[list] = [
            [Paragraph(escape(title), styles["prize"]), "", Paragraph(escape(prize.money), money_style)]
        ]
        for card, name in prize.winners:
            rows.append([f"No. {card}" if card else "", name, "Signed: ______________________"])
        table = Table(rows, colWidths=[18 * mm, width - 18 * mm - 70 * mm, 70 * mm])
        table.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (1, 0)),
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("FONTSIZE", (0, 1), (-1, -1), 11),
                    ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ("TOPPADDING", (0, 1), (-1, -1), 9),
                    ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.6, RULE),
                ]
            )
        )
        story += [KeepTogether([table]), Spacer(1, 6 * mm)]
    if close.pays_money:
        story.append(Paragraph(escape(f"Prize money paid in all: {close.paid}."), styles["body"]))
    doc.build(story)
    return buffer.getvalue()


# A section no taller than this part of the page is kept whole (moved on to the next page when it does not fit the
# rest of this one); a longer one starts where it is, once its heading and a few lines fit, and runs on.
WHOLE_SECTION = 1 / 4
FIRST_LINES = 3


def _section(table: Table, width: float, page_height: float) -> list:
    """A section of the reconciliation where it is best placed: whole, or run on over the page."""
    height = table.wrap(width, page_height)[1]
    if height <= page_height * WHOLE_SECTION:
        return [KeepTogether([table])]
    heading_and_first = sum(table._rowHeights[: FIRST_LINES + 1])  # each row's height, as the wrap above set it
    return [CondPageBreak(heading_and_first), table]


def reconciliation_pdf(header: SheetHeader, close: NightClose) -> bytes:
    """The cash from the door to the prize table, a section at a time, with a line for two people to sign."""
    buffer = io.BytesIO()
    doc, story, styles = _start(buffer, header, close, "Cash reconciliation", "Cash reconciliation")
    label_style = ParagraphStyle("label", parent=styles["body"], fontSize=10.5, leading=13, leftIndent=4 * mm)
    strong_style = ParagraphStyle("strong", parent=label_style, fontName=BOLD)
    sections: dict[str, list] = {}
    for line in close.figures:
        sections.setdefault(line.section, []).append(line)
    tables = []
    for section, lines in sections.items():
        rows: list[list] = [[section, ""]]
        style: list[tuple] = [
            ("FONTNAME", (0, 0), (-1, -1), FONT),
            ("FONTNAME", (0, 0), (-1, 0), BOLD),
            ("FONTSIZE", (0, 0), (-1, -1), 10.5),
            ("ALIGN", (1, 0), (1, -1), "RIGHT"),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, RULE),
        ]
        for line in lines:
            rows.append([Paragraph(escape(line.label), strong_style if line.strong else label_style), line.shown])
            if line.strong:
                style += [
                    ("FONTNAME", (1, len(rows) - 1), (1, len(rows) - 1), BOLD),
                    ("LINEABOVE", (1, len(rows) - 1), (1, len(rows) - 1), 0.6, RULE),
                ]
        # A section too long to keep whole runs on over the page with its heading repeated.
        tables.append(Table(rows, colWidths=[doc.width - 45 * mm, 45 * mm], style=style, repeatRows=1))
    for table in tables[:-1]:
        story += [*_section(table, doc.width, doc.height), Spacer(1, 4 * mm)]
    close_ = close.reconciliation
    check = (
        "The house keeps the net entry money less the prize money paid, and what the side pots leave it; that is also "
        "its share plus the pot not paid out plus the side pots' part. Amounts are to the cent; a tied prize is split "
        "to the cent and the cents it cannot split stay with the house, as does a 50/50's odd cent."
    )
    if close_.house_keeps < 0:
        check = "The prizes pay out more than the entries took in: the house pays the difference. " + check
    signatures = Table(
        [["Counted by: ______________________", "Checked by: ______________________"]],
        colWidths=[doc.width / 2] * 2,
        style=[("FONTNAME", (0, 0), (-1, -1), FONT), ("FONTSIZE", (0, 0), (-1, -1), 11)],
    )
    # The house's section (the last) stays on one page with the note and the signatures, after whatever came before
    # it on the same page when they fit there.
    house = tables[-1:] if tables else []
    story.append(
        KeepTogether(
            [*house, Spacer(1, 4 * mm), Paragraph(escape(check), styles["sub"]), Spacer(1, 12 * mm), signatures]
        )
    )
    doc.build(story)
    return buffer.getvalue()
