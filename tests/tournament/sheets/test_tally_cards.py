"""The tally cards as a player reads them: each card's grid read back from the page, cell by cell, under its heads.

A card's cells are found by where their text is printed: the head row (bold "Game" to the card's last head) sets
the columns, a text run belongs to the first column whose head ends right of where the run starts (a cell's text,
set from the left or centred, never starts past its own head's end) and to the row of its baseline, and a row is
named by what its Game cell says ("1", "2", …, "Total").
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, field

import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from tests.conftest import register
from tournament import game, selectors, services
from tournament.charts import short_name
from tournament.models import Night, Round
from tournament.rehearsal import simulate
from tournament.selectors import game_lines
from tournament.sheets import pdf, printing

pytestmark = pytest.mark.django_db

PAPERS = ("letter", "a4")


@dataclass
class Run:
    x: float
    y: float
    size: float
    bold: bool
    text: str

    @property
    def right(self) -> float:
        return self.x + pdfmetrics.stringWidth(self.text, pdf.BOLD if self.bold else pdf.FONT, self.size)


@dataclass
class Card:
    title: str
    heads: list[Run]
    rows: dict[str, dict[str, str]] = field(default_factory=dict)  # row label -> head -> the cell's text

    def cell(self, row: str, head: str) -> str:
        return self.rows[row].get(head, "")


def runs_on(page) -> list[Run]:
    found: list[Run] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            bold = bool(font) and "Bold" in str(font.get("/BaseFont", ""))
            found.append(Run(x, y, size * tm[0] * cm[0], bold, text.strip()))

    page.extract_text(visitor_text=visit)
    return found


def cards_of(content: bytes) -> list[list[Card]]:
    """Each page's cards, top to bottom and left to right, read back from where their text is printed."""
    pages = []
    for page in PdfReader(io.BytesIO(content)).pages:
        runs = runs_on(page)
        starts = sorted((run for run in runs if run.bold and run.text == "Game"), key=lambda run: (-run.y, run.x))
        cards = []
        for start in starts:
            beside = [other.x for other in starts if abs(other.y - start.y) < 1 and other.x > start.x]
            right_end = min(beside, default=float(page.mediabox.width))
            heads = sorted(
                (run for run in runs if abs(run.y - start.y) < 1 and start.x - 1 <= run.x < right_end),
                key=lambda run: run.x,
            )
            # The card's heading starts a cell's padding left of the grid's first head.
            mine = [run for run in runs if start.x - 8 <= run.x < right_end]
            titles = [run for run in mine if run.y > start.y and "No." in run.text]
            title = min(titles, key=lambda run: run.y - start.y).text if titles else ""
            card = Card(title, heads)

            def column(run: Run, heads=heads) -> str:
                return next((head for head in heads if head.right >= run.x - 0.5), heads[-1]).text

            # The rows, named by their Game cell, down to the card's total row.
            labels: list[Run] = []
            for run in sorted(mine, key=lambda run: -run.y):
                if run.y < start.y - 1 and column(run) == "Game" and run.x >= start.x - 1:
                    labels.append(run)
                    if run.text == "Total":
                        break
            step = min((a.y - b.y for a, b in itertools.pairwise(labels)), default=20)
            for label in labels:
                card.rows[label.text] = {
                    column(run): run.text for run in mine if abs(run.y - label.y) < step / 2 and run.x >= start.x - 1
                }
            cards.append(card)
        pages.append(cards)
    return pages


def every_card(content: bytes) -> list[Card]:
    return [card for page in cards_of(content) for card in page]


def _seats_of(round_: Round) -> dict[str, tuple[int, str]]:
    return {seating.player.name: (seating.table, seating.seat) for seating in round_.seatings.select_related("player")}


@pytest.fixture
def drawn(db):
    """Ten players (two sit out each game) and the opening seating drawn: game 1 not yet played."""
    night = services.night_create(name="St Mary's Euchre Night", venue="Parish hall", games=4, auto_advance=False)
    register(night, 10)
    services.night_draw(night=night, seed=3)
    return night


# ---- every card has a loners column ------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_every_card_has_a_loners_column_and_a_loners_total(paper, per_page):
    """ "Most loners" is one of the night's prizes (the default list): a player counts them on the card, whatever its
    size, each game's in its row and the night's in the total row."""
    night = simulate(players=8, rounds=3, seed=4, entry="hands", name="Loners night")
    assert "loners" in night.prize_keys
    Night.objects.filter(pk=night.pk).update(paper=paper)
    night.refresh_from_db()
    lines = game_lines(night)
    names = dict(night.entries.values_list("player_id", "player__name"))
    cards = {
        card.title.split(" · ")[0]: card
        for card in every_card(printing.sheet_bytes(night, "tally-cards", per_page=per_page))
    }
    assert len(cards) == 8
    alone = [(player, line) for player, played in lines.items() for line in played if line.extras.loners_tried]
    assert alone, "the seed should give a loner"
    for card in cards.values():
        assert "Loners" in [head.text for head in card.heads]
    for player, line in alone:
        card = cards[names[player]]
        made, tried = line.extras.loners_made, line.extras.loners_tried
        assert card.cell(str(line.round), "Loners") == (str(made) if made == tried else f"{made}/{tried}")
    for player, played in lines.items():
        made = sum(line.extras.loners_made for line in played)
        tried = sum(line.extras.loners_tried for line in played)
        expected = "" if not tried else (str(made) if made == tried else f"{made}/{tried}")
        assert cards[names[player]].cell("Total", "Loners") == expected


@pytest.mark.parametrize("paper", PAPERS)
def test_a_quarter_cards_heads_each_stand_apart_inside_the_card(drawn, paper):
    drawn.paper = paper
    for card in every_card(printing.sheet_bytes(drawn, "tally-cards", per_page=4)):
        heads = [head.text for head in card.heads]
        assert heads == ["Game", "Table", "Seat", "Partner", "Score", "Won", "Loners", "Opp.", "Total"]
        for head, after in itertools.pairwise(card.heads):
            assert head.right + 2 < after.x, f"{head.text} runs into {after.text}"


# ---- a card printed after the draw shows where the player sits -------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_card_printed_after_the_draw_shows_game_1s_table_and_seat(drawn, paper, per_page):
    drawn.paper = paper
    round_ = drawn.rounds.get(number=1)
    seats = _seats_of(round_)
    cards = every_card(printing.sheet_bytes(drawn, "tally-cards", per_page=per_page))
    assert len(cards) == 10
    for card in cards:
        name = card.title.split(" · ")[0]
        first = card.rows["1"]
        if name in seats:
            table, seat = seats[name]
            assert (first.get("Table"), first.get("Seat")) == (str(table), seat)
            partner = next(
                other
                for other, (at, where) in seats.items()
                if at == table and where == {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]
            )
            assert first["Partner"] in (partner, short_name(partner)) or partner.startswith(first["Partner"][:-1])
        else:  # two of the ten sit game 1 out
            assert first.get("Table") == "bye" and "Seat" not in first
        assert set(first) <= {"Game", "Table", "Seat", "Partner"}  # nothing scored yet
        for later in ("2", "3", "4"):
            assert set(card.rows[later]) == {"Game"}  # not drawn yet: nothing printed to cross out


def test_a_card_printed_mid_night_shows_the_games_played_and_the_next_ones_seat(drawn):
    """Game 1 closed and game 2 seated: game 1's row has its score, game 2's its table and seat."""
    from tests.conftest import play_round

    round_ = game.round_close(round_=play_round(drawn.rounds.get(number=1), {1: (7, 1), 2: (3, 5)}))
    assert round_.number == 2
    seats = _seats_of(round_)
    lines = game_lines(drawn)
    names = dict(drawn.entries.values_list("player_id", "player__name"))
    by_name = {card.title.split(" · ")[0]: card for card in every_card(printing.sheet_bytes(drawn, "tally-cards"))}
    for player, played in lines.items():
        card = by_name[names[player]]
        (line,) = played
        assert card.cell("1", "Total") == str(line.running_total)
        second = card.rows["2"]
        if names[player] in seats:
            assert (second["Table"], second["Seat"]) == tuple(str(part) for part in seats[names[player]])
        else:
            assert second["Table"] == "bye"
        assert "Score" not in second and "Total" not in second


def test_a_card_at_a_table_of_three_says_three_handed_for_the_partner(db):
    night = services.night_create(name="Small night", games=3, auto_advance=False, fill=Night.Fill.THREES)
    register(night, 7)
    round_ = services.night_draw(night=night, seed=5)
    seats = _seats_of(round_)
    threes = {table for table, _ in seats.values()} - {table for table, seat in seats.values() if seat == "W"}
    assert len(threes) == 1 and len(seats) == 7  # a table of four and a table of three: nobody sits out
    for card in every_card(printing.sheet_bytes(night, "tally-cards", per_page=2)):
        table, seat = seats[card.title.split(" · ")[0]]
        first = card.rows["1"]
        assert (first["Table"], first["Seat"]) == (str(table), seat)
        assert (first["Partner"] == selectors.THREE_HANDED) == (table in threes)


@pytest.mark.parametrize("rule", ["card", "own"])
def test_a_substitutes_seat_goes_on_the_card_their_scores_go_on(drawn, rule):
    """On the "card" rule the substitute carries on the leaver's card, so game 1's seat is printed there; on "own"
    the substitute's own card has it."""
    drawn.substitutes = rule
    drawn.save(update_fields=["substitutes"])
    round_ = drawn.rounds.get(number=1)
    seated = round_.seatings.select_related("player").order_by("table", "seat").first()
    leaver = drawn.entries.get(player=seated.player)
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    cards = {card.title.split(" · ")[0]: card for card in every_card(printing.sheet_bytes(drawn, "tally-cards"))}
    on, off = (seated.player.name, "Zoe Quinn") if rule == "card" else ("Zoe Quinn", seated.player.name)
    assert (cards[on].cell("1", "Table"), cards[on].cell("1", "Seat")) == (str(seated.table), seated.seat)
    assert cards[off].rows["1"] == {"Game": "1"}


def test_the_seats_on_the_cards_are_read_in_three_queries_whatever_the_nights_size(db, django_assert_num_queries):
    for players in (8, 40):
        night = services.night_create(name=f"{players} players", games=3, auto_advance=False)
        services.players_register(night=night, names=[f"Player {number}" for number in range(players + 1)])
        services.night_draw(night=night, seed=1)
        with django_assert_num_queries(3):
            seated = selectors.seated_games(night)
        assert sum(len(games) for games in seated.values()) == players + 1  # everyone seated or sitting out


def test_a_rotation_card_prints_the_whole_nights_seats_once_drawn(db):
    night = services.night_create(name="Rotation social", movement=Night.Movement.ROTATION, games=5)
    register(night, 8)
    services.night_draw(night=night, seed=11)
    night.refresh_from_db()
    seats = _seats_of(night.rounds.get(number=1))
    content = printing.sheet_bytes(night, "tally-cards", per_page=2)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    assert text.count("Game") == 8
    for card in every_card(content):
        name = card.title.split(" · ")[1]
        assert card.cell("1", "Table") == str(seats[name][0])
        assert all(card.cell(str(number), "Table") for number in range(1, 6))  # every game, printed in advance


# ---- a card with nothing scored leaves its total row to the pen -------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_card_with_nothing_scored_has_an_empty_total_row(drawn, paper, per_page):
    drawn.paper = paper
    named = every_card(printing.sheet_bytes(drawn, "tally-cards", per_page=per_page))
    blank = every_card(printing.sheet_bytes(drawn, "tally-cards", per_page=per_page, blank=4))
    assert len(named) == 10 and len(blank) == 4
    for card in named + blank:
        assert card.rows["Total"] == {"Game": "Total"}, card.title


@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_partner_whose_name_is_too_long_for_the_card_reads_as_first_name_and_initial(db, per_page):
    """A 40-letter name did not fit the partner's column and was cut ("Bartholomew Featherstonehaugh-Wimb…"): who
    to look for across the hall then reads "Bartholomew F.", the way the room says it, never half a name."""
    night = services.night_create(name="Long names", games=2, auto_advance=False)
    long = "Bartholomew Featherstonehaugh-Wimbledon"
    services.players_register(night=night, names=[long, "Ann Lee", "Bob Ray", "Cy Orr"])
    round_ = services.night_draw(night=night, seed=1)
    seats = _seats_of(round_)
    table, seat = seats[long]
    partner_of_long = next(
        name
        for name, (at, where) in seats.items()
        if at == table and where == {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]
    )
    cards = {
        card.title.split(" · ")[0]: card
        for card in every_card(printing.sheet_bytes(night, "tally-cards", per_page=per_page))
    }
    shown = cards[partner_of_long].rows["1"]["Partner"]
    assert shown in (long, "Bartholomew F."), shown
    assert "…" not in shown
