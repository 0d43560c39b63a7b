"""A night ranked as clubs with byes rank (#36, leftovers), read where the standings page is not: the standings CSV
carries the chain's percentages as the page shows them, and the prize lines name the ranking that gave them (win %,
not the points alone). The figures expected are worked out here from the stored games alone."""

from __future__ import annotations

import csv
import html
import io
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import TableResult
from tests.tournament import test_club_ranking_night as clubs
from tests.tournament.test_club_ranking_night import night_page, standings_table
from tournament.models import Entry, Night, Round, Seating

pytestmark = pytest.mark.django_db
club_night = clubs.club_night  # the night of nine to ten players with byes, a late arrival and a leaver


def played(night: Night) -> dict[str, list[tuple[int, int, bool]]]:
    """Each player's games from the stored seats and results (byes left out): points for, against, won. A player
    who never checked in and never played (a no-show) has no line."""
    games: dict[str, list[tuple[int, int, bool]]] = {
        entry.player.name: [] for entry in Entry.objects.filter(night=night, checked_in=True).select_related("player")
    }
    for result in TableResult.objects.filter(round__night=night, round__status=Round.Status.CLOSED):
        for seat in Seating.objects.filter(round_id=result.round_id, table=result.table).select_related("player"):
            side = "NS" if seat.seat in "NS" else "EW"
            ours, theirs = (
                (result.ns_points, result.ew_points) if side == "NS" else (result.ew_points, result.ns_points)
            )
            games[seat.player.name].append((ours, theirs, result.winner == side))
    return games


def shown(share: Fraction | None, places: int) -> Decimal | None:
    if share is None:
        return None
    exact = Decimal(share.numerator) / Decimal(share.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def figures(games: list[tuple[int, int, bool]]) -> dict[str, str]:
    """A player's win %, points % and points per game as a person reads them ("71.4 %", "12.33"; "–" with none)."""
    scored, against = sum(g[0] for g in games), sum(g[1] for g in games)
    win = shown(100 * Fraction(sum(g[2] for g in games), len(games)), 1) if games else None
    share = shown(100 * Fraction(scored, scored + against), 1) if games and scored + against > 0 else None
    per_game = shown(Fraction(scored, len(games)), 2) if games else None
    return {
        "win percentage": "–" if win is None else f"{win} %",
        "points percentage": "–" if share is None else f"{share} %",
        "points per game played": "–" if per_game is None else str(per_game),
    }


def page_figures(table: str) -> dict[str, list[str]]:
    """Each player's row of the standings page: its chain columns' figures, in the page's order."""
    rows = {}
    for row in re.findall(r"<tr.*?</tr>", table, re.S):
        name = re.search(r'<td class="left">([^<]+)', row)
        if name:
            rows[html.unescape(name.group(1)).strip()] = re.findall(r'<td class="figure"[^>]*>([^<]*)</td>', row)
    return rows


@pytest.mark.parametrize(
    "chain, links",
    [
        ("", ["win percentage", "points percentage"]),  # the clubs' own chain: win %, points %, number
        ("win_pct,ppg,points_pct,number", ["win percentage", "points per game played", "points percentage"]),
    ],
)
def test_the_standings_csv_has_the_chains_percentages_as_the_page_shows_them(
    organizer_client, club_night, chain, links
):
    Night.objects.filter(pk=club_night.pk).update(tie_chain=chain)
    response = organizer_client.get(reverse("tournament:standings_csv", args=[club_night.pk]))
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    heading, rows = lines[0], lines[1:]
    first = heading.index("euchres") + 1
    assert heading[first : first + len(links)] == links
    assert heading[first + len(links)] == "game 1"
    games = played(club_night)
    page = page_figures(standings_table(night_page(organizer_client, club_night)))
    assert len(rows) == len(page) == len(games)
    for row in rows:
        name, cells = row[1], row[first : first + len(links)]
        expected = figures(games[name])
        assert cells == [expected[link] for link in links]
        assert cells == page[name][: len(links)]  # the page's columns, the player's number after them
    assert "Jack Gagnon" not in {row[1] for row in rows}  # registered, never came: on no list

    # Ranked by points, the same night's CSV has none of them (the page has none either).
    Night.objects.filter(pk=club_night.pk).update(rank_by="total", tie_chain="")
    response = organizer_client.get(reverse("tournament:standings_csv", args=[club_night.pk]))
    heading = next(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert heading[heading.index("euchres") + 1] == "game 1"


def test_prize_lines_on_a_clubs_night_name_the_win_percentage_they_were_won_by(client, organizer_client, club_night):
    games = played(club_night)
    sheet_rows = list(
        csv.DictReader(
            io.StringIO(
                organizer_client.get(reverse("tournament:standings_csv", args=[club_night.pk])).content.decode(
                    "utf-8-sig"
                )
            )
        )
    )
    totals = {row["player"]: row["total"] for row in sheet_rows}  # the standings' totals (a bye's credit in them)
    page = html.unescape(client.get(reverse("tournament:public_night", args=[club_night.pk])).content.decode())
    lines = dict(re.findall(r'<p class="prize">([^:<]+): ([^<]+)</p>', page))
    assert {"High score", "Second", "Low score"} <= set(lines)
    for prize in ("High score", "Second", "Low score"):
        names, value = re.fullmatch(r"(.+) \((.+)\)", lines[prize]).groups()
        winner = names.split(", ")[0]
        # The win % counts the games played alone; the points are the standings' total.
        assert value == f"win percentage {figures(games[winner])['win percentage']}, {totals[winner]} points"

    sheet = organizer_client.get(reverse("tournament:standings_pdf", args=[club_night.pk]))
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages).split())
    assert re.search(r"High score: .+ — win percentage \d{1,3}\.\d %, \d+ points", text)
