"""What goes on the wall: the seating for a game, the standings, and a rotation night's chart."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from scoring.seats import is_three

from ...selectors import NightStandings
from .common import (
    BOLD,
    FONT,
    PAGE_SIZES,
    SheetHeader,
    document,
    escape,
    games_word,
    grid_style,
    page_doc,
    sheet_styles,
)


def standings_pdf(header: SheetHeader, standings: NightStandings) -> bytes:
    """The final standings: prizes at the top, then every player with total, wins and each game's score."""
    styles = sheet_styles()
    buffer = io.BytesIO()
    margin = 14 * mm
    doc = page_doc(buffer, header, "Standings", margin)
    story: list = [
        Paragraph(escape(header.night), styles["title"]),
        Paragraph(escape(f"Standings after {games_word(standings.rounds_closed)} · {header.subtitle}"), styles["sub"]),
        Spacer(1, 4 * mm),
    ]
    if standings.awards:
        for award in standings.awards:
            tie = " (tie)" if award.tie else ""
            line = f"{award.prize}: {' and '.join(award.names)}{tie} — {award.value}"
            story.append(Paragraph(escape(line), styles["prize"]))
        story.append(Spacer(1, 3 * mm))
    elif standings.high:
        high = ", ".join(row.name for row in standings.high)
        low = ", ".join(row.name for row in standings.low)
        story += [
            Paragraph(escape(f"High score: {high} — {standings.high[0].total} points"), styles["prize"]),
            Paragraph(escape(f"Low score: {low} — {standings.low[0].total} points"), styles["prize"]),
            Spacer(1, 3 * mm),
        ]
    games = standings.rounds_closed
    usable = doc.width
    fixed = [12 * mm, 0, 14 * mm, 12 * mm, 14 * mm]
    # The chain's own columns (win %, points %, points per game, number), each as wide as its widest figure.
    for index, heading in enumerate(standings.columns):
        widest = max(
            [
                pdfmetrics.stringWidth(heading, BOLD, 9),
                *(pdfmetrics.stringWidth(r.figures[index], FONT, 9) for r in standings.rows),
            ]
        )
        fixed.append(widest + 12)
    first_game = len(fixed)
    extra = sum(fixed[5:])
    per_game = min(9 * mm, (usable - 100 * mm - extra) / games) if games else 0
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
    head = ["Rank", "Name", "Total", "Wins", "Loners", *standings.columns, *labels]
    rows = [head] + [
        [
            row.rank_label,
            Paragraph(escape(row.name), styles["body"]),
            str(row.total),
            str(row.wins),
            str(row.loners_made),
            *row.figures,
            *row.cells,
        ]
        for row in standings.rows
    ]
    fixed[1] = usable - sum(fixed) - per_game * games
    # A bye reads "bye" (with its credit): smaller type where the word would not fit the game's column.
    room_for = per_game - 2 * game_pad
    byes = [
        ("FONTSIZE", (column, line), (column, line), min(game_size, math.floor(room_for / width * 4) / 4))
        for line, row in enumerate(standings.rows, start=1)
        for column, cell in enumerate(row.cells, start=first_game)
        if cell.startswith("bye") and (width := pdfmetrics.stringWidth(cell, FONT, 1)) * game_size > room_for
    ]
    table = Table(rows, colWidths=[*fixed, *([per_game] * games)], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                *grid_style(),
                ("FONTNAME", (2, 1), (2, -1), BOLD),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
                *(
                    [
                        ("FONTSIZE", (first_game, 0), (-1, -1), game_size),
                        ("LEFTPADDING", (first_game, 0), (-1, -1), game_pad),
                        ("RIGHTPADDING", (first_game, 0), (-1, -1), game_pad),
                    ]
                    if game_size < 9 or game_pad < 6
                    else []
                ),
                *byes,
            ]
        )
    )
    story += [
        table,
        Spacer(1, 3 * mm),
        Paragraph(escape("Ties are broken by: " + ", then ".join(standings.foot) + "."), styles["sub"]),
        *([Paragraph(escape(standings.shares_note), styles["sub"])] if standings.shares_note else []),
    ]
    doc.build(story)
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
    styles = sheet_styles()
    buffer = io.BytesIO()
    margin = 12 * mm
    doc = page_doc(buffer, header, f"Seating for game {game}", margin)
    story: list = [
        Paragraph(escape(f"{header.night} — where to sit for game {game}"), styles["title"]),
        Paragraph(escape(header.subtitle), styles["sub"]),
        Spacer(1, 4 * mm),
    ]
    usable = doc.width
    name_width = usable * 0.3

    def name_cell(name: str) -> Paragraph:
        """A name that wraps only between its words: a word too long for the column ("Worthington-Smythe") is set
        smaller rather than broken in the middle."""
        room = name_width - 12  # the cell's padding
        widest = max((pdfmetrics.stringWidth(word, FONT, 10) for word in name.split()), default=0)
        size = 10 if widest <= room else max(6.0, math.floor(10 * room / widest * 4) / 4)
        style = ParagraphStyle("seat-name", parent=styles["body"], fontSize=size, leading=size * 1.2, splitLongWords=0)
        return Paragraph(escape(name), style)

    # Two columns read down then across, a page at a time, so the alphabet never jumps between pages; the last page
    # shares its names between both columns, so no column is left ruled and empty.
    per_column = 38
    for start in range(0, len(lines), 2 * per_column):
        chunk = list(lines[start : start + 2 * per_column])
        half = min(per_column, (len(chunk) + 1) // 2)
        left, right = chunk[:half], chunk[half:]
        rows = [["Name", "Where", "", "Name", "Where"]]
        for index, a in enumerate(left):
            b = right[index] if index < len(right) else None
            rows.append([name_cell(a.name), a.where, "", name_cell(b.name) if b else "", b.where if b else ""])
        finder = Table(rows, colWidths=[name_width, usable * 0.17, usable * 0.06, name_width, usable * 0.17])
        finder.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("FONTNAME", (0, 0), (-1, 0), BOLD),
                    ("FONTNAME", (1, 1), (1, -1), BOLD),
                    ("FONTNAME", (4, 1), (4, -1), BOLD),
                    ("FONTSIZE", (0, 0), (-1, -1), 10),
                    ("LINEBELOW", (0, 0), (1, -1), 0.3, colors.HexColor("#bbbbbb")),
                    ("LINEBELOW", (3, 0), (4, len(right)), 0.3, colors.HexColor("#bbbbbb")),
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
            *[Paragraph(escape(t.seats.get(seat, "")), styles["body"]) for seat in ("N", "S", "E", "W")],
        ]
        for t in tables
    ]
    by_table = Table(grid, colWidths=[usable * 0.16] + [usable * 0.21] * 4, repeatRows=1)
    by_table.setStyle(TableStyle(grid_style()))
    story.append(by_table)
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
    styles = sheet_styles()
    buffer = io.BytesIO()
    margin = 10 * mm
    doc = SimpleDocTemplate(
        buffer,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        **document(buffer, header, "Rotation chart", pagesize=landscape(PAGE_SIZES[header.paper])),
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
            Paragraph(escape(heading), styles["title"]),
            Paragraph(escape(" · ".join(part for part in (header.subtitle, note) if part)), styles["sub"]),
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
                if not is_three(seats):
                    text = f"{seats['N']} &amp; {seats['S']}<br/>v {seats['E']} &amp; {seats['W']}"
                else:  # a table of three: nobody partners
                    text = f"{seats['N']}, {seats['E']}, {seats['S']}<br/>three-handed"
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
                    *grid_style(),
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
        threes = any(is_three(seats) for game in games for seats in game.tables.values())
        story.append(
            Paragraph(
                "North &amp; South are partners against East &amp; West"
                + ("; at a table of three everyone plays for themselves." if threes else "."),
                styles["sub"],
            )
        )
        if not last_chunk:
            story.append(PageBreak())
    if not games:
        story.append(Paragraph("The chart is not built yet.", styles["body"]))
    doc.build(story)
    return buffer.getvalue()
