"""Each game's rules document, shipped in the package (docs/rules/, which
the game names as `rules_document`): read, never changed."""

from __future__ import annotations

from importlib import resources

from .base import Game


def rules_text(game: Game) -> str:
    """The game's rules document, as `pbem GAME help` and `GAME help` print it."""
    document = resources.files("pbem") / "rules" / game.rules_document
    return document.read_text(encoding="utf-8")
