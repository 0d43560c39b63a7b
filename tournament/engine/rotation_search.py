"""Search full rotation nights with byes (4n+2 and 4n+3 players) and write the best found to `rotation_data.py`.

Run by hand: `python -m tournament.engine.rotation_search [head counts] [--seconds S] [--seeds N] [--moves M]`. The
chart engine only reads the stored nights (`rotation_data.NIGHTS`), so building a chart stays instant; nothing here
is imported by the app.

Three kinds of night are tried for each head count, every one checked and counted here (`chart_figures.figures`):

* developed (`cyclic`, for S seconds): a base round over Z_v whose partnerships use each difference once and whose
  tables reach every difference once or twice as opponents, developed game by game: the bound on opponents, every
  table visited equally often, no trio twice unless two base trios are translates;
* the best four of those with their table numbers annealed again for fewer stays (`renumber`);
* N simulated annealing runs of M moves over whole nights (`rotation_anneal.c`, compiled here with the system's C
  compiler for speed): two players changing seats, two partnerships changing tables, two tables changing numbers,
  or two players trading a bye and a seat in two games (each keeps their number of byes, nobody sits out twice
  running, byes within one after every game). Its cost is lexicographic in effect: partners twice, then opponents
  outside the average rounded down or up (the most-met first), then uneven table visits, then trios sharing a
  table twice and same-table stays.

The best is kept (a stored night too, unless it fails today's checks): the fewest figures worse than the published
design's (where one exists), then the figures in order (partners, most-met opponent, pairs met unevenly, table
spread, trios, stays).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

from .chart_figures import Figures, figures, read_designs
from .rotation import full_night
from .rotation_data import NIGHTS, Night

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE / "rotation_anneal.c"
DATA = HERE / "rotation_data.py"
DESIGNS = HERE.parents[1] / "tests/tournament/engine/data/wiseman_individual_pairs.txt"
HEAD_COUNTS = [v for v in range(7, 31) if v % 4 in (2, 3)]
# Weights: partners twice, opponents outside the average (cubed), table visits (squared), trios twice, stays.
WEIGHTS = (1e7, 1e5, 1e3, 1e3, 1e3)


def compile_annealer(directory: pathlib.Path) -> pathlib.Path:
    binary = directory / "rotation_anneal"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(SOURCE), "-lm"], check=True)
    return binary


def anneal(
    binary: pathlib.Path, players: int, games: int, seed: int, moves: int, weights: Sequence[float] = WEIGHTS
) -> Night:
    """One annealing run: the night as (byes, tables as (N, E, S, W)) per game, players 0..players-1."""
    args = [str(binary), str(players), str(games), str(seed), str(moves), *(repr(w) for w in weights), "1"]
    lines = subprocess.run(args, check=True, capture_output=True, text=True).stdout.splitlines()[1:]
    return _read(lines)


def renumber(
    binary: pathlib.Path, players: int, night: Night, seed: int, moves: int, weights: Sequence[float]
) -> Night:
    """The same night with its table numbers annealed alone (visits and stays), as `anneal` reads it back."""
    text = "".join(
        " ".join(str(x) for x in out) + " | " + " ".join(str(x) for table in tables for x in table) + "\n"
        for out, tables in night
    )
    args = [str(binary), str(players), str(len(night)), str(seed), "0", *(repr(w) for w in weights), "0", str(moves)]
    lines = subprocess.run(args, check=True, capture_output=True, text=True, input=text).stdout.splitlines()[1:]
    return _read(lines)


def _read(lines: Sequence[str]) -> Night:
    night = []
    for line in lines:
        byes, seats = line.split("|")
        numbers = [int(x) for x in seats.split()]
        tables = tuple((a, b, c, d) for a, b, c, d in (numbers[k : k + 4] for k in range(0, len(numbers), 4)))
        night.append((tuple(sorted(int(x) for x in byes.split())), tables))
    return tuple(night)


# --- nights developed from one base round over Z_v ------------------------------------------------------------


def _class(a: int, b: int, v: int) -> int:
    d = (a - b) % v
    return min(d, v - d)


def _starter(v: int, out: tuple[int, ...], rng: random.Random) -> list[tuple[int, int]] | None:
    """Partnerships of Z_v without the base round's byes, each difference class {d, -d} at most once (never v/2,
    whose pairs would partner twice): developed, nobody partners anyone twice."""
    rest = [x for x in range(v) if x not in out]

    def allowed(a: int, b: int, used: set[int]) -> bool:
        d = _class(a, b, v)
        return a != b and d not in used and 2 * d != v

    for _ in range(1000):
        free, used, pairs = set(rest), set[int](), []
        while free:
            a = min(free, key=lambda x: (sum(allowed(x, y, used) for y in free), rng.random()))
            options = [y for y in free if allowed(a, y, used)]
            if not options:
                break
            b = rng.choice(options)
            free -= {a, b}
            used.add(_class(a, b, v))
            pairs.append((a, b))
        if not free:
            return pairs
    return None


def _tables(
    pairs: list[tuple[int, int]], v: int, low: int, high: int, rng: random.Random, most: int = 20
) -> list[list[tuple[int, int, int, int]]]:
    """Up to `most` ways to put the partnerships two by two at tables so that, developed, every two players are
    opponents between `low` and `high` times (a pair {x, x + v/2} is reached twice by one base pair)."""
    half = v // 2 if v % 2 == 0 else 0
    found: list[list[tuple[int, int, int, int]]] = []
    count: Counter = Counter()

    def fits(final: bool) -> bool:
        for d in range(1, v // 2 + 1):
            reached = count[d] * (2 if d == half else 1)
            if reached > high or (final and reached < low):
                return False
        return True

    def walk(free: list[int], tables: list[tuple[int, int, int, int]]) -> None:
        if len(found) >= most:
            return
        if not free:
            if fits(True):
                found.append(list(tables))
            return
        i = free[0]
        for j in free[1:]:
            (a, c), (b, d) = pairs[i], pairs[j]
            classes = [_class(a, b, v), _class(a, d, v), _class(c, b, v), _class(c, d, v)]
            count.update(classes)
            if fits(False):
                tables.append((a, b, c, d))
                walk([k for k in free if k not in (i, j)], tables)
                tables.pop()
            count.subtract(classes)

    order = list(range(len(pairs)))
    rng.shuffle(order)
    walk(order, [])
    return found


def _byes_even(v: int, out: tuple[int, ...], step: int) -> bool:
    """Whether developing the byes by `step` a game keeps them within one after every game, nobody out twice
    running."""
    if any((a - b) % v in (step, v - step) for a in out for b in out if a != b):
        return False
    byes = [0] * v
    for i in range(v):
        for b in out:
            byes[(b + step * i) % v] += 1
        if max(byes) - min(byes) > 1:
            return False
    return True


def develop(v: int, out: tuple[int, ...], base: Sequence[tuple[int, int, int, int]], step: int, shift: int) -> Night:
    """Game i adds step * i to every player of the base round; base table k sits at table k + shift * i."""
    size = len(base)
    night = []
    for i in range(v):
        g = step * i % v
        tables: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * size
        for k, table in enumerate(base):
            tables[(k + shift * i) % size] = tuple((x + g) % v for x in table)  # type: ignore[assignment]
        night.append((tuple(sorted((b + g) % v for b in out)), tuple(tables)))
    return tuple(night)


def cyclic(v: int, seconds: float, rng: random.Random) -> Iterator[Night]:
    """Nights developed from a base round over Z_v: byes 0 and one or two more at random, the partnerships a random
    starter (each difference class once at most), the tables every way found that keeps the opponents within the
    average rounded down or up (where a starter has none, those that leave some pairs one below), each with every
    step through the group and table shift that keeps the byes even after every game.

    Developed, a base round gives every player the same visits to every table (shift 0) and no trio twice unless two
    of its trios are translates. Not every head count has one: at 10 and 14 players only byes 0 and v/2 stay even
    after every game, and then 14 has no starter (the odd classes 1, 3 and 5 leave three even players to pair among
    themselves) and 10 no tables; the annealing runs take those.
    """
    tables = v // 4
    games = v * (v - 1) // 2
    low, high = 4 * tables * v // games, -(-4 * tables * v // games)
    steps = [s for s in range(1, v // 2 + 1) if math.gcd(s, v) == 1]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out = (0, *sorted(rng.sample(range(2, v - 1), v % 4 - 1)))
        even = [s for s in steps if _byes_even(v, out, s)]
        pairs = _starter(v, out, rng) if even else None
        if pairs is None:
            continue
        for base in _tables(pairs, v, low, high, rng) or _tables(pairs, v, low - 1, high, rng):
            for step in even:
                for shift in range(tables):
                    yield develop(v, out, base, step, shift)


def schedule(night: Night) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """A stored night as a `chart_figures` schedule (N & S against E & W)."""
    return [[((n, s), (e, w)) for n, e, s, w in tables] for _, tables in night]


def check(players: int, night: Night) -> None:
    """Raise AssertionError unless the night seats everyone once a game, at tables of four, with byes within one
    of each other after every game and nobody out twice running."""
    byes: Counter = Counter()
    last: set[int] = set()
    for out, tables in night:
        seated = [x for table in tables for x in table]
        assert sorted(seated + list(out)) == list(range(players))
        assert len(out) == players % 4 and len(tables) == players // 4
        assert not last & set(out)
        last = set(out)
        byes.update(out)
        counts = [byes[x] for x in range(players)]
        assert max(counts) - min(counts) <= 1  # after every game: a night cut short keeps its byes even


def key(found: Figures, published: Figures | None) -> tuple[int, ...]:
    worse = sum(value > getattr(published, name) for name, value in found.items()) if published else 0
    return (worse, *(value for _, value in found.items()))


def search(players: int, options: argparse.Namespace, binary: pathlib.Path) -> Night:
    """The best night found for `players` (the stored one unless something beats it): developed base rounds for
    `options.seconds`, the best of them with their table numbers annealed again for fewer stays, and
    `options.seeds` annealing runs over whole nights."""
    games = full_night(players)
    designs = read_designs(DESIGNS.read_text())
    published = figures(designs[players].schedule) if players in designs else None
    best = NIGHTS.get(players)
    try:
        if best is not None:
            check(players, best)
    except AssertionError:  # stored under rules since tightened
        best = None
    best_key = key(figures(schedule(best)), published) if best else None

    def consider(night: Night, how: str) -> tuple[int, ...]:
        nonlocal best, best_key
        check(players, night)
        found = figures(schedule(night))
        mine = key(found, published)
        if best_key is None or mine < best_key:
            best, best_key = night, mine
            print(f"{players:>3} {how:<22} {found}", flush=True)
        return mine

    top: list[tuple[tuple[int, ...], Night]] = []
    for night in cyclic(players, options.seconds, random.Random(players)):
        mine = consider(night, "developed")
        if all(night != other for _, other in top):
            top = sorted([*top, (mine, night)])[:4]
    with ThreadPoolExecutor(options.workers) as pool:
        jobs = [
            (f"renumbered {k} ({w[2]:g}/{w[4]:g})", pool.submit(renumber, binary, players, night, k, 4_000_000, w))
            for k, (_, night) in enumerate(top)
            for w in ((1e7, 1e5, 1e3, 1e3, 1e3), (1e7, 1e5, 10.0, 10.0, 1e3))
        ]
        jobs += [
            (f"annealed {seed}", pool.submit(anneal, binary, players, games, seed, options.moves, options.weights))
            for seed in range(options.seeds)
        ]
        for how, job in jobs:
            consider(job.result(), how)
    assert best is not None
    return best


def write(nights: dict[int, Night]) -> None:
    lines = [
        '"""Full rotation nights with byes (4n+2 and 4n+3 players), found by `python -m '
        "tournament.engine.rotation_search`.",
        "Generated file.",
        "",
        "NIGHTS[v]: one entry a game, each (the players sitting out, the tables as (N, E, S, W)); N-S and E-W partner.",
        "Players are 0..v-1 (the chart numbers them at random from its seed).",
        '"""',
        "",
        "Night = tuple[tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]], ...]",
        "",
        "NIGHTS: dict[int, Night] = {",
    ]
    for v in sorted(nights):
        lines.append(f"    {v}: (")
        for out, tables in nights[v]:
            lines.append(f"        ({out!r}, {tables!r}),")
        lines.append("    ),")
    lines.append("}")
    DATA.write_text("\n".join(lines) + "\n")
    ruff = pathlib.Path(sys.executable).with_name("ruff")  # the project's own layout for the generated file
    if ruff.exists():
        subprocess.run([str(ruff), "format", "--quiet", str(DATA)], check=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", nargs="*", type=int, default=HEAD_COUNTS)
    parser.add_argument("--seeds", type=int, default=4, help="annealing runs over whole nights")
    parser.add_argument("--seconds", type=float, default=60.0, help="for developed base rounds")
    parser.add_argument("--moves", type=int, default=60_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--weights", type=float, nargs=5, default=WEIGHTS, help="partners, opponents, visits, trios, stays"
    )
    options = parser.parse_args(argv)
    nights = dict(NIGHTS)
    with tempfile.TemporaryDirectory() as directory:
        binary = compile_annealer(pathlib.Path(directory))
        for v in options.players:
            if v % 4 not in (2, 3):
                sys.exit(f"{v} players: only 4n+2 and 4n+3 head counts are searched (the rest are whist charts).")
            nights[v] = search(v, options, binary)
            write(nights)


if __name__ == "__main__":
    main()
