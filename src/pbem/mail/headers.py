"""The email policy pbem reads and writes mail with: the email package's
default (`email.policy.default`), each header value parsed once.

The package parses a header anew whenever it is stored or looked up:
finding a mail's body reads its Content-Type about ten times, and building
a board mail stores Content-Type, MIME-Version and the like over and over
as its parts are added. Parsing was most of the CPU of reading a short
mail and a quarter of composing a board mail. A parsed header is read-only
(a string with attributes), so one parse serves every look-up and every
mail with the same value.
"""

from __future__ import annotations

import email.policy
from email.headerregistry import BaseHeader
from email.policy import EmailPolicy
from functools import lru_cache
from typing import Any


class ParsedOnce(EmailPolicy):
    """`EmailPolicy` whose header parses are remembered by name and value."""

    def header_fetch_parse(self, name: str, value: Any) -> Any:
        if hasattr(value, "name"):
            return value
        return _fetched(name, value)

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if type(value) is not str:  # a header object, or something the package refuses
            return super().header_store_parse(name, value)
        return name, _stored(name, value)


# Values up to inbound.MAX_FIELD bytes: a few megabytes at most.
@lru_cache(maxsize=512)
def _fetched(name: str, value: str) -> BaseHeader:
    header: BaseHeader = email.policy.default.header_fetch_parse(name, value)
    return header


@lru_cache(maxsize=512)
def _stored(name: str, value: str) -> BaseHeader:
    """(A value with a line break raises, as the package's does, and is not kept.)"""
    header: BaseHeader = email.policy.default.header_store_parse(name, value)[1]
    return header


READING = ParsedOnce()  # incoming mail (inbound.py)
SENDING = ParsedOnce(cte_type="7bit")  # outgoing mail (compose.py): non-ASCII goes encoded
