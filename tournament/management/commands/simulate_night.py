"""Play a whole night through the same services the web pages call, with random legal hands.

The organizer's rehearsal tool, and the harness for tests and benchmarks.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring import rules
from tournament.engine.money import METHODS, MoneyError, parse_cents
from tournament.models import Club, Night
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


def _money(options) -> dict | None:
    """The fundraiser's settings from the options (None: the night keeps no money)."""
    if not options["price"]:
        return None
    try:
        price = parse_cents(options["price"])
    except MoneyError as error:
        raise ValidationError(f"--price: {error}") from error
    methods = tuple(method.strip() for method in options["methods"].split(",") if method.strip())
    if not methods or any(method not in METHODS for method in methods):
        raise ValidationError(f"--methods: use {', '.join(METHODS)}, separated by commas.")
    return {
        **{"currency": "USD", "pre": price, "door": price, "member": None},
        **{"payouts": options["payouts"], "house_share": options["house"], "methods": methods},
    }


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
        parser.add_argument("--price", help="A fundraiser: the entry price (e.g. 20 or 20.50); every player pays it.")
        parser.add_argument("--methods", default="cash", help="How players pay, drawn at random: cash,card,e-transfer")
        parser.add_argument("--payouts", default="", help="Prize money, e.g. 'high 50%%, second 30%%, low $10'.")
        parser.add_argument("--house", type=int, default=0, help="The house keeps this percent of the entry money.")
        parser.add_argument(
            "--never-pairs",
            type=float,
            default=0.0,
            metavar="SHARE",
            help="Partner wishes: draw never-partner pairs, as many as this share of the players (e.g. 0.05).",
        )
        parser.add_argument(
            "--two-groups",
            action="store_true",
            help="Partner wishes: two groups of equal size (red and black), every partnership one of each.",
        )
        parser.add_argument(
            "--fill",
            default="byes",
            choices=Night.Fill.values,
            help="Not a multiple of four: byes, a house player, or tables of three (threes).",
        )
        parser.add_argument("--json", dest="json_file", help="Write the night here ('-' for standard output).")
        parser.add_argument("--club", default="", help="The club's short address (on a server of several clubs).")

    def handle(self, *args, json_file, **options):
        club = Club.objects.filter(slug=options["club"].lower()).first() if options["club"] else None
        if options["club"] and club is None:
            raise CommandError(f"No club has the short address {options['club']!r}.")
        keys = ("players", "rounds", "seed", "movement", "hands", "scoring", "entry", "target", "head_table")
        wanted = {key: options[key] for key in keys}
        try:
            changes = {key: _game_counts(options[key]) for key in ("arrive", "leave")}
            money = _money(options)
            night = simulate(
                **wanted,
                bell_after=options["bell_after"],
                name=options["name"],
                money=money,
                never_share=options["never_pairs"],
                two_groups=options["two_groups"],
                fill=options["fill"],
                club=club,
                **changes,
            )
        except ValidationError as error:
            words = " ".join(error.messages)
            if club is None and "several clubs" in words:
                words += " Name it with --club <short address>."
            raise CommandError(words) from error
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
        wishes = record["wishes"]
        if wishes["never"] or wishes["always"] or wishes["groups"]:
            broken = len(wishes["breaches"])
            self.stdout.write(
                f"Partner wishes: {broken} broken, {wishes['forced']} by the movement's own rule, "
                f"{wishes['avoidable']} the seating could have kept."
            )
        if top:
            self.stdout.write(f"Leader: player {top['player']} with {top['total']} points, {top['wins']} games won.")
        for prize in night_standings(night).awards:
            self.stdout.write(f"{prize.prize}: {', '.join(prize.names)} ({prize.value}){' (tie)' if prize.tie else ''}")
        if money:
            cash = record["money"]
            self.stdout.write(f"Entry money: {cash['net'] / 100:.2f} net, by method {cash['by_method']}.")
            for paid in cash["prizes"]:
                split = f" ({paid['winners']} × {paid['each'] / 100:.2f}, {paid['left_over']}c left over)"
                self.stdout.write(f"{paid['prize']}: {paid['total'] / 100:.2f}{split if paid['winners'] > 1 else ''}")
