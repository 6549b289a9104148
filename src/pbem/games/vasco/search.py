"""Vasco as a fast, mutable search position (`base.SearchPosition`) over the
bare `Board`: the rules of `VascoState` again, applied in place, for the AI's
tree search and for uniformly random games (`playout.py` is built on it).

A move is one int, `cid << 3 | orientation` (`search_move`): the tile the
player places. Applying it applies its auto moves too, as `Board.attempt`
does for `VascoState.play`; `move_text` writes the placement's canonical text.

The position keeps the candidate cells of a move (every cell that touched a
tile when it was placed, so cells filled since are stale and skipped) and the
set of cells ever listed, so a move costs no scan of the whole board.

The end is judged as `VascoState.play` judges it, after each whole move: a
closed loop, else an empty pool. The third end, a player to move with no
legal move, is found lazily: `to_move` and `winner` look for one legal move
the first time they are read after a move (`legal_moves` and the random draws
find it anyway), so a move applied in a search costs no such look.

Random moves are uniform over the legal moves, by rejection: draw a candidate
cell and an orientation uniformly, keep the draw if the move is legal, else
draw again. After `MAX_DRAWS` rejections the legal moves are listed in full
and one is drawn from them, which also finds a player with no legal move.
Both ways give every legal move the same chance.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Iterator
from typing import TYPE_CHECKING, Self

from ..base import Playout, Result, score_of
from .board import Board
from .end import loop_result, path_result
from .geometry import RED, cell_of, touching_offsets
from .move import VascoMove

if TYPE_CHECKING:
    from .state import VascoState

MAX_DRAWS = 48  # rejected draws before the legal moves are listed in full


def search_move(cid: int, orientation: int) -> int:
    """The search position's move placing a tile at cell id `cid`."""
    return cid << 3 | orientation


def move_placement(move: int) -> tuple[int, int]:
    """The (cell id, orientation) a search move places."""
    return move >> 3, move & 7


def search_move_text(move: int) -> str:
    """The canonical text of a search move (`VascoMove.text`)."""
    col, row = cell_of(move >> 3)
    return VascoMove(col, row, move & 7).text


def _bare_board(tiles: dict[int, int], seen: dict[int, int]) -> Board:
    """A `Board` over these dicts (taken as they are), with no placement
    order: a search position never records one."""
    board = Board.__new__(Board)
    board.tiles = tiles
    board.seen = seen
    board.order = []
    board.auto = set()
    return board


class VascoSearchPosition:
    """A Vasco position for search, changed in place (see the module
    docstring for its moves, its end and its random moves)."""

    __slots__ = (
        "_scratch",
        "_to_move",
        "_unsettled",
        "_winner",
        "board",
        "candidates",
        "known",
        "pool",
    )
    _scratch: Board | None  # may_win's copy of the board, until the position changes

    def __init__(self, board: Board, pool: int, to_move: int) -> None:
        """The position with `board` (owned from now on, its placement order
        ignored), `pool` tiles left and `to_move` to move, who must have a
        legal move (or it is found missing when `to_move` is read)."""
        self.board = _bare_board(board.tiles, board.seen)
        self.pool = pool
        self._to_move: int | None = to_move
        self._winner: int | None = None
        self._unsettled = True
        self._changed()
        self.candidates = sorted(board.candidate_cells())
        self.known = set(self.candidates)
        self.known.update(board.tiles)

    @classmethod
    def opening(cls, pool: int) -> Self:
        """The empty board with `pool` tiles, Red to move."""
        return cls(Board(), pool, RED)

    @classmethod
    def from_state(cls, state: VascoState) -> Self:
        """The search position of a clean state whose game is not over."""
        if state.to_move is None:
            raise ValueError("the game is over: there is no position to search")
        position = cls(state.board.copy(), state.pool, state.to_move)
        position._unsettled = False  # the clean state found a legal move
        return position

    # -- the contract -----------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self._unsettled:
            self._settle()
        return self._to_move

    @property
    def winner(self) -> int | None:
        if self._unsettled:
            self._settle()
        return self._winner

    def copy(self) -> Self:
        other = object.__new__(type(self))
        board = self.board
        other.board = _bare_board(board.tiles.copy(), board.seen.copy())
        other.pool = self.pool
        other._to_move = self._to_move
        other._winner = self._winner
        other._unsettled = self._unsettled
        other._changed()
        other.candidates = self.candidates.copy()
        other.known = self.known.copy()
        return other

    def legal_moves(self) -> list[Hashable]:
        if self._to_move is None:
            return []
        moves: list[Hashable] = [
            search_move(cid, orientation) for cid, orientation in self._legal(self._live_cells())
        ]
        if moves:
            self._unsettled = False
        else:
            self._no_legal_move()
        return moves

    def random_move(self, rng: random.Random) -> Hashable:
        placed = self._draw(rng)
        if placed is None:
            self._no_legal_move()
            raise ValueError("the game is over: the player to move has no legal move")
        board = self.board
        move = search_move(placed[0], board.tiles[placed[0]])
        board.take_all(placed)
        return move

    def play(self, move: Hashable) -> None:
        assert isinstance(move, int)
        placed = self.board.attempt(move >> 3, move & 7, self.pool)
        if not isinstance(placed, list):
            raise ValueError(f"{search_move_text(move)} is not a legal move here")
        self._apply(placed)

    def move_text(self, move: Hashable) -> str:
        assert isinstance(move, int)
        return search_move_text(move)

    def may_win(self, move: Hashable) -> bool:
        """Whether `move` ends the game at once with the mover winning, judged
        as `_apply` and `_settle` would on a scratch copy of the board (kept
        until this position changes) and taken back at once: the loops its
        tiles close, else an empty pool, else the opponent left with no
        legal move. Exact, and cheaper than playing it on a copy of the
        whole position."""
        assert isinstance(move, int)
        mover = self._to_move
        if mover is None:
            return False
        trial = self._scratch
        if trial is None:
            trial = self._scratch = _bare_board(self.board.tiles.copy(), self.board.seen.copy())
        placed = trial.attempt(move >> 3, move & 7, self.pool)
        if not isinstance(placed, list):
            return False
        try:
            result = loop_result(*trial.loops_through(placed))
            left = self.pool - len(placed)
            if result is None and (left == 0 or not trial.has_legal_move(left)):
                result = path_result(trial, left, mover ^ 1)
            return result is not None and result.winner == mover
        finally:
            trial.take_all(placed)

    def play_out(self, rng: random.Random, record: list[int] | None = None) -> Playout:
        """Play uniformly random legal moves in place until the game ends
        (it always does: every move takes a tile from the pool). The result's
        `placed` counts the tiles put down meanwhile, auto moves included;
        `record`, if given, receives each move drawn."""
        turns = 0
        placed_tiles = 0
        draw = self._draw
        apply = self._apply
        tiles = self.board.tiles
        while self._to_move is not None:
            placed = draw(rng)
            if placed is None:
                self._no_legal_move()
                break
            if record is not None:
                record.append(search_move(placed[0], tiles[placed[0]]))
            apply(placed)
            turns += 1
            placed_tiles += len(placed)
        winner = self._winner
        return Playout(score_of(winner), winner, turns, placed_tiles)

    # -- drawing and applying ------------------------------------------------------

    def _draw(self, rng: random.Random) -> list[int] | None:
        """Place a uniformly random legal move on the board (not yet applied:
        see `_apply`) and return its cells, the placed tile first; None when
        the player to move has no legal move."""
        board = self.board
        tiles = board.tiles
        options_mask = board.options_mask
        attempt = board.attempt
        pool = self.pool
        candidates = self.candidates
        draw = rng.random
        draws = 0
        while draws < MAX_DRAWS:
            index, orientation = divmod(int(draw() * 6 * len(candidates)), 6)
            cid = candidates[index]
            if cid in tiles:  # stale candidate: drop it and draw again
                candidates[index] = candidates[-1]
                candidates.pop()
                continue
            draws += 1
            if not (options_mask(cid) >> orientation) & 1:
                continue
            placed = attempt(cid, orientation, pool)
            if isinstance(placed, list):
                return placed
        legal = list(self._legal(self._live_cells()))
        if not legal:
            return None
        cid, orientation = legal[int(draw() * len(legal))]
        placed = attempt(cid, orientation, pool)
        assert isinstance(placed, list)
        return placed

    def _apply(self, placed: list[int]) -> None:
        """Finish a move the board holds (`placed`, the placed tile first):
        count its tiles out of the pool, list the new candidate cells, judge
        the end and pass the turn."""
        board = self.board
        self._changed()
        self.pool -= len(placed)
        known = self.known
        candidates = self.candidates
        for cid in placed:
            for offset in touching_offsets(cid):
                near = cid + offset
                if near not in known:
                    known.add(near)
                    candidates.append(near)
        mover = self._to_move
        assert mover is not None
        result = loop_result(*board.loops_through(placed))
        if result is None and self.pool == 0:
            result = path_result(board, 0, mover ^ 1)
        if result is None:
            self._to_move = mover ^ 1
            self._unsettled = True
        else:
            self._end(result)

    # -- legal moves -------------------------------------------------------------

    def _live_cells(self) -> list[int]:
        """The candidate cells still empty, in canonical order (stale ones dropped)."""
        tiles = self.board.tiles
        self.candidates = cells = [cid for cid in self.candidates if cid not in tiles]
        cells.sort()
        return cells

    def _legal(self, cells: Iterable[int]) -> Iterator[tuple[int, int]]:
        """The legal (cell id, orientation) at `cells`, in their order: each
        orientation that fits is attempted on a scratch board, which is
        copied afresh after a success (cheaper than taking the tiles back)."""
        board = self.board
        tiles = board.tiles
        seen = board.seen
        pool = self.pool
        trial = _bare_board(tiles.copy(), seen.copy())
        for cid in cells:
            mask = trial.options_mask(cid)
            orientation = 0
            while mask:
                if mask & 1 and isinstance(trial.attempt(cid, orientation, pool), list):
                    trial.tiles = tiles.copy()
                    trial.seen = seen.copy()
                    yield cid, orientation
                mask >>= 1
                orientation += 1

    def _settle(self) -> None:
        """After a move, end the game if the player to move has no legal move
        (cells touching the group by an edge are tried first: they almost
        always hold one)."""
        self._unsettled = False
        cells = self._live_cells()
        seen = self.board.seen
        edge_first = [cid for cid in cells if cid in seen]
        edge_first.extend(cid for cid in cells if cid not in seen)
        if next(self._legal(edge_first), None) is None:
            self._no_legal_move()

    def _no_legal_move(self) -> None:
        """The player to move has no legal move: the longest path decides."""
        assert self._to_move is not None
        self._unsettled = False
        self._end(path_result(self.board, self.pool, self._to_move))

    def _changed(self) -> None:
        """Forget what was worked out for the position before this change
        (`may_win`'s scratch board)."""
        self._scratch = None

    def _end(self, result: Result) -> None:
        self.finish(result.winner)

    def finish(self, winner: int | None) -> None:
        """End the game with this winner (None: a draw); the compiled
        playout ends a position it used up this way."""
        self._to_move = None
        self._winner = winner
        self._unsettled = False
        self._changed()
