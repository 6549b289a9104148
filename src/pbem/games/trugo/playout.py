"""Fast uniformly random Trugo games on the bare `Board`, for search and benchmarks.

One game is played in place on a `Board`, each turn applied as `TrugoState.play`
applies it (the move, then the captures, then `turn_result`; a pass captures
too, and a second pass in a row draws). A game still going after `cap` turns
stops there, reported as capped with no winner.

Every legal move has the same probability. The piece moves are listed in full
(their count is needed to weigh them against the tile moves). In the Waxing
phase every frontier cell takes a tile in each of the three rotations, so a
placement is drawn directly. In the Waning phase a removal is drawn by
rejection: draw uniformly among every tile and every piece move, keep a piece
move, keep a tile if it is removable, else draw again; after `MAX_DRAWS`
rejections the removable tiles are listed in full (which also finds a player
with no legal move, who passes). Both ways give each legal move the same chance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import MOVE, ORIGIN, PASS, PASS_MOVE, PLACE, REMOVE, Board, Move
from .end import turn_result

CAP = 1000  # turns, passes included
MAX_DRAWS = 16


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is None for a draw or a capped game."""

    winner: int | None
    moves: int  # turns played, passes included
    tiles: int  # tiles placed
    capped: bool = False  # stopped at the cap, undecided


def piece_moves(board: Board, player: int) -> list[Move]:
    """Every piece move of `player`, in no particular order."""
    destinations = board.destinations
    moves: list[Move] = []
    for start, stack in board.stacks.items():
        if stack[-1] == player:
            moves.extend([(MOVE, start, end) for end in destinations(start)])
    return moves


def random_move(board: Board, player: int, rng: random.Random) -> Move:
    """A move drawn uniformly from `board.legal_moves(player)`."""
    rand = rng.random
    pieces = piece_moves(board, player)
    if board.pool > 0:
        cells = list(board.frontier) if board.tiles else [ORIGIN]
        pick = int(rand() * (3 * len(cells) + len(pieces)))
        if pick < 3 * len(cells):
            index, rotation = divmod(pick, 3)
            return (PLACE, cells[index], rotation)
        return pieces[pick - 3 * len(cells)]
    tiles = list(board.tiles)
    removable = board.removable
    for _ in range(MAX_DRAWS if tiles else 0):
        pick = int(rand() * (len(tiles) + len(pieces)))
        if pick >= len(tiles):
            return pieces[pick - len(tiles)]
        if removable(tiles[pick]):
            return (REMOVE, tiles[pick], 0)
    legal = [(REMOVE, cid, 0) for cid in tiles if removable(cid)] + pieces
    if not legal:
        return PASS_MOVE
    return legal[int(rand() * len(legal))]


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
    turns have been played.
    For search from a `TrugoState`: `play_out(state.board.copy(), state.to_move,
    rng, passes=state.passes)`. `tiles` counts the tiles this playout placed."""
    on_board = board.on_board
    turns = tiles = 0
    while turns < cap:
        move = random_move(board, player, rng)
        if record is not None:
            record.append(move)
        turns += 1
        kind, a, b = move
        before = sum(on_board())
        if kind == PLACE:
            board.place(a, b)
            tiles += 1
        elif kind == MOVE:
            board.move_piece(a, b)
        elif kind == REMOVE:
            board.remove(a)
        board.capture(player)
        if kind == PASS:
            passes += 1
            if passes >= 2:
                return Playout(None, turns, tiles)
        else:
            passes = 0
        result = turn_result(board, player, before)
        if result is not None:
            return Playout(result.winner, turns, tiles)
        player ^= 1
    return Playout(None, turns, tiles, capped=True)
