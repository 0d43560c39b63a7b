"""Every player's results after the night: their page by their results link, its PDF, the e-mail with the link
(read from a real local SMTP server), the phone page's way to it, and players left off public lists."""

from __future__ import annotations

import io
import re
import socket
from email import message_from_bytes
from email.message import Message
from urllib.parse import urlsplit

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from pypdf import PdfReader

from tests.rehearsed import rehearsed
from tournament import selectors, services
from tournament.models import Entry, Night, Player, SignUp
from tournament.rehearsal import simulate
from tournament.sheets import printing

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """A finished night of 12 players over 4 games, every hand random and legal (loners and byes included)."""
    night = rehearsed(players=10, rounds=4, seed=7)
    night.refresh_from_db()
    assert night.status == Night.Status.FINISHED
    return night


def _cards(night: Night) -> dict[str, object]:
    """The tally cards as printed: the very data the tally-card sheet draws, by player name."""
    data = printing.SHEETS["tally-cards"].read(night, printing.Options())
    return {card.name: card for card in data.cards}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _card_rows(html: str) -> list[tuple[str, str]]:
    """The results page's card as a reader sees it: each game's row, (score, running total)."""
    body = html.split('class="standings results-card"', 1)[1].split("<tfoot>", 1)[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]:
        cells = [_text(cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows.append((cells[3], cells[-1]))
    return rows


def test_the_results_page_shows_the_tally_cards_numbers(played):
    cards = _cards(played)
    client = Client()
    for entry in played.entries.select_related("player").filter(player__house=False):
        card = cards[entry.name]
        answer = client.get(reverse("tournament:results", args=[entry.player.results_token]))
        assert answer.status_code == 200
        html = answer.content.decode()
        assert entry.name in html and played.name in html
        expected = [
            (str(line.points) if line.bye else f"{line.tally}–{line.conceded}", str(line.running_total))
            for line in card.lines
        ]
        assert _card_rows(html) == expected
        total = card.lines[-1].running_total
        foot = _text(html.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0])
        assert foot.split()[:2] == ["Total", str(total)]
        standing = next(row for row in selectors.night_standings(played).rows if row.name == entry.name)
        assert f"Place {standing.rank_label} of" in _text(html)


def test_the_results_page_names_partners_opponents_and_prizes(played):
    standings = selectors.night_standings(played)
    award = standings.awards[0]
    winner = Entry.objects.get(night=played, player_id=award.player_ids[0])
    html = Client().get(reverse("tournament:results", args=[winner.player.results_token])).content.decode()
    assert f"Prize: {award.prize}" in _text(html)
    line = next(line for line in _cards(played)[winner.name].lines if not line.bye)
    assert line.partner in html and all(name in html for name in line.opponents)


def test_history_counts_every_night_of_the_player(played):
    later = simulate(players=10, rounds=3, seed=7, name="The week after")  # the same seed: the same players
    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    assert Entry.objects.filter(night=later, player=entry.player).exists()
    html = Client().get(reverse("tournament:results", args=[entry.player.results_token])).content.decode()
    mine = [
        next(r for r in selectors.night_standings(night).rows if r.player_id == entry.player_id)
        for night in (played, later)
    ]
    games = sum(row.games for row in mine)
    total = sum(row.total for row in mine)
    assert f"2 nights · {games} games · {total} points · average {total / games:.2f} a game" in _text(html)
    # The latest night is tonight's card; the earlier one opens from the history.
    assert later.name in html.split("results-history")[0]
    assert reverse("tournament:results_night", args=[entry.player.results_token, played.pk]) in html


def test_the_pdf_shows_the_same_card(played):
    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    card = _cards(played)[entry.name]
    url = reverse("tournament:results_pdf", args=[entry.player.results_token, played.pk])
    answer = Client().get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(answer.content)).pages)
    assert entry.name in text and "At the club" in text
    total = card.lines[-1].running_total
    assert re.search(rf"Total {total} \d+ \S+ {total}", text)
    # the club's summary counts as the page does: "1 night · 4 games", never "1 night(s)"
    assert re.search(r"\b1 night · \d+ games · ", text) and "(s)" not in text


def test_a_wrong_token_is_not_found_and_nothing_lists_the_links(played):
    client = Client()
    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    token = entry.player.results_token
    assert len(token) >= 32
    assert (
        client.get(reverse("tournament:results", args=[token[:-1] + ("A" if token[-1] != "A" else "B")])).status_code
        == 404
    )
    assert client.get("/results/").status_code == 404
    other = Night.objects.create(name="Not theirs")
    assert client.get(reverse("tournament:results_night", args=[token, other.pk])).status_code == 404
    assert client.get(reverse("tournament:results_pdf", args=[token, other.pk])).status_code == 404
    for page in (
        reverse("tournament:public_night", args=[played.pk]),
        reverse("tournament:room_display", args=[played.pk]),
    ):
        assert token not in client.get(page).content.decode()
    # Every player has a link of their own.
    tokens = list(Player.objects.values_list("results_token", flat=True))
    assert len(set(tokens)) == len(tokens)


def test_the_phone_page_opens_the_results_with_the_cards_code(played):
    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    client = Client()
    page = client.get(reverse("tournament:player_page", args=[played.pk, entry.player_id])).content.decode()
    url = reverse("tournament:results_by_code", args=[played.pk, entry.player_id])
    assert url in page and entry.player.results_token not in page
    wrong = client.post(url, {"code": "0" if entry.code != "0" else "1"}, follow=True)
    assert "it is the number after “Code” at the top of your tally card" in wrong.content.decode()
    spaced = client.post(url, {"code": f" {entry.code[:2]} {entry.code[2:]} "})  # as read off the card, in twos
    assert spaced.status_code == 302 and entry.player.results_token in spaced["Location"]
    right = client.post(url, {"code": entry.code})
    assert right.status_code == 302
    assert right["Location"] == reverse("tournament:results_night", args=[entry.player.results_token, played.pk])


def test_the_tally_card_carries_the_results_qr(played):
    import pypdfium2
    import zxingcpp

    content = printing.sheet_bytes(played, "tally-cards", per_page=2, base_url="http://192.168.1.20:8000/")
    document = pypdfium2.PdfDocument(content)
    # QR codes only: read as every kind of barcode, a card's ruled grid was once taken for a 1-D code ("9415").
    qr = zxingcpp.BarcodeFormat.QRCode
    found = [
        code.text for page in document for code in zxingcpp.read_barcodes(page.render(scale=3).to_pil(), formats=qr)
    ]
    wanted = {
        "http://192.168.1.20:8000" + reverse("tournament:results", args=[token])
        for token in Player.objects.filter(entries__night=played, house=False).values_list("results_token", flat=True)
    }
    assert sorted(found) == sorted(wanted)  # every card's code, each the player's own page


# ---- players left off public lists ------------------------------------------------------------------------------


def test_an_unlisted_player_is_off_the_public_pages_and_on_the_organizers(played, organizer_client):
    standings = selectors.night_standings(played)
    first = standings.rows[0]
    entry = Entry.objects.select_related("player").get(night=played, player_id=first.player_id)
    public = reverse("tournament:public_night", args=[played.pk])
    room = reverse("tournament:room_display", args=[played.pk])
    assert entry.name in Client().get(public).content.decode()
    answer = organizer_client.post(reverse("tournament:entry_unlisted", args=[played.pk, entry.pk]), {"unlisted": "1"})
    assert answer.status_code == 302
    for page in (public, room):
        html = Client().get(page).content.decode()
        assert entry.name not in html
        assert "A player" in html
    # The standings keep the player's place: the others' ranks stay as they were.
    assert all(row.name in Client().get(public).content.decode() for row in standings.rows[1:4])
    assert entry.name in organizer_client.get(reverse("tournament:night_detail", args=[played.pk])).content.decode()
    # Put back on, named again.
    organizer_client.post(reverse("tournament:entry_unlisted", args=[played.pk, entry.pk]), {"unlisted": "0"})
    assert entry.name in Client().get(public).content.decode()


def test_a_finished_night_s_page_offers_each_player_off_the_public_lists(played, organizer_client):
    """A player may ask after the night (or once it is on the club's site): the finished night's page has the
    button for each of them, and it works."""
    assert played.status == "finished"
    page = organizer_client.get(reverse("tournament:night_detail", args=[played.pk])).content.decode()
    entries = list(Entry.objects.filter(night=played, player__house=False).select_related("player"))
    actions = {reverse("tournament:entry_unlisted", args=[played.pk, entry.pk]) for entry in entries}
    assert all(f'action="{action}"' in page for action in actions)
    entry = entries[0]
    organizer_client.post(reverse("tournament:entry_unlisted", args=[played.pk, entry.pk]), {"unlisted": "1"})
    html = Client().get(reverse("tournament:public_night", args=[played.pk])).content.decode()
    assert entry.name not in html and "A player" in html


def test_the_public_standings_files_and_the_season_leave_an_unlisted_player_off(played, organizer_client):
    from scoring.models import Season
    from tournament import seasons

    first = selectors.night_standings(played).rows[0]
    entry = Entry.objects.select_related("player").get(night=played, player_id=first.player_id)
    services.player_unlisted_set(player=entry.player, unlisted=True)
    season: Season = seasons.season_create(name="Winter", club="St Mary's")
    seasons.season_nights_set(season=season, night_ids=[played.pk])
    anyone = Client()
    pdf = anyone.get(reverse("tournament:standings_pdf", args=[played.pk])).content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert entry.name not in text and "A player" in text
    mine = organizer_client.get(reverse("tournament:standings_pdf", args=[played.pk])).content
    assert entry.name in " ".join(page.extract_text() for page in PdfReader(io.BytesIO(mine)).pages)
    csv = anyone.get(reverse("tournament:standings_csv", args=[played.pk])).content.decode("utf-8-sig")
    assert entry.name not in csv and "A player" in csv
    assert entry.name in organizer_client.get(reverse("tournament:standings_csv", args=[played.pk])).content.decode()
    table = anyone.get(reverse("scoring:season_public", args=[season.pk])).content.decode()
    assert entry.name not in table and "A player" in table
    page = reverse("scoring:season_player", args=[season.pk, entry.player_id])
    assert page not in table
    assert anyone.get(page).status_code == 404
    assert organizer_client.get(page).status_code == 200
    season_csv = anyone.get(reverse("scoring:season_csv", args=[season.pk])).content.decode("utf-8-sig")
    assert entry.name not in season_csv


def test_a_player_asks_at_sign_up_to_be_left_off(db):
    night = services.night_create(name="Sign-up night", games=2)
    services.signup_settings(night=night, open=True, cap=None)
    client = Client()
    url = reverse("tournament:signup", args=[night.pk])
    form = client.get(url).content.decode()
    key = re.search(r'name="key" value="([^"]+)"', form).group(1)
    client.post(url, {"name": "Quiet Quinn", "contact": "", "unlisted": "on", "key": key})
    client.post(url, {"name": "Loud Lou", "contact": "", "key": key + "2"})
    assert Player.objects.get(name="Quiet Quinn").unlisted
    assert not Player.objects.get(name="Loud Lou").unlisted


# ---- the e-mail with the link ---------------------------------------------------------------------------------------


def _smtp_server():
    """A real SMTP server on this machine (aiosmtpd), keeping every message it receives."""
    try:
        from aiosmtpd.controller import Controller
        from aiosmtpd.handlers import Message as MessageHandler
    except ImportError:  # pragma: no cover - the dependency is in requirements-dev.txt
        pytest.skip("aiosmtpd is not installed (requirements-dev.txt): the e-mail test needs a real SMTP server")

    received: list[Message] = []

    class Keep(MessageHandler):
        refuse: set[str] = set()  # addresses the server turns away, as a full mailbox would

        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            if address in self.refuse:
                return "550 mailbox unavailable"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        def handle_message(self, message):
            received.append(message)

        def prepare_message(self, session, envelope):
            return message_from_bytes(envelope.content)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    return controller, port, received


def _signed_up(night: Night, emails: dict[str, str]) -> None:
    """Players of the night who signed up beforehand, with these contacts (an e-mail, a phone)."""
    for entry in night.entries.filter(name__in=list(emails)):
        SignUp.objects.create(night=night, name=entry.name, contact=emails[entry.name], status="in", entry=entry)


def test_players_get_their_link_by_e_mail_once(played, organizer_client, django_capture_on_commit_callbacks):
    controller, port, received = _smtp_server()
    try:
        names = list(played.entries.filter(player__house=False).order_by("card").values_list("name", flat=True))
        contacts = {names[0]: "ann@example.org", names[1]: "bob@example.org", names[2]: "555-0101"}
        _signed_up(played, contacts)
        mail = reverse("tournament:results_mail", args=[played.pk])
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=port
        ):
            with django_capture_on_commit_callbacks(execute=True):
                assert organizer_client.post(mail).status_code == 302
            with django_capture_on_commit_callbacks(execute=True):
                organizer_client.post(mail)  # a second press mails nobody twice
        assert sorted(message["To"] for message in received) == ["ann@example.org", "bob@example.org"]
        cards = _cards(played)
        for message in received:
            name = names[0] if message["To"] == "ann@example.org" else names[1]
            body = message.get_payload(decode=True).decode()
            assert played.name in message["Subject"]
            link = re.search(r"https?://\S+", body).group(0)
            page = Client().get(urlsplit(link).path)
            assert page.status_code == 200
            html = page.content.decode()
            assert name in html
            card = cards[name]
            assert _card_rows(html) == [
                (str(line.points) if line.bye else f"{line.tally}–{line.conceded}", str(line.running_total))
                for line in card.lines
            ]
        page = organizer_client.get(reverse("tournament:night_detail", args=[played.pk])).content.decode()
        assert "2 mailed, 0 to mail" in page
    finally:
        controller.stop()


def test_a_mail_the_server_refuses_goes_at_the_next_press(played, organizer_client, django_capture_on_commit_callbacks):
    controller, port, received = _smtp_server()
    try:
        names = list(played.entries.filter(player__house=False).order_by("card").values_list("name", flat=True))
        _signed_up(played, {names[0]: "ann@example.org", names[1]: "bob@example.org"})
        mail = reverse("tournament:results_mail", args=[played.pk])
        refusing = controller.handler.refuse = {"bob@example.org"}
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=port
        ):
            with django_capture_on_commit_callbacks(execute=True):
                organizer_client.post(mail)
            assert [message["To"] for message in received] == ["ann@example.org"]
            page = organizer_client.get(reverse("tournament:night_detail", args=[played.pk])).content.decode()
            assert "1 mailed, 1 to mail" in page
            refusing.clear()
            with django_capture_on_commit_callbacks(execute=True):
                organizer_client.post(mail)
        assert sorted(message["To"] for message in received) == ["ann@example.org", "bob@example.org"]
    finally:
        controller.stop()


def test_a_night_under_way_mails_nobody(db, organizer_client):
    night = services.night_create(name="Still playing", games=2)
    services.players_register(night=night, names=["Ann Lee", "Bob Ray", "Cy Oak", "Di Elm"])
    _signed_up(night, {"Ann Lee": "ann@example.org"})
    answer = organizer_client.post(reverse("tournament:results_mail", args=[night.pk]), follow=True)
    assert "once the night is over" in answer.content.decode()
    assert Entry.objects.get(name="Ann Lee").results_mailed_at is None


def test_the_page_reads_the_same_number_of_queries_however_many_nights(played):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    url = reverse("tournament:results", args=[entry.player.results_token])
    client = Client()
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for week in range(2):
        simulate(players=10, rounds=4, seed=7, name=f"Week {week + 2}")
    with CaptureQueriesContext(connection) as three:
        assert "3 nights" in client.get(url).content.decode()
    assert len(three.captured_queries) == len(one.captured_queries)


def test_codes_tried_from_one_phone_are_counted(played):
    entry = Entry.objects.select_related("player").filter(night=played, player__house=False).first()
    url = reverse("tournament:results_by_code", args=[played.pk, entry.player_id])
    client = Client()
    wrong = str(int(entry.code) + 1)
    for _ in range(10):
        client.post(url, {"code": wrong})
    # The eleventh in the minute is turned away, the right code too: a script cannot go through every code.
    answer = client.post(url, {"code": entry.code}, follow=True)
    assert "Too many codes tried from this phone" in answer.content.decode()
    assert entry.player.results_token not in answer.redirect_chain[-1][0]
