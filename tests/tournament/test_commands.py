"""Management commands: the rehearsal simulator, the organizer account and the demo night."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament.models import Night

pytestmark = pytest.mark.django_db


def test_simulate_night_writes_the_json_record(tmp_path):
    out = tmp_path / "night.json"
    call_command("simulate_night", players=12, rounds=4, seed=5, json_file=str(out))
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["night"]["rounds"] == 4 and record["night"]["seed"] == 5
    assert len(record["rounds"]) == 4
    assert all(len(r["tables"]) == 3 for r in record["rounds"])
    assert {p["id"] for p in record["players"]} == {row["player"] for row in record["standings"]}
    assert Night.objects.get().status == "finished"


def test_simulate_night_is_reproducible(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    call_command("simulate_night", players=8, rounds=3, seed=9, json_file=str(first))
    call_command("simulate_night", players=8, rounds=3, seed=9, json_file=str(second))
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    names = lambda record: {p["id"]: p["name"] for p in record["players"]}  # noqa: E731
    seated = lambda record: [  # noqa: E731
        {seat: names(record)[pid] for seat, pid in t["seats"].items()} for r in record["rounds"] for t in r["tables"]
    ]
    assert seated(a) == seated(b)
    assert [t["score"] for r in a["rounds"] for t in r["tables"]] == [
        t["score"] for r in b["rounds"] for t in r["tables"]
    ]


def test_simulate_night_refuses_a_head_count_it_cannot_seat():
    with pytest.raises(CommandError, match="at least 4 players"):
        call_command("simulate_night", players=3, rounds=2, seed=1)
    assert not Night.objects.exists()  # a failed rehearsal leaves nothing behind


def test_simulate_night_on_a_server_of_several_clubs_is_told_which_club():
    from tournament.services import clubs

    clubs.club_add(name="Alder Euchre Club", slug="alder")
    birch = clubs.club_add(name="Birch Euchre Club", slug="birch")
    with pytest.raises(CommandError, match="--club <short address>"):
        call_command("simulate_night", players=8, rounds=1)
    with pytest.raises(CommandError, match="No club has the short address 'cedar'"):
        call_command("simulate_night", players=8, rounds=1, club="cedar")
    call_command("simulate_night", players=8, rounds=1, club="BIRCH")
    assert list(Night.objects.values_list("club_id", flat=True)) == [birch.pk]


def test_ensure_organizer_is_idempotent(settings, tmp_path, capsys, monkeypatch):
    settings.VAR_DIR = tmp_path
    monkeypatch.setenv("HEADTABLE_ORGANIZER_PASSWORD", "letmein-euchre")
    call_command("ensure_organizer")
    first = capsys.readouterr().out
    call_command("ensure_organizer")
    again = capsys.readouterr().out
    user = get_user_model().objects.get(username="organizer")
    assert user.is_staff and user.check_password("letmein-euchre")
    assert not user.is_superuser  # the venue's organizer runs nights; the admin's superuser is not needed (#22)
    assert (tmp_path / "organizer-password.txt").read_text().strip() == "letmein-euchre"
    assert "Log in as 'organizer' with password letmein-euchre" in first
    # Every later start says where the password is kept, never the password itself (#22, item 4).
    assert "letmein-euchre" not in again and "the password is in" in again


def test_after_the_demo_the_clubs_own_nights_keep_small_numbers():
    from tournament import services

    before = services.night_create(name="Club night 1")
    call_command("load_demo")
    demo = Night.objects.get(name__startswith="Demo")
    after = services.night_create(name="Club night 2")
    assert demo.pk == before.pk + 1 and after.pk == demo.pk + 1  # not 900002: public addresses stay short
    services.players_register(night=after, names=["Zed Zulu"])
    assert after.entries.get().player_id < 900_000


def test_demo_night_loads_once_and_plays_on(capsys):
    from scoring import rules
    from tournament.game import hand_record, table_finish
    from tournament.selectors import night_standings

    call_command("load_demo")
    night = Night.objects.get(name__startswith="Demo")
    assert night.entries.count() == 24
    assert night_standings(night).rounds_closed == 4
    # every player of the demo by name on its pages, and its backup restores (a night of nameless entries did not)
    assert all(entry.name == entry.player.name != "" for entry in night.entries.select_related("player"))
    from tournament import backup

    raw = backup.night_backup_bytes(night)
    backup.checks.check(backup.checks.parse(raw))  # the restore's checks pass
    current = night.rounds.get(number=5)
    assert current.status == "playing"
    with pytest.raises(CommandError, match="already loaded"):
        call_command("load_demo")
    # The demo is a real night: finishing game 5 goes through the ordinary services.
    for _ in range(3):  # the head table's hands 6, 7 and 8; the last rings the bell
        hand_record(round_=current, table=1, hand=rules.Hand(makers="NS", maker="N", tricks=3))
    current.refresh_from_db()
    assert current.bell_at is not None
    for table in range(1, 7):  # every table, the head table too, says "Game over"
        table_finish(round_=current, table=table)
    # The demo night runs by itself: the last table in after the bell closes game 5 and starts game 6.
    current.refresh_from_db()
    assert current.status == "closed"
    assert night.rounds.get(number=6).status == "playing"


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "progressive", "loner-bonus", "hall-minus", "bid-euchre"])
def test_simulated_hands_match_the_preset_and_the_standings_add_up(tmp_path, preset):
    from collections import Counter

    from scoring import rules

    out = tmp_path / "night.json"
    call_command("simulate_night", players=24, rounds=10, seed=11, scoring=preset, json_file=str(out))
    record = json.loads(out.read_text(encoding="utf-8"))
    ruleset = rules.PRESETS[preset]
    tallies: dict[int, int] = {}
    for round_ in record["rounds"]:
        head = round_["tables"][0]
        assert len(head["hands"]) == 8  # the head table plays exactly the hands per game ...
        assert set(Counter(hand["dealer"] for hand in head["hands"]).values()) == {2}  # ... each dealing twice
        for table in round_["tables"]:
            for hand in table["hands"]:
                played = rules.Hand(
                    hand["makers"],
                    hand["tricks"],
                    hand["alone"],
                    hand["maker"],
                    hand["blind"],
                    hand["defender_alone"],
                    hand["bid"],
                    hand["pepper"],
                )
                score = rules.score_hand(played, ruleset)
                assert hand["points"] == {"NS": score.ns, "EW": score.ew}
                if score.extras.get(hand["maker"], rules.NO_EXTRAS).bonus:
                    player = table["seats"][hand["maker"]]
                    tallies[player] = tallies.get(player, 0) + ruleset.loner_bonus
            for side in ("NS", "EW"):
                assert table["score"][side] == sum(hand["points"][side] for hand in table["hands"])
            for seat, player in table["seats"].items():
                tallies[player] = tallies.get(player, 0) + table["score"][rules.side_of(seat)]
    assert {row["player"]: row["total"] for row in record["standings"]} == tallies


@pytest.mark.parametrize("movement", Night.Movement.values)
def test_every_movement_runs_any_head_count_with_even_byes(tmp_path, movement):
    from collections import Counter

    for players in (5, 6, 7, 17, 30, 101):
        out = tmp_path / f"{movement}-{players}.json"
        # A rotation chart has at most a full night: as many games as players (one fewer for a multiple of four).
        rounds = min(10, players) if movement == "rotation" else 10
        call_command(
            "simulate_night",
            players=players,
            rounds=rounds,
            seed=players,
            movement=movement,
            entry="games",
            json_file=str(out),
        )
        record = json.loads(out.read_text(encoding="utf-8"))
        byes = Counter(player for round_ in record["rounds"] for player in round_["byes"])
        counts = [byes[player["id"]] for player in record["players"]]
        assert max(counts) - min(counts) <= 1, (players, counts)
        for round_ in record["rounds"]:
            seated = [p for table in round_["tables"] for p in table["seats"].values()]
            everyone = seated + round_["byes"]
            assert len(everyone) == len(set(everyone)) == players + len(record["house_players"])


def test_add_organizer_makes_a_staff_account_and_prints_its_password_once(capsys):
    call_command("add_organizer", "second")
    out = capsys.readouterr().out
    user = get_user_model().objects.get(username="second")
    assert user.is_staff and not user.is_superuser
    password = out.split("password ")[1].split(" ")[0]
    assert user.check_password(password) and len(password) >= 12
    with pytest.raises(CommandError, match="already an account named 'second'"):
        call_command("add_organizer", "second")
    with pytest.raises(CommandError, match="cannot be a user name"):
        call_command("add_organizer", "no spaces allowed!")
    assert get_user_model().objects.filter(is_staff=True).count() == 1
