"""Random but legal euchre play for rehearsals, tests and benchmarks. Pure Python, no Django."""

from __future__ import annotations

import random
from dataclasses import dataclass

SEATS = ("N", "E", "S", "W")
# How many tricks the makers take: most make their point, some march, a few are euchred.
TRICK_WEIGHTS = (2, 5, 13, 35, 25, 20)


@dataclass(frozen=True)
class PlayedHand:
    dealer: str
    makers: str
    tricks: int
    alone: bool


def random_game(rng: random.Random, hands: int) -> list[PlayedHand]:
    """`hands` hands, the deal passing clockwise from a random first dealer."""
    first = rng.randrange(4)
    return [
        PlayedHand(
            dealer=SEATS[(first + number) % 4],
            makers=rng.choice(("NS", "EW")),
            tricks=rng.choices(range(6), weights=TRICK_WEIGHTS)[0],
            alone=rng.random() < 0.08,
        )
        for number in range(hands)
    ]


FIRST = [
    "Ann",
    "Bob",
    "Carol",
    "Dave",
    "Edna",
    "Frank",
    "Grace",
    "Hank",
    "Irene",
    "Jack",
    "Karen",
    "Leo",
    "Mary",
    "Ned",
    "Olive",
    "Paul",
    "Queenie",
    "Ray",
    "Sue",
    "Tom",
    "Una",
    "Vic",
    "Wanda",
    "Walt",
    "Yvonne",
    "Zack",
    "Chloé",
    "Łukasz",
    "Renée",
    "José",
    "Siobhán",
    "Bjørn",
    "Zoë",
    "Anaïs",
    "Dario",
    "Maeve",
]
LAST = [
    "Kowalski",
    "Martin",
    "Nguyen",
    "O'Brien",
    "Schultz",
    "Dubois",
    "Żółć",
    "Smith",
    "Tremblay",
    "Brown",
    "MacLeod",
    "Novak",
    "Rossi",
    "Becker",
    "Gagnon",
    "Hill",
    "Walsh",
    "Moreau",
    "Fischer",
    "Lindqvist",
]


def player_names(count: int, rng: random.Random) -> list[str]:
    """`count` distinct made-up names, some with accents, for rehearsal nights."""
    pool = [f"{first} {last}" for first in FIRST for last in LAST]
    if count <= len(pool):
        return rng.sample(pool, count)
    return rng.sample(pool, len(pool)) + [f"Player {n}" for n in range(len(pool) + 1, count + 1)]
