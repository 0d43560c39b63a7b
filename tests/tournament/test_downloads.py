"""Every sheet and every CSV is one entry of the download registry, served by one view that checks who may have it
(#32, part 2, item 3).

The CSVs read as they did before they joined the registry: `data/csv_before.json` holds each CSV's bytes and type
as the code of 3 Dec 2026 served them (before the move), for stored nights of the simulator (a fundraiser with
refunds, pots and draws; a carried jackpot; a night with tables of three) and a season of two of them. It was made
with

    CSV_BEFORE=write .venv/bin/pytest tests/tournament/test_downloads.py -k reads_as_before

and is rewritten only where a CSV is changed on purpose (the diff then shows that change and nothing else).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament import backup, seasons

STORED = Path(__file__).parent / "data" / "stored"
CSV_BEFORE = Path(__file__).parent / "data" / "csv_before.json"
# Each night's CSVs by their address's name.
NIGHT_CSVS = ("standings_csv", "hands_csv", "money_csv")
READ_AT = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)


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
