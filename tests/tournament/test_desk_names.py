"""What the keeper's desk says to a screen reader (#33, item 3): every control named with its table, the typing
help and each refusal tied to the control they are about (aria-describedby), never to an id the page lacks.

How the cursor moves is the browser's to show: tests/e2e/test_browser_desk_keys.py."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.conftest import game_under_way
from tournament import game
from tournament import services as night_services

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


class Page(HTMLParser):
    """Each element's attributes by id, each label's text by the control it names, and every control's own id."""

    def __init__(self, html: str, around: Page | None = None):
        """`around`: the desk a table's row (an htmx answer) is swapped into."""
        super().__init__()
        self.around = around
        self.ids: dict[str, dict[str, str]] = {}
        self.labels: dict[str, str] = {}
        self.text: dict[str, str] = {}  # an element's text, by id
        self.controls: list[dict[str, str]] = []
        self._open: list[tuple[str, str | None]] = []  # (tag, id or for) of the elements whose text is collected
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if "id" in attrs:
            self.ids[attrs["id"]] = attrs
        if tag in ("input", "select", "textarea", "button") and attrs.get("type") != "hidden":
            self.controls.append({"tag": tag, **attrs})
        if tag == "label" and "for" in attrs:
            self._open.append(("label", attrs["for"]))
        elif tag in ("div", "span", "p") and "id" in attrs:
            self._open.append((tag, attrs["id"]))
        elif tag in ("div", "span", "p", "label"):
            self._open.append((tag, None))

    def handle_endtag(self, tag):
        if tag in ("div", "span", "p", "label") and self._open:
            self._open.pop()

    def handle_data(self, data):
        for tag, key in self._open:
            if key is None:
                continue
            book = self.labels if tag == "label" else self.text
            book[key] = book.get(key, "") + data

    def described(self, control_id: str) -> list[str]:
        """The texts a control is described by, in order; each id it names must be on the page."""
        ids = self.ids[control_id].get("aria-describedby", "").split()
        pages = [self] + ([self.around] if self.around else [])
        missing = [i for i in ids if not any(i in page.ids for page in pages)]
        assert not missing, f"{control_id} is described by {missing}, which the page lacks"
        return [" ".join(next(p.text[i] for p in pages if i in p.text).split()) for i in ids]


@pytest.fixture
def playing(night):
    return game_under_way(night)  # two tables, game 1 started


@pytest.fixture
def keeper_client(client, playing):
    client.force_login(night_services.keeper_add(night=playing.night, username="kate", password="keep-score-1"))
    return client


def desk(client, night_id: int, **query) -> Page:
    return Page(client.get(reverse("scoring:keeper_desk", args=[night_id]), query).content.decode())


def save(client, round_, table: int, **fields) -> Page:
    url = reverse("scoring:desk_save", args=[round_.night_id, round_.number, table])
    data = {f"t{table}-{name}": value for name, value in {"key": f"k{table}{fields}", **fields}.items()}
    around = desk(client, round_.night_id, game=str(round_.number))
    return Page(client.post(url, data, **HTMX).content.decode(), around)


def test_every_control_of_the_desk_has_a_name_that_says_its_table(keeper_client, playing):
    page = desk(keeper_client, playing.night_id)
    assert page.labels["id_t1-ns_points"] == "Table 1: N–S points"
    assert page.labels["id_t2-ew_points"] == "Table 2: E–W points"
    assert page.labels["id_t2-last_hand_winner"] == "Table 2: If tied, who won the last hand?"
    for control in page.controls:
        named = page.labels.get(control.get("id", "")) or control.get("aria-label")
        assert named or control["tag"] == "button", control
    # The typing help is read with each table's first box; the "last hand" choice says when it is needed.
    help_text = page.described("id_t1-ns_points")
    assert help_text[0].startswith("Type each paper slip: N–S, Tab, E–W, Enter.")
    assert page.described("id_t1-ew_points") == []
    assert page.described("id_t1-last_hand_winner") == ["Only when the totals are level."]


def test_a_refused_box_is_described_by_its_refusal_and_marked_invalid(keeper_client, playing):
    page = save(keeper_client, playing, 1, ns_points="5", ew_points="33")
    assert page.ids["id_t1-ew_points"].get("aria-invalid") == "true"
    assert "aria-invalid" not in page.ids["id_t1-ns_points"]
    assert page.described("id_t1-ew_points") == ["E–W: 33 is more than 8 hands can make (at most 32)."]


def test_a_refusal_of_the_whole_slip_is_read_with_both_boxes(keeper_client, playing):
    page = save(keeper_client, playing, 1, ns_points="0", ew_points="0")
    refusal = page.described("id_t1-ew_points")
    assert len(refusal) == 1 and refusal[0].startswith("No 8 hands make N–S 0, E–W 0")
    assert page.described("id_t1-ns_points")[1:] == refusal  # after the typing help


def test_a_tie_is_asked_on_the_last_hand_choice(keeper_client, playing):
    page = save(keeper_client, playing, 2, ns_points="4", ew_points="4")
    assert page.ids["id_t2-last_hand_winner"].get("aria-invalid") == "true"
    assert page.described("id_t2-last_hand_winner") == [
        "Only when the totals are level.",
        "The game is tied: say which team won the last hand.",
    ]


def test_an_unusual_total_is_asked_on_its_tick(keeper_client, playing):
    page = save(keeper_client, playing, 2, ns_points="30", ew_points="2")
    assert page.ids["id_t2-sure"].get("aria-invalid") == "true"
    assert "is more than 8 hands make" in page.described("id_t2-sure")[0]


def test_a_closed_game_s_reason_box_is_named_and_its_refusal_read_with_it(keeper_client, playing):
    for table in (1, 2):
        game.table_result_submit(round_=playing, table=table, ns_points=5, ew_points=3)
    game.round_close(round_=playing)
    page = desk(keeper_client, playing.night_id, game="1")
    assert page.labels["id_t2-reason"] == "Table 2: Why the change (the game is closed)"
    refused = save(keeper_client, playing, 2, ns_points="6", ew_points="3", version="1")
    assert refused.described("id_t2-reason") == ["A correction after the game closed needs a reason."]


def test_a_refused_close_is_read_with_its_button(keeper_client, playing):
    url = reverse("scoring:desk_close", args=[playing.night_id, playing.number])
    page = Page(keeper_client.post(url, {"seen": game.seen(playing)}).content.decode())
    assert "desk-close-error" in page.ids
    assert page.described("desk-close")[0].startswith("Tables")


def test_a_tied_game_reopened_at_the_desk_shows_who_won_its_last_hand_and_its_history_says_so(keeper_client, playing):
    """A keeper who opens a tied table's slip again (to correct it after the game closed) finds the last hand's
    winner as it was saved, not an empty choice that a second save would refuse; the table's history line says it."""
    from html import unescape

    saved = save(keeper_client, playing, 2, ns_points="4", ew_points="4", last_hand_winner="EW")
    assert "id_t2-last_hand_winner" in saved.ids
    game.table_result_submit(round_=playing, table=1, ns_points=5, ew_points=3)
    game.round_close(round_=playing)
    reopened = keeper_client.get(reverse("scoring:keeper_desk", args=[playing.night_id]), {"game": "1"})
    html = reopened.content.decode()
    choice = html[html.index('id="id_t2-last_hand_winner"') :]
    choice = choice[: choice.index("</select>")]
    assert '<option value="EW" selected>' in choice and '<option value="NS" selected>' not in choice
    history = reverse("scoring:table_history", args=[playing.night_id, 1, 2])
    assert "4–4, last hand East–West" in unescape(keeper_client.get(history).content.decode())
