"""A player's results on paper: the night's card game by game, then their history at the club."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from ...selectors import PlayerResults, ResultsNight
from .cards import _loners
from .common import BOLD, SheetHeader, counted, escape, grid_style, page_doc, sheet_styles


def _card_rows(night: ResultsNight) -> list[list]:
    styles = sheet_styles()
    rows: list[list] = [["Game", "Table", "Seat", "Partner", "Opponents", "For", "Against", "Won", "Loners", "Total"]]
    for line in night.card:
        if line.bye:
            rows.append([str(line.round), "bye", "", "", "", str(line.points), "", "", "", str(line.running_total)])
            continue
        rows.append(
            [
                str(line.round),
                str(line.table),
                line.seat,
                Paragraph(escape(line.partner), styles["body"]),
                Paragraph(escape(" & ".join(line.opponents)), styles["body"]),
                str(line.tally),
                str(line.conceded),
                "✓" if line.won else "",
                _loners(line.extras.loners_made, line.extras.loners_tried),
                str(line.running_total),
            ]
        )
    loners = _loners(night.loners_made, night.loners_tried) or "0"
    rows.append(["Total", "", "", "", "", str(night.total), "", str(night.wins), loners, str(night.total)])
    return rows


def _grid(rows: list[list], widths: list[float], *, total_row: bool = False) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1)
    style = [*grid_style(), ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")])]
    if total_row:
        style.append(("FONTNAME", (0, -1), (-1, -1), BOLD))
    table.setStyle(TableStyle(style))
    return table


def player_results_pdf(header: SheetHeader, results: PlayerResults) -> bytes:
    """The player's night (place, total, prizes and the card) and their history: nights, games, average, prizes
    and the partners they had most often."""
    styles = sheet_styles()
    buffer = io.BytesIO()
    margin = 14 * mm
    doc = page_doc(buffer, header, f"Results of {results.name}", margin)
    story: list = [Paragraph(escape(results.name), styles["title"])]
    night = results.night
    if night is not None:
        said = f"{night.name} · {header.subtitle}"
        story.append(Paragraph(escape(said), styles["sub"]))
        story.append(Spacer(1, 3 * mm))
        if night.games_closed:
            place = f"Place {night.place} of {night.players} · {night.total} points · {night.wins} won"
            story.append(Paragraph(escape(place), styles["prize"]))
        for prize in night.prizes:
            story.append(Paragraph(escape(f"Prize: {prize}"), styles["prize"]))
        story.append(Spacer(1, 3 * mm))
        if night.card:
            fixed = [12 * mm, 12 * mm, 10 * mm, 0, 0, 12 * mm, 16 * mm, 11 * mm, 15 * mm, 13 * mm]
            left = doc.width - sum(fixed)
            fixed[3], fixed[4] = left * 0.4, left * 0.6
            story.append(_grid(_card_rows(night), fixed, total_row=True))
        else:
            story.append(Paragraph("No game of the night has been scored yet.", styles["body"]))
    story += [Spacer(1, 6 * mm), Paragraph("At the club", styles["card"]), Spacer(1, 2 * mm)]
    summary = (
        f"{counted(results.nights, 'night')} · {counted(results.games, 'game')} · {results.total} points · "
        f"average {results.average:.2f} a game"
    )
    story.append(Paragraph(escape(summary), styles["body"]))
    story.append(Spacer(1, 2 * mm))
    if results.history:
        rows: list[list] = [["Date", "Night", "Place", "Total", "Games", "Average", "Prizes"]]
        rows += [
            [
                f"{one.date:%Y-%m-%d}",
                Paragraph(escape(one.name), styles["body"]),
                f"{one.place} of {one.players}",
                str(one.total),
                str(one.games),
                f"{one.average:.2f}",
                Paragraph(escape(", ".join(one.prizes)), styles["body"]),
            ]
            for one in results.history
        ]
        fixed = [22 * mm, 0, 20 * mm, 14 * mm, 14 * mm, 17 * mm, 0]
        left = doc.width - sum(fixed)
        fixed[1], fixed[6] = left * 0.55, left * 0.45
        story.append(_grid(rows, fixed))
    if results.partners:
        partners = ", ".join(f"{name} ({count})" for name, count in results.partners)
        story += [
            Spacer(1, 3 * mm),
            KeepTogether(
                [Paragraph("Partners most often", styles["prize"]), Paragraph(escape(partners), styles["body"])]
            ),
        ]
    doc.build(story)
    return buffer.getvalue()
