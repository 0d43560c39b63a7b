"""Smaller things a new organizer noticed (#17, item 6), each mended and checked."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from scoring.models import TableLink
from tests.conftest import game_under_way
from tournament import services as night_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(night):
    return game_under_way(night)


def test_tally_cards_two_and_four_a_page_download_under_their_own_names(organizer_client, playing):
    names = {
        per_page: organizer_client.get(
            reverse("tournament:tally_cards_pdf", args=[playing.night_id]), {"per_page": per_page}
        )["Content-Disposition"]
        for per_page in ("2", "4")
    }
    assert "tally-cards-2-a-page.pdf" in names["2"] and "tally-cards-4-a-page.pdf" in names["4"]


def test_printing_a_chart_of_a_night_that_has_none_is_refused_in_words(playing, tmp_path):
    with pytest.raises(CommandError, match="has no rotation chart"):
        call_command("print_sheets", str(playing.night_id), "--sheet", "chart", "--out", str(tmp_path / "c.pdf"))
    assert not (tmp_path / "c.pdf").exists()


def test_one_hand_so_far_is_one_hand(client, organizer_client, playing):
    token = TableLink.objects.get(night=playing.night, table=2, active=True).token
    client.post(
        reverse("scoring:link_hand_add", args=[token]), {"maker": "N", "tricks": "3", "game": "1"}, HTTP_HX_REQUEST="1"
    )
    page = organizer_client.get(reverse("tournament:night_detail", args=[playing.night_id])).content.decode()
    assert "Enter hands (1 hand so far)" in page


def test_the_tables_phone_says_table_n_on_every_page(client, playing):
    token = TableLink.objects.get(night=playing.night, table=2, active=True).token
    for url in (reverse("scoring:table_link", args=[token]), reverse("scoring:link_hands", args=[token])):
        page = unescape(client.get(url).content.decode())
        assert '<span class="brand">♠ Table 2</span>' in page and "♠ Head Table" not in page


def test_a_tied_total_on_the_desk_says_what_to_do_without_repeating_the_question(organizer_client, playing):
    save = reverse("scoring:desk_save", args=[playing.night_id, 1, 2])
    body = unescape(
        organizer_client.post(
            save, {"t2-ns_points": "4", "t2-ew_points": "4", "t2-key": "tie"}, HTTP_HX_REQUEST="true"
        ).content.decode()
    )
    assert '<div class="error" role="alert">The game is tied: say which team won the last hand.</div>' in body


def test_the_seating_sheet_shares_a_short_list_between_its_columns_and_breaks_no_name(night):
    from tests.tournament.sheets.test_pdf import runs_of
    from tournament.sheets import printing

    names = [f"Player {n}" for n in range(1, 12)] + ["Bartholomew Worthington-Smythe"]
    night_services.players_register(night=night, names=names)
    night_services.night_draw(night=night, seed=1)
    runs = runs_of(printing.sheet_bytes(night, "seating", game=1))
    texts = [text for *_, text in runs]
    assert "Worthington-Smythe" in " ".join(texts) and not any(text.startswith("ton-Smythe") for text in texts)
    middle = 300  # points: the two halves of a Letter page
    named = [(x, text) for x, _, _, _, text in runs if text.startswith(("Player", "Bartholomew"))]
    left = [text for x, text in named if x < middle]
    right = [text for x, text in named if x >= middle]
    assert len(left) == 6 and len(right) == 6  # twelve names, six a column: no column left empty
