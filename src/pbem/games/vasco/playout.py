"""Fast uniformly random Vasco games on the bare `Board`, for search and benchmarks.

A move is drawn uniformly from the legal moves by rejection: draw a candidate
cell (every empty cell touching a tile by an edge or a corner, where a placed
tile must lie) and an orientation uniformly, keep the draw if the move is legal, else
draw again. After many rejections the full legal list is built and drawn from,
which also detects a player with no legal move. Both ways pick every legal move
with the same probability.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import ORIGIN, Board
from .end import loop_result, path_result
from .geometry import RED, touching_offsets

MAX_DRAWS = 48


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
    rng = rng or random.Random()
    draw = rng.random
    board = Board()
    tiles = board.tiles
    pool = size
    candidates = [ORIGIN]
    known = {ORIGIN}
    player = RED
    moves = 0
    while True:
        placed = None
        draws = 0
        while draws < MAX_DRAWS:
            pick = int(draw() * 6 * len(candidates))
            index, orientation = divmod(pick, 6)
            cid = candidates[index]
            if cid in tiles:  # stale candidate: drop it and draw again
                candidates[index] = candidates[-1]
                candidates.pop()
                continue
            draws += 1
            if not (board.options_mask(cid) >> orientation) & 1:
                continue
            attempt = board.attempt(cid, orientation, pool)
            if isinstance(attempt, list):
                placed = attempt
                break
        if placed is None:
            legal = board.legal_moves(pool)
            if not legal:
                return Playout(path_result(board, pool, player).winner, moves, len(tiles))
            cid, orientation = legal[int(draw() * len(legal))]
            attempt = board.attempt(cid, orientation, pool)
            assert isinstance(attempt, list)
            placed = attempt
        moves += 1
        pool -= len(placed)
        if record is not None:
            record.append((placed[0], tiles[placed[0]]))
        for cid in placed:
            for offset in touching_offsets(cid):
                near = cid + offset
                if near not in known:
                    known.add(near)
                    candidates.append(near)
        result = loop_result(*board.loops_through(placed))
        if result is None and pool == 0:
            result = path_result(board, pool, player)
        if result is not None:
            return Playout(result.winner, moves, len(tiles))
        player ^= 1
