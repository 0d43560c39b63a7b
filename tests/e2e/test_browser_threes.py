"""Tables of three in a real browser (#19): "A 13-, 14- and 15-player night runs with three-handed tables and no
byes … in the browser test."

The organizer makes a night whose answer to "not a multiple of four" is tables of three, registers 13 players and
draws: one table of four and three tables of three, nobody sitting out. The keeper types every paper slip at the
desk (two boxes at the table of four, a box for each player at a table of three, a bad box refused beside it) and
closes the game; the second game is seated the same way, again with no byes; the player at a table of three reads
on their phone that it is three-handed. axe-core checks the desk, the player's page and the chart (tests/e2e/axe.py).
Screenshots go to test-artifacts/e2e/.
"""

from __future__ import annotations

import pytest

from tests.e2e.axe import axe
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_browser_night import NAMES, new_night

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"threes-{name}.png"), full_page=True)


def _slips(desk, game: int, four=("9", "5"), three=("5", "3", "2")) -> None:
    """Every table's slip at the desk: the table of four 9-5, each table of three 5, 3 and 2 (or as given). The
    night runs by itself, so the game closes once every table is in (the head table's slip rang the bell, or on a
    night of games to a points target every table finished its game): the desk then says so, and offers the next
    game's desk. The night's last game waits for the keeper's "Close game N and finish the night"."""
    desk.wait_for_selector("text=Three-handed:")
    for table in range(1, 5):
        row = desk.locator(f"#desk-{table}")
        if row.locator(f"input[name=t{table}-ns_points]").count():
            desk.fill(f"input[name=t{table}-ns_points]", four[0])
            desk.fill(f"input[name=t{table}-ew_points]", four[1])
        else:
            for seat, points in zip("nes", three, strict=True):
                desk.fill(f"input[name=t{table}-{seat}_points]", points)
        row.locator("button").click()
        desk.wait_for_selector(f"#desk-{table}.state-in")
    # Every table in: a game closes by itself, the night's last waits for the keeper's Close (a last look).
    desk.wait_for_selector(f"#desk-close[data-last], #desk-note:has-text('Game {game} is closed')", timeout=15_000)
    if desk.locator("#desk-close[data-last]").count():
        desk.click("#desk-close[data-last]")
    desk.wait_for_selector(f"text=Game {game} is closed.", timeout=15_000)  # the desk's bar, by its poll
    shot(desk, f"desk-game-{game}-in")


def _draw_and_start(desk, players: int) -> None:
    """Register the first `players` names, draw, and start game 1."""
    desk.fill("#id_names", "\n".join(NAMES.splitlines()[:players]))
    desk.click("text=Add everyone")
    desk.wait_for_selector(f"text={players} checked in")
    desk.click("text=Draw the opening seating")
    desk.wait_for_selector("text=Start game 1")
    desk.click("text=Start game 1")
    desk.wait_for_selector("text=Game 1 of 2 is being played")


def test_a_night_of_thirteen_with_tables_of_three_in_the_browser(live_server, browser, django_user_model, settings):
    from tournament.models import Bye, Night, Seating

    desk = new_night(live_server, browser, django_user_model, settings, "Threes night", fill="threes")
    base = live_server.url
    _draw_and_start(desk, 13)
    assert desk.locator("text=Three-handed").count() == 3
    shot(desk, "night-game-1")
    night = Night.objects.get(name="Threes night")
    assert not Bye.objects.filter(round__night=night).exists()

    desk.goto(f"{base}/nights/{night.pk}/desk/")
    # A slip with a box left wrong: refused beside that player's box, nothing saved.
    desk.fill("input[name=t2-n_points]", "5")
    desk.fill("input[name=t2-e_points]", "lots")
    desk.fill("input[name=t2-s_points]", "2")
    desk.locator("#desk-2 button").click()
    desk.wait_for_selector("#desk-2 .error")
    assert "Enter a whole number of points." in desk.locator("#desk-2").inner_text()
    shot(desk, "desk-refused")
    axe(desk, "desk-threes-refused")
    _slips(desk, 1)
    desk.click("text=Open game 2's desk")  # the night runs by itself: game 2 is seated and started at once
    desk.wait_for_selector("text=Keeper's desk · game 2")
    round_2 = night.rounds.get(number=2)
    sizes = [Seating.objects.filter(round=round_2, table=t).count() for t in range(1, 5)]
    assert sizes == [4, 3, 3, 3] and not Bye.objects.filter(round=round_2).exists()

    # The player at the tail's table of three reads, on their phone, where they sit and that it is three-handed.
    player = Seating.objects.filter(round=round_2, table=4).select_related("player").first().player
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/public/nights/{night.pk}/me/{player.pk}/")
    phone.wait_for_selector("text=A table of three")
    assert "Table 4" in phone.content()
    shot(phone, "phone-player")
    axe(phone, "player-page")

    desk.goto(f"{base}/nights/{night.pk}/desk/")
    _slips(desk, 2)
    desk.goto(f"{base}/nights/{night.pk}/")
    desk.wait_for_selector("text=The night is over")
    shot(desk, "night-over")
    standings = desk.locator("table.standings").first.inner_text()
    assert all(name in standings for name in NAMES.splitlines()[:13])
    assert ARTIFACTS.exists()


@pytest.mark.parametrize(
    ("movement", "players", "sizes"),
    [
        ("rotation", 14, [4, 4, 3, 3]),
        ("fixed-partners", 15, [4, 4, 4, 3]),
        ("progressive-down", 14, [4, 4, 3, 3]),
        ("winners-stay", 15, [4, 4, 4, 3]),
        ("seat-rotation", 13, [4, 3, 3, 3]),
    ],
)
def test_a_rotation_chart_and_a_fixed_partners_night_with_tables_of_three_in_the_browser(
    live_server, browser, django_user_model, settings, movement, players, sizes
):
    """Every other movement's answer (progressive is the test above): a rotation night of 14 (the chart built at
    the draw with two tables of three at the tail, every game from it; the chart page shows it), a fixed-partners
    night of 15 (seven pairs and one without a partner: one pair and the single at the table of three), and
    progressive-down, winners-stay (games to 10: the slips say 10-4 and 10, 3, 2, and each game closes itself
    once the last table is in) and seat rotation, nobody sitting out in any."""
    from tournament.models import Bye, Night, Seating

    name = f"Threes {movement}"
    desk = new_night(live_server, browser, django_user_model, settings, name, movement=movement, fill="threes")
    base = live_server.url
    _draw_and_start(desk, players)
    assert desk.locator("text=Three-handed").count() == sizes.count(3)
    night = Night.objects.get(name=name)
    if movement == "rotation":
        desk.goto(f"{base}/nights/{night.pk}/chart/")
        desk.wait_for_selector("text=tables of three at the tail so nobody sits out")
        shot(desk, "rotation-chart")
        axe(desk, "chart")
    to_target = movement == "winners-stay"  # games to 10 (no head table's bell): the slips say 10-4 and 10, 3, 2
    slips = {"four": ("10", "4"), "three": ("10", "3", "2")} if to_target else {}
    desk.goto(f"{base}/nights/{night.pk}/desk/")
    _slips(desk, 1, **slips)
    desk.click("text=Open game 2's desk")
    desk.wait_for_selector("text=Keeper's desk · game 2")
    round_2 = night.rounds.get(number=2)
    assert [Seating.objects.filter(round=round_2, table=t).count() for t in range(1, 5)] == sizes
    assert not Bye.objects.filter(round__night=night).exists()
    _slips(desk, 2, **slips)
    desk.goto(f"{base}/nights/{night.pk}/")
    desk.wait_for_selector("text=The night is over")
    shot(desk, f"{movement}-night-over")
