"""Who may take each prize, on a night (#21): set in the Settings, refused beside the field, kept by the prize table,
printed on the prize sheet and carried by the backup."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import register
from tests.tournament.test_night_settings import form_data
from tournament import backup, services
from tournament.models import Entry, Night
from tournament.models import Player as RosterPlayer
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db


def test_a_night_with_rules_gives_no_prize_to_a_player_who_left_and_the_sheet_says_the_rule(organizer_client):
    # The rules typed on the Settings page while the night is under way (a night that is over keeps its rules).
    rules = "high: present, every game; second: present"
    under_way = services.night_create(name="Under way")
    register(under_way, 8)
    services.night_draw(night=under_way, seed=1)
    url = reverse("tournament:night_settings", args=[under_way.pk])
    refused = organizer_client.post(url, form_data(under_way, prize_rules="high: here")).content.decode()
    assert "“here” is not a rule for a prize" in refused
    organizer_client.post(url, form_data(under_way, prize_rules=rules))
    under_way.refresh_from_db()
    assert under_way.prize_rules == rules
    under_way.delete()  # its players are the roster's the backup below restores afresh
    night = simulate(players=16, rounds=3, seed=5, leave={3: 4}, prize_rules=rules)  # four leave before game 3
    gone = set(Entry.objects.filter(night=night, active=False).values_list("player_id", flat=True))
    assert len(gone) == 4
    assert night.prize_rules == rules
    awards = {award.key: award for award in night_standings(night).awards}
    assert awards["high"].player_ids and not set(awards["high"].player_ids) & gone
    assert not set(awards["second"].player_ids) & gone
    sheet = organizer_client.get(reverse("tournament:prize_sheet_pdf", args=[night.pk])).content
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(sheet)).pages).split())
    assert "present at the end, there for every game" in text
    # The rules travel with the night.

    raw = backup.night_backup_bytes(night)
    ids = list(night.entries.values_list("player_id", flat=True))
    Night.objects.filter(pk=night.pk).delete()
    RosterPlayer.objects.filter(pk__in=ids).delete()
    assert backup.night_restore(raw=raw).prize_rules == "high: present, every game; second: present"


def test_the_public_page_and_the_room_display_name_the_prizes_as_the_rules_gave_them(organizer_client, client):
    """From a trial: the public page's headline named the lowest totals (players who sat out, or left) as "Low
    score" while its own prize list gave the prize to another player; the room display's winners the same. Both
    now name what the prize table gave."""
    import re

    night = simulate(players=16, rounds=3, seed=5, leave={3: 4})
    url = reverse("tournament:night_settings", args=[night.pk])
    organizer_client.post(url, form_data(night, prize_rules="high: present, every game; low: present, every game"))
    standings = night_standings(night)
    awards = {award.key: award for award in standings.awards}
    raw_low = {row.name for row in standings.low}
    assert raw_low - set(awards["low"].names), "a night where the lowest total is not the low prize's"
    for name in ("public_night", "room_display"):
        page = client.get(reverse(f"tournament:{name}", args=[night.pk])).content.decode()
        said = re.search(r"Low score: ([^<(—]*)", page)
        assert said is not None, name
        assert {part.strip() for part in said.group(1).split(",")} == set(awards["low"].names), name
