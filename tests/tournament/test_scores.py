"""Entering a table's game: totals or hand by hand, tie rules, and refusals that lose nothing."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from scoring import rules
from scoring.models import Submission, TableResult
from tests.conftest import register
from tournament import game, services
from tournament.game import table_result_submit
from tournament.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(night):
    register(night, 8)
    return game.round_start(round_=services.night_draw(night=night, seed=9))


def test_totals_decide_the_winner(playing):
    result = table_result_submit(round_=playing, table=2, ns_points=3, ew_points=7)
    assert (result.winner, result.tie_break, result.version) == ("EW", "", 1)


def test_a_tie_needs_the_last_hand_under_the_default_rule(playing):
    with pytest.raises(ValidationError) as error:
        table_result_submit(round_=playing, table=1, ns_points=5, ew_points=5)
    assert error.value.message_dict["last_hand_winner"] == ["The game is tied: say which team won the last hand."]
    assert not TableResult.objects.exists()
    result = table_result_submit(round_=playing, table=1, ns_points=5, ew_points=5, last_hand_winner="EW")
    assert (result.winner, result.tie_break) == ("EW", "last_hand")


def test_a_tie_drawn_by_the_app_is_recorded_and_reproducible(night):
    night.tie_rule = "draw"
    night.save()
    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=9))
    first = table_result_submit(round_=round_, table=1, ns_points=4, ew_points=4)
    again = table_result_submit(round_=round_, table=1, ns_points=4, ew_points=4, expected_version=1)
    assert first.tie_break == again.tie_break == "draw"
    assert first.winner == again.winner


def test_a_total_no_game_could_make_is_refused(playing):
    with pytest.raises(ValidationError) as error:
        table_result_submit(round_=playing, table=1, ns_points=33, ew_points=3)
    assert error.value.message_dict == {"ns_points": ["33 is more than 8 hands can make (at most 32)."]}
    with pytest.raises(ValidationError, match="at most 12"):
        table_result_submit(round_=playing, table=1, ns_points=13, ew_points=3, hands_played=3)
    assert not TableResult.objects.exists()


def test_negative_points_are_refused(playing):
    with pytest.raises(ValidationError) as error:
        table_result_submit(round_=playing, table=1, ns_points=-1, ew_points=3)
    assert error.value.message_dict == {"ns_points": ["Points cannot be negative."]}


def test_a_second_entry_never_silently_overwrites_the_first(playing):
    table_result_submit(round_=playing, table=1, ns_points=6, ew_points=2)
    with pytest.raises(ValidationError, match="already has a score, 6–2"):
        table_result_submit(round_=playing, table=1, ns_points=2, ew_points=6)
    corrected = table_result_submit(round_=playing, table=1, ns_points=2, ew_points=6, expected_version=1)
    assert (corrected.ns_points, corrected.winner, corrected.version) == (2, "EW", 2)
    with pytest.raises(ValidationError):  # a stale form quoting version 1 again
        table_result_submit(round_=playing, table=1, ns_points=9, ew_points=0, expected_version=1)
    assert TableResult.objects.get().ns_points == 2


def test_scores_only_for_a_started_open_game_and_a_real_table(night):
    register(night, 4)
    round_ = services.night_draw(night=night, seed=1)
    with pytest.raises(ValidationError, match="not started"):
        table_result_submit(round_=round_, table=1, ns_points=5, ew_points=3)
    game.round_start(round_=round_)
    with pytest.raises(ValidationError, match="no table 2"):
        table_result_submit(round_=round_, table=2, ns_points=5, ew_points=3)
    table_result_submit(round_=round_, table=1, ns_points=5, ew_points=3)
    game.round_close(round_=round_)
    with pytest.raises(ValidationError, match="closed"):
        table_result_submit(round_=round_, table=1, ns_points=1, ew_points=3, expected_version=1)


def test_paper_totals_no_hands_could_make_are_refused_at_the_head_table(playing):
    for ns, ew in ((0, 0), (32, 32), (30, 2)):
        with pytest.raises(ValidationError) as error:
            table_result_submit(round_=playing, table=1, ns_points=ns, ew_points=ew)
        assert error.value.message_dict["__all__"][0].startswith(f"No 8 hands make N–S {ns}, E–W {ew}")
    assert not TableResult.objects.exists()
    # Another table may play on until the bell: thirty to two is possible there, in ten hands, so it is asked
    # about once rather than refused.
    with pytest.raises(ValidationError, match="is more than 8 hands make"):
        table_result_submit(round_=playing, table=2, ns_points=30, ew_points=2)
    assert table_result_submit(round_=playing, table=2, ns_points=30, ew_points=2, sure=True).winner == "NS"


def test_the_desk_says_why_a_paper_total_is_refused(organizer_client, playing):
    save = reverse("scoring:desk_save", args=[playing.night_id, 1, 1])
    response = organizer_client.post(
        save, {"t1-ns_points": "0", "t1-ew_points": "0", "t1-key": "a"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "No 8 hands make N–S 0, E–W 0" in response.content.decode()
    assert not TableResult.objects.exists()


def test_a_score_saved_at_the_desk_has_the_desk_s_poll_ask_at_once(organizer_client, playing):
    """The bar's "Waiting for tables …" follows a save at once: the save's answer has the page's poll ask now (an
    event it listens for), and that poll brings the bar as it now stands."""
    desk = organizer_client.get(reverse("scoring:keeper_desk", args=[playing.night_id])).content.decode()
    assert "Waiting for tables 1, 2." in desk
    poll = re.search(r'<div id="desk-poll"[^>]*hx-get="([^"]+)"[^>]*hx-trigger="([^"]+)"', desk)
    assert poll and "desk-saved from:body" in poll.group(2)
    saved = _desk_post(organizer_client, playing, 1, ns_points="6", ew_points="2")
    assert saved["HX-Trigger"] == "desk-saved"
    asked = organizer_client.get(unescape(poll.group(1)), HTTP_HX_REQUEST="true").content.decode()
    assert "Waiting for table 2." in asked and "Waiting for tables" not in asked
    refused = _desk_post(organizer_client, playing, 2, ns_points="0", ew_points="0")
    assert "HX-Trigger" not in refused  # a refusal changed nothing: no poll needed


def _desk_post(client, round_, table: int, **fields):
    data = {f"t{table}-{name}": value for name, value in {"key": "k", **fields}.items()}
    return client.post(
        reverse("scoring:desk_save", args=[round_.night_id, round_.number, table]), data, HTTP_HX_REQUEST="true"
    )


def test_the_desk_takes_a_head_table_cut_short_by_the_organizers_bell_at_the_hands_it_played(organizer_client, playing):
    # The organizer rings the bell while the head table is on its 3rd hand: its paper says 3–1 (a march and two
    # single points), which no 8 hands make. The desk asks how many hands it played and checks the totals against
    # that count; nothing is stored while a count is wrong.
    bell = reverse("tournament:round_bell", args=[playing.night_id, playing.number])
    assert organizer_client.post(bell, {"seen": f"playing:{playing.token}"}).status_code == 302
    desk = organizer_client.get(reverse("scoring:keeper_desk", args=[playing.night_id])).content.decode()
    assert desk.count('name="t1-hands_played"') == 1 and 'name="t2-hands_played"' not in desk
    assert "The bell rang before the head table's last hand: on its row, Tab on to “hands played”" in desk
    assert (
        "No 2 hands make N–S 3, E–W 1"
        in _desk_post(organizer_client, playing, 1, ns_points=3, ew_points=1, hands_played=2).content.decode()
    )
    for typed, said in (
        ("9", "The head table plays at most 8 hands a game"),
        ("0", "At least 1 hand"),
        ("x", "Type the number of hands"),
    ):
        body = _desk_post(organizer_client, playing, 1, ns_points=3, ew_points=1, hands_played=typed).content.decode()
        assert said in body
    assert not TableResult.objects.exists()
    saved = _desk_post(organizer_client, playing, 1, ns_points=3, ew_points=1, hands_played=3)
    assert saved.status_code == 200 and "saved" in saved.content.decode()
    result = TableResult.objects.get(table=1)
    assert (result.ns_points, result.ew_points, result.hands_played, result.winner) == (3, 1, 3, "NS")


def test_the_desk_asks_for_hands_only_when_the_bell_rang_before_the_head_tables_last_hand(organizer_client, playing):
    desk = reverse("scoring:keeper_desk", args=[playing.night_id])
    assert "hands_played" not in organizer_client.get(desk).content.decode()  # still playing: 8 hands, as always
    # A hands box posted to a table the bell did not cut short is not read: the totals are checked against 8.
    body = _desk_post(organizer_client, playing, 1, ns_points=3, ew_points=1, hands_played=3).content.decode()
    assert "No 8 hands make N–S 3, E–W 1" in body
    assert not TableResult.objects.exists()


def test_the_timers_bell_before_the_head_tables_last_hand_asks_too_and_the_head_tables_own_does_not(
    organizer_client, playing
):
    Round.objects.filter(pk=playing.pk).update(ends_at=timezone.now())
    playing.refresh_from_db()
    assert game.bell_due(round_id=playing.pk, token=playing.token)
    desk = reverse("scoring:keeper_desk", args=[playing.night_id])
    assert 'name="t1-hands_played"' in organizer_client.get(desk).content.decode()
    assert _desk_post(organizer_client, playing, 1, ns_points=1, ew_points=4, hands_played=2).status_code == 200
    assert TableResult.objects.get(table=1).winner == "EW"  # a single point and an E–W loner, in 2 hands
    # Another game, where the head table's own 8th hand rang the bell: it played its hands, nothing to ask.
    other = services.night_create(name="Another night", venue="Hall", games=3, auto_advance=False)
    register(other, 8)
    round_ = game.round_start(round_=services.night_draw(night=other, seed=9))
    for _ in range(8):
        game.hand_record(round_=round_, table=1, hand=rules.Hand(makers="NS", maker="N", tricks=3))
    round_.refresh_from_db()
    assert round_.bell_at is not None
    page = organizer_client.get(reverse("scoring:keeper_desk", args=[other.pk])).content.decode()
    assert "hands_played" not in page and "desk-1" in page


def _organizers_bell(client, round_) -> None:
    bell = reverse("tournament:round_bell", args=[round_.night_id, round_.number])
    assert client.post(bell, {"seen": f"playing:{round_.token}"}).status_code == 302


def test_after_an_early_bell_the_head_tables_totals_are_taken_at_any_number_of_hands_wherever_typed(
    organizer_client, client, playing
):
    """#34 item 11's kin: the desk's hands box is one way; the table's own phone and the night page have no such
    box, and took the head table's 3–1 after the organizer's bell as "no 8 hands make" it. Now a head table cut
    short is checked as any table is (any number of hands up to its last); a count, where typed, exactly."""
    _organizers_bell(organizer_client, playing)
    # The night page's form, at the head table.
    night_page = reverse("scoring:table_score", args=[playing.night_id, playing.number, 1])
    answer = organizer_client.post(night_page, {"t1-ns_points": "3", "t1-ew_points": "1"})
    assert answer.status_code == 302
    assert (TableResult.objects.get(table=1).ns_points, TableResult.objects.get(table=1).ew_points) == (3, 1)
    # The desk with the box left empty: the same check (the count is not known).
    body = _desk_post(organizer_client, playing, 1, ns_points=2, ew_points=4, reason="").content.decode()
    assert "No 8 hands make" not in body


def test_after_an_early_bell_the_head_tables_phone_sends_its_totals(organizer_client, client, night):
    from tests.conftest import code_at

    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=9))
    services.table_links_ensure(night=night)
    _organizers_bell(organizer_client, round_)
    link = night.table_links.get(table=1, active=True)
    post = {"ns_points": "3", "ew_points": "1", "code": code_at(round_, 1, "N"), "key": "h1", "game": "1"}
    shown = client.post(reverse("scoring:link_submit", args=[link.token]), post, HTTP_HX_REQUEST="true")
    assert "No 8 hands make" not in shown.content.decode()
    assert Submission.objects.filter(table=1, ns_points=3, ew_points=1).count() == 1


def test_without_an_early_bell_the_head_table_still_plays_all_its_hands(organizer_client, playing):
    night_page = reverse("scoring:table_score", args=[playing.night_id, playing.number, 1])
    answer = organizer_client.post(night_page, {"t1-ns_points": "3", "t1-ew_points": "1"}, HTTP_HX_REQUEST="true")
    assert "No 8 hands make N–S 3, E–W 1" in answer.content.decode()
    assert not TableResult.objects.exists()
