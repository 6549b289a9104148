"""A Vacu (or Convacu) position: the game contract over the fast `Board`.

Notation (case-insensitive input, one canonical form each):
- a stone: a point as in Go programs, column letter (A to Z without I) and
  row number from 1 at the bottom: `D4`;
- `pass`; `button` (take the button);
- the komi step, without a `-komi` option: the first player names an integer
  komi for White, `komi6` (also `komi=6`, `komi-2`), then the second player
  chooses a colour, `black` or `white`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..base import IllegalMove, MoveButton, MoveRecord, MoveSyntaxError, Options, Result, State
from .board import BLACK, EMPTY, WHITE, Board
from .notation import BUTTON, COLOUR, COLOUR_WORDS, COLUMNS, KOMI, PASS, STONE, STONE_LETTERS
from .score import score
from .search import VacuSearchPosition
from .sgf import sgf_record
from .svg_board import render_svg
from .text_board import render_text

if TYPE_CHECKING:
    from .game import VacuGame

_POINT = re.compile(r"([a-hj-z])(\d{1,2})")
_KOMI = re.compile(r"komi[=:]?([+-]?\d{1,9})")


@dataclass(frozen=True, order=True)
class VacuMove:
    """A move: a stone at a point index, pass, button, a komi, or a colour."""

    kind: str
    value: int = 0


@dataclass(frozen=True)
class LastMove:
    """What the last move did, for the boards."""

    move: VacuMove
    suppressed: tuple[int, ...] = ()
    flipped: tuple[int, ...] = ()


class VacuState(State[VacuMove]):
    """An immutable Vacu or Convacu position (`game.connection` tells which)."""

    game: VacuGame

    def __init__(
        self,
        game: VacuGame,
        options: Options,
        board: Board,
        *,
        komi: int | None,
        black: int | None,
        button: int | None = None,
        to_move: int | None = 0,
        history: tuple[MoveRecord, ...] = (),
        result: Result | None = None,
        passes: int = 0,
        seen: dict[tuple[bytes, bool, int], int] | None = None,
        last: LastMove | None = None,
        suppressed: tuple[int, int] = (0, 0),
        flipped: tuple[int, int] = (0, 0),
    ) -> None:
        self.game = game
        self.options = options
        self.board = board
        self.komi = komi
        self.black = black  # the player index playing Black, None in the komi step
        self.button = button  # the player index who took the button
        self._to_move = to_move
        self._history = history
        self._result = result
        self.passes = passes
        self.last = last
        self.suppressed = suppressed  # stones of each player suppressed so far
        self.flipped = flipped  # stones of each player flipped so far
        # How often each position came up since play began (the first one,
        # when colours are known, counts once).
        if seen is None:
            seen = {self._key(to_move): 1} if black is not None else {}
        self.seen = seen

    @property
    def phase(self) -> str:
        if self.komi is None:
            return "komi"
        if self.black is None:
            return "colour"
        return "play"

    def colour_of(self, player: int) -> int:
        assert self.black is not None
        return BLACK if player == self.black else WHITE

    def player_of(self, colour: int) -> int:
        assert self.black is not None
        return self.black if colour == BLACK else 1 - self.black

    def side_text(self, player: int) -> str:
        """'Black (X)' once colours are chosen, else 'the first player'."""
        if self.black is None:
            return ("the first player", "the second player")[player]
        colour = self.colour_of(player)
        return f"{COLOUR_WORDS[colour].capitalize()} ({STONE_LETTERS[colour]})"

    # -- points -----------------------------------------------------------------

    def sgf(self, names: Sequence[str]) -> str:
        return sgf_record(self, names)

    def point_name(self, p: int) -> str:
        row, col = divmod(p, self.board.stride)
        return f"{COLUMNS[col - 1]}{self.board.size - row + 1}"

    def points_text(self, points: list[int]) -> str:
        """Point names in the order of a Go board's labels: by column, then row."""
        stride, size = self.board.stride, self.board.size
        ordered = sorted(points, key=lambda p: (p % stride, size - p // stride))
        return " ".join(self.point_name(p) for p in ordered)

    def point_of(self, col: int, row_from_bottom: int) -> int:
        size = self.board.size
        return (size - row_from_bottom + 1) * self.board.stride + col + 1

    # -- moves ----------------------------------------------------------------

    @cached_property
    def _legal(self) -> list[VacuMove]:
        if self._result is not None or self._to_move is None:
            return []
        if self.phase == "komi":
            limit = self.board.size**2
            return [VacuMove(KOMI, k) for k in range(-limit, limit + 1)]
        if self.phase == "colour":
            return [VacuMove(COLOUR, BLACK), VacuMove(COLOUR, WHITE)]
        colour = self.colour_of(self._to_move)
        moves = [VacuMove(STONE, p) for p in self.board.legal_points(colour)]
        if self.button is None:
            moves.append(VacuMove(BUTTON))
        elif not self.game.connection or not moves:
            moves.append(VacuMove(PASS))
        return moves

    def legal_moves(self) -> list[VacuMove]:
        return list(self._legal)

    def move_text(self, move: VacuMove) -> str:
        if move.kind == STONE:
            return self.point_name(move.value)
        if move.kind == KOMI:
            return f"komi{move.value}"
        if move.kind == COLOUR:
            return COLOUR_WORDS[move.value]
        return move.kind

    def parse_move(self, text: str) -> VacuMove:
        compact = re.sub(r"\s+", "", text).lower()
        if compact in (PASS, BUTTON):
            return VacuMove(compact)
        if compact in ("black", "white"):
            return VacuMove(COLOUR, BLACK if compact == "black" else WHITE)
        match = _KOMI.fullmatch(compact)
        if match:
            return VacuMove(KOMI, int(match.group(1)))
        match = _POINT.fullmatch(compact)
        if match:
            col = COLUMNS.index(match.group(1).upper())
            row = int(match.group(2))
            size = self.board.size
            if col >= size or not 1 <= row <= size:
                raise IllegalMove(
                    text,
                    f"{text.strip().upper()} is off this {size}x{size} board: columns run "
                    f"A to {COLUMNS[size - 1]} (no I) and rows 1 to {size}",
                )
            return VacuMove(STONE, self.point_of(col, row))
        raise MoveSyntaxError(
            text,
            "a Vacu move is a point like D4 (column letter A to Z without I, row "
            "number from 1 at the bottom), pass, or button; in the komi step the "
            "first player names a komi (komi6) and the second chooses black or white",
        )

    def play(self, move: VacuMove) -> VacuState:
        text = self.move_text(move)
        if self._result is not None:
            raise IllegalMove(text, "the game is over")
        mover = self._to_move
        assert mover is not None
        self._check(move, text)
        if move.kind == KOMI:
            return self._next(move, text, komi=move.value, to_move=1)
        if move.kind == COLOUR:
            black = 1 if move.value == BLACK else 0  # the second player's choice
            return self._next(move, text, black=black, to_move=black)
        if move.kind == BUTTON:
            return self._after_turn(move, text, self.board, button=mover)
        if move.kind == PASS:
            return self._after_turn(move, text, self.board, passes=self.passes + 1)
        board = self.board.copy()
        colour = self.colour_of(mover)
        suppressed, flipped = board.play(move.value, colour)
        return self._after_turn(move, text, board, gone=suppressed, turned=flipped)

    def _check(self, move: VacuMove, text: str) -> None:
        phase = self.phase
        if phase == "komi":
            if move.kind != KOMI:
                raise IllegalMove(
                    text,
                    "the game opens with the komi step: the first player names the "
                    "komi for White, like komi6",
                )
            limit = self.board.size**2
            if not -limit <= move.value <= limit:
                raise IllegalMove(text, f"the komi must be between {-limit} and {limit}")
            return
        if phase == "colour":
            if move.kind != COLOUR:
                raise IllegalMove(
                    text, f"the komi is {self.komi}: now choose your colour, black or white"
                )
            return
        if move.kind in (KOMI, COLOUR):
            raise IllegalMove(text, "the komi step is over: play a stone, pass or button")
        if move.kind == BUTTON and self.button is not None:
            raise IllegalMove(
                text, f"the button was taken already, by {self.side_text(self.button)}"
            )
        if move.kind == PASS:
            if self.button is None:
                raise IllegalMove(
                    text, "no one may pass while the button is untaken: take it (button) or play"
                )
            if self.game.connection and any(m.kind == STONE for m in self._legal):
                raise IllegalMove(text, "in Convacu you may pass only when you have no other move")
        if move.kind == STONE:
            self._check_stone(move.value, text)

    def _check_stone(self, p: int, text: str) -> None:
        board = self.board
        assert self._to_move is not None
        if board.colour[p] != EMPTY:
            raise IllegalMove(text, f"{self.point_name(p)} is already taken")
        if not board.placement(p, self.colour_of(self._to_move)):
            raise IllegalMove(
                text,
                f"a stone at {self.point_name(p)} would leave its group without a liberty "
                "and flip no enemy group: such a suicide is illegal",
            )

    def _next(self, move: VacuMove, text: str, **changes: Any) -> VacuState:
        """The state after a komi-step move."""
        mover = self._to_move
        assert mover is not None
        return VacuState(
            self.game,
            self.options,
            self.board,
            komi=changes.get("komi", self.komi),
            black=changes.get("black", self.black),
            to_move=changes["to_move"],
            history=(*self._history, MoveRecord(mover, text)),
            last=LastMove(move),
        )

    def _key(self, to_move: int | None) -> tuple[bytes, bool, int]:
        return (self.board.key(), self.button is not None, -1 if to_move is None else to_move)

    def _after_turn(
        self,
        move: VacuMove,
        text: str,
        board: Board,
        *,
        button: int | None = None,
        passes: int = 0,
        gone: list[int] | None = None,
        turned: list[int] | None = None,
    ) -> VacuState:
        mover = self._to_move
        assert mover is not None and self.black is not None
        gone, turned = gone or [], turned or []
        suppressed = list(self.suppressed)
        flipped = list(self.flipped)
        note_parts = []
        enemy = 1 - mover
        mine = self.colour_of(mover)
        enemy_gone = [p for p in gone if self.board.colour[p] == 3 - mine]
        own_gone = [p for p in gone if self.board.colour[p] != 3 - mine]  # with the new stone
        suppressed[enemy] += len(enemy_gone)
        suppressed[mover] += len(own_gone)
        flipped[enemy] += len(turned)
        for words, points in (
            ("suicide of", own_gone),
            ("flipped", turned),
            ("suppressed", enemy_gone),
        ):
            if points:
                note_parts.append(f"{words} {self.points_text(points)}")
        state = VacuState(
            self.game,
            self.options,
            board,
            komi=self.komi,
            black=self.black,
            button=self.button if button is None else button,
            to_move=enemy,
            history=(*self._history, MoveRecord(mover, text, "; ".join(note_parts))),
            passes=passes,
            seen=dict(self.seen),
            last=LastMove(move, tuple(gone), tuple(turned)),
            suppressed=(suppressed[0], suppressed[1]),
            flipped=(flipped[0], flipped[1]),
        )
        key = state._key(enemy)
        state.seen[key] = state.seen.get(key, 0) + 1
        state._result = state._judge(move, mover, bool(enemy_gone or turned), state.seen[key])
        if state._result is not None:
            state._to_move = None
        return state

    def _judge(self, move: VacuMove, mover: int, hit: bool, occurrences: int) -> Result | None:
        board = self.board
        mine = self.colour_of(mover)
        if self.game.connection:
            for colour in (mine, 3 - mine):
                if board.connected(colour):
                    winner = self.player_of(colour)
                    edges = "top and bottom" if colour == BLACK else "left and right"
                    return self._ended(f"{self.side_text(winner)} joined the {edges} edges", winner)
        if move.kind == PASS and self.passes >= 2:
            return self._scored("both players passed")
        if hit and board.stones[3 - mine] == 0:
            return self._scored(f"{self.side_text(mover)} removed the last enemy group")
        if move.kind == STONE and occurrences >= 3:
            return self._ended(
                "the same position came up a third time with the same player to move", None
            )
        return None

    def _tally(self, scores: tuple[float, float]) -> str:
        assert self.black is not None
        return " to ".join(
            f"{self.side_text(p)} {scores[p]:g}" for p in (self.black, 1 - self.black)
        )

    def _ended(self, why: str, winner: int | None) -> Result:
        """A result decided by something else than the score, which it still reports."""
        scores = self.score()
        return Result(winner, f"{why}; the score was {self._tally(scores)}", scores)

    def _scored(self, why: str) -> Result:
        scores = self.score()
        first, second = scores
        if first == second:
            return Result(None, f"{why}; a tie, {self._tally(scores)}", scores)
        return Result(0 if first > second else 1, f"{why}; {self._tally(scores)}", scores)

    def score(self) -> tuple[float, float]:
        """Each player's points: stones, territory, komi for White, half a
        point for the button (RULINGS.md, Vacu)."""
        if self.black is None:
            return (0.0, 0.0)
        return score(self.board, self.komi or 0, self.black, self.button)

    def search_position(self) -> VacuSearchPosition:
        """This position for search, in any phase (the komi step offers komi
        -size .. +size only; see `search.py`); the game must not be over.
        The compiled random games and tree are imported here, at a
        search's first position: numba and numpy take half a second to
        import, which every `pbem receive` paid for nothing."""
        from ..splitmix import AVAILABLE

        if AVAILABLE:  # the same games, their random ones (and tree) compiled
            from .compiled_tree import CompiledPosition

            return CompiledPosition.from_state(self)
        return VacuSearchPosition.from_state(self)

    # -- output -----------------------------------------------------------------

    def status_line(self) -> str:
        """The base line, but the komi and colour steps say what is asked."""
        number = len(self._history) + 1
        if self._result is None and self.phase == "komi":
            return f"Move {number}: the first player names the komi for White (like komi6)."
        if self._result is None and self.phase == "colour":
            return f"Move {number}: the second player chooses a colour (black or white)."
        return super().status_line()

    def rows(self) -> list[str]:
        """The board as strings, top row first: B, W or '.'."""
        board = self.board
        marks = {EMPTY: ".", BLACK: "B", WHITE: "W"}
        stride = board.stride
        return [
            "".join(marks[board.colour[(row + 1) * stride + col + 1]] for col in range(board.size))
            for row in range(board.size)
        ]

    def position(self) -> dict[str, Any]:
        return {
            "size": self.board.size,
            "board": self.rows(),
            "black": self.black,
            "komi": self.komi,
            "button": self.button,
            "score": list(self.score()),
            "suppressed": list(self.suppressed),
            "flipped": list(self.flipped),
        }

    def text_board(self, viewer: int | None = None) -> str:
        return render_text(self)

    def svg_board(self) -> str:
        return render_svg(self)

    def move_buttons(self) -> list[MoveButton]:
        """The komi step, the button and the pass, when legal (entry.py)."""
        from .entry import buttons

        return buttons(self)
