"""Fast uniformly random Vacu and Convacu games on the bare `Board`, for search
and benchmarks.

One game is played in place on a `Board`, each turn applied as `VacuState.play`
applies it (RULINGS.md, Vacu and Convacu): a stone (suppressing or flipping as
`Board.play` does), the button while it is untaken, or a pass once it is taken
(in Convacu only when no stone is legal). After each turn, in this order:
Convacu's connection win; two passes in a row, scored; a move that removes the
last enemy stone (flipped or suppressed), scored; and, after a stone, the third
occurrence of the same position (stones, whether the button is taken, player to
move), a draw. Positions are told apart by the board's Zobrist hash plus a key
for the button and one for the player to move, where the clean API compares the
stones exactly; 64 random bits make a false repetition vanishingly unlikely.
A game still going after `cap` turns stops there, reported as capped with no
winner.

Every legal move has the same probability, the legal moves being those
`VacuState.legal_moves` lists. A move is drawn by rejection: draw uniformly
among the empty points plus the one move that is not a stone when there is one
(the button while untaken, else a pass in Vacu), keep it if it is that move or
a legal point, else draw again. After `MAX_DRAWS` rejections the legal points
are listed in full (which also finds a Convacu player with no stone to play,
who must pass). Both ways give each legal move the same chance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import BLACK, EDGE, EMPTY, WHITE, ZOBRIST, Board
from .score import score

if TYPE_CHECKING:
    from .state import VacuState

PASS_MOVE, BUTTON_MOVE = -1, -2  # in a record; a stone is its point index
MAX_DRAWS = 16
CAP_PER_POINT = 10  # turns per point of the board; random 9x9 games take under 4

_KEYS = random.Random(20260622)
BUTTON_KEY = _KEYS.getrandbits(64)  # the button is taken
TO_MOVE_KEYS = (_KEYS.getrandbits(64), _KEYS.getrandbits(64))  # by player

# How a game ended (`Playout.end`).
CONNECTION, PASSES, REMOVAL, REPETITION, CAPPED = (
    "connection",
    "passes",
    "removal",
    "repetition",
    "capped",
)


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is a player index, None for a draw, a
    tie on points or a capped game."""

    winner: int | None
    moves: int  # turns played: stones, the button and passes
    stones: int  # stones placed, suicides included
    capped: bool = False  # stopped at the cap, undecided
    end: str = ""  # CONNECTION, PASSES, REMOVAL, REPETITION or CAPPED


def default_cap(size: int) -> int:
    """The turns after which a random game on a size x size board stops."""
    return CAP_PER_POINT * size * size


def random_playout(
    size: int = 9,
    rng: random.Random | None = None,
    record: list[int] | None = None,
    connection: bool = False,
    komi: int = 6,
    cap: int | None = None,
) -> Playout:
    """Play one uniformly random legal game of Vacu (Convacu with `connection`)
    on an empty size x size board, with `komi` for White and no komi step:
    player 0 is Black and starts. `record`, if given, receives each move: a
    point index for a stone, else `PASS_MOVE` or `BUTTON_MOVE`."""
    board = Board(size)
    seen = {board.hash ^ TO_MOVE_KEYS[0]: 1}
    return play_out(
        board,
        0,
        rng or random.Random(),
        record,
        connection=connection,
        komi=komi,
        seen=seen,
        cap=cap,
    )


def play_out_state(
    state: VacuState,
    rng: random.Random,
    record: list[int] | None = None,
    cap: int | None = None,
) -> Playout:
    """Play on at random from an undecided position of the clean API, past
    its komi step, leaving the state as it was."""
    assert state.result is None and state.to_move is not None and state.black is not None
    assert state.komi is not None
    seen: dict[int, int] = {}
    for (stones, taken, to_move), count in state.seen.items():
        if to_move >= 0:
            key = position_hash(stones) ^ (BUTTON_KEY if taken else 0) ^ TO_MOVE_KEYS[to_move]
            seen[key] = count
    return play_out(
        state.board.copy(),
        state.to_move,
        rng,
        record,
        connection=state.game.connection,
        komi=state.komi,
        black=state.black,
        button=state.button,
        passes=state.passes,
        seen=seen,
        cap=cap,
    )


def position_hash(stones: bytes) -> int:
    """The Zobrist hash of a board from its `Board.key()`."""
    h = 0
    for p, c in enumerate(stones):
        if c != EMPTY and c != EDGE:
            h ^= ZOBRIST[p][c]
    return h


def play_out(
    board: Board,
    player: int,
    rng: random.Random,
    record: list[int] | None = None,
    *,
    connection: bool = False,
    komi: int = 6,
    black: int = 0,
    button: int | None = None,
    passes: int = 0,
    seen: dict[int, int] | None = None,
    cap: int | None = None,
) -> Playout:
    """Play on from an undecided position: `board` (changed in place), `player`
    to move, `black` the player playing Black, `button` the player holding the
    button (None while untaken) after `passes` passes in a row, with `seen` the
    occurrences of each position key so far (changed in place), until the game
    ends or `cap` more turns (default: `default_cap`) have been played."""
    rand = rng.random
    placement = board.placement
    play = board.play
    colours = board.colour
    counts = board.stones
    joins_edges = board.joins_edges
    if seen is None:
        seen = {}
    if cap is None:
        cap = default_cap(board.size)
    # The empty points, each at its index in `where`, to draw from.
    empty = [p for p in board.points if colours[p] == EMPTY]
    where = [0] * len(colours)
    for i, p in enumerate(empty):
        where[p] = i
    taken = button is not None
    colour = BLACK if player == black else WHITE
    turns = stones = 0
    while turns < cap:
        # -- draw a move
        other = not taken or not connection  # the button, or a Vacu pass
        n = len(empty)
        draws = n + other
        for _ in range(MAX_DRAWS):
            i = int(rand() * draws)
            if i == n:
                move = PASS_MOVE if taken else BUTTON_MOVE
                break
            move = empty[i]
            if placement(move, colour):
                break
        else:
            legal = [p for p in empty if placement(p, colour)]
            if other or not legal:
                legal.append(PASS_MOVE if taken else BUTTON_MOVE)
            move = legal[int(rand() * len(legal))]
        if record is not None:
            record.append(move)
        turns += 1
        # -- apply it, then judge it
        if move >= 0:
            stones += 1
            suppressed, flipped = play(move, colour)
            last = empty.pop()
            if last != move:
                i = where[move]
                empty[i] = last
                where[last] = i
            for p in suppressed:
                where[p] = len(empty)
                empty.append(p)
            passes = 0
            key = board.hash ^ TO_MOVE_KEYS[player ^ 1]
            if taken:
                key ^= BUTTON_KEY
            occurrences = seen[key] = seen.get(key, 0) + 1
            if connection and (
                joins_edges(move) if colours[move] else any(map(joins_edges, flipped))
            ):
                return Playout(player, turns, stones, end=CONNECTION)
            if (suppressed or flipped) and not counts[3 - colour]:
                winner = _winner(board, komi, black, button)
                return Playout(winner, turns, stones, end=REMOVAL)
            if occurrences >= 3:
                return Playout(None, turns, stones, end=REPETITION)
        else:
            if move == BUTTON_MOVE:
                taken = True
                button = player
                passes = 0
            else:
                passes += 1
            key = board.hash ^ TO_MOVE_KEYS[player ^ 1] ^ BUTTON_KEY
            seen[key] = seen.get(key, 0) + 1
            if passes >= 2:
                return Playout(_winner(board, komi, black, button), turns, stones, end=PASSES)
        player ^= 1
        colour ^= 3  # BLACK <-> WHITE
    return Playout(None, turns, stones, capped=True, end=CAPPED)


def _winner(board: Board, komi: int, black: int, button: int | None) -> int | None:
    """The player with more points (`score`), None on a tie."""
    points = score(board, komi, black, button)
    if points[0] == points[1]:
        return None
    return 0 if points[0] > points[1] else 1
