"""Fast uniformly random Vasco games from the empty board, for benchmarks and
tests: a thin wrapper over `VascoSearchPosition.play_out`, which holds the one
random-move drawer and the one in-place apply (see `search.py` for how a move
is drawn uniformly).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .search import MAX_DRAWS, VascoSearchPosition, move_placement

__all__ = ["MAX_DRAWS", "Playout", "random_playout"]


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is None for a draw."""

    winner: int | None
    moves: int  # player moves
    tiles: int  # tiles placed, auto moves included


def random_playout(
    size: int = 54,
    rng: random.Random | None = None,
    record: list[tuple[int, int]] | None = None,
) -> Playout:
    """Play one uniformly random legal game with a pool of `size` tiles;
    `record`, if given, receives each move as (cell id, orientation)."""
    moves: list[int] | None = None if record is None else []
    played = VascoSearchPosition.opening(size).play_out(rng or random.Random(), moves)
    if record is not None and moves is not None:
        record.extend(move_placement(move) for move in moves)
    return Playout(played.winner, played.turns, played.placed)
