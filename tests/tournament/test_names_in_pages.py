"""Names however typed, through the pages: "find me", registration and the lists (#17, item 3)."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from tests.conftest import register
from tournament import services
from tournament.selectors import night_entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered(night):
    register(night, 8)
    services.players_register(night=night, names=["Maximilian Ott", "Seán O'Brien"])
    services.night_draw(night=night, seed=1)
    return night


@pytest.mark.parametrize("typed", ["chloe", "CHLOÉ", "Chloe Dubois"])
def test_find_me_finds_chloe_however_typed(client, registered, typed):
    answer = client.get(reverse("tournament:player_find", args=[registered.pk]), {"q": typed})
    assert answer.status_code == 302  # one player found: straight to their page
    assert "Chloé Dubois" in unescape(client.get(answer.url).content.decode())


@pytest.mark.parametrize("typed,name", [("lukasz zolc", "Łukasz Żółć"), ("obrien", "Seán O'Brien")])
def test_find_me_finds_names_without_their_accents_or_apostrophes(client, registered, typed, name):
    answer = client.get(reverse("tournament:player_find", args=[registered.pk]), {"q": typed}, follow=True)
    assert name in unescape(answer.content.decode())


def test_lukasz_sorts_with_the_l_names_before_maximilian(registered):
    order = [entry.player.name for entry in night_entries(registered)]
    assert order.index("Hank Rossi") < order.index("Łukasz Żółć") < order.index("Maximilian Ott")


def test_a_zero_width_space_does_not_make_a_second_player(organizer_client, night):
    services.players_register(night=night, names=["AnnKowalski"])
    page = organizer_client.post(
        reverse("tournament:player_add", args=[night.pk]), {"name": "Ann\u200bKowalski"}, HTTP_HX_REQUEST="true"
    )
    assert "Already registered for this night: AnnKowalski." in unescape(page.content.decode())
    assert night.entries.count() == 1


def test_a_refused_paste_names_each_refused_line_on_the_page_and_adds_nobody(organizer_client, night):
    register(night, 1)  # Ann Kowalski is here already
    pasted = "\n".join(
        ["Bob Martin", "ann  KOWALSKI", "Edna Walsh", "x" * 81, "edna walsh", *[f"Player {n}" for n in range(1, 10)]]
    )
    page = organizer_client.post(
        reverse("tournament:player_paste", args=[night.pk]), {"names": pasted}, HTTP_HX_REQUEST="true"
    )
    body = unescape(page.content.decode())
    assert "Line 2, “ann KOWALSKI”: already registered for this night (as Ann Kowalski)." in body
    assert "Line 4, “" + "x" * 40 + "…”: too long (80 characters at most)." in body
    assert "Line 5, “edna walsh”: listed twice (also on line 3)." in body
    assert "Nobody was added: take out or change the lines above, then add the list again." in body
    assert night.entries.count() == 1
    assert "Player 9" in body  # the pasted list is still in the box, to be mended


@pytest.mark.slow
def test_on_a_13_player_night_the_low_prize_goes_to_a_player_who_played_every_game(client):
    from tournament.rehearsal import simulate
    from tournament.selectors import night_standings

    for seed in range(1, 6):
        night = simulate(players=13, rounds=5, seed=seed)  # one sits out each game, by default for nothing
        standings = night_standings(night)
        low = next(award for award in standings.awards if award.prize == "Low score")
        rows = {row.name: row for row in standings.rows}
        assert all(rows[name].byes == 0 and rows[name].games == 5 for name in low.names), seed
        page = unescape(client.get(reverse("tournament:public_night", args=[night.pk])).content.decode())
        assert '<td class="per-game bye">bye</td>' in page  # and the standings say "bye", not 0


def test_setting_up_13_players_with_byes_that_count_nothing_warns_before_the_draw(organizer_client, night):
    register(night, 13)
    page = unescape(organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode())
    assert "13 players is not a multiple of four: some sit out each game, and a bye counts nothing tonight" in page
    services.players_register(night=night, names=["Quinn Adams", "Rosa Diaz", "Sam Wu"])
    page = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert 'id="bye-warning"' not in page  # sixteen: nobody sits out
