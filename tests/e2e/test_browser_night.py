"""A whole night in a real browser: Playwright driving Debian's Chromium against a live server.

An organizer registers 16 players, draws and starts the first game; four tables enter their hands through their
own links on phone-sized pages; the head table's last hand rings the bell; the next game is seated and started;
after the last game the standings PDF is downloaded. Screenshots of each step go to test-artifacts/e2e/.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
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


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def play_hand(phone) -> None:
    """Two taps: the first player called trump, the makers took three tricks."""
    phone.click(".big-buttons.four a >> nth=0")
    phone.click("button[name=tricks][value='3']")
    phone.wait_for_selector("#hand-panel .ok-note, #hand-panel .done-note")


def test_a_whole_night_in_the_browser(live_server, browser, django_user_model):
    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    base = live_server.url
    desk = browser.new_page(viewport={"width": 1920, "height": 1080})
    desk.goto(f"{base}/")
    desk.fill("#id_username", "organizer")
    desk.fill("#id_password", "euchre-night-1")
    desk.click("button.primary")
    desk.click("text=New night")
    desk.fill("#id_name", "Browser night")
    desk.fill("#id_games", "2")
    desk.click("text=Create the night")
    desk.fill("#id_names", NAMES)
    desk.click("text=Add everyone")
    desk.wait_for_selector("text=16 checked in")
    shot(desk, "01-registered")
    desk.click("text=Draw the opening seating")
    desk.wait_for_selector("text=Start game 1")
    desk.click("text=Start game 1")
    desk.wait_for_selector("text=Game 1 of 2 is being played")
    shot(desk, "02-game-1-started")
    night_url = desk.url

    desk.click("text=Table links")
    links = [a.get_attribute("href") for a in desk.query_selector_all(".link-url a")]
    assert len(links) == 4
    shot(desk, "03-table-links")
    phones = []
    for link in links:
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(link)
        phone.click("text=Or enter it hand by hand")
        phones.append(phone)

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
        phones[1].reload()
        assert "The bell has rung" in phones[1].content()
        shot(phones[1], f"05-game-{game}-bell-at-table-2")
        for phone in phones[1:]:  # each records the hand it was playing at the bell
            play_hand(phone)
        desk.goto(night_url)
        shot(desk, f"06-after-game-{game}")
        if game == 1:
            assert "Game 2 of 2 is being played" in desk.content()

    assert "The night is over" in desk.content()
    with desk.expect_download() as download:
        desk.click("text=Download the standings (PDF)")
    pdf = Path(download.value.path()).read_bytes()
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Browser night" in text and "High score" in text and "Łukasz Żółć" in text
    (ARTIFACTS / "standings.pdf").write_bytes(pdf)
