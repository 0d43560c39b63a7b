"""Accessibility as a habit, in a real browser (issue 33): the screens no other browser test opens pass axe-core, the
table's phone pages are worked with a finger and a keyboard, and the hand page holds at twice the text size.

Many players are over 60 and read the pages on their phones with the text made larger. Screenshots at 390×844 and
1920×1080 in test-artifacts/e2e/access-*.png; axe's answer for each screen in test-artifacts/e2e/axe-*.json.
"""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_browser_night import NAMES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1920, "height": 1080}
FINGER = 44  # CSS px: the usual smallest target for a finger (Apple's 44 pt, WCAG 2.5.5)

# Every control a finger may need on the table's phone pages, with its size on the screen.
TARGETS = """(root) => [...document.querySelectorAll(root
    + ' :is(a, button, input:not([type=hidden]), select, textarea, label.toggle, summary)')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter(el => !(el.matches('input[type=checkbox], input[type=radio]') && el.closest('label.toggle')))
  .map(el => { const box = el.getBoundingClientRect();
               return {what: el.outerHTML.slice(0, 90), width: box.width, height: box.height}; })"""

# Elements whose text is cut (wider than their box and clipped) or that reach past the right edge of the screen.
CUT = """(selector) => [...document.querySelectorAll(selector)].filter(el => el.scrollWidth > el.clientWidth + 1
  || el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map(el => el.textContent.trim())"""


def shot(page, name: str, *, whole: bool = True) -> None:
    """The page (`whole`) or the screen as it shows now: a whole-page shot undoes `larger_text` in Chromium."""
    page.screenshot(path=str(ARTIFACTS / f"access-{name}.png"), full_page=whole)


def larger_text(page, factor: int = 2):
    """The browser's own text size setting, as a person with weak eyes sets it: Chromium's default font size (16 px)
    made `factor` times larger (Settings → Appearance → Font size; DevTools protocol's Page.setFontSizes). Pages
    sized in rem and em grow with it; text sized in px would ignore it. The setting lasts as long as the session
    returned is kept (a session let go is detached, and the size goes back), and until a whole-page screenshot."""
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": 16 * factor, "fixed": 13 * factor}})
    return session


def _night(name: str = "Access night", games: int = 3):
    """A night of eight (two tables) with prices, game 1 played and closed, game 2 under way: its standings, awards,
    money and every table's link exist. The night and the table links: {table: token}."""
    from scoring.models import TableLink
    from tests.conftest import play_round
    from tournament import game, services

    night = services.night_create(name=name, games=games, auto_advance=False)
    services.money_settings(night=night, currency="USD", pre=500, door=700, member=None)
    services.players_register(night=night, names=NAMES.splitlines()[:8])
    first = play_round(services.night_draw(night=night, seed=5), {1: (7, 5), 2: (8, 6)})
    game.round_start(round_=game.round_close(round_=first))
    services.table_links_ensure(night=night)
    return night, dict(TableLink.objects.filter(night=night, active=True).values_list("table", "token"))


def _log_in(page, base: str, django_user_model) -> None:
    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    page.goto(f"{base}/")
    page.fill("#id_username", "organizer")
    page.fill("#id_password", "euchre-night-1")
    page.click("button.primary")


def test_the_screens_no_other_browser_test_opens_pass_axe(live_server, browser, django_user_model):
    night, tokens = _night()
    base, pk = live_server.url, night.pk
    from tournament import services
    from tournament.models import Entry

    # The Money page with a draw (its recipe and its "Check it") and prizes the pot cannot cover (said plainly).
    services.draw_make(night=night, title="Door prize", count=2, pool_kind="players")
    services.payment_take(night=night, entry=Entry.objects.filter(night=night).first(), method="cash")
    services.night_update(night=night, prizes="high $50, low", prizes_confirmed=True)

    org = browser.new_page(viewport=WIDE)
    _log_in(org, base, django_user_model)
    for path, screen in (
        ("settings/", "night-settings"),
        ("money/", "money"),
        ("rules/", "scoring-rules"),
        ("wishes/", "partner-wishes"),
        ("fairness/", "fairness"),
    ):
        org.goto(f"{base}/nights/{pk}/{path}")
        axe(org, screen)
        shot(org, f"{screen}-1920")
    # A setting refused: its error and its help are read with the box (aria-describedby), and it passes axe.
    org.goto(f"{base}/nights/{pk}/settings/")
    org.fill("#id_prizes", "")
    org.click("button.primary")
    org.wait_for_selector(".has-error #id_prizes")
    described = org.get_attribute("#id_prizes", "aria-describedby").split()
    assert described == ["id_prizes_helptext", "id_prizes_error"]
    assert org.inner_text("#id_prizes_error").strip() and org.inner_text("#id_prizes_helptext").strip()
    assert org.get_attribute("#id_prizes", "aria-invalid") == "true"
    axe(org, "night-settings-refused")
    # A question about the prizes (more than the pot holds): asked beside the field, with the tick that answers it.
    org.fill("#id_prizes", "high $60, low")
    org.click("button.primary")
    org.wait_for_selector("#id_prizes_confirmed")
    assert "The pot holds $5.00" in org.inner_text("#id_prizes_error")
    axe(org, "night-settings-asked")
    org.check("#id_prizes_confirmed")
    org.click("button.primary")
    org.wait_for_url(f"**/nights/{pk}/")
    org.goto(f"{base}/nights/{pk}/money/")
    assert "The prizes are more than the pot." in org.inner_text("#prize-money")
    org.click("#draws summary:has-text('How to check a draw')")
    org.click("#draw-1 summary:has-text('Check it')")
    axe(org, "money-draw-checked")

    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{base}/public/nights/{pk}/me/")
    axe(phone, "find-your-seat")
    phone.fill("#q", "nobody like this")
    phone.click("button:has-text('Find me')")
    phone.wait_for_selector(".error")
    axe(phone, "find-your-seat-nobody")
    phone.fill("#q", "a")  # several names: "Which one are you?"
    phone.click("button:has-text('Find me')")
    phone.wait_for_selector("ul.pick")
    axe(phone, "find-your-seat-which")
    phone.click("ul.pick a >> nth=0")
    phone.wait_for_selector(".place")
    axe(phone, "player-page-playing")
    shot(phone, "player-page-390")

    for size, label in ((PHONE, "390"), (WIDE, "1920")):
        public = browser.new_page(viewport=size)
        public.goto(f"{base}/public/nights/{pk}/")
        public.wait_for_selector("table.standings")
        axe(public, f"public-standings-{label}")
        shot(public, f"public-standings-{label}")
        public.close()

    # The table's phone: one side enters the totals, and the other sees them to confirm with a code of theirs.
    table = browser.new_page(viewport=PHONE)
    table.goto(f"{base}/t/{tokens[2]}/")
    table.fill("input[name=ns_points]", "5")
    table.fill("input[name=ew_points]", "3")
    from tests.conftest import code_at

    table.fill("input[name=code]", code_at(night.rounds.get(number=2), 2, "NS"))
    table.click("button:has-text('Save the score')")
    table.wait_for_selector("text=That's right — confirm")
    axe(table, "table-confirm")
    shot(table, "table-confirm-390")

    room = browser.new_page(viewport=WIDE)  # the room display in game 2: the seating, then the standings' page
    room.clock.install()
    room.goto(f"{base}/public/nights/{pk}/display/")
    room.wait_for_selector(".room-finder li")
    axe(room, "room-display-seating")
    for _ in range(30):  # the pages turn on the display's own clock: run it on to the standings' page
        if room.locator(".room-table").is_visible():
            break
        room.clock.run_for(2000)
    assert room.locator(".room-table").is_visible()
    axe(room, "room-display-standings")
    room.screenshot(path=str(ARTIFACTS / "access-room-display-standings-1920.png"))


def test_the_standings_box_scrolls_by_keyboard_when_the_columns_are_wider_than_the_screen(live_server, browser):
    """A laptop with the text at twice its size, eight games in: the per-game columns run past the screen, and the
    box that holds them is a tab stop (a named region), so arrow keys scroll it."""
    from tests.conftest import play_round
    from tournament import game

    night, _ = _night("Scroll night", games=9)
    playing = night.rounds.get(number=2)
    for _ in range(7):
        playing = game.round_start(round_=game.round_close(round_=play_round(playing, {1: (7, 5), 2: (8, 6)})))
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    setting = larger_text(page)
    page.goto(f"{live_server.url}/public/nights/{night.pk}/")
    box = page.locator(".scroll").first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # it does scroll here
    assert box.get_attribute("role") == "region" and box.get_attribute("aria-label")
    for _ in range(60):  # from the top of the page, Tab until the box has the keyboard
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('scroll')"):
            break
    else:
        raise AssertionError("Tab never reached the standings box")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.activeElement.scrollLeft > 0")
    axe(page, "public-standings-200-percent")
    shot(page, "public-standings-1024-200-percent", whole=False)
    setting.detach()


def _targets(page, root: str) -> list[dict]:
    """The controls under `root` smaller than a finger in either direction."""
    return [t for t in page.evaluate(TARGETS, root) if t["width"] < FINGER - 0.5 or t["height"] < FINGER - 0.5]


def test_the_table_phone_pages_take_a_finger_and_show_the_keyboard(live_server, browser):
    """Every control on the table's phone pages is at least 44×44 CSS px, in each state of a hand (the first
    dealer's chips, who called, "change", the tricks, undo, the codes and "Game over"); and each shows a ring
    when the keyboard reaches it."""
    _, tokens = _night("Finger night")
    base = live_server.url
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{base}/t/{tokens[2]}/")
    assert _targets(phone, "#entry") == []
    phone.click("text=Or enter it hand by hand")
    phone.wait_for_selector(".chip")  # no hand yet: the first dealer's chips
    assert _targets(phone, "main") == []
    phone.click(".big-buttons.four a >> nth=1")
    phone.wait_for_selector("button[name=tricks]")
    assert _targets(phone, "main") == []  # "change", the tricks
    shot(phone, "hands-tricks-390")
    phone.click("button[name=tricks][value='3']")
    phone.wait_for_selector("#hand-panel .ok-note")
    assert _targets(phone, "main") == []  # the hands so far, undo, the codes and "Game over"

    phone.reload()  # the keyboard from the top of the page
    rings = []
    for _ in range(40):  # the keyboard's ring, on each control in turn to the end of the page
        phone.keyboard.press("Tab")
        ring = phone.evaluate(
            """() => { const el = document.activeElement, style = getComputedStyle(el);
              return el === document.body ? null : [el.outerHTML.slice(0, 60), style.outlineStyle,
                                                     parseFloat(style.outlineWidth)]; }"""
        )
        if ring is None:
            break
        rings.append(ring)
    assert len(rings) >= 8  # the link back, the hand's buttons, undo, the two codes, "Game over"
    assert [what for what, style, width in rings if style != "solid" or width < 2] == []


def test_the_hand_page_fits_a_phone_with_the_text_at_twice_its_size(live_server, browser):
    """The hand page at 390×844 with the browser's text size at 200% (`larger_text`): nothing wider than the
    phone, no name cut, and the score that stays in view takes at most a quarter of the screen."""
    night, tokens = _night("Large text night")
    from scoring import rules
    from tournament import game

    playing = night.rounds.get(number=2)
    for maker, tricks, alone in (("N", 3, False), ("E", 5, True), ("S", 1, False)):  # the hands table, its columns
        game.hand_record(round_=playing, table=2, hand=rules.Hand(makers="", maker=maker, tricks=tricks, alone=alone))
    url = f"{live_server.url}/t/{tokens[2]}/hands/"
    page = browser.new_page(viewport=PHONE)
    page.goto(url)
    shot(page, "hands-390-100-percent")
    setting = larger_text(page)
    page.goto(url)
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32  # the text really doubled
    for state in ("who called", "tricks"):
        if state == "tricks":
            page.click(".big-buttons.four a >> nth=1")
            page.wait_for_selector("button[name=tricks]")
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32, state
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], state
        assert page.evaluate(CUT, ".score-names .who, .big-button, .big-button b, .next, h1, h2") == [], state
        assert page.evaluate(CUT, "table.hands, table.hands th, table.hands td") == [], state  # N–S, E–W in sight
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # scrolled down: the score stays in view
        board = page.locator(".scoreboard").bounding_box()
        assert board["y"] >= -1 and board["y"] + board["height"] <= PHONE["height"], (state, board)  # in view
        assert board["height"] <= 0.25 * PHONE["height"], (state, board)
        shot(page, f"hands-390-200-percent-{state.replace(' ', '-')}-scrolled", whole=False)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"hands-390-200-percent-{state.replace(' ', '-')}", whole=False)
    assert page.locator(".score-names .who").nth(1).inner_text().startswith("E–W")
    # The head table's page: its "Head table" badge one piece (it broke into two dark blocks), the hands table
    # inside its panel.
    for maker, tricks in (("E", 3), ("N", 5)):
        game.hand_record(round_=playing, table=1, hand=rules.Hand(makers="", maker=maker, tricks=tricks, alone=False))
    page.goto(f"{live_server.url}/t/{tokens[1]}/hands/")
    assert page.locator(".hand-title .tag").inner_text() == "Head table"
    assert page.evaluate("document.querySelector('.hand-title .tag').getClientRects().length") == 1
    hands, panel = page.locator("table.hands").bounding_box(), page.locator(".hand-panel").bounding_box()
    assert hands["x"] >= panel["x"] - 0.5 and hands["x"] + hands["width"] <= panel["x"] + panel["width"] + 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "hands-390-200-percent-head-table", whole=False)
    page.set_viewport_size({"width": 320, "height": 700})  # a small phone: the title wraps where the badge is
    assert page.evaluate("document.querySelector('.hand-title .tag').getClientRects().length") == 1
    shot(page, "hands-320-200-percent-head-table", whole=False)
    wide = browser.new_page(viewport=WIDE)
    wide_setting = larger_text(wide)
    wide.goto(url)
    assert wide.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    shot(wide, "hands-1920-200-percent", whole=False)
    for each in (setting, wide_setting):
        each.detach()


def test_the_public_standings_and_the_hand_page_s_change_fit_a_phone_with_the_text_at_twice_its_size(
    live_server, browser
):
    """From a trial with a player over 60 (the text at 200%): the public standings needed a sideways swipe to read a
    row, and "change" on the hand page ran out of its button. Every cell of the standings whole on the screen, the
    chip around its word."""
    night, tokens = _night("Large standings night")
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/public/nights/{night.pk}/")  # the usual text size: Loners was cut there too
    assert page.evaluate(CUT, ".scroll, table.standings, table.standings th, table.standings td") == []
    loners = page.locator("table.standings td[data-label=Loners]")
    assert loners.count() == 8 and all(loners.nth(n).is_visible() for n in range(8))
    page.locator("table.standings").scroll_into_view_if_needed()
    shot(page, "public-standings-390-100-percent", whole=False)
    setting = larger_text(page)
    page.goto(f"{live_server.url}/public/nights/{night.pk}/")
    page.wait_for_selector("table.standings")
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 32
    assert page.locator("table.standings tbody tr").count() == 8
    assert page.evaluate(CUT, ".scroll, table.standings, table.standings th, table.standings td") == []
    page.locator("table.standings").scroll_into_view_if_needed()
    shot(page, "public-standings-390-200-percent", whole=False)
    page.goto(f"{live_server.url}/t/{tokens[2]}/hands/")
    page.click(".big-buttons.four a >> nth=1")
    page.wait_for_selector("button[name=tricks]")
    assert page.evaluate(CUT, ".called, .called > *, .chip") == []
    shot(page, "hands-change-390-200-percent", whole=False)
    setting.detach()
