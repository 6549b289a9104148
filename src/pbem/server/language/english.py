"""Counting in English, for every mail and page: '1 board', '2 boards',
'no moves'. One place, so no reply says "1 boards" again."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """'1 board', '2 boards', '0 boards' (nouns that take an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def counted(count: int, noun: str) -> str:
    """As `plural`, with 'no moves' for none."""
    return f"no {noun}s" if count == 0 else plural(count, noun)
