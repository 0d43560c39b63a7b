"""Big print batches: made by a Celery task with progress the page can show. Small batches come straight back.

Services: `print_job_start` (the view's side: one transaction, the task sent on commit) and `print_job_run`
(the task's side: builds the file, saving progress as it goes, harmless if run twice).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.files.base import ContentFile
from django.db import transaction

from tournament.selectors import game_lines, night_standings
from tournament.sheets import pdf

from .. import charts, dispatch, selectors
from ..models import Night, PrintJob, Round
from ..services import table_links_ensure

# More cards than this are built by the worker, with a progress bar; fewer come straight back.
BATCH_THRESHOLD = 300


def header(night: Night) -> pdf.SheetHeader:
    return pdf.SheetHeader(
        night=night.name,
        date=f"{night.date:%A} {night.date.day} {night.date:%B %Y}",
        venue=night.venue,
        paper=night.paper,
    )


def tally_cards(night: Night, *, per_page: int, blank: int) -> list[pdf.TallyCard]:
    if blank:
        return [pdf.TallyCard("", [], number) for number in range(1, blank + 1)]
    lines = game_lines(night)
    return [
        pdf.TallyCard(entry.player.name, lines.get(entry.player_id, []), entry.player_id)
        for entry in selectors.night_entries(night)
    ]


def rotation_cards(night: Night) -> list[pdf.PlanCard]:
    """A card for every number on the night's chart, names printed where the number is taken."""
    cards = []
    for card in charts.plan_cards(night):
        rows = [
            pdf.PlanRow(line.game, None, "", "", "")
            if line.sit_out
            else pdf.PlanRow(
                line.game,
                line.table,
                line.seat,
                card.who(line.partner),
                " & ".join(card.who(number) for number in line.opponents),
            )
            for line in card.lines
        ]
        cards.append(pdf.PlanCard(card.number, card.name, rows))
    return cards


def wall_chart_bytes(night: Night) -> bytes:
    chart = charts.night_chart(night)
    games = [
        pdf.WallGame(game.number, {table.number: table.seats for table in game.tables}, game.sit_out)
        for game in (chart.rounds if chart else ())
    ]
    tables = max((len(game.tables) for game in games), default=0)
    note = f"{chart.players} numbers, {chart.games} games" if chart else ""
    if chart and chart.perfect:
        note += ": everyone partners everyone else at most once"
    return pdf.wall_chart_pdf(header(night), games, tables, note)


def tally_cards_bytes(night: Night, *, per_page: int, blank: int, progress=None) -> bytes:
    if night.movement == Night.Movement.ROTATION and night.chart:
        return pdf.rotation_cards_pdf(header(night), rotation_cards(night), per_page=per_page)
    cards = tally_cards(night, per_page=per_page, blank=blank)
    return pdf.tally_cards_pdf(header(night), cards, night.games, per_page=per_page, progress=progress)


@transaction.atomic
def print_job_start(*, night: Night, per_page: int, blank: int) -> PrintJob:
    job = PrintJob.objects.create(night=night, kind="tally_cards", params={"per_page": per_page, "blank": blank})
    dispatch.send_on_commit(dispatch.BUILD_PRINT_JOB, job.pk)
    return job


def print_job_run(*, job_id: int) -> PrintJob:
    job = PrintJob.objects.select_related("night").get(pk=job_id)
    if job.status in (PrintJob.Status.DONE, PrintJob.Status.RUNNING):
        return job  # a task delivered twice builds once
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING)

    def progress(done: int, total: int) -> None:
        PrintJob.objects.filter(pk=job.pk).update(done=done, total=total)

    try:
        content = tally_cards_bytes(job.night, progress=progress, **job.params)
    except Exception as error:
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=str(error)[:300])
        raise
    job.refresh_from_db()
    job.file.save(f"tally-cards-{job.night_id}-{job.pk}.pdf", ContentFile(content), save=False)
    job.status = PrintJob.Status.DONE
    job.done = job.total
    job.save(update_fields=["file", "status", "done"])
    return job


# ---- every sheet by name, for the pages and for `manage.py print_sheets` ----------------------------------------

# A table's scoring link from its token: the pages build it from the request, the command from --base-url.
LinkUrl = Callable[[str], str]
SHEETS = ("tally-cards", "score-sheets", "table-cards", "seating", "standings", "chart")


def _game(night: Night, number: int | None) -> Round | None:
    if number is None:
        return selectors.current_round(night)
    return night.rounds.filter(number=number).first()


def table_cards_bytes(night: Night, link_url: LinkUrl) -> bytes:
    """A card for each table with its number, head or tail, and the QR code of its scoring link."""
    links = table_links_ensure(night=night)
    count = len(links)
    cards = [
        pdf.TableCard(
            table=link.table,
            label=selectors.table_label(link.table, count).upper() if count > 1 else "",
            url=link_url(link.token),
        )
        for link in links
    ]
    return pdf.table_cards_pdf(header(night), cards)


def seating_bytes(night: Night, game: int | None = None) -> bytes:
    """The wall sheet for a game (the latest seated one unless `game` is given)."""
    round_ = _game(night, game)
    if round_ is None:
        return pdf.seating_pdf(header(night), 0, [], [])
    lines = [
        pdf.SeatLine(line.name, f"Table {line.table} · {line.seat_name}" if line.table else "sits out", line.partner)
        for line in selectors.seat_finder(round_)
    ]
    tables = [
        pdf.SeatTable(table.number, table.label.lower(), table.seats) for table in selectors.round_view(round_).tables
    ]
    return pdf.seating_pdf(header(night), round_.number, lines, tables)


def score_sheets_bytes(night: Night, link_url: LinkUrl, game: int | None = None) -> bytes:
    """A score sheet for each table of a game, with the table's QR code for phone entry."""
    round_ = _game(night, game)
    links = {link.table: link.token for link in table_links_ensure(night=night)}
    sheets = [
        pdf.ScoreSheet(
            table=table.number,
            label=table.label.lower(),
            game=round_.number,
            seats=table.seats,
            url=link_url(links[table.number]),
        )
        for table in (selectors.round_view(round_).tables if round_ else [])
        if table.number in links
    ]
    return pdf.score_sheets_pdf(header(night), sheets, night.hands_per_game)


def standings_bytes(night: Night) -> bytes:
    return pdf.standings_pdf(header(night), night_standings(night))


def sheet_bytes(night: Night, sheet: str, *, link_url: LinkUrl, game: int | None = None, per_page: int = 2) -> bytes:
    """Any sheet by its name in SHEETS."""
    if sheet == "tally-cards":
        return tally_cards_bytes(night, per_page=per_page, blank=0)
    if sheet == "score-sheets":
        return score_sheets_bytes(night, link_url, game)
    if sheet == "table-cards":
        return table_cards_bytes(night, link_url)
    if sheet == "seating":
        return seating_bytes(night, game)
    if sheet == "standings":
        return standings_bytes(night)
    if sheet == "chart":
        return wall_chart_bytes(night)
    raise ValueError(f"Unknown sheet {sheet!r}: use one of {', '.join(SHEETS)}.")
