"""A whole charity night as a volunteer runs it (#33), in a real browser, screen by screen.

The organizer sets the night up in the short form with a $10 entry and the prize split, takes the money at the door,
draws, prints the cards (game 1's seat on each). Two tables score on their phones, the rest from paper slips that
the keeper types with the keyboard alone. During game 2 a player leaves and a substitute takes the seat (the cash
box asks nothing more of them), the organizer holds the night before game 3 for a late arrival (offered the door
price, and seated in game 3), a door prize is drawn while the room display keeps the seating on screen, and after
game 3 starts the organizer says it is the last game: the night ends when it closes. The prize sheet, the
reconciliation and the cards are printed. Screenshots of every step in test-artifacts/e2e/volunteer-*.png; axe-core
checks the screens a volunteer uses.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_browser_night import NAMES as EVENING
from tests.e2e.test_browser_night import codes_at, game_over, play_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
POLL = 15_000
WIDE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NAME = "St Mary's charity night"
# The whole-night test's sixteen (accents, apostrophes), and five more: a 21-player charity night.
NAMES = "\n".join([EVENING, "Queenie O'Brien", "Ray Lindqvist", "Sue MacLeod", "Tom Schultz", "Una Walsh"])


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"volunteer-{name}.png"), full_page=True)


def pdf_text(page, url: str) -> str:
    response = page.request.get(url)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf", url
    (ARTIFACTS / f"volunteer-{url.rstrip('/').split('/')[-1].split('?')[0]}").write_bytes(response.body())
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.body())).pages)


def organizer_page(browser, base: str, django_user_model, viewport: dict):
    """A new organizer's account, signed in on a page of `viewport`'s size that says yes to every "Are you sure?"."""
    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    org = browser.new_context(viewport=viewport).new_page()
    org.on("dialog", lambda dialog: dialog.accept())
    org.goto(f"{base}/")
    org.fill("#id_username", "organizer")
    org.fill("#id_password", "euchre-night-1")
    org.click("button.primary")
    return org


def night_now():
    from tournament.models import Night

    return Night.objects.get(name=NAME)


def current():
    from tournament.selectors import current_round

    return current_round(night_now())


def open_roster(page) -> None:
    """The night page's "Players tonight" (it stays open for this tab once opened)."""
    if page.locator("#roster[open]").count() == 0:
        page.click("#roster summary")


def focused(page) -> str:
    return page.evaluate("() => document.activeElement.name || document.activeElement.id")


def slips_by_keyboard(desk, tables: list[int]) -> None:
    """The keeper types each slip: N–S, Tab, E–W, Enter; the cursor then waits in the next missing table."""
    for table in tables:
        desk.wait_for_function("name => document.activeElement.name === name", arg=f"t{table}-ns_points")
        desk.keyboard.type("5" if table % 2 else "2")
        desk.keyboard.press("Tab")
        desk.keyboard.type("3" if table % 2 else "6")
        desk.keyboard.press("Enter")
        desk.wait_for_selector(f"#desk-{table}.state-in", timeout=POLL)


def test_a_charity_night_as_a_volunteer_runs_it(live_server, browser, django_user_model, settings):
    from tournament import selectors
    from tournament.models import Entry, Night, Round

    settings.PHONE_URL = live_server.url
    base = live_server.url
    org = organizer_page(browser, base, django_user_model, WIDE)

    # Set up in a minute: the short form, an entry price and the prize split.
    org.click("text=New night")
    org.fill("#id_name", NAME)
    org.fill("#id_games", "6")
    org.fill("#id_price", "10")
    org.fill("#id_prizes", "high 50%, low 30%, loners 20%")
    shot(org, "01-new-night")
    axe(org, "volunteer-new-night")
    org.click("text=Create the night")
    org.wait_for_selector("text=Draw the opening seating")
    night = night_now()
    assert (night.games, night.price_pre, night.price_door) == (6, 1000, 1000)

    org.fill("#id_names", NAMES)
    org.click("text=Add everyone")
    org.wait_for_selector("text=21 checked in")

    # The door: everyone pays $10 cash.
    org.goto(f"{base}/nights/{night.pk}/money/")
    for _ in range(21):
        org.click(".door-list .pay button:has-text('cash') >> nth=0")
        org.wait_for_load_state()
    assert org.locator(".door-list .pay button:has-text('cash')").count() == 0
    shot(org, "02-money-all-paid")
    axe(org, "volunteer-money")

    org.goto(f"{base}/nights/{night.pk}/")
    org.click("text=Draw the opening seating")
    org.wait_for_selector("text=Start game 1")
    cards = pdf_text(org, f"{base}/nights/{night.pk}/tally-cards.pdf?per_page=4")
    first = current()
    ann = first.seatings.filter(player__name="Ann Kowalski").first()
    assert "Loners" in cards
    if ann is not None:  # Ann's card shows game 1's table (she may sit out game 1)
        assert str(ann.table) in cards
    org.click("text=Start game 1")
    org.wait_for_selector("text=Game 1 of 6 is being played")
    shot(org, "03-game-1-playing")

    # The room display on the TV.
    room = browser.new_page(viewport=WIDE)
    room.goto(f"{base}/public/nights/{night.pk}/display/")
    room.wait_for_selector(".room-finder li")
    room.screenshot(path=str(ARTIFACTS / "volunteer-04-room-game-1.png"))

    # Two tables on their phones (hand by hand); the other three from slips at the desk.
    org.click("text=Table links")
    links = [a.get_attribute("href") for a in org.query_selector_all(".link-url a")]
    phones = []
    for link in links[:2]:
        phone = browser.new_page(viewport=PHONE)
        phone.on("dialog", lambda dialog: dialog.accept())
        phone.goto(link)
        phone.click("text=Or enter it hand by hand")
        phones.append(phone)
    for _ in range(7):
        play_hand(phones[1])
    for _ in range(8):  # the head table's eighth hand rings the bell
        play_hand(phones[0])
    phones[1].wait_for_selector(".table-state.state-bell", timeout=POLL)
    play_hand(phones[1])
    game_over(phones[0], codes_at(NAME, 1))
    game_over(phones[1], codes_at(NAME, 2))
    shot(phones[1], "05-phone-table-2-in")

    desk = org.context.new_page()
    desk.goto(f"{base}/nights/{night.pk}/desk/")
    desk.wait_for_selector("table.desk")
    assert focused(desk) == "t3-ns_points"  # the first missing table, without a mouse
    axe(desk, "volunteer-desk")
    slips_by_keyboard(desk, [3, 4, 5])
    shot(desk, "06-desk-game-1-in")

    # Game 1 closed by itself once every table was in; game 2 starts.
    org.goto(f"{base}/nights/{night.pk}/")
    org.wait_for_selector("text=Game 2 of 6 is being played", timeout=POLL)

    # A player leaves during game 2 and a substitute takes the seat; the night holds before game 3 for a latecomer.
    leaver = Entry.objects.get(night=night, player__name="Bob Martin")
    open_roster(org)
    org.select_option("#id_substitute_leaving", str(leaver.pk))
    org.fill("#id_substitute_name", "Vera Substitute")
    org.click("text=Replace for the rest of the night")
    org.wait_for_selector("#roster ol.entries >> text=substitute for Bob Martin")
    org.click("button:has-text('Hold before game 3')")
    org.wait_for_selector("text=The night holds before game 3")
    add = org.locator("button:has-text('Add to game 3')")
    assert add.count() == 1
    shot(org, "07-held-before-game-3")
    axe(org, "volunteer-night-page")

    org.click("button:has-text('Ring the bell now')")
    org.wait_for_selector("text=the bell has rung", timeout=POLL)  # the desk opened once it has (see game 3)
    desk.goto(f"{base}/nights/{night.pk}/desk/")
    slips_by_keyboard(desk, [1, 2, 3, 4, 5])
    org.goto(f"{base}/nights/{night.pk}/")
    org.wait_for_selector("text=the night is held before game 3", timeout=POLL)
    assert night_now().rounds.count() == 2  # game 3 not seated while the night holds
    room.wait_for_selector("text=Game 2 is over", timeout=POLL)
    room.screenshot(path=str(ARTIFACTS / "volunteer-08-room-held.png"))

    open_roster(org)
    org.fill("#roster form[action$='/players/add/'] input[name=name]", "Larry Late")
    org.click("button:has-text('Add to game 3')")
    org.wait_for_selector("#roster ol.entries >> text=Larry Late")

    # The cash box: the latecomer owes the door price, the substitute nothing, each person counted once.
    org.goto(f"{base}/nights/{night.pk}/money/")
    larry = org.locator(".door-list > li", has_text="Larry Late")
    assert "$10.00" in larry.inner_text()
    vera = org.locator(".door-list > li", has_text="Vera Substitute")
    assert vera.locator(".pay button").count() == 0
    larry.locator(".pay button:has-text('cash')").click()
    org.wait_for_load_state()
    shot(org, "09-money-latecomer-and-substitute")

    # A door prize, drawn during game 3: the room keeps the seating on screen beside the draw.
    org.goto(f"{base}/nights/{night.pk}/")
    org.click("button:has-text('Seat and start game 3')")
    org.wait_for_selector("text=Game 3 of 6 is being played", timeout=POLL)
    third = current()
    assert (
        third.seatings.filter(player__name="Larry Late").exists()
        or third.byes.filter(player__name="Larry Late").exists()
    )
    org.goto(f"{base}/nights/{night.pk}/money/")
    org.fill("#id_title", "Door prize")
    org.click("button:has-text('Draw now')")
    org.wait_for_load_state()
    room.wait_for_selector(".room-draw.band", timeout=POLL)
    assert room.locator(".room-finder li:visible").count() >= 8
    room.wait_for_timeout(9000)  # the spin ends on the winner
    room.screenshot(path=str(ARTIFACTS / "volunteer-10-room-draw-during-game-3.png"))

    # 9:45: this is the last game.
    org.goto(f"{base}/nights/{night.pk}/")
    org.click("button:has-text('This is the last game')")
    org.wait_for_selector("text=Game 3 is the last game")
    assert "Last game (3 of 3)" in org.request.get(f"{base}/").text()
    room.wait_for_selector("text=the last game", timeout=POLL)
    org.click("button:has-text('Ring the bell now')")
    # The desk is opened once the bell has rung, as the keeper does: opened before, on a busy machine, it showed the
    # game still under way, and the head table's slip (fewer points than its 8 hands make) was rightly refused.
    org.wait_for_selector("text=the bell has rung", timeout=POLL)
    desk.goto(f"{base}/nights/{night.pk}/desk/")
    slips_by_keyboard(desk, sorted(set(third.seatings.values_list("table", flat=True))))
    # Every slip in: the last game waits for a last look (the desk's cursor on its bar), then the keeper's Close.
    desk.wait_for_selector("#desk-close[data-last]", timeout=POLL)
    assert night_now().status == Night.Status.PLAYING
    desk.click("#desk-close[data-last]")
    org.goto(f"{base}/nights/{night.pk}/")
    org.wait_for_selector("text=The night is over", timeout=POLL)
    assert night_now().status == Night.Status.FINISHED and night_now().rounds.count() == 3
    assert not Round.objects.filter(night=night, number=4).exists()
    shot(org, "11-night-over")
    room.wait_for_selector("text=Thank you for playing", timeout=POLL)
    room.screenshot(path=str(ARTIFACTS / "volunteer-12-room-final.png"))

    # The close: the prize sheet, the reconciliation and the cards, each read as its reader would.
    reconciliation = pdf_text(org, f"{base}/nights/{night.pk}/reconciliation.pdf")
    close = selectors.night_close(night_now())
    assert "$220.00" in reconciliation  # 22 entries of $10: Bob's covers Vera, Larry paid at the door
    assert close.reconciliation.cash.net == 22_000
    prizes = pdf_text(org, f"{base}/nights/{night.pk}/prize-sheet.pdf")
    assert "High" in prizes and "Low" in prizes
    final_cards = pdf_text(org, f"{base}/nights/{night.pk}/tally-cards.pdf?per_page=4")
    assert "Larry Late" in final_cards and "Loners" in final_cards


def test_the_organizer_ends_the_night_early_from_a_phone(live_server, browser, django_user_model):
    """9:45, game 2 under way, the organizer on a phone: the night page shows the everyday buttons first, "End the
    night now…" says what happens to game 2 before anything is done, and a double tap on the confirmation ends the
    night once."""
    from tests.conftest import NAMES, play_round
    from tournament import game, services
    from tournament.models import Night

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Early night", games=8, auto_advance=False)
    services.players_register(night=night, names=NAMES[:8])
    first = game.round_start(round_=services.night_draw(night=night, seed=2))
    play_round(first, {1: (5, 3), 2: (2, 6)})
    game.round_start(round_=game.round_close(round_=first))

    page = browser.new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")
    page.wait_for_selector("text=Game 2 of 8 is being played")
    shot(page, "20-night-page-on-a-phone")
    buttons_before_the_game = page.evaluate(
        """() => { const game = document.querySelector('#round').getBoundingClientRect().top;
          return [...document.querySelectorAll('main a.button, main button, main summary.button')]
            .filter(el => el.getBoundingClientRect().height > 0 && el.getBoundingClientRect().top < game).length; }"""
    )
    assert buttons_before_the_game <= 6
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("text=End the night now…")
    words = page.inner_text(".lead")
    assert "Game 2 is under way" in words and "not counted" in words and "after game 1" in words
    axe(page, "end-the-night")
    shot(page, "21-end-the-night-asks-first")
    button = page.locator("button:has-text('Drop game 2 and end the night')")
    button.dblclick()
    page.wait_for_selector("text=The night is over")
    night.refresh_from_db()
    assert (night.status, night.games, night.rounds.count()) == (Night.Status.FINISHED, 1, 1)
    shot(page, "22-ended-early")


def test_a_paid_player_who_cannot_come_is_refunded_and_taken_off_the_night(live_server, browser, django_user_model):
    """Before the draw, Ann phones: she cannot come. The treasurer gives her $10 back on the Money page, the
    organizer takes her off the list with ✕, and the cash still shows her money in and out, owing nothing for her."""
    from tests.conftest import register
    from tournament import services
    from tournament.models import Entry, Payment

    base = live_server.url
    night = services.night_create(name=NAME, games=3, price=1000)
    register(night, 8)
    ann = Entry.objects.get(night=night, name="Ann Kowalski")
    org = organizer_page(browser, base, django_user_model, PHONE)
    org.goto(f"{base}/nights/{night.pk}/money/")
    org.click(f"#entry-{ann.pk} .pay button:has-text('cash')")
    org.wait_for_selector(f"#entry-{ann.pk} .refund summary")

    # ✕ while her money is in the box: refused, with how much, and she stays.
    org.goto(f"{base}/nights/{night.pk}/")
    org.locator("#entries li", has_text="Ann Kowalski").locator("button[title='Remove from tonight']").click()
    refusal = org.locator("#entries li", has_text="Ann Kowalski").locator(".error[role=alert]")
    refusal.wait_for()
    assert "has $10.00 cash on the Money page" in refusal.inner_text()  # on her line, where the ✕ was
    box = refusal.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert Entry.objects.filter(pk=ann.pk).exists()

    # A refund sent without its reason, on the door list's last line: the page comes back with the refusal in
    # view and the cursor in the box it asks for, not at the top of a long page.
    org.goto(f"{base}/nights/{night.pk}/money/")
    last = org.locator("#who-paid .door-list > li").last
    last_id = last.get_attribute("id").removeprefix("entry-")
    last.locator(".pay button:has-text('cash')").click()
    org.wait_for_selector(f"#entry-{last_id} .refund summary")
    org.click(f"#entry-{last_id} .refund summary")
    org.fill(f"#id_r{last_id}-cents", "10")
    org.click(f"#entry-{last_id} .refund button:has-text('Refund')")
    org.wait_for_selector(f"#entry-{last_id} .has-error")
    org.wait_for_function(f"() => document.activeElement.id === 'id_r{last_id}-reason'")
    seen = org.evaluate(
        "() => { const r = document.querySelector('.has-error').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight && window.scrollY > 0; }"
    )
    assert seen, "the refusal is out of view"
    org.screenshot(path=str(ARTIFACTS / "volunteer-refund-refused-in-view.png"))  # what the screen shows

    # ✕ on that last player, who has paid: the refusal on their line, in view, at the foot of the list.
    org.goto(f"{base}/nights/{night.pk}/")
    last_line = org.locator(f"#entries li:has(form[action$='/entries/{last_id}/remove/'])")
    last_line.locator("button[title='Remove from tonight']").click()
    refusal = last_line.locator(".error[role=alert]")
    refusal.wait_for()
    box = refusal.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box

    org.goto(f"{base}/nights/{night.pk}/money/")
    org.click(f"#entry-{ann.pk} .refund summary")
    org.fill(f"#id_r{ann.pk}-cents", "10")
    org.select_option(f"#id_r{ann.pk}-method", "cash")
    org.fill(f"#id_r{ann.pk}-reason", "cannot come, phoned")
    org.click(f"#entry-{ann.pk} .refund button:has-text('Refund')")
    org.wait_for_selector(f"#entry-{ann.pk}.owes")

    org.goto(f"{base}/nights/{night.pk}/")
    org.locator("#entries li", has_text="Ann Kowalski").locator("button[title='Remove from tonight']").click()
    org.wait_for_function("() => !document.querySelector('#entries').textContent.includes('Ann Kowalski')")
    assert not Entry.objects.filter(pk=ann.pk).exists()

    org.goto(f"{base}/nights/{night.pk}/money/")
    removed = org.locator("#who-paid .removed")
    assert "Ann Kowalski" in removed.inner_text() and "cannot come, phoned" in removed.inner_text()
    totals = org.locator(".money-totals").inner_text()
    assert "7 entries" in totals and "$60.00" in totals  # six owe $10 each; Ann is nobody's debt
    assert Payment.objects.filter(entry=None, name="Ann Kowalski").count() == 2
    org.locator("#taken-off").scroll_into_view_if_needed()
    shot(org, "money-taken-off-phone")
    axe(org, "volunteer-money-taken-off")
    org.set_viewport_size(WIDE)
    shot(org, "money-taken-off-wide")
