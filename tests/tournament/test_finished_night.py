"""A night that is over never changes (#34: "a past night is history"). Through the pages, as the organizer sends
them: once the last game is closed, its prizes and their money, its prices and currency, a player's price and the
door's cash are refused beside the field, nothing is written and every sheet prints as before; what is handed out
after the last game (a side pot's line, a draw) is still recorded, and the name, venue and paper still change."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from scoring.models import Hand, TableLink, TableResult
from tests.rehearsed import rehearsed
from tournament.models import Draw, Night, Payment, PotLine
from tournament.rehearsal import simulate

from .test_night_form import sent

pytestmark = pytest.mark.django_db

FUNDRAISER = {
    **{"currency": "USD", "pre": 2000, "door": 2500, "member": None, "house_share": 10},
    "payouts": "high 40%, second 20%, low $5",
    "methods": ("cash", "card"),
}
SHEETS = ("prize_sheet_pdf", "reconciliation_pdf", "money_csv", "standings_csv")
OVER = "The night is over:"


@pytest.fixture
def over(db) -> Night:
    night = rehearsed(players=8, rounds=2, seed=3, money=FUNDRAISER)
    assert night.status == Night.Status.FINISHED
    return night


def sheets(client, night: Night) -> dict[str, bytes]:
    return {name: client.get(reverse(f"tournament:{name}", args=[night.pk])).content for name in SHEETS}


def said(response) -> str:
    assert response.status_code == 200  # the page again, with the refusal: never a server error, never saved
    return html.unescape(response.content.decode())


def settings_post(client, night: Night, **typed: str):
    url = reverse("tournament:night_settings", args=[night.pk])
    return client.post(url, sent(client.get(url).context["form"], **typed))


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ({"prizes": "high 60%, low 40%"}, "its prizes and their money no longer change"),
        ({"prizes": "high 40%, second 20%, low $5, loners $5"}, "its prizes and their money no longer change"),
        ({"price": "30"}, "its prices no longer change"),
        ({"currency": "EUR"}, "its currency no longer changes"),
        ({"prize_rules": "high: members"}, "its settings no longer change"),
        ({"one_prize_each": ""}, "its settings no longer change"),
    ],
)
def test_the_settings_of_a_night_that_is_over_are_refused_beside_the_field(organizer_client, over, typed, words):
    before = sheets(organizer_client, over)
    text = (over.prizes_text, over.payouts, over.price_pre, over.currency, over.prize_rules, over.one_prize_each)
    page = said(settings_post(organizer_client, over, **typed))
    assert OVER in page and words in page
    over.refresh_from_db()
    assert (
        over.prizes_text,
        over.payouts,
        over.price_pre,
        over.currency,
        over.prize_rules,
        over.one_prize_each,
    ) == text
    assert sheets(organizer_client, over) == before


def test_the_name_venue_and_paper_of_a_night_that_is_over_may_still_be_put_right(organizer_client, over):
    answer = settings_post(organizer_client, over, name="Spring fundraiser", venue="St Mary's hall", paper="a4")
    assert answer.status_code == 302
    over.refresh_from_db()
    assert (over.name, over.venue, over.paper) == ("Spring fundraiser", "St Mary's hall", "a4")


def test_the_money_of_a_night_that_is_over_is_refused_on_the_money_page(organizer_client, over):
    before = sheets(organizer_client, over)
    payments = list(Payment.objects.filter(night=over).values_list("pk", "cents"))
    entry = over.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    prices = reverse("tournament:money_settings", args=[over.pk])
    page = said(organizer_client.post(prices, {"currency": "USD", "pre": "15", "door": "20", "house_share": "0"}))
    assert f"{OVER} its prices, currency and prize money no longer change" in page
    kind = reverse("tournament:money_kind", args=[over.pk, entry.pk])
    assert f"{OVER} the prices its players paid no longer change" in said(organizer_client.post(kind, {"kind": "door"}))
    refund = reverse("tournament:money_refund", args=[over.pk, entry.pk])
    page = said(
        organizer_client.post(
            refund,
            {
                f"r{entry.pk}-cents": "5",
                f"r{entry.pk}-method": entry.payments.get().method,
                f"r{entry.pk}-reason": "left",
            },
        )
    )
    assert f"{OVER} its cash is counted (the prize pot is a share of it)" in page
    over.refresh_from_db()
    entry.refresh_from_db()
    assert (over.price_pre, over.price_door, over.house_share, entry.price_kind) == (2000, 2500, 10, "pre")
    assert list(Payment.objects.filter(night=over).values_list("pk", "cents")) == payments
    assert sheets(organizer_client, over) == before


def test_what_is_handed_out_after_the_last_game_is_still_recorded(organizer_client, over):
    """The 50/50 paid and the door prize drawn at the end: new lines of their own, the prizes' money untouched."""
    prize_sheet = organizer_client.get(reverse("tournament:prize_sheet_pdf", args=[over.pk])).content
    pots = reverse("tournament:pot_add", args=[over.pk])
    assert organizer_client.post(pots, {"pot": "50/50", "kind": "in", "cents": "40"}).status_code == 302
    assert (
        organizer_client.post(pots, {"pot": "50/50", "kind": "paid", "cents": "20", "reason": "ticket 7"}).status_code
        == 302
    )
    draw = reverse("tournament:draw_make", args=[over.pk])
    assert organizer_client.post(draw, {"title": "Door prize", "count": "1", "pool_kind": "players"}).status_code == 302
    assert PotLine.objects.filter(night=over).count() == 2 and Draw.objects.filter(night=over).count() == 1
    assert organizer_client.get(reverse("tournament:prize_sheet_pdf", args=[over.pk])).content == prize_sheet


def test_a_late_arrival_who_still_owes_cannot_be_taken_in_once_the_night_is_over(organizer_client):
    """Four players came for game 2 and never paid: once the night is over the box is counted, the pot with it."""
    night = simulate(players=8, rounds=2, seed=3, arrive={2: 4}, money=FUNDRAISER)
    late = next(entry for entry in night.entries.filter(player__house=False) if not entry.payments.exists())
    before = sheets(organizer_client, night)
    take = reverse("tournament:money_take", args=[night.pk, late.pk])
    page = said(organizer_client.post(take, {"method": "cash"}))
    assert f"{OVER} its cash is counted (the prize pot is a share of it)" in page
    assert not late.payments.exists()
    assert sheets(organizer_client, night) == before


def test_who_played_and_with_whom_stay_as_they_were(organizer_client, over):
    """The roster, the substitutes and the wishes of a night that is over: refused by the same rule. (The night page
    of a night that is over offers no roster buttons; a post sent anyway changes nothing and is no server error.)"""
    entry = over.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    said(organizer_client.post(reverse("tournament:entry_active", args=[over.pk, entry.pk]), {"active": "0"}))
    said(
        organizer_client.post(
            reverse("tournament:entry_substitute", args=[over.pk]), {"leaving": entry.pk, "name": "Late Sub"}
        )
    )
    wishes = reverse("tournament:wishes", args=[over.pk])
    refused = said(organizer_client.post(wishes, {"partner_groups": "", "never": "", "always": ""}))
    assert f"{OVER} its seating and partner wishes no longer change" in refused
    entry.refresh_from_db()
    assert entry.active and not over.entries.filter(name="Late Sub").exists()


# ---- its scores: the one rule in `tournament.game` for every page that writes a score or a hand --------------------

HTMX = {"HTTP_HX_REQUEST": "true"}
SCORES_OVER = f"{OVER} its scores no longer change"


@pytest.fixture
def totals_over(db) -> Night:
    """Played at the desk from paper slips (totals), one game, money taken: the bell rung, the night is over."""
    night = rehearsed(players=8, rounds=1, seed=3, entry="totals", money=FUNDRAISER)
    assert night.status == Night.Status.FINISHED
    return night


def scores_of(night: Night) -> list[tuple]:
    return list(
        TableResult.objects.filter(round__night=night)
        .order_by("round__number", "table")
        .values_list("table", "ns_points", "ew_points", "version", "status")
    )


def hands_of(night: Night) -> int:
    return Hand.objects.filter(result__round__night=night).count()


@pytest.mark.parametrize("htmx", [True, False], ids=["desk", "desk-without-script"])
def test_a_correction_at_the_desk_after_the_night_is_over_is_refused_beside_the_form(
    organizer_client, totals_over, htmx
):
    """The desk page was open when the bell ended the night: Correct on table 1, with a reason, is refused."""
    before, printed = scores_of(totals_over), sheets(organizer_client, totals_over)
    result = TableResult.objects.get(round__night=totals_over, table=1)
    typed = {
        "t1-ns_points": str(result.ew_points),
        "t1-ew_points": str(result.ns_points),
        "t1-reason": "after the night",
        "t1-key": "k-after-the-night",
        "t1-version": str(result.version),
    }
    save = reverse("scoring:desk_save", args=[totals_over.pk, 1, 1])
    page = said(organizer_client.post(save, typed, **(HTMX if htmx else {})))
    assert SCORES_OVER in page and 'value="after the night"' in page  # beside the form, as typed
    assert scores_of(totals_over) == before and sheets(organizer_client, totals_over) == printed


def test_the_desk_of_a_night_that_is_over_offers_no_correction_and_says_why(organizer_client, totals_over):
    page = said(organizer_client.get(reverse("scoring:keeper_desk", args=[totals_over.pk]) + "?game=1"))
    assert f"{SCORES_OVER}." in page
    assert 'id="desk-1-save"' not in page and "Correct" not in page and "why the change" not in page


@pytest.mark.parametrize("htmx", [True, False], ids=["page", "page-without-script"])
def test_a_score_from_the_night_page_after_the_night_is_over_is_refused(organizer_client, totals_over, htmx):
    before = scores_of(totals_over)
    result = TableResult.objects.get(round__night=totals_over, table=2)
    url = reverse("scoring:table_score", args=[totals_over.pk, 1, 2])
    typed = {"t2-ns_points": "3", "t2-ew_points": "10", "t2-version": str(result.version)}
    page = said(organizer_client.post(url, typed, **(HTMX if htmx else {})))
    assert SCORES_OVER in page and 'value="10"' in page
    assert scores_of(totals_over) == before


def test_the_table_phone_changes_nothing_once_the_night_is_over(client, over):
    """A phone still on the last game's page: a hand, an undo, a "Game over", a score typed and its confirmation."""
    before, hands = scores_of(over), hands_of(over)
    link = TableLink.objects.get(night=over, table=1, active=True)
    last = over.rounds.order_by("-number").first()
    assert last is not None
    drawn = {"game": str(last.number)}
    posts = [
        ("link_hand_add", {**drawn, "dealer": "N", "maker": "E", "tricks": "3"}),
        ("link_hand_undo", drawn),
        ("link_finish", {**drawn, "ns_code": "1234", "ew_code": "5678"}),
        ("link_submit", {**drawn, "ns_points": "10", "ew_points": "2", "code": "1234", "key": "k-after-the-night"}),
        ("link_confirm", {**drawn, "draft": "1", "code": "1234"}),
    ]
    for name, data in posts:
        page = said(client.post(reverse(f"scoring:{name}", args=[link.token]), data, **HTMX))
        assert SCORES_OVER in page, name
    assert scores_of(over) == before and hands_of(over) == hands


def test_the_keepers_hand_pages_change_nothing_once_the_night_is_over(organizer_client, over):
    before, hands = scores_of(over), hands_of(over)
    last = over.rounds.order_by("-number").first()
    assert last is not None
    for name, data in [
        ("hand_add", {"dealer": "N", "maker": "E", "tricks": "3"}),
        ("hand_undo", {}),
        ("table_finish", {}),
    ]:
        page = said(organizer_client.post(reverse(f"scoring:{name}", args=[over.pk, last.number, 1]), data, **HTMX))
        assert SCORES_OVER in page, name
    assert scores_of(over) == before and hands_of(over) == hands


# ---- the roster, from a night page opened before the last game closed ------------------------------------------------

ROSTER_OVER = f"{OVER} who played in it no longer changes"


def roster_of(night: Night) -> list[tuple]:
    return list(night.entries.order_by("pk").values_list("name", "active", "checked_in"))


@pytest.mark.parametrize("htmx", [True, False], ids=["page", "page-without-script"])
@pytest.mark.parametrize(
    ("url", "typed", "target", "kept"),
    [
        ("player_add", {"name": "Late Lou", "checked_in": "on"}, "roster", 'value="Late Lou"'),
        ("player_add", {"name": "Early Eve"}, "players", 'value="Early Eve"'),  # the form before the draw
        ("player_paste", {"names": "Pat Paste\nQuinn Paste"}, "players", ">\nPat Paste\nQuinn Paste</textarea>"),
    ],
)
def test_a_player_added_after_the_night_is_over_is_refused_in_words_and_the_name_kept(
    organizer_client, over, url, typed, target, kept, htmx
):
    before = roster_of(over)
    headers = {**HTMX, "HTTP_HX_TARGET": target} if htmx else {}
    page = said(organizer_client.post(reverse(f"tournament:{url}", args=[over.pk]), typed, **headers))
    assert f"{OVER} no more players can join" in page and kept in page  # the refusal, and what was typed, kept
    assert roster_of(over) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["page", "page-without-script"])
@pytest.mark.parametrize(
    ("url", "typed", "target"),
    [
        ("entry_check_in", {"checked_in": "0"}, "players"),
        ("entry_remove", {}, "players"),
        ("entry_active", {"active": "0"}, "roster"),
    ],
)
def test_a_roster_button_pressed_after_the_night_is_over_says_why_nothing_changed(
    organizer_client, over, url, typed, target, htmx
):
    before = roster_of(over)
    entry = over.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    headers = {**HTMX, "HTTP_HX_TARGET": target} if htmx else {}
    page = said(organizer_client.post(reverse(f"tournament:{url}", args=[over.pk, entry.pk]), typed, **headers))
    assert ROSTER_OVER in page
    assert roster_of(over) == before


@pytest.mark.parametrize("htmx", [True, False], ids=["page", "page-without-script"])
def test_a_substitute_after_the_night_is_over_is_refused_beside_the_form_with_the_name_kept(
    organizer_client, over, htmx
):
    before = roster_of(over)
    entry = over.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    headers = {**HTMX, "HTTP_HX_TARGET": "roster"} if htmx else {}
    url = reverse("tournament:entry_substitute", args=[over.pk])
    page = said(organizer_client.post(url, {"leaving": entry.pk, "name": "Sub Sam"}, **headers))
    assert ROSTER_OVER in page and 'value="Sub Sam"' in page
    assert roster_of(over) == before


# ---- the public pages of a night that is over say so --------------------------------------------------------------


def test_the_door_and_sign_up_of_a_night_that_is_over_say_so_and_point_to_the_standings(client, over):
    Night.objects.filter(pk=over.pk).update(signup_open=True, checkin_open=True)
    standings = reverse("tournament:public_night", args=[over.pk])
    door = said(client.get(reverse("tournament:door", args=[over.pk])))
    assert "The night is over: check-in is closed." in door and f'href="{standings}"' in door
    assert "The seating is drawn" not in door
    signup = said(client.get(reverse("tournament:signup", args=[over.pk])))
    assert "The night is over: sign-up is closed." in signup and f'href="{standings}"' in signup
    assert "Ask at the door" not in signup
    entry = over.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    checked = said(client.post(reverse("tournament:door", args=[over.pk]), {"entry": entry.pk}))
    assert "The night is over" in checked and "The seating is drawn" not in checked


@pytest.mark.parametrize("games", [1, 2])
def test_a_players_page_of_a_night_that_is_over_says_the_night_is_over(client, games):
    night = simulate(players=8, rounds=games, seed=3, money=FUNDRAISER)
    entry = night.entries.filter(player__house=False).order_by("card").first()
    assert entry is not None
    page = said(client.get(reverse("tournament:player_page", args=[night.pk, entry.player_id])))
    assert "The night is over:" in page and "The game is played." not in page
    assert reverse("tournament:public_night", args=[night.pk]) in page  # the standings, a tap away


def test_the_money_page_of_a_night_that_is_over_offers_no_change_it_would_refuse_and_says_why(organizer_client):
    """Four late arrivals still owe: while the night runs the page offers their payment, a price kind for everyone,
    refunds and the prizes' change; once it is over, none of them, and one line says why."""
    night = simulate(players=8, rounds=2, seed=3, arrive={2: 4}, money=FUNDRAISER)
    url = reverse("tournament:money", args=[night.pk])
    forms = ('/kind/"', '/take/"', '/refund/"', "Change the prizes", "Save the prices")

    def offered(page: str) -> list[str]:
        return [words for words in forms if words in page]

    Night.objects.filter(pk=night.pk).update(status=Night.Status.PLAYING)  # as it was before the bell
    assert offered(said(organizer_client.get(url))) == list(forms)
    Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
    page = said(organizer_client.get(url))
    assert offered(page) == []
    assert "The night is over: the money is as it was at the end; corrections go on the signed sheet." in page
    assert reverse("tournament:pot_add", args=[night.pk]) in page  # a side pot's line is still recorded


def test_the_scoring_rules_of_a_night_that_is_over_are_refused_and_no_hand_is_rescored(organizer_client, over):
    """New rules would rescore every hand of the night, and with them its standings and prizes: refused beside the
    rules, and the hands, the sheets and the rules stay as they were (a trial of #34 found them rescored)."""
    url = reverse("scoring:night_rules", args=[over.pk])
    form = organizer_client.get(url).context["form"]
    before = sheets(organizer_client, over)
    points = sorted(Hand.objects.filter(result__round__night=over).values_list("pk", "ns_points", "ew_points"))
    typed = {**{name: value for name, value in form.initial.items() if value is not None}}
    typed.update({"scoring": "loner-bonus", "confirm": "on"})
    typed = {name: ("on" if value is True else value) for name, value in typed.items() if value is not False}
    shown = said(organizer_client.post(url, typed))
    assert "The night is over: its scoring rules no longer change." in shown
    over.refresh_from_db()
    assert over.scoring != "loner-bonus"
    assert sorted(Hand.objects.filter(result__round__night=over).values_list("pk", "ns_points", "ew_points")) == points
    assert sheets(organizer_client, over) == before
