"""Publishing a night to the club's site: the laptop's side (the site's address and key, typed once; the queue) and
the hosted side's key. One try to send is `backup.night_publish_send`; the site's side, `backup.night_publish`."""

from __future__ import annotations

import hashlib
import re
import secrets
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .. import dispatch
from ..models import Club, Night

LOOPBACK = {"localhost", "127.0.0.1", "::1"}
SITE_KEY_LENGTH = 64  # Club.site_key's
CLUB_PART = r"/c/([-a-zA-Z0-9_]+)/?$"  # a club's own address on its site ends so (its short address)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def club_key_new(*, club: Club) -> str:
    """A new publishing key for the club's site (the hosted side): only its SHA-256 is kept; the key is returned
    once, to be typed on the club's laptop. The old key stops at once."""
    key = secrets.token_urlsafe(32)
    Club.objects.filter(pk=club.pk).update(publish_key_hash=key_hash(key))
    club.publish_key_hash = key_hash(key)
    return key


def site_address_refusal(address: str) -> str:
    """Why the address is not one to send a club's key to ("" when it is): HTTPS, or plain HTTP to this machine."""
    parts = urlsplit(address)
    example = "https://euchre.example.org/c/our-club/"
    if not (parts.scheme == "https" and parts.hostname) and not (parts.scheme == "http" and parts.hostname in LOOPBACK):
        return f"Type the club's site address as it starts, with https:// (for example {example})."
    if re.search(r"/public" + CLUB_PART, parts.path, re.IGNORECASE):
        path = _club_part(re.sub(r"/public(/c/)", r"\1", parts.path, flags=re.IGNORECASE))
        own = parts._replace(path=path, query="", fragment="")
        return (
            "That is the club's public page, where players read the results. Type the club's own address on the site,"
            f" the same without /public: {own.geturl().rstrip('/')}/"
        )
    if not re.search(CLUB_PART, parts.path, re.IGNORECASE) or parts.query or parts.fragment:
        return (
            "Type the club's own address on the site, ending in /c/ and the club's short address"
            f" (for example {example}): the site's operator has it."
        )
    return ""


def _club_part(path: str) -> str:
    """The path's ending /c/<short address>/ as the site's addresses are: lower-case (short addresses are)."""
    return re.sub(CLUB_PART, lambda found: f"/c/{found.group(1).lower()}/", path, flags=re.IGNORECASE)


@transaction.atomic
def club_site_set(*, club: Club, address: str, key: str) -> Club:
    """The laptop's club site and key, typed once. A blank key keeps the one kept."""
    address = address.strip()
    key = key.strip() or club.site_key
    errors: dict[str, str] = {}
    if address and (refusal := site_address_refusal(address)):
        errors["address"] = refusal
    if address and not key:
        errors["key"] = "Type the publishing key the club's site gave (its operator has it)."
    if len(key) > SITE_KEY_LENGTH:
        errors["key"] = "That is not a publishing key: it is far longer than one."
    if errors:
        raise ValidationError(errors)
    was = (club.site_address, club.site_key)
    if address:
        parts = urlsplit(address)
        address = parts._replace(path=_club_part(parts.path)).geturl()
    club.site_address = address.rstrip("/") + "/" if address else ""
    club.site_key = key if address else ""
    club.save(update_fields=["site_address", "site_key"])
    waiting = Night.objects.filter(Night.PUBLISH_WAITING, club=club)
    # A refusal the old address or key was given says nothing of the new ones: the next try says its own. (What the
    # site said of a night it took stays beside its "Sent at".)
    waiting.exclude(publish_note="").update(publish_note="")
    if club.site_key and (club.site_address, club.site_key) != was:
        # Nights queued and not sent since (a refusal stops their tries) go to the new address or with the new key
        # now, not at the next Publish: the night page says "queued" of them.
        for night_id in waiting.values_list("pk", flat=True):
            dispatch.send_on_commit(dispatch.PUBLISH_NIGHT, night_id)
    return club


@transaction.atomic
def night_publish_start(*, night: Night) -> None:
    """Queue the night for the club's site: the task sends it once the transaction commits, and tries again until
    the site answers."""
    club = Club.objects.get(pk=night.club_id)
    if not club.site_address or not club.site_key:
        raise ValidationError({"publish": "Type the club's site address and key first (The club's site)."})
    Night.objects.filter(pk=night.pk).update(publish_asked_at=timezone.now(), publish_note="")
    dispatch.send_on_commit(dispatch.PUBLISH_NIGHT, night.pk)


@transaction.atomic
def night_publish_live_set(*, night: Night, live: bool) -> None:
    Night.objects.filter(pk=night.pk).update(publish_live=live)


def after_game(night_id: int) -> None:
    """A game of the night closed (the game's life calls this): queued for the site when the night publishes after
    each game and the club has a site."""
    if Night.objects.filter(pk=night_id, publish_live=True).exclude(club__site_key="").exists():
        Night.objects.filter(pk=night_id).update(publish_asked_at=timezone.now(), publish_note="")
        dispatch.send_on_commit(dispatch.PUBLISH_NIGHT, night_id)
