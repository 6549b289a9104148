"""Fast uniformly random Vasco games on the bare `Board`, for search and benchmarks.

A move is drawn uniformly from the legal moves by rejection: draw a candidate
cell (every empty cell within distance 3 of a tile, the proven reach of a legal
move) and an orientation uniformly, keep the draw if the move is legal, else
draw again. After many rejections the full legal list is built and drawn from,
which also detects a player with no legal move. Both ways pick every legal move
with the same probability.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import ORIGIN, Board
from .geometry import BLUE, RED, STRIDE

MAX_DRAWS = 48


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is None for a draw."""

    winner: int | None
    moves: int  # player moves
    tiles: int  # tiles placed, auto moves included


def _offsets_within(distance: int, up: bool) -> tuple[int, ...]:
    """Id offsets of the cells within `distance` steps of an up (or down) cell."""
    start = 0 if up else 1  # an even id points up
    reached = {start}
    ring = {start}
    for _ in range(distance):
        ring = {
            n
            for cid in ring
            for n in (cid - 1, cid + 1, cid + STRIDE if cid & 1 == 0 else cid - STRIDE)
        } - reached
        reached |= ring
    return tuple(sorted(cid - start for cid in reached if cid != start))


_NEAR_UP = _offsets_within(3, True)
_NEAR_DOWN = _offsets_within(3, False)


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
                return Playout(_longer_loses(board), moves, len(tiles))
            cid, orientation = legal[int(draw() * len(legal))]
            attempt = board.attempt(cid, orientation, pool)
            assert isinstance(attempt, list)
            placed = attempt
        moves += 1
        pool -= len(placed)
        if record is not None:
            record.append((placed[0], tiles[placed[0]]))
        for cid in placed:
            for offset in _NEAR_UP if cid & 1 == 0 else _NEAR_DOWN:
                near = cid + offset
                if near not in known:
                    known.add(near)
                    candidates.append(near)
        red, blue = board.loops_through(placed)
        if red or blue:
            if not blue:
                return Playout(RED, moves, len(tiles))
            if not red:
                return Playout(BLUE, moves, len(tiles))
            return Playout(_winner_by_length(max(red), max(blue)), moves, len(tiles))
        if pool == 0:
            return Playout(_longer_loses(board), moves, len(tiles))
        player ^= 1


def _longer_loses(board: Board) -> int | None:
    (_, red), (_, blue) = board.path_summary()
    return _winner_by_length(red, blue)


def _winner_by_length(red: int, blue: int) -> int | None:
    if red == blue:
        return None
    return BLUE if red > blue else RED
