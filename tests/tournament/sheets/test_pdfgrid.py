"""The card grid: one-line cells laid out the way ReportLab's Table would, long text kept inside its column."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as pdf_canvas

from tournament.sheets.pdf.common import BOLD, FONT
from tournament.sheets.pdf.common import register_fonts as _register_fonts
from tournament.sheets.pdfgrid import Fit, Grid, fit_line

LONG = "Bartholomew Kowalczykowski-Wiśniewska"


@pytest.fixture(autouse=True)
def fonts():
    _register_fonts()


def runs(grid: Grid) -> list[tuple[float, float, float, str]]:
    """Draw `grid` at (100, 100) on a page and read back each text run: x, y, type size, text."""
    buffer = io.BytesIO()
    page = pdf_canvas.Canvas(buffer, invariant=1)
    grid.wrapOn(page, 500, 700)
    grid.drawOn(page, 100, 100)
    page.save()
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((tm[4] + cm[4], tm[5] + cm[5], size * tm[0], text.strip()))

    PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text(visitor_text=visit)
    return found


def test_text_that_fits_keeps_its_size():
    assert fit_line("Ann B.", FONT, 10, 8, 100) == ("Ann B.", 10)


def test_text_a_little_too_long_shrinks_to_fit():
    text, size = fit_line(LONG, FONT, 10, 6, 150)
    assert text == LONG and 6 <= size < 10
    assert pdfmetrics.stringWidth(text, FONT, size) <= 150


def test_text_too_long_even_at_the_floor_is_cut_with_an_ellipsis():
    text, size = fit_line(LONG, FONT, 10, 8, 60)
    assert size == 8 and text.endswith("…") and LONG.startswith(text[:-1])
    assert pdfmetrics.stringWidth(text, FONT, size) <= 60


def test_a_grid_needs_a_height_per_row_and_a_width_per_cell():
    with pytest.raises(ValueError, match="height for every row"):
        Grid([["a", "b"]], [10, 10], [10, 10], font=FONT, bold=BOLD, size=9, align=["left", "left"])
    with pytest.raises(ValueError, match="width for every cell"):
        Grid([["a", "b", "c"]], [10, 10], [10], font=FONT, bold=BOLD, size=9, align=["left", "left"])


def test_cells_sit_in_their_rows_left_or_centred_and_the_head_is_bold():
    grid = Grid(
        [["Game", "Partner", "Score"], ["1", Fit(LONG, 8), "7"], ["Total", "", "12"]],
        [40, 80, 50],
        [20, 30, 30],
        font=FONT,
        bold=BOLD,
        size=9,
        align=["left", "left", "center"],
        head_align=["left", "center", "center"],
        bold_rows=[-1],
    )
    assert grid.wrap(500, 700) == (170, 80)
    found = runs(grid)
    assert [text for *_, text in found][:3] == ["Game", "Partner", "Score"]
    by_text = {text: (x, y, size) for x, y, size, text in found}
    # Left: the column's start plus the padding. Centre: the middle of the column.
    assert by_text["Game"][0] == pytest.approx(106)
    assert by_text["7"][0] + pdfmetrics.stringWidth("7", FONT, 9) / 2 == pytest.approx(100 + 40 + 80 + 25)
    # Baselines in the middle of each row (rows run down from the top at y = 180).
    assert by_text["Game"][1] == pytest.approx(180 - 10 - 0.4 * 9)
    assert by_text["7"][1] == pytest.approx(160 - 15 - 0.4 * 9)
    # The partner's name stays inside its 80 pt column, less its padding.
    partner = next(run for run in found if run[3].startswith("Barth"))
    assert partner[2] == 8 and partner[3].endswith("…")
    assert partner[0] + pdfmetrics.stringWidth(partner[3], FONT, 8) <= 100 + 40 + 80 - 6


def test_a_merged_row_is_one_centred_cell_across_its_columns():
    grid = Grid(
        [["Game", "Table", "Seat", "Total"], ["4", "sits out this game", "", ""]],
        [30, 40, 40, 30],
        [20, 20],
        font=FONT,
        bold=BOLD,
        size=9,
        align=["center"] * 4,
        spans={1: (1, 2)},
    )
    sits = next(run for run in runs(grid) if run[3] == "sits out this game")
    width = pdfmetrics.stringWidth("sits out this game", FONT, 9)
    assert sits[0] + width / 2 == pytest.approx(100 + 30 + 40)  # the middle of columns 1 and 2 together


def test_text_too_long_even_at_the_floor_gives_way_to_its_short_form():
    pair = f"123 {LONG} & 234 Wilhelmina Zielińska-Kowalczyk"
    grid = Grid(
        [["Opponents"], [Fit(pair, 8, short="123 & 234")], [Fit("12 Ann B. & 3 Bo C.", 8, short="12 & 3")]],
        [120],
        [20, 20, 20],
        font=FONT,
        bold=BOLD,
        size=11,
        align=["left"],
    )
    texts = [text for *_, text in runs(grid)]
    assert texts == ["Opponents", "123 & 234", "12 Ann B. & 3 Bo C."]  # the short form only where the whole won't fit


def test_the_head_row_can_take_smaller_type_than_the_body():
    grid = Grid(
        [["Loners", "Opp."], ["1/2", "AB CD"]],
        [30, 30],
        [12, 20],
        font=FONT,
        bold=BOLD,
        size=7,
        align=["center", "center"],
        head_size=6,
    )
    sizes = {text: size for _, _, size, text in runs(grid)}
    assert sizes == {"Loners": 6, "Opp.": 6, "1/2": 7, "AB CD": 7}
    loners = next(run for run in runs(grid) if run[3] == "Loners")
    assert loners[0] + pdfmetrics.stringWidth("Loners", BOLD, 6) / 2 == pytest.approx(100 + 15)  # centred at 6 pt
