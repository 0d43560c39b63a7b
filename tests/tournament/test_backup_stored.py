"""Backups kept from the code of their day still restore, to the same night (#32, part 2, item 1).

The files under tests/tournament/data/stored/ were written by the code as it was on 3 Dec 2026, before the backup
was declared as one codec per record kind: a fundraiser with money, refunds, side pots, draws and a tie's draw; a
jackpot carried from one night to the next; a rotation night entered as totals; nights with tables of three (hand
by hand, and fixed partners playing apart); a night with substitutes, sign-ups and a table's own score entries.

Each test restores its files into an empty database (its ids from 1, so the pages name the same ids) and reads the
night back as anyone would: every printed sheet, every CSV, the backup, and the main content of its pages. That is
compared, byte for byte, with what the code of that day read from the same restore (the `.pages.json` beside each
file), and the backup made again is the stored file itself.

Do not rewrite the backups (`<name>.json`) with later code: they stand for the backups people already have. A later
format adds files of its own. What they read (`.pages.json`) is rewritten only where a page was changed on purpose,
and the diff then shows that change and nothing else (so far: the public page naming the prizes as the prize table
gave them, and the Money page's draws numbered and keyed, both 3 Dec 2026; the Money CSV's times in the hall's
time zone, named in its column, and a comp as no money in, and the Money page's "the prizes leave", fixed amounts
taken off too, 3 Dec 2026; the Money CSV's side pots line by line, who won each named, and the sheets' headings
"after 3 games", not "3 game(s)", and each standings cell's name for a phone with large text (`data-label`),
5 Dec 2026; the reconciliation and the Money CSV's totals naming who each side pot paid, 5 Dec 2026). They were
made with

    STORED_BACKUPS=write .venv/bin/pytest tests/tournament/test_backup_stored.py -k make   # the backups
    STORED_BACKUPS=read .venv/bin/pytest tests/tournament/test_backup_stored.py -k restores  # what they read
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import game_under_way, play_round
from tournament import backup, game, seasons, services
from tournament.models import Entry, Night, Payment, Player
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

# Restored into an empty database whose ids start at 1: the pages show ids (a player's page, the forms' fields).
pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

STORED = Path(__file__).parent / "data" / "stored"
# Each case's files, restored in this order (a carry's night before the night that took it in, and the other way).
CASES = {
    "fundraiser": ("fundraiser",),
    "carry": ("carry-november", "carry-december"),
    "carry-taker-first": ("carry-december", "carry-november"),
    "rotation": ("rotation",),
    "threes": ("threes",),
    "fixed-partners-threes": ("fixed-partners-threes",),
    "substitutes": ("substitutes",),
}
FUNDRAISER = {
    **{"currency": "USD", "pre": 2000, "door": 2500, "member": None, "house_share": 10},
    "payouts": "high 40%, second 20%, low $5",
    "methods": ("cash", "card"),
}
# Every file of a night, by its address's name (PDFs are built invariant: the same night gives the same bytes).
FILES = (
    "standings_pdf",
    "prize_sheet_pdf",
    "reconciliation_pdf",
    "tally_cards_pdf",
    "table_cards_pdf",
    "seating_pdf",
    "score_sheets_pdf",
    "standings_csv",
    "hands_csv",
    "money_csv",
    "night_backup",
)
PAGES = ("public_night", "wishes", "money", "room_display", "night_detail", "night_fairness")


def _main(html: str) -> str:
    """A page's main content, without what differs at every request by design (a form's one-time keys, the
    server's clock for the countdowns)."""
    main = re.search(r"<main>(.*)</main>", html, re.S)
    assert main is not None
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", main.group(1))
    text = re.sub(r'name="([a-z0-9]+-)?key" value="[0-9a-f]*"', "", text)
    text = re.sub(r'data-server-now="[0-9]+"', "", text)
    return re.sub(r"(since|moved)=[0-9.]+", r"\1=", text)  # the live polls' last-change stamps


def _read(client: Client, night: Night) -> dict[str, str]:
    """The night as anyone reads it: every file (the PDFs by their SHA-256) and the main content of its pages."""
    seen: dict[str, str] = {}
    for name in FILES:
        response = client.get(reverse(f"tournament:{name}", args=[night.pk]))
        assert response.status_code == 200, name
        seen[name] = (
            response.content.decode()
            if name.endswith(("csv", "backup"))
            else hashlib.sha256(response.content).hexdigest()
        )
    for name in PAGES:
        response = client.get(reverse(f"tournament:{name}", args=[night.pk]))
        assert response.status_code == 200, name
        seen[name] = _main(response.content.decode())
    for player in night.entries.filter(player__house=False).order_by("player_id").values_list("player_id", flat=True):
        response = client.get(reverse("tournament:player_page", args=[night.pk, player]))
        assert response.status_code == 200
        seen[f"player {player}"] = _main(response.content.decode())
    return seen


# The code of that day listed a night's partner wishes in the order of its database's player ids, which a restore
# does not keep: a restored night lists them by the players' keys. These files had them otherwise.
WISHES_IN_DATABASE_ORDER = {"fundraiser"}


def _same_file(name: str, again: bytes, raw: bytes) -> None:
    """The restored night's backup is the stored file, byte for byte (its partner wishes in order, see above), but
    for what the file's day did not write: each player's results link (“results”, carried since 2026-12-04), which
    the restore gave each player new here and the backup now carries, one per player."""
    made, kept = json.loads(again), json.loads(raw)
    if not any("results" in row for row in kept["players"]):
        links = [row.pop("results", None) for row in made["players"] if not row["house"]]
        assert all(isinstance(link, str) and len(link) == 32 for link in links) and len(set(links)) == len(links)
        assert not any("results" in row for row in made["players"])  # a house player has none
        made["checksum"] = kept["checksum"]
        again = (json.dumps(made, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()
    if name not in WISHES_IN_DATABASE_ORDER:
        assert again == raw
        return
    assert again != raw
    made, kept = json.loads(again), json.loads(raw)
    for data in (made, kept):
        del data["checksum"]
        data["partner_wishes"].sort(key=lambda wish: (wish["kind"], wish["players"]))
    assert made == kept


def _organizer_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("organizer", password="pw", is_staff=True))
    return client


def _fixed_results_links() -> None:
    """Each player's results link (random, made on the roster, printed in the tally cards' QR codes) made fixed
    from their name, so the cards print the same bytes at every restore."""
    for player in Player.objects.filter(house=False):
        player.results_token = hashlib.sha256(player.name_key.encode()).hexdigest()[:32]
        player.save(update_fields=["results_token"])


# The pages are read the day after the files were made (the room display shows a draw only for a while after it).
READ_AT = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("case", CASES)
def test_a_backup_of_before_restores_to_the_same_night(case, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: READ_AT)
    client = _organizer_client()
    seen = {}
    for name in CASES[case]:
        raw = (STORED / f"{name}.json").read_bytes()
        night = backup.night_restore(raw=raw)
        _same_file(name, backup.night_backup_bytes(night), raw)
        _fixed_results_links()
        seen[name] = _read(client, night)
    path = STORED / f"{case}.pages.json"
    if os.environ.get("STORED_BACKUPS") == "read":
        path.write_text(json.dumps(seen, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert seen.keys() == kept.keys()
    for name, pages in seen.items():
        assert pages.keys() == kept[name].keys(), name
        for page, content in pages.items():
            assert content == kept[name][page], f"{name}: {page} reads otherwise after the restore"


# ---- how the files were made (once, with the code of their day) --------------------------------------------------


def _fundraiser() -> Night:
    for seed in range(1, 40):
        night = simulate(players=12, rounds=2, seed=seed, money=FUNDRAISER, never_share=0.2, name="Spring fundraiser")
        if any(award.tie and len(award.player_ids) == 2 for award in night_standings(night).awards):
            break
    tied = next(award for award in night_standings(night).awards if award.tie and len(award.player_ids) == 2)
    cards = dict(night.entries.values_list("player_id", "card"))
    services.keeper_add(night=night, username="kate", password="keep-score-1")
    entry = night.entries.filter(player__house=False).order_by("card").first()
    paid = entry.payments.first()
    # Refunded after the last game, as the code of that day allowed; a night that is over now keeps its cash
    # (`services.nights.require_unfinished`), so the line is written as that code wrote it.
    Payment.objects.create(night=night, entry=entry, cents=-500, method=paid.method, reason="left early")
    services.draw_make(night=night, title="Door prize", count=2, pool_kind="players")
    services.draw_make(night=night, title="50/50", count=1, pool_kind="tickets", tickets=40)
    services.draw_make(
        night=night,
        title=f"Tie for {tied.prize}",
        count=1,
        pool_kind="tie",
        prize=tied.key,
        tied=[cards[player] for player in tied.player_ids],
    )
    services.pot_line_add(night=night, pot="50/50", kind="in", cents=4000)
    services.pot_line_add(night=night, pot="50/50", kind="paid", cents=2000, reason="ticket 7")
    services.pot_line_add(night=night, pot="Jackpot", kind="in", cents=2500)
    services.pot_line_add(night=night, pot="Jackpot", kind="carried", cents=2500)
    return night


def _carry() -> tuple[Night, Night]:
    first = simulate(players=8, rounds=2, seed=3, name="November night")
    second = simulate(players=9, rounds=2, seed=6, name="December night", entry="totals")
    Night.objects.filter(pk=first.pk).update(date=dt.date(2026, 11, 3))
    Night.objects.filter(pk=second.pk).update(date=dt.date(2026, 12, 1))
    season = seasons.season_create(name="Winter league")
    seasons.season_nights_add(season=season, night_ids=[first.pk, second.pk])
    services.pot_line_add(night=first, pot="Jackpot", kind="in", cents=30000)
    services.pot_line_add(night=first, pot="Jackpot", kind="paid", cents=5000, reason="Ann")
    carry = services.pot_line_add(night=first, pot="Jackpot", kind="carried", cents=25000)
    services.pot_carry_take(night=second, line_id=carry.pk)
    return first, second


def _substitutes() -> Night:
    night = services.night_create(name="Substitutes night", venue="Parish hall", games=3, auto_advance=False)
    services.signup_settings(night=night, open=True, cap=None)
    services.signup_create(night=night, name="Sally Signup", contact="sally@example.org", category="red")
    withdrawn = services.signup_create(night=night, name="Walt Withdrew", contact="555-0101")
    services.signup_withdraw(signup=withdrawn)
    round_ = game_under_way(night, 7)  # with Sally: eight
    leaver = Entry.objects.get(night=night, player__name="Ann Kowalski")
    services.entry_substitute(entry=leaver, name="Zoe Quinn")
    while round_ is not None:
        scored = set(round_.results.values_list("table", flat=True))
        tables = sorted(set(round_.seatings.values_list("table", flat=True)) - scored)
        round_ = play_round(round_, {table: (10 - table, 4 + table) for table in tables})
        round_ = game.round_close(round_=round_)
    night.refresh_from_db()
    return night


@pytest.mark.skipif(os.environ.get("STORED_BACKUPS") != "write", reason="the stored backups are made once")
def test_make_the_stored_backups():
    nights = {
        "fundraiser": _fundraiser(),
        **dict(zip(("carry-november", "carry-december"), _carry(), strict=True)),
        "rotation": simulate(players=9, rounds=4, seed=11, movement="rotation", entry="totals", name="Rotation"),
        "threes": simulate(players=13, rounds=2, seed=5, fill="threes", name="Threes by hand"),
        "fixed-partners-threes": simulate(
            players=14, rounds=3, seed=4, movement="fixed-partners", entry="totals", fill="threes", name="Couples"
        ),
        "substitutes": _substitutes(),
    }
    STORED.mkdir(exist_ok=True)
    for name, night in nights.items():
        night.refresh_from_db()
        (STORED / f"{name}.json").write_bytes(backup.night_backup_bytes(night))
