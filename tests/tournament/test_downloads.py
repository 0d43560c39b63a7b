"""Every sheet and every CSV is one entry of the download registry, served by one view that checks who may have it
(#32, part 2, item 3).

The CSVs read as they did before they joined the registry: `data/csv_before.json` holds each CSV's bytes and type
as the code of 3 Dec 2026 served them (before the move), for stored nights of the simulator (a fundraiser with
refunds, pots and draws; a carried jackpot; a night with tables of three) and a season of two of them. It was made
with

    CSV_BEFORE=write .venv/bin/pytest tests/tournament/test_downloads.py -k reads_as_before

and is rewritten only where a CSV is changed on purpose (the diff then shows that change and nothing else; so far:
the Money CSV's side pots line by line, 5 Dec 2026; its totals naming who each side pot paid, 5 Dec 2026).
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils import timezone
from django.utils.text import slugify

from tests.conftest import game_under_way
from tournament import backup, seasons, services
from tournament.models import PrintJob
from tournament.sheets import printing
from tournament.sheets.printing import CSV, PDF, SHEETS, Audience
from tournament.views import player_results, sheets

STORED = Path(__file__).parent / "data" / "stored"
CSV_BEFORE = Path(__file__).parent / "data" / "csv_before.json"
# Each night's CSVs by their address's name.
NIGHT_CSVS = ("standings_csv", "hands_csv", "money_csv")
READ_AT = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)

# Every entry the download view serves: all but a player's results, which go by the player's own link.
BY_DOWNLOAD = {key: sheet for key, sheet in SHEETS.items() if sheet.audience != Audience.PLAYER}


def _restored() -> dict[str, object]:
    """The stored nights, restored, and a season of the two carry nights."""
    nights = {
        name: backup.night_restore(raw=(STORED / f"{name}.json").read_bytes())
        for name in ("fundraiser", "carry-november", "carry-december", "threes")
    }
    season = seasons.season_create(name="Winter league")
    seasons.season_nights_add(season=season, night_ids=[nights["carry-november"].pk, nights["carry-december"].pk])
    return {"nights": nights, "season": season}


@pytest.mark.django_db
def test_every_csv_reads_as_before(organizer_client, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: READ_AT)
    made = _restored()
    seen: dict[str, dict[str, str]] = {}
    urls = {
        f"{name} {csv}": reverse(f"tournament:{csv}", args=[night.pk])
        for name, night in made["nights"].items()
        for csv in NIGHT_CSVS
    }
    urls["season season_csv"] = reverse("scoring:season_csv", args=[made["season"].pk])
    for label, url in urls.items():
        response = organizer_client.get(url)
        assert response.status_code == 200, label
        seen[label] = {"type": response["Content-Type"], "body": response.content.decode("utf-8")}
    if os.environ.get("CSV_BEFORE") == "write":
        CSV_BEFORE.write_text(json.dumps(seen, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    kept = json.loads(CSV_BEFORE.read_text(encoding="utf-8"))
    assert seen.keys() == kept.keys()
    for label, now in seen.items():
        assert now["type"] == kept[label]["type"], label
        # byte for byte: the byte-order mark where there was one, none where there was none
        assert now["body"].encode("utf-8") == kept[label]["body"].encode("utf-8"), f"{label} reads otherwise"


# ---- one registry, one view ---------------------------------------------------------------------------------------


def _file_addresses() -> dict[str, URLPattern]:
    """Every address of the site that answers with a PDF or a CSV, by its name ("tournament:money_csv")."""
    found: dict[str, URLPattern] = {}

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
            elif str(pattern.pattern).endswith((".pdf", ".csv")):
                found[f"{namespace}{pattern.name}"] = pattern

    walk(get_resolver().url_patterns, "")
    return found


def test_every_file_address_is_one_entry_served_by_the_one_view():
    addresses = _file_addresses()
    keys = []
    results = addresses.pop("tournament:results_pdf")  # a player's results: by their own link, through the registry
    assert results.callback is player_results.results_pdf
    for name, pattern in addresses.items():
        assert pattern.callback is sheets.download, f"{name} is served outside the registry"
        key = pattern.default_args["key"]
        assert key in SHEETS, name
        assert str(pattern.pattern).endswith(f".{SHEETS[key].kind}"), name
        keys.append(key)
    # each entry has one address, each address one entry; a player's results sheet is the one exception: its
    # address is the player's own results link, served by that link's view (tests/tournament/test_player_results.py)
    assert sorted(keys) == sorted(BY_DOWNLOAD)
    assert {key for key, sheet in SHEETS.items() if sheet.audience == Audience.PLAYER} == {"player-results"}
    assert {sheet.kind for sheet in SHEETS.values()} == {PDF, CSV}


def _links(client: Client, url: str) -> set[str]:
    """The PDF and CSV files a page links to (their addresses with any query)."""
    response = client.get(url)
    assert response.status_code == 200, url
    hrefs = {html.unescape(href) for href in re.findall(r'href="([^"]+)"', response.content.decode())}
    return {href for href in hrefs if urlsplit(href).path.endswith((".pdf", ".csv"))}


@pytest.mark.django_db
def test_every_file_a_page_links_to_is_in_the_registry(organizer_client, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: READ_AT)
    made = _restored()
    nights = made["nights"]
    nights["rotation"] = backup.night_restore(raw=(STORED / "rotation.json").read_bytes())
    nights["under way"] = services.night_create(name="St Mary's Euchre Night", venue="Parish hall", games=3)
    game_under_way(nights["under way"], 8)
    pages = {
        night: [
            reverse(f"tournament:{page}", args=[night.pk])
            for page in ("night_detail", "money", "chart", "public_night", "room_display")
        ]
        + [reverse("scoring:table_links", args=[night.pk])]
        for night in nights.values()
    }
    season = made["season"]
    season_pages = [reverse(f"scoring:{page}", args=[season.pk]) for page in ("season_public", "season_edit")]
    linked: set[str] = set()
    for subject, urls in [*pages.items(), (season, season_pages)]:
        for link in set().union(*(_links(organizer_client, url) for url in urls)):
            address = urlsplit(link)
            match = resolve(address.path)
            assert match.func is sheets.download, f"{link} is served outside the registry"
            sheet = SHEETS[match.kwargs["key"]]
            linked.add(sheet.key)
            response = organizer_client.get(link)
            assert response.status_code == 200, link
            assert response["Content-Type"] == sheet.content_type, link
            if sheet.kind == PDF:
                assert response.content.startswith(b"%PDF"), link
            else:  # a header row, then a line for each row
                assert "," in response.content.decode("utf-8-sig").splitlines()[0], link
            # one naming scheme: the night's name and date (a season's name), what it is, its kind
            named = re.search(r'filename="([^"]+)"', response["Content-Disposition"]).group(1)
            prefix = f"{slugify(subject.name)}-" + ("" if subject is season else f"{subject.date:%Y-%m-%d}-")
            assert named.startswith(prefix) and named.endswith(f".{sheet.kind}"), (link, named)
            if dict(parse_qsl(address.query)).get("per_page"):
                assert f"-{dict(parse_qsl(address.query))['per_page']}-a-page" in named
    assert linked == set(BY_DOWNLOAD)  # and every entry is offered somewhere


def _route(key: str) -> str:
    return next(name for name, pattern in _file_addresses().items() if pattern.default_args.get("key") == key)


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(BY_DOWNLOAD))
def test_who_may_have_each_download(key, night, organizer_client):
    """An organizer's download (the money, every hand, the cards) is refused to anyone else: someone not signed in
    is asked to sign in, a signed-in player or score keeper is refused; a public one (the standings, the seating,
    the season's table) is anyone's."""
    sheet = SHEETS[key]
    # What the room already sees is anyone's; the rest (the money, every hand, the cards) the organizers' alone.
    assert (sheet.audience == Audience.PUBLIC) == (key in {"standings", "seating", "standings-csv", "season-csv"})
    game_under_way(night, 8)
    subject = night
    if sheet.subject is not type(night):
        subject = seasons.season_create(name="Winter league")
        seasons.season_nights_add(season=subject, night_ids=[night.pk])
    url = reverse(_route(key), args=[subject.pk])
    services.keeper_add(night=night, username="kate", password="keep-score-1")
    keeper = Client()
    keeper.force_login(get_user_model().objects.get(username="kate"))
    player = Client()
    player.force_login(get_user_model().objects.create_user("pat", password="pw"))
    anonymous = Client()

    assert organizer_client.get(url).status_code == 200
    answers = [client.get(url) for client in (anonymous, player, keeper)]
    if sheet.audience == Audience.PUBLIC:
        assert [answer.status_code for answer in answers] == [200, 200, 200]
        assert all(answer["Content-Type"] == sheet.content_type for answer in answers)
        return
    assert sheet.audience == Audience.ORGANIZER
    assert answers[0].status_code == 302 and answers[0]["Location"].startswith(reverse("login"))
    assert [answer.status_code for answer in answers[1:]] == [403, 403]
    for answer in answers:
        assert "Content-Disposition" not in answer and answer["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_csv_is_built_in_the_request_never_queued(night):
    for key in (key for key, sheet in SHEETS.items() if sheet.kind == CSV and sheet.subject is type(night)):
        with pytest.raises(ValueError, match="built in the request"):
            printing.print_job_start(night=night, sheet=key)
    assert not PrintJob.objects.exists()
