"""Printed sheets drawn with ReportLab: data in, PDF bytes out (what to print comes from `tournament.sheets.printing`).

`common` (font, paper, styles, header), `cards` (tally and rotation cards), `tables` (table cards, score sheets)
`room` (seating, standings, the wall chart) and `money` (the prize sheet, the cash reconciliation).
"""

from .cards import PlanCard, PlanRow, TallyCard, initials, rotation_cards_pdf, tally_cards_pdf
from .common import BOLD, FONT, SheetHeader
from .money import prize_sheet_pdf, reconciliation_pdf
from .results import player_results_pdf
from .room import SeatLine, SeatTable, WallGame, seating_pdf, standings_pdf, wall_chart_pdf
from .tables import ScoreSheet, TableCard, score_sheets_pdf, table_cards_pdf

__all__ = [
    "BOLD",
    "FONT",
    "PlanCard",
    "PlanRow",
    "ScoreSheet",
    "SeatLine",
    "SeatTable",
    "SheetHeader",
    "TableCard",
    "TallyCard",
    "WallGame",
    "initials",
    "player_results_pdf",
    "prize_sheet_pdf",
    "reconciliation_pdf",
    "rotation_cards_pdf",
    "score_sheets_pdf",
    "seating_pdf",
    "standings_pdf",
    "table_cards_pdf",
    "tally_cards_pdf",
    "wall_chart_pdf",
]
