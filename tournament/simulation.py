"""Random but legal euchre play for rehearsals, tests and benchmarks. Pure Python, no Django."""

from __future__ import annotations

import random
from dataclasses import dataclass

from scoring.rules import SEATS, SEATS_OF, Ruleset, next_dealer, other, peppers_played, side_of

# How many tricks the makers take (euchre, 0..5): most make their point, some march, a few are euchred.
TRICK_WEIGHTS = (2, 5, 13, 35, 25, 20)
# Bid euchre (0..6 tricks; doubled for a double deck's 12).
BID_TRICK_WEIGHTS = (2, 4, 10, 24, 28, 20, 12)


@dataclass(frozen=True)
class PlayedHand:
    dealer: str
    maker: str
    makers: str
    tricks: int
    alone: bool = False
    blind: bool = False
    defender_alone: str | None = None
    bid: int | None = None
    pepper: str | None = None


def random_hand(rng: random.Random, dealer: str, rules: Ruleset) -> PlayedHand:
    """One hand a table might play under `rules`."""
    maker = rng.choice(SEATS)
    makers = side_of(maker)
    if rules.bidding:
        tricks = rng.choices(range(7), weights=BID_TRICK_WEIGHTS)[0]
        if rules.tricks_per_hand == 12:  # a double deck: twice as many, give or take one
            tricks = min(12, tricks * 2 + rng.randint(0, 1))
        peppers = peppers_played(rules)
        if peppers and rng.random() < 0.05:
            return PlayedHand(dealer, maker, makers, tricks, alone=True, pepper=rng.choice(peppers))
        bid = max(rules.min_bid, min(rules.tricks_per_hand, tricks + rng.choice((-1, 0, 0, 1))))
        return PlayedHand(dealer, maker, makers, tricks, bid=bid)
    tricks = rng.choices(range(6), weights=TRICK_WEIGHTS)[0]
    alone = rng.random() < 0.08
    blind = alone and bool(rules.blind_loner_march) and rng.random() < 0.1
    defender_alone = None
    if rules.defend_alone != "off" and (alone or rules.defend_alone == "any") and rng.random() < 0.1:
        defender_alone = rng.choice(SEATS_OF[other(makers)])
    return PlayedHand(dealer, maker, makers, tricks, alone, blind, defender_alone)


def random_game(rng: random.Random, hands: int, rules: Ruleset) -> list[PlayedHand]:
    """`hands` hands, the deal passing to the left from a random first dealer."""
    dealer = rng.choice(SEATS)
    game = []
    for _ in range(hands):
        game.append(random_hand(rng, dealer, rules))
        dealer = next_dealer(dealer)
    return game


FIRST = (
    "Ann Bob Carol Dave Edna Frank Grace Hank Irene Jack Karen Leo Mary Ned Olive Paul Queenie Ray Sue Tom "
    "Una Vic Wanda Walt Yvonne Zack Chloé Łukasz Renée José Siobhán Bjørn Zoë Anaïs Dario Maeve"
).split()
LAST = (
    "Kowalski Martin Nguyen O'Brien Schultz Dubois Żółć Smith Tremblay Brown MacLeod Novak Rossi Becker "
    "Gagnon Hill Walsh Moreau Fischer Lindqvist"
).split()


def player_names(count: int, rng: random.Random) -> list[str]:
    """`count` distinct made-up names, some with accents, for rehearsal nights."""
    pool = [f"{first} {last}" for first in FIRST for last in LAST]
    if count <= len(pool):
        return rng.sample(pool, count)
    return rng.sample(pool, len(pool)) + [f"Player {n}" for n in range(len(pool) + 1, count + 1)]
