"""The documents shipped in the package: each game's rules (docs/rules/)."""

from __future__ import annotations

from importlib import resources

from ...games.base import Game


def rules_text(game: Game) -> str:
    """The game's rules document, as `pbem GAME help` and `GAME help` print it."""
    document = resources.files("pbem") / "rules" / game.rules_document
    return document.read_text(encoding="utf-8")
