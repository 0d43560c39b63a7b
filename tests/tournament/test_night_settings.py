"""A night's settings changed after it was created: every one before the opening draw, after it only what the
room reads and prints; a refusal beside the field, nothing half-changed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.rules import PRESETS
from tests.conftest import register
from tournament import services
from tournament.models import Night

pytestmark = pytest.mark.django_db


def form_data(night: Night, **changes) -> dict:
    data = {
        "name": night.name,
        "date": night.date.isoformat(),
        "venue": night.venue,
        "movement": night.movement,
        "numbering": night.numbering,
        "fill": night.fill,
        "bye_credit": night.bye_credit,
        "bye_points": str(night.bye_points),
        "rank_by": night.rank_by,
        "tie_chain": night.tie_chain,
        "prizes": night.prizes,
        "games": str(night.games),
        "hands_per_game": str(night.hands_per_game),
        "points_target": str(night.points_target or 0),
        "warning_minutes": str(night.warning_minutes),
        "break_minutes": str(night.break_minutes),
        "scoring": night.scoring,
        "tie_rule": night.tie_rule,
        "paper": night.paper,
        "substitutes": night.substitutes,
        **{
            name: "on"
            for name in ("one_prize_each", "head_table_ends", "auto_advance", "confirm_results")
            if getattr(night, name)
        },
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_before_the_draw_every_setting_changes(organizer_client, night):
    url = reverse("tournament:night_settings", args=[night.pk])
    assert "Night settings" in organizer_client.get(url).content.decode()
    answer = organizer_client.post(url, form_data(night, bye_credit="own_average", scoring="bid-euchre", games="6"))
    assert answer.status_code == 302
    night.refresh_from_db()
    assert (night.bye_credit, night.scoring, night.games) == ("own_average", "bid-euchre", 6)
    assert night.rules == PRESETS["bid-euchre"].as_dict()
    assert night.points_target is None  # the form's 0 kept it without a target


def test_after_the_draw_only_what_the_room_reads_and_the_nights_length_change(organizer_client, night):
    register(night, 8)
    services.night_draw(night=night, seed=1)
    night.refresh_from_db()
    url = reverse("tournament:night_settings", args=[night.pk])
    page = organizer_client.get(url).content.decode()
    assert "The seating is drawn" in page and 'name="movement"' in page and "disabled" in page
    organizer_client.post(url, form_data(night, name="St Mary's Spring Euchre", movement="winners-stay", games="2"))
    night.refresh_from_db()
    # The number of games is decided at the night (tests/tournament/test_night_length.py); how a game plays is not.
    assert (night.name, night.movement, night.games) == ("St Mary's Spring Euchre", "progressive", 2)
    with pytest.raises(ValidationError) as refused:
        services.night_update(night=night, hands_per_game=4)
    assert refused.value.message_dict == {
        "hands_per_game": [
            "The seating is drawn: this no longer changes (the name, date, venue, prizes, paper, number of games "
            "and running by itself still do)."
        ]
    }


def test_a_refused_setting_is_shown_beside_its_field_and_nothing_changes(organizer_client, night):
    url = reverse("tournament:night_settings", args=[night.pk])
    body = organizer_client.post(url, form_data(night, prizes="high,best", games="0")).content.decode()
    assert "Unknown prize &#x27;best&#x27;" in body and "Ensure this value is greater than or equal to 1." in body
    night.refresh_from_db()
    assert (night.prizes, night.games) == ("high,second,third,low,loners", 3)


def test_the_bye_warning_points_to_the_settings_page(organizer_client, night):
    register(night, 6)
    body = organizer_client.get(night.get_absolute_url()).content.decode()
    assert reverse("tournament:night_settings", args=[night.pk]) in body
