"""The printed sheets: text taken back out of the PDFs, page sizes, and the same bytes for the same data."""

from __future__ import annotations

import io
import itertools

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import play_round, register
from tournament import game, services
from tournament.rehearsal import simulate
from tournament.selectors import game_lines, night_standings
from tournament.sheets import pdf

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


@pytest.fixture
def finished(night):
    register(night, 8)
    round_ = services.night_draw(night=night, seed=21)
    for _ in range(night.games):
        scores = {1: (7, 1), 2: (3, 5)}
        round_ = game.round_close(round_=play_round(round_, scores))
    return night


def header(night, paper="letter"):
    return pdf.SheetHeader(night=night.name, date="Monday 30 November 2026", venue=night.venue, paper=paper)


def test_standings_sheet_lists_everyone_with_high_and_low(finished):
    standings = night_standings(finished)
    (page,) = text_of(pdf.standings_pdf(header(finished), standings))
    assert "St Mary's Euchre Night" in page
    assert "Standings after 3 games" in page
    high, low = standings.high[0], standings.low[0]
    assert f"High score: {', '.join(r.name for r in standings.high)} — {high.total} points" in page
    assert f"Low score: {', '.join(r.name for r in standings.low)} — {low.total} points" in page
    for row in standings.rows:
        assert row.name in page
    assert "Łukasz Żółć" in page and "Chloé Dubois" in page


def test_a_name_typed_with_an_emoji_prints_without_an_empty_box(finished):
    """The bundled font has no emoji: the name prints without it, not with a box (a .notdef glyph, read back as
    U+0000) in the middle; the sheets' accented letters are untouched."""
    entries = list(finished.entries.select_related("player"))
    cards = [pdf.TallyCard(e.player.name, [], e.card, e.code) for e in entries]
    cards[0] = pdf.TallyCard("Ann 🎉 Lée 🇨🇦", [], cards[0].number, cards[0].code)
    (text, *_rest) = text_of(pdf.tally_cards_pdf(header(finished), cards, finished.games))
    assert "Ann Lée" in text and "\x00" not in text
    assert "🎉" not in text and "🇨🇦" not in text


def test_tally_cards_two_to_a_page_with_running_totals(finished):
    lines = game_lines(finished)
    entries = list(finished.entries.select_related("player"))
    cards = [pdf.TallyCard(e.player.name, lines[e.player_id], e.card, e.code) for e in entries]
    pages = text_of(pdf.tally_cards_pdf(header(finished), cards, finished.games))
    assert len(pages) == 4
    first = entries[0]
    card_lines = lines[first.player_id]
    page = pages[0]
    assert first.player.name in page
    assert f"No. {first.card} · Code {first.code}" in page  # the number that finds them, the code that confirms
    assert card_lines[0].partner in page
    running = [line.running_total for line in card_lines]
    assert running == sorted(running) and running[-1] == sum(line.points for line in card_lines)
    # A box for an opponent's initials; on a card printed after the game, the opponents' own.
    assert "Initials" in page
    played = next(line for line in card_lines if not line.bye)
    assert " ".join(pdf.initials(name) for name in played.opponents) in page


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Łukasz Żółć", "ŁŻ"), ("Ann B.", "AB"), ("Chloé de la Tour", "CT"), ("Cher", "C"), ("o'Brien", "O"), ("", "")],
)
def test_initials_are_the_first_and_last_names_first_letters(name, expected):
    assert pdf.initials(name) == expected


@pytest.mark.parametrize("paper,size", [("letter", (612, 792)), ("a4", (595, 842))])
def test_paper_size_follows_the_night(finished, paper, size):
    content = pdf.standings_pdf(header(finished, paper), night_standings(finished))
    box = PdfReader(io.BytesIO(content)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_same_data_gives_the_same_bytes(finished):
    standings = night_standings(finished)
    assert pdf.standings_pdf(header(finished), standings) == pdf.standings_pdf(header(finished), standings)


@pytest.mark.slow
def test_a_big_night_standings_runs_over_pages_with_the_header_repeated():
    night = simulate(players=120, rounds=10, seed=3, entry="totals")  # the pages, not the hands, are the point
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
    from tournament.models import PrintJob
    from tournament.sheets import printing

    monkeypatch.setattr(printing, "BATCH_THRESHOLD", 3)
    url = reverse("tournament:tally_cards_pdf", args=[finished.pk])
    offer = organizer_client.get(url)
    assert "8 cards: a big batch" in offer.content.decode() and not PrintJob.objects.exists()  # a GET writes nothing
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.post(url)
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/print/{job.pk}/")
    assert (job.status, job.total, job.done) == ("done", 8, 8)
    page = organizer_client.get(response["Location"]).content.decode()
    assert "Download the PDF" in page and "8 of 8 cards" in page
    pdf_bytes = organizer_client.get(response["Location"], {"download": "1"}).content
    assert len(text_of(pdf_bytes)) == 4
    assert printing.print_job_run(job_id=job.pk).status == "done"  # delivered twice: built once


def test_a_second_delivery_while_the_first_builds_builds_nothing(finished, monkeypatch):
    from tournament.models import PrintJob
    from tournament.sheets import printing

    job = PrintJob.objects.create(night=finished, kind="tally-cards", params={})
    builds, during = [], []
    real = printing.sheet_bytes

    def build(*args, **kwargs):
        builds.append(1)
        if len(builds) == 1:  # the task delivered again while this build is under way
            during.append(printing.print_job_run(job_id=job.pk).status)
        return real(*args, **kwargs)

    monkeypatch.setattr(printing, "sheet_bytes", build)
    assert printing.print_job_run(job_id=job.pk).status == "done"
    assert builds == [1] and during == ["running"]
    job.refresh_from_db()
    assert job.attempt == 1 and len(text_of(job.file.read())) == 4


def test_a_build_left_by_a_dead_worker_is_sent_again_and_taken_over(
    finished, settings, django_capture_on_commit_callbacks
):
    import datetime as dt

    from django.utils import timezone

    from tournament import tasks
    from tournament.models import PrintJob
    from tournament.sheets import printing

    settings.PRINT_JOB_STALE_SECONDS = 60
    now = timezone.now()
    # What a worker killed mid-build leaves: running, with its last sign of life long ago.
    dead = PrintJob.objects.create(night=finished, kind="tally-cards", status="running", beat_at=now, attempt=1)
    PrintJob.objects.filter(pk=dead.pk).update(beat_at=now - dt.timedelta(seconds=61), done=2, total=8)
    # A build from before jobs said they were alive, left running by a worker that died then.
    older = PrintJob.objects.create(night=finished, kind="tally-cards", status="running", beat_at=None)
    live = PrintJob.objects.create(night=finished, kind="tally-cards", status="running", beat_at=now, attempt=1)
    assert printing.print_job_run(job_id=live.pk).status == "running"  # a live build is never taken over
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.revive_print_jobs() == 2  # the dead ones only
    dead.refresh_from_db()
    older.refresh_from_db()
    assert (older.status, older.attempt) == ("done", 1)
    live.refresh_from_db()
    assert (dead.status, dead.attempt, dead.done, dead.total) == ("done", 2, 8, 8)
    assert len(text_of(dead.file.read())) == 4
    assert (live.status, live.attempt, live.file.name) == ("running", 1, "")


def test_a_job_whose_builds_keep_killing_the_worker_is_marked_failed_not_sent_again(
    finished, settings, django_capture_on_commit_callbacks
):
    import datetime as dt

    from django.utils import timezone

    from tournament import tasks
    from tournament.models import PrintJob

    settings.PRINT_JOB_STALE_SECONDS, settings.PRINT_JOB_ATTEMPTS = 60, 3
    long_ago = timezone.now() - dt.timedelta(seconds=61)
    job = PrintJob.objects.create(night=finished, kind="tally-cards", status="running", attempt=3)
    PrintJob.objects.filter(pk=job.pk).update(beat_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert tasks.revive_print_jobs() == 0
    job.refresh_from_db()
    assert not sent and job.status == "failed" and "stopped while building it 3 times" in job.error


def test_a_file_that_cannot_be_saved_fails_the_job_with_the_reason(finished, monkeypatch):
    from django.core.files.storage import default_storage

    from tournament.models import PrintJob
    from tournament.sheets import printing

    def full(*args, **kwargs):
        raise OSError("No space left on device")

    monkeypatch.setattr(default_storage, "save", full)
    job = PrintJob.objects.create(night=finished, kind="tally-cards", params={})
    with pytest.raises(OSError):
        printing.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "No space left on device")
    assert printing.print_jobs_revive() == 0  # a failed job is not built again


def test_a_build_taken_over_meanwhile_finishes_nothing(finished, monkeypatch, settings, tmp_path):
    from tournament.models import PrintJob
    from tournament.sheets import printing

    job = PrintJob.objects.create(night=finished, kind="tally-cards", params={})
    real = printing.sheet_bytes

    def slow_build(*args, **kwargs):
        content = real(*args, **kwargs)
        # Meanwhile the job was thought dead and taken over by another build, which finished it.
        PrintJob.objects.filter(pk=job.pk).update(attempt=2, status="done", file="print/the-other-build.pdf")
        return content

    monkeypatch.setattr(printing, "sheet_bytes", slow_build)
    settings.MEDIA_ROOT = tmp_path
    printing.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert (job.attempt, job.status, job.file.name) == (2, "done", "print/the-other-build.pdf")
    assert not list(tmp_path.rglob("*.pdf"))  # the slow build's own file is not left behind


def test_any_sheet_can_be_a_worker_batch_score_sheets_with_their_qr_codes(
    organizer_client, busy, monkeypatch, django_capture_on_commit_callbacks
):
    from scoring.models import TableLink
    from tournament.models import PrintJob
    from tournament.sheets import printing

    monkeypatch.setattr(printing, "BATCH_THRESHOLD", 1)
    url = reverse("tournament:score_sheets_pdf", args=[busy.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer_client.post(url)
    job = PrintJob.objects.get()
    assert (job.kind, job.status) == ("score-sheets", "done")
    page = organizer_client.get(response["Location"]).content.decode()
    assert "Score sheets" in page and "Download the PDF" in page
    download = organizer_client.get(response["Location"], {"download": "1"})
    assert "score-sheets-game-3" in download["Content-Disposition"]
    pages = text_of(download.content)
    assert len(pages) == len(text_of(printing.sheet_bytes(busy, "score-sheets", base_url="http://x"))) == 2
    with job.file.open("rb") as handle:
        codes = qr_codes(handle.read())
    tokens = dict(TableLink.objects.filter(night=busy, active=True).values_list("table", "token"))
    assert codes == [[f"http://testserver/t/{tokens[table]}/"] for table in sorted(tokens)]  # as the page would


def test_a_small_batch_comes_straight_back(organizer_client, finished):
    response = organizer_client.get(reverse("tournament:tally_cards_pdf", args=[finished.pk]))
    assert response["Content-Type"] == "application/pdf"


# ---- every sheet, on Letter and on A4: the text read back, the page counts and sizes ---------------------------

PAPERS = {"letter": (612, 792), "a4": (595, 842)}


def pages_of(content: bytes) -> tuple[list[tuple[int, int]], list[str]]:
    """Each page's size in points and its text."""
    reader = PdfReader(io.BytesIO(content))
    sizes = [(round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in reader.pages]
    return sizes, [page.extract_text() for page in reader.pages]


def link_of(night):
    """The scoring link each table's QR code carries, as `print_sheets --base-url` builds it."""
    return lambda token: "http://192.168.1.20:8000" + reverse("scoring:table_link", args=[token])


@pytest.fixture
def busy(night):
    """Eleven players (three sit out each game), three games played by hand."""
    register(night, 11)
    round_ = services.night_draw(night=night, seed=5)
    for _ in range(night.games):
        round_ = game.round_close(round_=play_round(round_, {1: (9, 3), 2: (2, 6)}))
    return night


@pytest.fixture
def rotation_night(db):
    from tournament.models import Night

    night = services.night_create(
        name="Rotation social", venue="Legion hall", movement=Night.Movement.ROTATION, games=5, auto_advance=False
    )
    register(night, 9)
    services.night_draw(night=night, seed=11)
    night.refresh_from_db()
    return night


@pytest.mark.parametrize("paper", PAPERS)
def test_tally_cards_on_either_paper_name_everyone_with_their_number_and_total(busy, paper):
    from tournament.sheets import printing

    busy.paper = paper
    lines = game_lines(busy)
    entries = list(busy.entries.select_related("player"))
    for per_page, count in ((1, 11), (2, 6), (4, 3)):
        sizes, pages = pages_of(printing.sheet_bytes(busy, "tally-cards", per_page=per_page, blank=0))
        assert len(pages) == count and set(sizes) == {PAPERS[paper]}
        text = "\n".join(pages)
        for entry in entries:
            assert f"{entry.player.name} · No. {entry.card} · Code {entry.code}" in text
        assert text.count("Total") == 2 * len(entries)  # the column head and the last row of every card
    # Two a page: the first card's rows hold its games' tables and its running total.
    sizes, pages = pages_of(printing.sheet_bytes(busy, "tally-cards", per_page=2, blank=0))
    first = sorted(entries, key=lambda e: e.player.name)[0]
    own = next(page for page in pages if first.player.name in page)
    card = own[own.index(first.player.name) :]
    for line in lines[first.player_id]:
        assert str(line.running_total) in card
    byes = sum(1 for line in lines[first.player_id] if line.bye)
    assert card.count("bye") >= byes


@pytest.mark.parametrize("paper", PAPERS)
def test_blank_tally_cards_on_either_paper(busy, paper):
    from tournament.sheets import printing

    busy.paper = paper
    for per_page, count in ((1, 10), (2, 5), (4, 3)):
        sizes, pages = pages_of(printing.sheet_bytes(busy, "tally-cards", per_page=per_page, blank=10))
        assert len(pages) == count and set(sizes) == {PAPERS[paper]}
        text = "\n".join(pages)
        assert text.count("Name: ____") == 10
        assert all(str(game) in text for game in range(1, busy.games + 1))
        assert busy.entries.first().player.name not in text


@pytest.mark.parametrize("paper", PAPERS)
def test_table_cards_on_either_paper(busy, paper):
    from scoring.models import TableLink
    from tournament.sheets import printing

    busy.paper = paper
    sizes, pages = pages_of(printing.sheet_bytes(busy, "table-cards", link_url=link_of(busy)))
    assert len(pages) == 2 and set(sizes) == {PAPERS[paper]}
    for number, page in enumerate(pages, 1):
        token = TableLink.objects.get(night=busy, table=number, active=True).token
        assert "TABLE" in page and str(number) in page.split()
        assert f"http://192.168.1.20:8000/t/{token}/" in page
        assert "St Mary's Euchre Night" in page
    assert "HEAD TABLE" in pages[0] and "TAIL TABLE" in pages[1]


@pytest.mark.parametrize("paper", PAPERS)
def test_seating_sheet_on_either_paper(busy, paper):
    from tournament import selectors
    from tournament.sheets import printing

    busy.paper = paper
    for number in (1, 3):
        sizes, pages = pages_of(printing.sheet_bytes(busy, "seating", game=number))
        assert len(pages) == 2 and set(sizes) == {PAPERS[paper]}  # the finder, then table by table
        assert f"where to sit for game {number}" in pages[0] and "Table by table" in pages[1]
        round_ = busy.rounds.get(number=number)
        for line in selectors.seat_finder(round_):
            where = f"Table {line.table} · {line.seat_name}" if line.table else "sits out"
            assert line.name in pages[0] and where in pages[0]
        assert pages[0].count("sits out") == 3  # eleven players: three sit out
        for table in selectors.round_view(round_).tables:
            assert all(name in pages[1] for name in table.seats.values())


@pytest.mark.parametrize("paper", PAPERS)
def test_score_sheets_on_either_paper(busy, paper):
    from tournament import selectors
    from tournament.sheets import printing

    busy.paper = paper
    sizes, pages = pages_of(printing.sheet_bytes(busy, "score-sheets", link_url=link_of(busy), game=2))
    tables = selectors.round_view(busy.rounds.get(number=2)).tables
    assert len(pages) == len(tables) == 2 and set(sizes) == {PAPERS[paper]}
    for table, page in zip(tables, pages, strict=True):
        assert f"Table {table.number}" in page and "game 2" in page
        for seat, name in table.seats.items():
            assert f"{seat}: {name}" in page
        assert all(str(hand) in page.split() for hand in range(1, busy.hands_per_game + 3))
        assert "Signed for N–S" in page and "Signed for E–W" in page


@pytest.mark.parametrize("paper", PAPERS)
def test_standings_on_either_paper(busy, paper):
    from tournament.sheets import printing

    busy.paper = paper
    sizes, pages = pages_of(printing.sheet_bytes(busy, "standings"))
    assert len(pages) == 1 and set(sizes) == {PAPERS[paper]}
    standings = night_standings(busy)
    assert len(standings.rows) == 11
    # The table reads back a cell a line: rank, name, total, wins, loners and each game's score, row after row.
    cells = [
        cell
        for row in standings.rows
        for cell in (row.rank_label, row.name, row.total, row.wins, row.loners_made, *row.cells)
    ]
    assert "bye" in cells  # a bye reads as a bye, not as a game lost 0 to something
    lines = pages[0].splitlines()
    start = lines.index("G3") + 1
    assert lines[start : start + len(cells)] == [str(cell) for cell in cells]
    assert f"High score: {' and '.join(row.name for row in standings.high)}" in pages[0]


@pytest.mark.parametrize("paper", PAPERS)
def test_rotation_cards_on_either_paper(rotation_night, paper):
    from tournament import charts
    from tournament.sheets import printing

    rotation_night.paper = paper
    plans = {card.number: card for card in charts.plan_cards(rotation_night)}
    for per_page, count in ((1, 9), (2, 5), (4, 3)):
        sizes, pages = pages_of(printing.sheet_bytes(rotation_night, "tally-cards", per_page=per_page, blank=0))
        assert len(pages) == count and set(sizes) == {PAPERS[paper]}
        text = "\n".join(pages)
        for number, card in plans.items():
            assert f"No. {number} · {card.name}" in text
        sit_outs = sum(1 for card in plans.values() for line in card.lines if line.sit_out)
        assert text.count("sits out this game") == sit_outs
    # One a page: every game's table, seat, partner and opponents on the card, by name.
    sizes, pages = pages_of(printing.sheet_bytes(rotation_night, "tally-cards", per_page=1, blank=0))
    for number, card in plans.items():
        page = pages[number - 1]
        for line in card.lines:
            if not line.sit_out:
                assert card.who(line.partner) in page
                assert all(card.who(other) in page for other in line.opponents)


@pytest.mark.parametrize("paper", PAPERS)
def test_rotation_wall_chart_on_either_paper(rotation_night, paper):
    from tournament import charts
    from tournament.sheets import printing

    rotation_night.paper = paper
    chart = charts.night_chart(rotation_night)
    sizes, pages = pages_of(printing.sheet_bytes(rotation_night, "chart"))
    width, height = PAPERS[paper]
    assert len(pages) == 1 and sizes == [(height, width)]  # landscape
    page = pages[0]
    assert "Rotation social — rotation chart" in page and "9 numbers, 5 games" in page
    for chart_game in chart.rounds:
        for table in chart_game.tables:
            n, e, s, w = (table.seats[seat] for seat in "NESW")
            assert f"Table {table.number}" in page
            assert f"{n} & {s}" in page and f"v {e} & {w}" in page
    assert "Sit out" in page


def test_a_big_rotation_chart_runs_six_tables_a_page_and_every_number_has_a_card(db):
    from tournament.models import Night
    from tournament.sheets import printing

    night = services.night_create(name="Big rotation", movement=Night.Movement.ROTATION, games=6, paper="a4")
    services.night_chart_build(night=night, players=40, seed=2)
    night.refresh_from_db()
    sizes, pages = pages_of(printing.sheet_bytes(night, "chart"))
    assert len(pages) == 2 and set(sizes) == {(842, 595)}  # ten tables: six, then four
    assert "tables 1–6 of 10" in pages[0] and "tables 7–10 of 10" in pages[1]
    assert "Table 6" in pages[0] and "Table 7" in pages[1]
    sizes, pages = pages_of(printing.sheet_bytes(night, "tally-cards", per_page=4, blank=0))
    assert len(pages) == 10 and all(f"No. {number}" in "\n".join(pages) for number in range(1, 41))


# ---- the QR codes: rendered to pixels and read back as a phone would ----------------------------------------------


def qr_codes(content: bytes) -> list[list[str]]:
    """The text of every QR code on each page, read from the page rendered at 150 dpi (a plain office printout)."""
    import pypdfium2
    import zxingcpp

    document = pypdfium2.PdfDocument(content)
    try:
        decoded = []
        for index in range(len(document)):
            image = document[index].render(scale=150 / 72).to_pil()
            codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
            decoded.append([code.text for code in codes])
    finally:
        document.close()
    return decoded


@pytest.mark.parametrize("sheet", ["table-cards", "score-sheets"])
@pytest.mark.parametrize("paper", PAPERS)
def test_every_qr_code_opens_its_tables_scoring_link(busy, sheet, paper):
    from scoring.models import TableLink
    from tournament.sheets import printing

    busy.paper = paper
    decoded = qr_codes(printing.sheet_bytes(busy, sheet, link_url=link_of(busy), game=3))
    tokens = dict(TableLink.objects.filter(night=busy, active=True).values_list("table", "token"))
    expected = [[f"http://192.168.1.20:8000/t/{tokens[table]}/"] for table in sorted(tokens)]
    assert decoded == expected


# ---- long names and long nights stay inside their boxes -----------------------------------------------------------

LONG = "Bartholomew Kowalczykowski-Wiśniewska"


def runs_of(content: bytes, page: int = 0) -> list[tuple[float, float, float, bool, str]]:
    """Every text run on a page: x, y, type size, bold, text."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            bold = bool(font) and "Bold" in str(font.get("/BaseFont", ""))
            found.append((x, y, size * tm[0] * cm[0], bold, text.strip()))

    PdfReader(io.BytesIO(content)).pages[page].extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_card_with_a_long_name_and_many_games_stays_whole_in_its_box(paper, per_page):
    header_ = pdf.SheetHeader(
        night="St Mary's Parish Hall Charity Euchre Night",
        date="Monday 30 November 2026",
        venue="Parish hall, 12 Long Street",
        paper=paper,
    )
    blank = [pdf.TallyCard("", [], number) for number in range(1, 9)]
    pages = text_of(pdf.tally_cards_pdf(header_, blank, 12, per_page=per_page))
    assert len(pages) == 8 // per_page  # a card that ran past its box would push the rest on
    assert all(page.count("Total") == 2 * per_page for page in pages)  # each card's head and its last row
    plan = [
        pdf.PlanRow(game, 12, "N", "123 Maximilian K. & 234 Bartholomew W.", "345 Wilhelmina Z. & 356 Leopoldine K.")
        for game in range(1, 24)
    ]
    cards = [pdf.PlanCard(number, LONG, plan) for number in range(397, 405)]
    pages = text_of(pdf.rotation_cards_pdf(header_, cards, per_page=per_page))
    assert len(pages) == 8 // per_page
    assert all(page.count("Total") == 2 * per_page for page in pages)


@pytest.mark.parametrize("games", [10, 13, 23])
def test_standings_of_a_long_night_keep_every_game_column_apart(finished, games):
    import dataclasses

    from reportlab.pdfbase import pdfmetrics

    standings = night_standings(finished)
    rows = [dataclasses.replace(row, per_round=[12] * games, cells=["12"] * games) for row in standings.rows]
    long_night = dataclasses.replace(standings, rows=rows, rounds_closed=games)
    content = pdf.standings_pdf(header(finished), long_night)
    runs = runs_of(content)
    loners_x, head_y = next((x, y) for x, y, size, bold, text in runs if text == "Loners")
    # The game columns' heads, right of Loners on the head row (smaller type sits a little lower in the cell).
    labels = sorted(run for run in runs if abs(run[1] - head_y) < 5 and run[0] > loners_x + 10)
    assert len(labels) == games
    font = pdf.BOLD
    for (x, _, size, _, text), (next_x, *_) in itertools.pairwise(labels):
        assert x + pdfmetrics.stringWidth(text, font, size) < next_x, f"{text} runs into the next column"
    figures = [run for run in runs if run[4] == "12" and run[1] < head_y - 5 and run[0] > loners_x + 10]
    first_row = sorted(run for run in figures if abs(run[1] - figures[0][1]) < 1)
    assert len(first_row) == games
    for (x, _, size, _, text), (next_x, *_) in itertools.pairwise(first_row):
        assert x + pdfmetrics.stringWidth(text, pdf.FONT, size) < next_x
    assert min(size for _, _, size, _, _ in first_row) >= 5  # small on a 23-game night, but still print


def test_a_print_job_whose_night_was_deleted_while_it_waited_builds_nothing_and_fails_nothing(finished):
    """The organizer deleted a practice night while its cards waited for the worker: the job went with the night,
    and the worker's delivery of it finds nothing to do (no error in the worker's log)."""
    from tournament import tasks
    from tournament.models import PrintJob
    from tournament.sheets import printing

    job = printing.print_job_start(night=finished, sheet="tally-cards")
    job_id = job.pk
    finished.delete()
    assert not PrintJob.objects.filter(pk=job_id).exists()
    assert tasks.build_print_job(job_id) == 0


def test_a_sheet_heading_counts_its_games_in_words():
    from tournament.sheets.pdf.common import games_word

    assert [games_word(n) for n in (0, 1, 2, 10)] == ["0 games", "1 game", "2 games", "10 games"]
