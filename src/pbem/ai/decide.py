"""What a bot does on a board: the whole decision from the board's record,
so it can run in a process of its own (`bots/`) with nothing but plain data
going in and out.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..games import get_game, warm_up
from ..games.base import State
from . import vacu_tree
from .levels import knowledge, level_named
from .mcts import search
from .tree import Analysis, Budget, Candidate

# A bot takes a draw when its estimated share of the game is below this.
DRAW_BELOW = 0.5
DRAW_LOOK = Budget(seconds=1.0, iterations=1000)  # the search a draw offer gets
HINT_LOOK = Budget(seconds=3.0, iterations=5000)  # the search a hint gets


def prepare_process() -> None:
    """Make this process ready to search: load the compiled random games
    and the compiled Vacu search (a first compile takes seconds, a load
    from numba's cache a fraction of one), then freeze everything loaded so far
    out of the cyclic collector's sight. Without the freeze, its full
    collections walked numba's objects too and paused a Vacu search for
    60 ms at a time; with it, about a millisecond."""
    warm_up()
    vacu_tree.warm_up()
    gc.freeze()


@dataclass(frozen=True)
class Decision:
    """A bot's answer: a move to play (its canonical text), or resigning
    (every move is a proven loss); and what the search saw."""

    move: str | None
    resign: bool
    share: float  # the bot's estimated share of the game (1 a sure win)
    iterations: int
    seconds: float
    candidates: tuple[Candidate, ...]


def state_of(game: str, options: Mapping[str, Any], moves: Sequence[str]) -> State[Any]:
    """The position a board's stored options (their JSON form) and record give."""
    rules = get_game(game)
    values = {name: value for name, value in options.items() if value is not None}
    return rules.replay(rules.options(**values), moves)


def choose_move(
    game: str, options: Mapping[str, Any], moves: Sequence[str], level: str, seed: int
) -> Decision:
    """The move the bot of `level` plays where the record stops (its turn)."""
    state = state_of(game, options, moves)
    mover = state.to_move
    if mover is None:
        raise ValueError("the game is over: a bot has no move to make")
    chosen = level_named(level)
    how = knowledge(game)
    analysis = search(state.search_position(), chosen.budget, random.Random(seed), how)
    share = _share(analysis, mover)
    lost = analysis.proven and share == 0.0
    return Decision(
        None if lost else analysis.best,
        lost,
        share,
        analysis.iterations,
        analysis.seconds,
        analysis.candidates,
    )


def takes_draw(
    game: str, options: Mapping[str, Any], moves: Sequence[str], seat: int, seed: int
) -> bool:
    """Whether the bot at `seat` accepts a draw offered here: when a short
    search gives it less than half the game."""
    state = state_of(game, options, moves)
    if state.to_move is None:
        return False
    analysis = search(state.search_position(), DRAW_LOOK, random.Random(seed), knowledge(game))
    return _share(analysis, seat) < DRAW_BELOW


def analyse(game: str, options: Mapping[str, Any], moves: Sequence[str], seed: int) -> Analysis:
    """The engine's view of the position where the record stops, for a hint:
    every move of the player to move, best first, with its win rate."""
    state = state_of(game, options, moves)
    if state.to_move is None:
        raise ValueError("the game is over: there is nothing to hint")
    return search(state.search_position(), HINT_LOOK, random.Random(seed), knowledge(game))


def _share(analysis: Analysis, player: int) -> float:
    return analysis.share if player == 0 else 1.0 - analysis.share
