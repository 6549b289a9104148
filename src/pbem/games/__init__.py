"""The games pbem hosts, by name. Each is pure rules: no I/O, no clock, no DB."""

from __future__ import annotations

from .base import Game
from .trugo import TrugoGame
from .vacu import ConvacuGame, VacuGame
from .vasco import VascoGame

GAMES: dict[str, Game] = {
    game.name: game for game in (VascoGame(), TrugoGame(), VacuGame(), ConvacuGame())
}


def get_game(name: str) -> Game:
    """The game called `name` (any case); KeyError names the hosted games."""
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise KeyError(f"No game called {name!r}; pbem hosts: {', '.join(GAMES)}.") from None


def warm_up() -> None:
    """Compile every game's compiled random-game loop now, or load it from
    numba's disk cache, so that no search's first playout waits for it (a
    first compile takes seconds; a load from the cache, a fraction of one)."""
    from .trugo import compiled as trugo_compiled
    from .vacu import compiled as vacu_compiled
    from .vasco import compiled as vasco_compiled

    for compiled in (vasco_compiled, trugo_compiled, vacu_compiled):
        compiled.warm_up()
