"""Tables of three through the whole app (#19): the night's setting, the seating, each player's own points at the
desk and on the night page, the movement through them, the standings.

Issue text: "Three-handed tables as a third answer to "not a multiple of four": one to three tables of three (placed
at the tail by default, so the head table is always four), each hand scored to the caller alone or to both
defenders as individuals … tallies kept per player, and every movement knowing how to move players through a
table of three."
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from scoring.models import TableLink
from tests.conftest import register
from tests.tournament.test_backup_refusals import refused, signed
from tournament import backup, game, services
from tournament.models import Bye, Entry, Night, Round, Seating
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db


def _night(movement="progressive", games=3, players=13):
    night = services.night_create(
        name="Hall night", games=games, auto_advance=False, movement=movement, fill=Night.Fill.THREES
    )
    register(night, players)
    return night, game.round_start(round_=services.night_draw(night=night, seed=4))


def _sizes(round_):
    counts: dict[int, int] = {}
    for table in round_.seatings.values_list("table", flat=True):
        counts[table] = counts.get(table, 0) + 1
    return [counts[t] for t in sorted(counts)]


def _score_all(round_, three=(5, 3, 2)):
    """Every table of four 10-4 to N-S; every table of three N, E, S with `three`."""
    for table, size in enumerate(_sizes(round_), start=1):
        if size == 3:
            points = dict(zip("NES", three, strict=True))
            game.table_result_submit(round_=round_, table=table, seat_points=points)
        else:
            game.table_result_submit(round_=round_, table=table, ns_points=10, ew_points=4)


@pytest.mark.parametrize(("players", "sizes"), [(13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (15, [4, 4, 4, 3])])
def test_the_draw_seats_everyone_at_tables_of_three_at_the_tail(players, sizes):
    night, round_ = _night(players=players)
    assert _sizes(round_) == sizes
    assert not Bye.objects.filter(round=round_).exists()
    assert not Seating.objects.filter(round=round_, table__gt=sizes.count(4), seat="W").exists()
    assert not night.entries.filter(player__house=True).exists()


@pytest.mark.parametrize("movement", ["progressive", "progressive-down", "winners-stay", "seat-rotation"])
def test_a_night_of_fourteen_moves_through_tables_of_three_with_no_byes(movement):
    night, round_ = _night(movement=movement, players=14, games=3)
    for _ in range(2):
        _score_all(round_)
        round_ = game.round_start(round_=game.round_close(round_=round_))
        assert _sizes(round_) == [4, 4, 3, 3]
        assert not Bye.objects.filter(round=round_).exists()
    rows = {row.name: row for row in night_standings(night).rows}
    assert len(rows) == 14


def test_a_table_of_three_scores_each_player_for_themselves():
    night, round_ = _night(players=13)
    three = {s.seat: s.player for s in Seating.objects.filter(round=round_, table=4)}
    result = game.table_result_submit(round_=round_, table=4, seat_points={"N": 3, "E": 7, "S": 5})
    assert result.winner == "E" and result.seat_points == {"N": 3, "E": 7, "S": 5}
    _score_all_but(round_, 4)
    game.round_close(round_=round_)
    rows = {row.name: row for row in night_standings(night).rows}
    assert rows[three["E"].name].total == 7 and rows[three["E"].name].wins == 1
    assert rows[three["N"].name].total == 3 and rows[three["N"].name].wins == 0
    # What each "conceded": the better of the other two's scores.
    assert rows[three["S"].name].conceded == 7


def _score_all_but(round_, skip):
    for table, size in enumerate(_sizes(round_), start=1):
        if table == skip:
            continue
        if size == 3:
            game.table_result_submit(round_=round_, table=table, seat_points={"N": 2, "E": 1, "S": 0})
        else:
            game.table_result_submit(round_=round_, table=table, ns_points=10, ew_points=4)


def test_the_winner_of_a_table_of_three_moves_as_the_movement_says():
    # Progressive: at a table of three other than the head, the top two move up and the third stays.
    _, round_ = _night(players=14)
    seated = {s.seat: s.player_id for s in Seating.objects.filter(round=round_, table=3)}
    game.table_result_submit(round_=round_, table=3, seat_points={"N": 1, "E": 6, "S": 4})
    _score_all_but(round_, 3)
    next_round = game.round_close(round_=round_)
    where = dict(next_round.seatings.values_list("player_id", "table"))
    assert where[seated["E"]] == 2 and where[seated["S"]] == 2 and where[seated["N"]] == 3


@pytest.mark.parametrize(
    ("points", "field", "message"),
    [
        ({"N": 200, "E": 0, "S": 0}, "n_points", "more than"),
        ({"N": 34, "E": 0, "S": 0}, "sure", "more than the 8 hands a game has"),
        ({"N": -1, "E": 0, "S": 0}, "n_points", "below 0"),
        ({"N": 2, "E": 1, "S": 0}, "", ""),
    ],
)
def test_impossible_three_handed_totals_are_refused_beside_the_box(points, field, message):
    _, round_ = _night(players=13)
    if not field:
        game.table_result_submit(round_=round_, table=4, seat_points=points)  # two or three hands: fine
        return
    with pytest.raises(ValidationError) as refused:
        game.table_result_submit(round_=round_, table=4, seat_points=points)
    assert message in " ".join(refused.value.message_dict[field])
    assert not round_.results.filter(table=4).exists()


def test_a_tie_at_the_top_under_the_last_hand_rule_asks_who_won_it():
    night, round_ = _night(players=13)
    Night.objects.filter(pk=night.pk).update(tie_rule="last_hand")
    round_ = Round.objects.get(pk=round_.pk)
    with pytest.raises(ValidationError) as refused:
        game.table_result_submit(round_=round_, table=4, seat_points={"N": 4, "E": 4, "S": 2})
    assert "who won the last hand" in refused.value.message_dict["last_hand_winner"][0]
    with pytest.raises(ValidationError) as refused:
        game.table_result_submit(round_=round_, table=4, seat_points={"N": 4, "E": 4, "S": 2}, last_hand_winner="S")
    assert "not level at the top" in refused.value.message_dict["last_hand_winner"][0]
    result = game.table_result_submit(
        round_=round_, table=4, seat_points={"N": 4, "E": 4, "S": 2}, last_hand_winner="E"
    )
    assert result.winner == "E" and result.tie_break == "last_hand"


def test_a_table_of_four_takes_no_three_scores_and_a_table_of_three_no_sides():
    _, round_ = _night(players=13)
    with pytest.raises(ValidationError, match="four players"):
        game.table_result_submit(round_=round_, table=1, seat_points={"N": 1, "E": 0, "S": 0})
    with pytest.raises(ValidationError, match="three players"):
        game.table_result_submit(round_=round_, table=2, ns_points=5, ew_points=3)


def test_the_desk_and_the_night_page_show_three_boxes_with_the_players_names(client, django_user_model):
    night, round_ = _night(players=13)
    organizer = django_user_model.objects.create_user("org", password="pw-long-enough", is_staff=True)
    client.force_login(organizer)
    names = {s.seat: s.player.name for s in Seating.objects.filter(round=round_, table=2).select_related("player")}
    page = client.get(reverse("scoring:keeper_desk", args=[night.pk])).content.decode()
    assert "Three-handed:" in page and f'placeholder="{names["N"].split()[0]}"' in page
    post = {"t2-n_points": "4", "t2-e_points": "x", "t2-s_points": "2", "t2-key": "k1", "t2-version": ""}
    response = client.post(
        reverse("scoring:desk_save", args=[night.pk, round_.number, 2]), post, HTTP_HX_REQUEST="true"
    )
    assert "Enter a whole number of points." in response.content.decode()
    post["t2-e_points"] = "6"
    response = client.post(
        reverse("scoring:desk_save", args=[night.pk, round_.number, 2]), post, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert f"{names['E']} 6 · {names['N']} 4 · {names['S']} 2 in, {names['E']} won" in body
    night_page = client.get(night.get_absolute_url()).content.decode()
    assert "Three-handed" in night_page and f"{names['E']} won" in night_page


# --- the backup ---------------------------------------------------------------------------------------------------


def _played_three_night():

    return simulate(players=13, rounds=2, seed=5, fill=Night.Fill.THREES)


def test_a_night_with_tables_of_three_survives_a_backup_and_a_restore():

    night = _played_three_night()
    before = sorted((row.name, row.total, row.wins) for row in night_standings(night).rows)
    raw = backup.night_backup_bytes(night)
    data = json.loads(raw)
    three = next(r for r in data["rounds"][0]["results"] if r["seat_points"] is not None)
    assert set(three["seat_points"]) == {"N", "E", "S"} and three["winner"] in "NES"
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=raw)
    assert restored.fill == Night.Fill.THREES
    assert sorted((row.name, row.total, row.wins) for row in night_standings(restored).rows) == before


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r["seat_points"].update(N=99), "more than"),
        (lambda r: r["seat_points"].pop("S"), "a whole number for each of N, E and S"),
        (lambda r: r.update(seat_points=None), "gives each player's points"),
        (lambda r: r.update(ns=3), "no sides"),
        (lambda r: r.update(winner="NS"), "“winner”"),
    ],
)
def test_a_backup_whose_table_of_three_was_edited_is_refused_whole(change, words):

    night = _played_three_night()
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    result = next(r for r in data["rounds"][0]["results"] if r["seat_points"] is not None)
    change(result)
    assert f"table {result['table']}" in refused(signed(data), words)


def test_a_table_of_three_on_a_night_without_them_is_refused():

    night = _played_three_night()
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    data["night"]["fill"] = "byes"
    refused(signed(data), "a table seats four")


def test_the_every_hand_csv_gives_each_player_s_points_at_a_table_of_three(organizer_client):

    night = _played_three_night()
    text = organizer_client.get(reverse("tournament:hands_csv", args=[night.pk])).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0][-3:] == ["three-handed N", "three-handed E", "three-handed S"]
    result = night.rounds.get(number=1).results.get(table=4)
    line = next(row for row in lines if row[:3] == ["1", "4", "total"])
    assert line[9:11] == ["", ""]
    assert line[-3:] == [str(result.seat_points[seat]) for seat in "NES"]


# --- the table's phone ----------------------------------------------------------------------------------------------


def _codes(round_, table):

    seats = dict(Seating.objects.filter(round=round_, table=table).values_list("seat", "player_id"))
    codes = dict(
        Entry.objects.filter(night=round_.night, player_id__in=seats.values()).values_list("player_id", "code")
    )
    return {seat: codes[player] for seat, player in seats.items()}


def test_a_table_of_three_enters_its_score_by_phone_and_another_player_confirms_it():
    _, round_ = _night(players=13)
    codes = _codes(round_, 4)
    points = {"N": 2, "E": 5, "S": 4}
    draft = game.table_draft_submit(round_=round_, table=4, seat_points=points, code=codes["N"])
    assert draft.status == "draft" and draft.side == "N" and draft.seat_points == points
    with pytest.raises(ValidationError, match="another player at the table confirms it"):
        game.table_draft_confirm(round_=round_, table=4, draft_number=draft.number, code=codes["N"])
    result = game.table_draft_confirm(round_=round_, table=4, draft_number=draft.number, code=codes["S"])
    assert result.seat_points == points and result.winner == "E" and result.status == "final"


def test_two_players_typing_the_same_score_confirm_it_and_different_scores_are_a_dispute():
    _, round_ = _night(players=13)
    codes = _codes(round_, 3)
    game.table_draft_submit(round_=round_, table=3, seat_points={"N": 1, "E": 2, "S": 3}, code=codes["E"])
    game.table_draft_submit(round_=round_, table=3, seat_points={"N": 1, "E": 2, "S": 3}, code=codes["S"])
    assert round_.results.get(table=3).seat_points == {"N": 1, "E": 2, "S": 3}
    codes = _codes(round_, 2)
    game.table_draft_submit(round_=round_, table=2, seat_points={"N": 1, "E": 2, "S": 3}, code=codes["E"])
    second = game.table_draft_submit(round_=round_, table=2, seat_points={"N": 4, "E": 2, "S": 3}, code=codes["N"])
    assert second.status == "disputed" and not round_.results.filter(table=2).exists()


def test_the_phone_page_of_a_table_of_three_has_a_box_for_each_player(client):
    night, round_ = _night(players=13)

    services.table_links_ensure(night=night)
    link = TableLink.objects.get(night=night, table=4, active=True)
    names = {s.seat: s.player.name for s in Seating.objects.filter(round=round_, table=4).select_related("player")}
    page = client.get(reverse("scoring:table_link", args=[link.token])).content.decode()
    assert "Three-handed" in page and 'name="s_points"' in page and "Or enter it hand by hand" not in page
    codes = _codes(round_, 4)
    post = {"n_points": "3", "e_points": "1", "s_points": "6", "code": codes["E"], "key": "phone-1", "game": "1"}
    body = client.post(reverse("scoring:link_submit", args=[link.token]), post).content.decode()
    assert f"{names['E']} entered {names['N']} 3, {names['E']} 1, {names['S']} 6" in body
    post.update(n_points="99", key="phone-2")
    body = client.post(reverse("scoring:link_submit", args=[link.token]), post).content.decode()
    assert "more than" in body


def test_the_desk_shows_a_table_of_three_s_draft_and_dispute_by_name(client, django_user_model):
    night, round_ = _night(players=13)
    organizer = django_user_model.objects.create_user("org", password="pw-long-enough", is_staff=True)
    client.force_login(organizer)
    names = {s.seat: s.player.name for s in Seating.objects.filter(round=round_, table=3).select_related("player")}
    codes = _codes(round_, 3)
    game.table_draft_submit(round_=round_, table=3, seat_points={"N": 1, "E": 2, "S": 3}, code=codes["E"])
    page = client.get(reverse("scoring:keeper_desk", args=[night.pk])).content.decode()
    assert f"entered by {names['E']}, {names['N']} 1, {names['E']} 2, {names['S']} 3" in page
    assert 'name="t3-s_points" value="3"' in page  # what the table typed, ready for the keeper to save
    game.table_draft_submit(round_=round_, table=3, seat_points={"N": 1, "E": 2, "S": 1}, code=codes["N"])
    page = client.get(reverse("scoring:keeper_desk", args=[night.pk])).content.decode()
    assert f"disputed: {names['E']} says" in page and f"{names['N']} says" in page


def test_a_table_of_three_s_phone_entries_survive_a_backup_and_a_restore():

    night, round_ = _night(players=13)
    codes = _codes(round_, 4)
    draft = game.table_draft_submit(round_=round_, table=4, seat_points={"N": 2, "E": 5, "S": 4}, code=codes["N"])
    game.table_draft_confirm(round_=round_, table=4, draft_number=draft.number, code=codes["S"])
    codes = _codes(round_, 3)
    game.table_draft_submit(round_=round_, table=3, seat_points={"N": 1, "E": 0, "S": 3}, code=codes["E"])
    raw = backup.night_backup_bytes(Night.objects.get(pk=night.pk))
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=raw)
    entries = restored.rounds.get(number=1).submissions.order_by("table", "number")
    assert [(e.table, e.side, e.seat_points, e.status) for e in entries] == [
        (3, "E", {"N": 1, "E": 0, "S": 3}, "draft"),
        (4, "N", {"N": 2, "E": 5, "S": 4}, "confirmed"),  # once: the score N typed, confirmed by S
    ]


@pytest.mark.parametrize("movement", Night.Movement.values)
def test_simulate_night_plays_13_14_and_15_players_with_tables_of_three_in_every_movement(movement, tmp_path):
    """The Done-when line: "a 13-, 14- and 15-player night runs with three-handed tables and no byes, through all
    movements, in the simulation": the command's JSON, read back, has no byes and the sizes of `table_sizes`."""
    for players, sizes in ((13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (15, [4, 4, 4, 3])):
        out = tmp_path / f"{players}.json"
        call_command(
            "simulate_night",
            players=players,
            rounds=4,
            seed=players,
            movement=movement,
            fill="threes",
            json_file=str(out),
        )
        record = json.loads(out.read_text(encoding="utf-8"))
        assert len(record["rounds"]) == 4
        for round_ in record["rounds"]:
            assert round_["byes"] == []
            assert [len(table["seats"]) for table in round_["tables"]] == sizes
            assert [table["three"] for table in round_["tables"]] == [size == 3 for size in sizes]
