"""Print the addresses phones on the venue's Wi-Fi should open."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournament.addresses import lan_addresses, phone_address


class Command(BaseCommand):
    help = "Show the URLs of this laptop on the local network: the one phones use first."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")

    def handle(self, *args, port: str, **options):
        self.stdout.write("")
        self.stdout.write("Head Table is running.")
        phones = phone_address(port=port)
        if phones.reachable:
            self.stdout.write(f"  Open this on the organizer's laptop and on phones:  {phones.url}")
            self.stdout.write("  (Every printed QR code and link uses it.)")
            for ip in lan_addresses()[1:]:
                self.stdout.write(f"  Also on this laptop's other networks:  http://{ip}:{port}/")
        else:
            self.stdout.write("  No network found: phones cannot reach this laptop. Join the venue's Wi-Fi (or")
            self.stdout.write("  start its hotspot) before printing the table cards, then start the night again.")
        self.stdout.write(f"  On this laptop only:  http://127.0.0.1:{port}/")
        self.stdout.write("")
