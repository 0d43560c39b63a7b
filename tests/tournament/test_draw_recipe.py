"""A draw anyone can check (#34, item 4): the README's recipe, run as written (its code block copied out of
README.md, with nothing of the app's), replays the draws made through the pages: a door prize from the players
here, tickets 1 to N, a tie for a prize; the Money page gives each draw's line to run and prints the same recipe."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import register
from tournament import services
from tournament.engine import draws
from tournament.models import Draw
from tournament.rehearsal import simulate
from tournament.selectors import night_standings

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_recipe() -> str:
    """The code block of the README's "Checking a draw yourself", as written."""
    text = README.read_text(encoding="utf-8")
    section = text.split("**Checking a draw yourself.**", 1)
    assert len(section) == 2, "The README has no “Checking a draw yourself” paragraph."
    block = re.search(r"```python\n(.*?)```", section[1], re.DOTALL)
    assert block, "The README's “Checking a draw yourself” has no Python code block."
    return block.group(1)


def readme_draw():
    """The README's `draw` function, run in a namespace of its own (no app code in it)."""
    space: dict = {}
    exec(compile(readme_recipe(), "README.md", "exec"), space)
    return space["draw"]


def checks_on_the_money_page(client, night) -> dict[int, tuple[str, list[int], list[int]]]:
    """Each draw on the Money page: (its “Check it” line, the winners the line says, the winners the page names)."""
    page = client.get(reverse("tournament:money", args=[night.pk])).content.decode()
    found = {}
    for number, shown, item in re.findall(r'<li id="draw-(\d+)" value="(\d+)">(.*?)</li>', page, re.DOTALL):
        assert shown == number, "the page numbers each draw as the room display does"
        check = re.search(r"<summary>Check it</summary><code>(.*?)</code> gives <code>(.*?)</code>", item)
        assert check, f"Draw {number} has no line to check it."
        named = re.search(r"<div>(.*?)</div>", item, re.DOTALL).group(1)
        winners = [int(card or ticket) for card, ticket in re.findall(r"No\. (\d+)|Ticket (\d+)", named)]
        gives = [int(n) for n in re.findall(r"\d+", html.unescape(check.group(2)))]
        found[int(number)] = (html.unescape(check.group(1)), gives, winners)
    return found


def make(client, night, **fields: str):
    answer = client.post(reverse("tournament:draw_make", args=[night.pk]), {"count": "1", **fields})
    assert answer.status_code == 302, answer.content.decode()[:2000]


def test_the_readmes_recipe_replays_every_draw_made_through_the_pages(organizer_client, night):
    register(night, 12)
    first = night.entries.order_by("card").first()
    services.entry_set_checked_in(entry=first, checked_in=False)  # not here: not in the players' draw
    make(organizer_client, night, title="Door prize", pool_kind="players", count="3")
    make(organizer_client, night, title="50/50", pool_kind="tickets", tickets="250")
    make(organizer_client, night, title="Basket raffle", pool_kind="tickets", tickets="40", count="5")
    make(organizer_client, night, title="Last door prize", pool_kind="players", count="11")  # everyone here
    draw = readme_draw()
    found = checks_on_the_money_page(organizer_client, night)
    assert sorted(found) == [1, 2, 3, 4]
    for made in Draw.objects.filter(night=night):
        check, gives, named = found[made.number]
        replayed = eval(check, {"draw": draw, "range": range})
        assert replayed == gives == named == made.winners
    door = Draw.objects.get(night=night, number=1)
    assert first.card not in door.pool and found[1][0].startswith(f"draw({door.seed!r}, [")
    assert found[2][0] == f"draw({Draw.objects.get(night=night, number=2).seed!r}, range(1, 251), 1)"


def test_the_readmes_recipe_replays_a_tie_draw(organizer_client):
    for seed in range(1, 40):  # the first rehearsal with a prize tied
        night = simulate(players=12, rounds=2, seed=seed)
        if any(award.tie for award in night_standings(night).awards):
            break
    tied = next(award for award in night_standings(night).awards if award.tie)
    make(organizer_client, night, title=f"Tie for {tied.prize}", pool_kind="tie", prize=tied.key)
    made = Draw.objects.get(night=night)
    check, gives, named = checks_on_the_money_page(organizer_client, night)[1]
    assert eval(check, {"draw": readme_draw()}) == gives == named == made.winners
    assert len(made.pool) == len(tied.player_ids)


def test_the_money_page_prints_the_readmes_recipe_and_the_app_draws_with_it(organizer_client, night):
    page = organizer_client.get(reverse("tournament:money", args=[night.pk])).content.decode()
    shown = re.search(r'<details class="small draw-recipe">.*?<pre><code>(.*?)</code></pre>', page, re.DOTALL)
    assert shown and html.unescape(shown.group(1)) == readme_recipe() == draws.RECIPE


def test_a_draw_recorded_before_the_recipe_was_written_down_still_replays_by_it():
    """A draw the app recorded (seed, pool, winners as stored) replays by the README's recipe and by the app: the
    seeding never changed, so no stored draw or backup moves."""
    draw = readme_draw()
    assert draw("0123456789abcdef", range(1, 21), 3) == [3, 10, 17]
    assert draw("00c0ffee00c0ffee", [13, 2, 3, 5, 7, 11], 1) == [13]
    assert draws.replays("0123456789abcdef", range(1, 21), [3, 10, 17])
