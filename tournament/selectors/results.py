"""A player's own results: tonight's card and their history at the club, read by their results link.

Every figure comes from the same readers as the tally card and the standings (`read_nights`, `card_lines`,
`standings_of`): the page, its PDF and the e-mail's link show exactly what the card and the standings show. The
player is found by their link's token alone (`player_by_token`); a club's scope, when the app keeps several, goes
in that one lookup and in `_player_nights`.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import QuerySet

from tournament.models import Entry, Night, Player

from .money import standings_with_money
from .night import RoundView, SeatFinder
from .seasons import SeasonStandings
from .standings import GameLine, NightRows, NightStandings, StandingRow, card_lines, read_nights, standings_of


@dataclass(frozen=True)
class ResultsNight:
    """One night of the player's: their place, totals and prizes, and their card game by game."""

    night_id: int
    name: str
    date: dt.date
    venue: str
    finished: bool
    games_closed: int  # the night's games closed so far
    place: str  # the rank as the standings show it ("=3"); "" before any game is closed
    players: int  # how many are ranked
    total: int
    games: int  # games played, byes apart
    byes: int
    wins: int
    average: float  # points per game played, as the standings count it
    loners_made: int
    loners_tried: int
    euchres: int
    prizes: list[str]  # "High score (84 points) $45.00"
    card: list[GameLine] = field(default_factory=list)  # the tally card's lines: each game and bye, the running total


@dataclass(frozen=True)
class PlayerResults:
    player_id: int
    token: str
    name: str  # as their latest night has them
    night: ResultsNight | None  # the night asked for, or their latest
    history: list[ResultsNight]  # every night of theirs with a game closed, latest first
    nights: int
    games: int
    total: int
    average: float  # points per game played over every night (byes' credit in the points, not in the games)
    prizes: list[tuple[ResultsNight, str]]
    partners: list[tuple[str, int]]  # who they partnered and how often, most often first (at most ten)


def player_by_token(token: str) -> Player | None:
    """The roster player whose results link this is (house players have none); None for any other text."""
    if not token or len(token) > 64:
        return None
    return Player.objects.filter(results_token=token, house=False).first()


def _player_nights(player: Player) -> QuerySet[Night]:
    return Night.objects.filter(entries__player=player).order_by("-date", "-pk")


def _night_of(rows: NightRows, player_id: int, *, money: bool) -> ResultsNight | None:
    night = rows.night
    standings = standings_of(rows)
    if money:
        standings = standings_with_money(night, standings)
    mine = next((row for row in standings.rows if row.player_id == player_id), None)
    if mine is None:
        return None
    prizes = [
        " ".join(part for part in (award.prize, f"({award.value})" if award.value else "", award.money) if part)
        for award in standings.awards
        if player_id in award.player_ids
    ]
    return ResultsNight(
        night_id=night.pk,
        name=night.name,
        date=night.date,
        venue=night.venue,
        finished=night.status == Night.Status.FINISHED,
        games_closed=standings.rounds_closed,
        place=mine.rank_label if standings.rounds_closed else "",
        players=len(standings.rows),
        total=mine.total,
        games=mine.games,
        byes=mine.byes,
        wins=mine.wins,
        average=mine.average,
        loners_made=mine.loners_made,
        loners_tried=mine.loners_tried,
        euchres=mine.euchres,
        prizes=prizes,
        card=card_lines(rows).get(player_id, []),
    )


def player_results(player: Player, night_id: int | None = None) -> PlayerResults | None:
    """The player's results page: the night asked for (their latest when None) and their history at the club.

    None when `night_id` is not one of the player's nights. Reads every night of theirs in one bulk read (the
    standings' own queries, whatever the number of nights), and the door's money for the night shown.
    """
    nights = list(_player_nights(player))
    if night_id is not None and night_id not in {night.pk for night in nights}:
        return None
    read = read_nights(nights)
    shown_id = night_id if night_id is not None else (nights[0].pk if nights else None)
    history: list[ResultsNight] = []
    shown: ResultsNight | None = None
    partners: Counter[int] = Counter()
    partner_names: dict[int, str] = {}
    for night in nights:
        rows = read[night.pk]
        result = _night_of(rows, player.pk, money=night.pk == shown_id)
        if result is None:
            continue
        if night.pk == shown_id:
            shown = result
        if not result.games_closed:
            continue
        history.append(result)
        for line in result.card:
            if line.partner_id is not None:
                partners[line.partner_id] += 1
                partner_names.setdefault(line.partner_id, line.partner)  # the latest night's name for them
    games = sum(night.games for night in history)
    total = sum(night.total for night in history)
    name = (
        Entry.objects.filter(player=player, night_id=nights[0].pk).values_list("name", flat=True).first()
        if nights
        else None
    )
    return PlayerResults(
        player_id=player.pk,
        token=player.results_token,
        name=name or player.name,
        night=shown,
        history=history,
        nights=len(history),
        games=games,
        total=total,
        average=round(total / games, 2) if games else 0.0,
        prizes=[(night, prize) for night in history for prize in night.prizes],
        partners=sorted(
            ((partner_names[pid], count) for pid, count in partners.items()), key=lambda item: (-item[1], item[0])
        )[:10],
    )


@dataclass(frozen=True)
class Recipient:
    """A player of the night to e-mail their results link to: the address they gave at sign-up."""

    entry_id: int
    name: str
    address: str
    token: str


def _address(contact: str) -> str:
    """The e-mail address in a sign-up's "phone or email" ("" when it is a phone number or nothing)."""
    text = contact.strip()
    try:
        validate_email(text)
    except ValidationError:
        return ""
    return text


def mail_recipients(night_id: int, *, waiting: bool = True) -> list[Recipient]:
    """The night's players who gave an e-mail address at sign-up (house players and the waitlist apart); with
    `waiting`, only those not yet mailed (one query)."""
    entries = Entry.objects.filter(night_id=night_id, player__house=False, signup__isnull=False)
    if waiting:
        entries = entries.filter(results_mailed_at__isnull=True)
    found = []
    for entry_id, name, contact, token in entries.order_by("card").values_list(
        "pk", "name", "signup__contact", "player__results_token"
    ):
        if address := _address(contact):
            found.append(Recipient(entry_id, name, address, token))
    return found


@dataclass(frozen=True)
class MailState:
    """What the night page says of the results e-mail: how many players have an address, how many were mailed."""

    addresses: int
    mailed: int

    @property
    def waiting(self) -> int:
        return self.addresses - self.mailed


def mail_state(night_id: int) -> MailState:
    everyone = mail_recipients(night_id, waiting=False)
    mailed = set(Entry.objects.filter(night_id=night_id, results_mailed_at__isnull=False).values_list("pk", flat=True))
    return MailState(len(everyone), sum(1 for one in everyone if one.entry_id in mailed))


def night_for_mail(night_id: int) -> Night | None:
    """The finished night whose results are mailed (None: deleted, or not over)."""
    return Night.objects.filter(pk=night_id, status=Night.Status.FINISHED).first()


# ---- players left off public lists ---------------------------------------------------------------------------------

# What a public page shows in place of a player who asked to be left off public lists.
UNLISTED = "A player"


def unlisted_names(night: Night) -> frozenset[str]:
    """The names (as the night has them) of its players who asked to be left off public lists (one query)."""
    return frozenset(
        Entry.objects.filter(night=night, player__unlisted=True, player__house=False).values_list("name", flat=True)
    )


def _public(name: str, hidden: frozenset[str]) -> str:
    return UNLISTED if name in hidden else name


def public_standings(standings: NightStandings, hidden: frozenset[str]) -> NightStandings:
    """The standings as a public page shows them: each unlisted player's line and prize as "A player" (their
    place and points stay, so the ranks and prizes still add up for everyone else)."""
    if not hidden:
        return standings

    def row(line: StandingRow) -> StandingRow:
        return replace(line, name=_public(line.name, hidden))

    return replace(
        standings,
        rows=[row(line) for line in standings.rows],
        high=[row(line) for line in standings.high],
        low=[row(line) for line in standings.low],
        awards=[replace(award, names=[_public(name, hidden) for name in award.names]) for award in standings.awards],
    )


def public_finder(finder: list[SeatFinder], hidden: frozenset[str]) -> list[SeatFinder]:
    """The "find your name" list without the unlisted players' lines, and "A player" where one is a partner."""
    if not hidden:
        return finder
    return [replace(line, partner=_public(line.partner, hidden)) for line in finder if line.name not in hidden]


def public_round(view: RoundView | None, hidden: frozenset[str]) -> RoundView | None:
    """The tables one by one, each unlisted player's seat as "A player"."""
    if view is None or not hidden:
        return view
    tables = [
        replace(table, seats={seat: _public(name, hidden) for seat, name in table.seats.items()})
        for table in view.tables
    ]
    return replace(view, tables=tables)


def unlisted_players(player_ids: Iterable[int]) -> frozenset[int]:
    """Which of these players asked to be left off public lists (one query)."""
    return frozenset(Player.objects.filter(pk__in=list(player_ids), unlisted=True).values_list("pk", flat=True))


def public_season(standings: SeasonStandings, hidden: frozenset[int]) -> SeasonStandings:
    """A season's table as its public page shows it: each unlisted player as "A player" (their line kept)."""
    if not hidden:
        return standings
    rows = [replace(row, name=UNLISTED) if row.player_id in hidden else row for row in standings.rows]
    return replace(standings, rows=rows)
