"""Done when (#38, "The venue publishes to the club's site"): a night played at the venue, published once mid-night
and once at the end to the club's site, a separate server process with its own database, is there once, with the
same standings, sheets and money as the laptop's; every player with an e-mail gets one message (read from a real
SMTP server), whose link, opened on the site, shows the same numbers as their tally card."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from urllib.parse import urlsplit

import pytest

from tests.processes import django_shell, free_port, isolated_env, start_server, stop_server
from tests.tournament.test_player_results import _card_rows, _cards, _smtp_server
from tournament import selectors, services
from tournament.models import Club, Night, SignUp, sole_club_id
from tournament.rehearsal import simulate
from tournament.sheets import printing

# A separate server on a SQLite file of its own, as the venue's own process tests: the first pass only.
pytestmark = [pytest.mark.venue, pytest.mark.django_db]

# The files compared, built by the same registry on either side with the same base address. The tally cards and
# the table cards are not among them: their QR codes carry each installation's own results and table links.
FILES = ("standings", "prizes", "reconciliation", "seating", "score-sheets", "standings-csv", "hands-csv", "money-csv")
BASE = "http://headtable.test"

SITE_FILES = """
import hashlib, json
from tournament.models import Night
from tournament.sheets import printing
nights = list(Night.objects.filter(uid="{uid}"))
night = nights[0]
print(json.dumps({{
    "nights": len(nights),
    "all": Night.objects.count(),
    "club": night.club.slug,
    "status": night.status,
    "files": {{key: hashlib.sha256(printing.sheet_bytes(night, key, base_url="{base}")).hexdigest() for key in {keys}}},
    "night_id": night.pk,
}}))
"""


def _files(night: Night) -> dict[str, str]:
    return {key: hashlib.sha256(printing.sheet_bytes(night, key, base_url=BASE)).hexdigest() for key in FILES}


@pytest.fixture
def club_site(tmp_path):
    """The club's site: a server of its own (granian, as the run command starts it) on a database of its own, the
    club Birch on it with its publishing key (made by `manage.py club_key`), mail to a real SMTP server here."""
    controller, smtp_port, received = _smtp_server()
    port = free_port()
    env = isolated_env(tmp_path, "club_site")
    env |= {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "HEADTABLE_PHONE_URL": f"http://127.0.0.1:{port}",  # the site's own address, in the players' links
        "CELERY_TASK_ALWAYS_EAGER": "1",  # the site's mail task runs in the server process: no worker started here
    }
    printed = django_shell(  # one start of Django: the club added, then the operator's command for its key
        env,
        "from django.core.management import call_command; from tournament.services import clubs;"
        " clubs.club_add(name='Birch Euchre Club', slug='birch'); call_command('club_key', 'birch')",
    )
    key = re.search(r"\(/c/birch/\): (\S+)", printed).group(1)
    server = start_server(env, port, host="127.0.0.1")
    try:
        yield {"env": env, "port": port, "key": key, "received": received}
    finally:
        stop_server(server)
        controller.stop()


def test_a_night_published_twice_is_on_the_site_once_and_every_player_mailed_once(
    club_site, django_capture_on_commit_callbacks
):
    port, received = club_site["port"], club_site["received"]
    laptop = Club.objects.get(pk=sole_club_id())  # the laptop is one club (made on first need)
    Club.objects.filter(pk=laptop.pk).update(site_address=f"http://127.0.0.1:{port}/c/birch/", site_key="wrong")
    emails: dict[str, str] = {}
    said_mid: list[str] = []

    def publish(night: Night) -> str:
        """The night page's button (its view is tested in test_publish.py: this test uses no cache, as the venue's
        own process tests), and what the night page then says."""
        with django_capture_on_commit_callbacks(execute=True):
            services.night_publish_start(night=night)
        night.refresh_from_db()
        return selectors.publish_state(night).words

    def at_the_venue(night: Night, number: int) -> None:
        if number == 1:  # players who signed up with an e-mail (and one with a phone number)
            for entry in night.entries.filter(player__house=False).order_by("card")[:5]:
                contact = f"player{entry.card}@example.org" if entry.card != 3 else "555-0103"
                SignUp.objects.create(night=night, name=entry.name, contact=contact, status="in", entry=entry)
                if "@" in contact:
                    emails[contact] = entry.name
        if number == 2:  # mid-night: first with a wrong key (refused, in words), then with the club's
            said_mid.append(publish(night))
            Club.objects.filter(pk=laptop.pk).update(site_key=club_site["key"])
            said_mid.append(publish(night))

    night = simulate(
        players=10,
        rounds=4,
        seed=21,
        after_game=at_the_venue,
        money={"currency": "USD", "pre": 500, "door": 700, "member": None, "methods": ("cash", "card")},
    )
    assert "refused it: This publishing key is not the key of a club at this address" in said_mid[0]
    assert said_mid[1].startswith("Sent at")
    assert received == []  # the night under way: nobody mailed yet

    assert publish(night).startswith("Sent at")  # at the end
    assert publish(night).startswith("Sent at")  # and once more, the same night: nothing changes, nobody mailed twice

    site = json.loads(django_shell(club_site["env"], SITE_FILES.format(uid=night.uid, base=BASE, keys=FILES)))
    assert (site["nights"], site["all"], site["club"], site["status"]) == (1, 1, "birch", Night.Status.FINISHED)
    assert site["files"] == _files(night)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/nights/{site['night_id']}/standings.csv") as answer:
        public = answer.read()
    assert public == printing.sheet_bytes(night, "standings-csv", base_url=BASE, public=True)

    assert len(emails) == 4
    assert sorted(message["To"] for message in received) == sorted(emails)  # each once
    cards = _cards(night)
    for message in received:
        name = emails[message["To"]]
        link = re.search(r"https?://\S+", message.get_payload(decode=True).decode()).group(0)
        assert urlsplit(link).netloc == f"127.0.0.1:{port}"
        with urllib.request.urlopen(link) as answer:
            html = answer.read().decode()
        assert name in html
        assert _card_rows(html) == [
            (str(line.points) if line.bye else f"{line.tally}–{line.conceded}", str(line.running_total))
            for line in cards[name].lines
        ]
