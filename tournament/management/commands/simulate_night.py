"""Play a whole night through the same services the web pages call, with random legal hands.

The organizer's rehearsal tool, and the harness for tests and benchmarks.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring import rules
from tournament.models import Night
from tournament.rehearsal import simulate
from tournament.selectors import night_record, night_standings


def _game_counts(values: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in values:
        game, _, count = value.partition(":")
        if not (game.isdecimal() and count.isdecimal()) or int(game) < 2:
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
        parser.add_argument("--hands", type=int, default=8, help="The head table's hands a game.")
        parser.add_argument(
            "--target",
            type=int,
            help="A table's game ends at this many points (0: no target; not given: 10 on winners-stay, else none).",
        )
        parser.add_argument(
            "--no-head-table",
            dest="head_table",
            action="store_false",
            default=None,
            help="The head table's last hand does not ring the bell (it plays on like any table).",
        )
        parser.add_argument(
            "--bell-after",
            type=int,
            metavar="HANDS",
            help="The organizer rings the bell once every table has played this many hands (a stand-in for the timer).",
        )
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
        keys = ("players", "rounds", "seed", "movement", "hands", "scoring", "entry", "target", "head_table")
        wanted = {key: options[key] for key in keys}
        try:
            changes = {key: _game_counts(options[key]) for key in ("arrive", "leave")}
            night = simulate(**wanted, bell_after=options["bell_after"], name=options["name"], **changes)
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
        self.stdout.write(f"{night.game_end().words()}.")
        for round_ in record["rounds"]:
            self.stdout.write(f"Game {round_['number']} ended: {round_['ended'] or 'not played'}.")
        if top:
            self.stdout.write(f"Leader: player {top['player']} with {top['total']} points, {top['wins']} games won.")
        for prize in night_standings(night).awards:
            self.stdout.write(f"{prize.prize}: {', '.join(prize.names)} ({prize.value}){' (tie)' if prize.tie else ''}")
