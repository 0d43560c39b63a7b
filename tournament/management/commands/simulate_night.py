"""Play a whole night through the same services the web pages call, with random legal hands.

The organizer's rehearsal tool, and the harness for tests and benchmarks.
"""

from __future__ import annotations

import json
import random

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scoring.selectors import night_record
from scoring.services import HandInput, table_result_submit
from tournament import services
from tournament.models import Night
from tournament.simulation import player_names, random_game


@transaction.atomic
def simulate(
    *, players: int, rounds: int, seed: int, movement: str = "progressive", hands: int = 8, name: str = ""
) -> Night:
    rng = random.Random(seed)
    night = services.night_create(
        name=name or f"Rehearsal: {players} players, seed {seed}", movement=movement, games=rounds, hands_per_game=hands
    )
    services.players_register(night=night, names=player_names(players, rng))
    round_ = services.night_draw(night=night, seed=seed)
    while round_ is not None:
        services.round_start(round_=round_)
        for table in sorted(set(round_.seatings.values_list("table", flat=True))):
            game = [HandInput(h.dealer, h.makers, h.tricks, h.alone) for h in random_game(rng, hands)]
            table_result_submit(round_=round_, table=table, hands=game)
        round_ = services.round_close(round_=round_)
    night.refresh_from_db()
    return night


class Command(BaseCommand):
    help = "Play a whole night with random legal results and write it as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--movement", default="progressive", choices=Night.Movement.values)
        parser.add_argument("--hands", type=int, default=8)
        parser.add_argument("--name", default="")
        parser.add_argument("--json", dest="json_file", help="Write the night here ('-' for standard output).")

    def handle(self, *args, players, rounds, seed, movement, hands, name, json_file, **options):
        try:
            night = simulate(players=players, rounds=rounds, seed=seed, movement=movement, hands=hands, name=name)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        record = night_record(night)
        if json_file == "-":
            self.stdout.write(json.dumps(record, indent=1, ensure_ascii=False))
        elif json_file:
            with open(json_file, "w", encoding="utf-8") as handle:
                json.dump(record, handle, indent=1, ensure_ascii=False)
            self.stderr.write(f"Wrote {json_file}")
        if json_file != "-":
            top = record["standings"][0] if record["standings"] else None
            self.stdout.write(f"Played night {night.pk}: {players} players, {rounds} games. ")
            if top:
                self.stdout.write(f"Leader: player {top['player']} with {top['total']} points.")
