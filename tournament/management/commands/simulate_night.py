"""Play a whole night through the same services the web pages call, with random legal hands.

The organizer's rehearsal tool, and the harness for tests and benchmarks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scoring import rules
from scoring.selectors import night_record
from scoring.services import HandInput, hand_record, table_result_submit
from tournament import services
from tournament.models import Night
from tournament.simulation import player_names, random_game


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
        services.round_start(round_=round_)
        tables = sorted(set(round_.seatings.values_list("table", flat=True)))
        games = {table: random_game(rng, hands, ruleset) for table in tables}
        if entry == "hands":
            # Hand by hand across the room, the head table first: its last hand rings the bell and every other
            # table then records the hand it was playing.
            for number in range(hands):
                for table in tables:
                    hand_record(round_=round_, table=table, hand=HandInput.of(games[table][number]))
        else:
            for table, game in games.items():
                scores = [rules.score_hand(HandInput.of(hand).as_rules_hand(), ruleset) for hand in game]
                table_result_submit(
                    round_=round_,
                    table=table,
                    ns_points=sum(score.ns for score in scores),
                    ew_points=sum(score.ew for score in scores),
                    last_hand_winner=scores[-1].winner,
                )
        round_ = services.round_close(round_=round_)
    night.refresh_from_db()
    return night


def _game_counts(values: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in values:
        game, _, count = value.partition(":")
        if not (game.isdigit() and count.isdigit()) or int(game) < 2:
            raise ValidationError(f"Write GAME:COUNT with GAME 2 or more, not {value!r}.")
        counts[int(game)] = counts.get(int(game), 0) + int(count)
    return counts


class Command(BaseCommand):
    help = "Play a whole night with random legal results and write it as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--movement", default="progressive", choices=Night.Movement.values)
        parser.add_argument("--hands", type=int, default=8, help="Hands per game.")
        parser.add_argument("--scoring", default="standard", choices=list(rules.PRESETS))
        parser.add_argument("--entry", default="hands", choices=["hands", "games"])
        parser.add_argument("--name", default="")
        parser.add_argument(
            "--arrive", action="append", default=[], metavar="GAME:COUNT", help="COUNT players join before GAME."
        )
        parser.add_argument(
            "--leave", action="append", default=[], metavar="GAME:COUNT", help="COUNT players leave before GAME."
        )
        parser.add_argument("--json", dest="json_file", help="Write the night here ('-' for standard output).")

    def handle(self, *args, json_file, **options):
        wanted = {key: options[key] for key in ("players", "rounds", "seed", "movement", "hands", "scoring", "entry")}
        try:
            changes = {key: _game_counts(options[key]) for key in ("arrive", "leave")}
            night = simulate(**wanted, name=options["name"], **changes)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        record = night_record(night)
        if json_file == "-":
            self.stdout.write(json.dumps(record, indent=1, ensure_ascii=False))
            return
        if json_file:
            with open(json_file, "w", encoding="utf-8") as handle:
                json.dump(record, handle, indent=1, ensure_ascii=False)
            self.stderr.write(f"Wrote {json_file}")
        top = record["standings"][0] if record["standings"] else None
        self.stdout.write(f"Played night {night.pk}: {wanted['players']} players, {wanted['rounds']} games.")
        if top:
            self.stdout.write(f"Leader: player {top['player']} with {top['total']} points.")
