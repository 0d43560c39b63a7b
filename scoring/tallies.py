"""A night's tallies: what each closed game and each bye adds to each player's tally. Pure Python, no Django.

The one place a game's points and a personal bonus become a player's tally line, and a bye's worth is worked out;
the tally cards, the standings, a player's season and the phones all read these lines. The night's games come from
the database (`tournament.selectors.standings.read_nights` reads them in bulk); here they are plain mappings.

Every line has one shape, `TallyLine`: `standings.add_up` reads it as it is, and the cards put names to it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from . import rules
from .seats import PARTNER_SEAT, SIDE_SEATS, THREE_SEATS, other_side, side_of
from .standings import Meeting, PlayerTotals, add_up
from .three import best_other

Place = tuple[int, int]  # (game, table)


class Games(Protocol):
    """A night's closed games as the tallies read them (`tournament.selectors.standings.NightRows` is one)."""

    @property
    def players(self) -> Collection[int]:
        """The players with a tally (a house player has none; a substitute on the "card" rule plays on another's)."""
        ...

    @property
    def seats(self) -> Mapping[Place, Mapping[str, int]]:
        """Each closed game's tables: seat -> the player whose tally it goes on."""
        ...

    @property
    def results(self) -> Mapping[Place, tuple[int, int, str]]:
        """Each table's result: N–S points, E–W points, the winner (a side, or at a table of three a seat)."""
        ...

    @property
    def threes(self) -> Mapping[Place, Mapping[str, int]]:
        """A table of three's result: each seat's own points."""
        ...

    @property
    def extras(self) -> Mapping[Place, Mapping[str, rules.Extras]]:
        """Each table's extras by seat (loners, euchres, marches, personal bonus); a table with none is left out."""
        ...

    @property
    def byes(self) -> Sequence[tuple[int, int]]:
        """(player, game) for each closed game a player with a tally sat out, in the order they were stored."""
        ...


@dataclass(frozen=True)
class ByeRule:
    """What a bye adds to a tally: nothing, a fixed number of points, the player's own average per tally line so
    far, or the average tally of that game's players (rounded half up)."""

    credit: str = "none"  # "none", "fixed", "own_average" or "round_average" (the night's `bye_credit`)
    points: int = 0  # the fixed credit

    def worth(self, own_total: int, own_count: int, game_total: int, game_count: int) -> int:
        """A bye's credit from the player's tally lines before it (`own_*`) and the tallies of that game
        (`game_*`): their totals and how many lines they are."""
        if self.credit == "fixed":
            return self.points
        if self.credit == "own_average":
            return half_up(own_total / own_count) if own_count else 0
        if self.credit == "round_average":
            return half_up(game_total / game_count) if game_count else 0
        return 0


def half_up(value: float) -> int:
    """To the nearest whole point, a half up (2.5 is 3, -2.5 is -2)."""
    return math.floor(value + 0.5)


class TallyLine(NamedTuple):
    """One line of a player's tally: what one closed game (or a bye: table 0) adds to it, and where they sat and
    with whom (by player). The loners, euchres and marches are `add_up`'s (`standings.Tally`)."""

    player: int
    round: int
    points: int  # the tally: the score at the table (a table of three: the player's own) and any bonus
    conceded: int  # the other side's score; at a table of three the better of the other two's
    won: bool
    table: int = 0
    seat: str = ""
    partner: int | None = None  # None at a table of three, and for a bye
    opponents: tuple[int, ...] = ()
    team_points: int = 0  # the score at the table without the personal bonus, or the bye's credit
    extras: rules.Extras = rules.NO_EXTRAS
    bye: bool = False
    three: bool = False  # played at a table of three: three-handed, no partner

    @property
    def loners_made(self) -> int:
        return self.extras.loners_made

    @property
    def loners_tried(self) -> int:
        return self.extras.loners_tried

    @property
    def euchres(self) -> int:
        return self.extras.euchres

    @property
    def marches(self) -> int:
        return self.extras.marches


# seat -> the partner's seat and the opponents' seats, at a table of four and at a table of three
_FOUR = {seat: (PARTNER_SEAT[seat], SIDE_SEATS[other_side(side_of(seat))]) for seat in PARTNER_SEAT}
_THREE: dict[str, tuple[str, ...]] = {
    seat: tuple(other for other in THREE_SEATS if other != seat) for seat in THREE_SEATS
}
_NORTH_SOUTH = frozenset(SIDE_SEATS["NS"])


def tally_lines(games: Games, bye_rule: ByeRule) -> Iterator[TallyLine]:
    """Every tally line of the night's closed games and byes, in the order their worth is worked out: each seat of
    each closed game held by a player with a tally, then each bye.

    The one place a game's points and a personal bonus become a player's tally line. A bye's credit comes from the
    player's lines before it (a bye's credit joining them in turn) and from that game's tallies: the one place a
    bye's worth is worked out, for the cards and the totals alike.
    """
    players = games.players
    results = games.results
    all_extras = games.extras
    threes = games.threes
    no_extras = rules.NO_EXTRAS
    points_of: dict[int, list[int]] = {player: [] for player in players}
    by_round: dict[int, list[int]] = {}
    for place, seats in games.seats.items():
        result = results.get(place)
        if result is None:
            continue
        ns, ew, winner = result
        number, table = place
        extras = all_extras.get(place)
        three = threes.get(place)
        in_round = by_round.setdefault(number, [])
        for seat, player in seats.items():
            if player not in players:
                continue
            if three is not None:  # each player's own points; "conceded": the better of the other two's
                points, conceded, won = three.get(seat, 0), best_other(three, seat), winner == seat
                partner, opponents = None, tuple([seats[s] for s in _THREE[seat] if s in seats])
            else:
                if seat in _NORTH_SOUTH:
                    points, conceded, won = ns, ew, winner == "NS"
                else:
                    points, conceded, won = ew, ns, winner == "EW"
                partner_seat, opponent_seats = _FOUR[seat]
                partner, opponents = seats.get(partner_seat), tuple([seats[s] for s in opponent_seats if s in seats])
            earned = extras.get(seat, no_extras) if extras else no_extras
            tally = points + earned.bonus
            points_of[player].append(tally)
            in_round.append(tally)
            yield TallyLine(
                player,
                number,
                tally,
                conceded,
                won,
                table,
                seat,
                partner,
                opponents,
                points,
                earned,
                False,
                three is not None,
            )
    for player, number in games.byes:
        own = points_of[player]
        game = by_round.get(number, ())
        credit = bye_rule.worth(sum(own), len(own), sum(game), len(game))
        own.append(credit)
        yield TallyLine(player, number, credit, 0, False, team_points=credit, bye=True)


def lines_by_player(games: Games, bye_rule: ByeRule) -> dict[int, list[TallyLine]]:
    """Every player's tally lines, in game order (a player with a tally and no line yet has none): the cards."""
    played: dict[int, list[TallyLine]] = {player: [] for player in games.players}
    for line in tally_lines(games, bye_rule):
        played[line.player].append(line)
    for player_lines in played.values():
        player_lines.sort(key=lambda line: (line.round, line.table))
    return played


def night_totals(games: Games, bye_rule: ByeRule, numbers: Mapping[int, int] | None = None) -> dict[int, PlayerTotals]:
    """Every player's night totals: `standings.add_up` of their tally lines, the one tally arithmetic there is.

    Players with a tally but no game or bye yet are there with zeros. `numbers`: each tally's number.
    """
    return add_up(tally_lines(games, bye_rule), sorted(games.players), numbers)


def meetings(games: Games) -> list[Meeting]:
    """Each closed game's two sides (players with a tally), for head-to-head; a table of three has no sides."""
    found = []
    for place, seats in games.seats.items():
        result = games.results.get(place)
        if result is None or place in games.threes:
            continue
        ns, ew, winner = result
        sides = tuple(
            tuple(p for s in SIDE_SEATS[side] if (p := seats.get(s)) in games.players) for side in ("NS", "EW")
        )
        found.append(Meeting(sides, (ns, ew), 0 if winner == "NS" else 1))  # type: ignore[arg-type]
    return found
