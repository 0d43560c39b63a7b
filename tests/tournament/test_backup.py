"""A night backed up to one file and restored: the same night, the same standings, the same file again."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Hand, Submission
from tournament import backup, game, services
from tournament.models import Cause, Night, Player
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db


def standings(night):
    return [(r.rank_label, r.name, r.total, r.wins, r.per_round) for r in night_standings(night).rows]


@pytest.fixture
def played():
    night = simulate(players=9, rounds=3, seed=4)  # byes, hands, events and submissions
    keeper = services.keeper_add(night=night, username="kate", password="keep-score-1")
    return night, keeper


def test_backup_restore_backup_gives_the_same_file_and_the_same_night(played):
    night, _ = played
    first = backup.night_backup_bytes(night)
    before = standings(night)
    hands = Hand.objects.filter(result__round__night=night).count()
    Night.objects.filter(pk=night.pk).delete()  # as if restoring into another installation
    restored = backup.night_restore(raw=first)
    assert restored.pk != night.pk
    assert standings(restored) == before
    assert Hand.objects.filter(result__round__night=restored).count() == hands
    assert backup.night_backup_bytes(restored) == first


def test_a_damaged_file_is_refused_and_changes_nothing(played):
    night, _ = played
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    data["rounds"][0]["results"][0]["ns"] += 1  # a score edited by hand
    count = Player.objects.count()
    with pytest.raises(ValidationError, match="damaged"):
        backup.night_restore(raw=json.dumps(data).encode())
    with pytest.raises(ValidationError, match="not JSON"):
        backup.night_restore(raw=b"\x89PNG not a backup")
    with pytest.raises(ValidationError, match="not a Head Table night backup"):
        backup.night_restore(raw=b'{"some": "other json"}')
    assert not Night.objects.exists() and Player.objects.count() == count


def test_restoring_a_night_that_is_already_here_is_refused(played):
    night, _ = played
    with pytest.raises(ValidationError, match="already here"):
        backup.night_restore(raw=backup.night_backup_bytes(night))
    assert Night.objects.count() == 1


def test_a_broken_backup_with_a_good_checksum_is_refused_whole(played):
    night, _ = played
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    del data["rounds"][1]["seats"]
    payload = {k: v for k, v in data.items() if k != "checksum"}
    data["checksum"] = backup.hashlib.sha256(backup._canonical(payload)).hexdigest()
    with pytest.raises(ValidationError, match="incomplete or malformed"):
        backup.night_restore(raw=json.dumps(data).encode())
    assert not Night.objects.exists() and not Submission.objects.exists()


def test_restore_through_the_page(organizer_client, played):
    night, _ = played
    raw = organizer_client.get(reverse("tournament:night_backup", args=[night.pk])).content
    Night.objects.filter(pk=night.pk).delete()
    response = organizer_client.post(
        reverse("tournament:night_restore"), {"file": SimpleUploadedFile("night.json", raw, "application/json")}
    )
    assert response.status_code == 302
    again = organizer_client.post(
        reverse("tournament:night_restore"), {"file": SimpleUploadedFile("night.json", raw, "application/json")}
    )
    assert "This night is already here" in again.content.decode()


def test_csv_exports(client, organizer_client, played):
    night, _ = played
    rows = list(
        csv.reader(
            io.StringIO(client.get(reverse("tournament:standings_csv", args=[night.pk])).content.decode("utf-8-sig"))
        )
    )
    assert rows[0][:4] == ["rank", "player", "number", "total"]
    assert len(rows) == 1 + 9
    hands = organizer_client.get(reverse("tournament:hands_csv", args=[night.pk])).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(hands)))
    assert sum(1 for line in lines if line[2] == "total") == 3 * 2  # three games of two tables
    assert sum(1 for line in lines if line[11] == "hand") == Hand.objects.count()
    # Each value under its own heading: a hand's points under N-S and E-W, its renege last.
    first = Hand.objects.order_by("result__round__number", "result__table", "number").first()
    hand_line = next(line for line in lines if line[11] == "hand")
    assert dict(zip(lines[0], hand_line, strict=True))["N-S"] == str(first.ns_points)
    assert lines[0][12] == "renege" and hand_line[12] == first.renege


def test_a_backup_made_before_causes_were_data_restores_with_its_causes_read_once(db):
    """A version 1 file (made by the code before the re-layout, mid-game with the head table's bell rung)."""
    raw = (Path(__file__).parent / "data" / "backup-before-relayout.json").read_bytes()
    night = backup.night_restore(raw=raw)
    round2 = night.rounds.get(number=2)
    assert (round2.status, round2.bell_reason) == ("bell", Cause.HEAD_TABLE)
    assert (night.head_table_ends, night.points_target) == (True, None)  # as every night then: no target
    assert [e.reason for e in round2.events.order_by("at", "id")] == [
        Cause.MOVEMENT,
        Cause.STRAIGHT_ON,
        Cause.HEAD_TABLE,
    ]
    assert standings(night)[0][2] > 0
    # The head table takes back its last hand: the bell is taken back, as it would have been before.
    game.hand_undo(round_=round2, table=1)
    round2.refresh_from_db()
    assert round2.status == "playing"
    again = json.loads(backup.night_backup_bytes(night))
    assert again["version"] == backup.VERSION and again["rounds"][1]["events"][-1]["reason"] == Cause.HEAD_TABLE_UNDO


def test_tally_card_numbers_and_codes_survive_a_restore_into_a_database_whose_ids_differ(client, played):
    night, _ = played
    cards = {e.player.name: (e.card, e.code) for e in night.entries.select_related("player")}
    ids = {e.player.name: e.player_id for e in night.entries.select_related("player")}
    raw = backup.night_backup_bytes(night)
    Night.objects.filter(pk=night.pk).delete()
    Player.objects.filter(pk__in=ids.values()).delete()
    # Another laptop: its roster already has other people, so every player gets another id there.
    services.players_register(night=services.night_create(name="Their own night"), names=[f"P{n}" for n in range(20)])
    restored = backup.night_restore(raw=raw)
    after = {e.player.name: (e.card, e.code) for e in restored.entries.select_related("player")}
    assert after == cards
    assert all(restored.entries.get(player__name=name).player_id != pk for name, pk in ids.items())
    # "Find me by number" still finds the same person by the number printed on the card.
    name, (card, _) = next((n, c) for n, c in sorted(cards.items()) if not n.startswith("House"))
    found = client.get(reverse("tournament:player_find", args=[restored.pk]), {"q": str(card)})
    assert found.url == reverse(
        "tournament:player_page", args=[restored.pk, restored.entries.get(player__name=name).player_id]
    )


def test_a_backup_from_before_cards_were_stored_gets_numbers_and_codes(played):
    night, _ = played
    data = json.loads(backup.night_backup_bytes(night))
    for row in data["players"]:
        del row["card"], row["code"]
    payload = {k: v for k, v in data.items() if k != "checksum"}
    data["checksum"] = __import__("hashlib").sha256(backup._canonical(payload)).hexdigest()
    Night.objects.filter(pk=night.pk).delete()
    restored = backup.night_restore(raw=json.dumps(data).encode())
    entries = list(restored.entries.all())
    assert sorted(e.card for e in entries) == list(range(1, len(entries) + 1))
    assert len({e.code for e in entries}) == len(entries) and all(len(e.code) == 4 for e in entries)
