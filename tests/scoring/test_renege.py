"""A renege, in every preset (#19, item 4): the Euchre article (001) says "Reneging generally causes the hand to be
forfeited, with the maximum amount of points (usually 2 but can be 4 when opposing team is going alone) awarded to
the opposing team." Head Table reads it as the other side taking every trick (scoring.rules.forfeited)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring import rules
from scoring.models import Hand as StoredHand
from scoring.rules import PRESETS, Hand, ScoringError, score_hand
from tests.conftest import register

RENEGE = "the hand to be forfeited, with the maximum amount of points … awarded to the opposing team"
USUALLY_2 = "(usually 2 but can be 4 when opposing team is going alone)"


@pytest.mark.parametrize(
    ("preset", "hand", "to", "says"),
    [
        ("standard", Hand("NS", 4, renege="NS"), (0, 2), f"{RENEGE} {USUALLY_2}: the makers reneged"),
        ("standard", Hand("NS", 1, renege="EW"), (2, 0), f"{RENEGE} {USUALLY_2}: the defenders reneged"),
        ("standard", Hand("EW", 2, alone=True, maker="E", renege="NS"), (0, 4), f"{USUALLY_2}: against a loner"),
        ("standard", Hand("EW", 5, alone=True, maker="W", renege="EW"), (2, 0), f"{USUALLY_2}: the loner reneged"),
        ("progressive", Hand("NS", 3, renege="NS"), (0, 4), "the progressive table's euchre sweep nets 4"),
        ("bid-euchre", Hand("NS", 5, bid=4, renege="NS"), (-6, 6), "the bidders set, every trick to the defenders"),
        ("bid-euchre", Hand("NS", 2, bid=4, renege="EW"), (6, -6), "the bid made with every trick, defenders none"),
        ("double-deck", Hand("EW", 9, bid=8, renege="EW"), (12, -8), "Indiana: the bid lost, 12 tricks the other way"),
    ],
)
def test_a_renege_forfeits_the_hand_as_if_the_other_side_took_every_trick(preset, hand, to, says):
    score = score_hand(hand, PRESETS[preset])
    ns, ew = to
    assert (score.ns, score.ew) == (ns, ew), says
    assert score.winner == ("EW" if hand.renege == "NS" else "NS")
    assert not score.extras  # no loner, euchre or march was played out


def test_a_renege_names_a_side():
    with pytest.raises(ScoringError, match="The side that reneged is N–S or E–W"):
        score_hand(Hand("NS", 3, renege="N"))


@pytest.mark.django_db
def test_a_renege_is_one_tap_on_the_hand_page_and_survives_a_backup(organizer_client, night):
    from tournament import backup, game, services
    from tournament.models import Night

    register(night, 4)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=1))
    page = reverse("scoring:table_hands", args=[night.pk, 1, 1])
    shown = organizer_client.get(page + "?maker=S", HTTP_HX_REQUEST="true").content.decode()
    assert "A renege gives the hand to the other side" in shown
    assert "N–S reneged:&nbsp;<small>E–W +2</small>" in shown and "E–W reneged:&nbsp;<small>N–S +2</small>" in shown
    organizer_client.post(reverse("scoring:hand_add", args=[night.pk, 1, 1]), {"maker": "S", "renege": "EW"})
    stored = StoredHand.objects.get(result__round=round_)
    assert (stored.renege, stored.tricks, stored.ns_points, stored.ew_points) == ("EW", 5, 2, 0)
    assert "S, East–West reneged" in organizer_client.get(page).content.decode()  # the hand in the list
    night.refresh_from_db()
    data = backup.night_backup_bytes(night)
    assert json.loads(data)["rounds"][0]["results"][0]["hands"][0]["renege"] == "EW"
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=data)
    assert StoredHand.objects.get(result__round__night=restored).renege == "EW"
    assert backup.night_backup_bytes(restored) == data


def test_the_forfeit_keeps_the_hand_as_it_was_called():
    hand = Hand("EW", 2, alone=True, maker="E", renege="NS", dealer="S")
    assert rules.forfeited(hand, PRESETS["standard"]) == Hand("EW", 5, alone=True, maker="E", renege="NS", dealer="S")
