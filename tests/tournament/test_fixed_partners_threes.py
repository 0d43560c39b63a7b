"""Fixed partners with tables of three (issue #19): nobody sits out, and the pairs stay pairs.

The rule (README, "Tables of three"): the pairs whose turn it is, chosen as byes would be, play one game apart at
the tables of three, each for themselves, partners at different tables where there are two or more; they come
back together to a table of four. An odd head count's player without a partner plays at a table of three (no
house player). The partnership of a pair apart is kept on their seats (`Seating.partner`) and in the backup.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from tests.tournament.test_backup_refusals import signed
from tournament import backup, services
from tournament.models import Bye, Night, Seating
from tournament.rehearsal import simulate

pytestmark = pytest.mark.django_db


def _games(night: Night) -> dict[int, dict[int, list[Seating]]]:
    games: dict[int, dict[int, list[Seating]]] = {}
    for seating in Seating.objects.filter(round__night=night).order_by("round__number", "table", "seat"):
        games.setdefault(seating.round.number, {}).setdefault(seating.table, []).append(seating)
    return games


@pytest.mark.parametrize(("players", "sizes"), [(13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (15, [4, 4, 4, 3])])
def test_a_fixed_partners_night_with_tables_of_three_keeps_every_pair_and_seats_everyone(players, sizes):
    night = simulate(players=players, rounds=6, seed=2, movement="fixed-partners", entry="totals", fill="threes")
    assert night.status == Night.Status.FINISHED
    assert not Bye.objects.filter(round__night=night).exists()
    assert not night.entries.filter(player__house=True).exists()
    pairs: set[frozenset[int]] = set()
    turns: Counter = Counter()
    for tables in _games(night).values():
        assert [len(seats) for _, seats in sorted(tables.items())] == sizes
        for seats in tables.values():
            by_seat = {s.seat: s for s in seats}
            if len(seats) == 4:
                assert all(s.partner_id is None for s in seats)
                pairs |= {frozenset((by_seat[a].player_id, by_seat[b].player_id)) for a, b in ("NS", "EW")}
            else:
                turns.update(s.player_id for s in seats)
                for s in seats:
                    if s.partner_id is not None:
                        pairs.add(frozenset((s.player_id, s.partner_id)))
                        assert s.partner_id not in {other.player_id for other in seats} or sizes.count(3) == 1
    everyone = set(night.entries.values_list("player_id", flat=True))
    paired = {p for pair in pairs for p in pair}
    assert len(pairs) == players // 2 and all(len(pair) == 2 for pair in pairs)  # the same pairs all night
    assert len(everyone - paired) == players % 2
    pair_turns = [turns[min(pair)] for pair in pairs]
    assert all(turns[a] == turns[b] for a, b in (tuple(pair) for pair in pairs))
    assert max(pair_turns) - min(pair_turns) <= 1
    for single in everyone - paired:
        assert turns[single] == 6  # without a partner: at a table of three every game


def test_the_settings_take_tables_of_three_with_fixed_partners():
    night = services.night_create(name="Couples", games=3, auto_advance=False, movement="fixed-partners")
    services.night_update(night=night, fill=Night.Fill.THREES)
    night.refresh_from_db()
    assert night.fill == Night.Fill.THREES


def test_the_backup_carries_the_partners_apart_and_refuses_them_edited():
    night = simulate(players=14, rounds=3, seed=4, movement="fixed-partners", entry="totals", fill="threes")
    apart = sorted(
        Seating.objects.filter(round__night=night, partner__isnull=False).values_list("player__name", "partner__name")
    )
    raw = backup.night_backup_bytes(night)
    data = json.loads(raw)
    assert all(len(row["apart"]) == 6 for row in data["rounds"])  # two tables of three, three pairs apart
    night.delete()
    restored = backup.night_restore(raw=raw)
    after = Seating.objects.filter(round__night=restored, partner__isnull=False).values_list(
        "player__name", "partner__name"
    )
    assert sorted(after) == apart
    assert backup.night_backup_bytes(restored) == raw
    restored.delete()
    first = data["rounds"][0]
    at_four = next(key for table, seat, key in first["seats"] if table == 1)
    first["apart"][0][1] = at_four
    with pytest.raises(ValidationError) as refused:
        backup.night_restore(raw=signed(data))
    assert "is not at a table of three" in str(refused.value)
    assert not Night.objects.exists()
