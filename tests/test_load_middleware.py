"""A busy server tells the pages that poll to wait; it never turns a form away for load."""

from __future__ import annotations

import threading
import time

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from config.middleware import LoadMiddleware

HTMX = {"HTTP_HX_REQUEST": "true"}


def held_requests(middleware: LoadMiddleware, count: int):
    """`count` requests under way in the middleware, each waiting until the returned event is set."""
    release, arrived = threading.Event(), threading.Semaphore(0)

    def slow(request):
        arrived.release()
        release.wait(5)
        return HttpResponse("slow")

    def view(request):
        return slow(request) if request.path == "/slow/" else HttpResponse("ok")

    middleware.get_response = view
    threads = [threading.Thread(target=middleware, args=(RequestFactory().get("/slow/"),)) for _ in range(count)]
    for thread in threads:
        thread.start()
    for _ in range(count):
        assert arrived.acquire(timeout=5)
    return release, threads


def test_a_poll_answered_while_the_process_is_busy_is_told_to_wait(settings):
    settings.POLL_BUSY_REQUESTS, settings.POLL_BACK_OFF_SECONDS = 4, 7
    middleware = LoadMiddleware(lambda request: HttpResponse())
    factory = RequestFactory()
    release, threads = held_requests(middleware, 3)
    try:
        poll = middleware(factory.get("/public/nights/1/me/2/", {"since": "1.0"}, **HTMX))
        assert poll["X-Poll-After"] == "7"
        # Not a poll: a page opened, a form sent, an htmx request with no stamp. None is delayed or marked.
        for request in (
            factory.get("/public/nights/1/me/2/"),
            factory.post("/t/abc/score/", {"since": "1.0"}, **HTMX),
            factory.get("/nights/1/", **HTMX),
        ):
            answer = middleware(request)
            assert answer.status_code == 200 and "X-Poll-After" not in answer
    finally:
        release.set()
        for thread in threads:
            thread.join()
    # The rush over: the same poll is answered as usual.
    assert "X-Poll-After" not in middleware(factory.get("/public/nights/1/me/2/", {"since": "1.0"}, **HTMX))
    assert middleware.running == 0


def test_one_request_at_a_time_is_never_busy_and_every_answer_says_its_time_inside_django(settings):
    settings.POLL_BUSY_REQUESTS = 6
    middleware = LoadMiddleware(lambda request: HttpResponse())
    answer = middleware(RequestFactory().get("/public/nights/1/display/", {"since": "1.0"}, **HTMX))
    assert "X-Poll-After" not in answer
    name, duration = answer["Server-Timing"].split(";dur=")
    assert name == "app" and float(duration) >= 0


@pytest.mark.django_db
def test_a_real_poll_through_the_whole_stack_carries_the_advice(client, settings):
    from tournament import services

    settings.POLL_BUSY_REQUESTS = 1  # every request counts itself: always busy
    night = services.night_create(name="Busy", games=3)
    display = reverse("tournament:room_display", args=[night.pk])
    assert client.get(display, {"since": "old"}, **HTMX)["X-Poll-After"] == str(settings.POLL_BACK_OFF_SECONDS)
    assert "X-Poll-After" not in client.get(display)


def test_a_poll_gives_way_to_a_score_being_saved_for_a_moment_at_most(settings):
    # While a POST is under way in the process, a poll that arrives waits for it (so the score has Python's lock to
    # itself) for at most POLL_YIELD_SECONDS; a page opened, or another POST, never waits.
    settings.POLL_YIELD_SECONDS = 0.3
    saving, saved, calls = threading.Event(), threading.Event(), []

    def view(request):
        calls.append(request.method + " " + request.path)
        if request.method == "POST":
            saving.set()
            saved.wait(5)
        return HttpResponse()

    middleware = LoadMiddleware(view)
    factory = RequestFactory()
    post = threading.Thread(target=middleware, args=(factory.post("/t/abc/score/"),))
    post.start()
    assert saving.wait(5)
    poll = threading.Thread(target=middleware, args=(factory.get("/t/abc/", {"since": "1:2:3:4"}, **HTMX),))
    poll.start()
    time.sleep(0.1)
    assert calls == ["POST /t/abc/score/"]  # the poll is waiting
    middleware(factory.get("/t/abc/"))  # a page opened is not
    other = threading.Thread(target=middleware, args=(factory.post("/t/def/score/"),))
    other.start()
    time.sleep(0.05)
    assert calls == ["POST /t/abc/score/", "GET /t/abc/", "POST /t/def/score/"]  # nor is another score
    saved.set()  # both saved: the poll goes on at once
    for thread in (post, other, poll):
        thread.join(5)
    assert calls[-1] == "GET /t/abc/" and middleware.writes == 0 and middleware.running == 0

    # A save that takes longer than the yield: the poll waits the yield, then is answered all the same.
    saving.clear(), saved.clear()
    post = threading.Thread(target=middleware, args=(factory.post("/t/abc/score/"),))
    post.start()
    assert saving.wait(5)
    started = time.monotonic()
    middleware(factory.get("/t/abc/", {"since": "1:2:3:4"}, **HTMX))
    waited = time.monotonic() - started
    saved.set()
    post.join(5)
    assert 0.25 <= waited < 3
