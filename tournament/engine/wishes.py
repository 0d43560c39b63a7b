"""Partner wishes: who must never partner, who must always partner, and the two-group rule. Pure Python, no Django.

A night's wishes are data (`Wishes`): pairs of players who must never be partners, pairs who must always be
(a couples' night), and a two-group rule, where every partnership should be one player from each group ("ladies
draw from one pack, gentlemen from the other", Foster's Hoyle). Players with no group partner anyone.

The seating honours them wherever it has a choice; this module gives the seating what it needs to choose
(`Wishes.cost`, `pair_up`, `settle`) and judges a seated game afterwards (`audit`): every partnership that breaks
a wish is a `Breach`, and each breach says whether the movement's own rule forced it, or the seating could have
avoided it (the fairness report's ideal is none of those).

What each rule leaves free, as `audit` judges it, table by table:

* "draw" (the opening draw) and "chart" (a rotation chart built for the players): everything, so nothing is
  forced but the arithmetic: with more players of one group than of the other, some must partner their own.
* "split" (progressive, progressive-down, winners-stay): the four at a table may be paired any way that does not
  put last game's partners together again.
* "keep" (fixed partners): partnerships that carried on from last game are the movement's own.
* "seats" (seat rotation): each seat moves by a fixed rule, whatever the wishes: every breach is forced.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .types import Table

Pair = tuple[int, int]
RULES = ("draw", "chart", "split", "keep", "seats")
# What a wish broken costs a seating beside one more repeated partnership: always far more.
WISH_WEIGHT = 1000


class WishError(ValueError):
    """Wishes that contradict each other; the message is shown to the organizer."""


@dataclass(frozen=True)
class Wishes:
    never: frozenset[frozenset[int]] = frozenset()
    always: frozenset[frozenset[int]] = frozenset()
    groups: Mapping[int, str] = field(default_factory=dict)  # player -> group, for the two-group rule

    def __post_init__(self) -> None:
        mate: dict[int, int] = {}
        for pair in self.always:
            a, b = sorted(pair)
            for player in (a, b):
                if player in mate:
                    raise WishError(f"Player {player} is in two always-partner pairs.")
            mate[a], mate[b] = b, a
            if pair in self.never:
                raise WishError(f"Players {a} and {b} are asked both to partner and never to partner.")
        object.__setattr__(self, "_mate", mate)

    def __bool__(self) -> bool:
        return bool(self.never or self.always or self.groups)

    def mate(self, player: int) -> int | None:
        """The player `player` must always partner, if any."""
        return self._mate.get(player)  # type: ignore[attr-defined]

    def cost(self, a: int, b: int) -> int:
        """How many wishes partnering `a` with `b` breaks (0: none)."""
        group = self.groups.get(a)
        broken = [frozenset((a, b)) in self.never, group is not None and group == self.groups.get(b)]
        for player, other in ((a, b), (b, a)):
            mate = self.mate(player)
            broken.append(mate is not None and mate != other)
        return sum(broken)


@dataclass(frozen=True)
class Breach:
    """One wish broken in one game: at `table` (None when the two were not at one table)."""

    game: int
    table: int | None
    kind: str  # "never", "always" or "groups"
    players: Pair
    forced: bool
    reason: str

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "table": self.table,
            "kind": self.kind,
            "players": list(self.players),
            "forced": self.forced,
            "reason": self.reason,
        }


def parse_groups(text: str) -> tuple[str, str] | None:
    """The two groups of a two-group rule as the organizer writes them ("lady, man", "red / black"), or None
    for an empty rule."""
    words = [word.strip() for word in re.split(r",|/|&|\band\b", text or "") if word.strip()]
    if not words:
        return None
    if len(words) != 2 or words[0].casefold() == words[1].casefold():
        raise WishError("Name two different groups, e.g. “lady, man”.")
    return words[0], words[1]


def _key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


# --- choosing: partnerships for players with none, and the pairing at a table ---------------------------------------


def pair_up(
    players: Iterable[int],
    wishes: Wishes,
    rng: random.Random,
    partnered: Mapping[frozenset[int], int] | None = None,
) -> tuple[list[Pair], int | None]:
    """Partnerships for `players` breaking as few wishes as possible (then repeating as few old partnerships).

    Returns the pairs and the odd one out (None when the count is even). Always-partner pairs go first; then one
    of each group while both groups last, then anyone; then swaps between two pairs while they help.
    """
    partnered = partnered or {}
    free = sorted(players)
    rng.shuffle(free)
    here = set(free)
    pairs: list[Pair] = []
    for player in list(free):
        mate = wishes.mate(player)
        if mate is not None and mate in here and player < mate:
            pairs.append((player, mate))
    taken = {p for pair in pairs for p in pair}
    free = [p for p in free if p not in taken]

    def cost(a: int, b: int) -> int:
        return WISH_WEIGHT * wishes.cost(a, b) + partnered.get(_key(a, b), 0)

    # Those with a group first (the scarcer group is the one to use well), then the rest.
    free.sort(key=lambda p: p not in wishes.groups)
    while len(free) >= 2:
        a = free.pop(0)
        best, least = 0, -1
        for k, b in enumerate(free):
            price = cost(a, b)
            if least < 0 or price < least:
                best, least = k, price
                if not price:
                    break  # nothing is cheaper than nothing
        pairs.append((a, free.pop(best)))
    odd = free[0] if free else None
    _repair(pairs, cost, rng)
    return pairs, odd


def _repair(pairs: list[Pair], cost, rng: random.Random) -> None:
    """Swap partners between two pairs while that lowers the cost: costly pairs only, so a big room stays quick."""
    for _ in range(20):
        bad = [k for k, (a, b) in enumerate(pairs) if cost(a, b) >= WISH_WEIGHT]
        if not bad:
            return
        improved = False
        for k in bad:
            a, b = pairs[k]
            others = list(range(len(pairs)))
            rng.shuffle(others)
            for j in others:
                if j == k:
                    continue
                c, d = pairs[j]
                now = cost(a, b) + cost(c, d)
                if cost(a, c) + cost(b, d) < now:
                    pairs[k], pairs[j] = (a, c), (b, d)
                elif cost(a, d) + cost(b, c) < now:
                    pairs[k], pairs[j] = (a, d), (b, c)
                else:
                    continue
                improved = True
                a, b = pairs[k]
                if cost(a, b) < WISH_WEIGHT:
                    break
        if not improved:
            return


def pairings(players: Sequence[int]) -> list[tuple[Pair, Pair]]:
    """The three ways four players make two partnerships."""
    a, b, c, d = players
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def allowed_pairings(four: Sequence[int], rule: str, last: Collection[frozenset[int]]) -> list[tuple[Pair, Pair]]:
    """The pairings of a table's four players the rule leaves the seating free to choose."""
    options = pairings(four)
    if rule == "split":
        return [o for o in options if not any(_key(*pair) in last for pair in o)]
    if rule == "keep":
        kept = [pair for pair in last if pair <= set(four)]
        return [o for o in options if all(any(_key(*pair) == k for pair in o) for k in kept)]
    if rule == "seats":
        return []
    return options


def settle(
    tables: Sequence[Table],
    wishes: Wishes,
    last: Collection[frozenset[int]],
    partnered: Mapping[frozenset[int], int] | None = None,
) -> list[Table]:
    """Re-pair the four at each table that breaks a wish, where a split movement leaves the choice.

    `last` are the partnerships of the game before (never paired again here). Of the pairings that break the fewest
    wishes (then repeat the fewest old partnerships) the one moving the fewest players keeps the table; the
    movement's own seating wins a tie.
    """
    partnered = partnered or {}
    result = []
    for table in tables:
        if table.three:
            result.append(table)
            continue
        four = table.players
        now = (table.pair("NS"), table.pair("EW"))

        def score(option: tuple[Pair, Pair]) -> tuple[int, int]:
            return (
                sum(wishes.cost(*pair) for pair in option),
                sum(partnered.get(_key(*pair), 0) for pair in option),
            )

        if not score(now)[0]:
            result.append(table)
            continue
        options = [o for o in allowed_pairings(four, "split", last) if score(o) < score(now)]
        if not options:
            result.append(table)
            continue
        best = min(score(o) for o in options)
        result.append(_fewest_moves(table, [o for o in options if score(o) == best]))
    return result


def _fewest_moves(table: Table, options: list[tuple[Pair, Pair]]) -> Table:
    """Seat one of the pairings at the table so that as few players as possible change seats."""
    seat_of = {player: seat for seat, player in table.seats.items()}
    best: Table | None = None
    best_moves = 5
    for first, second in options:
        for ns, ew in ((first, second), (second, first)):
            for n, s in (ns, ns[::-1]):
                for e, w in (ew, ew[::-1]):
                    seats = {"N": n, "E": e, "S": s, "W": w}
                    moves = sum(seat_of[player] != seat for seat, player in seats.items())
                    if moves < best_moves:
                        best, best_moves = Table.from_seats(table.number, seats), moves
    assert best is not None
    return best


# --- byes: a couple sits out together or plays together -----------------------------------------------------------

Due = tuple[bool, int]  # (sat out the last game, byes so far): the smaller, the sooner a player sits out


def bye_due(players: Iterable[int], bye_counts: Mapping[int, int], sat_out_last: Collection[int]) -> dict[int, Due]:
    """How due each of `players` is for a bye: those who did not sit out the last game first, then the fewest byes so
    far (a player with no count yet, a late arrival, counts as the fewest of those here)."""
    players = list(players)
    floor = min((bye_counts[p] for p in players if p in bye_counts), default=0)
    return {p: (p in sat_out_last, bye_counts.get(p, floor)) for p in players}


def couples_split(byes: Collection[int], present: Collection[int], wishes: Wishes) -> list[Pair]:
    """The always-partner pairs, both here, of whom exactly one sits out."""
    out, here = set(byes), set(present)
    found = []
    for pair in wishes.always:
        a, b = sorted(pair)
        if a in here and b in here and (a in out) != (b in out):
            found.append((a, b))
    return sorted(found)


def byes_keeping_couples(
    candidates: Sequence[int], due: Mapping[int, Due], count: int, wishes: Wishes, present: Collection[int]
) -> list[int]:
    """`count` of `candidates` to sit out, as fair as the byes' order demands and splitting as few couples as it can.

    `candidates` are in the order of the night's draw; `due` says how due each is (`bye_due`). Fairness wins: every
    candidate less due than the last one needed plays, every one more due sits out, exactly as without couples; only
    among the equally due (the *tier*) is the choice free, and there a couple goes out whole or not at all. In the
    tier, in this order: the partner of someone already sitting out (keeps that couple), then the draw's order of
    players on their own and whole couples, so long as the count can still be made up; a couple is split only when the
    count cannot be made up otherwise (an odd number wanted from a tier of couples, or too few in it), and then the
    fewest. `present` are everyone here (a partner among them who cannot sit out, a house player, plays).
    """
    ordered = sorted(candidates, key=lambda p: due[p])  # a stable sort: the draw's order within a tier
    if count <= 0:
        return []
    if count >= len(ordered):
        return ordered
    edge = due[ordered[count - 1]]
    chosen = [p for p in ordered if due[p] < edge]
    tier = [p for p in ordered if due[p] == edge]
    need = count - len(chosen)
    here, out, in_tier = set(present), set(chosen), set(tier)
    mates_out: list[int] = []  # their partner sits out already: choosing them keeps the couple
    items: list[tuple[int, ...]] = []  # players on their own and whole couples, in the draw's order
    costly: list[int] = []  # their partner plays whatever happens: choosing them splits the couple
    paired: set[int] = set()
    for player in tier:
        mate = wishes.mate(player)
        if mate is None or mate not in here:
            items.append((player,))
        elif mate in out:
            mates_out.append(player)
        elif mate in in_tier:
            if player not in paired:  # the couple goes where the first of the two was drawn
                items.append((player, mate))
                paired.update((player, mate))
        else:
            costly.append(player)
    taken = mates_out[:need]
    chosen += taken
    need -= len(taken)
    ones = sum(len(item) == 1 for item in items)
    twos = len(items) - ones

    def feasible(need: int, ones: int, twos: int) -> bool:
        least = max(0, need - 2 * twos)  # players on their own needed at least
        least += (need - least) % 2
        return least <= min(ones, need)

    if need > ones + 2 * twos:  # the whole tier is not enough without splitting: the fewest splits
        chosen += [p for item in items for p in item]
        chosen += costly[: need - ones - 2 * twos]
        return chosen
    if not feasible(need, ones, twos):  # an odd count from couples alone: one couple must split
        if costly:
            chosen.append(costly[0])
        else:
            first = next(item for item in items if len(item) == 2)
            chosen.append(first[0])
            items.remove(first)
            twos -= 1
        need -= 1
    for item in items:
        size = len(item)
        ones, twos = ones - (size == 1), twos - (size == 2)
        if size <= need and feasible(need - size, ones, twos):
            chosen += item
            need -= size
        if not need:
            break
    return chosen


def least_split(
    present: Collection[int],
    count: int,
    wishes: Wishes,
    bye_counts: Mapping[int, int] | None = None,
    sat_out_last: Collection[int] = (),
) -> int:
    """The fewest couples any fair choice of `count` byes among `present` splits (`byes_keeping_couples`)."""
    players = sorted(present)
    due = bye_due(players, bye_counts or {}, sat_out_last)
    return len(couples_split(byes_keeping_couples(players, due, count, wishes, players), players, wishes))


# --- judging a seated game -------------------------------------------------------------------------------------


def partnerships(tables: Iterable[Table]) -> list[tuple[int, Pair]]:
    """(table number, pair) for every partnership at the tables."""
    return [(t.number, pair) for t in tables if not t.three for pair in (t.pair("NS"), t.pair("EW"))]


def group_counts(players: Iterable[int], wishes: Wishes) -> Counter[str | None]:
    """How many of `players` are in each group (None: in neither)."""
    return Counter(wishes.groups.get(player) for player in players)


def least_from_counts(counts: Mapping[str | None, int]) -> int:
    """The fewest own-group partnerships players in these numbers (see `group_counts`) can have."""
    sizes = sorted((n for group, n in counts.items() if group is not None), reverse=True)
    if not sizes:
        return 0
    others = sum(sizes[1:]) + counts.get(None, 0)
    return max(0, -(-(sizes[0] - others) // 2))


def least_same_group(players: Iterable[int], wishes: Wishes) -> int:
    """The fewest own-group partnerships any seating of `players` can have under the two-group rule."""
    return least_from_counts(group_counts(players, wishes))


def audit(
    game: int,
    tables: Sequence[Table],
    wishes: Wishes,
    *,
    rule: str,
    byes: Collection[int] = (),
    last: Collection[frozenset[int]] = (),
    bye_counts: Mapping[int, int] | None = None,
    sat_out_last: Collection[int] = (),
) -> list[Breach]:
    """Every wish the game's seating breaks, each judged forced or not by what `rule` leaves free (see above).

    `last` are the partnerships of the game before (for "split" and "keep"); `bye_counts` and `sat_out_last` the
    byes before this game, as the seating had them (none: the opening draw's), to judge a couple one of whom sits
    out: forced when every choice of byes the byes' fairness allows splits as many couples (`least_split`).
    """
    if rule not in RULES:
        raise ValueError(f"Unknown rule {rule!r}.")
    if not wishes:
        return []
    seated = {p: t.number for t in tables for p in t.players}
    by_table = {t.number: t for t in tables}
    breaches: list[Breach] = []
    group_allowance = least_same_group(seated, wishes) if rule in ("draw", "chart") else 0

    def forced_at(number: int) -> tuple[bool, str]:
        if rule == "seats":
            return True, "seat rotation moves each seat by its rule, whatever the wishes"
        if rule in ("draw", "chart"):
            return False, "the seating could have paired them otherwise"
        table = by_table[number]
        now = (table.pair("NS"), table.pair("EW"))
        here = sum(wishes.cost(*pair) for pair in now)
        options = allowed_pairings(table.players, rule, last)
        if rule == "keep" and all(_key(*pair) in last for pair in now):
            return True, "fixed partners stay together all night"
        if all(sum(wishes.cost(*pair) for pair in option) >= here for option in options):
            return True, f"every pairing the movement allows at table {number} breaks a wish"
        return False, f"another pairing at table {number} breaks fewer wishes"

    for number, (a, b) in partnerships(tables):
        pair = (min(a, b), max(a, b))
        if _key(a, b) in wishes.never:
            forced, reason = forced_at(number)
            breaches.append(Breach(game, number, "never", pair, forced, reason))
        group = wishes.groups.get(a)
        if group is not None and group == wishes.groups.get(b):
            if group_allowance:
                group_allowance -= 1
                forced, reason = True, "the groups here are not the same size: someone must partner their own"
            else:
                forced, reason = forced_at(number)
            breaches.append(Breach(game, number, "groups", pair, forced, reason))
    partner_of = {p: q for _, (a, b) in partnerships(tables) for p, q in ((a, b), (b, a))}
    out = set(byes)
    split_by_byes = couples_split(out, [*seated, *out], wishes)
    if rule in ("keep", "chart"):
        bye_forced = (
            True,
            ("fixed partners sit out as pairs" if rule == "keep" else "the chart says who sits out each game"),
        )
    elif split_by_byes and len(split_by_byes) <= least_split(
        [*seated, *out], len(out), wishes, bye_counts, sat_out_last
    ):
        bye_forced = True, "one of them sits out: the byes go to the most due (fewest byes, not out last game)"
    else:
        bye_forced = False, "one of them sits out: byes just as fair could have kept them together"
    for a, b in sorted(tuple(sorted(pair)) for pair in wishes.always):
        mates = (a, b)
        present = [p for p in mates if p in seated or p in out]
        if len(present) < 2 or partner_of.get(a) == b or (a in out and b in out):
            continue
        if a in out or b in out:
            forced, reason = bye_forced
            table = seated.get(a, seated.get(b))
        elif seated[a] != seated[b]:
            table = None
            if rule in ("split", "seats"):
                forced, reason = True, "the movement sends every partnership to different places"
            elif rule == "chart":
                forced, reason = True, "a rotation chart partners two players at most once"
            else:
                forced, reason = False, "the seating could have paired them"
        elif by_table[seated[a]].three:
            table = seated[a]
            forced, reason = True, "a table of three has no partnerships: each hand's caller plays alone"
        else:
            table = seated[a]
            forced, reason = forced_at(table) if rule != "chart" else (True, "a rotation chart partners two once")
        breaches.append(Breach(game, table, "always", mates, forced, reason))
    return breaches


def last_partnerships(tables: Iterable[Table]) -> set[frozenset[int]]:
    return {_key(*pair) for _, pair in partnerships(tables)}
