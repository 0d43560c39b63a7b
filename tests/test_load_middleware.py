"""A busy server tells the pages that poll to wait; it never turns a form away for load."""

from __future__ import annotations

import threading

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
