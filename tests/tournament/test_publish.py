"""The venue publishes to the club's site (#38): the site's endpoint (its refusals, a night sent again replacing the
club's copy, never a second one), the club's key, and the laptop's side (the site typed once, the button, a try
that is refused, not answered or sent)."""

from __future__ import annotations

import http.server
import json
import threading
from html import unescape
from io import StringIO

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.at_once import twice_at_once
from tournament import backup, services
from tournament.models import Club, Entry, Night, Player, SignUp
from tournament.rehearsal import simulate
from tournament.selectors import night_standings
from tournament.services import clubs

pytestmark = pytest.mark.django_db

SENDER = "Alder Laptop Club"


def _publish(client, slug: str, body: bytes, key: str | None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"} if key is not None else {}
    response = client.post(f"/c/{slug}/publish/", body, content_type="application/json", **headers)
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


# The files of `files`, played once per test process: they are another laptop's bytes, the same for every test.
_PLAYED: dict[str, object] = {}


@pytest.fixture
def files():
    """A night of 8 players over 4 games at another laptop: its backup after game 2 and at the end (two players
    with an e-mail), the night itself then gone from here, as it would never be on the site."""
    sender = clubs.club_add(name=SENDER)
    if not _PLAYED:
        _PLAYED.update(_played_elsewhere(sender))
    return dict(_PLAYED)


def _played_elsewhere(sender: Club) -> dict[str, object]:
    kept: dict[int, bytes] = {}

    def keep(night: Night, number: int) -> None:
        if number == 1:
            for entry in night.entries.order_by("card")[:2]:
                SignUp.objects.create(
                    night=night, name=entry.name, contact=f"p{entry.card}@example.org", status="in", entry=entry
                )
        kept[number] = backup.night_backup_bytes(night)

    night = simulate(players=8, rounds=4, seed=11, club=sender, after_game=keep)
    end = backup.night_backup_bytes(night)
    standings = [(row.rank_label, row.name, row.total, row.wins, row.cells) for row in night_standings(night).rows]
    night.delete()
    Player.objects.filter(club=sender).delete()
    return {"mid": kept[2], "end": end, "standings": standings}


@pytest.fixture
def site():
    """The hosted server's clubs: Birch (whose site the night goes to) and Cedar, each with its publishing key."""
    birch, cedar = clubs.club_add(name="Birch Euchre Club"), clubs.club_add(name="Cedar Euchre Club")
    return {
        "birch": birch,
        "cedar": cedar,
        "key": services.club_key_new(club=birch),
        "cedar_key": services.club_key_new(club=cedar),
    }


def _nights(club: Club) -> list[Night]:
    return list(Night.objects.filter(club=club))


def test_the_key_is_printed_once_and_only_its_hash_kept(db):
    club = clubs.club_add(name="Birch Euchre Club", slug="birch")
    out = StringIO()
    call_command("club_key", "birch", stdout=out)
    key = out.getvalue().split(": ", 1)[1].split()[0]
    club.refresh_from_db()
    assert len(key) >= 40 and key not in club.publish_key_hash
    assert club.publish_key_hash == services.publish.key_hash(key)
    call_command("club_key", "birch", stdout=StringIO())  # a new key: the old one stops
    club.refresh_from_db()
    assert club.publish_key_hash != services.publish.key_hash(key)


def test_refused_without_the_club_s_key(client, files, site):
    slug = site["birch"].slug
    cases = {
        "no key": (slug, None),
        "a wrong key": (slug, "not-the-key"),
        "another club's key": (slug, site["cedar_key"]),
        "no such club": ("no-such-club", site["key"]),
    }
    for case, (address, key) in cases.items():
        status, said = _publish(client, address, files["end"], key)
        assert status == 403, case
        assert not said["ok"] and "key" in said["message"], case
        # a mistyped short address is the likeliest slip: the words send the organizer to it as well as to the key
        assert key is None or "check the club's short address" in said["message"], case
    assert Night.objects.count() == 0
    assert client.get(f"/c/{slug}/publish/").status_code == 405


@pytest.mark.parametrize(
    "body, words",
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", "not a Head Table night backup"),
        (json.dumps({"format": "headtable-night"}).encode(), ""),
        (b"x" * 3_000_000, "not JSON"),  # above Django's 2.5 MB for a form's body: read as a file, not refused as one
    ],
)
def test_anything_not_a_night_is_refused_in_words(client, site, body, words):
    status, said = _publish(client, site["birch"].slug, body, site["key"])
    assert status == 400 and not said["ok"]
    assert words in said["message"] and said["message"]
    assert Night.objects.count() == 0


def test_a_body_past_a_backup_s_size_is_refused(client, files, site, monkeypatch):
    monkeypatch.setattr(backup, "MAX_BYTES", len(files["end"]) - 1)
    status, said = _publish(client, site["birch"].slug, files["end"], site["key"])
    assert status == 413 and "larger" in said["message"]
    assert Night.objects.count() == 0


def test_published_twice_is_one_night_with_the_same_standings(client, files, site, django_capture_on_commit_callbacks):
    birch, key = site["birch"], site["key"]
    status, said = _publish(client, birch.slug, files["mid"], key)
    assert (status, said.get("outcome")) == (201, backup.MADE), said
    (night,) = _nights(birch)
    assert night.status == Night.Status.PLAYING
    assert _publish(client, birch.slug, files["mid"], key)[1]["outcome"] == backup.UNCHANGED

    # the club's choices on its own site, made between the two
    Night.objects.filter(pk=night.pk).update(results_public=True)
    shy = Entry.objects.filter(night=night, player__house=False).order_by("card").last()
    Player.objects.filter(pk=shy.player_id).update(unlisted=True)
    token = shy.player.results_token

    with django_capture_on_commit_callbacks(execute=True):
        status, said = _publish(client, birch.slug, files["end"], key)
    assert (status, said["outcome"]) == (200, backup.REPLACED)
    (again,) = _nights(birch)
    assert again.pk == night.pk and again.uid == night.uid  # the same night at the same address
    assert again.status == Night.Status.FINISHED
    assert [(row.rank_label, row.name, row.total, row.wins, row.cells) for row in night_standings(again).rows] == files[
        "standings"
    ]
    # the site's copy is the file, but for the player the club left off its lists there, who stays off them
    copy = json.loads(backup.night_backup_bytes(again))
    assert copy["checksum"] == backup.as_restored_checksum(json.loads(files["end"]), birch.pk)
    assert [row["key"] for row in copy["players"] if row.get("unlisted")] == [shy.player.name_key]
    assert not any(row.get("unlisted") for row in json.loads(files["end"])["players"])
    assert again.results_public
    shy.player.refresh_from_db()
    assert shy.player.unlisted and shy.player.results_token == token
    assert sorted(message.to[0] for message in mail.outbox) == ["p1@example.org", "p2@example.org"]
    assert "e-mail" in said["message"]

    before = backup.night_backup_bytes(again)
    with django_capture_on_commit_callbacks(execute=True):
        status, said = _publish(client, birch.slug, files["end"], key)  # the same bytes: nothing changes
    assert (status, said["outcome"]) == (200, backup.UNCHANGED)
    assert backup.night_backup_bytes(Night.objects.get(pk=night.pk)) == before
    assert len(mail.outbox) == 2  # nobody mailed twice
    assert Night.objects.count() == 1


# Threads on the test database: PostgreSQL's pass only (tests/at_once.py says why).
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_first_publishes_at_the_same_moment_make_one_night(files, site):
    """The Publish button and the task after a game sending a new night at the same moment: both are taken, the
    second as the first's night (unchanged), never refused as a clash."""
    from django.test import Client

    answers = twice_at_once(lambda: _publish(Client(), site["birch"].slug, files["mid"], site["key"]))
    assert sorted((status, said.get("outcome")) for status, said in answers) == [
        (200, backup.UNCHANGED),
        (201, backup.MADE),
    ], answers
    (night,) = _nights(site["birch"])
    assert json.loads(backup.night_backup_bytes(night))["checksum"] == json.loads(files["mid"])["checksum"]


def test_a_replace_keeps_who_was_mailed(client, files, site, django_capture_on_commit_callbacks):
    birch, key = site["birch"], site["key"]
    _publish(client, birch.slug, files["mid"], key)
    mailed = Entry.objects.filter(night__club=birch, signup__isnull=False).order_by("card").first()
    Entry.objects.filter(pk=mailed.pk).update(results_mailed_at="2026-12-01T21:00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        _publish(client, birch.slug, files["end"], key)
    assert [message.to[0] for message in mail.outbox] == ["p2@example.org"]
    assert Entry.objects.get(night__club=birch, player_id=mailed.player_id).results_mailed_at is not None


def test_wrong_keys_from_one_address_are_slowed(client, site):
    answers = [_publish(client, site["birch"].slug, b"{}", "guess")[0] for _ in range(50)]
    assert answers == [403] * 10 + [429] * 40
    # the right key still gets in from the same address (behind a proxy, every club's laptop has the same one)
    assert _publish(client, site["birch"].slug, b"{}", site["key"])[0] == 400


def test_the_site_s_own_night_page_has_no_publish_box(client, files, site, django_user_model):
    _publish(client, site["birch"].slug, files["end"], site["key"])
    client.force_login(clubs.account_add(club=site["birch"], username="birch-org", password="pw-12345", staff=True))
    page = client.get(reverse("tournament:night_detail", args=[Night.objects.get().pk]))
    assert page.status_code == 200 and 'id="publish"' not in page.content.decode()


def test_a_night_from_the_venue_says_on_the_site_that_changes_made_there_are_replaced(client, files, site):
    """The site's copy of a venue's night takes scores at its desk like any night; its page and its desk say that
    the venue's next send replaces what is changed there (a keeper's score typed on the site was lost unseen)."""
    birch, key = site["birch"], site["key"]
    _publish(client, birch.slug, files["mid"], key)
    night = Night.objects.get(club=birch)
    client.force_login(clubs.account_add(club=birch, username="birch-org", password="pw-12345", staff=True))
    told = "This night comes from the venue's laptop"
    assert told in client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    desk = client.get(reverse("scoring:keeper_desk", args=[night.pk]))
    assert desk.status_code == 200 and told in desk.content.decode()
    made_here = services.night_create(name="Made on the site", club=birch)
    assert told not in client.get(reverse("tournament:night_detail", args=[made_here.pk])).content.decode()


def test_a_finished_night_on_the_site_is_not_changed(client, files, site):
    birch, key = site["birch"], site["key"]
    _publish(client, birch.slug, files["end"], key)
    before = backup.night_backup_bytes(Night.objects.get(club=birch))
    status, said = _publish(client, birch.slug, files["mid"], key)
    assert status == 409 and not said["ok"]
    assert "finished" in said["message"] and "Nothing was restored" in said["message"]
    assert backup.night_backup_bytes(Night.objects.get(club=birch)) == before


def _laptop_file(*, organizer_name: str, shy: bool) -> tuple[bytes, str]:
    """A finished night's file from another laptop whose organizer's account is `organizer_name` (it kept the
    night's keepers and moves under that name), with its last player left off public lists if `shy`; the night
    is then gone from here. Gives the file and that player's name."""
    from django.contrib.auth import get_user_model

    from tournament.models import Membership, RoundEvent

    sender = clubs.club_add(name=SENDER)
    night = simulate(players=8, rounds=2, seed=5, club=sender)
    organizer = get_user_model().objects.create_user(organizer_name, password="pw")
    Membership.objects.create(user=organizer, club=sender)
    night.keepers.add(organizer)
    RoundEvent.objects.filter(round__night=night).update(by=organizer)
    player = Entry.objects.filter(night=night, player__house=False).order_by("card").last().player
    Player.objects.filter(pk=player.pk).update(unlisted=shy)
    raw = backup.night_backup_bytes(night)
    night.delete()
    Player.objects.filter(club=sender).delete()
    return raw, player.name


def test_a_finished_night_sent_again_unchanged_is_unchanged_though_its_organizer_s_name_is_another_club_s(client, site):
    """The laptop's organizer is "organizer", a name another club's account holds here: the site's copy names
    nobody where the file names them, and the same file sent again is still the same night (it was refused)."""
    raw, _name = _laptop_file(organizer_name="organizer", shy=False)
    birch, key = site["birch"], site["key"]
    assert _publish(client, birch.slug, raw, key)[1]["outcome"] == backup.MADE
    (night,) = _nights(birch)
    assert night.status == Night.Status.FINISHED and not night.keepers.exists()
    before = backup.night_backup_bytes(night)
    status, said = _publish(client, birch.slug, raw, key)
    assert (status, said["ok"], said["outcome"]) == (200, True, backup.UNCHANGED), said
    assert backup.night_backup_bytes(Night.objects.get(club=birch)) == before
    # a night changed on the laptop since is still refused
    edited = json.loads(raw)
    edited["night"]["name"] = "Renamed at home"
    payload = {k: v for k, v in edited.items() if k != "checksum"}
    edited["checksum"] = backup.hashlib.sha256(backup._canonical(payload)).hexdigest()
    status, said = _publish(client, birch.slug, json.dumps(edited).encode(), key)
    assert status == 409 and "finished" in said["message"]


def test_a_player_left_off_public_lists_at_the_venue_is_off_the_club_s_lists_too(client, site):
    raw, name = _laptop_file(organizer_name="venue-organizer", shy=True)
    birch, key = site["birch"], site["key"]
    assert _publish(client, birch.slug, raw, key)[1]["outcome"] == backup.MADE
    (night,) = _nights(birch)
    player = Player.objects.get(club=birch, name=name)
    assert player.unlisted
    public = client.get(reverse("tournament:public_night", args=[night.pk])).content.decode()
    assert name not in public and "A player" in public
    # a file never lists anyone anew: the same player off the lists on the site, sent as listed, stays off them
    listed = json.loads(raw)
    for row in listed["players"]:
        row.pop("unlisted", None)
    payload = {k: v for k, v in listed.items() if k != "checksum"}
    listed["checksum"] = backup.hashlib.sha256(backup._canonical(payload)).hexdigest()
    assert _publish(client, birch.slug, json.dumps(listed).encode(), key)[1]["outcome"] == backup.UNCHANGED
    player.refresh_from_db()
    assert player.unlisted


def test_each_player_s_results_link_is_the_same_on_the_club_s_site(client, files, site):
    """The link on a player's tally card (and in their e-mail) opens on the club's site the night is published to:
    a player new there keeps the laptop's link; one whose link another player of the server already has gets a
    new one (never two players with one link); a link in the file that is not one is refused."""
    birch, cedar, key = site["birch"], site["cedar"], site["key"]
    sent = {row["key"]: row["results"] for row in json.loads(files["end"])["players"] if not row["house"]}
    first = next(iter(sorted(sent)))
    Player.objects.create(club=cedar, name="Someone Else", results_token=sent[first])  # cedar's player has it
    assert _publish(client, birch.slug, files["end"], key)[1]["outcome"] == backup.MADE
    here = dict(Player.objects.filter(club=birch, house=False).values_list("name_key", "results_token"))
    assert {k: v for k, v in here.items() if k != first} == {k: v for k, v in sent.items() if k != first}
    assert here[first] != sent[first] and len(here[first]) == 32
    player = Player.objects.get(club=birch, name_key=next(k for k in sent if k != first))
    page = client.get(reverse("tournament:results", args=[sent[player.name_key]]))
    assert page.status_code == 200 and player.name in page.content.decode()
    assert _publish(client, birch.slug, files["end"], key)[1]["outcome"] == backup.UNCHANGED  # still the same night
    bad = json.loads(files["mid"])
    bad["players"][0]["results"] = "../../admin"
    payload = {k: v for k, v in bad.items() if k != "checksum"}
    bad["checksum"] = backup.hashlib.sha256(backup._canonical(payload)).hexdigest()
    with pytest.raises(ValidationError, match="“results” must be a results link"):
        backup.night_restore(raw=json.dumps(bad).encode(), club=cedar)
    assert not Night.objects.filter(club=cedar).exists()


def test_the_tally_card_s_results_link_is_the_club_s_site_when_the_laptop_publishes_there(db):
    from tournament.sheets.printing import Options, sheet_of

    night = simulate(players=8, rounds=1, seed=3)
    cards = sheet_of("tally-cards").read(night, Options(base_url="http://192.168.1.20:8000"))
    entry = night.entries.filter(player__house=False).order_by("card").first()
    card = next(card for card in cards.cards if card.number == entry.card)
    assert card.results_url == f"http://192.168.1.20:8000/results/{entry.player.results_token}/"
    services.club_site_set(club=night.club, address="https://euchre.example.org/c/alder/", key="k" * 40)
    night.refresh_from_db()
    cards = sheet_of("tally-cards").read(night, Options(base_url="http://192.168.1.20:8000"))
    card = next(card for card in cards.cards if card.number == entry.card)
    assert card.results_url == f"https://euchre.example.org/results/{entry.player.results_token}/"


def test_another_club_s_night_is_refused_without_naming_it(client, files, site):
    _publish(client, site["birch"].slug, files["mid"], site["key"])
    status, said = _publish(client, site["cedar"].slug, files["end"], site["cedar_key"])
    assert status == 400 and "another club's" in said["message"]
    name = json.loads(files["end"])["night"]["name"]
    assert name not in said["message"] and site["birch"].name not in said["message"]
    assert _nights(site["cedar"]) == [] and len(_nights(site["birch"])) == 1


def test_the_club_s_short_address_typed_in_capitals_is_the_club(client, files, site):
    status, said = _publish(client, site["birch"].slug.upper(), files["mid"], site["key"])
    assert status == 201 and said["outcome"] == "made", said
    assert len(_nights(site["birch"])) == 1


def test_a_changed_file_is_refused_by_its_checksum(client, files, site):
    data = json.loads(files["end"])
    data["night"]["name"] = "Edited"
    status, said = _publish(client, site["birch"].slug, json.dumps(data).encode(), site["key"])
    assert status == 400 and "checksum" in said["message"].lower()


# ---- the laptop's side ----------------------------------------------------------------------------------------------


class Site:
    """A stand-in club site on this machine answering every publish with `status` and `message`."""

    def __init__(self, status: int = 200, message: str = "On the site."):
        self.status, self.message, self.got = status, message, []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.got.append((self.path, self.headers["Authorization"], body))
                answer = json.dumps({"ok": outer.status < 300, "message": outer.message}).encode()
                self.send_response(outer.status)
                if 300 <= outer.status < 400:
                    self.send_header("Location", "http://127.0.0.1:9/elsewhere/")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"http://127.0.0.1:{self.server.server_address[1]}/c/birch/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stand_in():
    site = Site()
    yield site
    site.close()


def test_the_club_s_site_is_typed_once_https_or_this_machine(organizer_client, night):
    url = reverse("tournament:club_site")
    answer = organizer_client.post(url, {"address": "http://euchre.example.org/c/birch/", "key": "k" * 43})
    assert answer.status_code == 200 and "https://" in answer.content.decode()
    answer = organizer_client.post(url, {"address": "https://euchre.example.org/c/birch", "key": ""})
    assert "publishing key" in answer.content.decode()
    organizer_client.post(url, {"address": "https://euchre.example.org/c/birch", "key": "k" * 43})
    club = Club.objects.get(pk=night.club_id)
    assert (club.site_address, club.site_key) == ("https://euchre.example.org/c/birch/", "k" * 43)
    page = organizer_client.get(url).content.decode()
    assert "k" * 43 not in page  # never shown again
    organizer_client.post(url, {"address": "http://127.0.0.1:8000/c/birch/", "key": ""})  # the key kept
    club.refresh_from_db()
    assert (club.site_address, club.site_key) == ("http://127.0.0.1:8000/c/birch/", "k" * 43)
    # the site's own address without the club's part is not where the club's nights go: said, nothing kept
    for elsewhere in ("https://euchre.example.org/birch/", "https://euchre.example.org/", "https://e.org/c/birch/?x"):
        answer = organizer_client.post(url, {"address": elsewhere, "key": ""})
        assert "ending in /c/ and the club" in answer.content.decode(), elsewhere
    # the club's public page (where players read) is not where the laptop sends: said, with the address to type
    answer = organizer_client.post(url, {"address": "https://euchre.example.org/public/c/birch/", "key": ""})
    assert "the same without /public: https://euchre.example.org/c/birch/" in answer.content.decode()
    answer = organizer_client.post(url, {"address": "HTTPS://EUCHRE.EXAMPLE.ORG/PUBLIC/C/birch", "key": ""})
    assert "the same without /public" in answer.content.decode()
    club.refresh_from_db()
    assert club.site_address == "http://127.0.0.1:8000/c/birch/"
    # a refusal of the old address or key is not left on a night once a new one is typed
    Night.objects.filter(pk=night.pk).update(publish_note="The site refused the key.", publish_asked_at=timezone.now())
    organizer_client.post(url, {"address": "https://euchre.example.org/c/birch/", "key": "n" * 43})
    assert Night.objects.get(pk=night.pk).publish_note == ""
    # what the site said of a night it took stays beside its "Sent at"
    said = "“Spring” was already on the club's site as sent: nothing changed."
    Night.objects.filter(pk=night.pk).update(publish_note=said, published_at=timezone.now())
    organizer_client.post(url, {"address": "https://euchre.example.org/c/birch/", "key": "m" * 43})
    assert Night.objects.get(pk=night.pk).publish_note == said
    # typed in capitals, the club's part is kept as the site's addresses are (lower-case), suggested the same way
    answer = organizer_client.post(url, {"address": "HTTP://127.0.0.1:8000/Public/C/Birch/", "key": ""})
    assert "the same without /public: http://127.0.0.1:8000/c/birch/" in answer.content.decode()
    organizer_client.post(url, {"address": "http://127.0.0.1:8000/C/Birch", "key": ""})
    club.refresh_from_db()
    assert club.site_address == "http://127.0.0.1:8000/c/birch/"


def test_a_night_refused_for_its_address_or_key_goes_once_the_right_ones_are_typed(
    organizer_client, stand_in, django_capture_on_commit_callbacks
):
    night = _laptop_night(stand_in.address.replace("/c/birch/", "/c/wrong/"))
    stand_in.status, stand_in.message = 403, "This publishing key is not this club's"
    with django_capture_on_commit_callbacks(execute=True):
        organizer_client.post(reverse("tournament:night_publish", args=[night.pk]))
    assert len(stand_in.got) == 1 and "refused it" in Night.objects.get(pk=night.pk).publish_note
    stand_in.status, stand_in.message = 200, "On the site."
    with django_capture_on_commit_callbacks(execute=True):  # the right address and key: the queued night goes now
        organizer_client.post(reverse("tournament:club_site"), {"address": stand_in.address, "key": "right-key"})
    assert [(path, key) for path, key, _ in stand_in.got[1:]] == [("/c/birch/publish/", "Bearer right-key")]
    page = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert "Sent at" in page and "sent when the site answers" not in page
    with django_capture_on_commit_callbacks(execute=True):  # the same address and key typed again send nothing
        organizer_client.post(reverse("tournament:club_site"), {"address": stand_in.address, "key": ""})
    assert len(stand_in.got) == 2


def _laptop_night(address: str) -> Night:
    night = simulate(players=8, rounds=2, seed=5)
    Club.objects.filter(pk=night.club_id).update(site_address=address, site_key="the-club-key")
    return night


def test_publish_sends_the_night_with_the_key_and_says_when(
    organizer_client, stand_in, django_capture_on_commit_callbacks
):
    night = _laptop_night(stand_in.address)
    page = reverse("tournament:night_detail", args=[night.pk])
    assert "Not published yet" in organizer_client.get(page).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        organizer_client.post(reverse("tournament:night_publish", args=[night.pk]))
    ((path, authorization, body),) = stand_in.got
    assert path == "/c/birch/publish/" and authorization == "Bearer the-club-key"
    assert body == backup.night_backup_bytes(night)
    night.refresh_from_db()
    assert night.published_at is not None
    assert "Sent at" in organizer_client.get(page).content.decode()
    # sent again as it was: the laptop says what the site said, not only the time
    stand_in.message = "It was already on the club's site as sent: nothing changed."
    with django_capture_on_commit_callbacks(execute=True):
        organizer_client.post(reverse("tournament:night_publish", args=[night.pk]))
    shown = unescape(organizer_client.get(page).content.decode())
    assert "Sent at" in shown and "The site said: It was already on the club's site as sent: nothing changed." in shown


def test_the_night_page_follows_a_queued_send_until_the_site_answers(organizer_client, stand_in):
    night = _laptop_night(stand_in.address)
    state = reverse("tournament:night_publish_state", args=[night.pk])
    before = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert f'hx-get="{state}" hx-trigger="every 20s"' in before  # a tab opened before Publish follows it too
    organizer_client.post(reverse("tournament:night_publish", args=[night.pk]))  # queued: the worker has not run
    page = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert f'hx-get="{state}"' in page and "sent when the site answers" in page
    polled = organizer_client.get(state).content.decode()
    assert "sent when the site answers" in polled and 'hx-trigger="every 3s"' in polled  # still waiting
    backup.night_publish_send(night_id=night.pk)  # the worker's try
    polled = unescape(organizer_client.get(state).content.decode())
    assert "Sent at" in polled and "The site said: On the site." in polled
    # answered: the poll slows down, and goes on, so a page opened before another tab's Publish follows it too
    assert 'hx-trigger="every 20s"' in polled
    assert organizer_client.post(state).status_code == 405


@pytest.mark.parametrize(
    "status, message, again, words",
    [
        (409, "the night is finished on the club's site", False, "refused it: the night is finished"),
        (403, "This publishing key is not this club's", False, "refused it: This publishing key"),
        (503, "", True, "answered 503"),
        (429, "wait a minute", True, "answered 429"),
        (302, "", False, "sent it elsewhere"),
        (404, "", False, "has no such address (status 404)"),
    ],
)
def test_the_site_s_answer_in_words(organizer_client, stand_in, status, message, again, words):
    stand_in.status, stand_in.message = status, message
    night = _laptop_night(stand_in.address)
    tried = backup.night_publish_send(night_id=night.pk)
    assert (tried.sent, tried.again) == (False, again)
    assert words in tried.words
    night.refresh_from_db()
    assert night.published_at is None and words in night.publish_note
    Night.objects.filter(pk=night.pk).update(publish_asked_at=timezone.now())  # as the button queued it
    page = organizer_client.get(reverse("tournament:night_detail", args=[night.pk])).content.decode()
    assert words.replace("'", "&#x27;") in page
    assert len(stand_in.got) == 1  # a redirect is not followed


def test_an_offline_laptop_tries_again_later_and_later(db):
    night = _laptop_night("http://127.0.0.1:9/c/birch/")  # nothing listens there
    tried = backup.night_publish_send(night_id=night.pk, tries=3)
    assert tried.again and "not reached (nothing answered at its address" in tried.words
    assert "Errno" not in tried.words and "in about 4 min" in tried.words
    assert "in about 30 s." in backup.night_publish_send(night_id=night.pk, tries=0).words  # the first wait
    assert [backup.retry_after(n) for n in range(8)] == [30, 60, 120, 240, 480, 960, 1800, 1800]
    last = backup.night_publish_send(night_id=night.pk, tries=199)
    assert not last.again and "Press Publish again" in last.words


def test_no_site_typed_the_button_says_so(organizer_client):
    night = simulate(players=8, rounds=1, seed=2)
    answer = organizer_client.post(reverse("tournament:night_publish", args=[night.pk]), follow=True)
    assert "Type the club&#x27;s site address and key first" in answer.content.decode()
    night.refresh_from_db()
    assert night.publish_asked_at is None


def test_publish_after_each_game_sends_at_every_close(stand_in, django_capture_on_commit_callbacks):
    Club.objects.update_or_create(
        slug="club", defaults={"name": "Our club", "site_address": stand_in.address, "site_key": "the-club-key"}
    )

    def live(night: Night, number: int) -> None:
        if number == 1:
            services.night_publish_live_set(night=night, live=True)

    with django_capture_on_commit_callbacks(execute=True):
        night = simulate(players=8, rounds=4, seed=5, after_game=live)
    assert len(stand_in.got) == 3  # games 2, 3 and 4
    assert stand_in.got[-1][2] == backup.night_backup_bytes(night)
    night.refresh_from_db()
    assert night.published_at is not None
