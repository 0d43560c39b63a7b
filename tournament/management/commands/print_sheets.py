"""Print any of a night's sheets to a PDF file, for scripted printing and benchmarks."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.addresses import phone_address
from tournament.models import Night
from tournament.sheets import printing


class Command(BaseCommand):
    help = (
        "Write one of a night's sheets as a PDF: tally cards, score sheets, table cards, seating, standings, "
        "prizes, reconciliation, chart, a player's results."
    )

    def add_arguments(self, parser):
        parser.add_argument("night", type=int, help="The night's number (as in its page's address).")
        parser.add_argument(
            "--sheet",
            required=True,
            choices=[key for key, sheet in printing.SHEETS.items() if sheet.kind == printing.PDF],
        )
        parser.add_argument("--round", type=int, dest="game", help="The game for seating and score sheets.")
        parser.add_argument("--paper", choices=Night.Paper.values, help="Default: the night's own setting.")
        parser.add_argument("--per-page", type=int, choices=(1, 2, 4), default=2, help="Tally cards a page.")
        parser.add_argument(
            "--base-url",
            help="The address phones use, for the QR codes on table cards and score sheets. Default: "
            "HEADTABLE_PHONE_URL, else this laptop's network address with the port in PORT (8000).",
        )
        parser.add_argument(
            "--player",
            default="",
            help="For --sheet player-results: the player's results link's token (its last part).",
        )
        parser.add_argument("--out", required=True, type=Path)

    def handle(self, *args, **options):
        night = Night.objects.filter(pk=options["night"]).first()
        if night is None:
            raise CommandError(f"There is no night {options['night']}.")
        if options["paper"]:
            night.paper = options["paper"]  # this print only; the night's setting is not changed
        if options["sheet"] == "chart" and not night.chart:
            raise CommandError(f"Night {night.pk} has no rotation chart: only a rotation night's chart can be printed.")
        game = options["game"]
        if game is not None and not night.rounds.filter(number=game).exists():
            raise CommandError(f"Game {game} has not been seated.")
        phones = phone_address()
        if not options["base_url"] and not phones.reachable:
            self.stderr.write(
                f"This laptop has no network address: the codes printed now ({phones.url}) open only on this "
                "laptop. Join the venue's Wi-Fi, or give --base-url."
            )
        chosen = {"base_url": options["base_url"] or phones.url, "game": game, "per_page": options["per_page"]}
        if options["player"]:
            chosen["player"] = options["player"]
        try:
            content = printing.sheet_bytes(night, options["sheet"], **chosen)
        except ValueError as refused:
            raise CommandError(str(refused)) from None
        options["out"].write_bytes(content)
        self.stdout.write(f"Wrote {options['out']} ({len(content):,} bytes).")
