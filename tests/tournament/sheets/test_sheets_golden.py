"""Golden files pin the layout of one sheet of each kind: every page's size and every text run with its place.

Each sheet is printed from a fixed, seeded night (names, scores, seating and chart all come from fixed seeds; the
date is set; table links print as a fixed address), then read back with pypdf: for each page its size, and for each
text run its position on the page rounded to 1 pt, its font (R regular, B bold) and size, and its text. That listing
is compared with the file of the same name under tests/golden/. A column that widens, a row that moves or a font that
changes shows up as a diff of the lines that moved.

After a deliberate change of layout, look at the sheets, then rewrite the files and check the diff in:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/tournament/sheets/test_sheets_golden.py
"""

from __future__ import annotations

import datetime as dt
import difflib
import io
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import register, set_codes
from tournament import services
from tournament.models import Night
from tournament.rehearsal import simulate
from tournament.sheets import printing

# Player numbers print on the cards and a draw among tied players is seeded by them: every test starts them at 1,
# on SQLite and on PostgreSQL alike.
pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
DATE = dt.date(2026, 11, 30)


def layout(content: bytes) -> str:
    """A PDF as readable lines: a line per page with its size, then a line per text run: x y font text."""
    reader = PdfReader(io.BytesIO(content))
    lines = [f"pages: {len(reader.pages)}"]
    for number, page in enumerate(reader.pages, 1):
        box = page.mediabox
        lines.append(f"page {number}: {round(float(box.width))} x {round(float(box.height))} pt")
        runs: list[str] = []

        def visit(text, cm, tm, font, size, runs=runs):
            text = text.strip()
            if not text:
                return
            # Where the run starts on the page: the text matrix's origin through the current transformation.
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = (cm[0] ** 2 + cm[1] ** 2) ** 0.5 * (tm[0] ** 2 + tm[1] ** 2) ** 0.5
            weight = "B" if font and "Bold" in str(font.get("/BaseFont", "")) else "R"
            runs.append(f"  {round(x):>4} {round(y):>4}  {weight}{size * scale:g}  {' | '.join(text.splitlines())}")

        page.extract_text(visitor_text=visit)
        lines += runs
    return "\n".join(lines) + "\n"


def check(name: str, content: bytes) -> None:
    """Compare `content`'s layout with tests/golden/NAME.txt (or rewrite that file under UPDATE_GOLDEN=1)."""
    actual = layout(content)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"No golden file {path}: run UPDATE_GOLDEN=1 pytest {__file__}"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), f"golden/{name}.txt", "printed now", lineterm="", n=1
        )
        pytest.fail(f"The layout of {name} changed:\n" + "\n".join(list(diff)[:80]), pytrace=False)


def link_url(night: Night):
    """A table's scoring link by its table number, so the printed address is the same every run."""
    from tournament.services import table_links_ensure

    tables = {link.token: link.table for link in table_links_ensure(night=night)}
    return lambda token: f"http://192.168.1.20:8000/t/table-{tables[token]}/"


def fixed_codes(night: Night) -> None:
    """Confirmation codes are drawn at random: give the printed night fixed ones, so its cards can be compared."""
    set_codes(night, lambda entry, _index: str(2000 + entry.card))


@pytest.fixture
def progressive() -> Night:
    """Ten players (two sit out each game), three games played, scores entered as totals."""
    night = simulate(players=10, rounds=3, seed=7, entry="totals", name="St Mary's Euchre Night")
    Night.objects.filter(pk=night.pk).update(date=DATE, venue="Parish hall")
    night.refresh_from_db()
    fixed_codes(night)
    return night


@pytest.fixture
def rotation() -> Night:
    """A rotation night of nine players and five games, drawn: its chart seats whoever came."""
    night = services.night_create(
        name="Rotation social", date=DATE, venue="Legion hall", movement=Night.Movement.ROTATION, games=5
    )
    register(night, 9)
    services.night_draw(night=night, seed=11)
    night.refresh_from_db()
    fixed_codes(night)
    return night


def test_tally_cards_two_a_page(progressive):
    check("tally-cards", printing.sheet_bytes(progressive, "tally-cards", per_page=2, blank=0))


def test_blank_tally_cards_four_a_page(progressive):
    check("tally-cards-blank", printing.sheet_bytes(progressive, "tally-cards", per_page=4, blank=8))


def test_table_cards(progressive):
    check("table-cards", printing.sheet_bytes(progressive, "table-cards", link_url=link_url(progressive)))


def test_seating_sheet(progressive):
    check("seating", printing.sheet_bytes(progressive, "seating", game=2))


def test_score_sheets(progressive):
    check("score-sheets", printing.sheet_bytes(progressive, "score-sheets", link_url=link_url(progressive), game=2))


def test_standings(progressive):
    check("standings", printing.sheet_bytes(progressive, "standings"))


def test_rotation_tally_cards(rotation):
    check("rotation-cards", printing.sheet_bytes(rotation, "tally-cards", per_page=2, blank=0))


def test_rotation_wall_chart(rotation):
    rotation.paper = Night.Paper.A4  # this print only: one golden sheet on A4 (landscape)
    check("rotation-chart", printing.sheet_bytes(rotation, "chart"))
