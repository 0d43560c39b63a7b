"""The keeper's desk by keyboard alone, in a real browser (#33, item 3).

A score keeper with a stack of paper slips and no mouse: the cursor starts in the first missing table's first box,
Tab goes through that table's boxes and then to its Save (never on down the page), Enter saves from any of them,
the "last hand" choice of a tie included, and the cursor moves on to the next missing table. A refused box gets the
cursor back with its text selected, so the slip's number typed again replaces it. The live poll redraws other
tables without moving the cursor or wiping what is typed. Every control of the desk has a name a screen reader
says, and the refusals are read with the box they are about. Screenshots in test-artifacts/e2e/desk-keys-*.png.
"""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
POLL = 12_000  # ms: a few of the desk's polls (every 3 s), on a slow machine
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1920, "height": 1080}
PASSWORD = "keep-score-1"


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"desk-keys-{name}.png"), full_page=True)


def night_started(players: int = 16, **settings):
    """A night of `players` seated and its game 1 started, with a score keeper: (night, round)."""
    from tests.conftest import NAMES
    from tournament import game, services

    night = services.night_create(name="Keyboard night", games=2, auto_advance=False, **settings)
    services.players_register(night=night, names=NAMES[:players])
    round_ = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.keeper_add(night=night, username="kate", password=PASSWORD)
    return night, round_


def desk_by_keys(browser, live_server, night, viewport=DESK):
    """The keeper logs in with the keyboard (the login page starts in its first box) and lands on the desk."""
    page = browser.new_page(viewport=viewport)
    page.goto(f"{live_server.url}/accounts/login/?next=/nights/{night.pk}/desk/")
    page.keyboard.type("kate")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("table.desk")
    return page


def focused(page) -> str:
    """What has the cursor: the name of a form's control, else its id."""
    return page.evaluate("() => document.activeElement.name || document.activeElement.id")


def wait_focus(page, name: str) -> None:
    page.wait_for_function("name => (document.activeElement.name || document.activeElement.id) === name", arg=name)


def two_slips(desk) -> None:
    """The keeper types two tables' slips, 6–2 and 3–5, each saved with Enter, the cursor going on by itself."""
    wait_focus(desk, "t1-ns_points")
    for table, score in ((1, ("6", "2")), (2, ("3", "5"))):
        desk.keyboard.type(score[0])
        desk.keyboard.press("Tab")
        desk.keyboard.type(score[1])
        desk.keyboard.press("Enter")
        desk.wait_for_selector(f"#desk-{table}.state-in")


def selected(page) -> str:
    """The text selected in the box that has the cursor (what typing will replace)."""
    return page.evaluate(
        "() => { const box = document.activeElement; return box.value.slice(box.selectionStart, box.selectionEnd); }"
    )


def described(page, selector: str) -> tuple[str, str]:
    """The name and description Chromium gives a control: what a screen reader says on reaching it."""
    session = page.context.new_cdp_session(page)
    node = session.send(
        "DOM.querySelector", {"nodeId": session.send("DOM.getDocument")["root"]["nodeId"], "selector": selector}
    )
    tree = session.send("Accessibility.getPartialAXTree", {"nodeId": node["nodeId"], "fetchRelatives": False})
    info = tree["nodes"][0]
    session.detach()
    return info.get("name", {}).get("value", ""), info.get("description", {}).get("value", "")


def test_the_keeper_types_every_slip_with_the_keyboard_alone(live_server, browser):
    from scoring.models import TableResult
    from tournament import game

    night, round_ = night_started()
    desk = desk_by_keys(browser, live_server, night)

    # The cursor is in the first missing table's first box as the desk opens.
    wait_focus(desk, "t1-ns_points")
    shot(desk, "1-opened")

    # Table 1 (the head table): a slip misread, 5 and 33. The E-W box is refused beside it, and gets the cursor
    # back with the 33 selected: the 3 typed next replaces it.
    desk.keyboard.type("5")
    desk.keyboard.press("Tab")
    assert focused(desk) == "t1-ew_points"
    desk.keyboard.type("33")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-1 .error")
    wait_focus(desk, "t1-ew_points")
    assert selected(desk) == "33"
    name, description = described(desk, "#id_t1-ew_points")
    assert name == "Table 1: E–W points"
    assert description.startswith("E–W: ") and description in desk.locator("#desk-1 .error").inner_text()
    shot(desk, "2-refused")
    desk.keyboard.type("3")
    assert desk.input_value("#id_t1-ew_points") == "3"
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-1.state-in")
    wait_focus(desk, "t2-ns_points")  # on to the next missing table
    result = TableResult.objects.get(round=round_, table=1)
    assert (result.ns_points, result.ew_points, result.winner) == (5, 3, "NS")

    # Table 2: a tie. Refused until the slip says who won the last hand: the cursor goes to that choice, a letter
    # picks E-W, and Enter on the choice saves.
    desk.keyboard.type("4")
    desk.keyboard.press("Tab")
    desk.keyboard.type("4")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-2 .error")
    wait_focus(desk, "t2-last_hand_winner")
    name, description = described(desk, "#id_t2-last_hand_winner")
    assert name == "Table 2: If tied, who won the last hand?"
    assert "The game is tied: say which team won the last hand." in description
    shot(desk, "3-tie-asked")
    desk.keyboard.type("e")
    assert desk.input_value("#id_t2-last_hand_winner") == "EW"
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-2.state-in")
    wait_focus(desk, "t3-ns_points")
    result = TableResult.objects.get(round=round_, table=2)
    assert (result.ns_points, result.ew_points, result.winner) == (4, 4, "EW")

    # Table 3: Tab goes through its boxes, its "last hand" and its Save, then off the tables; Shift+Tab comes back.
    order = []
    for _ in range(4):
        desk.keyboard.press("Tab")
        order.append(
            desk.evaluate(
                "() => [document.activeElement.name || document.activeElement.id,"
                " document.activeElement.closest('tr.desk-row')?.id || '']"
            )
        )
    assert order[:3] == [["t3-ew_points", "desk-3"], ["t3-last_hand_winner", "desk-3"], ["desk-3-save", "desk-3"]]
    assert order[3][1] == ""  # not table 4's history link nor its first box
    for _ in range(4):
        desk.keyboard.press("Shift+Tab")
    assert focused(desk) == "t3-ns_points"
    desk.keyboard.type("6")
    desk.keyboard.press("Tab")
    desk.keyboard.type("2")
    desk.keyboard.press("Tab")
    desk.keyboard.press("Tab")
    assert focused(desk) == "desk-3-save"
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-3.state-in")
    wait_focus(desk, "t4-ns_points")
    result = TableResult.objects.get(round=round_, table=3)
    assert (result.ns_points, result.ew_points) == (6, 2)
    shot(desk, "4-three-in")

    # The keeper starts table 4's slip while table 3 is corrected elsewhere: the poll redraws table 3 and leaves
    # the cursor, and the 7 typed, where they were.
    desk.keyboard.type("7")
    game.table_result_submit(round_=round_, table=3, ns_points=8, ew_points=2, expected_version=result.version)
    desk.wait_for_selector("#desk-3 .ok:has-text('8–2 in')", timeout=POLL)
    assert focused(desk) == "t4-ns_points"
    assert desk.input_value("#id_t4-ns_points") == "7"
    # ↑ goes to the same box of the table above, with its score selected to be typed over.
    desk.keyboard.press("ArrowUp")
    assert focused(desk) == "t3-ns_points" and selected(desk) == "8"
    desk.keyboard.press("ArrowDown")
    assert focused(desk) == "t4-ns_points"
    assert set(TableResult.objects.filter(round=round_).values_list("table", flat=True)) == {1, 2, 3}
    shot(desk, "5-typing-through-a-poll")

    # Table 4's slip says 30 to 2: more than a game's hands make, so the desk asks. The cursor goes to the tick
    # that answers; Enter there says yes and saves (a trial found Enter alone did nothing). Every table is in: the
    # cursor waits on "Close game 1", and stays there when the poll redraws the bar.
    desk.keyboard.type("30")
    desk.keyboard.press("Tab")
    desk.keyboard.type("2")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-4 .error")
    wait_focus(desk, "t4-sure")
    assert "is more than 8 hands make" in described(desk, "#id_t4-sure")[1]
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-4.state-in")
    wait_focus(desk, "desk-close")
    desk.wait_for_selector("text=Every table is in.", timeout=POLL)
    assert focused(desk) == "desk-close"
    result = TableResult.objects.get(round=round_, table=4)
    assert (result.ns_points, result.ew_points) == (30, 2)
    shot(desk, "6-every-table-in")

    phone = desk_by_keys(browser, live_server, night, viewport=PHONE)
    assert phone.evaluate("document.activeElement === document.body")  # no table missing: nowhere to start
    phone.locator("#id_t3-ns_points").click()  # a tap still reaches any table
    assert focused(phone) == "t3-ns_points"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "7-on-a-phone")


def test_every_control_of_the_desk_has_a_name_and_its_help(live_server, browser):
    """A night with tables of three (five "last hand" choices), then the same desk once its game is closed (a
    reason box on every table): Chromium names every control that takes the cursor."""
    from tournament import game

    night, round_ = night_started(13, fill="threes")  # 13 players: a table of four and three of three
    desk = desk_by_keys(browser, live_server, night)
    wait_focus(desk, "t1-ns_points")

    def unnamed() -> list[str]:
        session = desk.context.new_cdp_session(desk)
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
        session.detach()
        focusable = [
            node
            for node in nodes
            if not node.get("ignored")
            and any(p["name"] == "focusable" and p["value"]["value"] for p in node.get("properties", []))
            and node.get("role", {}).get("value") not in ("RootWebArea", "WebArea")
        ]
        assert len(focusable) > 20
        return [node["role"]["value"] for node in focusable if not node.get("name", {}).get("value", "").strip()]

    assert unnamed() == []
    # Each control the keyboard reaches shows a clear outline: Shift+Tab up the page from table 1's first box (its
    # history link, Close, the game, the way back), then Tab through table 1.
    outlines = {}
    for key in ["Shift+Tab"] * 4 + ["Tab"] * 7:
        desk.keyboard.press(key)
        outlines[focused(desk) or desk.evaluate("document.activeElement.textContent.trim()")] = desk.evaluate(
            "() => { const style = getComputedStyle(document.activeElement);"
            " return style.outlineStyle + ' ' + style.outlineWidth; }"
        )
    assert set(outlines) == {
        "← Nights",
        "game",
        "desk-close",
        "desk-1-history",
        "t1-ns_points",
        "t1-ew_points",
        "t1-last_hand_winner",
        "desk-1-save",
    }
    assert set(outlines.values()) == {"solid 3px"}
    three = desk.get_by_role("combobox", name="Table 2: If level at the top, who won the last hand?")
    assert three.locator("option").count() == 5
    assert described(desk, "#id_t2-last_hand_winner")[1] == "Only when the highest totals are level."
    assert desk.get_by_role("textbox", name="Table 1: N–S points").count() == 1
    assert desk.get_by_role("button", name="Save table 2").count() == 1
    assert desk.get_by_role("link", name="history of table 2").count() == 1
    help_text = desk.locator("#desk-note").inner_text()
    assert described(desk, "#id_t1-ns_points")[1] == help_text  # the typing help, read with a table's first box
    shot(desk, "8-threes")

    # Every table in and the game closed: each row is a correction form, with a reason box, all named.
    game.table_result_submit(round_=round_, table=1, ns_points=5, ew_points=3)
    for table in (2, 3, 4):
        game.table_result_submit(round_=round_, table=table, seat_points={"N": 5, "E": 3, "S": 2})
    game.round_close(round_=round_)
    desk.goto(f"{live_server.url}/nights/{night.pk}/desk/?game=1")
    desk.wait_for_selector("input[name=t1-reason]")
    assert unnamed() == []
    assert desk.get_by_role("textbox", name="Table 3: Why the change (the game is closed)").count() == 1
    assert desk.get_by_role("button", name="Correct table 3").count() == 1
    assert desk.evaluate("document.activeElement === document.body")  # no table missing: the cursor is not moved
    shot(desk, "9-closed")


def test_on_the_night_s_last_game_a_stray_enter_after_the_last_slip_does_not_finish_the_night(live_server, browser):
    # A treasurer's trial: after the last slip the cursor sat on "Close game N", and one Enter more finished the
    # night (its scores no longer change). On the last game the button says so and the cursor waits on the bar.
    from tests.conftest import NAMES
    from tournament import game, services
    from tournament.models import Night

    night = services.night_create(name="One game", games=1, auto_advance=False, head_table_ends=False)
    services.players_register(night=night, names=NAMES[:8])
    round_ = game.round_start(round_=services.night_draw(night=night, seed=3))
    services.keeper_add(night=night, username="kate", password=PASSWORD)
    desk = desk_by_keys(browser, live_server, night)
    two_slips(desk)
    desk.wait_for_selector("text=Every table is in.", timeout=POLL)
    assert "closing it finishes the night" in desk.locator("#desk-bar").inner_text()
    assert desk.locator("#desk-close").inner_text() == "Close game 1 and finish the night"
    assert focused(desk) != "desk-close"
    desk.keyboard.press("Enter")  # the stray one
    desk.wait_for_timeout(1_000)
    assert Night.objects.get(pk=night.pk).status != Night.Status.FINISHED
    round_.refresh_from_db()
    assert round_.status == "playing"
    shot(desk, "8-last-game-all-in")
    axe(desk, "desk-last-game-all-in")


def test_a_table_scored_elsewhere_while_the_cursor_waits_in_it_shows_in_and_keeps_the_cursor(live_server, browser):
    # A volunteer's trial: the desk left open with the cursor waiting in the first missing table; that table then
    # scored from its phone, and the desk showed it "missing" for good. Nothing typed in it: it is redrawn.
    from tournament import game

    night, round_ = night_started(8)
    desk = desk_by_keys(browser, live_server, night)
    wait_focus(desk, "t1-ns_points")
    game.table_result_submit(round_=round_, table=1, ns_points=7, ew_points=1)
    desk.wait_for_selector("#desk-1.state-in", timeout=POLL)
    assert "7–1 in" in desk.locator("#desk-1").inner_text()
    assert focused(desk) == "t1-ns_points"  # the cursor back in its box
    # Typing not yet saved is never lost to a redraw: table 2's slip half typed, table 2 scored elsewhere.
    desk.locator("#id_t2-ns_points").click()
    desk.keyboard.type("4")
    game.table_result_submit(round_=round_, table=2, ns_points=2, ew_points=6)
    desk.wait_for_timeout(4_000)  # a poll or more
    assert desk.input_value("#id_t2-ns_points") == "4" and focused(desk) == "t2-ns_points"


def test_slips_typed_one_after_another_on_a_slow_laptop_each_reach_their_own_table(live_server, browser):
    """From a volunteer's trial: on a busy laptop the keeper typed the next slip before the last save was answered,
    the cursor was still in the table being saved, and the slip replaced that table's score. Each save is held back
    1.5 s here; four slips typed without waiting for any answer each reach their own table, and none is a
    correction."""
    import time

    from scoring.models import Submission, TableResult

    night, round_ = night_started(16)
    page = desk_by_keys(browser, live_server, night)
    wait_focus(page, "t1-ns_points")

    def slow(route):
        time.sleep(1.5)
        route.continue_()

    page.route("**/desk/", lambda route: slow(route) if route.request.method == "POST" else route.continue_())
    slips = {1: ("9", "7"), 2: ("5", "3"), 3: ("2", "6"), 4: ("10", "4")}
    for ns, ew in slips.values():
        page.keyboard.type(ns)
        page.keyboard.press("Tab")
        page.keyboard.type(ew)
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)  # the keeper's hand reaching for the next slip, no more
    page.wait_for_selector("#desk-4.state-in", timeout=POLL)
    page.wait_for_function("() => document.querySelectorAll('tr.desk-row.state-in').length === 4", timeout=POLL)
    stored = {r.table: (r.ns_points, r.ew_points) for r in TableResult.objects.filter(round=round_)}
    assert stored == {table: (int(ns), int(ew)) for table, (ns, ew) in slips.items()}
    assert Submission.objects.filter(round=round_).exclude(before="").count() == 0  # nothing replaced
    shot(page, "slow-laptop")


def test_a_refused_slip_keeps_its_message_and_what_was_typed_while_the_desk_is_redrawn(live_server, browser):
    """A test run found it: a slip refused for one box came back with its message and the boxes as typed, and the
    desk's next poll (after the bell, every row is redrawn) put the empty form in its place; a box typed again to the
    value it held went with it, and the next save was refused for that box left empty. The refused row stays as it
    is while its table stands as it did; once its phone sends the score, the row shows it."""
    from tournament import game

    night, round_ = night_started(8)
    desk = desk_by_keys(browser, live_server, night)
    wait_focus(desk, "t1-ns_points")
    desk.fill("#id_t2-ns_points", "5")
    desk.fill("#id_t2-ew_points", "lots")
    desk.locator("#desk-2-save").click()
    desk.wait_for_selector("#desk-2 .error")
    desk.locator("#id_t1-ns_points").focus()  # the cursor gone on: the box refused stays marked in the refusal's red
    border = "getComputedStyle(document.getElementById('id_t2-ew_points')).borderTopColor"
    assert desk.evaluate(border) == "rgb(179, 38, 30)"
    game.round_ring_bell(round_=round_)  # every row of the desk redrawn by its next poll
    game.table_result_submit(round_=round_, table=1, ns_points=7, ew_points=1)
    desk.wait_for_selector("#desk-1.state-in", timeout=POLL)
    desk.wait_for_timeout(4_000)  # a poll or more
    row = desk.locator("#desk-2")
    assert "Enter a whole number of points." in row.inner_text()
    assert (desk.input_value("#id_t2-ns_points"), desk.input_value("#id_t2-ew_points")) == ("5", "lots")
    shot(desk, "refusal-kept")
    game.table_result_submit(round_=round_, table=2, ns_points=2, ew_points=6)  # its phone sends the score
    desk.wait_for_selector("#desk-2.state-in", timeout=POLL)
    assert "2–6 in" in row.inner_text() and row.locator(".error").count() == 0


def test_a_score_that_came_in_from_the_phone_while_the_keeper_typed_its_slip_is_not_replaced_unasked(
    live_server, browser
):
    """A trial: a slip refused, its table's phone then sent and confirmed its score; the desk redrew the row with
    that score and put the cursor back, and the keeper, still fixing the slip, typed a number and Enter: the slip
    replaced the phone's confirmed score without a word. The desk now asks first; "no" keeps the phone's score."""
    from scoring.models import Submission, TableResult
    from tournament import game

    night, round_ = night_started(8)
    desk = desk_by_keys(browser, live_server, night)
    wait_focus(desk, "t1-ns_points")
    desk.keyboard.press("ArrowDown")  # table 2's slip: 5 and a word
    desk.keyboard.type("5")
    desk.keyboard.press("Tab")
    desk.keyboard.type("three")
    desk.keyboard.press("Enter")
    desk.wait_for_selector("#desk-2 .error")
    wait_focus(desk, "t2-ew_points")  # back in the box refused
    game.table_result_submit(round_=round_, table=2, ns_points=5, ew_points=3)  # its phone, meanwhile
    desk.wait_for_selector("#desk-2.state-in", timeout=POLL)
    asked = []

    def answer(dialog, yes: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    desk.once("dialog", lambda dialog: answer(dialog, False))
    desk.locator("#id_t2-ew_points").fill("1")  # the keeper goes on fixing the slip
    desk.locator("#id_t2-ew_points").press("Enter")
    desk.wait_for_timeout(1_500)
    assert asked and "Table 2's score came in from its phone while you were typing" in asked[0]
    result = TableResult.objects.get(round=round_, table=2)
    assert (result.ns_points, result.ew_points) == (5, 3)
    assert not Submission.objects.filter(round=round_, table=2).exclude(before="").exists()  # nothing replaced
    desk.once("dialog", lambda dialog: answer(dialog, True))  # asked again, and meant: the slip's score goes in
    desk.locator("#id_t2-ew_points").press("Enter")
    desk.wait_for_function("() => document.querySelector('#desk-2').innerText.includes('5–1')", timeout=POLL)
    result.refresh_from_db()
    assert (result.ns_points, result.ew_points) == (5, 1) and len(asked) == 2


def test_when_the_last_slip_moves_the_night_on_the_cursor_waits_on_the_next_game_s_desk(live_server, browser):
    """On a night that moves on by itself, the last slip in after the bell closes the game and seats the next: the
    desk is drawn again as a closed game, and the keeper's cursor waits on "Open game 2's desk" (it fell to the page
    before, and the next Tab landed on a history link), so Enter takes them on to the next stack of slips."""
    from tournament import game

    night, round_ = night_started(players=8)
    night.auto_advance = True
    night.save(update_fields=["auto_advance"])
    game.round_ring_bell(round_=round_)
    desk = desk_by_keys(browser, live_server, night)
    two_slips(desk)
    desk.wait_for_selector("#desk-next", timeout=POLL)
    wait_focus(desk, "desk-next")
    assert desk.locator("#desk-next").inner_text() == "Open game 2's desk"
    shot(desk, "9-next-game")
    desk.keyboard.press("Enter")
    desk.wait_for_url("**/desk/?game=2")
    wait_focus(desk, "t1-ns_points")  # game 2's first missing table
