"""Couples kept through byes, through the pages (#34, item 8).

Issue text: "An always-partner couple is split by the opening draw's byes (one sits out, the other plays) in 6 of 10
nights with byes; the app's own audit calls it avoidable, and the README says the draw keeps every wish." Done when
"a test through the HTTP layer (sign up / import players with an always-partner wish, a head count with byes,
draw, play several games through the app) fails on today's code and passes, in the opening draw and later games".
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import NAMES
from tournament import services
from tournament.models import Bye, Night, Seating
from tournament.services import seating

pytestmark = pytest.mark.django_db

COUPLES = (("Ann Kowalski", "Bob Martin"), ("Chloé Dubois", "Łukasz Żółć"), ("Edna Walsh", "Frank Hill"))


def _night_with_couples(client, players: int, games: int, *, movement: str = "progressive") -> Night:
    """A night with its players pasted in and the couples written on the wishes page, through the pages."""
    night = services.night_create(name="Couples' night", games=games, movement=movement, auto_advance=False)
    client.post(reverse("tournament:player_paste", args=[night.pk]), {"names": "\n".join(NAMES[:players])})
    saved = client.post(
        reverse("tournament:wishes", args=[night.pk]),
        {"never": "", "always": "\n".join(f"{a} & {b}" for a, b in COUPLES), "partner_groups": ""},
    )
    assert saved.status_code == 302
    assert night.entries.count() == players
    return night


def _where(night: Night, number: int) -> tuple[dict[str, tuple[int, str]], set[str]]:
    seats = {
        name: (table, seat)
        for name, table, seat in Seating.objects.filter(round__night=night, round__number=number).values_list(
            "player__name", "table", "seat"
        )
    }
    byes = set(Bye.objects.filter(round__night=night, round__number=number).values_list("player__name", flat=True))
    return seats, byes


def _play(client, night: Night, number: int) -> None:
    client.post(reverse("tournament:round_start", args=[night.pk, number]))
    for table in sorted(
        set(Seating.objects.filter(round__night=night, round__number=number).values_list("table", flat=True))
    ):
        client.post(
            reverse("scoring:table_score", args=[night.pk, number, table]),
            {f"t{table}-ns_points": "7", f"t{table}-ew_points": "3"},
        )
    client.post(reverse("tournament:round_close", args=[night.pk, number]))


def _draw(client, night: Night, monkeypatch, seed: int) -> None:
    """The draw button, its seed (drawn by the operating system's random source) made `seed` so the test repeats."""
    with monkeypatch.context() as patched:
        patched.setattr(seating.secrets, "randbelow", lambda _: seed)
        client.post(reverse("tournament:night_draw", args=[night.pk]))
    assert night.rounds.filter(number=1).exists()


PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_couples_sit_out_together_from_the_draw_on(organizer_client, monkeypatch, seed):
    # Ten players, two byes a game, three couples: every couple sits out together or plays, all night, and at the
    # opening draw a couple that plays partners. The wishes page finds nothing the seating could have kept.
    night = _night_with_couples(organizer_client, 10, 6)
    _draw(organizer_client, night, monkeypatch, seed)
    for number in range(1, 7):
        seats, byes = _where(night, number)
        assert len(byes) == 2 and len(seats) == 8
        for a, b in COUPLES:
            assert (a in byes) == (b in byes), f"game {number}: {a} and {b} split by the byes {sorted(byes)}"
            if number == 1 and a in seats:
                assert seats[b] == (seats[a][0], PARTNER[seats[a][1]]), f"{a} and {b} do not partner at the draw"
        _play(organizer_client, night, number)
    night.refresh_from_db()
    assert night.status == "finished"
    page = organizer_client.get(reverse("tournament:wishes", args=[night.pk])).content.decode()
    assert "0 the seating could have avoided" in page and "just as fair" not in page
    fairness = organizer_client.get(reverse("tournament:night_fairness_json", args=[night.pk])).json()
    assert fairness["wishes"]["avoidable"] == 0
    byes_each = {name: 0 for name in NAMES[:10]}
    for name in Bye.objects.filter(round__night=night).values_list("player__name", flat=True):
        byes_each[name] += 1
    assert max(byes_each.values()) - min(byes_each.values()) <= 1


def test_a_split_the_byes_fairness_forces_is_called_forced(organizer_client, monkeypatch):
    # Nine players, one bye a game, three couples and three players on their own: the first three byes go to those
    # on their own; from the fourth game a couple's turn comes and one of them sits out alone (fairness wins), which
    # the wishes page says the byes' order forced.
    night = _night_with_couples(organizer_client, 9, 5)
    _draw(organizer_client, night, monkeypatch, 7)
    singles = set(NAMES[6:9])
    for number in range(1, 6):
        _, byes = _where(night, number)
        if number <= 3:
            assert byes <= singles, f"game {number}: {byes}"
        else:
            assert not byes & singles
        _play(organizer_client, night, number)
    page = organizer_client.get(reverse("tournament:wishes", args=[night.pk])).content.decode()
    assert "0 the seating could have avoided" in page
    assert "One of them sits out: the byes go to the most due" in page


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_partner_arriving_late_sits_out_with_their_couple_when_fair(organizer_client, monkeypatch, seed):
    # Nine players at the draw; Bob, Ann's partner, arrives after game 1 (credited with the fewest byes of those
    # here): from then two byes a game, and whenever Ann and Bob are equally due they sit out together or play.
    night = _night_with_couples(organizer_client, 10, 7)
    bob = night.entries.get(player__name="Bob Martin")
    organizer_client.post(reverse("tournament:entry_active", args=[night.pk, bob.pk]), {"active": "0"})
    _draw(organizer_client, night, monkeypatch, seed)
    _play(organizer_client, night, 1)
    organizer_client.post(reverse("tournament:entry_active", args=[night.pk, bob.pk]), {"active": "1"})
    _, first = _where(night, 1)
    counts = {"Ann Kowalski": int("Ann Kowalski" in first), "Bob Martin": 0}
    last: set[str] = first
    together = 0
    for number in range(2, 8):
        seats, byes = _where(night, number)
        assert len(byes) == 2 and "Bob Martin" in {*seats, *byes}
        ann, bob_ = ((counts[n], n in last) for n in ("Ann Kowalski", "Bob Martin"))
        if ann == bob_:
            assert ("Ann Kowalski" in byes) == ("Bob Martin" in byes), f"game {number}: {sorted(byes)}"
        together += {"Ann Kowalski", "Bob Martin"} <= byes
        for name in counts:
            counts[name] += name in byes
        last = byes
        _play(organizer_client, night, number)
    assert together
    page = organizer_client.get(reverse("tournament:wishes", args=[night.pk])).content.decode()
    assert "0 the seating could have avoided" in page and "just as fair" not in page
