"""A Trugo position: the game contract over the fast `Board` engine.

Notation (one canonical form each; input is case- and space-insensitive):
- place a tile: rotation letter and cell, `a0,0`, `c-1,2`; or the rotation
  and a position number from the text board, `b3`;
- remove a tile (Waning phase): `x` and the cell, `x2,-1`;
- move a piece: two junctions joined by `-`, `1,0e-0,1w`; a junction is a
  tile's cell and one of its corners e, ne, nw, w, sw, se. The canonical name
  of a white junction uses the `e` corner of the tile west of it, of a blue
  junction the `w` corner of the tile east of it; `:` also separates;
- `pass`, only when nothing else is legal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..base import (
    Choice,
    IllegalMove,
    MoveButton,
    MoveRecord,
    MoveSyntaxError,
    Options,
    Result,
    State,
)
from .board import MOVE, ORIGIN, PASS, PASS_MOVE, PLACE, REMOVE, Board
from .board import Move as RawMove
from .end import SIDE_WORDS, passes_result, turn_result
from .geometry import (
    CELL_PATTERN,
    CORNER_DELTAS,
    CORNER_NAMES,
    CORNER_PATTERN,
    ROTATIONS,
    cell_id,
    cell_of,
    cell_text,
    colour_of,
    in_reach,
    vertex_name,
)
from .move import TrugoMove

if TYPE_CHECKING:
    from .game import TrugoGame
    from .search import TrugoSearchPosition

MOVE_FORM = (
    "a Trugo move is a tile placement, a rotation a, b or c and a cell (a0,0 or "
    "b1,-1) or a position number from the board (b3); a tile removal, x and a "
    "cell (x2,0); a piece move, two junctions joined by '-' (1,0e-0,1w), each a "
    "cell and a corner e, ne, nw, w, sw or se; or pass"
)
_CELL = CELL_PATTERN
_CORNER = CORNER_PATTERN
_PLACE = re.compile(f"([a-z]){_CELL}")
_POSITION = re.compile(r"([a-z])(\d{1,9})")
_REMOVE = re.compile(f"x{_CELL}")
_SAID = re.compile(r"^(place|remove|move)(?=[a-z\d-])")
_PIECE = re.compile(f"{_CELL}{_CORNER}[-:]{_CELL}{_CORNER}")
PIECE_LETTERS = "OX"


@dataclass(frozen=True)
class LastMove:
    """What the last move changed, for the boards' highlights and notes."""

    move: TrugoMove
    filled: tuple[int, ...] = ()  # junctions that got a new piece
    gone: tuple[tuple[int, tuple[int, ...]], ...] = ()  # stacks that left with a tile
    taken: tuple[tuple[int, int], ...] = ()  # (junction, player) captured


def _pieces_text(pairs: list[tuple[int, int]]) -> str:
    """'X at 1,0w, Ox at 0,0e': pieces by junction, top first; the pieces
    under the top one in small letters, as on the text board."""
    by_junction: dict[int, list[int]] = {}
    for v, player in pairs:
        by_junction.setdefault(v, []).append(player)
    return ", ".join(
        PIECE_LETTERS[players[0]]
        + "".join(PIECE_LETTERS[p].lower() for p in players[1:])
        + f" at {vertex_name(v)}"
        for v, players in by_junction.items()
    )


class TrugoState(State[TrugoMove]):
    """An immutable Trugo position. Its board is never changed after creation."""

    game: TrugoGame

    def __init__(
        self,
        game: TrugoGame,
        options: Options,
        board: Board,
        to_move: int | None,
        history: tuple[MoveRecord, ...],
        result: Result | None,
        passes: int = 0,
        last: LastMove | None = None,
    ) -> None:
        self.game = game
        self.options = options
        self.board = board
        self._to_move = to_move
        self._history = history
        self._result = result
        self.passes = passes  # passes in a row just before this position
        self.last = last

    @property
    def phase(self) -> str:
        return "waxing" if self.board.pool > 0 else "waning"

    # -- moves ----------------------------------------------------------------

    @cached_property
    def _legal(self) -> list[RawMove]:
        if self._to_move is None:
            return []
        return self.board.legal_moves(self._to_move)

    def legal_moves(self) -> list[TrugoMove]:
        return [TrugoMove(raw) for raw in self._legal]

    @cached_property
    def positions(self) -> list[int]:
        """The cells a tile may be placed in, in page order; position n is
        `positions[n - 1]`."""
        if self._result is not None or self.board.pool == 0:
            return []
        if not self.board.tiles:
            return [ORIGIN]
        return sorted(self.board.frontier)

    def position_number(self, cid: int) -> int | None:
        try:
            return self.positions.index(cid) + 1
        except ValueError:
            return None

    def move_text(self, move: TrugoMove) -> str:
        return move.text

    def parse_move(self, text: str) -> TrugoMove:
        compact = re.sub(r"\s+", "", text).lower()
        compact = _SAID.sub("", compact)  # 'place a1', 'remove x1,0', 'move 1,0e-0,1w'
        if compact == "pass":
            return TrugoMove(PASS_MOVE)
        match = _REMOVE.fullmatch(compact)
        if match:
            return TrugoMove((REMOVE, self._cell(text, match.group(1), match.group(2)), 0))
        match = _PLACE.fullmatch(compact)
        if match:
            rotation = self._rotation(text, match.group(1))
            return TrugoMove((PLACE, self._cell(text, match.group(2), match.group(3)), rotation))
        match = _POSITION.fullmatch(compact)
        if match:
            rotation = self._rotation(text, match.group(1))
            return TrugoMove((PLACE, self._position(text, int(match.group(2))), rotation))
        match = _PIECE.fullmatch(compact)
        if match:
            groups = match.groups()
            start = self._vertex(text, *groups[:3])
            end = self._vertex(text, *groups[3:])
            return TrugoMove((MOVE, start, end))
        raise MoveSyntaxError(text, MOVE_FORM)

    @staticmethod
    def _rotation(text: str, letter: str) -> int:
        if letter == "x":
            raise MoveSyntaxError(text, "a removal names the tile's cell, like x1,0")
        if letter not in ROTATIONS:
            raise MoveSyntaxError(
                text, f"there is no rotation {letter!r}: the three are a, b and c; {MOVE_FORM}"
            )
        return ROTATIONS.index(letter)

    @staticmethod
    def _cell(text: str, col: str, row: str) -> int:
        c, r = int(col), int(row)
        if not in_reach(c, r):
            raise IllegalMove(text, f"cell {c},{r} is far beyond the tiles")
        return cell_id(c, r)

    def _vertex(self, text: str, col: str, row: str, corner: str) -> int:
        return self._cell(text, col, row) + CORNER_DELTAS[CORNER_NAMES.index(corner)]

    def _position(self, text: str, number: int) -> int:
        if self._result is not None:
            raise IllegalMove(text, "the game is over")
        if not self.positions:
            raise IllegalMove(
                text,
                "the pool is empty, so there are no numbered positions: "
                "remove a tile (x2,0) or move a piece",
            )
        if not 1 <= number <= len(self.positions):
            raise IllegalMove(
                text,
                f"there is no position {number} on this board: the numbered "
                f"positions are 1 to {len(self.positions)}",
            )
        return self.positions[number - 1]

    def play(self, move: TrugoMove) -> TrugoState:
        text = move.text
        if self._result is not None:
            raise IllegalMove(text, "the game is over")
        mover = self._to_move
        assert mover is not None
        kind, a, b = move.raw
        if kind == PASS:
            return self._pass(text)
        self._check(move)
        board = self.board.copy()
        before = sum(board.on_board())
        filled: list[int] = []
        gone: list[tuple[int, tuple[int, ...]]] = []
        if kind == PLACE:
            filled = board.place(a, b)
        elif kind == REMOVE:
            gone = board.remove(a)
        else:
            board.move_piece(a, b)
        taken = board.capture(mover)
        notes = []
        if filled:
            notes.append("new " + _pieces_text([(v, colour_of(v)) for v in filled]))
        if gone:
            notes.append(
                "off with the tile " + _pieces_text([(v, p) for v, s in gone for p in reversed(s)])
            )
        if taken:
            notes.append("captured " + _pieces_text(taken))
        record = MoveRecord(mover, text, "; ".join(notes))
        last = LastMove(move, tuple(filled), tuple(gone), tuple(taken))
        return self._next(board, record, turn_result(board, mover, before), 0, last)

    def _pass(self, text: str) -> TrugoState:
        mover = self._to_move
        assert mover is not None
        if self._legal != [PASS_MOVE]:
            count = len(self._legal)
            raise IllegalMove(
                text,
                f"a player may pass only with no legal move, and you have {count}: "
                f"for example {TrugoMove(self._legal[0]).text}",
            )
        board = self.board.copy()
        before = sum(board.on_board())
        taken = board.capture(mover)
        result = passes_result() if self.passes + 1 >= 2 else turn_result(board, mover, before)
        note = ("captured " + _pieces_text(taken)) if taken else ""
        last = LastMove(TrugoMove(PASS_MOVE), taken=tuple(taken))
        return self._next(board, MoveRecord(mover, text, note), result, self.passes + 1, last)

    def _next(
        self, board: Board, record: MoveRecord, result: Result | None, passes: int, last: LastMove
    ) -> TrugoState:
        """The state after `record`: the other player's turn unless it ended."""
        return TrugoState(
            self.game,
            self.options,
            board,
            None if result is not None else 1 - record.player,
            (*self._history, record),
            result,
            passes,
            last,
        )

    # -- why a move is illegal -------------------------------------------------

    def _check(self, move: TrugoMove) -> None:
        """Raise IllegalMove with the rule a placement, removal or piece move breaks."""
        kind, a, b = move.raw
        text = move.text
        board = self.board
        if kind == PLACE:
            where = cell_text(a)
            if board.pool == 0:
                raise IllegalMove(
                    text,
                    "the pool is empty (the Waning phase): tiles are removed now, not "
                    "placed; remove one (x2,0) or move a piece",
                )
            if not board.tiles:
                if a != ORIGIN:
                    raise IllegalMove(text, "the first tile must be placed at 0,0")
                return
            if a in board.tiles:
                raise IllegalMove(text, f"cell {where} already holds a tile")
            if a not in board.frontier:
                raise IllegalMove(
                    text, f"cell {where} shares no side with a tile: place next to the group"
                )
            return
        if kind == REMOVE:
            where = cell_text(a)
            if board.pool > 0:
                raise IllegalMove(
                    text,
                    f"tiles are removed only in the Waning phase, once the pool is empty; "
                    f"it still holds {board.pool}",
                )
            if a not in board.tiles:
                raise IllegalMove(text, f"there is no tile at {where} to remove")
            if not board.has_free_run(a):
                raise IllegalMove(
                    text,
                    f"the tile at {where} lacks three free sides in a row; only such a "
                    "tile can be removed",
                )
            if board.splits(a):
                raise IllegalMove(
                    text, f"removing the tile at {where} would split the other tiles apart"
                )
            return
        self._check_piece_move(text, a, b)

    def _check_piece_move(self, text: str, start: int, end: int) -> None:
        board = self.board
        mover = self._to_move
        assert mover is not None
        here, there = vertex_name(start), vertex_name(end)
        stack = board.stacks.get(start)
        if stack is None:
            raise IllegalMove(text, f"there is no piece at {here}")
        if stack[-1] != mover:
            owner = SIDE_WORDS[stack[-1]]
            if mover in stack:
                raise IllegalMove(text, f"your piece at {here} is pinned under {owner}'s piece")
            raise IllegalMove(text, f"the piece at {here} is {owner}'s, not yours")
        if start == end:
            raise IllegalMove(text, "a piece must end its move somewhere new")
        if end in board.destinations(start):
            return
        tiles_there = board.count.get(end, 0)
        if tiles_there == 0:
            raise IllegalMove(text, f"{there} is not a corner of any tile")
        if tiles_there < 3:
            raise IllegalMove(
                text,
                f"{there} is a partial junction (only {tiles_there} tiles meet there): "
                "a piece may pass through it but never stop there",
            )
        target = board.stacks.get(end)
        if target is not None and board.no_stack:
            raise IllegalMove(text, "this game is played with -no_stack: no piece lands on another")
        if target is not None and len(target) == 2:
            raise IllegalMove(text, f"{there} already holds a stack of two, the highest allowed")
        raise IllegalMove(
            text,
            f"no path leads from {here} to {there}: a piece travels along the arches of "
            "its region through empty points, then may take one step along a tile edge "
            "to a junction of the other colour",
        )

    # -- search -----------------------------------------------------------------

    def search_position(self, cutoff: int | None = -1) -> TrugoSearchPosition:
        """This position for the AI's search (see `search.py`); its random
        games stop after `cutoff` turns (by default `SEARCH_CUTOFF`; None:
        the playout's cap of 1,000), scoring the material on the board, and
        run compiled when numba is installed."""
        from . import compiled
        from .search import SEARCH_CUTOFF, TrugoSearchPosition

        kind = compiled.CompiledPosition if compiled.AVAILABLE else TrugoSearchPosition
        return kind.from_state(self, SEARCH_CUTOFF if cutoff == -1 else cutoff)

    # -- output ---------------------------------------------------------------

    def position(self) -> dict[str, Any]:
        board = self.board
        return {
            "phase": self.phase,
            "pool": board.pool,
            "tiles": [
                {"cell": list(cell_of(c)), "rotation": ROTATIONS[board.tiles[c]]}
                for c in board.order
            ],
            "pieces": [
                {"junction": vertex_name(v), "stack": list(board.stacks[v])}
                for v in sorted(board.stacks)
            ],
            "hand": list(board.hand),
            "on_board": board.on_board(),
            "captured": list(board.captured),
            "removed": list(board.removed),
        }

    def text_board(self, viewer: int | None = None) -> str:
        from .text_board import render_text

        return render_text(self)

    def svg_board(self) -> str:
        from .svg_board import render_svg

        return render_svg(self)

    # Move entry by clicking (games/base.py): see entry.py.

    def move_buttons(self) -> list[MoveButton]:
        from .entry import buttons

        return buttons(self)

    def choices(self, place: str) -> list[Choice]:
        from .entry import choices

        return choices(self, place)

    def movable(self) -> list[str]:
        from .entry import movable

        return movable(self)

    def destinations(self, start: str) -> dict[str, list[str]]:
        from .entry import destinations

        return destinations(self, start)
