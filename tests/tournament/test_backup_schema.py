"""The backup declared once (#32, part 2, item 1): every field of every model is carried by a codec or left out
with its reason, a night is written in the same number of queries whatever its size, and a game's winner is checked
by the rules the scoring services decide it by."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Hand
from tests.tournament.test_backup_refusals import refused, signed
from tournament import backup, services
from tournament.backup import schema
from tournament.models import Entry, Night, Player
from tournament.rehearsal import simulate


def _carried() -> dict[type, set[str]]:
    carried: dict[type, set[str]] = defaultdict(set)
    for codec in schema.codecs():
        carried[codec.model] |= codec.carried()
    carried[Player] |= set(schema.WITH_THE_ENTRY)
    return carried


def test_every_field_of_every_model_is_carried_or_left_out_with_its_reason():
    carried = _carried()
    undecided = []
    for app in ("tournament", "scoring"):
        for model in apps.get_app_config(app).get_models():
            if model in schema.NOT_A_NIGHTS_RECORD:
                continue
            left_out = {**schema.ANY_MODEL, **schema.NOT_BACKED_UP.get(model, {})}
            for field in [*model._meta.concrete_fields, *model._meta.many_to_many]:
                if field.name not in carried[model] and field.name not in left_out:
                    undecided.append(f"{model.__name__}.{field.name}")
    assert undecided == [], f"in no codec and not on the list of what a backup leaves out: {undecided}"


def test_what_a_backup_leaves_out_is_said_once_with_a_reason_and_is_so():
    carried = _carried()
    for model, fields in schema.NOT_BACKED_UP.items():
        assert model not in schema.NOT_A_NIGHTS_RECORD
        for name, reason in fields.items():
            model._meta.get_field(name)  # a field the model has
            assert name not in carried[model], f"{model.__name__}.{name} is carried, yet said to be left out"
            assert len(reason.split()) >= 3
    assert all(len(reason.split()) >= 3 for reason in schema.NOT_A_NIGHTS_RECORD.values())
    assert not any(model in carried for model in schema.NOT_A_NIGHTS_RECORD)


def test_each_codec_names_fields_its_model_has_and_file_keys_once():
    for codec in schema.codecs():
        for key in codec.fields:
            codec.field(key)
        for name in [*codec.elsewhere, *([codec.parent] if codec.parent else [])]:
            codec.model._meta.get_field(name)
        assert set(codec.later) <= set(codec.fields), codec.key
    keys = [codec.key for codec in schema.codecs()]
    assert len(keys) == len(set(keys))


# The players' keys and the night's keepers, then one query for each kind of record below the night (the night
# itself is at hand).
QUERIES = 2 + len(schema.codecs()) - 1


@pytest.mark.django_db
def test_a_night_is_written_in_the_same_number_of_queries_whatever_its_size(django_assert_num_queries):
    small = simulate(players=8, rounds=1, seed=1, name="Small night")
    big = simulate(
        players=23,
        rounds=4,
        seed=2,
        name="Big night",
        fill="threes",
        never_share=0.2,
        money={"currency": "USD", "pre": 1000, "door": 1200, "member": None, "methods": ("cash", "card")},
    )
    services.keeper_add(night=big, username="kate", password="keep-score-1")
    services.pot_line_add(night=big, pot="50/50", kind="in", cents=6000)
    services.draw_make(night=big, title="Door prize", count=2, pool_kind="players")
    sizes = []
    for night in (small, big):
        with django_assert_num_queries(QUERIES):
            data = backup.night_export(night)
        sizes.append(sum(len(result["hands"]) for game in data["rounds"] for result in game["results"]))
    assert Entry.objects.filter(night=big).count() > 2 * Entry.objects.filter(night=small).count()
    assert sizes[1] > 3 * sizes[0]


@pytest.mark.django_db
def test_a_night_is_restored_in_the_same_number_of_queries_whatever_its_size():
    """Each kind is made in one bulk insert: a night of three times the hands takes no more queries (both fit in
    one batch of SQLite's 999 parameters a statement; beyond it, a kind takes a statement a batch)."""
    counts = []
    for players, rounds, seed in ((8, 1, 1), (12, 2, 2)):
        night = simulate(players=players, rounds=rounds, seed=seed, name=f"{players} players")
        raw = backup.night_backup_bytes(night)
        Night.objects.filter(pk=night.pk).delete()
        with CaptureQueriesContext(connection) as queries:
            restored = backup.night_restore(raw=raw)
        assert backup.night_backup_bytes(restored) == raw
        counts.append((len(queries.captured_queries), Hand.objects.filter(result__round__night=restored).count()))
    (small, hands), (big, more_hands) = counts
    assert big == small and more_hands >= 3 * hands


# ---- a game's winner, checked by the rules the scoring services decide it by -------------------------------------


def _edited(night, change) -> bytes:
    data = json.loads(backup.night_backup_bytes(night))
    Night.objects.filter(pk=night.pk).delete()
    change(data)
    return signed(data)


@pytest.mark.django_db
def test_a_game_played_to_the_target_given_to_the_other_side_is_refused():
    night = simulate(players=8, rounds=1, seed=3, target=5, head_table=False, name="To five")

    def other_side(data):
        result = next(r for r in data["rounds"][0]["results"] if max(r["ns"], r["ew"]) >= 5)
        result["winner"] = "EW" if result["winner"] == "NS" else "NS"

    refused(_edited(night, other_side), "reached 5 with the last hand: the game is theirs.")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("fewest", "the game goes to the most points"),
        ("tie_break", "a tie at the top says how it was decided (“tie_break”), and only a tie does."),
    ],
)
def test_a_table_of_three_won_otherwise_than_the_desk_decides_is_refused(change, words):
    night = simulate(players=13, rounds=1, seed=5, fill="threes", name="Threes")

    def edit(data):
        result = next(
            r for r in data["rounds"][0]["results"] if r["seat_points"] and len(set(r["seat_points"].values())) == 3
        )
        if change == "fewest":
            result["winner"] = min(result["seat_points"], key=result["seat_points"].get)
        else:
            result["tie_break"] = "draw"

    refused(_edited(night, edit), words)
