"""Find the base rounds of whist tournaments Wh(v) and write them to `whist_data.py`.

Run `python -m tournament.engine.whist_search` (optionally with head counts) to search again; the chart engine only
reads the stored data, so building a chart stays instant.

A whist tournament on v players (v = 4n or 4n+1): every two players are partners exactly once and opponents
exactly twice. The search looks for one developed from a single base round over an abelian group G:

* v = 4n+1, |G| = v: n tables (N, E, S, W) holding G without 0; N-S and E-W are partners. The partner differences
  +-(N-S), +-(E-W) cover each non-zero element once and the opponent differences +-(N-E), +-(N-W), +-(S-E), +-(S-W)
  twice. Round g adds g to everyone; player g sits out.
* v = 4n, |G| = v-1, plus a fixed point infinity seated at N of the first table: the same conditions on the finite
  pairs (infinity partners each element once and opposes each twice by itself). Nobody sits out.

Four searches, each tried over the cyclic group first and then the other abelian groups of the same order:

* `patterned`: partners {x, -x} and tables (x, y, -x, -y), so only the pairing of the classes {x, -x} is searched;
  quick, and it works for most 4n+1 and some 4n.
* `starters`: the partnerships first, as a random starter (pairs of G without 0 whose differences cover each class
  {d, -d} once; with infinity, 0 is infinity's partner), then an exhaustive search for a way to put the pairs two
  by two at tables so that every opponent class is reached exactly twice. A fresh starter whenever one has no
  such tables. It finds the head counts the pattern cannot: 32 and 33 in seconds, 36 and 44 in minutes; for 48 and
  up, `whist_starters.c` (the same search, compiled) takes minutes where this takes hours.
* `multiplied`: over Z_n, a base round that a multiplier m of order 3 maps onto itself: m*x keeps each table's
  shape, so only one table of every three is searched, and differences are counted by their orbits {d, md, m^2 d}.
  The points m fixes (0, and with infinity f and -f) form the first table (infinity, f, 0, -f). It found 64 in
  under a second, after hours of the other searches had not.
* `backtrack`: any base round, by randomized backtracking with restarts.

For 16 players the base round must also keep every three players from sharing a table twice (`trios_twice`), as
the published 16-player design does; the searches are run again with fresh seeds until one does.

`seating` then orders the rounds and numbers each round's tables for the head counts in `SEATED` (12 and 16), for
as few same-table stays (a player at the same table two games running) as it finds, then the most even table
visits: the rounds go in steps of s through the group (each s in turn); the fewest stays for that order come from
a dynamic programme over each round's numbering, then a random walk over the numberings keeps that many stays and
evens the visits. The result goes to `SEATING` in `whist_data.py` (without an entry, 4n + 1 charts keep the base
round's table order, which gives everyone the same number of games at every table).
"""

from __future__ import annotations

import itertools
import math
import pathlib
import random
import sys
import time
from collections import Counter

from .whist_data import SEATING, WHIST

DATA = pathlib.Path(__file__).with_name("whist_data.py")
HEAD_COUNTS = [v for v in range(4, 65) if v % 4 in (0, 1)]
TRIO_FREE = {16}
SEATED = (12, 16)
PARTNER_SEATS = ((0, 2), (1, 3))
OPPONENT_SEATS = ((0, 1), (0, 3), (2, 1), (2, 3))


def abelian_groups(order: int) -> list[tuple[int, ...]]:
    """The abelian groups of `order` as moduli lists, the cyclic group first and more factors later."""
    factors: dict[int, int] = {}
    rest, p = order, 2
    while rest > 1:
        while rest % p == 0:
            factors[p] = factors.get(p, 0) + 1
            rest //= p
        p += 1

    def partitions(k: int, most: int) -> list[list[int]]:
        if k == 0:
            return [[]]
        return [[a, *tail] for a in range(min(k, most), 0, -1) for tail in partitions(k - a, a)]

    choices = [[[p**a for a in part] for part in partitions(k, k)] for p, k in factors.items()]
    groups = []
    for combo in itertools.product(*choices):
        # Invariant factors: multiply the largest prime powers together, then the next largest, …
        width = max((len(c) for c in combo), default=1)
        moduli = [math.prod(c[i] for c in combo if i < len(c)) for i in range(width)]
        groups.append(tuple(sorted(moduli)))
    return sorted(set(groups), key=lambda g: (len(g), g)) or [(1,)]


class Group:
    """An abelian group as a product of cyclic groups; elements are mixed-radix indices, first modulus fastest."""

    def __init__(self, moduli: tuple[int, ...]) -> None:
        self.moduli = moduli
        self.order = math.prod(moduli)
        digits = [self._digits(x) for x in range(self.order)]
        self.sub = [
            [self._index([(a - b) % m for a, b, m in zip(x, y, moduli, strict=True)]) for y in digits] for x in digits
        ]
        self.add = [
            [self._index([(a + b) % m for a, b, m in zip(x, y, moduli, strict=True)]) for y in digits] for x in digits
        ]

    def _digits(self, x: int) -> list[int]:
        out = []
        for m in self.moduli:
            out.append(x % m)
            x //= m
        return out

    def _index(self, digits: list[int]) -> int:
        x, scale = 0, 1
        for d, m in zip(digits, self.moduli, strict=True):
            x += d * scale
            scale *= m
        return x


def backtrack(v: int, moduli: tuple[int, ...], seconds: float, rng: random.Random, nodes: int = 4000) -> tuple | None:
    """Any base round, table by table, by randomized backtracking restarted whenever it uses up `nodes` steps.

    Each table takes the smallest free element at N, a partner for it whose difference class is still unused,
    then an E-W pair with an unused class, as long as no opponent class is reached more than twice. (Counting
    shows that when every class is reached at most twice and all elements are seated, each is reached exactly
    twice.) With infinity, its table is chosen first.
    """
    group = Group(moduli)
    if group.order % 2 == 0:
        return None
    sub, inf = group.sub, group.order
    cls = [min(x, sub[0][x]) for x in range(group.order)]
    infinity = v % 4 == 0
    deadline = time.monotonic() + seconds

    def attempt() -> tuple | None:
        free = set(range(group.order)) if infinity else set(range(1, group.order))
        partner_used: set[int] = set()
        opponent = [0] * group.order
        tables: list[tuple[int, int, int, int]] = []
        budget = [nodes]

        def seat(table: tuple[int, int, int, int]) -> bool:
            """Try `table`; on success keep it and recurse, else leave everything as it was."""
            a, b, c, d = table
            classes = [cls[sub[x][y]] for x, y in ((a, b), (a, d), (c, b), (c, d)) if inf not in (x, y)]
            pair_classes = [cls[sub[x][y]] for x, y in ((a, c), (b, d)) if inf not in (x, y)]
            if len(set(pair_classes)) < len(pair_classes) or partner_used.intersection(pair_classes):
                return False
            for k in classes:
                opponent[k] += 1
            if max(opponent[k] for k in classes) <= 2:
                partner_used.update(pair_classes)
                free.difference_update(table)
                tables.append(table)
                if extend():
                    return True
                tables.pop()
                free.update(x for x in table if x != inf)
                partner_used.difference_update(pair_classes)
            for k in classes:
                opponent[k] -= 1
            return False

        def extend() -> bool:
            if not free:
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            options = sorted(free)
            rng.shuffle(options)
            if infinity and not tables:
                return any(seat((inf, b, c, d)) for b, c, d in itertools.permutations(options, 3) if budget[0] >= 0)
            x = min(free)
            options.remove(x)
            for s in options:
                if cls[sub[x][s]] in partner_used:
                    continue
                for e, w in itertools.permutations([y for y in options if y != s], 2):
                    if budget[0] < 0:
                        return False
                    if seat((x, e, s, w)):
                        return True
            return False

        return (moduli, infinity, tuple(tables)) if extend() else None

    while time.monotonic() < deadline:
        found = attempt()
        if found:
            return found
    return None


def patterned(v: int, moduli: tuple[int, ...], seconds: float, rng: random.Random) -> tuple | None:
    """A base round whose partners are the pairs {x, -x} (the patterned starter), found by a backtracking search.

    Tables (x, y, -x, -y) give opponent differences +-(x-y) and +-(x+y), twice each, so the classes {x, -x} must be
    paired so that the classes of x-y and x+y over all tables are all different. With infinity, its table is
    (infinity, x0, 0, -x0) and the class of x0 takes the place of one table's two classes.
    """
    group = Group(moduli)
    if group.order % 2 == 0:
        return None
    zero = 0
    neg = [group.sub[zero][x] for x in range(group.order)]
    cls = [min(x, neg[x]) for x in range(group.order)]
    classes = sorted({cls[x] for x in range(1, group.order)})
    infinity = v % 4 == 0
    deadline = time.monotonic() + seconds

    def attempt() -> tuple | None:
        order = list(classes)
        rng.shuffle(order)
        used: set[int] = set()
        tables: list[tuple[int, int, int, int]] = []
        if infinity:
            x0 = order.pop()
            used.add(x0)
            tables.append((group.order, x0, zero, neg[x0]))
        budget = [20000]

        def extend(free: list[int]) -> bool:
            if not free:
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            x = free[0]
            rest = free[1:]
            options = list(rest)
            rng.shuffle(options)
            for y in options:
                a, b = cls[group.sub[x][y]], cls[group.add[x][y]]
                if a == b or a in used or b in used:
                    continue
                used.update((a, b))
                tables.append((x, y, neg[x], neg[y]))
                if extend([z for z in rest if z != y]):
                    return True
                tables.pop()
                used.difference_update((a, b))
            return False

        return (moduli, infinity, tuple(tables)) if extend(order) else None

    while time.monotonic() < deadline:
        found = attempt()
        if found:
            return found
    return None


def multiplied(v: int, moduli: tuple[int, ...], seconds: float, rng: random.Random) -> tuple | None:
    """A base round of Z_n fixed by a multiplier m of order 3 (see the module), by randomized backtracking."""
    if len(moduli) != 1:
        return None
    n = moduli[0]
    infinity = v % 4 == 0
    deadline = time.monotonic() + seconds
    for m in range(2, n):
        if math.gcd(m, n) != 1 or pow(m, 3, n) != 1:
            continue
        fixed = [x for x in range(n) if (m - 1) * x % n == 0]
        if len(fixed) != (3 if infinity else 1):
            continue
        orbit = {}
        orbits: list[list[int]] = []
        for x in range(n):
            if x not in fixed and x not in orbit:
                members = [x, x * m % n, x * m * m % n]
                for y in members:
                    orbit[y] = len(orbits)
                orbits.append(members)
        if len(orbits) % 4:
            continue
        while time.monotonic() < deadline:
            tables = _multiplied_tables(n, orbit, orbits, rng, nodes=200_000)
            if tables is None:
                continue
            head = [(n, fixed[1], 0, fixed[2])] if infinity else []
            developed = [tuple(x * k % n for x in table) for table in tables for k in (1, m, m * m)]
            return (moduli, infinity, tuple(head + developed))
    return None


def _multiplied_tables(n: int, orbit: dict[int, int], orbits: list[list[int]], rng: random.Random, nodes: int):
    """One table per four orbits, with every partner difference orbit reached once and every opponent one twice."""
    used = [False] * len(orbits)
    partner_hits = [0] * len(orbits)
    opponent_hits = [0] * len(orbits)
    seats: list[int] = []
    budget = [nodes]

    def hits(x: int) -> list[tuple[bool, int]] | None:
        seat = len(seats) % 4
        first = len(seats) - seat
        found = []
        for j in range(seat):
            partners = seat - j == 2
            for d in ((x - seats[first + j]) % n, (seats[first + j] - x) % n):
                if d not in orbit:  # a difference the fixed table already covers
                    return None
                found.append((partners, orbit[d]))
        for partners, o in found:
            limit, count = (1, partner_hits) if partners else (2, opponent_hits)
            if count[o] + sum(1 for p, q in found if p == partners and q == o) > limit:
                return None
        return found

    def extend() -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if len(seats) == len(orbits):
            return True
        if len(seats) % 4 == 0:  # a new table starts at the first orbit still unused
            options = list(orbits[used.index(False)])
        else:
            options = [x for o, members in enumerate(orbits) if not used[o] for x in members]
        rng.shuffle(options)
        for x in options:
            found = hits(x)
            if found is None:
                continue
            used[orbit[x]] = True
            seats.append(x)
            for partners, o in found:
                (partner_hits if partners else opponent_hits)[o] += 1
            if extend():
                return True
            for partners, o in found:
                (partner_hits if partners else opponent_hits)[o] -= 1
            seats.pop()
            used[orbit[x]] = False
        return False

    if not extend():
        return None
    return [tuple(seats[i : i + 4]) for i in range(0, len(seats), 4)]


def starters(v: int, moduli: tuple[int, ...], seconds: float, rng: random.Random) -> tuple | None:
    """A random starter for the partners, then tables for its pairs by an exhaustive search (see the module)."""
    group = Group(moduli)
    if group.order % 2 == 0:
        return None
    neg = [group.sub[0][x] for x in range(group.order)]

    def cls(x: int, y: int) -> int:
        d = group.sub[x][y]
        return min(d, neg[d])

    infinity = v % 4 == 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pairs = _starter(group.order, cls, rng)
        if pairs is None:
            continue
        try:  # a few seconds of CPU a starter (process time: a busy machine must not cut the search short)
            found = _seat_pairs(pairs, cls, infinity, group.order, time.process_time() + 6.0)
        except TimeoutError:
            continue
        if found is not None:
            return (moduli, infinity, found)
    return None


def _starter(order: int, cls, rng: random.Random) -> list[tuple[int, int]] | None:
    """Pairs of the non-zero elements whose difference classes are all different, by randomized backtracking."""

    def extend(free: frozenset[int], used: frozenset[int], pairs: list[tuple[int, int]]):
        if not free:
            return pairs
        x = min(free)
        options = [y for y in free if y != x and cls(x, y) not in used]
        rng.shuffle(options)
        for y in options[:6]:  # a few tries each, then give up on this starter: a new one is cheap
            found = extend(free - {x, y}, used | {cls(x, y)}, [*pairs, (x, y)])
            if found:
                return found
        return None

    return extend(frozenset(range(1, order)), frozenset(), [])


def _seat_pairs(pairs, cls, infinity: bool, order: int, deadline: float) -> tuple | None:
    """Tables for a starter's pairs with every opponent class reached at most (so exactly) twice, or None.

    With infinity, one pair joins infinity and 0 (its opponents are the pair's own two elements)."""
    reached = [0] * order
    cross = {
        (i, j): [cls(a, b), cls(a, d), cls(c, b), cls(c, d)]
        for (i, (a, c)), (j, (b, d)) in itertools.combinations(enumerate(pairs), 2)
    }
    steps = [0]

    def match(free: frozenset[int], tables: list[tuple[int, int]]):
        steps[0] += 1
        if steps[0] % 5000 == 0 and time.process_time() > deadline:
            raise TimeoutError
        if not free:
            return tables

        def fits(i: int, j: int) -> bool:
            classes = cross[(min(i, j), max(i, j))]
            return all(reached[c] + classes.count(c) <= 2 for c in classes)

        # The pair with the fewest tables still open to it goes first.
        i, options = min(
            ((i, [j for j in sorted(free) if j != i and fits(i, j)]) for i in sorted(free)),
            key=lambda item: len(item[1]),
        )
        for j in options:
            classes = cross[(min(i, j), max(i, j))]
            for c in classes:
                reached[c] += 1
            found = match(free - {i, j}, [*tables, (min(i, j), max(i, j))])
            if found is not None:
                return found
            for c in classes:
                reached[c] -= 1
        return None

    everyone = frozenset(range(len(pairs)))
    for lone in range(len(pairs)) if infinity else [None]:
        own = [cls(x, 0) for x in pairs[lone]] if lone is not None else []
        for c in own:
            reached[c] += 1
        if all(reached[c] <= 2 for c in own):
            found = match(everyone - {lone} if lone is not None else everyone, [])
            if found is not None:
                head = [(order, pairs[lone][0], 0, pairs[lone][1])] if lone is not None else []
                return tuple(head + [(pairs[i][0], pairs[j][0], pairs[i][1], pairs[j][1]) for i, j in found])
        for c in own:
            reached[c] -= 1
    return None


def develop(v: int, entry: tuple) -> list[list[tuple[int, int, int, int]]]:
    """Every round of the tournament: the base round plus each group element (infinity stays put)."""
    moduli, _, base = entry
    group = Group(moduli)
    inf = group.order
    return [[tuple(x if x == inf else group.add[x][g] for x in table) for table in base] for g in range(group.order)]


def check(v: int, entry: tuple) -> None:
    """Raise AssertionError unless the developed rounds are a whist tournament on v players."""
    rounds = develop(v, entry)
    assert len(rounds) == (v - 1 if v % 4 == 0 else v)
    partners: dict[tuple[int, int], int] = {}
    opponents: dict[tuple[int, int], int] = {}
    for tables in rounds:
        seated = [x for table in tables for x in table]
        assert len(set(seated)) == len(seated) == 4 * (v // 4)
        for table in tables:
            for i, j in PARTNER_SEATS:
                key = (min(table[i], table[j]), max(table[i], table[j]))
                partners[key] = partners.get(key, 0) + 1
            for i, j in OPPONENT_SEATS:
                key = (min(table[i], table[j]), max(table[i], table[j]))
                opponents[key] = opponents.get(key, 0) + 1
    pairs = v * (v - 1) // 2
    assert len(partners) == pairs and set(partners.values()) == {1}
    assert len(opponents) == pairs and set(opponents.values()) == {2}


def trios_twice(v: int, entry: tuple) -> int:
    """Sets of three players who share a table more than once over the developed tournament."""
    seen: Counter = Counter()
    for tables in develop(v, entry):
        for table in tables:
            seen.update(itertools.combinations(sorted(table), 3))
    return sum(count > 1 for count in seen.values())


def find(v: int, seed: int = 0, seconds: float = 240.0) -> tuple:
    rng = random.Random(seed)
    order = v - 1 if v % 4 == 0 else v
    for _ in range(1000 if v in TRIO_FREE else 1):
        for method, budget in (
            (patterned, min(seconds, 5.0)),
            (multiplied, min(seconds, 30.0)),
            (starters, seconds if v not in TRIO_FREE else 2.0),
            (backtrack, seconds if v not in TRIO_FREE else 2.0),
        ):
            for moduli in abelian_groups(order):
                entry = method(v, moduli, budget, rng)
                if entry is not None and (v not in TRIO_FREE or not trios_twice(v, entry)):
                    check(v, entry)
                    return entry
    raise RuntimeError(f"No whist tournament found for {v} players.")


def seating_figures(v: int, rounds: list, order: list[int], numbers: list[tuple[int, ...]]) -> tuple[int, int, int]:
    """(stays, the widest spread of one player's table visits, the spreads summed over the players) when game i
    plays round order[i] with base table k at table numbers[i][k]."""
    tables = len(rounds[0])
    visits: Counter = Counter()
    stays = 0
    last: dict[int, int] = {}
    for g, numbering in zip(order, numbers, strict=True):
        here = {x: numbering[k] for k, table in enumerate(rounds[g]) for x in table}
        visits.update(here.items())
        stays += sum(last.get(x) == t for x, t in here.items())
        last = here
    spreads = [max(visits[x, t] for t in range(tables)) - min(visits[x, t] for t in range(tables)) for x in range(v)]
    return stays, max(spreads), sum(spreads)


def seating(v: int, entry: tuple, seconds: float = 20.0, seed: int = 0) -> tuple:
    """The order of the rounds and each round's table order (see the module), as stored in `SEATING`."""
    rng = random.Random(seed)
    rounds = develop(v, entry)
    size = len(rounds)
    tables = len(rounds[0])
    perms = list(itertools.permutations(range(tables)))
    best: tuple | None = None
    for step in [s for s in range(1, size) if math.gcd(s, size) == 1]:
        order = [i * step % size for i in range(size)]
        sets = [[set(table) for table in rounds[g]] for g in order]

        def stays(i: int, p: tuple[int, ...], q: tuple[int, ...], sets: list = sets) -> int:
            return sum(len(sets[i][k] & sets[i + 1][j]) for k in range(tables) for j in range(tables) if p[k] == q[j])

        cost = [[[stays(i, p, q) for q in perms] for p in perms] for i in range(size - 1)]
        fewest = [[0] * len(perms) for _ in range(size)]
        for i in range(size - 2, -1, -1):
            for a in range(len(perms)):
                fewest[i][a] = min(cost[i][a][b] + fewest[i + 1][b] for b in range(len(perms)))
        least = min(fewest[0])
        path, left = [fewest[0].index(least)], least
        for i in range(size - 1):
            a = path[-1]
            b = next(b for b in range(len(perms)) if cost[i][a][b] + fewest[i + 1][b] == left)
            left -= cost[i][a][b]
            path.append(b)

        def score(path: list[int], order: list[int] = order, least: int = least) -> tuple[int, tuple]:
            figures = seating_figures(v, rounds, order, [perms[a] for a in path])
            return 1000 * max(0, figures[0] - least) + 50 * figures[1] + figures[2], figures

        now, figures = score(path)
        found = (figures, list(path))
        deadline = time.monotonic() + seconds / (size // 2)
        while time.monotonic() < deadline:
            i, old = rng.randrange(size), 0
            old, path[i] = path[i], rng.randrange(len(perms))
            after, after_figures = score(path)
            if after <= now or rng.random() < math.exp((now - after) / 2.0):
                now, figures = after, after_figures
                if figures < found[0]:
                    found = (figures, list(path))
            else:
                path[i] = old
        if best is None or found[0] < best[0]:
            best = (found[0], order, [perms[a] for a in found[1]])
    assert best is not None
    _, order, numbers = best
    return tuple(
        (g, tuple(numbering.index(t) for t in range(tables))) for g, numbering in zip(order, numbers, strict=True)
    )


def write(data: dict[int, tuple], seats: dict[int, tuple]) -> None:
    text = DATA.read_text()
    header = text[: text.index("WHIST:")].rstrip()
    body = ["WHIST: dict[int, tuple[tuple[int, ...], bool, tuple[tuple[int, int, int, int], ...]]] = {"]
    for v in sorted(data):
        moduli, infinity, base = data[v]
        body.append(f"    {v}: (")
        body.append(f"        {tuple(moduli)!r},")
        body.append(f"        {infinity!r},")
        body.append("        (")
        for table in base:
            body.append(f"            {tuple(table)!r},")
        body.append("        ),")
        body.append("    ),")
    body.append("}")
    body.append("")
    body.append(
        "# Game by game: the group element added to the base round, and the base round's tables in table-number"
    )
    body.append("# order. Head counts without an entry play the group's order and the base round's table order.")
    body.append("SEATING: dict[int, tuple[tuple[int, tuple[int, ...]], ...]] = {")
    for v in sorted(seats):
        body.append(f"    {v}: (")
        for game in seats[v]:
            body.append(f"        {game!r},")
        body.append("    ),")
    body.append("}")
    DATA.write_text(header + "\n\n" + "\n".join(body) + "\n")


def main(argv: list[str]) -> None:
    wanted = [int(a) for a in argv] or HEAD_COUNTS
    data = dict(WHIST)
    seats = dict(SEATING)
    for v in wanted:
        started = time.monotonic()
        data[v] = find(v)
        seats.pop(v, None)
        if v in SEATED:
            seats[v] = seating(v, data[v])
        moduli, infinity, _ = data[v]
        group = " x ".join(f"Z_{m}" for m in moduli) + (" + infinity" if infinity else "")
        print(f"Wh({v}): {group}, {time.monotonic() - started:.1f} s", flush=True)
        write(data, seats)


if __name__ == "__main__":
    main(sys.argv[1:])
