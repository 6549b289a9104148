"""A Vasco position: the game contract over the fast `Board` engine."""

from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..base import Choice, IllegalMove, MoveRecord, MoveSyntaxError, Options, Result, State
from .board import DISCONNECTED, MISFIT, NO_CONTACT, NOT_ORIGIN, OCCUPIED, POOL, Board
from .end import loop_result, path_result, tiles_text
from .geometry import (
    COLOUR_MARKS,
    COLOUR_NAMES,
    LETTERS,
    LIMIT,
    OPPOSITE_SIDE,
    SIDE_COLOURS,
    SIDE_NAMES,
    cell_id,
    cell_of,
    neighbour_ids,
)
from .move import VascoMove

if TYPE_CHECKING:
    from .game import VascoGame
    from .search import VascoSearchPosition

MOVE_FORM = (
    "a Vasco move is an orientation letter a to f followed by a cell col,row "
    "(like a0,0 or c-2,3), or an orientation letter and a position number from "
    "the board (like d3)"
)
_CELL_MOVE = re.compile(r"([a-z])([+-]?\d{1,9}),([+-]?\d{1,9})")
_POSITION_MOVE = re.compile(r"([a-z])(\d{1,9})")


def _beyond_reach(col: int, row: int) -> bool:
    """Cells too far out to have an id: no group of at most 1000 tiles reaches them."""
    return abs(col) > LIMIT or abs(row) > LIMIT


def _cell_text(cid: int) -> str:
    col, row = cell_of(cid)
    return f"{col},{row}"


class VascoState(State[VascoMove]):
    """An immutable Vasco position. Its board is never changed after creation."""

    game: VascoGame

    def __init__(
        self,
        game: VascoGame,
        options: Options,
        board: Board,
        pool: int,
        to_move: int | None,
        history: tuple[MoveRecord, ...],
        result: Result | None,
        last: tuple[int, ...] = (),
    ) -> None:
        self.game = game
        self.options = options
        self.board = board
        self.pool = pool
        self._to_move = to_move
        self._history = history
        self._result = result
        self.last = last  # cell ids of the last move: the placed tile, then its auto tiles

    # -- moves ----------------------------------------------------------------

    @cached_property
    def _legal(self) -> list[tuple[int, int]]:
        if self._result is not None:
            return []
        return self.board.legal_moves(self.pool)

    def legal_moves(self) -> list[VascoMove]:
        return [VascoMove(*cell_of(cid), orientation) for cid, orientation in self._legal]

    @cached_property
    def positions(self) -> list[int]:
        """Empty cells holding a legal move, in canonical order; position n is
        `positions[n - 1]` (pbmserv's numbered positions)."""
        cells: list[int] = []
        for cid, _ in self._legal:
            if not cells or cells[-1] != cid:
                cells.append(cid)
        return cells

    def position_number(self, col: int, row: int) -> int | None:
        if _beyond_reach(col, row):
            return None
        cid = cell_id(col, row)
        try:
            return self.positions.index(cid) + 1
        except ValueError:
            return None

    def touches_group(self, move: VascoMove) -> bool:
        """Whether the move's cell shares an edge with a tile."""
        return cell_id(move.col, move.row) in self.board.seen

    def parse_move(self, text: str) -> VascoMove:
        compact = re.sub(r"\s+", "", text).lower()
        match = _CELL_MOVE.fullmatch(compact)
        if match:
            letter, col, row = match.group(1), int(match.group(2)), int(match.group(3))
            self._check_letter(text, letter)
            return VascoMove(col, row, LETTERS.index(letter))
        match = _POSITION_MOVE.fullmatch(compact)
        if match:
            letter, number = match.group(1), int(match.group(2))
            self._check_letter(text, letter)
            if self._result is not None:
                raise IllegalMove(text, "the game is over")
            if not 1 <= number <= len(self.positions):
                raise IllegalMove(
                    text,
                    f"there is no position {number} on this board: the "
                    f"numbered positions are 1 to {len(self.positions)}",
                )
            col, row = cell_of(self.positions[number - 1])
            return VascoMove(col, row, LETTERS.index(letter))
        raise MoveSyntaxError(text, MOVE_FORM)

    @staticmethod
    def _check_letter(text: str, letter: str) -> None:
        if letter not in LETTERS:
            raise MoveSyntaxError(
                text,
                f"there is no orientation {letter!r}: the six orientations are a to f; {MOVE_FORM}",
            )

    def move_text(self, move: VascoMove) -> str:
        return move.text

    def play(self, move: VascoMove) -> VascoState:
        text = move.text
        if self._result is not None:
            raise IllegalMove(text, "the game is over")
        assert self._to_move is not None
        board = self.board.copy()
        if _beyond_reach(move.col, move.row):  # no id; it touches no tile
            placed: list[int] | int = NO_CONTACT if board.tiles else NOT_ORIGIN
        else:
            placed = board.attempt(cell_id(move.col, move.row), move.orientation, self.pool)
        if isinstance(placed, int):
            reason = self._explain(placed, move)
            if placed == OCCUPIED or not self.options["strict"]:
                raise IllegalMove(text, reason)
            return self._lost_turn(text, reason)
        board.commit(placed)
        note = ""
        if len(placed) > 1:
            note = "auto " + " ".join(
                f"{LETTERS[board.tiles[c]]}{_cell_text(c)}" for c in placed[1:]
            )
        history = (*self._history, MoveRecord(self._to_move, text, note))
        pool = self.pool - len(placed)
        next_player = 1 - self._to_move
        result = loop_result(*board.loops_through(placed))
        if result is None and (pool == 0 or not board.has_legal_move(pool)):
            result = path_result(board, pool, next_player)
        return VascoState(
            self.game,
            self.options,
            board,
            pool,
            None if result is not None else next_player,
            history,
            result,
            tuple(placed),
        )

    def _lost_turn(self, text: str, reason: str) -> VascoState:
        """-strict: the offending tile is taken back and the turn is lost."""
        assert self._to_move is not None
        note = f"illegal, tile taken back and turn lost: {reason}"
        history = (*self._history, MoveRecord(self._to_move, text, note))
        next_player = 1 - self._to_move
        result = None
        if not self.board.has_legal_move(self.pool):
            result = path_result(self.board, self.pool, next_player)
        return VascoState(
            self.game,
            self.options,
            self.board,
            self.pool,
            None if result is not None else next_player,
            history,
            result,
            (),
        )

    def _explain(self, code: int, move: VascoMove) -> str:
        """The reason for a failed placement, in words a player understands."""
        where = f"{move.col},{move.row}"
        if code == OCCUPIED:
            return f"cell {where} already holds a tile"
        if code == NOT_ORIGIN:
            return "the first tile must be placed at 0,0, the middle of the playing area"
        if code == NO_CONTACT:
            return (
                "the tile touches no tile on the board; it must share an edge or a corner with one"
            )
        if code == DISCONNECTED:
            return (
                f"the tile at {where} would not join the group: it touches the group only "
                "at a corner, and the auto moves it causes do not connect it by an edge"
            )
        cid, orientation = cell_id(move.col, move.row), move.orientation
        if code == POOL:
            return self._pool_reason(cid, orientation)
        assert code == MISFIT
        colours = SIDE_COLOURS[orientation]
        tiles = self.board.tiles
        for side, n in enumerate(neighbour_ids(cid)):
            neighbour = tiles.get(n)
            if neighbour is None:
                continue
            theirs = SIDE_COLOURS[neighbour][OPPOSITE_SIDE[side]]
            if theirs != colours[side]:
                return (
                    f"the tile's {SIDE_NAMES[side]} edge would show "
                    f"{COLOUR_NAMES[colours[side]]} but the tile at {_cell_text(n)} shows "
                    f"{COLOUR_NAMES[theirs]} on that edge"
                )
        for side, n in enumerate(neighbour_ids(cid)):
            if n in tiles:
                continue
            if self.board.seen.get(n, 0) & (1 << colours[side]):
                mark = COLOUR_MARKS[colours[side]]
                return (
                    f"it would leave cell {_cell_text(n)} enclosed by two {mark} path "
                    "ends, where no tile could ever fit"
                )
        raise AssertionError("a misfit has a mismatched or a dead neighbour")

    def _pool_reason(self, cid: int, orientation: int) -> str:
        board = self.board.copy()
        board.put(cid, orientation)
        placed = [cid]
        board.fill(cid, self.pool + 1000, placed)
        autos = len(placed) - 1
        return (
            f"the tile and its {autos} auto move{'' if autos == 1 else 's'} would need "
            f"{tiles_text(len(placed))}, but the pool holds only {tiles_text(self.pool)}"
        )

    def search_position(self) -> VascoSearchPosition:
        """This position for the AI's search (the game must not be over);
        its random games run compiled when numba is installed."""
        from . import compiled
        from .search import VascoSearchPosition

        if compiled.AVAILABLE:  # the same games, their random ones compiled
            return compiled.CompiledPosition.from_state(self)
        return VascoSearchPosition.from_state(self)

    # -- output ---------------------------------------------------------------

    def tiles(self) -> list[tuple[int, int, int, bool]]:
        """(col, row, orientation, auto) for every tile, in placement order."""
        board = self.board
        return [(*cell_of(cid), board.tiles[cid], cid in board.auto) for cid in board.order]

    def position(self) -> dict[str, Any]:
        red, blue = self.board.path_summary()
        return {
            "pool": self.pool,
            "tiles": [
                {"cell": [col, row], "orientation": LETTERS[o], "auto": auto}
                for col, row, o, auto in self.tiles()
            ],
            "paths": [{"loops": loops, "longest_path": longest} for loops, longest in (red, blue)],
        }

    def text_board(self, viewer: int | None = None) -> str:
        from .text_board import render_text

        return render_text(self)

    def svg_board(self) -> str:
        from .svg_board import render_svg

        return render_svg(self)

    def choices(self, place: str) -> list[Choice]:
        """The orientations legal at cell `place` (`col,row`), pictured."""
        from .entry import choices

        return choices(self, place)
