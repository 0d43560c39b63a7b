"""Shared fixtures: an organizer, a night with players, and helpers to play rounds through the services."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournament import game, services
from tournament.game import table_result_submit

NAMES = [
    "Ann Kowalski",
    "Bob Martin",
    "Chloé Dubois",
    "Łukasz Żółć",
    "Edna Walsh",
    "Frank Hill",
    "Grace Novak",
    "Hank Rossi",
    "Irene Becker",
    "Jack Gagnon",
    "Karen Smith",
    "Leo Brown",
    "Mary Moreau",
    "Ned Fischer",
    "Olive Tremblay",
    "Paul Nguyen",
]


@pytest.fixture
def organizer(db):
    return get_user_model().objects.create_user("organizer", password="pw", is_staff=True)


@pytest.fixture
def organizer_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def night(db):
    """A night the organizer runs by hand: games are closed and started with the buttons."""
    return services.night_create(name="St Mary's Euchre Night", venue="Parish hall", games=3, auto_advance=False)


def register(night, count: int = 16):
    return services.players_register(night=night, names=NAMES[:count])


def game_under_way(night, players: int = 8, *, seed: int = 2):
    """`players` registered, the opening seating drawn with `seed`, game 1 started and every table's link made."""
    register(night, players)
    round_ = game.round_start(round_=services.night_draw(night=night, seed=seed))
    services.table_links_ensure(night=night)
    return round_


def code_at(round_, table: int, seat: str) -> str:
    """The confirmation code on the tally card of whoever sits `seat` (N, E, S, W; or a side, NS or EW, for its
    first seat) at `table` in `round_`: what that player types on the table's phone."""
    from tournament.models import Entry

    player = round_.seatings.get(table=table, seat=seat[0]).player_id
    return Entry.objects.get(night_id=round_.night_id, player_id=player).code


def set_codes(night, code_for) -> None:
    """Give every entry of `night` the code `code_for(entry, index)`: random codes made fixed, for pages and cards
    that must be compared or searched. The codes are unique within a night, and a drawn code may already be one of
    the new ones, so each first steps out of the way."""
    entries = list(night.entries.order_by("card"))
    for entry in entries:
        entry.code = f"x{entry.card}"
        entry.save(update_fields=["code"])
    for index, entry in enumerate(entries):
        entry.code = code_for(entry, index)
        entry.save(update_fields=["code"])


def play_round(round_, scores):
    """Start `round_` if needed and enter `scores` ({table: (ns, ew)} or (ns, ew, last_hand_winner))."""
    if round_.status == "seated":
        round_ = game.round_start(round_=round_)
    for table, score in scores.items():
        ns, ew, *last = score
        table_result_submit(
            round_=round_, table=table, ns_points=ns, ew_points=ew, last_hand_winner=(last or [None])[0]
        )
    return round_


def pytest_configure(config):
    """Passwords hashed with a quick hasher in the test process, as Django's testing guide advises: a test that
    makes an organizer would otherwise spend a third of a second on the real hasher's rounds. The logins' own
    tests (tests/test_logins.py) put the real one back; the app's own processes in the process tests keep it."""
    from django.conf import settings

    PROJECT_HASHERS[:] = settings.PASSWORD_HASHERS
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PROJECT_HASHERS: list[str] = []  # the project's own, as the settings give them


# A test that asks for one of these reaches the test database.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by these marks
def pytest_collection_modifyitems(config, items):
    """Mark `once` every test whose outcome the second pass (PostgreSQL, Redis) cannot change: it touches no test
    database and is not marked `backend`, or it is the venue's own set-up (`venue`). pytest-django refuses database
    access to a test without the database, so a test marked here that did reach it would fail, not pass unseen."""
    once = pytest.mark.once
    for item in items:
        if item.get_closest_marker("venue"):
            item.add_marker(once)
            continue
        database = item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames)
        if not database and not item.get_closest_marker("backend") and not item.get_closest_marker("postgres"):
            item.add_marker(once)


@pytest.fixture(autouse=True)
def _tasks_run_in_process():
    """Tasks sent on commit run at once in the test process (the real worker has its own test)."""
    from config import celery_app

    celery_app.conf.task_always_eager = True
    yield


class _NoCache:
    """What a test marked `once` gets for a cache: the second pass's cache (Redis) could change its outcome, so it
    must not use one. Any use fails the test, asking for the `backend` mark."""

    def __init__(self, alias: str):
        self.alias = alias

    def __getattr__(self, name):
        raise AssertionError(
            f"This test runs in the first pass only (marked `once`) but used the {self.alias!r} cache, which the "
            "second pass keeps in Redis: mark it `backend`."
        )


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Rate-limit counters live in the cache, and players' pages keep each night's places read once a move: each
    test starts with none. A test marked `once` gets no cache at all (`_NoCache`)."""
    from django.core.cache import caches

    from tournament.selectors import phones

    phones.forget()
    aliases = ("default", "limits")
    if not request.node.get_closest_marker("once"):
        for name in aliases:
            caches[name].clear()
        yield
        return
    kept = {name: caches[name] for name in aliases}
    for name in aliases:
        setattr(caches._connections, name, _NoCache(name))
    yield
    for name, cache in kept.items():
        setattr(caches._connections, name, cache)
