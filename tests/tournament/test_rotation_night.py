"""A rotation night in the app: the chart built before the doors open, numbers at the door, the games played from
the chart, the printed cards and wall chart, and every refusal."""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import NAMES, register
from tournament import backup, charts, game, services
from tournament.engine.types import PARTNER_SEAT
from tournament.models import Bye, Entry, Night, Seating
from tournament.rehearsal import simulate
from tournament.sheets import printing

pytestmark = pytest.mark.django_db


def rotation_night(**settings) -> Night:
    options = {"name": "Rotation social", "movement": Night.Movement.ROTATION, "games": 13, "auto_advance": False}
    return services.night_create(**(options | settings))


def seats_by_game(night: Night) -> dict[int, dict[int, dict[str, int]]]:
    games: dict[int, dict[int, dict[str, int]]] = {}
    for number, table, seat, player in Seating.objects.filter(round__night=night).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        games.setdefault(number, {}).setdefault(table, {})[seat] = player
    return games


def pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_a_thirteen_player_night_partners_everyone_once_and_opposes_everyone_twice():
    night = simulate(players=13, rounds=13, seed=4, movement="rotation", entry="totals")
    assert night.status == Night.Status.FINISHED
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for tables in seats_by_game(night).values():
        assert len(tables) == 3  # 12 play, 1 sits out
        for seats in tables.values():
            for seat, player in seats.items():
                partner = seats[PARTNER_SEAT[seat]]
                if player < partner:
                    partners[(player, partner)] += 1
                for other in seats.values():
                    if other not in (player, partner) and player < other:
                        opponents[(player, other)] += 1
    players = sorted(Entry.objects.filter(night=night).values_list("player_id", flat=True))
    every_pair = set(itertools.combinations(players, 2))
    assert set(partners) == every_pair and set(partners.values()) == {1}
    assert set(opponents) == every_pair and set(opponents.values()) == {2}
    assert Counter(Bye.objects.filter(round__night=night).values_list("player_id", flat=True)) == dict.fromkeys(
        players, 1
    )


def test_the_draw_builds_a_chart_for_those_here_and_numbers_them_in_arrival_order():
    night = rotation_night(games=5)
    entries = register(night, 9)
    services.night_draw(night=night, seed=11)
    night.refresh_from_db()
    # Built for the night's five games (a perfect chart's first five; otherwise the fairest five).
    assert night.chart["players"] == 9 and night.chart["games"] == 5 and night.chart_size == 9
    assert [Entry.objects.get(pk=e.pk).number for e in entries] == list(range(1, 10))
    chart = charts.night_chart(night)
    assert chart.games == 5 and len(chart.rounds) == 5  # a night of five plays the chart's first five games
    number_of = dict(Entry.objects.filter(night=night).values_list("player_id", "number"))
    played = {table: tuple(number_of[seats[s]] for s in "NESW") for table, seats in seats_by_game(night)[1].items()}
    assert played == {table.number: table.players for table in chart.rounds[0].tables}


def test_a_chart_printed_in_advance_seats_whoever_came_and_unused_numbers_sit_out():
    night = rotation_night(games=6)
    services.night_chart_build(night=night, players=16, seed=3)
    register(night, 14)  # numbers 1..14; 15 and 16 stay free
    round_ = services.night_draw(night=night, seed=3)
    night.refresh_from_db()
    chart = charts.night_chart(night)
    first = chart.rounds[0]
    short = {t.number for t in first.tables if {15, 16} & set(t.players)}
    assert short, "with 16 numbers and 2 missing, some table of game 1 is short"
    seated_tables = set(round_.seatings.values_list("table", flat=True))
    assert seated_tables == {t.number for t in first.tables} - short
    holder = dict(Entry.objects.filter(night=night).values_list("number", "player_id"))
    stranded = {holder[n] for t in first.tables if t.number in short for n in t.players if n in holder}
    assert set(round_.byes.values_list("player_id", flat=True)) == stranded


def test_a_late_arrival_takes_a_free_number_and_joins_the_next_game():
    night = rotation_night(games=6)
    services.night_chart_build(night=night, players=16, seed=3)
    register(night, 15)
    first = services.night_draw(night=night, seed=3)
    late = services.players_register(night=night, names=["Quinn Late"])[0]
    assert late.number == 16
    from tests.conftest import play_round

    tables = sorted(set(first.seatings.values_list("table", flat=True)))
    play_round(first, {t: (10, 4) for t in tables})
    second = game.round_close(round_=first)
    assert second.seatings.count() == 16  # everyone holds a number now: four full tables
    assert second.seatings.filter(player=late.player).exists()


def test_random_numbering_hands_out_every_number_once():
    night = rotation_night(games=4, numbering=Night.Numbering.RANDOM)
    services.night_chart_build(night=night, players=12, seed=1)
    register(night, 12)
    assert sorted(Entry.objects.filter(night=night).values_list("number", flat=True)) == list(range(1, 13))


def test_refusals_say_why_and_change_nothing():
    progressive = services.night_create(name="Head and tail")
    with pytest.raises(ValidationError) as error:
        services.night_chart_build(night=progressive, players=12)
    assert "rotation" in error.value.message_dict["chart_size"][0]

    night = rotation_night(games=14)
    with pytest.raises(ValidationError) as error:
        services.night_chart_build(night=night, players=13)
    assert "13" in error.value.message_dict["chart_size"][0]
    night.refresh_from_db()
    assert night.chart is None and night.chart_size is None

    night = rotation_night(games=4)
    services.night_chart_build(night=night, players=8, seed=2)
    register(night, 8)
    with pytest.raises(ValidationError) as error:
        services.players_register(night=night, names=["One Too Many"])
    assert "Every number on the 8-player chart is taken" in error.value.message_dict["names"][0]
    assert Entry.objects.filter(night=night).count() == 8
    with pytest.raises(ValidationError) as error:
        services.night_chart_build(night=night, players=6)
    assert "Number 8 is already given out" in error.value.message_dict["chart_size"][0]

    ann, bob = Entry.objects.filter(night=night).order_by("number")[:2]
    with pytest.raises(ValidationError) as error:
        services.entry_set_number(entry=ann, number=bob.number)
    assert error.value.message_dict["number"] == [f"Number 2 is {bob.player.name}'s."]
    with pytest.raises(ValidationError) as error:
        services.entry_set_number(entry=ann, number=9)
    assert error.value.message_dict["number"] == ["The chart has numbers 1 to 8."]
    ann.refresh_from_db()
    assert ann.number == 1


def test_a_player_holding_a_printed_card_keeps_its_number():
    night = rotation_night(games=4)
    services.night_chart_build(night=night, players=12, seed=2)
    ann = register(night, 1)[0]
    services.entry_set_number(entry=ann, number=7)
    ann.refresh_from_db()
    assert ann.number == 7
    bob = services.players_register(night=night, names=["Bob Late"])[0]
    assert bob.number == 1  # the lowest free number


def test_rotation_tally_cards_print_each_players_whole_night():
    night = rotation_night(games=13)
    register(night, 13)
    services.night_draw(night=night, seed=8)
    night.refresh_from_db()
    pages, text = pdf_text(printing.sheet_bytes(night, "tally-cards", per_page=1, blank=0))
    assert pages == 13
    card = charts.plan_cards(night, numbers=[1])[0]
    assert card.name == NAMES[0]
    assert sum(1 for line in card.lines if line.sit_out) == 1
    for line in card.lines:
        if not line.sit_out:
            assert card.who(line.partner) in text
    assert f"No. 1 · {NAMES[0]}" in text
    assert text.count("sits out this game") == 13  # every card has its one sit-out printed


def test_numbered_cards_and_the_wall_chart_before_the_names_are_known():
    night = rotation_night(games=10, paper=Night.Paper.A4)
    services.night_chart_build(night=night, players=30, seed=5)
    night.refresh_from_db()
    pages, text = pdf_text(printing.sheet_bytes(night, "tally-cards", per_page=2, blank=0))
    assert pages == 15 and "No. 30" in text and "Name:" in text
    wall = printing.sheet_bytes(night, "chart")
    reader = PdfReader(io.BytesIO(wall))
    assert round(float(reader.pages[0].mediabox.width)) == 842  # A4 landscape
    wall_text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Table 7" in wall_text and "30 numbers, 10 games" in wall_text
    night.paper = Night.Paper.LETTER
    letter = PdfReader(io.BytesIO(printing.sheet_bytes(night, "chart")))
    assert round(float(letter.pages[0].mediabox.width)) == 792  # Letter landscape


def test_the_same_chart_prints_the_same_bytes():
    night = rotation_night(games=5)
    services.night_chart_build(night=night, players=13, seed=5)
    night.refresh_from_db()
    assert printing.sheet_bytes(night, "chart") == printing.sheet_bytes(night, "chart")


def test_backup_keeps_the_chart_and_the_numbers():
    night = simulate(players=9, rounds=3, seed=2, movement="rotation", entry="totals")
    raw = backup.night_backup_bytes(night)
    night.delete()
    restored = backup.night_restore(raw=raw)
    assert restored.chart == json.loads(raw)["night"]["chart"]
    assert sorted(restored.entries.values_list("number", flat=True)) == list(range(1, 10))
    assert backup.night_backup_bytes(restored) == raw


def test_simulate_night_command_plays_a_rotation_night(tmp_path):
    out = tmp_path / "night.json"
    call_command("simulate_night", players=8, rounds=7, seed=1, movement="rotation", json_file=str(out))
    record = json.loads(out.read_text(encoding="utf-8"))
    assert len(record["rounds"]) == 7 and all(len(r["tables"]) == 2 for r in record["rounds"])


def test_the_chart_page_builds_a_chart_and_shows_how_fair_it_is(organizer_client):
    night = rotation_night(games=9)
    page = organizer_client.get(reverse("tournament:chart", args=[night.pk])).content.decode()
    assert "No chart yet" in page
    refused = organizer_client.post(reverse("tournament:chart_build", args=[night.pk]), {"players": "3"})
    assert "A chart needs at least 4 players." in refused.content.decode()
    too_few = organizer_client.post(reverse("tournament:chart_build", args=[night.pk]), {"players": "8"})
    assert "8" in too_few.content.decode() and Night.objects.get(pk=night.pk).chart is None
    done = organizer_client.post(reverse("tournament:chart_build", args=[night.pk]), {"players": "9"})
    assert done.status_code == 302
    page = organizer_client.get(reverse("tournament:chart", args=[night.pk])).content.decode()
    assert "a perfect chart" in page and "How fair is this chart?" in page
    assert organizer_client.get(reverse("tournament:wall_chart_pdf", args=[night.pk]))["Content-Type"] == (
        "application/pdf"
    )


def test_only_the_organizer_sees_the_chart_page(client):
    night = rotation_night()
    response = client.get(reverse("tournament:chart", args=[night.pk]))
    assert response.status_code in (302, 403)


@pytest.mark.parametrize("sheet", ["tally-cards", "score-sheets", "table-cards", "seating", "standings", "chart"])
def test_print_sheets_writes_every_sheet_on_either_paper(tmp_path, sheet):
    night = simulate(players=9, rounds=2, seed=3, movement="rotation", entry="totals")
    for paper, width in (("letter", 612), ("a4", 595)):
        out = tmp_path / f"{sheet}-{paper}.pdf"
        call_command(
            "print_sheets", night.pk, sheet=sheet, paper=paper, game=1, out=out, base_url="http://10.0.0.5:8000"
        )
        page = PdfReader(out).pages[0]
        landscape = sheet == "chart"
        assert round(float(page.mediabox.height if landscape else page.mediabox.width)) == width
    night.refresh_from_db()
    assert night.paper == "letter"  # --paper prints once; the night keeps its setting


def test_print_sheets_refuses_an_unknown_night_or_game(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="There is no night 999"):
        call_command("print_sheets", 999, sheet="standings", out=tmp_path / "x.pdf")
    night = rotation_night()
    with pytest.raises(CommandError, match="Game 3 has not been seated"):
        call_command("print_sheets", night.pk, sheet="seating", game=3, out=tmp_path / "x.pdf")


def test_the_fairness_report_of_a_rotation_night_carries_the_charts_figures_and_ideals(organizer_client):
    night = rotation_night(games=4)
    register(night, 8)
    services.night_draw(night=night, seed=1)
    report = organizer_client.get(reverse("tournament:night_fairness_json", args=[night.pk])).json()
    figures = {figure["key"]: figure for figure in report["chart"]}
    assert figures and all({"label", "value", "ideal"} <= set(figure) for figure in figures.values())
    page = organizer_client.get(reverse("tournament:night_fairness", args=[night.pk])).content.decode()
    assert "The whole chart" in page


def test_on_a_rotation_night_the_card_number_finds_the_player_and_the_code_confirms_scores(client):
    from scoring.models import Submission
    from tournament import game as scoring_services

    services.players_register(night=services.night_create(name="Last week"), names=["Xavier", "Yvonne", "Zack"])
    night = rotation_night(games=4)
    services.night_chart_build(night=night, players=8, seed=6)
    register(night, 8)  # player ids now run 4..11, chart numbers 1..8
    round_ = game.round_start(round_=services.night_draw(night=night, seed=6))
    by_number = dict(Entry.objects.filter(night=night).values_list("number", "player_id"))
    found = client.get(reverse("tournament:player_find", args=[night.pk]), {"q": "5"})
    assert found.url == reverse("tournament:player_page", args=[night.pk, by_number[5]])

    seats = seats_by_game(night)[1][1]
    code_of = dict(Entry.objects.filter(night=night).values_list("player_id", "code"))
    scoring_services.table_draft_submit(round_=round_, table=1, code=code_of[seats["N"]], ns_points=10, ew_points=6)
    draft = Submission.objects.get(round=round_, table=1)
    for wrong in (code_of[seats["S"]], str(by_number[5])):  # the side that entered it, or a number off no code
        with pytest.raises(ValidationError):
            scoring_services.table_draft_confirm(round_=round_, table=1, draft_number=draft.number, code=wrong)
    result = scoring_services.table_draft_confirm(
        round_=round_, table=1, draft_number=draft.number, code=code_of[seats["E"]]
    )
    assert (result.ns_points, result.ew_points) == (10, 6)


def test_the_players_own_page_shows_the_chart_number(client):
    services.players_register(night=services.night_create(name="Last week"), names=["Xavier", "Yvonne", "Zack"])
    night = rotation_night(games=4)
    register(night, 8)
    services.night_draw(night=night, seed=2)
    entry = Entry.objects.get(night=night, number=3)
    page = client.get(reverse("tournament:player_page", args=[night.pk, entry.player_id])).content.decode()
    assert "No. 3<" in page and entry.player_id != 3
