"""Substitutes (#20): "a player who must leave can be replaced by a substitute for the rest of the night; the
standings show both and the organizer's rule for whose tally counts"."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import game_under_way, play_round, register
from tournament import backup, game, services
from tournament.models import Bye, Entry, Night, Player, Seating
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db


def _entry(night, name):
    return Entry.objects.get(night=night, player__name=name)


def _close(round_):
    """Every table 10-4 to N-S, then the game closed; the next game seated (returned)."""
    scored = set(round_.results.values_list("table", flat=True))
    tables = sorted(set(round_.seatings.values_list("table", flat=True)) - scored)
    round_ = play_round(round_, {table: (10, 4) for table in tables})
    return game.round_close(round_=round_)


def test_the_substitute_takes_the_seat_at_once_and_the_leaver_keeps_their_games(night):
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Ann Kowalski")
    seat = Seating.objects.get(round=round_, player=leaver.player)
    sub = services.entry_substitute(entry=leaver, name="  Zoe   Quinn ")
    assert sub.player.name == "Zoe Quinn" and sub.substitute_for_id == leaver.pk
    leaver.refresh_from_db()
    assert not leaver.active
    assert Seating.objects.get(round=round_, table=seat.table, seat=seat.seat).player_id == sub.player_id
    next_round = _close(round_)
    assert next_round.seatings.filter(player=sub.player).exists()
    assert not next_round.seatings.filter(player=leaver.player).exists()


def test_after_the_tables_score_is_in_the_substitute_comes_in_from_the_next_game(night):
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Ann Kowalski")
    table = Seating.objects.get(round=round_, player=leaver.player).table
    play_round(round_, {table: (10, 4)})
    sub = services.entry_substitute(entry=leaver, name="Zoe Quinn")
    assert Seating.objects.filter(round=round_, player=leaver.player).exists()  # they played it
    next_round = _close(round_)
    assert next_round.seatings.filter(player=sub.player).exists()


def test_on_the_card_rule_the_standings_show_one_line_with_both_names(night):
    round_ = game_under_way(night, 8)
    next_round = _close(round_)  # Ann plays game 1
    leaver = _entry(night, "Ann Kowalski")
    ann_game_1 = night_standings(night).rows
    ann_total = next(row.total for row in ann_game_1 if row.name == "Ann Kowalski")
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    _close(next_round)  # Zoe plays game 2 on Ann's card
    rows = night_standings(night).rows
    names = [row.name for row in rows]
    assert "Ann Kowalski, then Zoe Quinn" in names and "Zoe Quinn" not in names and len(rows) == 8
    row = next(row for row in rows if row.name == "Ann Kowalski, then Zoe Quinn")
    assert row.games == 2 and row.total == ann_total + row.per_round[1]


def test_on_the_own_rule_each_keeps_their_own_tally(night):
    services.night_update(night=night, substitutes="own")
    night.refresh_from_db()
    round_ = game_under_way(night, 8)
    next_round = _close(round_)
    services.entry_substitute(entry=_entry(night, "Ann Kowalski"), name="Zoe Quinn")
    _close(next_round)
    rows = {row.name: row for row in night_standings(night).rows}
    assert rows["Ann Kowalski"].games == 1 and rows["Zoe Quinn (for Ann Kowalski)"].games == 1
    assert len(rows) == 9


def test_a_substitute_on_a_rotation_night_takes_the_chart_number(night):
    Night.objects.filter(pk=night.pk).update(movement=Night.Movement.ROTATION, games=3)
    night.refresh_from_db()
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Bob Martin")
    number = leaver.number
    sub = services.entry_substitute(entry=leaver, name="Zoe Quinn")
    sub.refresh_from_db()
    leaver.refresh_from_db()
    assert sub.number == number and leaver.number is None
    next_round = _close(round_)
    assert next_round.seatings.filter(player=sub.player).exists()


def test_a_substitute_for_someone_sitting_out_takes_the_bye(night):
    round_ = game_under_way(night, 9)
    out = Bye.objects.get(round=round_)
    leaver = Entry.objects.get(night=night, player=out.player)
    sub = services.entry_substitute(entry=leaver, name="Zoe Quinn")
    assert Bye.objects.get(round=round_).player_id == sub.player_id


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "Type the substitute's name."),
        ("bob martin", "Bob Martin is already on tonight's list"),
        ("x" * 81, "at most 80 characters"),
    ],
)
def test_a_bad_substitute_is_refused_and_nothing_changes(night, name, words):
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Ann Kowalski")
    with pytest.raises(ValidationError, match=words):
        services.entry_substitute(entry=leaver, name=name)
    leaver.refresh_from_db()
    assert leaver.active and Seating.objects.filter(round=round_, player=leaver.player).exists()
    assert Entry.objects.filter(night=night).count() == 8


def test_nobody_is_replaced_before_the_draw_or_twice(night):
    register(night, 8)
    with pytest.raises(ValidationError, match="once the night is under way"):
        services.entry_substitute(entry=_entry(night, "Ann Kowalski"), name="Zoe Quinn")
    services.night_draw(night=night, seed=1)
    services.entry_substitute(entry=_entry(night, "Ann Kowalski"), name="Zoe Quinn")
    with pytest.raises(ValidationError, match="has already left"):
        services.entry_substitute(entry=_entry(night, "Ann Kowalski"), name="Yan Ode")


def test_the_players_panel_replaces_and_shows_a_refusal_beside_the_field(organizer_client, night):
    game_under_way(night, 8)
    url = reverse("tournament:entry_substitute", args=[night.pk])
    leaver = _entry(night, "Ann Kowalski")
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "A substitute" in page and "Replace for the rest of the night" in page
    refused = organizer_client.post(url, {"leaving": leaver.pk, "name": "Bob Martin"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and "Bob Martin is already on tonight&#x27;s list" in refused.content.decode()
    done = organizer_client.post(url, {"leaving": leaver.pk, "name": "Zoe Quinn"})
    assert done.status_code == 302
    assert Entry.objects.get(night=night, player__name="Zoe Quinn").substitute_for_id == leaver.pk
    page = organizer_client.get(night.get_absolute_url()).content.decode()
    assert "gone, replaced by Zoe Quinn" in page and "substitute for Ann Kowalski" in page
    wrong = organizer_client.post(url, {"leaving": 999999, "name": "Yan Ode"})
    assert wrong.status_code == 200 and "Select a valid choice" in wrong.content.decode()
    # Nobody is chosen until the organizer picks (a list on its first name replaced the wrong player in a hurry).
    assert '<option value="" selected>Pick who leaves…</option>' in page
    unpicked = organizer_client.post(url, {"leaving": "", "name": "Yan Ode"}).content.decode()
    assert "Pick the player who leaves." in unpicked and not Entry.objects.filter(player__name="Yan Ode").exists()


def test_substitutes_survive_a_backup_and_a_restore(night):
    round_ = game_under_way(night, 8)
    services.entry_substitute(entry=_entry(night, "Ann Kowalski"), name="Zoe Quinn")
    _close(round_)
    night.refresh_from_db()
    before = [(row.name, row.total) for row in night_standings(night).rows]
    raw = backup.night_backup_bytes(night)
    assert json.loads(raw)["substitutes"] == [{"player": "zoe quinn", "for": "ann kowalski"}]
    ids = list(night.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=night.pk).delete()
    Player.objects.filter(pk__in=ids).delete()
    restored = backup.night_restore(raw=raw)
    assert sorted((row.name, row.total) for row in night_standings(restored).rows) == sorted(before)


def test_a_refused_swap_keeps_the_swap_form_in_the_players_panel(organizer_client, night):
    """htmx answers a refusal with the Players tonight panel alone: the swap form stays, with the reason in it."""
    round_ = game_under_way(night, 8)
    url = reverse("tournament:seating_swap", args=[night.pk, round_.number])
    player = Seating.objects.filter(round=round_).first().player_id
    answer = organizer_client.post(url, {"player": player, "other": player}, HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert answer.status_code == 200 and 'role="alert"' in body
    assert f"Swap two players in game {round_.number}" in body  # the form is still there to try again


# --- the page of a player who left (#33): when, who took their seat, their own games ------------------------------


def _page(client, night, entry) -> str:
    return client.get(reverse("tournament:player_page", args=[night.pk, entry.player_id])).content.decode()


@pytest.mark.parametrize("rule", ["card", "own"])
def test_the_replaced_players_page_says_when_they_left_who_took_the_seat_and_their_own_games(client, night, rule):
    from tournament.selectors import game_lines

    services.night_update(night=night, substitutes=rule)
    night.refresh_from_db()
    next_round = _close(game_under_way(night, 8))  # Ann plays game 1
    leaver = _entry(night, "Ann Kowalski")
    [game_1] = game_lines(night)[leaver.player_id]
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    game_2 = game.round_start(round_=next_round)
    page = _page(client, night, leaver)
    assert "You left after game 1; Zoe Quinn took your seat." in page
    assert ">Now<" not in page and "Next game" not in page and "Game 2" not in page  # nothing pretends she plays
    assert f"table {game_1.table} · {game_1.partner}" in page
    assert f"Your tally: <b>{game_1.running_total}</b>" in page
    _close(game_2)  # Zoe plays game 2 (on Ann's card, under the "card" rule)
    page = _page(client, night, leaver)
    assert (
        f"Your tally: <b>{game_1.running_total}</b> point{'s' if game_1.running_total != 1 else ''} after game 1."
        in page
    )
    assert "<td>2</td>" not in page  # Zoe's game is not Ann's
    zoe = _page(client, night, _entry(night, "Zoe Quinn"))
    assert "You left" not in zoe and "Next game" in zoe


def test_a_player_replaced_before_their_first_game_was_scored_is_told_so(client, night):
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Bob Martin")
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    page = _page(client, night, leaver)
    assert "You left before your first game; Zoe Quinn took your seat." in page
    assert "No game of yours was scored." in page
    assert round_.seatings.filter(player__name="Zoe Quinn").exists()


def test_a_player_who_leaves_without_a_substitute_finishes_the_game_then_is_told_they_left(client, night):
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Chloé Dubois")
    services.entry_set_active(entry=leaver, active=False)
    seat = Seating.objects.get(round=round_, player=leaver.player)
    page = _page(client, night, leaver)
    assert "You leave after this game (game 1)." in page and f"Table {seat.table}" in page
    _close(round_)
    page = _page(client, night, leaver)
    assert "You left after game 1." in page and "took your seat" not in page and "Next game" not in page


def test_the_standings_csv_gives_a_tally_taken_over_on_a_rotation_night_its_chart_number(night, organizer_client):
    """On the card rule the leaver's tally goes on under their chart number, which passed to the substitute: the
    CSV's number column says it, as the standings page's does (the leaver's own entry has no number any more)."""
    Night.objects.filter(pk=night.pk).update(movement=Night.Movement.ROTATION, games=3)
    night.refresh_from_db()
    round_ = game_under_way(night, 8)
    leaver = _entry(night, "Bob Martin")
    number = leaver.number
    next_round = _close(round_)
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    _close(next_round)
    lines = organizer_client.get(reverse("tournament:standings_csv", args=[night.pk])).content.decode("utf-8-sig")
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(lines))}
    assert rows["Bob Martin, then Zoe Quinn"]["number"] == str(number)
    assert all(row["number"] for row in rows.values())  # every tally has its number


def test_the_substitute_confirms_a_score_with_the_code_on_the_card_they_took_over(night):
    # The substitute sits down with the leaver's tally card, whose code is the leaver's: that code is theirs now
    # (and a substitute's substitute's, down the line); a code from a card at another table still is not.
    round_ = game_under_way(night, 8)  # the conftest night asks both sides for a code
    leaver = _entry(night, "Ann Kowalski")
    seat = Seating.objects.get(round=round_, player=leaver.player)
    first = services.entry_substitute(entry=leaver, name="Zoe Quinn")
    second = services.entry_substitute(entry=first, name="Yan Quill")
    side = "NS" if seat.seat in "NS" else "EW"
    other = "EW" if side == "NS" else "NS"
    elsewhere = Seating.objects.filter(round=round_).exclude(table=seat.table).select_related("player").first()
    wrong = Entry.objects.get(night=night, player=elsewhere.player).code
    with pytest.raises(ValidationError, match="not the code of a player"):
        game.table_draft_submit(round_=round_, table=seat.table, ns_points=6, ew_points=2, code=wrong)
    draft = game.table_draft_submit(round_=round_, table=seat.table, ns_points=6, ew_points=2, code=leaver.code)
    assert draft.side == side
    sitting = Seating.objects.filter(round=round_, table=seat.table).exclude(player=second.player)
    opposite = next(s for s in sitting if ("NS" if s.seat in "NS" else "EW") == other)
    confirmer = Entry.objects.get(night=night, player_id=opposite.player_id).code
    game.table_draft_confirm(round_=round_, table=seat.table, draft_number=draft.number, code=confirmer)
    assert round_.results.get(table=seat.table).status == "final"
