r"""The Vacu (and Convacu) board as text for a mail, the way Go servers draw it.

      A B C D E F G H J
    9 . . . . . . . . . 9      X Black, O White, + a star point,
    8 . . . . . . . . . 8      (X) the stone just played, or (.) the
    7 . . + . . . + . . 7      point of one that suppressed itself
    ...

Convacu frames the grid with its edge colours: `=` on Black's edges (top
and bottom), `|` on White's (left and right).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from .board import BLACK, EMPTY, WHITE, star_points
from .notation import BUTTON, COLUMNS, PASS, STONE, STONE_LETTERS

if TYPE_CHECKING:
    from .state import VacuState

WIDTH = 80


def grid_lines(state: VacuState) -> list[str]:
    """The grid with its coordinates (and Convacu's edge colours)."""
    board = state.board
    size = board.size
    stride = board.stride
    stars = set(star_points(size))
    last = state.last
    played = last.move.value if last is not None and last.move.kind == STONE else None
    framed = state.game.connection
    pad = 5 if framed else 4
    header = " " * pad + " ".join(COLUMNS[:size])
    lines = [header]
    if framed:
        lines.append("   +" + "=" * (2 * size + 1) + "+")
    for row in range(size):
        cells = []
        for col in range(size):
            p = (row + 1) * stride + col + 1
            colour = board.colour[p]
            if colour == EMPTY:
                cells.append("+" if (col, row) in stars else ".")
            else:
                cells.append(STONE_LETTERS[colour])
        text = " " + " ".join(cells) + " "
        if played is not None and played // stride == row + 1:
            col = played % stride - 1
            at = 1 + 2 * col
            text = text[: at - 1] + "(" + text[at] + ")" + text[at + 2 :]
        number = size - row
        if framed:
            lines.append(f"{number:>3}|{text}| {number}")
        else:
            lines.append(f"{number:>3}{text}{number}")
    if framed:
        lines.append("   +" + "=" * (2 * size + 1) + "+")
    lines.append(header)
    return lines


def render_text(state: VacuState) -> str:
    """The whole text board: the grid, then the game's state in words."""
    lines = grid_lines(state)
    lines.append("")
    for text in _legend(state):
        lines.extend(textwrap.wrap(text, WIDTH - 2))
    lines.append("")
    for text in _status(state):
        lines.extend(textwrap.wrap(text, WIDTH - 2, subsequent_indent="  "))
    return "\n".join(lines) + "\n"


def _legend(state: VacuState) -> list[str]:
    lines = [
        "X Black, O White, + star point; ( ) round the point of the last stone "
        "played (empty if it suppressed itself)."
    ]
    if state.game.connection:
        lines.append(
            "Edges: = Black's (top and bottom), | White's (left and right); a group "
            "joining its two edges wins."
        )
    return lines


def _status(state: VacuState) -> list[str]:
    out: list[str] = []
    last = state.last_move_line()
    if last:
        out.append(last)
    if state.black is None:
        if state.komi is None:
            out.append(f"{state.game.title} {state.board.size}x{state.board.size}: the komi step.")
        else:
            out.append(f"Komi {state.komi} for White; the second player now chooses a colour.")
        out.append(state.status_line())
        if state.result is None:
            out.append(_example(state))
        return out
    black, white = state.black, 1 - state.black
    button = (
        "Button: not taken yet (no passing until it is)."
        if state.button is None
        else f"Button: taken by {state.side_text(state.button)}, half a point."
    )
    out.append(
        f"{state.game.title} {state.board.size}x{state.board.size}: Black (X) is "
        f"{_seat(black)}, White (O) is {_seat(white)}."
    )
    out.append(f"Komi {state.komi} for White. {button}")
    stones = state.board.stones
    out.append(
        f"Stones on the board: Black {stones[BLACK]}, White {stones[WHITE]}. "
        f"Suppressed so far: Black {state.suppressed[black]}, White {state.suppressed[white]}. "
        f"Flipped so far: Black {state.flipped[black]}, White {state.flipped[white]}."
    )
    scores = state.score()
    word = "Final score" if state.result is not None else "Score now"
    out.append(f"{word}: Black {scores[black]:g}, White {scores[white]:g}.")
    out.append(state.status_line())
    if state.result is None:
        out.append(_example(state))
    return out


def _example(state: VacuState) -> str:
    """The forms of a move the position asks for, with a legal one written
    out, as the other games' boards show them."""
    if state.komi is None:
        return "For example: komi6 (White gets 6 points, or Black with komi-6)."
    if state.black is None:
        return "For example: black (or white)."
    legal = state.legal_moves()
    said = {STONE: "places a stone", BUTTON: "takes the button", PASS: "gives up the turn"}
    parts = []
    stones = [move for move in legal if move.kind == STONE]
    if stones:  # (one from the middle of the list: the first is in a corner)
        parts.append(f"{state.move_text(stones[len(stones) // 2])} {said[STONE]}")
    for kind in (BUTTON, PASS):
        if any(move.kind == kind for move in legal):
            parts.append(
                f"{state.move_text(next(m for m in legal if m.kind == kind))} {said[kind]}"
            )
    return "For example: " + "; ".join(parts) + "."


def _seat(player: int) -> str:
    return ("the first player", "the second player")[player]
