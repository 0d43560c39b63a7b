"""A backup edited by hand, its checksum made to match, is refused with its first fault before anything is written.

Each case edits a real night's backup (byes, hands, events; for score entries a night entered as totals; for the
chart a rotation night), signs it again and restores it: the refusal names what is wrong and where, no statement
writes anything, and the same file is refused the same way on SQLite and on PostgreSQL (which would otherwise refuse
some values itself).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import rules
from tests.conftest import code_at, register
from tournament import backup, game, services
from tournament.game import hand_record, table_draft_submit, table_result_submit
from tournament.models import Night, Player
from tournament.rehearsal import simulate
from tournament.simulation import random_hand

pytestmark = pytest.mark.django_db


@functools.cache
def _exported(kind: str) -> str:
    # Played once per test run (the first test's transaction), kept as text: every case edits its own copy.
    if kind == "hands":
        night = simulate(players=9, rounds=3, seed=4)  # byes, hands, events
    elif kind == "totals":
        night = simulate(players=8, rounds=2, seed=3, entry="totals")  # score entries
    else:
        night = simulate(players=9, rounds=3, seed=2, movement="rotation", entry="totals")  # a chart, numbers
    return json.dumps(backup.night_export(night))


def exported(kind: str = "hands") -> dict:
    data = json.loads(_exported(kind))
    Night.objects.filter(uid=data["night"]["uid"]).delete()  # restoring into another installation
    return data


def signed(data: dict) -> bytes:
    """The file with its checksum made to match its edited content, as someone who edits it by hand would."""
    payload = {key: value for key, value in data.items() if key != "checksum"}
    return json.dumps({**payload, "checksum": hashlib.sha256(backup._canonical(payload)).hexdigest()}).encode()


def refused(raw: bytes, words: str) -> str:
    """Restore `raw`, expecting a refusal saying `words`; nothing may have been written, not even for a moment."""
    players = Player.objects.count()
    with CaptureQueriesContext(connection) as statements, pytest.raises(ValidationError) as caught:
        backup.night_restore(raw=raw)
    message = caught.value.message_dict["file"][0]
    assert words in message
    writes = [
        q["sql"] for q in statements.captured_queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE"))
    ]
    assert writes == []
    assert not Night.objects.exists() and Player.objects.count() == players
    return message


def first_result(data: dict) -> dict:
    return data["rounds"][0]["results"][0]


def as_totals(result: dict, ns: int, ew: int) -> None:
    """A table's game as if entered from the score sheet."""
    result.update(entry="totals", hands=[], hands_played=None, ns=ns, ew=ew, tie_break="")
    result["winner"] = "NS" if ns > ew else "EW"


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def edit(path: str, value):
    """An edit setting one value, by its path from the file's top ("rounds.0.results.0.ns")."""

    def apply(data: dict) -> None:
        *parents, last = path.split(".")
        here = data
        for step in parents:
            here = here[int(step)] if isinstance(here, list) else here[step]
        here[int(last) if isinstance(here, list) else last] = value

    return apply


def both(*edits):
    """Several edits as one."""

    def apply(data: dict) -> None:
        for change in edits:
            change(data)

    return apply


def same(*paths: str, value: str = "same"):
    """An edit giving the same value at each of `paths` (what must be unique, twice)."""
    return both(*(edit(path, value) for path in paths))


def score_moved(data: dict) -> None:
    """A game's losing side given a point more (or less), the score still one the night could have: its table's
    history still says the score that went in. (A prize can move on one point.)"""
    result = first_result(data)
    loser = "ew" if result["winner"] == "NS" else "ns"
    result[loser] += 1 if result[loser] < 5 else -1


def chartless(data: dict) -> None:
    data["night"]["chart"] = data["night"]["chart_size"] = None
    for row in data["players"]:
        row["number"] = None


def won_by_the_wrong_side(data: dict) -> None:
    as_totals(first_result(data), 6, 9)
    first_result(data)["winner"] = "NS"


R0 = "rounds.0"
RESULT = "rounds.0.results.0"
HAND = "rounds.0.results.0.hands.0"
ENTRY = "rounds.0.submissions.0"

CASES = [
    # (id, which night, the edit, words the refusal says)
    ("movement-bogus", "hands", edit("night.movement", "bogus"), "The night: “movement”: Value 'bogus' is not a valid"),
    ("fill-bogus", "hands", edit("night.fill", "nobody"), "“fill”: Value 'nobody' is not a valid choice."),
    ("night-status-bogus", "hands", edit("night.status", "bogus"), "“status”: Value 'bogus' is not a valid choice."),
    ("games-10**30", "hands", edit("night.games", 10**30), "“games” is 1000000000000000000000000000000, outside"),
    ("games-over-the-form's-64", "hands", edit("night.games", 65), "“games”: Ensure this value is less than or equal"),
    ("tie-chain-unknown", "hands", edit("night.tie_chain", "total,luck"), "Unknown tie-break 'luck'"),
    ("night-name-too-long", "hands", edit("night.name", "N" * 121), "“name”: Ensure this value has at most 120"),
    ("date-impossible", "hands", edit("night.date", "2026-02-30"), '“date” is "2026-02-30", which is not a date.'),
    ("date-words", "hands", edit("night.date", "next Tuesday"), '“date” is "next Tuesday", which is not a date.'),
    ("uid-bogus", "hands", edit("night.uid", "not-a-uuid"), "“uid”: “not-a-uuid” is not a valid UUID."),
    ("keeper-bad-name", "hands", edit("night.keepers", ["kate!"]), 'The night\'s keeper 1: “keepers” "kate!": Enter'),
    ("rules-a-list", "hands", edit("night.rules", [1, 2]), "“rules” should be a record of named numbers"),
    (
        "rules-7-tricks",
        "hands",
        edit("night.rules.tricks_per_hand", 7),
        "A hand has 5 tricks (euchre), 6 (bid euchre) or 12",
    ),
    ("rules-a-string-number", "hands", edit("night.rules.makers_point", "1"), "“makers_point” must be a whole number"),
    ("rules-past-the-form", "hands", edit("night.rules.alone_march", 10**30), "from -99 to 99, not 1000000000000"),
    ("rules-nul-in-a-key", "hands", edit("night.rules.x\x00", 1), "“rules” holds a NUL character"),
    ("chart-a-list", "hands", edit("night.chart", [1, 2]), "rotation chart: “chart” should be a record"),
    ("chart-seats-twice", "rotation", edit("night.chart.rounds.0.tables.0.0", 0), "game 1 does not seat each of"),
    ("chart-size-differs", "rotation", edit("night.chart_size", 12), "“chart_size” is 12, yet its chart is for 9."),
    ("chart-number-past-it", "rotation", edit("players.0.number", 10), "the night's chart numbers are 1 to 9."),
    ("chart-lost", "rotation", chartless, "it plays a rotation chart, yet the file has none"),
    ("keeper-nobody", "hands", edit("night.keepers", [None]), "The night's keeper 1: “keepers” must be a login"),
    ("chart-number-without-a-chart", "hands", edit("players.0.number", 3), "yet the night has no rotation chart"),
    (
        "house-key-a-number",
        "hands",
        both(edit("players.0.house", True), edit("players.0.key", 7)),
        "“key” must be text",
    ),
    ("house-key-house:x", "hands", both(edit("players.0.house", True), edit("players.0.key", "house:x")), "a house"),
    ("key-twice", "hands", same("players.0.key", "players.1.key"), 'Player 2: “key” "same" is also player 1'),
    ("key-100-characters", "hands", edit("players.0.key", "k" * 100), "“key” must be 1 to 80 characters long"),
    ("name-nul", "hands", edit("players.0.name", "Ann\x00Smith"), "“name” holds a NUL character (a zero byte)"),
    ("name-10000", "hands", edit("players.0.name", "A" * 10_000), "at most 80 characters (it has 10000)."),
    ("name-invisible", "hands", edit("players.0.name", "\u200b "), "“name” has nothing in it to show"),
    ("bye-offset-10**30", "hands", edit("players.0.bye_offset", 10**30), "outside the range 0 to 32767."),
    ("bye-offset-a-string", "hands", edit("players.0.bye_offset", "0"), '“bye_offset” must be a whole number, not "0"'),
    ("bye-offset-a-float", "hands", edit("players.0.bye_offset", 1.5), "“bye_offset” must be a whole number, not 1.5"),
    ("checked-in-a-number", "hands", edit("players.0.checked_in", 1), "“checked_in” must be true or false, not 1."),
    ("code-letters", "hands", edit("players.0.code", "abcd"), "is not a confirmation code of 4 digits."),
    ("card-twice", "hands", same("players.0.card", "players.1.card", value=99), "Tally-card number 99 is also"),
    ("round-status-bogus", "hands", edit(f"{R0}.status", "bogus"), "Game 1: “status”: Value 'bogus' is not a valid"),
    ("round-number-skips", "hands", edit("rounds.1.number", 5), "Game 2: “number” is 5: the night's games are"),
    ("round-open-before-the-last", "hands", edit(f"{R0}.status", "playing"), "every game but the last is closed."),
    ("round-time-bogus", "hands", edit(f"{R0}.started_at", "soon"), '“started_at” is "soon", which is not a date'),
    ("round-time-naive", "hands", edit(f"{R0}.started_at", "2026-12-01T20:00:00"), "a time without its time zone."),
    ("round-time-overflows", "hands", edit(f"{R0}.closed_at", "9999-12-31T23:59:59-05:00"), "which is not a date"),
    ("paused-10**30", "hands", edit(f"{R0}.paused_left", 1e30), "“paused_left” is the seconds left on a paused"),
    ("paused-nan", "hands", edit(f"{R0}.paused_left", float("nan")), "not NaN."),
    ("token-a-bool", "hands", edit(f"{R0}.token", True), "“token” must be a whole number, not true."),
    ("bell-reason-bogus", "hands", edit(f"{R0}.bell_reason", "luck"), "“bell_reason”: Value 'luck' is not a valid"),
    ("seat-letter-Q", "hands", edit(f"{R0}.seats.0.1", "Q"), "seat 1: “seat”: Value 'Q' is not a valid choice."),
    ("seat-unknown-key", "hands", edit(f"{R0}.seats.0.2", "zed"), 'it seats "zed", who is not among the night\'s'),
    ("seat-table-0", "hands", edit(f"{R0}.seats.0.0", 0), "“table” is 0: tables are numbered from 1."),
    ("seat-not-a-triple", "hands", edit(f"{R0}.seats.0", [1, "N"]), "a seat is [table, seat letter, player's key]"),
    ("seat-missing", "hands", lambda data: data["rounds"][0]["seats"].pop(), "has 3 seats filled: a table seats"),
    ("bye-unknown-key", "hands", edit(f"{R0}.byes.0.0", "zed"), 'bye 1: it names "zed", who is not among'),
    ("result-5000-0-hands", "hands", both(edit(f"{RESULT}.ns", 5000), edit(f"{RESULT}.ew", 0)), "its hands add up"),
    ("result-5000-0", "hands", lambda d: as_totals(first_result(d), 5000, 0), "“ns” is 5000, more than 8 hands"),
    ("result-status-bogus", "hands", edit(f"{RESULT}.status", "bogus"), "table 1: “status”: Value 'bogus' is not"),
    ("result-winner-wrong", "hands", won_by_the_wrong_side, "a game of 6–9 is won by EW, with no “tie_break”."),
    ("result-winner-bogus", "hands", edit(f"{RESULT}.winner", "XX"), "“winner”: Value 'XX' is not a valid choice."),
    ("result-tie-undecided", "hands", lambda d: as_totals(first_result(d), 7, 7), "a tied game (7–7) says how"),
    ("result-hands-played-10**30", "hands", edit(f"{RESULT}.hands_played", 10**30), "“hands_played” is 10000000"),
    ("result-version-a-bool", "hands", edit(f"{RESULT}.version", True), "“version” must be a whole number, not true"),
    ("result-for-an-empty-table", "hands", edit(f"{RESULT}.table", 9), "nobody sits at table 9 in this game."),
    ("result-entered-by-bad", "hands", edit(f"{RESULT}.entered_by", 42), "“entered_by” must be a login name"),
    ("result-missing", "hands", lambda data: data["rounds"][0]["results"].pop(0), "closed, yet table 1's score"),
    ("hand-tricks-9", "hands", edit(f"{HAND}.tricks", 9), "The makers' tricks must be between 0 and 5."),
    ("hand-dealer-bogus", "hands", edit(f"{HAND}.dealer", "X"), "hand 1: “dealer”: Value 'X' is not a valid choice."),
    ("hand-points-edited", "hands", edit(f"{HAND}.ns", 40), "under the night's rules this hand gives"),
    ("hand-time-null", "hands", edit(f"{HAND}.recorded_at", None), "“recorded_at” is empty (null)"),
    ("event-action-bogus", "hands", edit(f"{R0}.events.0.action", "dance"), "event 1: “action”: Value 'dance'"),
    ("event-cause-too-long", "hands", edit(f"{R0}.events.0.cause", "c" * 121), "at most 120 characters"),
    ("link-token-twice", "hands", same("table_links.0.token", "table_links.1.token"), 'The link\'s token "same"'),
    ("night-setup-with-games", "hands", edit("night.status", "setup"), "“status” is setup, yet the file has 3 games"),
    ("night-seed-lost", "hands", edit("night.seed", None), "“seed” is empty (null), yet its opening seating"),
    ("rounds-a-record", "hands", edit("rounds", {}), "This backup: “rounds” should be a list"),
    ("seats-missing", "hands", lambda data: data["rounds"][1].pop("seats"), "Game 2: “seats” is missing"),
    ("entry-key-100", "totals", edit(f"{ENTRY}.key", "k" * 100), "“key”: Ensure this value has at most 64 characters"),
    ("entry-5000-0", "totals", both(edit(f"{ENTRY}.ns", 5000), edit(f"{ENTRY}.ew", 0)), "“ns” is 5000, more than"),
    ("entry-role-bogus", "totals", edit(f"{ENTRY}.role", "bogus"), "score entry 1: “role”: Value 'bogus'"),
    ("entry-status-bogus", "totals", edit(f"{ENTRY}.status", "bogus"), "“status”: Value 'bogus' is not a valid"),
    ("entry-user-too-long", "totals", edit(f"{ENTRY}.user", "u" * 151), "at most 150 characters"),
    ("entry-reason-nul", "totals", edit(f"{ENTRY}.reason", "\x00"), "“reason” holds a NUL character"),
    ("entry-key-twice", "totals", same(f"{ENTRY}.key", f"{R0}.submissions.1.key"), 'The entry\'s key "same" is'),
    ("nested-30-deep", "hands", edit("night.venue", nested(30)), "its content is nested too deep"),
    ("score-moved-without-entry", "totals", score_moved, "differs from the one its table's history says went in"),
]


@pytest.mark.parametrize(("kind", "change", "words"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_an_edited_backup_is_refused_with_its_first_fault_and_nothing_written(kind, change, words):
    data = exported(kind)
    change(data)
    message = refused(signed(data), words)
    assert message.endswith("Nothing was restored.")


def test_the_cases_edit_what_they_say():
    """Each case's edit reaches the file: an unedited copy of either night restores."""
    for kind in ("hands", "totals", "rotation"):
        data = exported(kind)
        assert backup.night_restore(raw=signed(data))
        Night.objects.filter(uid=data["night"]["uid"]).delete()
    submissions = json.loads(_exported("totals"))["rounds"][0]["submissions"]
    assert len(submissions) >= 2


def raw_with(data: dict, venue: str) -> bytes:
    """The file as text with the venue's value replaced by raw JSON (which json.dumps could not write)."""
    data["night"]["venue"] = "VENUE"
    return json.dumps(data).replace('"VENUE"', venue).encode()


@pytest.mark.parametrize(
    ("venue", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "its content is nested too deep"),
        ("1" * 5000, "it holds a number far too long"),
        ('"\\ud800"', "not valid Unicode (a lone surrogate)"),
    ],
    ids=["100000-deep", "5000-digits", "lone-surrogate"],
)
def test_a_file_no_export_could_write_is_refused_before_its_checksum(venue, words):
    refused(raw_with(exported(), venue), words)


def test_a_file_far_larger_than_a_night_is_refused_unread(monkeypatch):
    raw = signed(exported())
    monkeypatch.setattr(backup, "MAX_BYTES", len(raw) - 1)
    refused(raw, "a night's backup is far smaller")


def test_a_version_given_as_true_is_not_version_1():
    data = exported()
    data["version"] = True
    refused(signed(data), "This backup is format version True")


def mid_game_house_night() -> Night:
    """House players, a game entered as totals with a tie, hands under way, drafts (one disputed), a paused and
    extended timer, and the rules changed mid-night."""
    night = services.night_create(name="House night", fill="house", games=4, auto_advance=True, minutes_per_game=20)
    register(night, 10)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=9))
    for table in (1, 2, 3):  # the head table's score rings the bell; the last one in closes game 1 by itself
        table_result_submit(round_=round_, table=table, ns_points=5, ew_points=5, last_hand_winner="EW")
    assert night.rounds.get(number=1).status == "closed"
    round_ = night.rounds.get(number=2)
    rng, ruleset = random.Random(1), rules.Ruleset.from_dict(night.rules)
    for _ in range(3):
        hand_record(round_=round_, table=1, hand=rules.Hand.of(random_hand(rng, "N", ruleset)))
    services.table_links_ensure(night=night)
    for table, side, ns in ((2, "NS", 4), (3, "NS", 4), (3, "EW", 6)):
        code = code_at(round_, table, side)
        table_draft_submit(round_=round_, table=table, ns_points=ns, ew_points=10 - ns, side=side, code=code)
    game.round_pause(round_=round_)
    game.round_extend(round_=night.rounds.get(number=2), minutes=5)
    hall = rules.PRESETS["hall-minus"]
    services.night_rules_update(night=night, preset="hall-minus", numbers=hall.as_dict(), confirm=True)
    night.refresh_from_db()
    return night


def rules_changed_after_totals() -> Night:
    """The head table's game entered as totals that only the night's first rules make (40–0 in 8 hands needs blind
    loners worth 8), then the rules changed: totals are not rescored, so the backup holds a total beyond today's
    rules, and must restore all the same."""
    night = services.night_create(name="Rules changed", scoring="blind-loner", games=2)
    register(night, 8)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=3))
    table_result_submit(round_=round_, table=1, ns_points=40, ew_points=0)
    standard = rules.PRESETS["standard"]
    services.night_rules_update(night=night, preset="standard", numbers=standard.as_dict(), confirm=True)
    with pytest.raises(rules.ScoringError):  # beyond today's rules, as the case needs
        rules.check_game_total(40, 8, standard)
    night.refresh_from_db()
    return night


def not_drawn_yet() -> Night:
    night = services.night_create(name="Not drawn yet")
    register(night, 6)
    return night


NIGHTS = {
    "rotation-totals": lambda: simulate(players=9, rounds=3, seed=2, movement="rotation", entry="totals"),
    "fixed-partners-with-arrivals": lambda: simulate(
        players=10, rounds=3, seed=5, movement="fixed-partners", arrive={2: 3}, leave={3: 2}
    ),
    "bid-euchre": lambda: simulate(players=8, rounds=2, seed=3, scoring="bid-euchre"),
    "blind-loner": lambda: simulate(players=8, rounds=2, seed=6, scoring="blind-loner"),
    "house-mid-game": mid_game_house_night,
    "rules-changed-after-totals": rules_changed_after_totals,
    "setup": not_drawn_yet,
}


@pytest.mark.parametrize("kind", list(NIGHTS))
def test_real_nights_of_every_kind_still_restore_to_the_same_file(kind):
    night = NIGHTS[kind]()
    raw = backup.night_backup_bytes(night)
    Night.objects.filter(pk=night.pk).delete()
    assert backup.night_backup_bytes(backup.night_restore(raw=raw)) == raw


def test_more_players_than_a_night_takes_is_refused(monkeypatch):
    # Past the most a night takes, the restore would hand out confirmation codes until they ran out (9,000).
    data = exported()
    monkeypatch.setattr(backup, "MAX_PLAYERS", len(data["players"]) - 1)
    refused(signed(data), f"it has {len(data['players'])} players; a night takes at most {len(data['players']) - 1}")
