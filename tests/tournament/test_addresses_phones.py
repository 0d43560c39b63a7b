"""The address phones use: every printed code and link carries it, whatever address the organizer's browser used."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.models import TableLink
from tests.conftest import game_under_way
from tests.tournament.sheets.test_pdf import qr_codes
from tournament import addresses, game

pytestmark = pytest.mark.django_db
WIFI = "192.168.1.20"


@pytest.fixture
def seated(night):
    """Game 1 under way, its table links' tokens made fixed: a page of random codes can, once in a few thousand
    drawings, hold a pattern the QR reader takes for a code of its own (a stray "3000" beside the two links, seen
    once in a full run), and a test's drawing should be the same every run."""
    round_ = game_under_way(night)
    for link in TableLink.objects.filter(night=night, active=True):
        link.token = f"fixed-token-of-table-{link.table}"
        link.save(update_fields=["token"])
    return round_


@pytest.fixture
def on_wifi(monkeypatch):
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [WIFI])


@pytest.fixture(autouse=True)
def serving_on_8000(client, monkeypatch):
    """Requests come in on the port the run command serves on, as the server's socket says (SERVER_PORT; the test
    client would say 80 on every request)."""
    get = client.get
    monkeypatch.setattr(client, "get", lambda *args, **extra: get(*args, **{"SERVER_PORT": "8000", **extra}))


def tokens(night) -> dict[int, str]:
    return dict(TableLink.objects.filter(night=night, active=True).values_list("table", "token"))


@pytest.mark.parametrize("sheet", ["table_cards_pdf", "score_sheets_pdf"])
def test_codes_printed_while_browsing_from_the_laptop_itself_open_on_phones(organizer_client, seated, on_wifi, sheet):
    pdf = organizer_client.get(reverse(f"tournament:{sheet}", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000")
    decoded = [code for page in qr_codes(pdf.content) for code in page]
    assert decoded == [f"http://{WIFI}:8000/t/{token}/" for _, token in sorted(tokens(seated.night).items())]
    assert not [code for code in decoded if "127.0.0.1" in code or "localhost" in code]


def test_the_table_links_page_says_which_address_phones_use_and_offers_a_test_code(organizer_client, seated, on_wifi):
    page = unescape(
        organizer_client.get(
            reverse("scoring:table_links", args=[seated.night_id]), HTTP_HOST="localhost:8000"
        ).content.decode()
    )
    assert f'The address phones use: <a href="http://{WIFI}:8000/">' in page
    assert "You opened this page at http://localhost:8000/, an address only this laptop can open" in page
    assert f"http://{WIFI}:8000/t/{tokens(seated.night)[1]}/" in page
    assert "localhost:8000/t/" not in page
    qr = organizer_client.get(reverse("scoring:phone_qr", args=[seated.night_id]), HTTP_HOST="localhost:8000")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_a_page_opened_at_the_network_address_keeps_it(organizer_client, seated, monkeypatch):
    monkeypatch.setattr(addresses, "lan_addresses", lambda: ["10.0.0.5", WIFI])  # cable first, then Wi-Fi
    page = organizer_client.get(reverse("scoring:table_links", args=[seated.night_id]), HTTP_HOST=f"{WIFI}:8000")
    assert f"http://{WIFI}:8000/t/" in page.content.decode()
    assert "only this laptop can open" not in unescape(page.content.decode())


def test_a_laptop_with_no_network_says_so_before_anything_is_printed(organizer_client, seated, monkeypatch):
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [])
    page = organizer_client.get(reverse("scoring:table_links", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000")
    assert "Phones cannot reach this laptop" in unescape(page.content.decode())


def test_a_configured_address_wins(organizer_client, seated, on_wifi, settings):
    settings.PHONE_URL = "https://euchre.example.org"
    pdf = organizer_client.get(
        reverse("tournament:table_cards_pdf", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000"
    )
    decoded = [code for page in qr_codes(pdf.content) for code in page]
    assert decoded and all(code.startswith("https://euchre.example.org/t/") for code in decoded)


def test_print_sheets_uses_the_network_address_and_the_port(seated, on_wifi, tmp_path, monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    out = tmp_path / "cards.pdf"
    call_command("print_sheets", str(seated.night_id), "--sheet", "table-cards", "--out", str(out))
    decoded = [code for page in qr_codes(out.read_bytes()) for code in page]
    assert decoded and all(code.startswith(f"http://{WIFI}:8123/t/") for code in decoded)


def test_the_run_commands_list_puts_the_address_phones_use_first(on_wifi, capsys):
    call_command("show_addresses", "--port", "8000")
    lines = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert lines[1] == f"Open this on the organizer's laptop and on phones:  http://{WIFI}:8000/"
    assert lines[-1] == "On this laptop only:  http://127.0.0.1:8000/"


def test_loopback_names_are_recognised():
    assert all(addresses._is_loopback(host) for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "a.localhost"))
    assert not any(addresses._is_loopback(host) for host in (f"{WIFI}:8000", "euchre.example.org"))


def test_the_room_display_shows_find_your_table_at_the_address_phones_use(client, seated, on_wifi):
    page = client.get(reverse("tournament:room_display", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000")
    body = page.content.decode()
    find = reverse("tournament:player_find", args=[seated.night_id])
    assert f"<b>http://{WIFI}:8000{find}</b>" in body
    qr = client.get(reverse("tournament:find_qr", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_the_room_display_says_how_far_the_head_table_is(client, seated):
    from scoring import rules

    for _ in range(5):
        game.hand_record(round_=seated, table=1, hand=rules.Hand(makers="NS", maker="N", tricks=3))
    body = unescape(client.get(reverse("tournament:room_display", args=[seated.night_id])).content.decode())
    assert "Head table: 5 of 8 hands played: its hand 8 rings the bell" in body


def test_the_night_page_opened_on_the_laptop_says_which_address_phones_use(organizer_client, seated, on_wifi):
    page = unescape(
        organizer_client.get(
            reverse("tournament:night_detail", args=[seated.night_id]), HTTP_HOST="127.0.0.1:8000"
        ).content.decode()
    )
    assert f'phones use <a href="http://{WIFI}:8000/">' in page
    at_wifi = organizer_client.get(reverse("tournament:night_detail", args=[seated.night_id]), HTTP_HOST=f"{WIFI}:8000")
    assert 'id="phones-address"' not in at_wifi.content.decode()


FORGED = "evil.example:666"


def test_a_forged_host_never_reaches_a_table_link_a_code_or_a_printed_card(organizer_client, seated, on_wifi):
    # The Host header is the browser's word: a page asked for under a name that is not this machine's gets the
    # laptop's own address in every link and code, at the port the server listens on (SERVER_PORT, from its socket).
    forged = {"HTTP_HOST": FORGED, "SERVER_PORT": "8000"}
    night = seated.night_id
    page = unescape(organizer_client.get(reverse("scoring:table_links", args=[night]), **forged).content.decode())
    assert f"http://{WIFI}:8000/t/{tokens(seated.night)[1]}/" in page
    assert f'The address phones use: <a href="http://{WIFI}:8000/">' in page
    assert "You opened this page at “evil.example:666”, a name or port that is not this machine's" in page
    assert "evil.example" not in page.replace("“evil.example:666”", "")
    for sheet in ("table_cards_pdf", "score_sheets_pdf"):
        pdf = organizer_client.get(reverse(f"tournament:{sheet}", args=[night]), **forged)
        decoded = [code for page in qr_codes(pdf.content) for code in page]
        assert decoded and all(code.startswith(f"http://{WIFI}:8000/t/") for code in decoded)
    detail = unescape(organizer_client.get(reverse("tournament:night_detail", args=[night]), **forged).content.decode())
    assert f'phones use <a href="http://{WIFI}:8000/">' in detail
    assert "evil.example" not in detail.replace("“evil.example:666”", "")


def test_a_forged_host_never_reaches_the_room_displays_code(client, seated, on_wifi):
    page = client.get(reverse("tournament:room_display", args=[seated.night_id]), HTTP_HOST=FORGED, SERVER_PORT="8000")
    body = page.content.decode()
    assert f"<b>http://{WIFI}:8000{reverse('tournament:player_find', args=[seated.night_id])}</b>" in body
    assert "evil.example" not in body


def test_the_machines_own_names_and_the_configured_ones_are_kept(organizer_client, seated, on_wifi, settings):
    settings.ALLOWED_HOSTS = ["*", "euchre.example.org", ".club.example"]
    url = reverse("scoring:table_links", args=[seated.night_id])
    for host in ("euchre.example.org", "hall.club.example:8443", f"{WIFI}:8000"):
        page = organizer_client.get(url, HTTP_HOST=host).content.decode()
        assert f'The address phones use: <a href="http://{host}/">' in page
        assert "not-ours" not in page
    assert "not-ours" in organizer_client.get(url, HTTP_HOST="club.example.evil").content.decode()


def test_own_host_knows_the_machine_and_refuses_other_names(on_wifi, settings):
    import socket

    settings.ALLOWED_HOSTS = ["*"]
    name = socket.gethostname()
    assert all(addresses.own_host(host) for host in (f"{WIFI}:8000", "127.0.0.1", name, f"{name}.local:8000"))
    assert not any(addresses.own_host(host) for host in ("evil.example", "8.8.8.8:8000", "", f"{name}.evil"))


@pytest.mark.parametrize("host", [f"{WIFI}:9999", WIFI, "127.0.0.1:9999"])
def test_the_laptops_own_address_at_another_port_never_reaches_a_link_or_a_card(
    organizer_client, seated, on_wifi, host
):
    """The server listens on 8000: a Host naming the laptop's address at another port (or none: port 80) is the
    browser's word, not where phones reach it. Every link, code and card carries the port the server listens on."""
    night = seated.night_id
    page = unescape(organizer_client.get(reverse("scoring:table_links", args=[night]), HTTP_HOST=host).content.decode())
    assert f"http://{WIFI}:8000/t/{tokens(seated.night)[1]}/" in page
    assert f'The address phones use: <a href="http://{WIFI}:8000/">' in page
    assert ":9999/t/" not in page and f"http://{WIFI}/" not in page
    for sheet in ("table_cards_pdf", "score_sheets_pdf"):
        pdf = organizer_client.get(reverse(f"tournament:{sheet}", args=[night]), HTTP_HOST=host)
        decoded = [code for page in qr_codes(pdf.content) for code in page]
        assert decoded and all(code.startswith(f"http://{WIFI}:8000/t/") for code in decoded)
    display = organizer_client.get(reverse("tournament:room_display", args=[night]), HTTP_HOST=host).content.decode()
    assert f"<b>http://{WIFI}:8000{reverse('tournament:player_find', args=[night])}</b>" in display


def test_own_host_takes_the_machines_address_at_the_servers_port_only(on_wifi, settings):
    settings.ALLOWED_HOSTS = ["*", "euchre.example.org"]
    assert addresses.own_host(f"{WIFI}:8000", "8000") and addresses.own_host(WIFI, "80")
    assert not addresses.own_host(f"{WIFI}:9999", "8000") and not addresses.own_host(WIFI, "8000")
    assert addresses.own_host("euchre.example.org:443", "8000")  # a listed name: a proxy may serve it
