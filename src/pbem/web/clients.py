"""Who the client is: the address the guessing throttle counts failures
under (server/players/throttle.py).

The peer's address, unless the peer is one of the proxies the settings
trust (`trusted_proxies`): then X-Forwarded-For, read from the right, past
the trusted proxies, names the client (the rightmost address no trusted
proxy appended for itself). A header from anyone else is ignored: else a
guesser would name a new client on each try and never be counted.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import Request

from ..settings import Settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(settings: Settings) -> tuple[Network, ...]:
    return settings.trusted_networks


def _trusted(address: str, networks: tuple[Network, ...]) -> bool | None:
    """Whether `address` is a trusted proxy (None: not an address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: list[str], networks: tuple[Network, ...]) -> str:
    """The client's address, from the peer's and the X-Forwarded-For headers
    (in the order received)."""
    if not networks or not _trusted(peer, networks):
        return peer
    client = peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        trusted = _trusted(hop, networks)
        if trusted is None:
            return client  # (garbage: the trusted proxy to its right is as far as is known)
        client = hop
        if not trusted:
            return client
    return client


def client_source(request: Request) -> str:
    """The throttle's source for this request ("" with no peer known)."""
    if request.client is None:
        return ""
    settings: Settings = request.app.state.settings
    networks = _networks(settings)
    forwarded = request.headers.getlist("x-forwarded-for") if networks else []
    return f"web {client_address(request.client.host, forwarded, networks)}"
