"""The night's length decided at the night (#33): the number of games changed while it runs, "this is the last game",
a hold before the next game (for latecomers, a break, a speech) and "end the night now", each said where the room
and the organizer read it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.models import TableResult
from tests.conftest import play_round, register
from tournament import game, selectors, services
from tournament.models import Night, Round
from tournament.selectors import RoomState

pytestmark = pytest.mark.django_db

SCORES = {1: (10, 4), 2: (6, 10)}


def running_night(games: int = 5, **settings) -> tuple[Night, Round]:
    """Eight players, a night that runs by itself (each game closes and the next starts once every table is in)."""
    night = services.night_create(name="Charity night", games=games, points_target=10, **settings)
    register(night, 8)
    return night, services.night_draw(night=night, seed=3)


def finish_game(round_: Round) -> Round | None:
    """Every table's score in: the night (running by itself) closes the game and moves on; the night's last game
    waits for the organizer's Close (a last look), given here."""
    play_round(round_, SCORES)
    played = Round.objects.get(pk=round_.pk)
    if played.status != Round.Status.CLOSED and played.is_last(played.night):
        game.round_close(round_=played)
    return Round.objects.filter(night=round_.night, number=round_.number + 1).first()


def fresh(night: Night) -> Night:
    return Night.objects.get(pk=night.pk)


def test_the_last_game_said_during_game_3_ends_the_night_when_game_3_closes():
    night, first = running_night(games=10)
    second = finish_game(first)
    third = finish_game(second)
    play_round(third, {2: (10, 2)})  # game 3 under way, one table in
    game.night_last_game(night=night)
    assert fresh(night).games == 3
    room = selectors.room(fresh(night))
    assert "last game" in room.headline
    play_round(Round.objects.get(pk=third.pk), {1: (10, 8)})
    # Every table in: the last game waits for a last look and the organizer's Close, never closing by itself.
    assert (fresh(night).status, Round.objects.get(pk=third.pk).status) == (Night.Status.PLAYING, Round.Status.BELL)
    game.round_close(round_=Round.objects.get(pk=third.pk))
    night = fresh(night)
    assert night.status == Night.Status.FINISHED
    assert night.rounds.count() == 3  # no game 4 was seated
    assert selectors.room(night).state == RoomState.FINISHED


def test_the_number_of_games_changes_after_the_draw_but_never_below_a_game_already_seated():
    night, first = running_night(games=4)
    second = finish_game(first)  # game 2 seated and started by itself
    with pytest.raises(ValidationError) as refused:
        game.night_games_set(night=night, games=1)
    assert "Game 2 is already seated" in str(refused.value)
    game.night_games_set(night=night, games=6)
    assert fresh(night).games == 6
    game.night_settings_change(night=fresh(night), games=2)  # the settings page's way: game 2 is now the last
    finish_game(second)
    assert fresh(night).status == Night.Status.FINISHED


def test_a_held_night_waits_unseated_after_the_game_so_a_latecomer_plays_the_next_one():
    night, first = running_night(games=4)
    game.night_hold(night=night, hold=True)
    assert finish_game(first) is None  # game 1 closed, game 2 not seated
    night = fresh(night)
    assert night.status == Night.Status.PLAYING and night.hold_next
    room = selectors.room(night)
    assert room.state == RoomState.HELD and room.headline == "Game 1 is over"
    assert selectors.joins_game(night) == 2
    (late,) = services.players_register(night=night, names=["Late Larry"])
    second = game.night_seat_next(night=night, start_now=True)
    assert second.number == 2 and second.status == Round.Status.PLAYING
    assert second.seatings.filter(player=late.player).exists() or second.byes.filter(player=late.player).exists()
    assert not fresh(night).hold_next  # the hold was for one game: game 3 follows as usual
    assert finish_game(second) is not None


def test_letting_a_held_night_go_between_games_seats_the_next_game():
    night, first = running_night(games=3)
    game.night_hold(night=night, hold=True)
    finish_game(first)
    game.night_hold(night=fresh(night), hold=False)
    second = Round.objects.get(night=night, number=2)
    assert second.status == Round.Status.SEATED  # seated, started by the organizer's button
    with pytest.raises(ValidationError, match="already seated"):
        game.night_seat_next(night=fresh(night))


def test_ending_now_during_a_game_drops_it_after_saying_so_and_keeps_the_standings_of_the_games_played():
    night, first = running_night(games=6)
    second = finish_game(first)
    standings_after_1 = [(row.name, row.total) for row in selectors.night_standings(fresh(night)).rows]
    play_round(second, {1: (10, 0)})  # one table of game 2 in
    ending = game.night_ending(fresh(night))
    assert (ending.games, ending.drops, ending.tables_in) == (1, 2, 1)
    assert "Game 2 is under way" in ending.words and "not counted" in ending.words
    with pytest.raises(ValidationError):  # not confirmed for game 2: nothing happens
        game.night_end(night=night)
    assert Round.objects.filter(pk=second.pk).exists()
    game.night_end(night=night, drops=2)
    night = fresh(night)
    assert (night.status, night.games, night.rounds.count()) == (Night.Status.FINISHED, 1, 1)
    assert not TableResult.objects.filter(round_id=second.pk).exists()
    assert [(row.name, row.total) for row in selectors.night_standings(night).rows] == standings_after_1
    with pytest.raises(ValidationError, match="over"):
        game.night_games_set(night=night, games=4)  # a finished night never changes


def test_ending_now_with_the_next_game_only_seated_takes_its_seating_down():
    night, first = running_night(games=6, auto_advance=False)
    play_round(first, SCORES)
    second = game.round_close(round_=Round.objects.get(pk=first.pk))
    assert second.status == Round.Status.SEATED
    ending = game.night_ending(fresh(night))
    assert "seated but not started" in ending.words
    game.night_end(night=night, drops=2)
    assert fresh(night).status == Night.Status.FINISHED and fresh(night).rounds.count() == 1


def test_a_confirmation_drawn_before_the_next_game_was_seated_drops_nothing():
    """The organizer read "the night ends with the 1 game played" while game 1 was held; meanwhile someone seated
    game 2: the old confirmation must not drop game 2."""
    night, first = running_night(games=4)
    game.night_hold(night=night, hold=True)
    finish_game(first)
    assert game.night_ending(fresh(night)).drops is None
    game.night_seat_next(night=fresh(night))
    with pytest.raises(ValidationError, match="confirm"):
        game.night_end(night=fresh(night), drops=None)
    assert fresh(night).status == Night.Status.PLAYING


def test_the_bell_task_of_a_dropped_game_does_nothing():
    night, first = running_night(games=4, minutes_per_game=20)
    second = finish_game(first)
    token = Round.objects.get(pk=second.pk).token
    game.night_end(night=night, drops=2)
    assert game.bell_due(round_id=second.pk, token=token) is False


def test_the_pages_say_it_the_nights_list_the_night_page_and_the_end_confirmation(client):
    organizer = User.objects.create_user("org", password="x", is_staff=True)
    client.force_login(organizer)
    night, first = running_night(games=5)
    second = finish_game(first)
    page = client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert "This is the last game" in page and "Hold before game 3" in page and "Add to game 3" in page
    assert "Game 2 of 5" in client.get(reverse("tournament:night_list")).content.decode()
    client.post(reverse("tournament:night_last_game", args=[night.pk]))
    assert "Last game (2 of 2)" in client.get(reverse("tournament:night_list")).content.decode()
    confirm = client.get(reverse("tournament:night_end", args=[night.pk])).content.decode()
    assert "Drop game 2 and end the night" in confirm
    stale = client.post(reverse("tournament:night_end", args=[night.pk]), {"drops": "7"})
    assert stale.status_code == 400 and fresh(night).status == Night.Status.PLAYING
    client.post(reverse("tournament:night_end", args=[night.pk]), {"drops": str(second.number)})
    assert fresh(night).status == Night.Status.FINISHED
    assert "Finished" in client.get(reverse("tournament:night_list")).content.decode()


def test_the_settings_page_takes_the_number_of_games_after_the_draw_and_refuses_too_few_beside_the_field(client):
    organizer = User.objects.create_user("org", password="x", is_staff=True)
    client.force_login(organizer)
    night, first = running_night(games=5)
    finish_game(first)
    url = reverse("tournament:night_settings", args=[night.pk])
    form = client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(games="1")
    data = {key: ("on" if value is True else value) for key, value in data.items() if value is not False}
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert "Game 2 is already seated" in " ".join(refused.context["form"].errors["games"])
    data["games"] = "7"
    assert client.post(url, data).status_code == 302
    assert fresh(night).games == 7


def test_the_tables_phones_say_the_last_game_and_the_hold(client):
    from scoring.models import TableLink

    night, first = running_night(games=4)
    second = finish_game(first)
    link = TableLink.objects.get(night=night, table=2, active=True)
    game.night_last_game(night=night)
    assert "game 2, the last game" in client.get(f"/t/{link.token}/").content.decode()
    game.night_games_set(night=fresh(night), games=4)
    game.night_hold(night=fresh(night), hold=True)
    play_round(Round.objects.get(pk=second.pk), SCORES)
    page = client.get(f"/t/{link.token}/").content.decode()
    assert "game 2 is over; the next game is seated when the organizer calls it" in page


def test_a_hold_or_last_game_button_drawn_for_an_earlier_game_does_nothing_and_says_so(client):
    """A trial: the night page left open in game 2, game 2 closed and game 3 started by itself; the page's "Hold
    before game 3" then held the night before game 4 without a word. The button names its game."""
    organizer = User.objects.create_user("org", password="x", is_staff=True)
    client.force_login(organizer)
    night, first = running_night(games=6)
    second = finish_game(first)
    finish_game(second)  # game 3 under way; the page still shows game 2's buttons
    stale = client.post(reverse("tournament:night_hold", args=[night.pk]), {"hold": "1", "game": "3"})
    assert "drawn for game 2; game 3 is playing now. Nothing was done." in stale.content.decode()
    assert not fresh(night).hold_next
    stale = client.post(reverse("tournament:night_last_game", args=[night.pk]), {"game": "2"})
    assert "Nothing was done" in stale.content.decode() and fresh(night).games == 6
    client.post(reverse("tournament:night_last_game", args=[night.pk]), {"game": "3"})
    assert fresh(night).games == 3


def test_the_night_page_names_the_prize_winners_as_the_prize_rules_give_them(client):
    """A trial: the finished night's headline said "Low score: Carl" (lowest total, a bye) while the prize table,
    the sheet and the display gave the low prize to another player under the night's prize rules."""
    organizer = User.objects.create_user("org", password="x", is_staff=True)
    client.force_login(organizer)
    night, first = running_night(games=1)
    finish_game(first)
    awards = selectors.night_standings(fresh(night)).awards
    page = client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert "its one game played" in page
    for award in awards:
        assert f"{award.prize}: {', '.join(award.names)}" in page


def test_ending_now_names_a_latecomer_who_came_for_the_game_it_drops(organizer_client):
    # A volunteer's trial: a latecomer paid, was added to the next game, and the night was ended during it; nothing
    # said that she had played nothing. The confirmation names her, with the way to her refund.
    night, first = running_night(games=6)
    first = game.round_start(round_=first)
    services.players_register(night=night, names=["Grace Late"])  # during game 1: she plays from game 2
    second = finish_game(first)
    assert second.seatings.filter(player__name="Grace Late").exists()
    assert game.night_ending(fresh(night)).unplayed == ("Grace Late",)
    page = organizer_client.get(reverse("tournament:night_end", args=[night.pk])).content.decode()
    assert "Grace Late</b> will have played no game tonight" in page and "Money page" in page
    finish_game(second)
    assert game.night_ending(fresh(night)).unplayed == ()  # once game 2 counts, she has played
