"""A restore checks what a backup means, not only its form (#34, item 10).

Each case is the organizer's own path: a real night made through the pages, its backup downloaded, the file edited
and its checksum recomputed as a person would, then sent to the restore page. A file whose payouts, currency, draws
or carried jackpots the night could not have had is refused with the reason and nothing is kept; a file edited in
ways the night could have had restores, and its public pages, room display and Money page all answer.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import html
import json
import re
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament import seasons, services
from tournament.engine.draws import pick
from tournament.models import Draw, Night, Player, PotLine
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db

FUNDRAISER = {
    **{"currency": "USD", "pre": 2000, "door": 2500, "member": None, "house_share": 10},
    "payouts": "high 40%, second 20%, low $5",
    "methods": ("cash", "card"),
}
_FILES: dict[str, str] = {}  # each night played and backed up once a test run, kept as the file's text


def download(client, night: Night) -> dict:
    response = client.get(reverse("tournament:night_backup", args=[night.pk]))
    assert response.status_code == 200
    return json.loads(response.content)


def resigned(data: dict) -> bytes:
    """The edited file with its checksum recomputed the way anyone can: SHA-256 of the content without it, its
    keys sorted, written compactly."""
    payload = {key: value for key, value in data.items() if key != "checksum"}
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return json.dumps({**payload, "checksum": hashlib.sha256(text.encode()).hexdigest()}, indent=1).encode()


def restore(client, data: dict):
    upload = SimpleUploadedFile("backup.json", resigned(data), content_type="application/json")
    return client.post(reverse("tournament:night_restore"), {"file": upload})


def fundraiser_file(client) -> dict:
    """A fundraiser of 12 with a prize tied after two games, its door prize, 50/50 and the tie drawn on the Money
    page, a 50/50 pot: downloaded, then the night deleted (the file restores into an installation without it)."""
    if "fundraiser" not in _FILES:
        for seed in range(1, 40):
            night = simulate(players=12, rounds=2, seed=seed, money=FUNDRAISER)
            if any(award.tie and len(award.player_ids) == 2 for award in night_standings(night).awards):
                break
        tied = next(award for award in night_standings(night).awards if award.tie and len(award.player_ids) == 2)
        make = reverse("tournament:draw_make", args=[night.pk])
        client.post(make, {"title": "Door prize", "count": "2", "pool_kind": "players"})
        client.post(make, {"title": "50/50", "count": "1", "pool_kind": "tickets", "tickets": "40"})
        client.post(make, {"title": f"Tie for {tied.prize}", "count": "1", "pool_kind": "tie", "prize": tied.key})
        pots = reverse("tournament:pot_add", args=[night.pk])
        client.post(pots, {"pot": "50/50", "kind": "in", "cents": "40"})
        client.post(pots, {"pot": "50/50", "kind": "paid", "cents": "20", "reason": "ticket 7"})
        assert night.draws.count() == 3 and night.pot_lines.count() == 2
        _FILES["fundraiser"] = json.dumps(download(client, night))
    Night.objects.all().delete()
    Player.objects.all().delete()
    return json.loads(_FILES["fundraiser"])


def refused(client, data: dict, *words: str) -> None:
    """The restore page refuses the file with `words` beside the file field, and keeps nothing."""
    counts = (Night.objects.count(), Player.objects.count(), PotLine.objects.count(), Draw.objects.count())
    response = restore(client, data)
    assert response.status_code == 200
    page = response.content.decode()
    said = [html.unescape(text) for text in re.findall(r"[^>]*Nothing was restored[^<]*", page)]
    assert all(each in said[0] for each in words), said
    assert (Night.objects.count(), Player.objects.count(), PotLine.objects.count(), Draw.objects.count()) == counts


def restored(client, data: dict) -> Night:
    response = restore(client, data)
    assert response.status_code == 302, re.findall(r"[^>]*Nothing was restored[^<]*", response.content.decode())
    return Night.objects.get(uid=data["night"]["uid"])


def tie_draw(data: dict) -> dict:
    return next(draw for draw in data["draws"] if draw["pool_kind"] == "tie")


def seed_for(pool: list[int], winner: int) -> str:
    """A seed searched, as someone forging a draw would, so that `pool` gives `winner`."""
    return next(seed for seed in (f"{n:016x}" for n in range(10_000)) if pick(seed, pool, 1) == [winner])


# ---- payouts and currency ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        (
            "payouts",
            "high 90%, low 90%",
            "The shares of the pot add up to more than 100%: they come to 180%, 80% too many.",
        ),
        ("payouts", "high NaN", "“payouts”: “high”: “NaN” is not a number: type an amount like 20 or 20.50."),
        ("payouts", "high 40%, champion 10%", "“payouts” pays “champion”, which is not one of the night's prizes"),
        ("payouts", "high:nobody 10%", "“payouts” pays “high:nobody”, which is not one of the night's prizes"),
        ("currency", "€€€", "A currency is three letters: USD, CAD, GBP, EUR…"),
        ("currency", "usd", '“currency” is "usd": a night keeps three capital letters'),
    ],
)
def test_money_settings_the_night_could_not_have_are_refused(organizer_client, field, value, words):
    data = fundraiser_file(organizer_client)
    data["night"][field] = value
    refused(organizer_client, data, words)
    data["night"][field] = FUNDRAISER["payouts"] if field == "payouts" else "USD"
    assert restored(organizer_client, data).payouts == FUNDRAISER["payouts"]  # the file itself restores


def test_an_older_backup_with_money_for_a_prize_it_did_not_award_restores_as_it_was(organizer_client):
    """Before version 3 a night could keep money for a prize it did not award (left unpaid): such a file restores."""
    data = fundraiser_file(organizer_client)
    data["version"] = 2
    data["night"]["payouts"] = "high 40%, champion 10%"
    night = restored(organizer_client, data)
    assert night.payouts == "high 40%, champion 10%" and "champion" not in night.prize_keys
    assert organizer_client.get(reverse("tournament:money", args=[night.pk])).status_code == 200


# ---- draws --------------------------------------------------------------------------------------------------------


def test_a_tie_draw_with_a_player_who_was_not_level_added_is_refused(organizer_client):
    """Someone adds a player who was not level to a tie's pool and searches a seed so that player wins: the draw
    replays, yet it is not a draw the Money page could have made. Today's standings would take the prize from the
    one drawn and share it again."""
    data = fundraiser_file(organizer_client)
    draw = tie_draw(data)
    level = draw["pool"]
    outsider = next(row["card"] for row in data["players"] if row["card"] not in level)
    draw["pool"] = sorted([*level, outsider])
    draw["seed"] = seed_for(draw["pool"], outsider)
    draw["winners"] = [outsider]
    cards = ", ".join(map(str, draw["pool"]))
    was = ", ".join(map(str, level))
    refused(
        organizer_client, data, f"Draw 3: it draws between cards {cards}, yet cards {was} were level", "after game 2"
    )


def test_a_second_draw_for_a_settled_tie_with_a_searched_seed_is_refused(organizer_client):
    """Someone adds a draw again for the tie already drawn, with a seed searched so the other player wins: the
    latest draw would move the prize. When it was 'drawn' the prize was no longer tied."""
    data = fundraiser_file(organizer_client)
    first = tie_draw(data)
    other = next(card for card in first["pool"] if card != first["winners"][0])
    later = dt.datetime.fromisoformat(first["at"]) + dt.timedelta(minutes=1)
    again = {**first, "number": 4, "seed": seed_for(first["pool"], other), "winners": [other], "at": later.isoformat()}
    data["draws"].append(again)
    refused(organizer_client, data, "Draw 4: it draws between cards", "yet nobody was level for")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["draws"][1].update(pool=[1, 99_999_999]), "draws from tickets 1 to N"),
        (lambda d: d["draws"][0].update(pool=[*d["draws"][0]["pool"], 999]), "its “pool” holds card 999"),
        (lambda d: d["draws"][0].update(pool=d["draws"][0]["pool"][::-1]), "each number once, in order"),
        (lambda d: d["draws"][0].update(prize="high"), "only a tie's draw settles a prize"),
        (lambda d: tie_draw(d).update(prize="champion"), "which is not one of the night's prizes"),
        (lambda d: d["draws"][0].update(title="   "), "“title” says what the draw is for"),
    ],
)
def test_a_draw_from_a_pool_the_page_could_not_draw_from_is_refused(organizer_client, change, words):
    data = fundraiser_file(organizer_client)
    change(data)
    for draw in data["draws"]:  # a seed searched so each draw replays: only its pool or its prize is wrong
        if draw["pool"]:
            draw["winners"] = pick(draw["seed"], draw["pool"], len(draw["winners"]))
    refused(organizer_client, data, words)


def test_a_real_tie_draw_restores_and_still_settles_its_prize(organizer_client):
    data = fundraiser_file(organizer_client)
    night = restored(organizer_client, data)
    draw = tie_draw(data)
    award = {award.key: award for award in night_standings(night).awards}[draw["prize"]]
    card_of = dict(night.entries.values_list("player_id", "card"))
    assert [card_of[player] for player in award.player_ids] == draw["winners"] and not award.tie


# ---- a carried jackpot -------------------------------------------------------------------------------------------


def carry_files(client) -> tuple[dict, dict]:
    """November carries $250 of its jackpot over; December, in the same season, takes it in from the Money page.
    Both backed up from the pages, then deleted."""
    if "carry" not in _FILES:
        season = seasons.season_create(name="Winter league")
        first = services.night_create(name="November night", date=dt.date(2026, 11, 3))
        second = services.night_create(name="December night", date=dt.date(2026, 12, 1))
        seasons.season_nights_add(season=season, night_ids=[first.pk, second.pk])
        pots = reverse("tournament:pot_add", args=[first.pk])
        assert client.post(pots, {"pot": "Jackpot", "kind": "in", "cents": "300"}).status_code == 302
        assert client.post(pots, {"pot": "Jackpot", "kind": "paid", "cents": "50", "reason": "Ann"}).status_code == 302
        assert client.post(pots, {"pot": "Jackpot", "kind": "carried", "cents": "250"}).status_code == 302
        carry = first.pot_lines.get(kind="carried")
        assert client.post(reverse("tournament:pot_take", args=[second.pk]), {"line": carry.pk}).status_code == 302
        assert second.pot_lines.get().carried_from == carry
        _FILES["carry"] = json.dumps([download(client, first), download(client, second)])
    Night.objects.all().delete()
    return tuple(json.loads(_FILES["carry"]))  # type: ignore[return-value]


def in_one_season(*nights: Night) -> None:
    season = seasons.season_create(name=f"Season {timezone.now():%H%M%S%f}")
    seasons.season_nights_add(season=season, night_ids=[night.pk for night in nights])


def assert_taken_once(client, november: Night, december: Night) -> None:
    """The carry is December's, and nobody can take it in again: not December, not a later night."""
    january = services.night_create(name="January night", date=dt.date(2027, 1, 5))
    in_one_season(november, december, january)
    carry = november.pot_lines.get(kind="carried")
    assert december.pot_lines.get().carried_from == carry
    assert PotLine.waiting_for(december) == [] and PotLine.waiting_for(january) == []
    for night in (december, january):
        page = client.get(reverse("tournament:money", args=[night.pk])).content.decode()
        assert reverse("tournament:pot_take", args=[night.pk]) not in page  # no carry offered
        again = client.post(reverse("tournament:pot_take", args=[night.pk]), {"line": carry.pk}).content.decode()
        assert "That money is not waiting for this night" in again
    assert PotLine.objects.filter(kind="in", pot="Jackpot", cents=25_000).count() == 1


@pytest.mark.parametrize("order", ["carrier first", "taker first"])
def test_a_carried_jackpot_restored_with_the_night_that_took_it_in_is_taken_in_once(organizer_client, order):
    november, december = carry_files(organizer_client)
    assert december["pot_lines"][0]["took_in"] == {"night": november["night"]["uid"], "line": 3}
    files = [november, december] if order == "carrier first" else [december, november]
    for data in files:
        restored(organizer_client, data)
    first, second = (Night.objects.get(uid=data["night"]["uid"]) for data in (november, december))
    assert_taken_once(organizer_client, first, second)
    assert download(organizer_client, second) == december  # the restored night backs up to the same file


@pytest.mark.parametrize("order", ["carrier first", "taker first"])
def test_an_older_backup_that_names_no_carry_is_read_from_its_line_s_words(organizer_client, order):
    november, december = carry_files(organizer_client)
    del december["pot_lines"][0]["took_in"]  # as files were written before a line named its carry (version 2)
    december["version"] = 2
    files = [november, december] if order == "carrier first" else [december, november]
    for data in files:
        restored(organizer_client, data)
    first, second = (Night.objects.get(uid=data["night"]["uid"]) for data in (november, december))
    assert_taken_once(organizer_client, first, second)


def test_the_carrying_night_deleted_and_restored_finds_its_carry_taken_in(organizer_client):
    """The line that took the carry in keeps its name when the carrying night is deleted, so restoring that night
    does not offer the carry again."""
    november, december = carry_files(organizer_client)
    for data in (november, december):
        restored(organizer_client, data)
    Night.objects.filter(uid=november["night"]["uid"]).delete()
    second = Night.objects.get(uid=december["night"]["uid"])
    assert second.pot_lines.get().carried_from is None
    first = restored(organizer_client, november)
    assert_taken_once(organizer_client, first, second)


def test_a_carry_taken_in_twice_is_refused(organizer_client):
    november, december = carry_files(organizer_client)
    twice = copy.deepcopy(december)
    later = dt.datetime.fromisoformat(twice["pot_lines"][0]["at"]) + dt.timedelta(minutes=1)
    twice["pot_lines"].append({**twice["pot_lines"][0], "at": later.isoformat()})
    refused(organizer_client, twice, "Pot line 2: it takes in the carry pot line 1 took in: a carry is taken in once.")
    restored(organizer_client, november)
    restored(organizer_client, december)
    another = copy.deepcopy(december)  # another night's file that says it took the same carry in
    another["night"].update(uid="6f0c3c1e-0b7e-4d55-9a57-1a2b3c4d5e6f", name="Also December")
    refused(organizer_client, another, "Pot line 1: that carry was taken in already, by December night (2026-12-01).")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["pot_lines"][0]["took_in"].update(line=1), "it takes in line 1 of November night (2026-11-03)"),
        (lambda d: d["pot_lines"][0].update(cents=20_000), "a carry is taken in whole, into its own pot"),
        (lambda d: d["night"].update(date="2026-10-01"), "a later night: a carry goes to a later night"),
        (lambda d: d["pot_lines"][0]["took_in"].update(night=d["night"]["uid"]), "a carry of its own night"),
    ],
)
def test_a_line_that_names_a_carry_it_could_not_have_taken_is_refused(organizer_client, change, words):
    november, december = carry_files(organizer_client)
    restored(organizer_client, november)
    change(december)
    refused(organizer_client, december, words)


# ---- what restores shows ----------------------------------------------------------------------------------------


def now(data: dict) -> None:
    """The draws made a moment ago, so the room display shows the latest."""
    for draw in data["draws"]:
        draw["at"] = timezone.now().isoformat()


def with_pots(data: dict) -> None:
    data["pot_lines"] += [
        {
            "pot": "<b>Bump</b> & “cup”",
            "kind": "in",
            "cents": 1,
            "reason": "",
            "by": None,
            "at": data["pot_lines"][-1]["at"],
        },
        {
            "pot": "<b>Bump</b> & “cup”",
            "kind": "carried",
            "cents": 1,
            "reason": "",
            "by": None,
            "at": data["pot_lines"][-1]["at"],
        },
    ]


EDITS: dict[str, Callable[[dict], None]] = {
    "payouts at 100% and a fixed prize far above the pot": lambda d: d["night"].update(payouts="high 100%, low $10000"),
    "no prize money": lambda d: d["night"].update(payouts=""),
    "a euro night": lambda d: d["night"].update(currency="EUR"),
    "a currency without a symbol": lambda d: d["night"].update(currency="CHF"),
    "the largest prices": lambda d: d["night"].update(price_pre=2_147_483_647, price_door=2_147_483_647),
    "a member's price of nothing": lambda d: d["night"].update(price_member=0),
    "the house keeps it all": lambda d: d["night"].update(house_share=100),
    "everyone a member": lambda d: [row.update(price_kind="member") for row in d["players"]],
    "the venue and the name in markup": lambda d: d["night"].update(name="<i>Night</i> & “more”", venue="<b>"),
    "draws just made": now,
    "the tie draw taken off the display": lambda d: (now(d), [row.update(on_display=False) for row in d["draws"]]),
    "a pot named in markup": with_pots,
    "nobody checked in": lambda d: [row.update(checked_in=False) for row in d["players"]],
    "a player gone": lambda d: d["players"][0].update(active=False),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_a_hand_edited_backup_that_restores_shows_on_every_page(organizer_client, name):
    data = fundraiser_file(organizer_client)
    EDITS[name](data)
    night = restored(organizer_client, data)
    pages = [
        ("tournament:public_night", (night.pk,)),
        ("tournament:room_display", (night.pk,)),
        ("tournament:room_count", (night.pk,)),
        ("tournament:player_find", (night.pk,)),
        ("tournament:door", (night.pk,)),
        ("tournament:signup", (night.pk,)),
        *(("tournament:player_page", (night.pk, player)) for player in night.entries.values_list("player", flat=True)),
    ]
    for name_, args in pages:
        assert Client().get(reverse(name_, args=args)).status_code == 200, name_
    for name_ in ("tournament:money", "tournament:night_detail", "tournament:money_csv"):
        assert organizer_client.get(reverse(name_, args=[night.pk])).status_code == 200, name_


def test_a_night_its_pages_could_not_read_is_refused_and_every_row_undone(organizer_client, monkeypatch):
    """The last net: should any reading the pages make fail on a restored night (here the side pots' reading is
    made to fail), the restore is refused with the reason and the rows it wrote are undone."""
    data = fundraiser_file(organizer_client)

    def broken(night):
        raise ArithmeticError("a pot that cannot be added up")

    monkeypatch.setattr("tournament.selectors.night_pots", broken)
    refused(organizer_client, data, "its pages could not show (ArithmeticError: a pot that cannot be added up)")
    monkeypatch.undo()
    restored(organizer_client, data)
