"""The bots' strength levels: how long each may think, and how.

One bot user plays each level in every game (the migration that made them
names them `easybot`, `mediumbot` and `hardbot`). A level's budget is the
most a move may cost; a proven win or loss ends the search sooner.
"""

from __future__ import annotations

from dataclasses import dataclass

from .mcts import Budget, Settings


@dataclass(frozen=True)
class Level:
    """A bot's strength: its search budget per move and its search settings."""

    name: str
    budget: Budget
    settings: Settings
    about: str  # for people: `list`, the docs


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            Budget(seconds=0.5, iterations=200),
            Settings(),
            "a short look at each move (200 playouts at most): a first opponent",
        ),
        Level(
            "medium",
            Budget(seconds=2.0, iterations=3000),
            Settings(),
            "up to 3,000 playouts or 2 seconds a move",
        ),
        Level(
            "hard",
            Budget(seconds=6.0),
            Settings(),
            "6 seconds of search a move, as many playouts as fit",
        ),
    )
}


def level_named(name: str) -> Level:
    """The level of this name; KeyError names the levels there are."""
    try:
        return LEVELS[name]
    except KeyError:
        raise KeyError(f"no bot level {name!r}; the levels are {', '.join(LEVELS)}") from None
