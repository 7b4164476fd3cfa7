"""Which `Host` names the server answers to: the loopback's and the address it listens on (a
page on another site that renames itself to our address, DNS rebinding, is turned away)."""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("", "0.0.0.0", "::")  # listen on every interface
_HOST_HEADER = re.compile(r"(?:\[(?P<v6>[^\]]*)\]|(?P<name>[a-z0-9._-]*))"
                          r"(?::(?P<port>[0-9]{1,5}))?")


def host_name(header: str) -> str:
    """The name part of a Host header or a --host value: 'LOCALHOST:8765' -> 'localhost',
    '[::1]:8765' -> '::1'."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1:text.find("]")] if "]" in text else ""
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def header_name(header: str) -> str | None:
    """The name of a Host header, read exactly: NAME, NAME:PORT, [IPv6] or [IPv6]:PORT
    ('LOCALHOST:8765' -> 'localhost'); None for anything else ('localhost:evil.example',
    '[::1]evil.example', 'localhost:80:80')."""
    match = _HOST_HEADER.fullmatch(header.strip().lower())
    if match is None or int(match["port"] or 0) > 65535:
        return None
    if match["v6"] is not None:
        return match["v6"] if ":" in match["v6"] and _is_address(match["v6"]) else None
    return match["name"]


def is_loopback(host: str) -> bool:
    """Whether listening on `host` keeps the server to this machine."""
    name = host_name(host)
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AllowedHosts:
    """The loopback's names and the --host given; listening on every interface (0.0.0.0),
    also this machine's own names and the address a connection arrived on."""

    names: frozenset[str]
    any_interface: bool = False

    @classmethod
    def serving(cls, host: str) -> AllowedHosts:
        name = host_name(host)
        names = {*LOOPBACK_NAMES, name}
        if name in WILDCARDS:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        return cls(frozenset(names - {""}), name in WILDCARDS)

    def allows(self, header: str, local_address: str | None = None) -> bool:
        """Whether a request whose Host header is `header`, arriving on `local_address`, is
        served."""
        name = header_name(header)
        if name is None:
            return False
        if name in self.names:
            return True
        return (self.any_interface and local_address is not None and _is_address(name)
                and name == host_name(local_address))
