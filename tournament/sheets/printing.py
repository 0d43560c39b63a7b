"""Every printed sheet and every CSV, in one registry: an identifier, a title, who may have it (its audience), its
file's name, what it reads and how it is built.

`SHEETS` holds each download once. A sheet's `read` gathers what it shows from the selectors (reading only: a
download never writes; table links are made when the seating is drawn); its `draw` turns that into PDF bytes with
`tournament.sheets.pdf`. A CSV's `read` is its writer in `tournament.exports` and its `draw` the encoding.
`sheet_bytes` builds any of them, for the one download view (`tournament.views.sheets.download`, which checks the
audience), `manage.py print_sheets` and the print job: a big batch of any sheet is built by the worker
(`print_job_start`, `print_job_run`) while the page shows its progress. A CSV is never a big batch (a 600-player
night's hands take about a quarter of a second): it is built in the request, like a small print.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from scoring.models import Season

from .. import charts, dispatch, exports, selectors
from ..models import Night, PrintJob, Round
from . import pdf

# More items (cards, sheets) than this are built by the worker, with a progress bar; fewer come straight back.
BATCH_THRESHOLD = 300

# A table's scoring link from its token: the pages build it from the request, the command and the worker from a
# base address.
LinkUrl = Callable[[str], str]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Options:
    """How to print a sheet: which game, how many cards a page, blank cards, the address in the QR codes."""

    game: int | None = None
    per_page: int = 2
    blank: int = 0
    base_url: str = ""
    link_url: LinkUrl | None = field(default=None, compare=False)
    # Any page's address as phones open it (the pages give the request's; else `base_url` is put before the path).
    phone_url: LinkUrl | None = field(default=None, compare=False)
    player: str = ""  # a player's results sheet: whose (their results link's token)
    public: bool = False  # the standings for anyone but an organizer: players off public lists as "A player"

    def link(self, token: str) -> str:
        if self.link_url is not None:
            return self.link_url(token)
        return self.base_url.rstrip("/") + reverse("scoring:table_link", args=[token])

    def address(self, path: str) -> str:
        if self.phone_url is not None:
            return self.phone_url(path)
        return self.base_url.rstrip("/") + path

    def as_params(self) -> dict[str, Any]:
        """What a print job stores to build the same sheet later (the base address stands in for the links)."""
        return {key: value for key, value in asdict(self).items() if key not in {"link_url", "phone_url"}}


class Audience(StrEnum):
    """Who may download: checked in one place, the download view (`tournament.views.sheets.download`)."""

    PUBLIC = "public"  # anyone, signed in or not: what the room already sees (the standings, the seating)
    ORGANIZER = "organizer"  # an organizer's account (tournament.permissions.organizer_required)
    # The player whose results link (an unguessable token) the address carries: served by that link's own view
    # (tournament.views.player_results), never by the download view.
    PLAYER = "player"


PDF = "pdf"
CSV = "csv"


@dataclass(frozen=True)
class Sheet:
    """One download: a printed sheet (a PDF) or a CSV."""

    key: str  # as in `print_sheets --sheet` and a print job's kind; the address passes it to the one view
    title: str
    audience: Audience
    unit: str  # what the progress counts: "cards", "sheets", "pages"
    read: Callable[[Any, Options], Any]  # the data the download shows, from the selectors
    draw: Callable[[pdf.SheetHeader | None, Any, Options, Progress | None], bytes]
    # What the file is called after the night's name and date: "standings" gives
    # "spring-fundraiser-2026-12-03-standings.pdf" (see `download_name`).
    file_name: Callable[[Any, Options], str]
    # How many units a print makes, counted without reading the sheet: a batch above BATCH_THRESHOLD goes to the
    # worker. None: always a single print.
    size: Callable[[Night, Options], int] | None = None
    kind: str = PDF  # the file's extension: PDF or CSV
    content_type: str = "application/pdf"
    subject: type[Night] | type[Season] = Night  # what the address names: a night, or a season (its CSV)
    # The options the address may ask for (?per_page=4), read from its query; a value out of range is the default.
    query: Callable[[Mapping[str, str]], dict[str, Any]] = lambda query: {}
    # Players who asked to be left off public lists are "A player" in it for anyone but an organizer.
    hides_unlisted: bool = False


def header(night: Night) -> pdf.SheetHeader:
    return pdf.SheetHeader(
        night=night.name,
        date=f"{night.date:%A} {night.date.day} {night.date:%B %Y}",
        venue=night.venue,
        paper=night.paper,
        game_end=night.game_end().words(),
    )


def _game(night: Night, number: int | None) -> Round | None:
    if number is None:
        return selectors.current_round(night)
    return night.rounds.filter(number=number).first()


# ---- what each sheet reads ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TallyCards:
    games: int
    cards: list[pdf.TallyCard] | None = None  # a progressive night's cards (or blank ones)
    plan: list[pdf.PlanCard] | None = None  # a rotation night's numbered cards


def _rotation_cards(night: Night) -> list[pdf.PlanCard]:
    """A card for every number on the night's chart, names printed where the number is taken."""
    cards = []
    codes = dict(night.entries.filter(number__isnull=False).values_list("number", "code"))
    for card in charts.plan_cards(night):
        rows = [
            pdf.PlanRow(line.game, None, "", "", "")
            if line.sit_out
            else pdf.PlanRow(
                line.game,
                line.table,
                line.seat,
                selectors.THREE_HANDED if line.partner is None else card.who(line.partner),
                " & ".join(card.who(number) for number in line.opponents or ()),
            )
            for line in card.lines
        ]
        cards.append(pdf.PlanCard(card.number, card.name, rows, codes.get(card.number, "")))
    return cards


def _read_tally_cards(night: Night, options: Options) -> TallyCards:
    if night.movement == Night.Movement.ROTATION and night.chart:
        return TallyCards(night.games, plan=_rotation_cards(night))
    if options.blank:
        return TallyCards(night.games, cards=[pdf.TallyCard("", [], number) for number in range(1, options.blank + 1)])
    lines = selectors.game_lines(night)
    seated = selectors.seated_games(night)
    # A club that publishes to its site: the card's results link is the site's (the night's file carries each
    # player's link there), which opens at home after the night; else the address phones use here.
    site = night.club.site_root()
    results = (lambda path: site + path) if site else options.address
    cards = [
        pdf.TallyCard(
            entry.name,
            lines.get(entry.player_id, []),
            entry.card,
            entry.code,
            seated.get(entry.player_id, []),
            results_url=results(reverse("tournament:results", args=[entry.player.results_token])),
        )
        for entry in selectors.night_entries(night)
    ]
    return TallyCards(night.games, cards=cards)


def _draw_tally_cards(head: pdf.SheetHeader, data: TallyCards, options: Options, progress: Progress | None) -> bytes:
    if data.plan is not None:
        return pdf.rotation_cards_pdf(head, data.plan, per_page=options.per_page)
    return pdf.tally_cards_pdf(head, data.cards or [], data.games, per_page=options.per_page, progress=progress)


def _read_table_cards(night: Night, options: Options) -> list[pdf.TableCard]:
    links = selectors.table_links(night)
    count = len(links)
    return [
        pdf.TableCard(
            table=link.table,
            label=selectors.table_label(link.table, count).upper() if count > 1 else "",
            url=options.link(link.token),
        )
        for link in links
    ]


@dataclass(frozen=True)
class Seating:
    game: int
    lines: list[pdf.SeatLine]
    tables: list[pdf.SeatTable]


def _read_seating(night: Night, options: Options) -> Seating:
    round_ = _game(night, options.game)
    if round_ is None:
        return Seating(0, [], [])
    lines = [
        pdf.SeatLine(line.name, f"Table {line.table} · {line.seat_name}" if line.table else "sits out", line.partner)
        for line in selectors.seat_finder(round_)
    ]
    tables = [
        pdf.SeatTable(table.number, table.label.lower(), table.seats) for table in selectors.round_view(round_).tables
    ]
    return Seating(round_.number, lines, tables)


@dataclass(frozen=True)
class ScoreSheets:
    rows: int  # the rows for hands on each sheet
    sheets: list[pdf.ScoreSheet]


def _read_score_sheets(night: Night, options: Options) -> ScoreSheets:
    round_ = _game(night, options.game)
    links = {link.table: link.token for link in selectors.table_links(night)}
    sheets = [
        pdf.ScoreSheet(
            table=table.number,
            label=table.label.lower(),
            game=round_.number,
            seats=table.seats,
            url=options.link(links[table.number]),
        )
        for table in (selectors.round_view(round_).tables if round_ else [])
        if table.number in links
    ]
    end = night.game_end()
    # A row a hand: the head table's hands and two spare (tables other than the head table play on until the
    # bell); a game to a target, the hands one usually takes (a side a point a hand, and four more).
    rows = max(end.hands if end.head_table else 0, (end.target or 0) + 2) + 2
    return ScoreSheets(rows, sheets)


@dataclass(frozen=True)
class WallChart:
    games: list[pdf.WallGame]
    tables: int
    note: str


def _read_wall_chart(night: Night, options: Options) -> WallChart:
    chart = charts.night_chart(night)
    games = [
        pdf.WallGame(game.number, {table.number: table.seats for table in game.tables}, game.sit_out)
        for game in (chart.rounds if chart else ())
    ]
    note = f"{chart.players} numbers, {chart.games} games" if chart else ""
    if chart and chart.perfect:
        note += ": everyone partners everyone else at most once"
    elif chart and chart.has_threes:
        note += ", tables of three at the tail (nobody sits out)"
    return WallChart(games, max((len(game.tables) for game in games), default=0), note)


def _read_standings(night: Night, options: Options) -> selectors.NightStandings:
    standings = selectors.night_standings(night)
    return selectors.public_standings(standings, selectors.unlisted_names(night)) if options.public else standings


def _read_player_results(night: Night, options: Options) -> selectors.PlayerResults:
    """One player's results for the night (the card, as the tally card has it) and their history at the club."""
    player = selectors.player_by_token(options.player)
    results = selectors.player_results(player, night.pk) if player is not None else None
    if results is None:
        raise ValueError("A player's results sheet needs the results link of a player of this night.")
    return results


def _tally_card_count(night: Night, options: Options) -> int:
    if night.movement == Night.Movement.ROTATION and night.chart:
        return int(night.chart["players"])  # a card for every number on the chart
    return options.blank or night.entries.filter(player__house=False).count()


def _game_tables(round_: Round | None) -> int:
    return round_.seatings.values("table").distinct().count() if round_ else 0


def _current_number(night: Night, options: Options) -> int:
    round_ = _game(night, options.game)
    return round_.number if round_ else 0


def _seating_name(night: Night, options: Options) -> str:
    number = _current_number(night, options)
    return f"seating-game-{number}" if number else "seating"


def _tally_query(query: Mapping[str, str]) -> dict[str, Any]:
    """Tally cards: ?per_page=1, 2 (the default) or 4; ?blank=N for N blank cards to write names on (at most 600)."""
    per_page = int(query["per_page"]) if query.get("per_page") in {"1", "2", "4"} else 2
    blank = min(int(query["blank"]), 600) if query.get("blank", "").isdecimal() else 0
    return {"per_page": per_page, "blank": blank}


def _csv(
    key: str,
    title: str,
    audience: Audience,
    write: Callable[[Any], str],
    name: str,
    *,
    bom: bool = True,
    subject: type[Night] | type[Season] = Night,
    hides_unlisted: bool = False,
) -> Sheet:
    """A CSV's entry: `write` (from tournament.exports) gives its text; the file is UTF-8, with a byte-order mark
    so that a spreadsheet reads accents right (the Money CSV has always been without one)."""
    return Sheet(
        key,
        title,
        audience,
        "rows",
        (lambda subject, options: write(subject, public=options.public))
        if hides_unlisted
        else lambda subject, _: write(subject),
        lambda head, text, options, progress: text.encode("utf-8-sig" if bom else "utf-8"),
        lambda subject, options: name,
        kind=CSV,
        # With a byte-order mark the file says its encoding itself; without one (the Money CSV), its type says it.
        content_type="text/csv" if bom else "text/csv; charset=utf-8",
        subject=subject,
        hides_unlisted=hides_unlisted,
    )


SHEETS: dict[str, Sheet] = {
    sheet.key: sheet
    for sheet in (
        Sheet(
            "tally-cards",
            "Tally cards",
            Audience.ORGANIZER,
            "cards",
            _read_tally_cards,
            _draw_tally_cards,
            lambda night, options: f"{'blank-' if options.blank else ''}tally-cards-{options.per_page}-a-page",
            _tally_card_count,
            query=_tally_query,
        ),
        Sheet(
            "score-sheets",
            "Score sheets",
            Audience.ORGANIZER,
            "sheets",
            _read_score_sheets,
            lambda head, data, options, progress: pdf.score_sheets_pdf(head, data.sheets, data.rows),
            lambda night, options: f"score-sheets-game-{_current_number(night, options)}",
            lambda night, options: _game_tables(_game(night, options.game)),
        ),
        Sheet(
            "table-cards",
            "Table cards",
            Audience.ORGANIZER,
            "cards",
            _read_table_cards,
            lambda head, data, options, progress: pdf.table_cards_pdf(head, data),
            lambda night, options: "table-cards",
            lambda night, options: len(selectors.table_links(night)),
        ),
        Sheet(
            "seating",
            "Seating sheet",
            Audience.PUBLIC,
            "pages",
            _read_seating,
            lambda head, data, options, progress: pdf.seating_pdf(head, data.game, data.lines, data.tables),
            _seating_name,
        ),
        Sheet(
            "standings",
            "Standings",
            Audience.PUBLIC,
            "pages",
            _read_standings,
            lambda head, data, options, progress: pdf.standings_pdf(head, data),
            lambda night, options: "standings",
            hides_unlisted=True,
        ),
        Sheet(
            "prizes",
            "Prize sheet",
            Audience.ORGANIZER,
            "pages",
            lambda night, options: selectors.night_close(night),
            lambda head, data, options, progress: pdf.prize_sheet_pdf(head, data),
            lambda night, options: "prize-sheet",
        ),
        Sheet(
            "reconciliation",
            "Cash reconciliation",
            Audience.ORGANIZER,
            "pages",
            lambda night, options: selectors.night_close(night),
            lambda head, data, options, progress: pdf.reconciliation_pdf(head, data),
            lambda night, options: "cash-reconciliation",
        ),
        Sheet(
            "player-results",
            "A player's results",
            Audience.PLAYER,
            "pages",
            _read_player_results,
            lambda head, data, options, progress: pdf.player_results_pdf(head, data),
            lambda night, options: "results",
        ),
        Sheet(
            "chart",
            "Rotation wall chart",
            Audience.ORGANIZER,
            "pages",
            _read_wall_chart,
            lambda head, data, options, progress: pdf.wall_chart_pdf(head, data.games, data.tables, data.note),
            lambda night, options: "rotation-chart",
        ),
        _csv(
            "standings-csv", "Standings (CSV)", Audience.PUBLIC, exports.standings_csv, "standings", hides_unlisted=True
        ),
        _csv("hands-csv", "Every hand (CSV)", Audience.ORGANIZER, exports.hands_csv, "hands"),
        _csv(
            "money-csv",
            "Money lines and reconciliation (CSV)",
            Audience.ORGANIZER,
            exports.money_csv,
            "money",
            bom=False,
        ),
        _csv(
            "season-csv",
            "Season table (CSV)",
            Audience.PUBLIC,
            exports.season_csv,
            "standings",
            subject=Season,
            hides_unlisted=True,
        ),
    )
}


def is_public(key: object) -> bool:
    """Whether `key` names a sheet anyone may have (the room's seating and standings): no key, or another, is not."""
    sheet = SHEETS.get(key) if isinstance(key, str) else None
    return sheet is not None and sheet.audience is Audience.PUBLIC


def sheet_of(key: str) -> Sheet:
    try:
        return SHEETS[key]
    except KeyError:
        raise ValueError(f"Unknown sheet {key!r}: use one of {', '.join(SHEETS)}.") from None


def sheet_bytes(subject: Night | Season, key: str, *, progress: Progress | None = None, **options: Any) -> bytes:
    """Any download by its key in SHEETS, as the file's bytes (a season for a season's CSV, else a night)."""
    sheet = sheet_of(key)
    if not isinstance(subject, sheet.subject):
        raise ValueError(f"{sheet.title} is a {sheet.subject.__name__.lower()}'s, not a {type(subject).__name__}'s.")
    chosen = Options(**options)
    head = header(subject) if isinstance(subject, Night) and sheet.kind == PDF else None
    return sheet.draw(head, sheet.read(subject, chosen), chosen, progress)


def download_name(subject: Night | Season, sheet: Sheet, options: Options) -> str:
    """The file's name, one scheme for every download: the night's name and date, then what it is
    ("spring-fundraiser-2026-12-03-tally-cards-2-a-page.pdf"); a season's, its name ("winter-league-standings.csv")."""
    what = f"{sheet.file_name(subject, options)}.{sheet.kind}"
    if isinstance(subject, Season):
        return f"{slugify(subject.name) or 'season'}-{what}"
    return f"{slugify(subject.name) or 'night'}-{subject.date:%Y-%m-%d}-{what}"


def batch_size(night: Night, key: str, **options: Any) -> int:
    """How many cards or sheets a print of this sheet makes (without reading or drawing it)."""
    sheet = sheet_of(key)
    return sheet.size(night, Options(**options)) if sheet.size else 1


# ---- the print job: a big batch built by the worker, with progress ------------------------------------------------


@transaction.atomic
def print_job_start(*, night: Night, sheet: str, **options: Any) -> PrintJob:
    """Queue a sheet for the worker (`options` as `sheet_bytes` takes them, with `base_url` for any QR codes)."""
    if sheet_of(sheet).kind != PDF:
        raise ValueError(f"{sheet_of(sheet).title} is built in the request, never by the worker.")
    job = PrintJob.objects.create(night=night, kind=sheet, params=Options(**options).as_params())
    dispatch.send_on_commit(dispatch.BUILD_PRINT_JOB, job.pk)
    return job


def job_sheet(job: PrintJob) -> Sheet:
    """The sheet a job prints (jobs stored before the registry say "tally_cards")."""
    return sheet_of(job.kind.replace("_", "-"))


def _left_behind() -> Q:
    """Builds a dead worker left: running and silent for longer than PRINT_JOB_STALE_SECONDS (or with no sign of
    life at all: a build from before jobs had one)."""
    stale = timezone.now() - dt.timedelta(seconds=settings.PRINT_JOB_STALE_SECONDS)
    return Q(status=PrintJob.Status.RUNNING) & (Q(beat_at__lt=stale) | Q(beat_at__isnull=True))


def print_job_run(*, job_id: int) -> PrintJob | None:
    """The worker's side: build the file, saving progress as it goes. Harmless if run twice or at once, and after
    its night was deleted (None: nothing to build).

    The job is taken in one UPDATE: a queued job, or a running one whose build has been silent too long (its
    worker died mid-build). A second delivery while the first builds takes nothing and returns; a build that was
    taken over since (a worker thought dead that was only slow) reports nothing and finishes nothing. A failure,
    saving the file included, marks the job failed with the reason.
    """
    takeable = Q(status=PrintJob.Status.QUEUED) | _left_behind()
    taken = PrintJob.objects.filter(takeable, pk=job_id, attempt__lt=settings.PRINT_JOB_ATTEMPTS).update(
        status=PrintJob.Status.RUNNING, beat_at=timezone.now(), attempt=F("attempt") + 1
    )
    job = PrintJob.objects.select_related("night").filter(pk=job_id).first()
    if job is None:
        return None  # its night was deleted while it waited
    if not taken:
        return job  # built, failed, or being built by a live worker
    mine = PrintJob.objects.filter(pk=job.pk, attempt=job.attempt, status=PrintJob.Status.RUNNING)

    def progress(done: int, total: int) -> None:
        mine.update(done=done, total=total, beat_at=timezone.now())

    sheet = job_sheet(job)
    try:
        content = sheet_bytes(job.night, sheet.key, progress=progress, **job.params)
        name = default_storage.save(f"print/{sheet.key}-{job.night_id}-{job.pk}.pdf", ContentFile(content))
    except Exception as error:
        mine.update(status=PrintJob.Status.FAILED, error=str(error)[:300])
        raise
    total = PrintJob.objects.filter(pk=job.pk).values_list("total", flat=True).get() or 1
    if not mine.update(file=name, status=PrintJob.Status.DONE, total=total, done=total):
        default_storage.delete(name)  # taken over meanwhile: the other build's file is the job's
    job.refresh_from_db()
    return job


def print_jobs_revive() -> int:
    """Send again every job a dead worker left: running and silent too long, or queued that long (its message
    lost with the worker). A job whose message is still waiting is then delivered twice and built once. A job
    taken PRINT_JOB_ATTEMPTS times without finishing is marked failed instead: each build killed its worker."""
    stale = timezone.now() - dt.timedelta(seconds=settings.PRINT_JOB_STALE_SECONDS)
    left = PrintJob.objects.filter(_left_behind() | Q(status=PrintJob.Status.QUEUED, created_at__lt=stale))
    left.filter(attempt__gte=settings.PRINT_JOB_ATTEMPTS).update(
        status=PrintJob.Status.FAILED,
        error=f"The worker stopped while building it {settings.PRINT_JOB_ATTEMPTS} times: print fewer at once.",
    )
    jobs = list(left.filter(attempt__lt=settings.PRINT_JOB_ATTEMPTS).values_list("pk", flat=True))
    for job_id in jobs:
        dispatch.send_on_commit(dispatch.BUILD_PRINT_JOB, job_id)
    return len(jobs)
