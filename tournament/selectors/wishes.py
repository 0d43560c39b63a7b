"""Readers for a night's partner wishes: the lists as the organizer wrote them, and every game's breaches judged
by `tournament.engine.wishes.audit` (forced by the movement's rule, or not)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import names as name_order

from ..engine import wishes as engine
from ..engine.movements import WISH_RULES
from ..engine.types import Table
from ..engine.wishes import Breach, Wishes, parse_groups
from ..models import Bye, Entry, Night, PartnerWish, Seating


def rule_for(night: Night, game: int) -> str:
    """What the seating of game `game` was free to choose (`engine.audit`'s rule)."""
    if night.movement == Night.Movement.ROTATION:
        return "chart"
    return "draw" if game == 1 else WISH_RULES[night.movement]


def breaches(night: Night, wishes: Wishes | None = None) -> list[Breach]:
    """Every wish broken in every game seated so far, in game order (two queries and the wishes')."""
    wishes = night.wishes() if wishes is None else wishes
    if not wishes:
        return []
    seats: dict[int, dict[int, dict[str, int]]] = {}
    for number, table, seat, player in Seating.objects.filter(round__night=night).values_list(
        "round__number", "table", "seat", "player_id"
    ):
        seats.setdefault(number, {}).setdefault(table, {})[seat] = player
    byes: dict[int, list[int]] = {}
    for number, player in Bye.objects.filter(round__night=night).values_list("round__number", "player_id"):
        byes.setdefault(number, []).append(player)
    offsets = dict(Entry.objects.filter(night=night, bye_offset__gt=0).values_list("player_id", "bye_offset"))
    found: list[Breach] = []
    last: set[frozenset[int]] = set()
    # The byes before each game as the seating counted them: everyone seen so far (a late arrival with the byes
    # credited on arrival), and who sat out the game before.
    counts: dict[int, int] = {}
    out_last: set[int] = set()
    for number in sorted(seats):
        tables = [Table.from_seats(t, by_seat) for t, by_seat in sorted(seats[number].items()) if len(by_seat) == 4]
        out = byes.get(number, [])
        found += engine.audit(
            number,
            tables,
            wishes,
            rule=rule_for(night, number),
            byes=out,
            last=last,
            bye_counts={p: count + offsets.get(p, 0) for p, count in counts.items()},
            sat_out_last=out_last,
        )
        last = engine.last_partnerships(tables)
        for by_seat in seats[number].values():
            for player in by_seat.values():
                counts.setdefault(player, 0)
        for player in out:
            counts[player] = counts.get(player, 0) + 1
        out_last = set(out)
    return found


@dataclass(frozen=True)
class BreachLine:
    game: int
    table: int | None
    kind: str
    names: tuple[str, str]
    forced: bool
    reason: str

    @property
    def words(self) -> str:
        a, b = self.names
        return {
            "never": f"{a} and {b} partnered (asked never to)",
            "always": f"{a} and {b} did not partner (asked always to)",
            "groups": f"{a} and {b} partnered, both of one group",
        }[self.kind]


@dataclass(frozen=True)
class WishReport:
    """The night's wishes for its page, and how the seating kept them."""

    never: tuple[tuple[str, str], ...]
    always: tuple[tuple[str, str], ...]
    groups: tuple[str, str] | None
    group_counts: tuple[tuple[str, int], ...]  # each group and how many players here are in it
    no_group: int  # players here in neither group (they partner anyone)
    breaches: tuple[BreachLine, ...]

    @property
    def any(self) -> bool:
        return bool(self.never or self.always or self.groups)

    @property
    def avoidable(self) -> int:
        """Breaches the seating could have avoided (the ideal is none)."""
        return sum(not line.forced for line in self.breaches)

    @property
    def forced(self) -> int:
        return sum(line.forced for line in self.breaches)

    def text(self, kind: str) -> str:
        """A list as the form shows it, one pair a line."""
        return "\n".join(f"{a} & {b}" for a, b in getattr(self, kind))


def night_wishes(night: Night) -> WishReport:
    """The wishes with names, the groups' sizes among the players here, and every breach so far."""
    names = dict(Entry.objects.filter(night=night).values_list("player_id", "name"))
    lists: dict[str, list[tuple[str, str]]] = {kind: [] for kind in PartnerWish.Kind.values}
    for kind, first, second in PartnerWish.objects.filter(night=night).values_list("kind", "first_id", "second_id"):
        pair = sorted((names.get(first, "?"), names.get(second, "?")), key=name_order.sort_key)
        lists[kind].append((pair[0], pair[1]))
    wishes = night.wishes()
    try:
        groups = parse_groups(night.partner_groups)
    except ValueError:
        groups = None
    here = set(
        Entry.objects.filter(night=night, active=True, checked_in=True, player__house=False).values_list(
            "player_id", flat=True
        )
    )
    counts = tuple((group, sum(wishes.groups.get(p) == group for p in here)) for group in groups or ())
    lines = tuple(
        BreachLine(
            b.game, b.table, b.kind, (names.get(b.players[0], "?"), names.get(b.players[1], "?")), b.forced, b.reason
        )
        for b in breaches(night, wishes)
    )
    return WishReport(
        never=tuple(sorted(lists[PartnerWish.Kind.NEVER], key=lambda p: name_order.sort_key(p[0]))),
        always=tuple(sorted(lists[PartnerWish.Kind.ALWAYS], key=lambda p: name_order.sort_key(p[0]))),
        groups=groups,
        group_counts=counts,
        no_group=len(here) - sum(count for _, count in counts) if groups else 0,
        breaches=lines,
    )
