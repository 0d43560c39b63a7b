"""One try to send a night to its club's site (the laptop's side of "Publish to the club's site").

The night's backup file, read at the moment of each try (so a try late or retried sends the night as it is then),
goes to `<the club's site>/publish/` with the club's key. The site answers in JSON with a message in words; a
refusal (4xx) is shown as it is and not tried again; no answer, or the site's trouble (5xx, 408, 429), is tried
again later by the task (`tasks.publish_night`), later and later. Standard library only (urllib).
"""

from __future__ import annotations

import dataclasses
import errno
import http.client
import json
import socket
import urllib.error
import urllib.request
from typing import Any

from django.utils import timezone

from ..models import Night
from ..services.publish import site_address_refusal
from .export import night_backup_bytes

TIMEOUT = 60  # seconds for the site's answer: a large night is a few MB
# Tried again after 30 s, 1, 2, 4, 8, 16 minutes, then every half hour, for about four days.
RETRY_FIRST, RETRY_MOST, TRIES = 30, 1800, 200


@dataclasses.dataclass(frozen=True)
class Try:
    """One try's outcome: sent, refused (not tried again), or to try again (`again`)."""

    sent: bool
    again: bool
    words: str


def retry_after(tries: int) -> int:
    return min(RETRY_FIRST * 2**tries, RETRY_MOST)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is not followed: the key would go with it, perhaps to plain HTTP."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def _post(url: str, body: bytes, key: str) -> tuple[int, dict[str, Any]]:
    """The site's status and its JSON answer ({} when it gave none)."""
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json", "Accept": "application/json"},
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=TIMEOUT) as answer:
            status, raw = answer.status, answer.read(100_000)
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read(100_000)
    try:
        said = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        said = {}
    return status, said if isinstance(said, dict) else {}


def night_publish_send(*, night_id: int, tries: int = 0) -> Try:
    """One try to send the night as it is now to the club's site, and what the night page says of it."""
    night = Night.objects.select_related("club").filter(pk=night_id).first()
    if night is None:
        return Try(sent=False, again=False, words="The night is gone.")
    club = night.club
    if not club.site_address or not club.site_key or site_address_refusal(club.site_address):
        return _noted(night, Try(False, False, "Not sent: type the club's site address and key first."))
    body = night_backup_bytes(night)
    now = timezone.localtime()
    try:
        status, said = _post(club.site_address + "publish/", body, club.site_key)
    except (OSError, http.client.HTTPException) as error:  # no connection, a name not found, a timeout, a cut answer
        return _noted(night, _later(now, tries, f"the club's site was not reached ({_unreached(error)})"))
    message = str(said.get("message", ""))[:200]
    if 200 <= status < 300:
        # the site's own words kept beside the time: "updated", or "nothing changed" for a night sent as it was
        Night.objects.filter(pk=night.pk).update(published_at=timezone.now(), publish_note=message[:300])
        return Try(True, False, message or "Sent.")
    if status in (408, 429) or status >= 500:
        return _noted(
            night, _later(now, tries, f"the club's site answered {status}{f': {message}' if message else ''}")
        )
    if 300 <= status < 400:
        words = f"Not sent: the club's site sent it elsewhere (status {status}). Check the site's address."
    elif status == 404 and not message:
        words = (
            "Not sent: the club's site has no such address (status 404). Check the site's address on The club's site:"
            " it ends in /c/ and the club's short address."
        )
    else:
        words = f"The club's site refused it: {message or f'status {status}'}"
    return _noted(night, Try(False, False, words))


def _unreached(error: BaseException) -> str:
    """Why the site was not reached, in an organizer's words (not the system's error number)."""
    reason = getattr(error, "reason", error)
    if isinstance(reason, ConnectionRefusedError):
        return "nothing answered at its address: is it the right one, and is the site up?"
    if isinstance(reason, socket.gaierror):
        return "its name was not found: is this laptop on the internet?"
    if isinstance(reason, TimeoutError | socket.timeout):
        return "it did not answer in time"
    if isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "no way to it from here: is this laptop on the internet?"
    return str(reason)


def _later(now, tries: int, why: str) -> Try:
    if tries + 1 >= TRIES:
        return Try(False, False, f"Not sent: {why} at {now:%H:%M}, and no longer tried. Press Publish again.")
    wait = retry_after(tries)
    when = f"{wait} s" if wait < 60 else f"{wait // 60} min"
    return Try(False, True, f"Not sent yet: {why} at {now:%H:%M}; it tries again in about {when}.")


def _noted(night: Night, outcome: Try) -> Try:
    Night.objects.filter(pk=night.pk).update(publish_note=outcome.words[:300])
    return outcome
