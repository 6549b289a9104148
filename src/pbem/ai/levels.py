"""The bots' strength levels: how long each may think, and how.

One bot user plays each level in every game (the migration that made them
names them `easybot`, `mediumbot` and `hardbot`). A level's budget is the
most a move may cost; a proven win or loss ends the search sooner. Every
level searches a game the same way (`knowledge`); they differ in how long.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tree import Budget, SearchSettings

# How the bots search each game, at every level. All use the MCTS-solver
# with the win-in-one check. Vasco, Vacu and Convacu add RAVE (all moves as
# first: a placement is worth much the same a few moves sooner or later),
# its weight a half once a move has 300 visits of its own, with a small
# exploration constant (RAVE's first guesses do much of the exploring).
# Trugo's moves are mostly a piece's path from here to there, which means
# little a few moves later, and RAVE lost there; its random games are cut
# off and scored by the material left, whose shares lie close together, so
# it explores less than for wins and losses. Measured against plain UCT in
# docs/ai.md (`python -m bench.arena GAME --a hard --b uct`).
RAVE = SearchSettings(exploration=0.2, rave=300.0)
KNOWLEDGE: dict[str, SearchSettings] = {
    "vasco": RAVE,
    "trugo": SearchSettings(exploration=0.4),
    "vacu": RAVE,
    "convacu": RAVE,
}


def knowledge(game: str) -> SearchSettings:
    """How the bots search `game` (plain settings for a game not listed)."""
    return KNOWLEDGE.get(game, SearchSettings())


@dataclass(frozen=True)
class Level:
    """A bot's strength: its search budget per move."""

    name: str
    budget: Budget
    about: str  # for people: `list`, the docs


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            Budget(seconds=0.5, iterations=200),
            "a short look at each move (200 playouts at most): a first opponent",
        ),
        Level(
            "medium",
            Budget(seconds=2.0, iterations=3000),
            "up to 3,000 playouts or 2 seconds a move",
        ),
        Level(
            "hard",
            Budget(seconds=6.0),
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
