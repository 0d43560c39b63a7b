"""What a table's phone sends after the Wi-Fi comes back (#37), through the HTTP layer: a hand kept on the phone
and sent again is stored once; one the desk made stale is refused with the score the desk entered, and never lands
in the next game; the answer says plainly whether the action was stored; the page carries what the phone needs to
go on scoring with no connection."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from scoring import rules
from scoring.models import Hand, TableLink, TableResult
from tests.conftest import code_at, register
from tournament import game
from tournament import services as night_services
from tournament.views.hands import SAVED, Draft

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
KEY = "k" * 32


@pytest.fixture
def playing(night):
    register(night, 8)
    round_ = game.round_start(round_=night_services.night_draw(night=night, seed=2))
    night_services.table_links_ensure(night=night)
    return round_


def url(round_, name: str, table: int = 2) -> str:
    token = TableLink.objects.get(night=round_.night, table=table, active=True).token
    return reverse(f"scoring:{name}", args=[token])


def hands(round_, table: int = 2) -> list[tuple[int, str, int]]:
    return list(
        Hand.objects.filter(result__round=round_, result__table=table)
        .order_by("number")
        .values_list("number", "maker", "tricks")
    )


def desk_enters(round_, table: int, user) -> None:
    """The keeper types 7–5 for `table` from its paper slip, taking over from its hands if it has any."""
    now = TableResult.objects.filter(round=round_, table=table).first()
    game.table_result_submit(
        round_=round_,
        table=table,
        ns_points=7,
        ew_points=5,
        user=user,
        take_over=now is not None,
        expected_version=now.version if now else None,
    )


def refusal(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def test_a_hand_sent_again_with_its_key_is_stored_once_and_answered_as_saved(client, playing):
    add = url(playing, "link_hand_add")
    hand = {"maker": "N", "tricks": "3", "game": "1", "hand": "1", "key": KEY}
    first = client.post(add, hand, **HTMX)
    again = client.post(add, hand, **HTMX)  # the phone never heard the first answer
    assert first[SAVED] == again[SAVED] == "1"
    assert "already entered" not in refusal(again)
    assert hands(playing) == [(1, "N", 3)]
    assert TableResult.objects.get(round=playing, table=2).ns_points == 1


def test_a_hand_sent_again_after_the_next_one_is_still_the_same_hand(client, playing):
    add = url(playing, "link_hand_add")
    first = {"maker": "N", "tricks": "3", "game": "1", "hand": "1", "key": KEY}
    client.post(add, first, **HTMX)
    client.post(add, {"maker": "E", "tricks": "5", "game": "1", "hand": "2", "key": "m" * 32}, **HTMX)
    assert client.post(add, first, **HTMX)[SAVED] == "1"
    assert hands(playing) == [(1, "N", 3), (2, "E", 5)]


def test_a_hands_key_already_used_at_another_table_is_refused(client, playing):
    client.post(url(playing, "link_hand_add", 1), {"maker": "N", "tricks": "3", "game": "1", "key": KEY}, **HTMX)
    other = client.post(url(playing, "link_hand_add"), {"maker": "N", "tricks": "4", "game": "1", "key": KEY}, **HTMX)
    assert SAVED not in other
    assert "This hand was already sent for another table or game: nothing saved." in refusal(other)
    assert hands(playing) == [] and hands(playing, 1) == [(1, "N", 3)]


def test_a_kept_hand_for_a_table_the_desk_took_over_is_refused_with_the_desks_score(client, playing, organizer):
    add = url(playing, "link_hand_add")
    client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1", "key": KEY}, **HTMX)
    desk_enters(playing, 2, organizer)
    kept = client.post(add, {"maker": "E", "tricks": "3", "game": "1", "hand": "2", "key": "m" * 32}, **HTMX)
    assert SAVED not in kept
    said = refusal(kept)
    assert "The desk entered N–S 7, E–W 5 for table 2. This hand was not saved." in said
    assert "Ask the score keeper if that is not the score." in said
    assert hands(playing) == []  # the desk's total replaced the hands
    result = TableResult.objects.get(round=playing, table=2)
    assert (result.ns_points, result.ew_points) == (7, 5)


def test_a_kept_hand_for_a_game_the_desk_ended_never_lands_in_the_next_game(client, playing, organizer):
    add = url(playing, "link_hand_add")
    client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    for table in (1, 2):
        desk_enters(playing, table, organizer)
    following = game.round_close(round_=playing)
    second = game.round_start(round_=following)
    kept = client.post(add, {"maker": "E", "tricks": "3", "game": "1", "hand": "2", "key": KEY}, **HTMX)
    assert SAVED not in kept
    assert (
        "The desk entered N–S 7, E–W 5 for table 2 in game 1, and game 1 is over: this table is on game 2 now. "
        "This hand was not saved." in refusal(kept)
    )
    assert hands(second) == [] and not TableResult.objects.filter(round=second).exists()


def test_an_undo_sent_again_with_its_key_is_done_once(client, playing):
    add, undo = url(playing, "link_hand_add"), url(playing, "link_hand_undo")
    client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    client.post(add, {"maker": "S", "tricks": "5", "game": "1", "hand": "2"}, **HTMX)
    taken_back = {"game": "1", "hand": "2", "key": KEY}
    assert client.post(undo, taken_back, **HTMX)[SAVED] == "1"
    client.post(add, {"maker": "E", "tricks": "4", "game": "1", "hand": "2"}, **HTMX)  # hand 2 again, as it was
    again = client.post(undo, taken_back, **HTMX)  # the phone never heard the Undo's answer: sent again
    assert again[SAVED] == "1" and "no longer this table's last" not in refusal(again)
    assert hands(playing) == [(1, "N", 3), (2, "E", 4)]  # the hand entered since is still there
    result = TableResult.objects.get(round=playing, table=2)
    assert (result.ns_points, result.ew_points) == (1, 1)


def test_a_game_over_sent_again_with_its_key_is_done_once(client, playing):
    client.post(url(playing, "link_hand_add"), {"maker": "N", "tricks": "5", "game": "1", "hand": "1"}, **HTMX)
    over = {"game": "1", "key": KEY, "ns_code": code_at(playing, 2, "N"), "ew_code": code_at(playing, 2, "E")}
    first = client.post(url(playing, "link_finish"), over, **HTMX)
    again = client.post(url(playing, "link_finish"), over, **HTMX)  # sent again from the phone's queue
    assert first[SAVED] == again[SAVED] == "1"
    assert "already in" not in refusal(again)
    result = TableResult.objects.get(round=playing, table=2)
    assert (result.status, result.ns_points, result.ew_points) == (TableResult.Status.FINAL, 2, 0)
    codes = {"ns_code": code_at(playing, 1, "N"), "ew_code": code_at(playing, 1, "E")}
    elsewhere = client.post(url(playing, "link_finish", 1), {**over, **codes}, **HTMX)
    assert SAVED not in elsewhere  # the key of table 2's Game over does nothing at table 1
    assert not TableResult.objects.filter(round=playing, table=1).exists()


def test_the_table_pages_undo_and_game_over_carry_a_one_time_key(client, playing):
    client.post(url(playing, "link_hand_add"), {"maker": "N", "tricks": "5", "game": "1", "hand": "1"}, **HTMX)
    page = client.get(url(playing, "link_hands")).content.decode()
    for action in ("hands/undo/", "finish/"):
        form = re.search(rf'<form [^>]*action="[^"]*{action}".*?</form>', page, re.S)
        assert form and re.search(r'name="key" value="[A-Za-z0-9_-]{16,64}"', form.group(0)), action


def test_only_a_stored_action_is_marked_saved(client, playing):
    add = url(playing, "link_hand_add")
    assert client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)[SAVED] == "1"
    again = client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)  # no key: refused
    assert SAVED not in again and "Hand 1 was already entered" in refusal(again)
    undo = url(playing, "link_hand_undo")
    assert SAVED not in client.post(undo, {"game": "1", "hand": "2"}, **HTMX)
    assert client.post(undo, {"game": "1", "hand": "1"}, **HTMX)[SAVED] == "1"
    submit = url(playing, "link_submit")
    assert SAVED not in client.post(submit, {"game": "1", "key": KEY, "ns_points": "x"}, **HTMX)


def test_the_hand_page_carries_every_choices_points_from_the_rules(client, playing):
    client.post(url(playing, "link_hand_add"), {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    page = client.get(url(playing, "link_hands")).content.decode()
    kit = json.loads(unescape(re.search(r'<script id="hand-kit" type="application/json">(.*?)</script>', page)[1]))
    assert kit["game"] == 1 and kit["table"] == 2 and kit["open"]
    assert [(h["number"], h["dealer"], h["called"], h["ns"], h["ew"]) for h in kit["hands"]] == [(1, "N", "N", 1, 0)]
    ruleset = rules.Ruleset.from_dict(playing.night.rules)
    alone = Draft(dealer="", maker="E", alone=True)
    offered = kit["drafts"][alone.query()]
    for count, _label, ns, ew in offered["tricks"]:
        score = rules.score_hand(alone.hand(count), ruleset)
        assert (ns, ew) == (score.ns, score.ew)
    assert ["Alone", Draft(dealer="", maker="E").query(), True] in offered["options"]  # on; tapped, it goes off
    assert all(key in kit["drafts"] for _label, key, _on in offered["options"])  # every toggle leads somewhere known
    assert kit["add"] == url(playing, "link_hand_add")
    chosen = client.get(url(playing, "link_hands") + "?maker=E").content.decode()
    assert re.search(r"name=\"key\" value=\"[A-Za-z0-9_-]{32}\"", chosen)  # the tricks carry a one-time key


def test_the_phone_whose_game_over_closes_the_game_moves_on_to_the_next_by_its_next_poll(client):
    night = night_services.night_create(name="Runs by itself", games=2, hands_per_game=1, auto_advance=True)
    register(night, 8)
    first = game.round_start(round_=night_services.night_draw(night=night, seed=2))
    night_services.table_links_ensure(night=night)
    for table in (2, 1):  # table 1, the head table, rings the bell with its one hand; then both say Game over
        client.post(url(first, "link_hand_add", table), {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    codes = {table: {"ns_code": code_at(first, table, "N"), "ew_code": code_at(first, table, "E")} for table in (1, 2)}
    client.post(url(first, "link_finish", 2), {"game": "1", **codes[2]}, **HTMX)
    last = client.post(url(first, "link_finish", 1), {"game": "1", **codes[1]}, **HTMX)  # every table in: game 2
    assert "game 1 is over" in refusal(last)
    since = re.search(r'id="table-poll"[^>]*hx-get="[^"]*since=([^"&]+)', last.content.decode()).group(1)
    poll = client.get(url(first, "link_hands", 1), {"since": unescape(since)}, **HTMX)
    assert poll.status_code == 200 and "Table 1 Head table · game 2" in refusal(poll)


def test_a_game_over_confirmed_before_another_phone_entered_a_hand_is_refused_with_both_scores(client, playing):
    add, finish = url(playing, "link_hand_add"), url(playing, "link_finish")
    client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    client.post(add, {"maker": "E", "tricks": "3", "game": "1", "hand": "2"}, **HTMX)  # 1–1 after 2 hands
    # Phone A, offline, keeps "Game over" confirmed at 1–1; phone B, online, enters hand 3 meanwhile.
    client.post(add, {"maker": "S", "tricks": "5", "game": "1", "hand": "3"}, **HTMX)
    codes = {"ns_code": code_at(playing, 2, "N"), "ew_code": code_at(playing, 2, "E")}
    kept = client.post(finish, {"game": "1", "key": KEY, "hands": "2", "score": "1–1", **codes}, **HTMX)
    assert SAVED not in kept
    assert (
        "Game over was confirmed at 1–1 after 2 hands, but the table now has 3 hands (3–1): the game is not over yet. "
        "Check the hands, then confirm Game over again." in refusal(kept)
    )
    assert TableResult.objects.get(round=playing, table=2).status == TableResult.Status.PLAYING
    again = client.post(finish, {"game": "1", "key": "m" * 32, "hands": "3", "score": "3–1", **codes}, **HTMX)
    assert again[SAVED] == "1"
    assert TableResult.objects.get(round=playing, table=2).status == TableResult.Status.FINAL


def test_the_game_over_form_carries_the_hands_and_score_it_is_confirmed_at(client, playing):
    client.post(url(playing, "link_hand_add"), {"maker": "N", "tricks": "5", "game": "1", "hand": "1"}, **HTMX)
    page = client.get(url(playing, "link_hands")).content.decode()
    form = re.search(r'<form [^>]*action="[^"]*finish/".*?</form>', page, re.S).group(0)
    assert 'name="hands" value="1"' in form and 'name="score" value="2–0"' in form


def test_a_phone_left_open_into_the_next_game_does_not_carry_the_last_dealer_as_its_first(client, playing, organizer):
    hands_url = url(playing, "link_hands")
    chose = refusal(client.get(hands_url, {"game": "1", "dealer": "W", "since": "x"}, **HTMX))
    assert "deals (W)" in chose  # in its own game, the first dealer tapped is the one offered
    for table in (1, 2):
        desk_enters(playing, table, organizer)
    second = game.round_start(round_=game.round_close(round_=playing))
    # The phone's refresh still asks with game 1's last dealer, W (or, from an older page, with no game at all).
    for query in ({"game": "1", "dealer": "W", "since": "x"}, {"dealer": "W", "since": "x"}):
        page = client.get(hands_url + "?maker=E&" + "&".join(f"{k}={v}" for k, v in query.items()), **HTMX)
        said = refusal(page)
        assert f"game {second.number}" in said and "Hand 1" in said and "deals (N)" in said and "deals (W)" not in said
        assert "Who called trump?" in said  # nor the caller chosen in the game before
        assert 'name="dealer" value="W"' not in page.content.decode()
    tapped = client.get(hands_url, {"game": str(second.number), "dealer": "E", "maker": "S"}, **HTMX)
    form = re.search(r'<form [^>]*action="[^"]*hands/add/".*?</form>', tapped.content.decode(), re.S).group(0)
    assert 'name="dealer" value="E"' in form and f'name="game" value="{second.number}"' in form


def test_a_kept_confirmation_of_a_score_the_desk_replaced_says_what_the_desk_entered(client, playing, organizer):
    from scoring.models import Submission

    entered = {"game": "1", "key": KEY, "ns_points": "5", "ew_points": "3", "code": code_at(playing, 2, "N")}
    assert client.post(url(playing, "link_submit"), entered, **HTMX)[SAVED] == "1"
    draft = Submission.objects.get(round=playing, table=2, status=Submission.Status.DRAFT)
    game.table_result_submit(round_=playing, table=2, ns_points=4, ew_points=8, user=organizer)
    # The E–W player's confirmation, kept on the phone while the Wi-Fi was down, arrives after the desk's entry.
    kept = {"game": "1", "draft": str(draft.number), "code": code_at(playing, 2, "E")}
    confirmed = client.post(url(playing, "link_confirm"), kept, **HTMX)
    assert SAVED not in confirmed
    said = refusal(confirmed)
    assert "The desk entered N–S 4, E–W 8 for this table. This confirmation was not saved." in said
    assert "reload the page" not in said
    result = TableResult.objects.get(round=playing, table=2)
    assert (result.ns_points, result.ew_points) == (4, 8)


def test_after_an_already_entered_refusal_the_next_hand_starts_from_who_called(client, playing):
    add, hands_url = url(playing, "link_hand_add"), url(playing, "link_hands")
    client.post(add, {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)  # from the other phone
    late = client.post(add, {"dealer": "N", "maker": "W", "tricks": "5", "game": "1", "hand": "1"}, **HTMX)
    said = refusal(late)
    assert "Hand 1 was already entered" in said
    assert "Who called trump?" in said and "called (W)" not in said  # W was chosen for hand 1, not for hand 2
    assert 'name="tricks"' not in late.content.decode()
    # A phone's refresh that still carries a caller chosen for hand 1, after the other phone entered it.
    polled = client.get(hands_url, {"game": "1", "hand": "1", "maker": "W", "since": "x"}, **HTMX)
    assert "Who called trump?" in refusal(polled) and 'name="tricks"' not in polled.content.decode()
    chosen = client.get(hands_url, {"game": "1", "hand": "2", "maker": "W"}, **HTMX)
    assert "called (W)" in refusal(chosen)  # chosen for the hand being entered: kept


def test_a_game_over_sent_again_after_its_game_moved_on_is_the_one_already_done(client):
    """From a run of the lossy-relay night: a phone's Game over closed game 1 (every table in), its answer was lost,
    and the phone sent it again from its queue once game 2 was under way. It is game 1's Game over, done: answered
    as saved, never "already sent for another table or game", and game 2 is untouched."""
    night = night_services.night_create(name="Lossy relay", games=3, hands_per_game=1, auto_advance=True)
    register(night, 8)
    first = game.round_start(round_=night_services.night_draw(night=night, seed=2))
    night_services.table_links_ensure(night=night)
    for table in (2, 1):
        client.post(url(first, "link_hand_add", table), {"maker": "N", "tricks": "3", "game": "1", "hand": "1"}, **HTMX)
    codes = {table: {"ns_code": code_at(first, table, "N"), "ew_code": code_at(first, table, "E")} for table in (1, 2)}
    client.post(url(first, "link_finish", 2), {"game": "1", "key": "a" * 32, **codes[2]}, **HTMX)
    over = {"game": "1", "key": KEY, **codes[1]}
    client.post(url(first, "link_finish", 1), over, **HTMX)  # every table in: game 1 closes, game 2 is seated
    assert night.rounds.filter(number=2).exists()
    again = client.post(url(first, "link_finish", 1), over, **HTMX)  # the lost answer's tap, sent again
    assert again[SAVED] == "1" and "another table or game" not in refusal(again)
    second = night.rounds.get(number=2)
    assert not TableResult.objects.filter(round=second).exists()
