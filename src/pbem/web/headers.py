"""Security headers on every answer of the web door.

The pages carry no inline script or style, so the Content-Security-Policy
allows scripts and styles from this site only: an injected `<script>` would
not run. Pages may not be framed (no clickjacking), answers are not sniffed
for another type, and links to other sites carry no path of ours. The API
documentation page, whose Swagger UI starts from one inline script, gets
that script's nonce instead.
"""

from __future__ import annotations

import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
FIXED = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def docs_policy(nonce: str) -> str:
    """The API documentation's policy: its one inline script, by nonce;
    Swagger UI sets inline styles."""
    return (
        f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'"
    )


class SecurityHeaders:
    """ASGI middleware adding the headers above (a policy the answer set
    itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", POLICY.encode()))
                headers += [(name, value) for name, value in FIXED if name not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def nonce() -> str:
    return secrets.token_urlsafe(16)
