"""Fast uniformly random Trugo games on the bare `Board`, for benchmarks and
tests: thin wrappers over the search position (`search.py`), which holds the
one random-move drawer and the one in-place turn.

A game still going after `cap` turns stops there, reported as capped with no
winner.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import Board, Move
from .search import CAP, TrugoSearchPosition, random_move
from .search import play_out as play_out_position

__all__ = ["CAP", "Playout", "play_out", "random_move", "random_playout"]


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is None for a draw or a capped game."""

    winner: int | None
    moves: int  # turns played, passes included
    tiles: int  # tiles placed
    capped: bool = False  # stopped at the cap, undecided


def random_playout(
    size: int = 36,
    rng: random.Random | None = None,
    record: list[Move] | None = None,
    pieces: int = 25,
    no_stack: bool = False,
    cap: int = CAP,
) -> Playout:
    """Play one uniformly random legal game with a pool of `size` tiles and
    `pieces` pieces a player, stopping after `cap` turns; `record`, if given,
    receives each move as the raw `(kind, a, b)` of `Board.legal_moves`."""
    return play_out(Board(size, pieces, no_stack), 0, rng or random.Random(), record, cap)


def play_out(
    board: Board,
    player: int,
    rng: random.Random,
    record: list[Move] | None = None,
    cap: int = CAP,
    passes: int = 0,
) -> Playout:
    """Play on from an undecided position: `board` (changed in place), `player`
    to move after `passes` passes in a row, until the game ends or `cap` more
    turns have been played. `tiles` counts the tiles this playout placed."""
    position = TrugoSearchPosition(board, player, passes, cutoff=cap)
    result = play_out_position(position, rng, record)
    return Playout(result.winner, result.turns, result.placed, result.capped)
