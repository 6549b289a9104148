"""A Vacu or Convacu record as SGF (FF[4]), the file Go programs read: the
board size, komi, the players' names by colour and the stones played.

SGF has no komi step and no button. The komi becomes `KM`, the colour
choice the names under `PB` and `PW`, and both moves are left out. Taking
the button is written as a pass with a comment: while the button is untaken
nobody may pass, so a pass there can only be the button, and a reader of
ours (or a person) restores it; a Go program sees a pass, which changes
nothing on the board, as the button does not. Captures are Vacu's own
(flips and suppressions), so a Go program replaying the stones by Go's rules
will disagree after the first; the record itself is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .notation import BUTTON, COLOUR, KOMI, PASS, STONE

if TYPE_CHECKING:
    from .state import VacuState

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def escaped(text: str) -> str:
    """An SGF text value: `]` and `\\` escaped."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


def sgf_record(state: VacuState, names: Sequence[str]) -> str:
    """The game so far as an SGF collection of one game; `names` are the
    players by seat."""
    size = state.board.size
    root = [
        "GM[1]",
        "FF[4]",
        "CA[UTF-8]",
        "AP[pbem]",
        f"SZ[{size}]",
        f"GN[{escaped(state.game.title)}]",
    ]
    if state.komi is not None:
        root.append(f"KM[{state.komi}]")
    if state.black is not None:
        root.append(f"PB[{escaped(names[state.black])}]")
        root.append(f"PW[{escaped(names[1 - state.black])}]")
    result = state.result
    if result is not None and state.black is not None:
        root.append(f"RE[{result_value(state)}]")
        root.append(f"C[{escaped(result.reason)}]")
    nodes = [";" + "".join(root)]
    for record in state.history:
        move = state.parse_move(record.text)
        if move.kind in (KOMI, COLOUR):
            continue
        colour = "B" if record.player == state.black else "W"
        if move.kind == STONE:
            row, col = divmod(move.value, state.board.stride)
            nodes.append(f";{colour}[{LETTERS[col - 1]}{LETTERS[row - 1]}]")
        elif move.kind == PASS:
            nodes.append(f";{colour}[]")
        elif move.kind == BUTTON:
            taker = escaped(names[record.player])
            nodes.append(f";{colour}[]C[{taker} takes the button (half a point)]")
    return "(" + "\n".join(nodes) + ")\n"


def result_value(state: VacuState) -> str:
    """SGF's RE: `0` for a draw, `B+3.5` with the margin where the game was
    scored, else `B+` with the winner's colour alone (RE's margin is
    optional: a connection, a resignation)."""
    result = state.result
    assert result is not None
    if result.winner is None:
        return "0"
    colour = "B" if result.winner == state.black else "W"
    if result.scores is not None and len(result.scores) == 2:
        margin = abs(result.scores[0] - result.scores[1])
        return f"{colour}+{margin:g}"
    return f"{colour}+"
