"""A table's game totals as they are typed: one frozen value, said once. Pure Python.

The keeper's desk, the organizer's night page and the table's phone each build one from their form
(`tournament.score_forms.PointBoxes.totals`); a draft confirmed is one again. The game's life
(`tournament.game.table_result_submit`, `table_draft_submit`) and the record (`scoring.services.total_store`,
`draft_store`) take it whole. Who typed it (the user, their role, who confirmed a draft) and where (the round, the
table) are said beside it, by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Totals:
    """One table's game totals as typed, with what the form says about them."""

    ns_points: int = 0
    ew_points: int = 0
    # A table of three: each player's own points, {"N": …, "E": …, "S": …} (the two sides' totals are then 0).
    seat_points: Mapping[str, int] | None = None
    last_hand_winner: str | None = None  # where the totals cannot say who won: a side, or a seat at a table of three
    hands_played: int | None = None  # where the sheet says (the head table cut short by the bell); None: not known
    sure: bool = False  # "yes, that is the score": unusual totals asked about once
    expected_version: int | None = None  # the result's version the form was drawn from (None: a first entry)
    key: str | None = None  # the form's one-time key: the same form posted twice is stored once
    reason: str = ""  # why a closed game's score changes (a correction)
    take_over: bool = False  # the keeper replaces a table's hand-by-hand entry by these totals
    side: str = ""  # the side (at a table of three, the seat) that typed it on the table's phone
