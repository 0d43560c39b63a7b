"""A ruled grid of one-line cells, drawn straight onto the canvas: the rows of the tally cards.

ReportLab's Table does this and much more (wrapping, nested flowables, styles by cell range), and pays for it on
every cell: its style looked up, its type set, its rules stroked one by one. A thousand tally cards are over 100,000
cells, and there Table alone took most of the build. A card's cell only ever holds one line of text, so `Grid` lays
them out the way Table would (same padding, same baseline in the middle of the row), sets the type only when it
changes, and draws every rule of a grid as one path. Each cell stays a text run of its own, so the text read back
from the page (the tests, a screen reader) finds each cell where it is printed.

A cell is a string, or a `Fit` for text that must stay on one line in its column whatever its length (a partner's
name): its type shrinks, down to a floor, and if it still does not fit its short form is printed instead, or failing
that its end gives way to an ellipsis.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

HEAD_FILL = colors.HexColor("#e8eef5")
SPAN_FILL = colors.HexColor("#eeeeee")
RULE = colors.HexColor("#999999")
PAD = 6  # left and right of a cell's text, as Table pads


def line_height(size: float) -> float:
    """A one-line row's natural height, as Table sets it: a line of type (1.2 x its size) and the padding."""
    return size * 1.2 + 6


@dataclass(frozen=True)
class Fit:
    """Text kept on one line: smaller type (not below `floor`), then cut short with an ellipsis. `size` is the type
    it starts from, when not the grid's; `short` is printed instead of cutting `text` (numbers without the names)."""

    text: str
    floor: float
    size: float | None = None
    short: str = ""


def fit_line(text: str, font: str, size: float, floor: float, width: float) -> tuple[str, float]:
    """The text and type size that put `text` on one line within `width`."""
    wide = pdfmetrics.stringWidth(text, font, size)
    if wide <= width:
        return text, size
    size = max(floor, math.floor(size * width / wide * 4) / 4)  # quarter points, rounded down to fit
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text, size
    kept = len(text)
    while kept and pdfmetrics.stringWidth(text[:kept].rstrip() + "…", font, size) > width:
        kept -= 1
    return text[:kept].rstrip() + "…", size


class Grid(Flowable):
    """Rows of one-line cells under a shaded head row, every cell ruled.

    `widths` and `heights` are in points, one per column and row. `align` gives each column's "left" or "center"
    for the body rows and `head_align` for the head row (the body's when left out); `pads` each column's padding
    left and right. `bold_rows` and `bold_columns` set body cells in bold (the head row always is). `spans` maps a
    row to the first and last column it merges into one shaded, centred cell (a sit-out on a rotation card).
    `head_size` sets the head row's type, when not the body's (narrow columns under words longer than their figures).
    """

    def __init__(
        self,
        rows: Sequence[Sequence[str | Fit]],
        widths: Sequence[float],
        heights: Sequence[float],
        *,
        font: str,
        bold: str,
        size: float,
        align: Sequence[str],
        head_align: Sequence[str] | None = None,
        pads: Sequence[float] | None = None,
        bold_rows: Sequence[int] = (),
        bold_columns: Sequence[int] = (),
        spans: dict[int, tuple[int, int]] | None = None,
        head_size: float | None = None,
    ) -> None:
        super().__init__()
        if len(heights) != len(rows) or any(len(row) != len(widths) for row in rows):
            raise ValueError("A grid needs a height for every row and a width for every cell of each row.")
        self.rows, self.widths, self.heights = rows, list(widths), list(heights)
        self.font, self.bold, self.size = font, bold, size
        self.head_size = head_size or size
        self.align = list(align)
        self.head_align = list(head_align or align)
        self.pads = list(pads or [PAD] * len(widths))
        self.bold_rows = {r % len(rows) for r in bold_rows}
        self.bold_columns = set(bold_columns)
        self.spans = spans or {}
        self.width, self.height = sum(self.widths), sum(self.heights)

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def _cells(self):
        """Each cell to write: (text, font, size, x, baseline), in reading order."""
        left = [sum(self.widths[:i]) for i in range(len(self.widths) + 1)]
        top = self.height
        for r, row in enumerate(self.rows):
            height = self.heights[r]
            bottom = top - height
            font = self.bold if r == 0 or r in self.bold_rows else self.font
            row_size = self.head_size if r == 0 else self.size
            align = self.head_align if r == 0 else self.align
            span = self.spans.get(r)
            for c, cell in enumerate(row):
                if span and span[0] < c <= span[1]:
                    continue
                cell_font = self.bold if r and c in self.bold_columns else font
                start, end = (left[span[0]], left[span[1] + 1]) if span and c == span[0] else (left[c], left[c + 1])
                room = end - start - 2 * self.pads[c]
                if isinstance(cell, Fit):
                    text, size = fit_line(cell.text, cell_font, cell.size or self.size, cell.floor, room)
                    if cell.short and text != cell.text:
                        text, size = fit_line(cell.short, cell_font, cell.size or self.size, cell.floor, room)
                else:
                    text, size = cell, row_size
                if not text:
                    continue
                # Table's baseline for one line set MIDDLE with its leading of 1.2 x the type size.
                baseline = bottom + height / 2 - 0.4 * size
                if (span and c == span[0]) or align[c] == "center":
                    x = (start + end) / 2 - pdfmetrics.stringWidth(text, cell_font, size) / 2
                else:
                    x = start + self.pads[c]
                yield text, cell_font, size, x, baseline
            top = bottom

    def draw(self):
        canvas = self.canv
        canvas.saveState()
        left = [sum(self.widths[:i]) for i in range(len(self.widths) + 1)]
        edges = [self.height - sum(self.heights[:r]) for r in range(len(self.heights) + 1)]
        canvas.setFillColor(HEAD_FILL)
        canvas.rect(0, edges[1], self.width, self.heights[0], stroke=0, fill=1)
        canvas.setFillColor(SPAN_FILL)
        for r, (first, last) in self.spans.items():
            canvas.rect(left[first], edges[r + 1], left[last + 1] - left[first], self.heights[r], stroke=0, fill=1)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        path = canvas.beginPath()
        for y in edges:
            path.moveTo(0, y)
            path.lineTo(self.width, y)
        for c, x in enumerate(left):
            # A rule runs down the whole grid except through a merged cell; each unbroken stretch is one line.
            start = None
            for r in range(len(self.rows)):
                span = self.spans.get(r)
                ruled = span is None or not span[0] < c <= span[1]
                if ruled and start is None:
                    start = edges[r]
                elif not ruled and start is not None:
                    path.moveTo(x, start)
                    path.lineTo(x, edges[r])
                    start = None
            if start is not None:
                path.moveTo(x, start)
                path.lineTo(x, edges[-1])
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.setFillColor(colors.black)
        current = None
        for cell, font, size, x, baseline in self._cells():
            if (font, size) != current:
                canvas.setFont(font, size)
                current = (font, size)
            canvas.drawString(x, baseline, cell)
        canvas.restoreState()
