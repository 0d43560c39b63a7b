"""The address phones use to reach Head Table: on every printed link and QR code, whatever address the organizer's
own browser used.

Chosen once, in this order: the `HEADTABLE_PHONE_URL` setting (a hosted server's public address, or a venue's
fixed one); the address the page was opened at, unless that is this laptop's own loopback address; else this
laptop's address on the local network (Wi-Fi first), with the server's port. When the laptop has no network
address, the answer says so: nothing printed then can be opened by a phone.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass

import psutil
from django.conf import settings
from django.http.request import split_domain_port

# Interfaces a phone never reaches the laptop through: containers, VPNs, virtual machines.
_VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vbox", "tun", "tap", "wg", "zt", "lxc", "cni", "flannel")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the likeliest for phones first (Wi-Fi, then cable)."""
    stats = psutil.net_if_stats()
    found: list[tuple[int, str]] = []
    for name, addresses in psutil.net_if_addrs().items():
        if name.lower().startswith(_VIRTUAL) or (name in stats and not stats[name].isup):
            continue
        for address in addresses:
            if address.family.name != "AF_INET":
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local:
                continue
            rank = 0 if name.lower().startswith(("wl", "wi")) else 1 if ip.is_private else 2
            found.append((rank, str(ip)))
    return [ip for _, ip in sorted(set(found), key=lambda item: (item[0], ipaddress.ip_address(item[1])))]


def _is_loopback(host: str) -> bool:
    name, _ = split_domain_port(host)
    name = name.strip("[]")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class PhoneAddress:
    url: str  # ends with "/": "http://192.168.1.20:8000/"
    reachable: bool  # False: only this laptop can open it (no network address found)
    opened_on_laptop: bool  # the page was opened at a loopback address; `url` is the one phones use instead

    def of(self, path: str) -> str:
        """The full address of `path` ("/t/abc/") for a phone."""
        return self.url.rstrip("/") + path


def phone_address(request=None, *, port: str | None = None) -> PhoneAddress:
    """The address phones use (see the module's note); `request`: the organizer's page, when there is one."""
    configured = getattr(settings, "PHONE_URL", "")
    on_laptop = request is not None and _is_loopback(request.get_host())
    if configured:
        return PhoneAddress(configured.rstrip("/") + "/", True, on_laptop)
    if request is not None and not on_laptop:
        return PhoneAddress(request.build_absolute_uri("/"), True, False)
    if port is None:  # the port the page was opened at (the server's), else the run command's
        port = (split_domain_port(request.get_host())[1] or request.get_port()) if request is not None else ""
        port = port or os.environ.get("PORT", "8000")
    addresses = lan_addresses()
    if addresses:
        return PhoneAddress(f"http://{addresses[0]}:{port}/", True, on_laptop)
    fallback = request.build_absolute_uri("/") if request is not None else f"http://127.0.0.1:{port}/"
    return PhoneAddress(fallback, False, on_laptop)
