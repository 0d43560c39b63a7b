"""Every game to the letter (#35): the six ends of games the rules texts (shared/seeds/000, 001) give and the
program got wrong, each through the pages (the keeper's desk, the hand page, the table's phone) and the backup.
Each test quotes the sentence it follows."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse

from scoring import rules
from scoring.models import Hand, Submission, TableResult
from tests.conftest import code_at, register
from tests.tournament.test_backup_refusals import refused, signed
from tournament import backup, game, services
from tournament.models import Night, Round

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SEEDS = Path("/work/shared/seeds")


def quoted(sentence: str) -> str:
    """A sentence of the rules texts, checked to be there word for word (spacing and quote marks aside)."""
    plain = re.sub(r"[\s“”\"]+", " ", " ".join(path.read_text(encoding="utf-8") for path in SEEDS.glob("*.txt")))
    assert re.sub(r"[\s“”\"]+", " ", sentence) in plain, sentence
    return sentence


def bid_night(scoring: str, players: int = 8, **settings) -> Round:
    """A night on a bid game's preset, to its own target, game 1 under way; no head table's bell unless asked."""
    settings.setdefault("head_table_ends", False)
    night = services.night_create(name="Bid night", auto_advance=False, scoring=scoring, **settings)
    register(night, players)
    return game.round_start(round_=services.night_draw(night=night, seed=3))


def desk(client, round_: Round, table: int, ns: int, ew: int, **more) -> str:
    """Type a table's totals at the keeper's desk; the row the desk shows back."""
    post = {f"t{table}-ns_points": str(ns), f"t{table}-ew_points": str(ew), f"t{table}-key": f"k{ns}{ew}{more}"}
    post.update({f"t{table}-{name}": value for name, value in more.items()})
    save = reverse("scoring:desk_save", args=[round_.night_id, round_.number, table])
    return unescape(client.post(save, post, **HTMX).content.decode())


def bid(makers: str, bid_: int, tricks: int) -> rules.Hand:
    return rules.Hand(makers=makers, maker=makers[0], bid=bid_, tricks=tricks)


def play(round_: Round, table: int, *hands: rules.Hand) -> None:
    for hand in hands:
        game.hand_record(round_=round_, table=table, hand=hand)


# 1. Indiana double deck, both sides past 50 on one hand.
def test_indiana_both_past_50_on_one_hand_the_bidding_team_wins(organizer_client):
    """At 47–48, N bids 3 and takes 9: 50–51, N–S's game."""
    quoted("If both teams get 50 or more points on the same hand, the team that took the bid is the winner.")
    round_ = bid_night("double-deck")
    # N–S bid 12 and take 12 three times (36–0), E–W four times (36–48), N–S bid 11 and take 12: 47–48.
    play(round_, 2, *[bid("NS", 12, 12)] * 3, *[bid("EW", 12, 12)] * 4, bid("NS", 11, 12))
    assert TableResult.objects.get(table=2).score_text.startswith("47–48")
    page = reverse("scoring:hand_add", args=[round_.night_id, 1, 2])
    shown = unescape(organizer_client.post(page, {"maker": "N", "bid": "3", "tricks": "9"}, **HTMX).content.decode())
    assert "N–S reached 50 points" in shown
    result = TableResult.objects.get(table=2)
    assert (result.ns_points, result.ew_points, result.winner, result.tie_break) == (50, 51, "NS", "")
    # Typed at the desk, 50–51 cannot say who took the last bid: the desk asks, and the answer decides.
    asked = desk(organizer_client, round_, 1, 50, 51)
    assert "Both sides are at 50 or more: say which team won the last hand" in asked
    assert not TableResult.objects.filter(table=1).exists()
    desk(organizer_client, round_, 1, 50, 51, last_hand_winner="NS")
    assert TableResult.objects.get(table=1).winner == "NS"


# 2. Totals past the target that no game can stop at.
@pytest.mark.parametrize(
    ("scoring", "table", "head", "ns", "ew", "text"),
    [
        ("double-deck", 2, False, 51, 60, "until one team gets 50 or more points"),
        ("double-deck", 2, False, 61, 61, "until one team gets 50 or more points"),
        ("double-deck-36", 1, True, 36, 47, "Game is won by the first team to score 36 points."),
        ("double-deck-36", 2, False, 39, 44, "Game is won by the first team to score 36 points."),
        ("pfeffer", 2, False, 37, 48, "Game is to 42 points."),
        ("buck", 2, False, 20, 35, "the game is generally played to 25 or more"),
    ],
)
def test_totals_past_the_target_that_no_game_stops_at_are_refused(organizer_client, scoring, table, head, ns, ew, text):
    """A game stops at the hand that takes a side to the target (`text`): 36–47 cannot end a game to 36, since
    E–W gain at most 12 on the last hand and N–S were at 36 already."""
    quoted(text)
    round_ = bid_night(scoring, head_table_ends=head)
    target = rules.PRESET_TARGETS[scoring]
    shown = desk(organizer_client, round_, table, ns, ew, sure="on", last_hand_winner="NS")
    assert f"No game to {target} ends at N–S {ns}, E–W {ew} under these rules" in shown
    assert not TableResult.objects.exists()


@pytest.mark.parametrize(
    ("scoring", "ns", "ew"),
    [
        ("pfeffer", -80, 48),  # E–W reach 42 by the 7th hand: the game stops at −70–42
        ("bid-euchre", -112, 48),  # E–W reach 42 on the 7th hand by setting the bidders
        ("bid-euchre", -104, 56),
        ("midwest-pepper", 42, 44),  # the quickest game that stops here takes 9 hands
        ("midwest-pepper", 43, 43),  # the same, so nothing to ask: refused
    ],
)
def test_the_head_tables_totals_are_one_game_of_its_hands_that_stops_there(organizer_client, scoring, ns, ew):
    """Found by a rules reader's trial: "The lead table plays 8 hands", and a game stops at the hand that takes a
    side to the target; each was checked alone (some 8 hands make these totals; some game stops there), so totals
    that only a game longer than 8 hands stops at were taken at the head table. Now one game of 8 hands or fewer
    must do both."""
    quoted("The lead table plays 8 hands")
    round_ = bid_night(scoring, head_table_ends=True)
    shown = desk(organizer_client, round_, 1, ns, ew, sure="on", last_hand_winner="EW")
    assert "of 8 hands or fewer ends at" in shown or f"No 8 hands make N–S {ns}, E–W {ew}" in shown, shown[-600:]
    assert not TableResult.objects.exists()
    # The same totals at another table, whose game has no such bound, are one game's.
    other = desk(organizer_client, round_, 2, ns, ew, sure="on", last_hand_winner="EW")
    assert TableResult.objects.filter(table=2).exists(), other[-600:]


# 3. Pepper to 42 "on offense", typed.
def test_pepper_on_offense_typed_totals_are_checked_and_asked_about(organizer_client):
    quoted("only when a team meets its contract and, in doing so, reaches 42 is it crowned the winner")
    round_ = bid_night("bid-euchre")
    refused = desk(organizer_client, round_, 2, 57, 57, last_hand_winner="NS")
    assert "No game to 42 ends at N–S 57, E–W 57" in refused
    assert not TableResult.objects.exists()
    # 47–57: E–W cannot have got to 57 on offense with N–S at 47, nor played on to it: N–S reached 42 on offense.
    desk(organizer_client, round_, 2, 47, 57)
    assert TableResult.objects.get(table=2).winner == "NS"
    # 43–47: N–S on offense, or E–W on offense: the totals cannot say, so the desk asks.
    asked = desk(organizer_client, round_, 1, 43, 47)
    assert "42 counts only on offense: say which team won the last hand" in asked
    assert not TableResult.objects.filter(table=1).exists()
    desk(organizer_client, round_, 1, 43, 47, last_hand_winner="NS")
    assert TableResult.objects.get(table=1).winner == "NS"


def test_pepper_on_offense_the_tables_phone_asks_too(client):
    round_ = bid_night("bid-euchre")
    services.table_links_ensure(night=round_.night)
    link = round_.night.table_links.get(table=2, active=True)
    quoted("a team with 41 points cannot play defense and, by winning one trick, get 42 and win")
    post = {"ns_points": "43", "ew_points": "47", "code": code_at(round_, 2, "N"), "key": "p1", "game": "1"}
    shown = unescape(client.post(reverse("scoring:link_submit", args=[link.token]), post, **HTMX).content.decode())
    assert "42 counts only on offense: say which team won the last hand" in shown
    assert not Submission.objects.exists()
    # the page asks again with the code box empty: the player's code is not left on the table's shared phone
    assert 'name="code"' in shown and post["code"] not in shown


# 4. Tables of three at a points target.
def test_a_table_of_three_stops_at_the_nights_target(organizer_client):
    """Winners-stay to 10: a table of three's game stops at the hand that takes a player to 10, so from 9 a loner's
    march of 4 makes 13 at most."""
    quoted("Winners of each game (typically to 10 points) stay at their table")
    quoted("Taking all five tricks here results in four points. Each player keeps their own score.")
    night = services.night_create(name="Threes", auto_advance=False, movement="winners-stay", fill=Night.Fill.THREES)
    assert night.points_target == 10
    register(night, 13)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=4))
    table = max(round_.seatings.values_list("table", flat=True))
    save = reverse("scoring:desk_save", args=[night.pk, 1, table])
    for points in ((14, 0, 0), (30, 0, 0)):
        post = {f"t{table}-{seat}_points": str(value) for seat, value in zip("nes", points, strict=True)}
        post.update({f"t{table}-key": f"k{points[0]}", f"t{table}-sure": "on"})
        shown = unescape(organizer_client.post(save, post, **HTMX).content.decode())
        assert "No game to 10 at a table of three ends at these points" in shown
    assert not TableResult.objects.exists()
    post = {f"t{table}-n_points": "13", f"t{table}-e_points": "4", f"t{table}-s_points": "6", f"t{table}-key": "ok"}
    organizer_client.post(save, post, **HTMX)
    assert TableResult.objects.get(table=table).seat_points == {"N": 13, "E": 4, "S": 6}


def test_a_backup_with_a_table_of_three_past_the_target_is_refused():
    """The same rule for the backup's checks: 14–0–0 after 4 hands on a night to 10 cannot be."""
    night = services.night_create(name="Threes", auto_advance=False, movement="winners-stay", fill=Night.Fill.THREES)
    register(night, 13)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=4))
    table = max(round_.seatings.values_list("table", flat=True))
    game.table_result_submit(round_=round_, table=table, seat_points={"N": 9, "E": 0, "S": 0}, hands_played=4)
    data = json.loads(backup.night_backup_bytes(Night.objects.get(pk=night.pk)))
    Night.objects.filter(pk=night.pk).delete()
    result = next(r for r in data["rounds"][0]["results"] if r["seat_points"] is not None)
    result["seat_points"]["N"] = 14
    assert "No game to 10 at a table of three ends at these points" in refused(signed(data), "No game to 10")


# 5. Pfeffer, a tie at 42.
def test_pfeffer_a_tie_at_42_goes_to_the_bidding_team(organizer_client):
    """On a night whose ties are drawn, the tie at 42 is the bidding team's, not the draw's."""
    quoted("Game is to 42 points. In cases of a tie at 42, the bidding team wins.")
    round_ = bid_night("pfeffer", tie_rule="draw")
    # E–W bid 4 and take 4 seven times, N–S six times: 38–40; then N–S bid 4 and take 4: 42–42.
    play(round_, 2, *[bid("EW", 4, 4)] * 7, *[bid("NS", 4, 4)] * 6)
    assert TableResult.objects.get(table=2).score_text.startswith("38–40")
    page = reverse("scoring:hand_add", args=[round_.night_id, 1, 2])
    organizer_client.post(page, {"maker": "N", "bid": "4", "tricks": "4"}, **HTMX)
    result = TableResult.objects.get(table=2)
    assert (result.ns_points, result.ew_points, result.winner, result.tie_break) == (42, 42, "NS", "")
    # Typed, 42–42 asks who took the last bid, whatever the night's tie rule.
    asked = desk(organizer_client, round_, 1, 42, 42)
    assert "Both sides are at 42 or more: say which team won the last hand" in asked
    desk(organizer_client, round_, 1, 42, 42, last_hand_winner="EW")
    assert (TableResult.objects.get(table=1).winner, TableResult.objects.get(table=1).tie_break) == ("EW", "")


# 6. Midwest Pepper, a passed hand with a renege.
def test_midwest_pepper_refuses_a_passed_hand_with_a_renege(organizer_client):
    """A hand the opponents passed was not played, so nobody reneged in it."""
    quoted("if opponents pass and don't play the hand, no points are awarded to them and bidder scores")
    round_ = bid_night("midwest-pepper")
    page = reverse("scoring:hand_add", args=[round_.night_id, 1, 2])
    post = {"maker": "E", "bid": "5", "passed": "1", "renege": "NS"}
    shown = unescape(organizer_client.post(page, post, **HTMX).content.decode())
    assert "A hand the opponents passed was not played: it has no renege." in shown
    assert not Hand.objects.exists()
