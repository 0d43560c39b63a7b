"""The table's phone with no Wi-Fi (#37): hands entered while the network is cut are kept on the phone and sent, in
order, once, when it is back; one the desk made stale meanwhile is refused and said on the phone.

The live server listens on every address and the phones open it at the machine's network address, as at the venue:
browsers treat 127.0.0.1 as a secure origin, the hall's http:// address not (no service worker there), so the queue
is tested where it must work. Each phone is a browser context of its own (its own storage, its own network), cut
with Playwright's offline mode. Screenshots in test-artifacts/e2e/offline-*.png; axe-core checks the new states.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_browser_access import _targets

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
POLL = 12_000  # ms: a few polls (every 3 s), on a slow machine
SENT = 30_000  # ms: a phone's kept hands sent in order, each answered, on a machine running the whole suite
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def venue_server(transactional_db):
    """The app served on every address of this machine, its URL at the first network address (not loopback)."""
    from pytest_django.live_server_helper import LiveServer

    from tournament.addresses import lan_addresses

    found = lan_addresses()
    if not found:
        pytest.skip("this machine has no network address but loopback")
    server = LiveServer("0.0.0.0")
    server._live_server_modified_settings.enable()
    try:
        yield f"http://{found[0]}:{server.thread.port}"
    finally:
        server._live_server_modified_settings.disable()
        server.stop()


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"offline-{name}.png"), full_page=True)


def tap(phone, maker: int, tricks: int) -> None:
    """Who called (0-3: N, E, S, W), then the makers' tricks: from the server's panel or the one the phone draws."""
    phone.click(f"#hand-panel .big-buttons.four > :nth-child({maker + 1})")
    phone.click(f"#hand-panel button[name=tricks][value='{tricks}']")


def tap_online(phone, maker: int, tricks: int) -> None:
    tap(phone, maker, tricks)
    phone.wait_for_selector("#hand-panel .ok-note", timeout=POLL)


def tap_offline(phone, maker: int, tricks: int, waiting: int) -> None:
    tap(phone, maker, tricks)
    phone.wait_for_selector(f"#offline-note:has-text('({waiting} waiting)')", timeout=POLL)


def score(phone) -> tuple[int, int]:
    ns, ew = phone.locator("#hand-panel .scoreboard .pts").all_inner_texts()
    return int(ns), int(ew)


def stored(round_, table: int) -> list[tuple[int, str, str, int]]:
    from scoring.models import Hand

    hands = Hand.objects.filter(result__round=round_, result__table=table).order_by("number")
    return [(h.number, h.dealer, h.maker, h.tricks) for h in hands]


def test_hands_entered_with_no_wifi_are_sent_once_in_order_and_a_stale_one_is_refused(
    venue_server, browser, django_user_model
):
    from scoring.models import Hand, TableLink, TableResult
    from tests.conftest import NAMES
    from tournament import game, services
    from tournament.models import Round

    django_user_model.objects.create_user("organizer", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Offline night", games=2, auto_advance=True)
    services.players_register(night=night, names=NAMES[:8])
    first_game = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.table_links_ensure(night=night)
    tokens = dict(TableLink.objects.filter(night=night, active=True).values_list("table", "token"))
    base = venue_server
    assert "127.0.0.1" not in base and "localhost" not in base

    def phone_at(table: int):
        context = browser.new_context(viewport=PHONE)
        phone = context.new_page()
        phone.on("dialog", lambda dialog: dialog.accept())
        phone.goto(f"{base}/t/{tokens[table]}/hands/")
        assert phone.evaluate("window.isSecureContext") is False  # as at the venue: no service worker here
        return context, phone

    (two_net, two), (head_net, head) = phone_at(2), phone_at(1)
    tap_online(two, 0, 3)  # hand 1: N called, 3 tricks
    tap_online(head, 1, 5)

    # The Wi-Fi goes: both phones go on entering hands, each kept on the phone with its place in the queue.
    for context in (two_net, head_net):
        context.set_offline(True)
    for phone in (two, head):  # said at once, before anyone taps
        phone.wait_for_selector("#reconnecting:has-text('No Wi-Fi: hands are kept on this phone')", timeout=POLL)
    tap_offline(two, 1, 5, 1)  # hand 2: E called, 5 tricks (a march)
    tap_offline(two, 2, 1, 2)  # hand 3: S euchred
    assert score(two) == (1 + 0 + 0, 0 + 2 + 2)  # the running score goes on from what the phone holds
    two.wait_for_selector("#hand-panel .next:has-text('Hand 4')")
    two.wait_for_selector("#hand-panel .next:has-text('(W)')")  # the deal passes on: N, E, S, then W deals hand 4
    shot(two, "1-kept")
    axe(two, "offline-kept")
    assert _targets(two, "main") == []  # every control the phone draws takes a finger: who called, undo, the codes
    two.click("#hand-panel .big-buttons.four > :nth-child(2)")
    two.wait_for_selector("#hand-panel.offline-panel button[name=tricks]")
    assert _targets(two, "main") == []  # "change", the toggles, the tricks, the reneges
    axe(two, "offline-choosing")
    two.click("#hand-panel button:has-text('change')")
    two.click("#hand-panel button:has-text('Undo hand 3')")  # a kept hand taken back is never sent
    two.wait_for_selector("#offline-note:has-text('(1 waiting)')")
    tap_offline(two, 3, 3, 2)  # hand 3 again: W called, 3 tricks
    tap_offline(two, 0, 4, 3)  # hand 4: N called, 4 tricks
    assert score(two) == (1 + 0 + 0 + 1, 0 + 2 + 1 + 0)

    head.click("#hand-panel button:has-text('Undo hand 1')")  # a hand the server has, taken back while offline
    head.wait_for_selector("#offline-note:has-text('(1 waiting)')")
    tap_offline(head, 0, 3, 2)  # hand 1 again, then 2 and 3
    tap_offline(head, 2, 5, 3)
    tap_offline(head, 3, 0, 4)
    assert score(head) == (1 + 2 + 2, 0)
    assert stored(first_game, 2) == [(1, "N", "N", 3)] and stored(first_game, 1) == [(1, "N", "E", 5)]

    two.close()  # table 2's tab is closed with its hands still on the phone
    for context in (two_net, head_net):
        context.set_offline(False)
    head.wait_for_selector("#hand-panel:not(.offline-panel) >> text=↶ Undo hand 3", timeout=POLL)
    assert head.locator("#offline-note:visible, #offline-refused").count() == 0
    head.wait_for_selector("#reconnecting", state="detached", timeout=POLL)
    two = two_net.new_page()
    two.goto(f"{base}/t/{tokens[2]}/hands/")  # the next time the table's page opens, the kept hands are sent
    try:  # three hands sent one after another, then the panel drawn again: more than a poll on a busy machine
        two.wait_for_selector("#hand-panel:not(.offline-panel) >> text=↶ Undo hand 4", timeout=SENT)
    finally:
        shot(two, "2-sent")
    assert two.locator("#offline-refused").count() == 0

    assert stored(first_game, 2) == [(1, "N", "N", 3), (2, "E", "E", 5), (3, "S", "W", 3), (4, "W", "N", 4)]
    assert stored(first_game, 1) == [(1, "N", "N", 3), (2, "E", "S", 5), (3, "S", "W", 0)]
    for table in (1, 2):
        result = TableResult.objects.get(round=first_game, table=table)
        hands = Hand.objects.filter(result=result)
        assert (result.ns_points, result.ew_points) == (
            sum(h.ns_points for h in hands),
            sum(h.ew_points for h in hands),
        )
    assert score(two) == (2, 3) and score(head) == (5, 0)

    # Offline again: table 2 taps hand 5 while the desk takes over both tables; the night moves on to game 2.
    two_net.set_offline(True)
    tap_offline(two, 1, 3, 1)
    tap_offline(two, 2, 1, 2)  # hand 6: S called, 1 trick (kept after hand 5, so not sent once hand 5 is refused)
    organizer = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = organizer.new_page()
    desk.goto(f"{base}/")
    desk.fill("#id_username", "organizer")
    desk.fill("#id_password", "euchre-night-1")
    desk.click("button.primary")
    desk.goto(f"{base}/nights/{night.pk}/")
    desk.on("dialog", lambda dialog: dialog.accept())
    desk.click("button:has-text('Ring the bell now')")  # the bell: every table in, game 1 closes by itself
    desk.wait_for_selector("text=BELL", timeout=POLL)
    # The night page reloads itself when game 1 closes (every table in): a reload may cut this navigation short.
    for attempt in range(3):
        try:
            desk.goto(f"{base}/nights/{night.pk}/desk/")
            break
        except PlaywrightError:
            if attempt == 2:
                raise
            desk.wait_for_load_state()
    for table, (ns, ew) in ((2, (7, 5)), (1, (10, 4))):
        desk.fill(f"input[name=t{table}-ns_points]", str(ns))
        desk.fill(f"input[name=t{table}-ew_points]", str(ew))
        desk.check(f"input[name=t{table}-take_over]")
        desk.press(f"input[name=t{table}-ew_points]", "Enter")
        desk.wait_for_selector(f"#desk-{table} .ok", timeout=POLL)
    second_game = Round.objects.get(night=night, number=2)

    two_net.set_offline(False)
    refusal = two.wait_for_selector("#offline-refused", timeout=POLL)
    words = refusal.inner_text()
    # Each item names its game; game 1 is over, so nothing invites entering its hands again on game 2's page.
    assert "Game 1, hand 5 (E, 3 tricks): The desk entered N–S 7, E–W 5 for table 2 in game 1" in words
    assert "Ask the score keeper" in words
    assert "Game 1, hand 6 (S, 1 trick): not saved (Not sent: it came after hand 5 (E, 3 tricks)" in words
    assert "enter it again" not in words
    two.wait_for_selector("#hand-panel:not(.offline-panel) >> text=Table 2 · game 2", timeout=POLL)
    shot(two, "3-refused")
    axe(two, "offline-refused")
    assert _targets(two, "main") == []
    result = TableResult.objects.get(round=first_game, table=2)
    assert (result.ns_points, result.ew_points, result.entry) == (7, 5, TableResult.Entry.TOTALS)
    assert not Hand.objects.filter(result__round=second_game).exists()
    assert not TableResult.objects.filter(round=second_game).exists()  # game 2 untouched

    two.click("text=Understood")
    two.wait_for_selector("#offline-refused", state="detached")
    two.reload()  # the refusal, once read, is gone for good; nothing is left waiting
    two.wait_for_selector("text=Table 2 · game 2")
    assert two.locator("#offline-refused, #offline-note:visible").count() == 0


def test_a_game_score_and_its_confirmation_typed_with_no_wifi_are_sent_when_it_is_back(venue_server, browser):
    from scoring.models import Submission, TableLink, TableResult
    from tests.conftest import NAMES, code_at
    from tournament import game, services

    night = services.night_create(name="Offline totals", games=2, auto_advance=False)
    services.players_register(night=night, names=NAMES[:8])
    first_game = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.table_links_ensure(night=night)
    token = TableLink.objects.get(night=night, table=2, active=True).token
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(f"{venue_server}/t/{token}/")

    context.set_offline(True)
    phone.fill("input[name=ns_points]", "5")
    phone.fill("input[name=ew_points]", "3")
    phone.fill("input[name=code]", code_at(first_game, 2, "N"))
    phone.click("button:has-text('Save the score')")
    phone.wait_for_selector("#offline-note:has-text('(1 waiting)')")
    phone.wait_for_selector("#entry .ok-note:has-text('The score N–S 5, E–W 3')")
    axe(phone, "offline-score-kept")
    assert not Submission.objects.filter(round=first_game, table=2).exists()

    context.set_offline(False)  # sent: the draft waits for the other side, as if typed with the Wi-Fi up
    phone.wait_for_selector("#entry >> text=It counts once the other side confirms", timeout=POLL)
    context.set_offline(True)
    phone.fill("input[name=code] >> nth=0", code_at(first_game, 2, "E"))
    phone.click("button:has-text('confirm')")
    phone.wait_for_selector("#offline-note:has-text('(1 waiting)')")
    context.set_offline(False)
    phone.wait_for_selector("#entry .done-note:has-text('N–S 5, E–W 3')", timeout=POLL)
    result = TableResult.objects.get(round=first_game, table=2)
    assert (result.ns_points, result.ew_points, result.status) == (5, 3, TableResult.Status.FINAL)
    entries = Submission.objects.filter(round=first_game, table=2)
    assert entries.exists() and not entries.exclude(ns_points=5, ew_points=3).exists()
    assert not entries.filter(status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED]).exists()
    assert phone.locator("#offline-refused").count() == 0


def test_slips_typed_at_the_desk_with_no_wifi_are_kept_and_sent_in_order_when_it_is_back(
    venue_server, browser, django_user_model
):
    from scoring.models import TableResult
    from tests.conftest import NAMES
    from tournament import game, services

    django_user_model.objects.create_user("keeper", password="euchre-night-1", is_staff=True)
    night = services.night_create(name="Desk far away", games=2, auto_advance=False)
    services.players_register(night=night, names=NAMES[:8])
    first_game = game.round_start(round_=services.night_draw(night=night, seed=3))
    tablet_net = browser.new_context(viewport={"width": 1024, "height": 768})
    tablet = tablet_net.new_page()
    tablet.goto(f"{venue_server}/")
    tablet.fill("#id_username", "keeper")
    tablet.fill("#id_password", "euchre-night-1")
    tablet.click("button.primary")
    desk = f"{venue_server}/nights/{night.pk}/desk/"
    tablet.goto(desk)
    assert tablet.evaluate("window.isSecureContext") is False

    tablet_net.set_offline(True)  # the tablet at the far end of the hall loses the laptop
    tablet.fill("input[name=t1-ns_points]", "6")
    tablet.fill("input[name=t1-ew_points]", "2")
    tablet.press("input[name=t1-ew_points]", "Enter")
    tablet.wait_for_selector("#desk-1 .desk-offline-note:has-text('(1 waiting)')")
    assert tablet.evaluate("document.activeElement.name") == "t2-ns_points"  # on to the next slip, as after a save
    tablet.keyboard.type("7")
    tablet.keyboard.press("Tab")
    tablet.keyboard.type("7")  # a tie, with no word of who won the last hand: the server will refuse it
    tablet.keyboard.press("Enter")
    tablet.wait_for_selector("#desk-2 .desk-offline-note:has-text('Saved on this tablet') >> text=(2 waiting)")
    assert tablet.locator(".answer-error").count() == 0  # kept, not "not sent"
    tablet.screenshot(path=str(ARTIFACTS / "offline-desk-kept.png"), full_page=True)
    axe(tablet, "offline-desk-kept")
    assert not TableResult.objects.filter(round=first_game).exists()

    tablet.close()  # the tab closed with both slips on the tablet
    tablet_net.set_offline(False)
    tablet = tablet_net.new_page()
    tablet.goto(desk)  # the next time the desk opens, the slips go, in order
    tablet.wait_for_selector("#desk-1 .ok:has-text('6–2 in')", timeout=POLL)
    refused = tablet.wait_for_selector("#desk-2 .error", timeout=POLL)  # refused, why next to the boxes, as typed
    assert "The game is tied: say which team won the last hand." in refused.inner_text()
    assert tablet.input_value("input[name=t2-ns_points]") == tablet.input_value("input[name=t2-ew_points]") == "7"
    assert tablet.locator(".desk-offline-note").count() == 0
    tablet.screenshot(path=str(ARTIFACTS / "offline-desk-sent.png"), full_page=True)
    result = TableResult.objects.get(round=first_game, table=1)
    assert (result.ns_points, result.ew_points) == (6, 2)
    assert not TableResult.objects.filter(round=first_game, table=2).exists()
    assert tablet.evaluate("localStorage.length") == 0  # nothing left waiting


def test_a_kept_hand_is_sent_by_the_tab_opened_again_and_after_a_send_that_never_answers(venue_server, browser):
    """From a test run through a lossy relay: a table's phone closed while it was sending a kept hand left its
    "I am sending" mark on the phone, and the tab opened again waited 20 s before sending anything; and a send
    whose answer never comes held the phone's queue for good. The mark goes with the tab, and a send with no answer
    is given up and tried again (its key makes a second arrival the same hand): each hand is stored once."""
    from scoring.models import TableLink
    from tests.conftest import NAMES
    from tournament import game, services

    night = services.night_create(name="Hanging night", games=2, auto_advance=False)
    services.players_register(night=night, names=NAMES[:8])
    first_game = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.table_links_ensure(night=night)
    url = f"{venue_server}/t/{TableLink.objects.get(night=night, table=2, active=True).token}/hands/"
    context = browser.new_context(viewport=PHONE)
    held = []  # the sends the laptop never answers

    def hang_first(route):
        if route.request.method == "POST" and not held:
            held.append(route)  # neither answered nor refused: the connection just hangs
        else:
            route.continue_()

    phone = context.new_page()
    phone.goto(url)
    context.set_offline(True)
    tap_offline(phone, 0, 3, 1)
    context.route("**/t/**", hang_first)
    context.set_offline(False)
    phone.wait_for_function("() => Object.keys(localStorage).some((k) => k.startsWith('offline-sending:'))")
    assert held and stored(first_game, 2) == []
    phone.close()  # the tab closed while its send hangs; opened again, it sends the hand it kept
    again = context.new_page()
    again.goto(url)
    again.wait_for_selector("#offline-note", state="hidden", timeout=POLL)  # nothing waiting on the phone
    assert stored(first_game, 2) == [(1, "N", "N", 3)]

    again.wait_for_selector("#hand-panel:has-text('Undo hand 1')")  # the panel drawn again from the laptop
    again.wait_for_load_state("networkidle")
    held.clear()  # the next send hangs too; given up, it goes again on its own
    context.set_offline(True)
    tap_offline(again, 1, 5, 1)
    context.set_offline(False)
    again.wait_for_selector("#offline-note", state="hidden", timeout=30_000)
    assert held and stored(first_game, 2) == [(1, "N", "N", 3), (2, "E", "E", 5)]
    assert again.locator("#offline-refused, #offline-note:visible").count() == 0
    context.close()
