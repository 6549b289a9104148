"""Request bodies the web door reads, bounded.

Nothing a player sends is large: a form or a JSON command holds a move, a
comment (the command layer takes at most 100,000 characters) and a few
words. A body past MAX_BODY_BYTES is refused with 413 before it is read into
memory, whether it announces its length or streams it in chunks.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 1024 * 1024  # a 100,000-character comment, percent-encoded, fits


class BodyTooLarge(Exception):
    """Raised from `receive` when a streamed body passes the limit."""


async def refuse(send: Send) -> None:
    most = MAX_BODY_BYTES // 1024
    text = f"The request is too large: this server reads {most} kB. Shorten the comment."
    body = json.dumps({"error": text})
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})


class BodyLimit:
    """ASGI middleware: 413 for bodies over MAX_BODY_BYTES."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await refuse(send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await refuse(send)
