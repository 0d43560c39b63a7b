"""Rotation nights: the whole seating fixed in advance from the head count and the number of games. Pure Python.

Players are chart numbers 1..players. Every game, `players % 4` of them sit out and the rest play at tables of
four; nothing depends on the results, so the chart can be printed before the first deal. On a night with tables of
three (`threes`) nobody sits out: each game one to three tables of three at the tail (`roster.table_sizes`) seat
the players whose turn it is, and the rest partner at tables of four.

* Perfect charts. When the head count is 4n or 4n+1 (up to 64) the full night is a whist tournament: every two
  players are partners exactly once and opponents exactly twice; with 4n+1 players each sits out exactly once.
  They are developed from the base rounds in `whist_data` (found by `whist_search`). A shorter night plays the
  first games of the full chart.
* Stored full nights with byes. For 4n+2 and 4n+3 players from 7 to 30 the full night (as many games as players)
  is read from `rotation_data` (found by `rotation_search`, run by hand): mostly a base round developed over Z_v,
  so that every two players are opponents once or twice (the bound four-handed tables allow), byes within one after
  every game, nobody partnering twice, and table visits, trios and stays as low as the search found. A shorter night,
  or one with partner wishes or tables of three, is built as below.
* Every other chart. The partnerships come from a one-factorization (the round-robin "circle"), so nobody
  partners anyone twice, and the sit-outs are built into it so that byes differ by at most one and nobody sits out
  twice running. Each game the partnerships are then paired into tables by a greedy build and a local search that
  keeps down how often two players meet (partners or opponents), and the tables are numbered so that every player
  visits the tables as evenly as possible.
* Charts with tables of three, built a game at a time. The turns at a table of three go to those with the fewest
  so far, then to those not at one last game (so they differ by at most one, and nobody has two running unless
  more than half the room is three-handed each game); then the game's tables are searched as a whole by swaps
  that keep down partner repeats and how often two players meet (`_Game`). A three-handed table has no partners,
  so these charts are never a whist tournament's.

Everything is deterministic for a given seed: `random.Random(seed)` is the only source of chance.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from .roster import table_sizes
from .rotation_data import NIGHTS, Night
from .types import Seat, SeatingError, Table
from .whist_data import SEATING, WHIST
from .wishes import Wishes

MIN_PLAYERS = 4
MAX_PLAYERS = 400

Pair = tuple[int, int]


@dataclass(frozen=True)
class ChartRound:
    """One game of the chart: the tables (numbered 1..T, tables of three after the fours) and who sits out."""

    number: int
    tables: tuple[Table, ...]
    sit_out: tuple[int, ...]


@dataclass(frozen=True)
class Chart:
    """A rotation night's seating for every game. `perfect`: the games are (the start of) a whist tournament.
    `threes`: built for a night with tables of three (it has some unless the head count makes only fours)."""

    players: int
    games: int
    seed: int
    perfect: bool
    rounds: tuple[ChartRound, ...]
    threes: bool = False

    @property
    def has_threes(self) -> bool:
        """Some game of the chart has a table of three (a chart built with `threes` has none when the head count
        makes only fours)."""
        return any(table.three for game in self.rounds for table in game.tables)


@dataclass(frozen=True)
class FairnessFigure:
    """One line of the fairness table: the chart's figure beside the best any chart could do (lower is better)."""

    key: str
    label: str
    value: int
    ideal: int

    @property
    def ok(self) -> bool:
        return self.value <= self.ideal


@dataclass(frozen=True)
class ChartFairness:
    """Figures for the whole chart, each with its ideal. `rows` lists them for a page."""

    players: int
    games: int
    byes_min: int
    byes_max: int
    rows: tuple[FairnessFigure, ...]

    def __getitem__(self, key: str) -> FairnessFigure:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(key)

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)


@dataclass(frozen=True)
class PlanLine:
    """One game for one player, as printed on the tally card."""

    game: int
    table: int | None
    seat: Seat | None
    partner: int | None  # None at a table of three (everyone for themselves) and on a sit-out
    opponents: tuple[int, int] | None  # at a table of three: the other two
    sit_out: bool

    @property
    def three(self) -> bool:
        return not self.sit_out and self.partner is None


def full_night(players: int) -> int:
    """Games until everyone can have partnered everyone: players-1 for 4n players, otherwise players."""
    return players - 1 if players % 4 == 0 else players


def _check(players: int, games: int) -> None:
    if players < MIN_PLAYERS:
        raise SeatingError(f"A rotation chart needs at least {MIN_PLAYERS} players; there are {players}.")
    if players > MAX_PLAYERS:
        raise SeatingError(f"A rotation chart takes at most {MAX_PLAYERS} players; there are {players}.")
    if games < 1:
        raise SeatingError("A rotation chart needs at least one game.")
    if games > full_night(players):
        raise SeatingError(
            f"With {players} players a rotation chart has at most {full_night(players)} games "
            f"(everyone has then partnered everyone); {games} were asked for."
        )


# --- partnerships and sit-outs, on internal ids 0..players-1 ---------------------------------------------------

Schedule = list[tuple[tuple[int, ...], list[Pair]]]  # per game: who sits out, the partnerships


def _circle(players: int, games: int) -> Schedule:
    """4n players: the round-robin one-factorization over Z_(v-1) and a fixed point (id v-1). Nobody sits out."""
    m = players - 1
    return [((), [(m, i)] + [((i + k) % m, (i - k) % m) for k in range(1, (m + 1) // 2)]) for i in range(games)]


def _near_circle(players: int, games: int) -> Schedule:
    """4n+1 players: round i of the near-one-factorization of Z_v; player i sits out."""
    v = players
    return [((i,), [((i + k) % v, (i - k) % v) for k in range(1, (v + 1) // 2)]) for i in range(games)]


def _triples(players: int, games: int) -> Schedule:
    """4n+3 players: round j of the near-one-factorization sits out j with its partner pair j-1, j+1.

    The rounds go in an order that walks the sit-outs through 0, 1, 2, … in blocks of three (shifting by one
    after each full pass when 3 divides v), so byes differ by at most one at every point of the night and no
    block touches the one before it.
    """
    v = players
    if v % 3:
        centres = [(1 + 3 * t) % v for t in range(v)]
    else:
        third = v // 3
        centres = [1 + 3 * t for t in range(third)] + [2 + 3 * t for t in range(third)]
        centres += [3 * t % v for t in range(1, third + 1)]
    return [
        (((j - 1) % v, j, (j + 1) % v), [((j + k) % v, (j - k) % v) for k in range(2, (v + 1) // 2)])
        for j in centres[:games]
    ]


def _phantom_rounds(players: int) -> dict[int, tuple[Pair, list[Pair]]]:
    """4n+2 players: the near-one-factorization of Z_(v+1) with 0 a phantom; ids are x-1 for x in 1..v.

    Round i (1..v): i is unmatched and the phantom's partner 2i sits out with it: each player sits out twice.
    """
    n = players + 1
    rounds = {}
    for i in range(1, n):
        pairs = [((i + k) % n, (i - k) % n) for k in range(1, n // 2 + 1)]
        pairs = [(a - 1, b - 1) for a, b in pairs if a and b]
        rounds[i] = ((i - 1, 2 * i % n - 1), pairs)
    return rounds


def _phantom(players: int, games: int, rng: random.Random) -> Schedule | None:
    """4n+2 players from the phantom rounds, or None when no choice of `games` rounds gives byes within one.

    A sit-out pair is an edge {i, 2i}; those edges make cycles. Alternate edges of each cycle form a matching:
    those rounds give everyone at most one bye. Short nights take rounds from the matching, long nights leave
    out rounds of the matching (everyone then has one or two byes).
    """
    rounds = _phantom_rounds(players)
    n = players + 1
    seen: set[int] = set()
    matching: list[int] = []
    for start in range(1, n):
        if start in seen:
            continue
        cycle = []
        x = start
        while x not in seen:
            seen.add(x)
            cycle.append(x)
            x = 2 * x % n
        matching += cycle[0 : len(cycle) - len(cycle) % 2 : 2]
    if games <= len(matching):
        chosen = matching[:games]
    elif players - games <= len(matching):
        dropped = set(matching[: players - games])
        chosen = [i for i in range(1, n) if i not in dropped]
    else:
        return None
    return _order(
        [rounds[i] for i in chosen],
        rng,
    )


def _order(schedule: Schedule, rng: random.Random) -> Schedule:
    """Put the games in an order where nobody sits out twice running (a few random tries; the sit-outs are sparse)."""
    best = list(schedule)
    best_clashes = None
    for _ in range(200):
        rest = list(schedule)
        rng.shuffle(rest)
        order = [rest.pop()]
        while rest:
            last = set(order[-1][0])
            pick = next((k for k, r in enumerate(rest) if not last & set(r[0])), 0)
            order.append(rest.pop(pick))
        clashes = sum(bool(set(a[0]) & set(b[0])) for a, b in itertools.pairwise(order))
        if best_clashes is None or clashes < best_clashes:
            best, best_clashes = order, clashes
        if not clashes:
            break
    return best


def _rotating_sit_outs(players: int, games: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Sit-outs walking through a shuffled order in blocks: byes within one, never twice running (2r <= v)."""
    r = players % 4
    order = list(range(players))
    rng.shuffle(order)
    return [tuple(order[(g * r + j) % players] for j in range(r)) for g in range(games)]


def _level_groups(
    chosen: set[int], others: Sequence[int], due: Callable[[int], Hashable], group_of: Mapping[int, str]
) -> set[int]:
    """`chosen` (those sitting out, or at the tables of three) with one at a time swapped for an equally `due` player
    from `others` while that leaves the two groups of a two-group rule more level among everyone else."""
    everyone = Counter(group_of.values())

    def imbalance(taken: set[int]) -> int:
        sizes = [*sorted((everyone - Counter(group_of[x] for x in taken if x in group_of)).values(), reverse=True)]
        sizes += [0, 0]
        return abs(sizes[0] - sizes[1])

    for _ in range(len(chosen)):
        now = imbalance(chosen)
        swap = next(
            (
                (x, y)
                for x in sorted(chosen)
                for y in others
                if y not in chosen and due(y) == due(x) and imbalance((chosen - {x}) | {y}) < now
            ),
            None,
        )
        if swap is None:
            break
        chosen = (chosen - {swap[0]}) | {swap[1]}
    return chosen


def _levelled_sit_outs(
    players: int, games: int, rng: random.Random, group_of: Mapping[int, str]
) -> list[tuple[int, ...]]:
    """Sit-outs for a two-group night: each game the players with the fewest byes (not out last game where that can
    be), and among those equally due the ones that leave the two groups at the tables most level."""
    r = players % 4
    byes = [0] * players
    last: set[int] = set()
    draw = list(range(players))
    rng.shuffle(draw)
    rank: dict[int, float] = {x: k for k, x in enumerate(draw)}
    result = []

    def due(x: int) -> tuple[bool, int]:
        return (x in last, byes[x])

    for _ in range(games):
        order = sorted(range(players), key=lambda x: (*due(x), rank[x]))
        out = _level_groups(set(order[:r]), order[r:], due, group_of)
        for x in out:
            byes[x] += 1
        last.clear()
        last.update(out)
        for x in draw:  # a fresh tie order each game, so the same players are not always the first due
            rank[x] = rng.random()
        result.append(tuple(sorted(out)))
    return result


def _searched(
    players: int,
    games: int,
    rng: random.Random,
    apart: Collection[Pair] = (),
    group_of: Mapping[int, str] | None = None,
) -> Schedule:
    """Partnerships found game by game: a greedy matching avoiding old partners (and the `apart` pairs), then swaps
    to remove repeats. An `apart` pair left over is swapped away even at the cost of a repeated partnership: a
    partner wish outweighs a second game with the same partner."""
    hard = set(apart)
    partnered: set[Pair] = set(apart)
    schedule: Schedule = []
    sit_outs = (
        _levelled_sit_outs(players, games, rng, group_of) if group_of else _rotating_sit_outs(players, games, rng)
    )
    for out in sit_outs:
        active = [x for x in range(players) if x not in out]
        best: list[Pair] = []
        best_repeats = None
        for _ in range(20):
            rng.shuffle(active)
            pairs = _greedy_matching(active, partnered)
            repeats = _repair_matching(pairs, partnered, rng)
            if best_repeats is None or repeats < best_repeats:
                best, best_repeats = pairs, repeats
            if not repeats:
                break
        if best_repeats and hard:
            _keep_apart(best, hard, partnered, rng)
        partnered.update(_key(a, b) for a, b in best)
        schedule.append((out, best))
    return schedule


def _keep_apart(pairs: list[Pair], hard: set[Pair], partnered: set[Pair], rng: random.Random) -> None:
    """Swap partners between two pairs to take apart a pair that must not partner, a repeat allowed if need be
    (one that is not a repeat preferred)."""
    for k in [k for k, (a, b) in enumerate(pairs) if _key(a, b) in hard]:
        a, b = pairs[k]
        best = None
        for j in rng.sample(range(len(pairs)), len(pairs)):
            if j == k:
                continue
            c, d = pairs[j]
            for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
                if _key(*first) in hard or _key(*second) in hard:
                    continue
                repeats = (_key(*first) in partnered) + (_key(*second) in partnered)
                if best is None or repeats < best[0]:
                    best = (repeats, j, first, second)
            if best is not None and best[0] == 0:
                break
        if best is not None:
            _, j, pairs[k], pairs[j] = best


def _key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def _greedy_matching(active: list[int], partnered: set[Pair]) -> list[Pair]:
    free = list(active)
    pairs = []
    while free:
        a = free.pop()
        pick = next((k for k in range(len(free) - 1, -1, -1) if _key(a, free[k]) not in partnered), len(free) - 1)
        pairs.append((a, free.pop(pick)))
    return pairs


def _repair_matching(pairs: list[Pair], partnered: set[Pair], rng: random.Random) -> int:
    """Swap partners between two pairs while that removes repeated partnerships; returns the repeats left."""
    for _ in range(50):
        bad = [k for k, (a, b) in enumerate(pairs) if _key(a, b) in partnered]
        if not bad:
            return 0
        for k in bad:
            a, b = pairs[k]
            if _key(a, b) not in partnered:
                continue
            others = list(range(len(pairs)))
            rng.shuffle(others)
            for j in others:
                if j == k:
                    continue
                c, d = pairs[j]
                if _key(a, c) not in partnered and _key(b, d) not in partnered:
                    pairs[k], pairs[j] = (a, c), (b, d)
                    break
                if _key(a, d) not in partnered and _key(b, c) not in partnered:
                    pairs[k], pairs[j] = (a, d), (b, c)
                    break
    return sum(_key(a, b) in partnered for a, b in pairs)


def _schedule(players: int, games: int, rng: random.Random) -> Schedule:
    r = players % 4
    if r == 0:
        return _circle(players, games)
    if r == 1:
        return _near_circle(players, games)
    if r == 3:
        return _triples(players, games)
    return _phantom(players, games, rng) or _searched(players, games, rng)


# --- tables: pairing the partnerships, numbering the tables ---------------------------------------------------


class _Counts:
    """How often two players met (partners or opponents) and were opponents, and visits to each table."""

    def __init__(self, players: int, tables: int) -> None:
        self.v = players
        self.t = tables
        self.meet = [0] * (players * players)
        self.opp = [0] * (players * players)
        self.visits = [0] * (players * max(tables, 1))

    def edge(self, x: int, y: int) -> int:
        """The cost of making x and y opponents now: meetings weigh far more than opponent counts."""
        k = x * self.v + y
        m = self.meet[k]
        o = self.opp[k]
        return 64 * m * m + o * o

    def table(self, p: Pair, q: Pair) -> int:
        (a, c), (b, d) = p, q
        return self.edge(a, b) + self.edge(a, d) + self.edge(c, b) + self.edge(c, d)

    def add_meet(self, x: int, y: int) -> None:
        self.meet[x * self.v + y] += 1
        self.meet[y * self.v + x] += 1

    def add_opponents(self, x: int, y: int) -> None:
        self.add_meet(x, y)
        self.opp[x * self.v + y] += 1
        self.opp[y * self.v + x] += 1

    def add_table(self, p: Pair, q: Pair) -> None:
        for x in p:
            for y in q:
                self.add_opponents(x, y)


def _pair_up(pairs: list[Pair], counts: _Counts, rng: random.Random, effort: int) -> list[tuple[Pair, Pair]]:
    """Partnerships two by two into tables: greedy on a sample of candidates, then improving swaps.

    `effort` (moves per table) is high for short charts, where the aim is that nobody meets anyone twice, and low
    for long ones, where every table has met before and the search only evens the meetings out.
    """
    rest = list(pairs)
    rng.shuffle(rest)
    tables: list[tuple[Pair, Pair]] = []
    while rest:
        p = rest.pop()
        window = range(max(0, len(rest) - 40), len(rest))
        pick = min(window, key=lambda k: counts.table(p, rest[k]))
        tables.append((p, rest.pop(pick)))
    size = len(tables)
    if size < 2:
        return tables
    cost = [counts.table(p, q) for p, q in tables]
    # Re-pair a costly table with another: better moves are taken at once, equal ones (a walk across a plateau)
    # when nothing better turned up.
    budget = effort * size
    while budget > 0:
        costly = [i for i in range(size) if cost[i]]
        if not costly:
            break
        for i in costly:
            sideways = None
            budget -= 20
            for j in rng.sample(range(size), min(size, 20)):
                if j == i:
                    continue
                (a, b), (c, d) = tables[i], tables[j]
                now = cost[i] + cost[j]
                x1, y1 = counts.table(a, c), counts.table(b, d)
                x2, y2 = counts.table(a, d), counts.table(b, c)
                if x2 + y2 < x1 + y1:
                    b, c, d, x1, y1 = b, d, c, x2, y2
                if x1 + y1 < now:
                    tables[i], tables[j], cost[i], cost[j] = (a, c), (b, d), x1, y1
                    sideways = None
                    break
                if x1 + y1 == now and sideways is None:
                    sideways = (j, (a, c), (b, d), x1, y1)
            if sideways is not None:
                j, tables[i], tables[j], cost[i], cost[j] = sideways
    return tables


class _Game:
    """One game of a chart with tables of three, searched as a whole: the players whose turn it is at the tables of
    three (`three`, fixed) grouped three by three, the rest seated in fours as two partnerships (N & S, E & W).

    The cost is `_Counts.edge` for every two players who meet now, plus, for a partnership, a heavy price for a
    repeat and a heavier one for a pair that must not partner (`apart`); swaps of two players are kept while they
    do not raise it: within the fours, within the threes, or between them where the two are equally due a turn at a
    table of three (`due`: the same turns so far and the same last game), so the turns stay as even as before.
    """

    REPEAT = 10_000
    APART = 1_000_000

    def __init__(
        self,
        fours: list[int],
        three: list[int],
        counts: _Counts,
        partnered: Counter,
        apart: set[Pair],
        due: Callable[[int], Hashable],
    ):
        self.due = due
        self.counts = counts
        self.partnered = partnered
        self.apart = apart
        self.groups = [fours[k : k + 4] for k in range(0, len(fours), 4)] + [
            three[k : k + 3] for k in range(0, len(three), 3)
        ]
        self.fours = len(fours) // 4
        self.cost = [self.group_cost(g) for g in self.groups]

    def partners(self, x: int, y: int) -> int:
        key = _key(x, y)
        if key in self.apart:
            return self.APART
        meet = self.counts.meet[x * self.counts.v + y]
        return self.REPEAT * self.partnered[key] + 64 * meet * meet

    def group_cost(self, group: list[int]) -> int:
        edge = self.counts.edge
        if len(group) == 3:
            x, y, z = group
            return edge(x, y) + edge(x, z) + edge(y, z)
        a, b, c, d = group
        return self.partners(a, c) + self.partners(b, d) + edge(a, b) + edge(a, d) + edge(c, b) + edge(c, d)

    def search(self, rng: random.Random, effort: int) -> None:
        fours, threes = range(self.fours), range(self.fours, len(self.groups))
        pools = [(pool, pool) for pool in (fours, threes) if pool] + ([(fours, threes)] if fours and threes else [])
        for _ in range(effort * len(self.groups) * 4):
            first, second = rng.choice(pools)
            g, h = rng.choice(first), rng.choice(second)
            i, j = rng.randrange(len(self.groups[g])), rng.randrange(len(self.groups[h]))
            if g == h and (len(self.groups[g]) == 3 or i == j or {i, j} in ({0, 2}, {1, 3})):
                continue  # nothing changes: the same seat, a table of three, or partners changing places
            if first is not second and self.due(self.groups[g][i]) != self.due(self.groups[h][j]):
                continue  # the turns at a table of three would no longer be even
            before = self.cost[g] + (self.cost[h] if h != g else 0)
            self.groups[g][i], self.groups[h][j] = self.groups[h][j], self.groups[g][i]
            after_g = self.group_cost(self.groups[g])
            after_h = self.group_cost(self.groups[h]) if h != g else 0
            if after_g + after_h <= before:
                self.cost[g] = after_g
                if h != g:
                    self.cost[h] = after_h
            else:
                self.groups[g][i], self.groups[h][j] = self.groups[h][j], self.groups[g][i]


def _turns(count: int, had: list[int], last: set[int], rng: random.Random, group_of: Mapping[int, str]) -> set[int]:
    """Who takes this game's `count` places at the tables of three: the fewest turns so far first, then those who
    were not at one last game, then a fresh draw; under a two-group rule, among the equally due, those who leave the
    two groups at the tables of four most level."""
    players = len(had)
    rank = [rng.random() for _ in range(players)]
    order = sorted(range(players), key=lambda x: (had[x], x in last, rank[x]))
    three = set(order[:count])
    if not group_of:
        return three
    return _level_groups(three, order[count:], lambda x: (had[x], x in last), group_of)


def _threes_games(
    players: int,
    games: int,
    at_three: int,
    counts: _Counts,
    rng: random.Random,
    apart: set[Pair],
    group_of: Mapping[int, str],
    effort: int,
) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Every game of a chart with tables of three, each seated (table number, seats) and counted as it goes."""
    partnered: Counter = Counter()
    seated = []
    had = [0] * players  # turns at a table of three so far
    last: set[int] = set()
    for _ in range(games):
        three = _turns(at_three, had, last, rng, group_of)
        fours = [x for x in range(players) if x not in three]
        rng.shuffle(fours)
        shuffled_three = list(three)
        rng.shuffle(shuffled_three)

        def due(x: int, had: list[int] = had, last: set[int] = last) -> Hashable:
            return (had[x], x in last, group_of.get(x))

        game = _Game(fours, shuffled_three, counts, partnered, apart, due)
        game.search(rng, effort)
        last = {x for group in game.groups[game.fours :] for x in group}
        for x in last:
            had[x] += 1
        foursomes = [((a, c), (b, d)) for a, b, c, d in game.groups[: game.fours]]
        for p, q in foursomes:
            for a, b in (p, q):
                partnered[_key(a, b)] += 1
                counts.add_meet(a, b)
        seated.append(sorted(_seat(foursomes, [tuple(g) for g in game.groups[game.fours :]], counts, rng)))
    return seated


def _number_tables(
    groups: Sequence[Sequence[int]], numbers: Sequence[int], counts: _Counts, rng: random.Random
) -> list[int]:
    """A table number (from `numbers`, internal 0-based) for each group of players, so every player's visits to each
    table stay as even as possible."""
    t = counts.t
    visits = counts.visits

    def cost(g: int, number: int) -> int:
        # Powers of three, so that one player's third visit outweighs two players' second ones.
        return sum(3 ** visits[x * t + number] for x in groups[g])

    order = list(range(len(groups)))
    rng.shuffle(order)
    free = list(numbers)
    rng.shuffle(free)
    chosen = [0] * len(groups)
    for g in order:
        k = min(range(len(free)), key=lambda k: cost(g, free[k]))
        chosen[g] = free.pop(k)
    size = len(groups)
    for _ in range(3 if size > 1 else 0):
        improved = False
        for g in range(size):
            here = cost(g, chosen[g])
            if not here:
                continue
            for h in rng.sample(range(size), min(size, 40)):
                gain = here + cost(h, chosen[h]) - cost(g, chosen[h]) - cost(h, chosen[g])
                if gain > 0:
                    chosen[g], chosen[h] = chosen[h], chosen[g]
                    improved = True
                    break
        if not improved:
            break
    return chosen


def _seat(
    foursomes: list[tuple[Pair, Pair]], threes: list[tuple[int, ...]], counts: _Counts, rng: random.Random
) -> list[tuple[int, tuple[int, ...]]]:
    """Number the tables (the fours first, the threes at the tail) and record the game in the counts; returns
    (table number, (N, E, S, W)) per table of four and (table number, (N, E, S)) per table of three."""
    fours = [(a, b, c, d) for (a, c), (b, d) in foursomes]
    seated: list[tuple[int, tuple[int, ...]]] = []
    for groups, numbers in ((fours, range(len(fours))), (threes, range(len(fours), len(fours) + len(threes)))):
        for seats, number in zip(groups, _number_tables(groups, numbers, counts, rng), strict=True):
            if len(seats) == 4:
                a, b, c, d = seats
                counts.add_table((a, c), (b, d))
            else:
                for x, y in itertools.combinations(seats, 2):
                    counts.add_opponents(x, y)
            for x in seats:
                counts.visits[x * counts.t + number] += 1
            seated.append((number + 1, seats))
    return seated


# --- perfect charts -------------------------------------------------------------------------------------------


def _whist_groups(players: int, games: int) -> list[tuple[tuple[int, ...], list[tuple[Pair, Pair]]]] | None:
    """The first `games` rounds of the stored whist tournament on `players`, or None when none is stored, each
    round's tables in table-number order (see `whist_numbered`).

    The rounds go in the stored order (`SEATING`) or else in the group's order (round g adds g); each round's
    tables in the stored order or else in the base round's.
    """
    entry = WHIST.get(players)
    if entry is None:
        return None
    moduli, has_infinity, base = entry
    order = math.prod(moduli)

    def add(x: int, g: int) -> int:
        if x == order:
            return x
        result, scale = 0, 1
        for m in moduli:
            result += ((x % m + g % m) % m) * scale
            x //= m
            g //= m
            scale *= m
        return result

    plan = SEATING.get(players) or tuple((g, tuple(range(len(base)))) for g in range(order))
    rounds: list[tuple[tuple[int, ...], list[tuple[tuple[int, int], tuple[int, int]]]]] = []
    for g, tables_in_order in plan[:games]:
        tables = [((add(a, g), add(c, g)), (add(b, g), add(d, g))) for a, b, c, d in (base[k] for k in tables_in_order)]
        out: tuple[int, ...] = () if has_infinity else (g,)
        rounds.append((out, tables))
    return rounds


def whist_numbered(players: int) -> bool:
    """Whether the stored whist tournament on `players` numbers its own tables: each developed table keeps the
    number of its place in the base round (4n + 1 players: everyone then visits every table equally often over the
    full night), or the stored `SEATING` says the order. Otherwise (4n without a stored seating) the tables are
    numbered as other charts' are, to spread the visits."""
    return players in SEATING or (players in WHIST and not WHIST[players][1])


def _stored_night(players: int, games: int) -> Night | None:
    """The stored full night for `players` (4n + 2 and 4n + 3, searched by `rotation_search`), when the chart is
    for the full night; None otherwise."""
    if games != full_night(players):
        return None
    return NIGHTS.get(players)


# --- the chart ------------------------------------------------------------------------------------------------


def build_chart(
    players: int,
    games: int | None = None,
    seed: int = 0,
    apart: Collection[frozenset[int]] = (),
    groups: Mapping[int, str] | None = None,
    threes: bool = False,
) -> Chart:
    """The seating for every game of a rotation night. `games` defaults to the full night.

    `apart` are pairs of chart numbers who must not partner (partner wishes: see `number_players`); the
    partnerships are then searched game by game as if those pairs had partnered already, and the chart is not a
    whist tournament's. `groups` (chart number -> group, for a two-group rule) picks, among the players equally
    due a sit-out, those who leave the two groups at the tables most level. `threes`: tables of three at the tail
    instead of sit-outs, where the head count is not a multiple of four (`roster.table_sizes`).
    """
    if games is None:
        games = full_night(players) if players >= MIN_PLAYERS else 1
    _check(players, games)
    rng = random.Random(seed)
    label = list(range(1, players + 1))
    rng.shuffle(label)
    sizes = table_sizes(players, threes)
    at_three = 3 * sizes.count(3)
    counts = _Counts(players, len(sizes))
    effort = 60 if games <= 30 else 6
    internal = {number: x for x, number in enumerate(label)}
    kept = {_key(internal[a], internal[b]) for a, b in (sorted(pair) for pair in apart)}
    group_of = {internal[number]: group for number, group in (groups or {}).items()}
    if at_three:
        seated_games = _threes_games(players, games, at_three, counts, rng, kept, group_of, effort)
        rounds = [
            ChartRound(number, tuple(Table(t, *(label[x] for x in seats)) for t, seats in seated), ())
            for number, seated in enumerate(seated_games, start=1)
        ]
        return Chart(players=players, games=games, seed=seed, perfect=False, rounds=tuple(rounds), threes=threes)
    stored = None if apart or groups else _stored_night(players, games)
    if stored is not None:
        rounds = [
            ChartRound(
                number,
                tuple(Table(t, *(label[x] for x in seats)) for t, seats in enumerate(tables, start=1)),
                tuple(sorted(label[x] for x in out)),
            )
            for number, (out, tables) in enumerate(stored, start=1)
        ]
        return Chart(players=players, games=games, seed=seed, perfect=False, rounds=tuple(rounds), threes=threes)
    whist = None if apart else _whist_groups(players, games)
    perfect = whist is not None
    schedule = [(out, [p for group in groups for p in group]) for out, groups in whist] if whist else None
    if schedule is None and apart:
        schedule = _searched(players, games, rng, kept, group_of)
    if schedule is None:
        schedule = _schedule(players, games, rng)
    for _, pairs in schedule:
        for a, b in pairs:
            counts.add_meet(a, b)
    rounds = []
    for number, (out, pairs) in enumerate(schedule, start=1):
        seated: list[tuple[int, tuple[int, ...]]]
        if whist and whist_numbered(players):
            seated = [(t, (a, b, c, d)) for t, ((a, c), (b, d)) in enumerate(whist[number - 1][1], start=1)]
        else:
            foursomes = whist[number - 1][1] if whist else _pair_up(pairs, counts, rng, effort)
            seated = sorted(_seat(foursomes, [], counts, rng))
        rounds.append(
            ChartRound(
                number=number,
                tables=tuple(Table(t, *(label[x] for x in seats)) for t, seats in seated),
                sit_out=tuple(sorted(label[x] for x in out)),
            )
        )
    return Chart(players=players, games=games, seed=seed, perfect=perfect, rounds=tuple(rounds), threes=threes)


# --- figures and tally cards ----------------------------------------------------------------------------------


def chart_fairness(chart: Chart) -> ChartFairness:
    """Byes (or turns at a table of three), partners, meetings and table visits over the whole chart, each beside
    the best possible."""
    v = chart.players
    byes = dict.fromkeys(range(1, v + 1), 0)
    at_three = dict.fromkeys(range(1, v + 1), 0)
    partners: dict[Pair, int] = {}
    meetings: dict[Pair, int] = {}
    met = dict.fromkeys(range(1, v + 1), 0)  # meetings each player had: three at a four, two at a three
    opponents: dict[Pair, int] = {}
    visits: dict[tuple[int, int], int] = {}
    twice_running = three_twice_running = 0
    last_out: set[int] = set()
    last_three: set[int] = set()
    first = chart.rounds[0].tables if chart.rounds else ()
    fours = sum(not table.three for table in first)
    threes = len(first) - fours
    for game in chart.rounds:
        for x in game.sit_out:
            byes[x] += 1
        twice_running += len(last_out & set(game.sit_out))
        last_out = set(game.sit_out)
        here_three: set[int] = set()
        for table in game.tables:
            sides: list[tuple[int, ...]]
            if table.three:
                here_three.update(table.players)
                sides = [(x,) for x in table.players]
            else:
                sides = [table.pair("NS"), table.pair("EW")]
                for a, b in sides:
                    partners[_key(a, b)] = partners.get(_key(a, b), 0) + 1
            for one, other in itertools.combinations(sides, 2):
                for a in one:
                    for b in other:
                        opponents[_key(a, b)] = opponents.get(_key(a, b), 0) + 1
            for x in table.players:
                visits[x, table.number] = visits.get((x, table.number), 0) + 1
                met[x] += len(table.players) - 1
                for y in table.players:
                    if x < y:
                        meetings[x, y] = meetings.get((x, y), 0) + 1
        for x in here_three:
            at_three[x] += 1
        three_twice_running += len(last_three & here_three)
        last_three = here_three
    played = {x: chart.games - byes[x] for x in byes}
    most = max(played.values())
    spread = 0
    best_spread = 0
    for x in range(1, v + 1):
        seen = [visits.get((x, t), 0) for t in range(1, len(first) + 1)]
        spread = max(spread, max(seen) - min(seen))
        # The least any chart could do with this player's games at fours and at threes.
        shares = [(played[x] - at_three[x], fours), (at_three[x], threes)]
        shares = [(games, tables) for games, tables in shares if tables]
        best_spread = max(
            best_spread,
            max(_ceil(games, tables) for games, tables in shares) - min(games // tables for games, tables in shares),
        )

    def level(keys: tuple[str, str], labels: tuple[str, str], turns: dict[int, int], running: int, least: int):
        spread_of_turns = max(turns.values()) - min(turns.values())
        return (
            FairnessFigure(keys[0], labels[0], spread_of_turns, int(sum(turns.values()) % v > 0)),
            FairnessFigure(keys[1], labels[1], running, least),
        )

    rows: tuple[FairnessFigure, ...] = ()
    if not threes or any(byes.values()):
        rows += level(
            ("byes", "sat_out_twice_running"),
            ("Byes: most minus fewest", "Sat out twice running"),
            byes,
            twice_running,
            0,
        )
    if threes:
        each = 3 * threes  # the players at the tables of three each game: beyond half the room some go twice running
        rows += level(
            ("at_three", "three_twice_running"),
            ("Games at a table of three: most minus fewest", "At a table of three twice running"),
            at_three,
            three_twice_running,
            max(0, chart.games - 1) * max(0, 2 * each - v),
        )
    rows += (
        FairnessFigure("partner_repeats", "Pairs partnered more than once", sum(c > 1 for c in partners.values()), 0),
        FairnessFigure(
            "max_meetings",
            "Most games two players share a table",
            max(meetings.values(), default=0),
            max(_ceil(count, v - 1) for count in met.values()),
        ),
        FairnessFigure(
            "opponent_max",
            "Most games two players are opponents",
            max(opponents.values(), default=0),
            _ceil(2 * most, v - 1),
        ),
        FairnessFigure("table_spread", "Visits to one table: most minus fewest", spread, best_spread),
    )
    return ChartFairness(
        players=v, games=chart.games, byes_min=min(byes.values()), byes_max=max(byes.values()), rows=rows
    )


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def player_plan(chart: Chart, number: int) -> list[PlanLine]:
    """One line per game for one player: where they sit, with whom and against whom (at a table of three: no
    partner, the other two), or that they sit out."""
    if not 1 <= number <= chart.players:
        raise SeatingError(f"There is no player {number} on a chart of {chart.players}.")
    lines = []
    for game in chart.rounds:
        line = PlanLine(game.number, None, None, None, None, True)
        for table in game.tables:
            for seat, player in table.seats.items():
                if player == number and table.three:
                    others = tuple(p for p in table.players if p != number)
                    line = PlanLine(game.number, table.number, seat, None, (others[0], others[1]), False)
                elif player == number:
                    side = "NS" if seat in ("N", "S") else "EW"
                    other = "EW" if side == "NS" else "NS"
                    mate = next(p for p in table.pair(side) if p != number)
                    line = PlanLine(game.number, table.number, seat, mate, table.pair(other), False)
        lines.append(line)
    return lines


# --- partner wishes: which player holds which number -------------------------------------------------------------


def chart_partners(chart: Chart) -> dict[int, list[int]]:
    """Chart number -> the numbers it partners over the chart, once per game."""
    partners: dict[int, list[int]] = {n: [] for n in range(1, chart.players + 1)}
    for game in chart.rounds:
        for table in game.tables:
            if table.three:
                continue
            for a, b in (table.pair("NS"), table.pair("EW")):
                partners[a].append(b)
                partners[b].append(a)
    return partners


def apart_numbers(numbers: Mapping[int, int], wishes: Wishes) -> set[frozenset[int]]:
    """The pairs of chart numbers who must not partner, for players holding `numbers` (player -> number): every
    never-partner pair, and under a two-group rule every two numbers held by one group."""
    apart = {
        frozenset((numbers[a], numbers[b]))
        for a, b in (sorted(pair) for pair in wishes.never)
        if a in numbers and b in numbers
    }
    by_group: dict[str, list[int]] = {}
    for player, number in numbers.items():
        group = wishes.groups.get(player)
        if group is not None:
            by_group.setdefault(group, []).append(number)
    for held in by_group.values():
        apart.update(frozenset(pair) for pair in itertools.combinations(held, 2))
    return apart


def number_players(
    chart: Chart,
    players: Sequence[int],
    wishes: Wishes,
    seed: int,
    fixed: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """A chart number for each of `players` (those in `fixed` keep theirs) breaking as few wishes as possible.

    A seeded random numbering first, then swaps of two numbers (one of them held by a player free to move) while
    that lowers the wishes broken over the whole chart.
    """
    fixed = dict(fixed or {})
    rng = random.Random(seed)
    movable = [p for p in sorted(players) if p not in fixed]
    free = [n for n in range(1, chart.players + 1) if n not in set(fixed.values())]
    if len(free) < len(movable):
        raise SeatingError(f"The chart has {chart.players} numbers for {len(movable) + len(fixed)} players.")
    rng.shuffle(free)
    holder: dict[int, int | None] = dict.fromkeys(range(1, chart.players + 1))
    for player, number in fixed.items():
        holder[number] = player
    for player, number in zip(movable, free, strict=False):
        holder[number] = player
    if not wishes:
        return {p: n for n, p in holder.items() if p is not None}
    partners = chart_partners(chart)
    pinned = set(fixed.values())

    def cost(number: int) -> int:
        player = holder[number]
        if player is None:
            return 0
        return sum(wishes.cost(player, other) for other in (holder[m] for m in partners[number]) if other is not None)

    numbers = list(range(1, chart.players + 1))
    for _ in range(30):
        bad = [n for n in numbers if n not in pinned and holder[n] is not None and cost(n)]
        if not bad:
            break
        improved = False
        for n in bad:
            if not cost(n):
                continue
            for m in rng.sample(numbers, len(numbers)):
                if m == n or m in pinned:
                    continue
                before = cost(n) + cost(m)
                holder[n], holder[m] = holder[m], holder[n]
                if cost(n) + cost(m) < before:
                    improved = True
                    break
                holder[n], holder[m] = holder[m], holder[n]
        if not improved:
            break
    if wishes.always:
        _couples_sit_out_together(chart, holder, partners, pinned, wishes, rng)
    return {p: n for n, p in holder.items() if p is not None}


def _couples_sit_out_together(
    chart: Chart,
    holder: dict[int, int | None],
    partners: Mapping[int, Sequence[int]],
    pinned: set[int],
    wishes: Wishes,
    rng: random.Random,
) -> None:
    """Move couples onto numbers that sit out in the same games, where a swap of two numbers (one of them free to
    move) brings a couple's sit-outs closer and breaks no more never pairs or two-group partnerships. (A chart
    partners a couple once at most, so their one game as partners gives way to their byes together.)"""
    out = {n: frozenset(g for g, game in enumerate(chart.rounds) if n in game.sit_out) for n in holder}
    if not any(out.values()):
        return
    others = Wishes(never=wishes.never, groups=wishes.groups)

    def cost(number: int) -> int:
        player = holder[number]
        if player is None:
            return 0
        return sum(others.cost(player, other) for other in (holder[m] for m in partners[number]) if other is not None)

    number_of = {player: number for number, player in holder.items() if player is not None}

    def apart(player: int | None) -> int:
        """Games in which exactly one of `player`'s couple sits out (0 without a couple holding numbers)."""
        mate = wishes.mate(player) if player is not None else None
        if player is None or mate not in number_of:
            return 0
        return len(out[number_of[player]] ^ out[number_of[mate]])

    numbers = sorted(holder)
    for pair in sorted(sorted(pair) for pair in wishes.always):
        if any(p not in number_of for p in pair) or not apart(pair[0]):
            continue
        for player in pair:
            n = number_of[player]
            if n in pinned or not apart(player):
                continue
            for m in rng.sample(numbers, len(numbers)):
                if m == n or m in pinned or out[m] == out[n]:
                    continue
                other = holder[m]
                movers = {player, other, wishes.mate(player), wishes.mate(other) if other is not None else None}
                before = (sum(apart(p) for p in movers if p is not None), cost(n) + cost(m))
                holder[n], holder[m] = other, player
                for who, where in ((player, m), (other, n)):
                    if who is not None:
                        number_of[who] = where
                after = (sum(apart(p) for p in movers if p is not None), cost(n) + cost(m))
                if after[0] < before[0] and after[1] <= before[1]:
                    break
                holder[n], holder[m] = player, other
                for who, where in ((player, n), (other, m)):
                    if who is not None:
                        number_of[who] = where
            if not apart(player):
                break
