"""A whole night rehearsed with random legal hands, through the same services and game's life the pages use.

For `manage.py simulate_night`, the tests and the benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from django.db import transaction

from scoring import rules

from . import game, services
from .game import hand_record, table_result_submit
from .models import Night
from .simulation import player_names, random_game


@transaction.atomic
def simulate(
    *,
    players: int,
    rounds: int,
    seed: int,
    movement: str = "progressive",
    hands: int = 8,
    scoring: str = "standard",
    entry: str = "hands",
    name: str = "",
    arrive: Mapping[int, int] | None = None,
    leave: Mapping[int, int] | None = None,
) -> Night:
    """Play a night with random legal hands; a failure leaves nothing behind.

    `arrive` and `leave` map a game number to how many players join or go just before it is played.
    """
    rng = random.Random(seed)
    night = services.night_create(
        name=name or f"Rehearsal: {players} players, seed {seed}",
        movement=movement,
        games=rounds,
        hands_per_game=hands,
        scoring=scoring,
        auto_advance=False,  # the rehearsal closes each game itself, so arrivals can join the very next one
    )
    ruleset = rules.Ruleset.from_dict(night.rules)
    names = player_names(players + sum((arrive or {}).values()), rng)
    services.players_register(night=night, names=names[:players])
    late = names[players:]
    round_ = services.night_draw(night=night, seed=seed)
    while round_ is not None:
        coming = (arrive or {}).get(round_.number, 0)
        if coming:
            services.players_register(night=night, names=late[:coming])
            late = late[coming:]
        going = (leave or {}).get(round_.number, 0)
        if going:
            here = list(night.entries.filter(active=True, player__house=False).order_by("pk"))
            for entry in random.Random(seed + round_.number).sample(here, min(going, max(0, len(here) - 4))):
                services.entry_set_active(entry=entry, active=False)
        round_.refresh_from_db()
        game.round_start(round_=round_)
        tables = sorted(set(round_.seatings.values_list("table", flat=True)))
        games = {table: random_game(rng, hands, ruleset) for table in tables}
        if entry == "hands":
            # Hand by hand across the room, the head table first: its last hand rings the bell, every other
            # table then records the hand it was playing, and each says "Game over" (as the keeper would).
            for number in range(hands):
                for table in tables:
                    hand_record(round_=round_, table=table, hand=rules.Hand.of(games[table][number]))
            for table in tables:
                game.table_finish(round_=round_, table=table)
        else:
            for table, played in games.items():
                scores = [rules.score_hand(rules.Hand.of(hand), ruleset) for hand in played]
                table_result_submit(
                    round_=round_,
                    table=table,
                    ns_points=sum(score.ns for score in scores),
                    ew_points=sum(score.ew for score in scores),
                    last_hand_winner=scores[-1].winner,
                )
        round_ = game.round_close(round_=round_)
    night.refresh_from_db()
    return night
