"""The client's network address, as far as it can be trusted (docs/security.md, "Sign-in
limits and the proxy").

A client can put anything in X-Forwarded-For; only the values our own proxies added are
true. Each proxy appends the address it received the request from, so with
`TRUSTED_PROXY_COUNT` proxies in front of the web processes the client's address is the value
that many hops from the right. Everything left of it was written by the client (or by
proxies we do not run) and is ignored. With no proxy (0, the default) the connection's own
address is used and the header never is. Daphne must not be started with --proxy-headers:
that puts the header's *first* value, the client's choice, in REMOTE_ADDR.
"""

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    remote = request.META.get("REMOTE_ADDR") or "unknown"
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count <= 0 or not forwarded.strip():
        return remote
    hops = [hop.strip() for hop in forwarded.split(",")]
    # Fewer values than proxies: the request skipped the outer ones, and the leftmost value
    # is the one our first proxy added.
    candidate = hops[-min(count, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        # Not an address: a proxy that is not set up as docs/security.md says. The proxy's own
        # address then stands for everyone behind it (slower for them, never forgeable).
        return remote


def network_of(address: str) -> str:
    """What the per-address limits count: an IPv4 address, or an IPv6 address's /64 (one
    home or school is given a whole /64, and could otherwise change address at every try)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))
