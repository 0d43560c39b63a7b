"""The only writers of who plays: registering, the roster, arrivals and leavers, imports. One transaction each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from scoring.models import TableResult
from scoring.names import fold as folded_name

from ..engine import money
from ..imports import parse_players_csv
from ..models import (
    MAX_PLAYERS,
    NAME_LENGTH,
    Bye,
    Entry,
    ImportPreview,
    Night,
    Payment,
    Player,
    Round,
    Seating,
    SignUp,
)
from .nights import clean_name, form_key, lock_night, require_open, require_setup, require_unfinished
from .seating import bye_floor, number_new_entries, reseat_if_waiting


def room_for(here: int, adding: int, field: str) -> None:
    """Refuse a list that would take a night of `here` players past the most a night takes."""
    if here + adding > MAX_PLAYERS:
        raise ValidationError(
            {
                field: f"A night takes at most {MAX_PLAYERS:,} players: this one has {here:,}, and the list adds "
                f"{adding:,}. Nobody was added."
            }
        )


@transaction.atomic
def players_register(
    *, night: Night, names: Iterable[str], checked_in: bool = True, line_numbers: Sequence[int] | None = None
) -> list[Entry]:
    """Register players by name, adding new names to the club roster. All or nothing: a list with any refused line
    adds nobody, and the refusal names each such line (by its place in the list, or by `line_numbers`)."""
    night = lock_night(night)
    require_open(night, "names")
    listed = list(names)
    numbers = list(line_numbers) if line_numbers is not None else list(range(1, len(listed) + 1))
    lines = [(number, clean_name(name)) for number, name in zip(numbers, listed, strict=True)]
    lines = [(number, name) for number, name in lines if name]
    if not lines:
        raise ValidationError({"names": "Type at least one name."})
    registered = {e.player.name_key: e.name for e in Entry.objects.filter(night=night).select_related("player")}
    # Names that differ only by accents, capitals or marks ("chloe DUBOIS", "Chloé Dubois") are one player typed
    # twice far more often than two players: said, never added silently.
    alike = {folded_name(name): name for name in registered.values()}
    refusals: list[str] = []
    first_line: dict[str, int] = {}
    first_fold: dict[str, tuple[int, str]] = {}
    for number, name in lines:
        key, folded = Player.key_for(name), folded_name(name)
        if len(name) > NAME_LENGTH:
            problem = f"too long ({NAME_LENGTH} characters at most)."
        elif key in first_line:
            problem = f"listed twice (also on line {first_line[key]})."
        elif key in registered:
            as_ = f" (as {registered[key]})" if registered[key] != name else ""
            problem = f"already registered for this night{as_}."
        elif folded and folded in first_fold:
            line, other = first_fold[folded]
            problem = (
                f"the same name as “{other}” on line {line} but for accents, capitals or marks: the same player "
                "twice? Take one out, or tell the two apart (an initial)."
            )
        elif folded and folded in alike:
            problem = (
                f"the same name as {alike[folded]}, already registered for this night, but for accents, capitals "
                "or marks: the same player? If not, tell the two apart (an initial)."
            )
        else:
            problem = ""
        first_line.setdefault(key, number)
        first_fold.setdefault(folded, (number, name))
        if problem and len(lines) > 1:
            refusals.append(f"Line {number}, “{name if len(name) <= 40 else name[:40] + '…'}”: {problem}")
        elif problem:  # one name typed: said of it, without a line number
            here = registered.get(key)
            refusals.append(f"Already registered for this night: {here}." if here else problem[0].upper() + problem[1:])
    if refusals:
        if len(lines) > 1:
            refusals.append("Nobody was added: take out or change the lines above, then add the list again.")
        raise ValidationError({"names": refusals})
    room_for(len(registered), len(lines), "names")
    cleaned = [name for _, name in lines]
    keys = [Player.key_for(name) for name in cleaned]
    known = {player.name_key: player for player in Player.objects.filter(club=night.club_id, name_key__in=keys)}
    alike_on_roster = _roster_alike(
        night, [(number, name) for number, name in lines if Player.key_for(name) not in known]
    )
    offset = bye_floor(night)
    players = [
        known.get(Player.key_for(name))
        or alike_on_roster.get(name)
        or Player.objects.create(club_id=night.club_id, name=name)
        for name in cleaned
    ]
    entries = Entry.objects.enter(
        night, players, checked_in=checked_in, bye_offset=offset, price_kind=arrival_price_kind(night)
    )
    number_new_entries(night, entries, "names")
    reseat_if_waiting(night)
    Night.touch(night.pk)
    return entries


def _roster_alike(night: Night, lines: Sequence[tuple[int, str]]) -> dict[str, Player]:
    """The roster's player each typed name is, where the roster has it but for accents, capitals or marks ("chloe
    dubois" is the roster's Chloé Dubois): one person, in the roster's spelling, never a second roster entry. A
    name that could be two of the roster's players is refused: the organizer picks the one from Regulars."""
    if not lines:
        return {}
    wanted = {folded: name for _, name in lines if (folded := folded_name(name))}
    found: dict[str, list[Player]] = {}
    for player in Player.objects.filter(club=night.club_id, house=False).only("pk", "name", "name_key", "club_id"):
        if (folded := folded_name(player.name)) in wanted:
            found.setdefault(folded, []).append(player)
    if unclear := [(number, name) for number, name in lines if len(found.get(folded_name(name), ())) > 1]:
        number, name = unclear[0]
        two = " and ".join(sorted(player.name for player in found[folded_name(name)]))
        where = f"Line {number}, “{name}”: " if len(lines) > 1 or number != 1 else f"“{name}”: "
        raise ValidationError(
            {
                "names": [
                    f"{where}the roster has {two}, which of them is it? Pick the one from Regulars. Nobody was added."
                ]
            }
        )
    return {name: found[folded_name(name)][0] for _, name in lines if folded_name(name) in found}


def arrival_price_kind(night: Night) -> str:
    """The price a player added now is offered: pre-registered before the opening draw; after it they are a late
    arrival and pay the walk-in (door) price (the Money page can still change it)."""
    return "pre" if night.status == Night.Status.SETUP else "door"


@transaction.atomic
def players_add_from_roster(*, night: Night, player_ids: Sequence[int]) -> list[Entry]:
    night = lock_night(night)
    require_open(night, "players")
    players = list(Player.objects.filter(pk__in=player_ids, house=False, club=night.club_id))
    if not players:
        raise ValidationError({"players": "Pick at least one player from the roster."})
    already = [e.name for e in Entry.objects.filter(night=night, player__in=players).select_related("player")]
    if already:
        raise ValidationError({"players": f"Already registered for this night: {', '.join(sorted(already))}."})
    # As a typed list is (`players_register`): a name that is one already here, or another picked, but for
    # accents, capitals or marks is one player twice far more often than two.
    here = {folded_name(name): name for name in Entry.objects.filter(night=night).values_list("name", flat=True)}
    picked: dict[str, str] = {}
    for player in sorted(players, key=lambda player: player.pk):
        folded = folded_name(player.name)
        if folded and (other := here.get(folded) or picked.get(folded)):
            raise ValidationError(
                {
                    "players": f"{player.name} is the same name as {other} but for accents, capitals or marks: the "
                    "same player twice? Nobody was added; if they are two, tell them apart on the roster (an initial)."
                }
            )
        picked[folded] = player.name
    room_for(Entry.objects.filter(night=night).count(), len(players), "players")
    offset = bye_floor(night)
    entries = Entry.objects.enter(night, players, bye_offset=offset, price_kind=arrival_price_kind(night))
    number_new_entries(night, entries, "players")
    reseat_if_waiting(night)
    return entries


@transaction.atomic
def entry_set_checked_in(*, entry: Entry, checked_in: bool) -> Entry:
    """The organizer marks a player here, or not (confirming or undoing a check-in by phone)."""
    entry = Entry.objects.select_for_update().select_related("night").get(pk=entry.pk)
    require_setup(entry.night, "players")
    entry.checked_in, entry.checked_in_by_phone = checked_in, False
    entry.save(update_fields=["checked_in", "checked_in_by_phone"])
    Night.touch(entry.night_id)
    return entry


@transaction.atomic
def entry_check_in_by_phone(*, night: Night, entry_id: int, key: str = "") -> Entry:
    """A player checks in at the door from their phone (the door's QR code): marked here, by phone, for the
    organizer to see and undo. Done twice, it is done once; the same form sent again (`key`, its one-time key)
    changes nothing, even after the organizer undid the check-in it made."""
    night = lock_night(night)
    if night.status == Night.Status.FINISHED:
        raise ValidationError({"entry": "The night is over: check-in is closed."})
    if night.status != Night.Status.SETUP:
        raise ValidationError({"entry": "The seating is drawn: tell the organizer you are here."})
    if not night.checkin_open:
        raise ValidationError({"entry": "Check-in by phone is not open tonight: check in at the organizer's table."})
    entry = Entry.objects.select_related("player").filter(night=night, pk=entry_id, player__house=False).first()
    if entry is None:
        raise ValidationError({"entry": "That name is not on tonight's list: ask at the organizer's table."})
    key = form_key(key)
    if key and entry.checkin_key == key:
        return entry  # this form was sent before: what it did stands (or what the organizer did since)
    changed = ["checkin_key"] if key else []
    entry.checkin_key = key or entry.checkin_key
    if not entry.checked_in:
        entry.checked_in, entry.checked_in_by_phone = True, True
        changed += ["checked_in", "checked_in_by_phone"]
        Night.touch(night.pk)
    if changed:
        entry.save(update_fields=changed)
    return entry


@transaction.atomic
def entry_remove(*, entry: Entry) -> None:
    """Take a player off the night before the draw; a player who had signed up from the public link is withdrawn,
    and their place goes to the first on the waitlist."""
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    require_setup(entry.night, "players")
    paid = Payment.objects.filter(entry=entry)
    kept = money.held(
        money.Line(entry.player_id, cents, method) for cents, method in paid.values_list("cents", "method")
    )
    if kept:
        amounts = " and ".join(
            f"a comp of {money.shown(cents, entry.night.currency)}"
            if method == "comp"
            else f"{money.shown(cents, entry.night.currency)} {method}"
            for method, cents in kept.items()
        )
        raise ValidationError(
            {
                "players": f"{entry.name} has {amounts} on the Money page: refund it there first (a line with its "
                "reason), then remove them. Their lines stay in the cash record."
            }
        )
    paid.update(entry=None, name=entry.name)  # square: the lines stay in the record, under the name they had
    signups = list(SignUp.objects.filter(entry=entry))
    signed = SignUp.objects.filter(entry=entry).update(status=SignUp.Status.WITHDRAWN, entry=None)
    entry.delete()
    for signup in signups:
        roster_leave_with(signup, entry.player_id)
    if signed:
        waitlist_fill(entry.night)
    Night.touch(entry.night_id)


def roster_leave_with(signup: SignUp, player_id: int) -> None:
    """A name the public sign-up put on the club's roster leaves it with the sign-up (withdrawn, or taken off the
    night before the draw): a player made by this sign-up (on the roster since it was made) who plays no night. A
    roster player who signed up keeps their place on the roster. Inside the caller's transaction."""
    if not Entry.objects.filter(player_id=player_id).exists():
        Player.objects.filter(pk=player_id, house=False, created_at__gte=signup.created_at).delete()


def signup_register(signup: SignUp) -> SignUp:
    """Give a sign-up its place in the night: registered, expected (not yet checked in). Inside the caller's
    transaction, the night locked."""
    (entry,) = players_register(night=signup.night, names=[signup.name], checked_in=False)
    if signup.category:  # the night's own door list: this night plays them in it
        entry.category = signup.category
        entry.save(update_fields=["category"])
        if not entry.player.category:  # and the roster takes it where it had none, for nights to come
            Player.objects.filter(pk=entry.player_id).update(category=signup.category)
    if signup.unlisted:  # asked at sign-up: off the public lists, for this night and those to come
        Player.objects.filter(pk=entry.player_id).update(unlisted=True)
    signup.entry, signup.status = entry, SignUp.Status.IN
    signup.save(update_fields=["entry", "status"])
    return signup


def waitlist_fill(night: Night) -> list[SignUp]:
    """Take the waitlist in, first first, while the night has room under its cap; those taken in."""
    taken = []
    for waiting in SignUp.waiting(night.pk):
        if night.signup_cap is not None and night.entries.count() >= night.signup_cap:
            break
        taken.append(signup_register(waiting))
    return taken


@transaction.atomic
def entry_set_active(*, entry: Entry, active: bool) -> Entry:
    """A player leaves the night (or comes back). Their games stay in the standings.

    A player who leaves during a game finishes it; the movement leaves them out of the next. When the next game is
    seated and not yet started, it is seated again at once.
    """
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    require_unfinished(entry.night, "players", "who played in it no longer changes")
    entry.active = active
    if active:
        entry.checked_in = True
    entry.save(update_fields=["active", "checked_in"])
    reseat_if_waiting(entry.night)
    Night.touch(entry.night_id, moved=True)
    return entry


@transaction.atomic
def entry_substitute(*, entry: Entry, name: str) -> Entry:
    """A player who must leave is replaced by a substitute for the rest of the night.

    The substitute takes the leaver's place at once: their seat (or bye) in the game under way, unless their
    table's score is already in (then from the next game), their chart number on a rotation night, and their byes
    so far. The leaver is marked left and keeps the games they played. Whose tally the substitute's games go to is
    the night's `substitutes` setting (the standings read it). Returns the substitute's entry.
    """
    entry = Entry.objects.select_for_update().select_related("night", "player").get(pk=entry.pk)
    night = lock_night(entry.night)
    require_unfinished(night, "name", "who played in it no longer changes")
    if night.status != Night.Status.PLAYING:
        raise ValidationError({"name": "A substitute comes in once the night is under way."})
    if entry.player.house:
        raise ValidationError({"leaving": "A house player is stood down by the seating itself, not replaced."})
    if not entry.active:
        raise ValidationError({"leaving": f"{entry.name} has already left."})
    name = clean_name(name)
    if not name:
        raise ValidationError({"name": "Type the substitute's name."})
    if len(name) > NAME_LENGTH:
        raise ValidationError({"name": f"A name is at most {NAME_LENGTH} characters."})
    key = Player.key_for(name)
    here = Entry.objects.filter(night=night, player__name_key=key).select_related("player").first()
    if here is not None:
        raise ValidationError(
            {"name": f"{here.name} is already on tonight's list: a substitute is someone new to the night."}
        )
    room_for(Entry.objects.filter(night=night).count(), 1, "name")
    player = Player.objects.filter(club=night.club_id, name_key=key).first() or Player.objects.create(
        club_id=night.club_id, name=name
    )
    byes = Bye.objects.filter(round__night=night, player=entry.player).count() + entry.bye_offset
    number = entry.number
    entry.active = False
    entry.number = None
    entry.save(update_fields=["active", "number"])
    # The substitute pays no entry of their own: they play on the leaver's, paid for once (engine.money.entries).
    [substitute] = Entry.objects.enter(
        night, [player], checked_in=True, bye_offset=byes, price_kind="door", substitute_for=entry
    )
    if number is not None:
        substitute.number = number
        substitute.save(update_fields=["number"])
    current = night.rounds.order_by("-number").first()
    if current is not None and current.status != Round.Status.CLOSED:
        seat = Seating.objects.filter(round=current, player=entry.player).first()
        final = TableResult.Status.FINAL
        if seat is not None and not TableResult.objects.filter(round=current, table=seat.table, status=final).exists():
            Seating.objects.filter(pk=seat.pk).update(player=player)
        Bye.objects.filter(round=current, player=entry.player).update(player=player)
        Bye.objects.filter(round=current, partner=entry.player).update(partner=player)
    reseat_if_waiting(night)
    Night.touch(night.pk, moved=True)
    return substitute


@transaction.atomic
def players_import(*, night: Night, lines: Sequence) -> list[Entry]:
    """Register the players of a checked import (see tournament.imports), updating their roster number and
    category. Refused whole while any line has an error or a name is already registered tonight."""
    bad = [line for line in lines if line.error]
    if bad:
        raise ValidationError({"file": f"Line {bad[0].line}: {bad[0].error} Fix the file and try again."})
    if not lines:
        raise ValidationError({"file": "The file has no players in it."})
    entries = players_register(
        night=night, names=[line.name for line in lines], line_numbers=[line.line for line in lines]
    )
    by_key = {Player.key_for(line.name): line for line in lines}
    for entry in entries:
        line = by_key[entry.player.name_key]
        changed = {k: v for k, v in (("club_number", line.number), ("category", line.category)) if v}
        if changed:
            # This night plays them as the file says; the roster keeps it for nights to come. Nights already on
            # the books keep their own copy (Entry's name, category, club number), so their prizes never move.
            for field, value in changed.items():
                setattr(entry, field, value)
            entry.save(update_fields=list(changed))
            Player.objects.filter(pk=entry.player_id).update(**changed)
    return entries


TOKEN_LENGTH = 64  # a token is 43 characters; anything past this is not one of ours, refused before it is looked up
AGAIN = "choose the file again, and import from its preview"


@transaction.atomic
def import_preview_keep(*, night: Night, organizer, text: str) -> str:
    """Keep a previewed list for its confirm step and return the token its Import button sends (the list itself
    is not sent again: a spreadsheet's export, empty rows and all, may be far larger sent back as a form than as the
    file). Lists past their lifetime, any night's, are dropped here, so only the last hour's are kept."""
    ImportPreview.objects.filter(created_at__lt=timezone.now() - ImportPreview.LIFETIME).delete()
    # A NUL is no character of a name (the list's reading drops it) and PostgreSQL refuses one in a text field.
    kept = text.replace("\x00", "")
    return ImportPreview.objects.create(night=night, organizer=organizer, text=kept).token


@transaction.atomic
def players_import_confirm(*, night: Night, organizer, token: str) -> list[Entry]:
    """Import the list previewed under `token` (see `players_import`), once: the token is the preview's own, for
    this night and this organizer, within its lifetime; any other is refused in words and nothing is added. A
    refused import leaves the token as it was, so the same preview can be imported once the refusal is mended."""
    token = token.strip()
    found = (
        ImportPreview.objects.select_for_update().filter(token=token).first()
        if token and len(token) <= TOKEN_LENGTH
        else None
    )
    if found is None:
        raise ValidationError(
            {"file": f"This import is not one previewed here (the page may be out of date): {AGAIN}."}
        )
    if found.night_id != night.pk:
        raise ValidationError({"file": f"This preview was made for another night: {AGAIN} on this night's page."})
    if found.organizer_id != organizer.pk:
        raise ValidationError({"file": f"This preview was made by another organizer: {AGAIN}."})
    if found.used_at is not None:
        at = timezone.localtime(found.used_at)
        raise ValidationError({"file": f"This list was imported already, at {at:%H:%M}: nobody was added twice."})
    if found.created_at < timezone.now() - ImportPreview.LIFETIME:
        raise ValidationError(
            {"file": f"This preview is more than an hour old: {AGAIN}, to see each line as things stand now."}
        )
    # Taken under the condition that nobody took it meanwhile: a double click imports once, the second refused.
    if not ImportPreview.objects.filter(pk=found.pk, used_at__isnull=True).update(used_at=timezone.now(), text=""):
        raise ValidationError({"file": "This list was imported already: nobody was added twice."})
    lines = parse_players_csv(found.text)
    room_for(Entry.objects.filter(night=night).count(), len(lines), "file")
    return players_import(night=night, lines=lines)


def import_preview(night: Night, lines: Sequence) -> list[dict]:
    """Each line of an import as the organizer sees it before importing: new, on the roster, or refused."""
    registered = set(Entry.objects.filter(night=night).values_list("player__name_key", flat=True))
    known = set(
        Player.objects.filter(
            club=night.club_id, name_key__in=[Player.key_for(line.name) for line in lines]
        ).values_list("name_key", flat=True)
    )
    rows = []
    for line in lines:
        key = Player.key_for(line.name) if line.name else ""
        error = line.error or ("Already registered for this night." if key in registered else "")
        status = "refused" if error else ("on the club roster" if key in known else "new to the roster")
        rows.append({"line": line, "error": error, "status": status})
    return rows
