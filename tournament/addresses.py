"""The address phones use to reach Head Table: on every printed link and QR code, whatever address the organizer's
own browser used.

Chosen once, in this order: the `HEADTABLE_PHONE_URL` setting (a hosted server's public address, or a venue's
fixed one); the address the page was opened at, when that is one of this machine's own (one of its network
addresses, its name, or a name `DJANGO_ALLOWED_HOSTS` lists) and not its loopback address; else this laptop's
address on the local network (Wi-Fi first), with the server's port. When the laptop has no network address, the
answer says so: nothing printed then can be opened by a phone.

The address the page was opened at is the browser's word (its Host header): a forged one ("evil.example") would
otherwise be printed on every table card, so a name that is not this machine's is never used in a link. Nor is
this machine's own address with a port the server does not listen on ("192.168.1.20:9999" when it serves on 8000):
the port on a link is the one the request came in on (SERVER_PORT, from the server's socket), except for a name
the settings list, which a proxy in front of the server may serve on a port of its own.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass

import psutil
from django.conf import settings
from django.http.request import split_domain_port, validate_host

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


def _machine_addresses() -> set[str]:
    """Every address of this machine, on every interface (virtual ones too: they are still its own)."""
    found = set(lan_addresses())
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family in (socket.AF_INET, socket.AF_INET6):
                found.add(address.address.split("%")[0].lower())  # an IPv6 link-local's "%wlan0" dropped
    return found


def own_host(host: str, server_port: str = "") -> bool:
    """Whether `host` (a Host header: "192.168.1.20:8000", "euchre.example.org") names this machine: its loopback,
    one of its network addresses, its own name (and the ".local" name the network gives it), the configured phone
    address, or a name the settings' ALLOWED_HOSTS list (their "*", any name at all, excepted). With `server_port`
    (the port the request came in on), one of the machine's own addresses or names is its own only at that port
    (a Host without a port names port 80)."""
    if _is_loopback(host):
        return True
    name, port = split_domain_port(host)
    if not name:
        return False
    name = name.strip("[]").lower()
    machine = socket.gethostname().lower()
    if name in _machine_addresses() or (
        machine and name in {machine, f"{machine}.local", f"{machine.split('.')[0]}.local"}
    ):
        return not server_port or (port or "80") == str(server_port)
    configured = getattr(settings, "PHONE_URL", "")
    patterns = [pattern for pattern in settings.ALLOWED_HOSTS if pattern != "*"]
    if configured:
        patterns.append(split_domain_port(configured.split("://", 1)[-1].split("/", 1)[0])[0])
    return validate_host(name, patterns)


@dataclass(frozen=True)
class PhoneAddress:
    url: str  # ends with "/": "http://192.168.1.20:8000/"
    reachable: bool  # False: only this laptop can open it (no network address found)
    opened_on_laptop: bool  # the page was opened at a loopback address; `url` is the one phones use instead
    # The page was opened at a name that is not this machine's (a forged Host header, or a name DJANGO_ALLOWED_HOSTS
    # does not list): that name, shown to say why the links use `url` instead; "" otherwise.
    not_ours: str = ""

    def of(self, path: str) -> str:
        """The full address of `path` ("/t/abc/") for a phone."""
        return self.url.rstrip("/") + path


def phone_address(request=None, *, port: str | None = None) -> PhoneAddress:
    """The address phones use (see the module's note); `request`: the organizer's page, when there is one."""
    configured = getattr(settings, "PHONE_URL", "")
    host = request.get_host() if request is not None else ""
    on_laptop = request is not None and _is_loopback(host)
    if configured:
        return PhoneAddress(configured.rstrip("/") + "/", True, on_laptop)
    server_port = str(request.META.get("SERVER_PORT", "")) if request is not None else ""
    not_ours = host if request is not None and not on_laptop and not own_host(host, server_port) else ""
    if request is not None and not on_laptop and not not_ours:
        return PhoneAddress(request.build_absolute_uri("/"), True, False)
    if port is None:  # the port of the socket the request came in on (never the one the browser named), else the
        port = server_port  # run command's
        port = port or os.environ.get("PORT", "8000")
    addresses = lan_addresses()
    if addresses:
        return PhoneAddress(f"http://{addresses[0]}:{port}/", True, on_laptop, not_ours)
    fallback = f"http://127.0.0.1:{port}/" if request is None or not_ours else request.build_absolute_uri("/")
    return PhoneAddress(fallback, False, on_laptop, not_ours)
