"""Print the addresses phones on the venue's Wi-Fi should open."""

from __future__ import annotations

import ipaddress

import psutil
from django.core.management.base import BaseCommand


def lan_addresses() -> list[str]:
    found = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family.name != "AF_INET":
                continue
            ip = ipaddress.ip_address(address.address)
            if not ip.is_loopback and not ip.is_link_local:
                found.append(str(ip))
    return sorted(set(found))


class Command(BaseCommand):
    help = "Show the URLs of this laptop on the local network."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")

    def handle(self, *args, port: str, **options):
        self.stdout.write("")
        self.stdout.write("Head Table is running.")
        self.stdout.write(f"  On this laptop:  http://127.0.0.1:{port}/")
        addresses = lan_addresses()
        for ip in addresses:
            self.stdout.write(f"  On phones on the same Wi-Fi:  http://{ip}:{port}/")
        if not addresses:
            self.stdout.write("  (No network found: join the venue's Wi-Fi so phones can reach this laptop.)")
        self.stdout.write("")
