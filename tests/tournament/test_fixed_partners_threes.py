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

from tests.conftest import register
from tests.tournament.test_backup_refusals import signed
from tournament import backup, game, services
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


def test_a_swap_between_two_tables_of_three_keeps_both_pairs():
    """Two players apart at different tables of three swap seats: they are still apart, and still partners, so the
    next game seats the same pairs together again."""
    night = services.night_create(name="Couples", games=3, auto_advance=False, movement="fixed-partners", fill="threes")
    register(night, 14)
    first = services.night_draw(night=night, seed=3)
    pairs = _pairs_of(first)
    apart = {s.player_id: s for s in first.seatings.filter(partner__isnull=False)}
    a = next(iter(apart.values()))
    b = next(s for s in apart.values() if s.table != a.table and s.player_id != a.partner_id)
    services.seating_swap(round_=first, player=a.player_id, other=b.player_id)
    moved = {s.player_id: s.partner_id for s in first.seatings.filter(player_id__in=[a.player_id, b.player_id])}
    assert moved == {a.player_id: a.partner_id, b.player_id: b.partner_id}
    first = game.round_start(round_=first)
    for table, seats in _games(night)[1].items():
        if len(seats) == 4:
            game.table_result_submit(round_=first, table=table, ns_points=10, ew_points=4)
        else:
            game.table_result_submit(round_=first, table=table, seat_points={"N": 5, "E": 3, "S": 2})
    second = game.round_close(round_=first)
    assert _pairs_of(second) == pairs


def _pairs_of(round_) -> set[frozenset[int]]:
    """The round's fixed pairs: across a table of four, or named on the seats apart."""
    pairs = set()
    for seats in _games(round_.night)[round_.number].values():
        by_seat = {s.seat: s.player_id for s in seats}
        if len(seats) == 4:
            pairs |= {frozenset((by_seat[x], by_seat[y])) for x, y in ("NS", "EW")}
        pairs |= {frozenset((s.player_id, s.partner_id)) for s in seats if s.partner_id}
    return pairs
