"""What every sheet shares: the bundled font, the paper, the styles and the page header."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    SimpleDocTemplate,
)

FONT_DIR = Path(__file__).resolve().parents[3] / "static" / "fonts"
FONT, BOLD = "HeadTable", "HeadTable-Bold"
PAGE_SIZES = {"letter": LETTER, "a4": A4}


class PrintedFont(TTFont):
    """The bundled font, leaving out what it has no letter for (an emoji typed in a name at sign-up): on paper that
    would be an empty box in the middle of a name. Its widths and its drawing read the same text."""

    def drawable(self, text: str | bytes) -> str:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if text.isascii():  # every sheet's usual case: the font has every printable ASCII letter
            return text
        glyphs = self.face.charToGlyph
        kept = "".join(char for char in text if ord(char) in glyphs or char == "\xa0")
        # "Ann 🎉 Lee" is "Ann Lee", not "Ann  Lee": the spaces around what was left out become one
        return re.sub(r" {2,}", " ", kept) if len(kept) < len(text) else kept

    def stringWidth(self, text, size, encoding="utf8"):
        return super().stringWidth(self.drawable(text), size, encoding)

    def splitString(self, text, doc, encoding="utf-8"):
        return super().splitString(self.drawable(text), doc, encoding)


def register_fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(PrintedFont(FONT, str(FONT_DIR / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(PrintedFont(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))
        pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def games_word(count: int) -> str:
    """A count of games in a sheet's heading, in words: "1 game", "3 games"."""
    return f"{count} game{'' if count == 1 else 's'}"


def sheet_styles() -> dict[str, ParagraphStyle]:
    register_fonts()
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
    game_end: str = ""  # how the night's games end, in words (tally cards and score sheets print it)

    @property
    def subtitle(self) -> str:
        return " · ".join(part for part in (self.date, self.venue) if part)


def unbroken(text: str) -> str:
    """`text` escaped for a Paragraph and kept on one line: a wrapped line breaks before it or after it."""
    return escape(text).replace(" ", "&nbsp;")


def counted(number: int, word: str) -> str:
    """ "1 night", "3 games": a count with its word, as the pages say it."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def grid_style(header_rows: int = 1) -> list[tuple]:
    return [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), BOLD),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#999999")),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#e8eef5")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
    ]


def document(buffer: io.BytesIO, header: SheetHeader, title: str, **kwargs) -> dict:
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


def page_doc(buffer: io.BytesIO, header: SheetHeader, title: str, margin: float) -> SimpleDocTemplate:
    """A plain flowing document on the night's paper, the same margin all round."""
    return SimpleDocTemplate(
        buffer,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        **document(buffer, header, title),
    )
