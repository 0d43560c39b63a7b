"""A night's file into this installation: checked whole first (`checks`), then each codec's records made in one
bulk insert for the kind (batched by the database's limit on parameters), and the night read as its pages read it."""

from __future__ import annotations

import copy
import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from scoring import rules
from scoring.models import Hand, TableResult
from scoring.services import result_extras_refresh

from .. import selectors
from ..models import Club, Entry, Membership, Night, PartnerWish, Payment, Player, PotLine, fresh_code, sole_club_id
from ..schema import (
    HANDS,
    NIGHT,
    PARTNER_WISHES,
    PARTS,
    PAYMENTS,
    PLAYERS,
    POT_LINES,
    RESULTS,
    Codec,
    Made,
    auto_times,
    decode,
)
from ..selectors.tie_draws import tie_draw_fault
from . import checks
from .checks import NOTHING, Carries, fail, refuse
from .export import canonical

logger = logging.getLogger(__name__)

Pairs = list[tuple[Any, Any]]  # each record made, with its record in the file


def _usernames(codec: Codec, rows: Sequence[Any]) -> Iterator[str]:
    """The accounts the file names, in the order it names them."""
    for row in rows:
        if isinstance(row, dict):
            yield from (row[key] for key in codec.accounts() if row.get(key))
            for child in codec.children:
                yield from _usernames(child, row.get(child.key, []))


def _accounts(data: dict[str, Any], club_id: int) -> dict[str, Any]:
    """Every account the file names: the club's one of that name, or one made for the club without a password (so
    it cannot log in), kept for the history that names it. A name that is another club's account on this server is
    never lent across: its records keep no account (None) and it keeps no night."""
    users = get_user_model()
    wanted = list(
        dict.fromkeys([*data["night"]["keepers"], *(n for c in PARTS for n in _usernames(c, _rows(data, c)))])
    )
    found = users.objects.filter(**{f"{users.USERNAME_FIELD}__in": wanted}).select_related("membership")
    here: dict[str, Any] = {}
    for user in found:
        membership = getattr(user, "membership", None)
        here[user.get_username()] = user if membership is not None and membership.club_id == club_id else None
    new = []
    for name in wanted:
        if name not in here:
            here[name] = users(**{users.USERNAME_FIELD: name})
            here[name].set_unusable_password()
            new.append(here[name])
    users.objects.bulk_create(new)  # (no signal: each new account is made the club's here)
    Membership.objects.bulk_create([Membership(user=user, club_id=club_id) for user in new])
    return here


def lent_accounts(data: dict[str, Any], club_id: int) -> set[str]:
    """The accounts the file names that are another club's on this server: their records restore naming nobody."""
    users = get_user_model()
    names = {*data["night"]["keepers"], *(n for c in PARTS for n in _usernames(c, _rows(data, c)))}
    found = users.objects.filter(**{f"{users.USERNAME_FIELD}__in": names}).select_related("membership")
    return {
        user.get_username()
        for user in found
        if (membership := getattr(user, "membership", None)) is None or membership.club_id != club_id
    }


def as_restored_checksum(data: dict[str, Any], club_id: int) -> str:
    """The checksum of the night the (checked) file `data` restores into `club_id` here, as its backup would then
    read: the file's, but for what restoring here necessarily changes. An account of another club names nobody;
    a player left off public lists on this roster stays off them. So a night sent again unchanged is known as
    unchanged even when the laptop's organizer is a name another club holds on the site. A file whose shape is
    wrong has no such checksum (""): the restore then refuses it with its reason."""
    try:
        return _as_restored_checksum(data, club_id)
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        return ""


def _as_restored_checksum(data: dict[str, Any], club_id: int) -> str:
    payload = copy.deepcopy({key: value for key, value in data.items() if key != "checksum"})
    lent = lent_accounts(data, club_id)
    payload["night"]["keepers"] = sorted(name for name in payload["night"]["keepers"] if name not in lent)

    def blank(codec: Codec, rows: Sequence[Any]) -> None:
        accounts = codec.accounts()
        places = [list(codec.fields).index(key) for key in accounts] if codec.compact else []
        for row in rows:
            if isinstance(row, dict):
                for key in accounts:
                    if row.get(key) in lent:
                        row[key] = None
                for child in codec.children:
                    blank(child, row.get(child.key, []))
            elif isinstance(row, list):
                for place in places:
                    if row[place] in lent:
                        row[place] = None

    for codec in PARTS:
        blank(codec, _rows(payload, codec))
    keys = [row["key"] for row in payload["players"] if not row["house"]]
    roster = {
        name_key: (unlisted, token)
        for name_key, unlisted, token in Player.objects.filter(club=club_id, name_key__in=keys).values_list(
            "name_key", "unlisted", "results_token"
        )
    }
    for row in payload["players"]:
        if not row["house"] and row["key"] in roster:
            unlisted, token = roster[row["key"]]
            if unlisted:
                row["unlisted"] = True
            if "results" in row:  # a player on this roster keeps their own link
                row["results"] = token
    return hashlib.sha256(canonical(payload)).hexdigest()


def _rows(data: dict[str, Any], codec: Codec) -> list[Any]:
    return data.get(codec.key, []) if codec.part_of_later else data[codec.key]


def _players(night: Night, rows: list[dict[str, Any]], made: Made) -> Pairs:
    """The night's players, each the roster's player of that key or one new here, and their entries."""
    # Cards and codes travel with the night; a backup from before they did gets new ones, in its order.
    next_card = max((row["card"] for row in rows if row.get("card")), default=0)
    codes = {row["code"] for row in rows if row.get("code")}
    keys = [row["key"] for row in rows if not row["house"]]
    here = {p.name_key: p for p in Player.objects.filter(club=night.club_id, name_key__in=keys)}
    new: list[Player] = []
    # A player's wish to be left off public lists comes with the night; a file never lists anyone anew (a roster's
    # "Public" is pressed on that roster).
    unlisted: list[Player] = []
    pairs: Pairs = []
    for row in rows:
        if not row.get("card"):
            next_card += 1
            row = {**row, "card": next_card}
        if not row.get("code"):
            row = {**row, "code": fresh_code(codes)}
            codes.add(row["code"])
        key, name = row["key"], row["name"]
        if row["house"]:
            player = Player(
                club_id=night.club_id, name=name, house=True, name_key=f"house:{night.pk}:{int(key.split(':')[1])}"
            )
        elif key in here:
            player = here[key]
            if row.get("unlisted") and not player.unlisted:  # asked on the laptop: kept off this roster's lists too
                player.unlisted = True
                unlisted.append(player)
        else:
            player = Player(
                club_id=night.club_id,
                name=name,
                club_number=row.get("club_number", ""),
                category=row.get("category", ""),
                unlisted=bool(row.get("unlisted")),
            )
            player.name_key = Player.key_for(name)
        if player.pk is None:
            new.append(player)
        made.players[key] = player
        # the night's players as it had them (name, category, club number), whatever the roster here says
        pairs.append((Entry(night=night, player=player, **decode(PLAYERS, row, made)), row))
    # A player new here keeps the file's results link (the one on their tally card), unless a player of this server
    # has it already: then a new one.
    wanted = {row["key"]: row["results"] for row in rows if not row["house"] and row.get("results")}
    taken = set(Player.objects.filter(results_token__in=wanted.values()).values_list("results_token", flat=True))
    for key, token in wanted.items():
        if made.players[key].pk is None and token not in taken:
            made.players[key].results_token = token
            taken.add(token)
    Player.objects.bulk_create(new)
    Player.objects.filter(pk__in=[player.pk for player in unlisted]).update(unlisted=True)
    for entry, row in pairs:
        entry.player = made.players[row["key"]]
        made.entries[row["key"]] = entry
    Entry.objects.bulk_create([entry for entry, _ in pairs])
    return pairs


Before = dict[Codec, Callable[[Any, Any], None]]


def _make(
    codec: Codec, groups: list[tuple[Any, Sequence[Any]]], made: Made, kept: dict[str, Pairs], before: Before
) -> None:
    """The records of one kind under their parents, in one bulk insert (and their children's, kind by kind)."""
    if codec.fills:
        _fill(codec, groups, made, kept[codec.fills])
        return
    pairs: Pairs = []
    for parent, rows in groups:
        for row in rows:
            record = codec.model(**decode(codec, row, made), **({codec.parent: parent} if codec.parent else {}))
            if codec in before:
                before[codec](record, row)
            pairs.append((record, row))
    codec.model._default_manager.bulk_create([record for record, _ in pairs])
    if times := auto_times(codec):  # the database set them when made: the file's moments put back
        for record, row in pairs:
            for name in times:
                setattr(record, name, decode(codec, row, made)[name])
        codec.model._default_manager.bulk_update([record for record, _ in pairs], times)
    kept[codec.key] = pairs
    for child in codec.children:
        _make(
            child,
            [(record, row.get(child.key, []) if child.part_of_later else row[child.key]) for record, row in pairs],
            made,
            kept,
            before,
        )


def _fill(codec: Codec, groups: list[tuple[Any, Sequence[Any]]], made: Made, targets: Pairs) -> None:
    """Records that give fields of records already made (partners apart to their seats, substitutes to their
    entries), matched on their first field."""
    if not targets:
        return
    model = codec.model
    first, *rest = codec.fields.values()
    parent = codec.parent_column()
    found = {(getattr(record, parent) if parent else None, getattr(record, first).pk): record for record, _ in targets}
    changed = []
    for owner, rows in groups:
        for row in rows:
            values = decode(codec, row, made)
            record = found[(owner.pk if parent else None, values.pop(first).pk)]
            for name, value in values.items():
                setattr(record, name, value)
            changed.append(record)
    if changed:
        model._default_manager.bulk_update(changed, rest)


@transaction.atomic
def night_restore(*, raw: bytes, by=None, club: Club | None = None, pk: int | None = None) -> Night:
    """Restore a night from its backup file into this installation, as `club`'s (on the laptop: its one club). All
    or nothing: every field is checked before anything is written. `pk`: the id of the copy it replaces (a night
    published again keeps its address on the club's site)."""
    data = checks.parse(raw)
    checked, lines = checks.check(data)
    checked.club_id = club.pk if club is not None else sole_club_id()
    info = data["night"]
    if (existing := Night.objects.filter(uid=info["uid"]).first()) is not None:
        if existing.club_id != checked.club_id:  # another club's: not named
            raise refuse(f"This backup's night is on this server already, as another club's. {NOTHING}")
        raise refuse(f"This night is already here: “{existing.name}” of {existing.date:%Y-%m-%d}. Nothing restored.")
    checks.check_not_here(data, checked.club_id)
    carries = checks.check_carries(data.get("pot_lines", []), lines, checked, data["version"])
    try:
        made = Made(accounts=_accounts(data, checked.club_id))
        night = Night.objects.create(
            pk=pk,
            club_id=checked.club_id,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            **decode(NIGHT, info, made),
        )
        night.keepers.set([made.accounts[name] for name in info["keepers"] if made.accounts[name] is not None])
        kept = {PLAYERS.key: _players(night, data["players"], made)}
        before = _before(rules.Ruleset.from_dict(night.rules), made, carries, data)
        for codec in PARTS:
            if codec is not PLAYERS:
                _make(codec, [(night, _rows(data, codec))], made, kept, before)
        for index, taker in carries.taken_by.items():  # a later night restored before this one took these in
            PotLine.objects.filter(pk=taker.pk).update(
                carry_named=f"{night.uid}:{index + 1}", carried_from=kept[POT_LINES.key][index][0]
            )
    except (KeyError, TypeError, ValueError) as error:
        raise refuse(f"This backup is incomplete or malformed ({error!r}): nothing was restored.") from error
    except IntegrityError as error:
        # a clash the checks above did not foresee: said in words, the database's own message in the log
        logger.warning("A restore clashed with what is here: %s", error)
        raise refuse(
            "This backup clashes with what is already on this laptop (a record of it that may be here once is"
            f" here already: is this night, or a copy of it, here?). {NOTHING}"
        ) from error
    _check_readings(Night.objects.get(pk=night.pk))
    return night


def _before(ruleset: rules.Ruleset, made: Made, carries: Carries, data: dict[str, Any]) -> Before:
    """What some records are given before they are made, beyond their codec's fields: a result's extras (worked out
    from its hands), a pot line's carry, a partner wish's two players."""
    lines = iter(range(len(data.get("pot_lines", []))))

    def extras(result: TableResult, row: dict[str, Any]) -> None:
        # not in the file: worked out from the hands
        result_extras_refresh(result, [Hand(**decode(HANDS, hand, made)) for hand in row["hands"]], ruleset)

    def carry(line: PotLine, _row: dict[str, Any]) -> None:
        if (taken := carries.taken.get(next(lines))) is not None:
            line.carry_named, line.carried_from = taken

    def pair(wish: PartnerWish, row: dict[str, Any]) -> None:
        first, second = sorted((made.players[key] for key in row["players"]), key=lambda player: player.pk)
        wish.first, wish.second = first, second

    def gone(payment: Payment, row: dict[str, Any]) -> None:
        payment.name = row.get("name", "")  # only a line whose player was taken off the night has one

    return {RESULTS: extras, POT_LINES: carry, PARTNER_WISHES: pair, PAYMENTS: gone}


def _check_readings(night: Night) -> None:
    """The restored night read as its pages read it, inside the restore's transaction: a tie's draw between the
    players level for its prize when it was drawn, and every reading the public page, the room display and the
    Money page make done once. A refusal here undoes the whole restore (the transaction), so nothing is written."""
    if fault := tie_draw_fault(night):
        number, problem = fault
        raise fail(f"Draw {number}", problem)
    try:
        standings = selectors.night_standings(night)
        selectors.standings_with_money(night, standings)
        door = selectors.door_money(night)
        selectors.prize_payouts(night, door.cash.net, standings.awards)
        selectors.night_prizes(night, door.cash.net)
        selectors.night_pots(night)
        selectors.night_close(night, standings)
        selectors.night_draws(night)
        selectors.room(night)
    except (ArithmeticError, LookupError, TypeError, ValueError) as error:
        logger.exception("A restored night could not be read as its pages read it")
        raise refuse(
            f"This backup restores a night its pages could not show ({error.__class__.__name__}: {error}). {NOTHING}"
        ) from error
