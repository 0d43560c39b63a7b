"""A whole night in a real browser: Playwright driving Debian's Chromium against a live server.

An organizer registers 16 players, draws and starts the first game; four tables enter their hands through their
own links on phone-sized pages; the head table's last hand rings the bell; the next game is seated and started;
after the last game the standings PDF is downloaded. Every screen on the way passes axe-core (tests/e2e/axe.py).
Screenshots of each step go to test-artifacts/e2e/.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = """Ann Kowalski
Bob Martin
Chloé Dubois
Łukasz Żółć
Edna Walsh
Frank Hill
Grace Novak
Hank Rossi
Irene Becker
Jack Gagnon
Karen Smith
Leo Brown
Mary Moreau
Ned Fischer
Olive Tremblay
Paul Nguyen"""


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def play_hand(phone) -> None:
    """Two taps: the first player called trump, the makers took three tricks."""
    phone.click(".big-buttons.four a >> nth=0")
    phone.click("button[name=tricks][value='3']")
    phone.wait_for_selector("#hand-panel .ok-note, #hand-panel .done-note")


def codes_at(night_name: str, table: int) -> dict[str, str]:
    """The codes on the tally cards of a player of each side at `table` in the current game (read off the cards)."""
    from tournament.models import Entry, Night
    from tournament.selectors import current_round

    round_ = current_round(Night.objects.get(name=night_name))
    seats = dict(round_.seatings.filter(table=table).values_list("seat", "player_id"))
    code = dict(Entry.objects.filter(night=round_.night, player_id__in=seats.values()).values_list("player_id", "code"))
    return {"ns_code": code[seats["N"]], "ew_code": code[seats["E"]]}


def game_over(phone, codes: dict[str, str]) -> None:
    """Both sides say the game is over: a code from each side's tally cards, then the button (and its question)."""
    phone.fill("input[name=ns_code]", codes["ns_code"])
    phone.fill("input[name=ew_code]", codes["ew_code"])
    phone.click("#hand-panel button:has-text('Game over')")
    phone.wait_for_selector("#hand-panel .done-note")


def new_night(live_server, browser, django_user_model, settings, name: str, check: bool = False, **choices: str):
    """The organizer logged in at projector size, a new two-game night made from the form (`choices`: a select's
    id -> the option), its page open: the page. `check`: run axe on the login page, the nights list and the form."""
    # The test's server listens on this machine only: the address phones use is its own (at a venue, the run
    # command's server listens on the Wi-Fi too, and the laptop's Wi-Fi address is the one printed).
    settings.PHONE_URL = live_server.url
    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    desk = browser.new_page(viewport={"width": 1920, "height": 1080})
    desk.goto(f"{live_server.url}/")
    if check:
        axe(desk, "login")
    desk.fill("#id_username", "organizer")
    desk.fill("#id_password", "euchre-night-1")
    desk.click("button.primary")
    if check:
        axe(desk, "nights-list")
    desk.click("text=New night")
    if check:
        axe(desk, "night-new")
    desk.fill("#id_name", name)
    desk.fill("#id_games", "2")
    for select, option in choices.items():
        if not desk.is_visible(f"#id_{select}"):
            desk.click("summary:has-text('More settings')")  # the settings past the short form
        desk.select_option(f"#id_{select}", option)
    desk.click("text=Create the night")
    return desk


def test_a_whole_night_in_the_browser(live_server, browser, django_user_model, settings):
    desk = new_night(live_server, browser, django_user_model, settings, "Browser night", check=True)
    axe(desk, "night-empty")
    desk.fill("#id_names", NAMES)
    desk.click("text=Add everyone")
    desk.wait_for_selector("text=16 checked in")
    axe(desk, "night-registered")
    shot(desk, "01-registered")
    desk.click("text=Draw the opening seating")
    desk.wait_for_selector("text=Start game 1")
    axe(desk, "night-seated")
    desk.click("text=Start game 1")
    desk.wait_for_selector("text=Game 1 of 2 is being played")
    axe(desk, "night-playing")
    shot(desk, "02-game-1-started")
    night_url = desk.url

    desk.click("text=Table links")
    links = [a.get_attribute("href") for a in desk.query_selector_all(".link-url a")]
    assert len(links) == 4
    axe(desk, "table-links")
    shot(desk, "03-table-links")
    phones = []
    for link in links:
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.on("dialog", lambda dialog: dialog.accept())  # "End this table's game at 5–3?"
        phone.goto(link)
        if not phones:
            axe(phone, "table-totals")
        phone.click("text=Or enter it hand by hand")
        phones.append(phone)
    head = phones[0]
    axe(head, "table-hands-first-dealer")  # the first dealer's chips, who called
    head.click(".big-buttons.four a >> nth=0")
    head.wait_for_selector("button[name=tricks]")
    axe(head, "table-hands-tricks")  # "change", the tricks' buttons
    head.click(".called a.chip")  # "change": back to who called
    head.wait_for_selector(".big-buttons.four a")

    for game in (1, 2):
        if game == 2:
            for phone in phones:
                phone.reload()
        for phone in phones[1:]:  # the other tables play seven hands before the head table's eighth
            for _ in range(7):
                play_hand(phone)
        for _ in range(8):
            play_hand(phones[0])
        shot(phones[0], f"04-game-{game}-head-table-done")
        phones[1].wait_for_selector(".table-state.state-bell", timeout=15_000)  # within a poll, no reload
        shot(phones[1], f"05-game-{game}-bell-at-table-2")
        if game == 1:
            axe(phones[0], "table-hands-all-in")  # the hands' table, undo, the codes for "Game over"
            axe(phones[1], "table-hands-bell")
        for phone in phones[1:]:  # each records the hand it was playing at the bell
            play_hand(phone)
        for table, phone in enumerate(phones, start=1):  # and every table, the head table too, says "Game over"
            game_over(phone, codes_at("Browser night", table))
            if game == 1 and table == 1:
                axe(phone, "table-hands-game-over")
        desk.goto(night_url)
        if game == 2:  # every table in: the last game waits for the organizer's Close, a last look first
            assert "The night is over" not in desk.content()
            desk.click("button:has-text('Close game 2 and finish the night')")
            desk.wait_for_selector("text=The night is over")
        shot(desk, f"06-after-game-{game}")
        if game == 1:
            assert "Game 2 of 2 is being played" in desk.content()
            axe(desk, "night-game-2")  # the standings after game 1 too

    assert "The night is over" in desk.content()
    axe(desk, "night-over")
    with desk.expect_download() as download:
        desk.click("text=Download the standings (PDF)")
    pdf = Path(download.value.path()).read_bytes()
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Browser night" in text and "High score" in text and "Łukasz Żółć" in text
    (ARTIFACTS / "standings.pdf").write_bytes(pdf)
