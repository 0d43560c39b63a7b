"""A night ranked as clubs with byes rank (#36): chosen on the night's settings page, played through the services
with byes, a late arrival and a leaver, then read through the pages: the standings page and the printed standings
list the players in the order win %, points %, number would give, worked out here from the stored games alone, with
the chain's names on their foot."""

from __future__ import annotations

import html
import io
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import TableResult
from tests.conftest import register
from tests.tournament.test_night_settings import form_data
from tournament import game, services
from tournament.models import Bye, Entry, Night, Round, Seating

pytestmark = pytest.mark.django_db

FOOT = "win percentage (Win %), then points percentage (Pts %), then player's number (No.)"
SCORES = [(10, 6), (4, 10), (13, 2), (7, 9), (10, 8), (3, 10)]


def play(round_, number: int):
    """Start `round_`, give each table a score of its own and close the game."""
    round_ = game.round_start(round_=round_)
    tables = sorted(set(round_.seatings.values_list("table", flat=True)))
    for table in tables:
        ns, ew = SCORES[(number * 2 + table) % len(SCORES)]
        game.table_result_submit(round_=round_, table=table, ns_points=ns, ew_points=ew)
    return game.round_close(round_=round_)


def as_clubs_rank(night: Night, number: str = "card") -> list[str]:
    """Each player's games won, points for and against from the stored seats and results (byes left out), sorted
    by win % (desc), points % (desc), number (the entry's `number`: its tally card, or a rotation night's chart
    number): the order the club would read out."""
    played: dict[int, list[tuple[int, int, bool]]] = {}
    # A player who never checked in and never played (a no-show) is on no list.
    entries = Entry.objects.filter(night=night, player__house=False, checked_in=True).select_related("player")
    for entry in entries:
        played[entry.player_id] = []
    for result in TableResult.objects.filter(round__night=night, round__status=Round.Status.CLOSED):
        for seat in Seating.objects.filter(round_id=result.round_id, table=result.table):
            side = "NS" if seat.seat in "NS" else "EW"
            ours, theirs = (
                (result.ns_points, result.ew_points) if side == "NS" else (result.ew_points, result.ns_points)
            )
            played[seat.player_id].append((ours, theirs, result.winner == side))

    def key(entry: Entry):
        games = played[entry.player_id]
        scored, against = sum(g[0] for g in games), sum(g[1] for g in games)
        win = Fraction(sum(g[2] for g in games), len(games)) if games else None
        share = Fraction(scored, scored + against) if games and scored + against > 0 else None
        return (win is None, -(win or 0), share is None, -(share or 0), getattr(entry, number))

    return [entry.player.name for entry in sorted(entries, key=key)]


def night_page(client, night: Night) -> str:
    return client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()


def standings_table(page: str) -> str:
    """The standings table of the night's page."""
    start = page.index('<table class="standings">')
    return page[start : page.index("</table>", start)]


def names_in(table: str) -> list[str]:
    return [html.unescape(name).strip() for name in re.findall(r'<td class="left">([^<]+)', table)]


@pytest.fixture
def club_night(organizer_client):
    """Nine players (a bye each game) and one registered who never came (a no-show, on no list), the clubs' chain chosen
    on the settings page; a tenth arrives after game 1 (two byes a game), one leaves after game 2; four games."""
    night = services.night_create(name="Club seeding", games=4, auto_advance=False)
    url = reverse("tournament:night_settings", args=[night.pk])
    assert "As clubs with byes rank" in organizer_client.get(url).content.decode()
    assert organizer_client.post(url, form_data(night, rank_by="clubs")).status_code == 302
    night.refresh_from_db()
    assert night.rank_by == "clubs"
    register(night, 10)
    services.entry_set_checked_in(entry=Entry.objects.get(night=night, player__name="Jack Gagnon"), checked_in=False)
    round_ = play(services.night_draw(night=night, seed=5), 1)
    services.players_register(night=night, names=["Late Lou"])
    round_ = play(round_, 2)
    services.entry_set_active(entry=Entry.objects.get(night=night, player__name="Bob Martin"), active=False)
    round_ = play(round_, 3)
    play(round_, 4)
    assert Bye.objects.filter(round__night=night).count() >= 4
    return night


def test_the_standings_page_and_sheet_rank_as_the_club_would_with_the_chain_on_their_foot(organizer_client, club_night):
    expected = as_clubs_rank(club_night)
    page = night_page(organizer_client, club_night)
    table = standings_table(page)
    assert names_in(table) == expected
    assert "<th>Win %</th><th>Pts %</th><th>No.</th>" in table
    assert re.search(r'<td class="figure"[^>]*>\d{1,3}\.\d %</td>', table)
    # On a phone with large text each figure is read with its column's name (the headings are not shown there).
    labels = re.findall(r'<td class="figure" data-label="([^"]*)"', table)
    assert labels and labels == ["Win %", "Pts %", "No."] * (len(labels) // 3)
    # The player registered who never came is on no list (a player with no game has no percentage, "–": the
    # pure tests in tests/scoring/test_club_ranking.py).
    assert "Jack Gagnon" not in table
    foot = " ".join(html.unescape(page[page.index("Ranked by win percentage") :].split("</p>")[0]).split())
    assert foot.startswith(f"Ranked by {FOOT}; players still level share the rank (=).")
    assert "byes and games not played count in neither part" in foot

    sheet = organizer_client.get(reverse("tournament:standings_pdf", args=[club_night.pk]))
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages).split())
    text = text[text.index("Rank Name") :]  # the table, after the prizes
    places = [text.index(name) for name in expected]
    assert places == sorted(places)
    assert f"Ties are broken by: {FOOT}." in text
    assert "Win % is games won ÷ games played" in text

    display = organizer_client.get(reverse("tournament:room_display", args=[club_night.pk])).content.decode()
    assert "<th>Win %</th><th>Pts %</th><th>No.</th>" in display


def test_a_rotation_night_goes_by_the_chart_number_its_cards_show(organizer_client):
    """Chart numbers drawn at random (the draw's order), not the order of arrival: the number column and the last
    link are the chart's number, as each tally card shows it."""
    night = services.night_create(
        name="Rotation seeding", movement="rotation", numbering="random", games=3, auto_advance=False, rank_by="clubs"
    )
    register(night, 9)
    round_ = play(services.night_draw(night=night, seed=3), 1)
    play(play(round_, 2), 3)
    entries = Entry.objects.filter(night=night).select_related("player")
    assert any(entry.number != entry.card for entry in entries)  # the draw did not number them as they came
    table = standings_table(night_page(organizer_client, night))
    rows = re.findall(
        r'<td class="left">([^<]+).*?<td class="figure"[^>]*>[^<]*</td><td class="figure"[^>]*>[^<]*</td>'
        r'<td class="figure"[^>]*>(\d+)</td>',
        table,
        re.S,
    )
    chart = {entry.player.name: entry.number for entry in entries}
    assert [html.unescape(name).strip() for name, _ in rows] == as_clubs_rank(night, "number")
    assert {html.unescape(name).strip(): int(number) for name, number in rows} == chart


def test_ranked_by_total_points_the_same_night_reads_otherwise(organizer_client, club_night):
    """The night's games give the clubs' order a meaning of its own: by total points (the default) it differs. (The
    ranking no longer changes after the draw; the test sets it straight in the database to read the same games.)"""
    Night.objects.filter(pk=club_night.pk).update(rank_by="total")
    page = night_page(organizer_client, club_night)
    table = standings_table(page)
    assert names_in(table) != as_clubs_rank(club_night)
    assert "Win %" not in table and "Ranked by total points, then games won" in page
