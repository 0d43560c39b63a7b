"""Two phones at one table and the keeper's desk, live, in a real browser (Debian's Chromium).

Table 2's two phones, the head table's phone and the keeper's desk stay open through two games without a reload:
each follows the start, the other phone's hands, the bell, "Game over", the next game and the end of the night
within a poll. Everything after the setup is done through the pages, as the room would. A screenshot of table 2's
phone is taken in each state of the game (phone size) and of the desk (projector size), in
test-artifacts/e2e/live-*.png; axe-core checks the phone and the desk in each (tests/e2e/axe.py).
"""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
POLL = 12_000  # ms: a few polls (every 3 s), on a slow machine
PHONE = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def tap_hand(phone, maker: int, tricks: int) -> None:
    """Who called (0-3: N, E, S, W's button), then the makers' tricks; the panel says "Saved."."""
    phone.click(f".big-buttons.four a >> nth={maker}")
    phone.click(f"button[name=tricks][value='{tricks}']")
    phone.wait_for_selector("#hand-panel .ok-note", timeout=POLL)


def game_over(phone, codes: dict[str, str]) -> None:
    phone.fill("input[name=ns_code]", codes["NS"])
    phone.fill("input[name=ew_code]", codes["EW"])
    phone.click("#hand-panel button:has-text('Game over')")
    phone.wait_for_selector("#hand-panel .done-note", timeout=POLL)


def test_two_phones_at_one_table_and_the_desk_follow_a_game_without_a_reload(live_server, browser, django_user_model):
    from scoring.models import TableLink
    from tests.conftest import NAMES
    from tournament import services
    from tournament.models import Entry

    # The setup, before any page is open: a night of two tables that runs by itself, seated, with its links.
    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Live night", games=2, auto_advance=True)
    services.players_register(night=night, names=NAMES[:8])
    seated = services.night_draw(night=night, seed=3)
    services.table_links_ensure(night=night)
    tokens = dict(TableLink.objects.filter(night=night, active=True).values_list("table", "token"))
    code = dict(Entry.objects.filter(night=night).values_list("player_id", "code"))
    seats = {(s.table, s.seat): s.player_id for s in seated.seatings.all()}
    codes = {table: {"NS": code[seats[table, "N"]], "EW": code[seats[table, "E"]]} for table in (1, 2)}
    base = live_server.url

    organizer = browser.new_context(viewport={"width": 1920, "height": 1080})
    org = organizer.new_page()
    org.on("dialog", lambda dialog: dialog.accept())
    org.goto(f"{base}/")
    org.fill("#id_username", "organizer")
    org.fill("#id_password", "euchre-night-1")
    org.click("button.primary")
    org.goto(f"{base}/nights/{night.pk}/")
    desk = organizer.new_page()
    desk.goto(f"{base}/nights/{night.pk}/desk/")
    desk.wait_for_selector("text=Game 1 is seated")

    def phone_at(table: int):
        phone = browser.new_page(viewport=PHONE)
        phone.on("dialog", lambda dialog: dialog.accept())  # "End this table's game at 5–3?"
        phone.goto(f"{base}/t/{tokens[table]}/")
        return phone

    first, second, head = phone_at(2), phone_at(2), phone_at(1)
    first.wait_for_selector("text=Waiting for the start of game 1")
    shot(first, "phone-1-seated")
    axe(first, "table-seated")
    axe(desk, "desk-seated")

    org.click("button:has-text('Start game 1')")
    for phone in (first, second, head):  # the start reaches the phones and the desk by their polls
        phone.wait_for_selector(".table-state.state-playing", timeout=POLL)
    desk.wait_for_selector("text=Waiting for tables 1, 2.", timeout=POLL)
    shot(first, "phone-2-playing")
    shot(desk, "desk-1-playing")
    axe(first, "table-playing")
    axe(desk, "desk-playing")

    for phone in (first, second, head):
        phone.click("text=Or enter it hand by hand")
    tap_hand(first, 0, 3)
    tap_hand(first, 1, 5)
    second.wait_for_selector("text=↶ Undo hand 2", timeout=POLL)  # the other phone's hands, without a reload
    tap_hand(second, 2, 4)
    first.wait_for_selector("text=↶ Undo hand 3", timeout=POLL)
    shot(second, "phone-3-hands-from-both-phones")

    for _ in range(8):  # the head table plays its eight hands: the last rings the bell for the room
        tap_hand(head, 0, 3)
    for phone in (first, second):
        phone.wait_for_selector(".table-state.state-bell", timeout=POLL)
    shot(first, "phone-4-bell")

    tap_hand(first, 3, 3)  # the hand they were playing at the bell
    second.wait_for_selector("text=↶ Undo hand 4", timeout=POLL)
    game_over(second, codes[2])
    first.wait_for_selector("text=Something wrong? Tell the score keeper", timeout=POLL)
    assert first.locator("text=Undo hand").count() == 0  # a game that is in is changed only at the desk
    shot(first, "phone-5-in")
    axe(first, "table-hands-in")
    desk.wait_for_selector("#desk-2 .ok", timeout=POLL)  # table 2 is in on the desk, without a reload
    desk.wait_for_selector("text=Waiting for table 1.", timeout=POLL)
    shot(desk, "desk-2-table-2-in")
    axe(desk, "desk-a-table-in")

    game_over(head, codes[1])  # every table is in after the bell: game 1 closes and game 2 starts
    for phone in (first, second):
        phone.wait_for_selector("text=Table 2 · game 2", timeout=POLL)
    shot(first, "phone-6-next-game")
    desk.wait_for_selector("text=Open game 2's desk", timeout=POLL)
    assert desk.locator("input[name=t2-reason]").count() == 1  # the closed game's correction form, with its box
    shot(desk, "desk-3-game-1-closed")
    axe(desk, "desk-game-closed")

    # Game 2 from paper slips at the desk, after the organizer's bell; the last slip in, the keeper's Close ends the
    # night (the last game never closes by itself: a last look first).
    desk.click("text=Open game 2's desk")
    org.wait_for_selector("button:has-text('Ring the bell now')", timeout=POLL)  # the night page moved on by itself
    org.click("button:has-text('Ring the bell now')")
    first.wait_for_selector(".table-state.state-bell", timeout=POLL)
    for table in (1, 2):
        desk.fill(f"input[name=t{table}-ns_points]", "5")
        desk.fill(f"input[name=t{table}-ew_points]", "3")
        desk.press(f"input[name=t{table}-ew_points]", "Enter")
        desk.wait_for_selector(f"#desk-{table} .ok", timeout=POLL)
    desk.wait_for_selector("#desk-close[data-last]", timeout=POLL)
    assert org.evaluate("() => document.body.textContent.includes('The night is over')") is False
    desk.click("#desk-close[data-last]")
    first.wait_for_selector(".table-state.state-closed", timeout=POLL)
    shot(first, "phone-7-night-over")
    axe(first, "table-night-over")
    org.wait_for_selector("text=The night is over", timeout=POLL)
    small = organizer.new_page()  # the keeper's desk on a phone: every table a card, nothing off the screen
    small.set_viewport_size(PHONE)
    small.goto(f"{base}/nights/{night.pk}/desk/")
    assert small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(small, "desk-4-on-a-phone")
    axe(small, "desk-on-a-phone")
    organizer.close()
