"""Every player finds their seat on the room display (#33): each name is painted on the screen, whole and uncovered,
held still long enough to read, within 45 seconds for 13, 40 and 120 players (in game 1, and in game 2 with the
standings taking their turn) at 1920×1080 and 1280×720, and within 3 minutes for 600.

What is checked is what the screen paints: a name counts only where its line is inside the window, not cut short
(its text fits its box), and the point at its middle is the name itself (nothing drawn over it). The display's
pages turn on timers, so the browser's clock is run forward (Playwright's clock) rather than waited for: a minute
of the display takes a second or two. Screenshots of each page in test-artifacts/e2e/room-pages-*.png.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
READ_SECONDS = 4  # a name must stay still at least this long to be read

# The seat lines painted on the screen now: each name with its table and seat, whole and uncovered.
PAINTED = """() => {
  const clear = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) return false;
    if (el.scrollWidth > el.clientWidth + 1) return false;  // cut short
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return Boolean(hit) && (hit === el || el.contains(hit));
  };
  return [...document.querySelectorAll('#room .room-finder li')]
    .filter(li => !li.closest('[hidden]') && getComputedStyle(li).display !== 'none')
    .filter(li => clear(li.querySelector('.name')) && clear(li.querySelector('.where')))
    .map(li => li.querySelector('.name').textContent.trim());
}"""


# What is painted now and which page the display says it shows, in one round trip to the browser.
NOW = f"""() => ({{names: ({PAINTED})(),
  label: (document.querySelector('section:not([hidden]) [data-page-label]') || {{}}).textContent || ''}})"""


def seen_long_enough(page, names: list[str], seconds: int, shots: str, at=None) -> dict[str, int]:
    """Run the display's clock a second at a time for `seconds`; for each name, the first second at which it had
    been on screen, still, for READ_SECONDS. Screenshots of the first pages. The page's clock stands still between
    the steps (its time is only what the steps give it)."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.5)  # in seconds
    runs: dict[str, int] = {}  # name -> seconds on screen without a break, up to now
    readable: dict[str, int] = {}
    last_label = None
    for second in range(seconds + 1):
        now = page.evaluate(NOW)
        painted = set(now["names"])
        for name in names:
            runs[name] = runs.get(name, 0) + 1 if name in painted else 0
            if runs[name] > READ_SECONDS and name not in readable:
                readable[name] = second
        if now["label"] != last_label and second < 25:
            page.screenshot(path=str(ARTIFACTS / f"room-pages-{shots}-{second:03d}.png"))
            last_label = now["label"]
        if len(readable) == len(names):
            break
        if at is not None and second in at:
            at[second]()  # something happens in the hall at that second (a draw)
            page.wait_for_timeout(1500)  # its answer reaches the page on the display's next poll
        page.clock.run_for(1000)
    return readable


def night_at(players: int, games_played: int, names: list[str]) -> int:
    from tests.conftest import play_round
    from tournament import game, services

    night = services.night_create(name=f"Room pages {players}", games=5, auto_advance=False)
    services.players_register(night=night, names=names)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=7))
    for _ in range(games_played):
        tables = sorted(set(round_.seatings.values_list("table", flat=True)))
        play_round(round_, {table: (5, 3) if table % 2 else (2, 6) for table in tables})
        round_ = game.round_start(round_=game.round_close(round_=round_))
    return night.pk


def names_for(players: int) -> list[str]:
    from tournament.simulation import player_names

    return sorted(player_names(players, random.Random(players)))


def test_every_name_is_on_screen_long_enough_to_read_within_45_seconds(live_server, browser):
    cases = [(players, played) for players in (13, 40, 120) for played in (0, 1)]
    nights = {case: night_at(case[0], case[1], names_for(case[0])) for case in cases}  # before any page polls
    for label, size in SCREENS.items():
        for (players, played), pk in nights.items():
            context = browser.new_context(viewport=size)
            page = context.new_page()
            page.clock.install()
            page.goto(f"{live_server.url}/public/nights/{pk}/display/")
            page.wait_for_selector(".room-finder li")
            names = names_for(players)
            readable = seen_long_enough(page, names, 45, f"{label}-{players}-game{played + 1}")
            missing = [name for name in names if name not in readable]
            assert not missing, (label, players, f"game {played + 1}", len(missing), missing[:5])
            assert max(readable.values()) <= 45
            context.close()


def test_six_hundred_players_read_their_seats_within_three_minutes(live_server, browser):
    names = names_for(600)
    pk = night_at(600, 0, names)
    for label, size in SCREENS.items():
        context = browser.new_context(viewport=size)
        page = context.new_page()
        page.clock.install()
        page.goto(f"{live_server.url}/public/nights/{pk}/display/")
        page.wait_for_selector(".room-finder li")
        readable = seen_long_enough(page, names, 180, f"{label}-600")
        missing = [name for name in names if name not in readable]
        assert not missing, (label, len(missing), missing[:5])
        context.close()


def test_one_long_name_does_not_take_the_other_players_columns(live_server, browser):
    """Twenty players, one with a 40-letter name: on a 1080p screen everyone is on one page in two columns, every
    name whole (the long one drawn smaller), not one column over two pages for the sake of one line. An 80-letter
    name (no column but the whole width takes it) is whole on screen in its turn too."""
    long = "Marie-Ève Tremblay-Fitzgerald Beauchemin"
    longer = "Marie-Ève Catherine Tremblay-Fitzgerald de la Montagne-Saint-Hilaire Beauchemine"
    assert (len(long), len(longer)) == (40, 80)
    for shots, name, players in (("long-name", long, 20), ("longer-name", longer, 22)):
        names = sorted([*names_for(players - 1), name])
        pk = night_at(players, 0, names)
        page = browser.new_page(viewport=SCREENS["1080p"])
        page.clock.install()
        page.goto(f"{live_server.url}/public/nights/{pk}/display/")
        page.wait_for_selector(".room-finder li")
        if players == 20:
            page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.5)
            page.screenshot(path=str(ARTIFACTS / f"room-pages-{shots}.png"))
            assert sorted(page.evaluate(PAINTED)) == names
            size = page.eval_on_selector(".room-finder li", "el => parseFloat(getComputedStyle(el).fontSize)")
            assert size >= 0.045 * SCREENS["1080p"]["height"] - 0.5  # the others keep the list's size
        else:
            readable = seen_long_enough(page, names, 45, shots)
            assert sorted(readable) == names
        page.close()


def test_several_displays_share_a_big_room_each_showing_its_part_of_the_names(live_server, browser):
    """`?share=2/3`: the second third of the names, alphabetically; the three together show everyone once."""
    names = names_for(120)
    pk = night_at(120, 0, names)
    shown: list[str] = []
    for part in (1, 2, 3):
        page = browser.new_page(viewport=SCREENS["1080p"])
        page.goto(f"{live_server.url}/public/nights/{pk}/display/?share={part}/3")
        page.wait_for_selector(".room-finder li")
        shown += page.eval_on_selector_all(".room-finder li .name", "els => els.map(el => el.textContent.trim())")
        page.close()
    assert sorted(shown) == names


def test_a_door_prize_draw_during_a_game_leaves_the_seating_on_screen_and_goes_by_itself(live_server, browser):
    """The draw is a band above the seating: names stay painted, whole and uncovered, while it runs; three minutes
    after it was made it is gone, and the seating has the whole stage again. The spin never shows a name that is
    already in the winners' list."""
    from tournament import services
    from tournament.models import Night
    from tournament.views.public import DRAW_SECONDS

    names = names_for(40)
    pk = night_at(40, 0, names)
    services.draw_make(night=Night.objects.get(pk=pk), title="Door prize", count=2, pool_kind="players")
    page = browser.new_page(viewport=SCREENS["1080p"])
    page.clock.install()
    page.goto(f"{live_server.url}/public/nights/{pk}/display/")
    page.wait_for_selector(".room-draw.band")
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.5)  # in seconds
    twice = []
    for _ in range(24):  # the spin, half a second at a time
        page.clock.run_for(500)
        state = page.evaluate(
            """() => ({spin: document.querySelector('.room-draw-spin').textContent.trim(),
                listed: [...document.querySelectorAll('.room-draw-winners li.shown')]
                  .map(li => li.textContent.trim())})"""
        )
        if state["spin"] and any(item.startswith(state["spin"]) for item in state["listed"]):
            twice.append(state["spin"])
        assert len(page.evaluate(PAINTED)) >= 8  # the seating is on screen all the while
    page.screenshot(path=str(ARTIFACTS / "room-pages-draw-band.png"))
    assert twice == []
    assert page.locator(".room-draw-winners li.shown").count() == 2
    with_band = len(page.evaluate(PAINTED))
    page.clock.run_for(DRAW_SECONDS * 1000)
    assert page.locator(".room-draw").is_hidden()
    assert len(page.evaluate(PAINTED)) > with_band  # the stage grew back: more lines a page
    page.screenshot(path=str(ARTIFACTS / "room-pages-draw-gone.png"))


def test_a_draw_made_while_the_seating_pages_turn_skips_nobody(live_server, browser):
    """The band takes room from the seating while a round of its pages is under way, and gives it back when the
    organizer takes the draw off: each time the pages are laid out again from the line the display was at, so every
    name still comes round (a trial found four names skipped)."""
    from tournament import services
    from tournament.models import Night

    names = names_for(44)
    pk = night_at(44, 0, names)
    page = browser.new_page(viewport=SCREENS["720p"])
    page.clock.install()
    page.goto(f"{live_server.url}/public/nights/{pk}/display/")
    page.wait_for_selector(".room-finder li")

    def draw() -> None:
        services.draw_make(night=Night.objects.get(pk=pk), title="Door prize", count=1, pool_kind="players")

    def hide() -> None:
        services.draw_hide(night=Night.objects.get(pk=pk))

    readable = seen_long_enough(page, names, 60, "720p-44-draw", at={4: draw, 16: hide})
    assert page.locator(".room-draw.band").count() == 0
    missing = [name for name in names if name not in readable]
    assert not missing, missing
