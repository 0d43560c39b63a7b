"""The printed sheets: text taken back out of the PDFs, page sizes, and the same bytes for the same data."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring import pdf
from scoring.selectors import game_lines, night_standings
from tests.conftest import play_round, register
from tournament import services
from tournament.management.commands.simulate_night import simulate

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


@pytest.fixture
def finished(night):
    register(night, 8)
    round_ = services.night_draw(night=night, seed=21)
    for _ in range(night.games):
        scores = {1: (7, 1), 2: (3, 5)}
        round_ = services.round_close(round_=play_round(round_, scores))
    return night


def header(night, paper="letter"):
    return pdf.SheetHeader(night=night.name, date="Monday 30 November 2026", venue=night.venue, paper=paper)


def test_standings_sheet_lists_everyone_with_high_and_low(finished):
    standings = night_standings(finished)
    (page,) = text_of(pdf.standings_pdf(header(finished), standings))
    assert "St Mary's Euchre Night" in page
    assert "Standings after 3 game(s)" in page
    high, low = standings.high[0], standings.low[0]
    assert f"High score: {', '.join(r.name for r in standings.high)} — {high.total} points" in page
    assert f"Low score: {', '.join(r.name for r in standings.low)} — {low.total} points" in page
    for row in standings.rows:
        assert row.name in page
    assert "Łukasz Żółć" in page and "Chloé Dubois" in page


def test_tally_cards_two_to_a_page_with_running_totals(finished):
    lines = game_lines(finished)
    entries = list(finished.entries.select_related("player"))
    cards = [pdf.TallyCard(e.player.name, lines[e.player_id], e.player_id) for e in entries]
    pages = text_of(pdf.tally_cards_pdf(header(finished), cards, finished.games))
    assert len(pages) == 4
    first = entries[0]
    card_lines = lines[first.player_id]
    page = pages[0]
    assert first.player.name in page
    assert f"No. {first.player_id}" in page  # the number the other side confirms scores with
    assert card_lines[0].partner in page
    running = [line.running_total for line in card_lines]
    assert running == sorted(running) and running[-1] == sum(line.points for line in card_lines)


@pytest.mark.parametrize("paper,size", [("letter", (612, 792)), ("a4", (595, 842))])
def test_paper_size_follows_the_night(finished, paper, size):
    content = pdf.standings_pdf(header(finished, paper), night_standings(finished))
    box = PdfReader(io.BytesIO(content)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_same_data_gives_the_same_bytes(finished):
    standings = night_standings(finished)
    assert pdf.standings_pdf(header(finished), standings) == pdf.standings_pdf(header(finished), standings)


def test_a_big_night_standings_runs_over_pages_with_the_header_repeated():
    night = simulate(players=120, rounds=10, seed=3)
    pages = text_of(pdf.standings_pdf(header(night), night_standings(night)))
    assert len(pages) >= 3
    assert all("Rank" in page and "Total" in page for page in pages)


def test_downloads_name_the_night(organizer_client, finished):
    response = organizer_client.get(reverse("tournament:tally_cards_pdf", args=[finished.pk]))
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="st-marys-euchre-night-' in response["Content-Disposition"]
    assert len(text_of(response.content)) == 4


def test_table_cards_carry_the_number_head_and_tail_and_a_working_link(organizer_client, finished):
    from scoring.models import TableLink

    response = organizer_client.get(reverse("tournament:table_cards_pdf", args=[finished.pk]))
    pages = text_of(response.content)
    assert len(pages) == 2
    assert "HEAD TABLE" in pages[0] and "TAIL TABLE" in pages[1]
    token = TableLink.objects.get(night=finished, table=2, active=True).token
    assert f"/t/{token}/" in pages[1]


def test_the_seating_sheet_lists_everyone_and_every_table(client, night):
    register(night, 9)
    round_ = services.night_draw(night=night, seed=3)
    response = client.get(reverse("tournament:seating_pdf", args=[night.pk]))
    page = "\n".join(text_of(response.content))
    assert "where to sit for game 1" in page and "Table by table" in page
    for seating in round_.seatings.select_related("player"):
        assert seating.player.name in page
    assert "sits out" in page  # nine players: one bye


def test_score_sheets_one_a_table_with_seats_a_hand_grid_and_the_link(organizer_client, night):
    from scoring.models import TableLink

    register(night, 8)
    round_ = services.night_draw(night=night, seed=3)
    pages = text_of(organizer_client.get(reverse("tournament:score_sheets_pdf", args=[night.pk])).content)
    assert len(pages) == 2
    assert "Table 1 — HEAD TABLE · game 1" in pages[0]
    for seating in round_.seatings.filter(table=2).select_related("player"):
        assert seating.player.name in pages[1]
    assert "Signed for N–S" in pages[1] and "10" in pages[1]  # eight hands and two spare rows
    assert TableLink.objects.filter(night=night, active=True).count() == 2


@pytest.mark.parametrize("per_page,pages", [(1, 8), (2, 4), (4, 2)])
def test_tally_cards_one_two_or_four_a_page(organizer_client, finished, per_page, pages):
    url = reverse("tournament:tally_cards_pdf", args=[finished.pk])
    content = organizer_client.get(url, {"per_page": per_page}).content
    assert len(text_of(content)) == pages


def test_blank_tally_cards_to_write_names_on(organizer_client, finished):
    url = reverse("tournament:tally_cards_pdf", args=[finished.pk])
    pages = text_of(organizer_client.get(url, {"blank": 8, "per_page": 4}).content)
    assert len(pages) == 2 and "Name: ____" in pages[0]


def test_a_big_batch_is_built_by_the_worker_with_progress_and_a_download(
    organizer_client, finished, monkeypatch, django_capture_on_commit_callbacks
):
    from tournament import printing
    from tournament.models import PrintJob

    monkeypatch.setattr(printing, "BATCH_THRESHOLD", 3)
    url = reverse("tournament:tally_cards_pdf", args=[finished.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.get(url)
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/print/{job.pk}/")
    assert (job.status, job.total, job.done) == ("done", 8, 8)
    page = organizer_client.get(response["Location"]).content.decode()
    assert "Download the PDF" in page and "8 of 8 cards" in page
    pdf_bytes = organizer_client.get(response["Location"], {"download": "1"}).content
    assert len(text_of(pdf_bytes)) == 4
    assert printing.print_job_run(job_id=job.pk).status == "done"  # delivered twice: built once


def test_a_small_batch_comes_straight_back(organizer_client, finished):
    response = organizer_client.get(reverse("tournament:tally_cards_pdf", args=[finished.pk]))
    assert response["Content-Type"] == "application/pdf"
