"""What every player's own page shows, read once per move and shared by every phone that asks.

After the bell's turnaround a thousand phones ask for their new seat within a few seconds. Each used to read its
own place (eleven queries and a page of ORM work). Now the first phone to ask after a move reads everyone's place
in a handful of queries and the rest of the room is answered from that reading: a phone's page costs its stamp
query and its own small template.

The reading is kept in this process, under the night's move stamp (the only change a player's page shows), for the
few nights last asked about. Each process of a hosted server reads it once per move for itself; nothing needs to be
invalidated, since a move changes the stamp every phone compares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring.seats import PARTNER_SEAT, SEAT_NAMES, SEATS, is_three

from ..models import Bye, Entry, Night, Round, Seating, entry_name
from .kept import NightReadings
from .night import PlayerPlace, Room, SeatFinder, card_field, room, stamp_of
from .standings import GameLine, game_lines


@dataclass(frozen=True)
class PhoneRoom:
    """One night as its players' phones see it, at one move stamp."""

    night: Night
    stamp: str
    room: Room
    places: Mapping[int, PlayerPlace]  # every player of the night (house players are no one's phone)
    cards: Mapping[int, int]  # the number on each player's tally card
    gone: frozenset[int] = frozenset()  # the players who have left the night (their page says so: `player_left`)


# Kept under each night's move stamp (`kept.NightReadings`); looked up by name at each reading, so a test may
# stand in for it.
_phones: NightReadings[PhoneRoom] = NightReadings(lambda night_id: read_phone_room(night_id))
_kept = _phones.kept
NIGHTS_KEPT = _phones.kept_nights


def phone_room(night_id: int, stamp: str) -> PhoneRoom | None:
    """The night at move stamp `stamp` (as `night_stamp` just gave it), read at most once per process and stamp:
    the phones that ask while it is being read wait for that one reading rather than each making their own."""
    return _phones.get(night_id, stamp)


def forget() -> None:
    """Drop every kept reading (the tests start each from the database)."""
    _phones.forget()


def read_phone_room(night_id: int) -> PhoneRoom | None:
    """Everyone's place in the night as the database has it now: eight queries whatever the number of players.

    The night (and so its stamp) is read first: a move writes its seats and its stamp in one transaction, so the
    places read after it are at least as new as the stamp they are kept under.
    """
    night = Night.objects.filter(pk=night_id).first()
    if night is None:
        return None
    the_room = room(night, with_finder=False)
    entries = list(
        Entry.objects.filter(night=night, player__house=False).values_list(
            "player_id", "name", card_field(night), "active"
        )
    )
    rounds = list(night.rounds.order_by("-number")[:2])
    current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    seated_next = next((r for r in rounds if r.status == Round.Status.SEATED), None)
    now_round = current if current is not None and current.status != Round.Status.SEATED else None
    wanted = [r.pk for r in (now_round, seated_next) if r is not None]
    seats: dict[int, dict[int, tuple[int, str]]] = {pk: {} for pk in wanted}  # round -> player -> (table, seat)
    names: dict[tuple[int, int, str], str] = {}  # (round, table, seat) -> name
    for round_id, player, table, seat, name in (
        Seating.objects.filter(round_id__in=wanted)
        .annotate(entry_name=entry_name())
        .values_list("round_id", "player_id", "table", "seat", "entry_name")
    ):
        seats[round_id][player] = (table, seat)
        names[(round_id, table, seat)] = name
    byes: dict[int, set[int]] = {pk: set() for pk in wanted}
    for round_id, player in Bye.objects.filter(round_id__in=wanted).values_list("round_id", "player_id"):
        byes[round_id].add(player)

    def place(round_: Round | None, player: int, name: str) -> SeatFinder | None:
        if round_ is None:
            return None
        mine = seats[round_.pk].get(player)
        if mine is None:
            return SeatFinder(name, 0, "", "sits out this game", "") if player in byes[round_.pk] else None
        table, seat = mine
        three = is_three(s for s in SEATS if (round_.pk, table, s) in names)  # no partners
        partner = "" if three else names.get((round_.pk, table, PARTNER_SEAT[seat]), "")
        return SeatFinder(name, table, seat, SEAT_NAMES[seat], partner)

    places = {
        player: PlayerPlace(name, place(now_round, player, name), place(seated_next, player, name))
        for player, name, _card, _active in entries
    }
    cards = {player: card for player, _name, card, _active in entries if card is not None}
    gone = frozenset(player for player, _name, _card, active in entries if not active)
    return PhoneRoom(night, stamp_of(night.moved_at), the_room, places, cards, gone)


@dataclass(frozen=True)
class LeftPlace:
    """The page of a player who has left the night: when, who took their seat, and their own games."""

    last_game: int  # the last game they played or sat out (0: none)
    substitute: str  # who took their seat for the rest of the night ("" for nobody)
    finishing: bool  # still in the game under way, which a player who leaves finishes
    games: list[GameLine]  # their own tally lines, closed games only, in order
    tally: int | None  # the tally after their last closed game (their card's running total), None before any

    @property
    def words(self) -> str:
        """What their page says first, plainly."""
        if self.finishing:
            return f"You leave after this game (game {self.last_game})."
        when = f"after game {self.last_game}" if self.last_game else "before your first game"
        took = f"; {self.substitute} took your seat" if self.substitute else ""
        return f"You left {when}{took}."


def player_left(night: Night, player_id: int) -> LeftPlace | None:
    """What the page of `player_id`, who has left `night`, says (None if they have not left); a few queries and
    the night's tally lines, read only for the few players who leave."""
    entry = Entry.objects.filter(night=night, player_id=player_id, active=False).first()
    if entry is None:
        return None
    seated = dict(
        Seating.objects.filter(round__night=night, player_id=player_id).values_list("round__number", "round__status")
    )
    played = set(seated) | set(
        Bye.objects.filter(round__night=night, player_id=player_id).values_list("round__number", flat=True)
    )
    substitute = Entry.objects.filter(substitute_for=entry).values_list("name", flat=True).first() or ""
    finishing = not substitute and any(status != Round.Status.CLOSED for status in seated.values())
    # On the "card" rule a substitute's games go on the card of the first player of their line: their own lines
    # are that card's lines of the games they sat in.
    replaced = dict(
        Entry.objects.filter(night=night, substitute_for__isnull=False).values_list(
            "player_id", "substitute_for__player_id"
        )
    )
    card, seen = player_id, {player_id}
    while card in replaced and replaced[card] not in seen:
        card = replaced[card]
        seen.add(card)
    lines = game_lines(night)
    own = [line for line in lines.get(player_id) or lines.get(card, []) if line.round in played]
    return LeftPlace(max(played, default=0), substitute, finishing, own, own[-1].running_total if own else None)
