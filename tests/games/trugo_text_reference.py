"""The Trugo text board drawn the plain way, a character at a time and every
tile's six corners each time, as text_board.py drew it before it drew runs
of characters and each junction once: the slow twin the fast drawing is
checked against. It is text_board.py's own `board_lines` with the plain
canvas and corners put in for the call."""

from __future__ import annotations

from unittest import mock

from pbem.games.trugo import TrugoState, text_board
from pbem.games.trugo.geometry import CORNER_DELTAS


class PlainCanvas(text_board._Canvas):
    def tile(self, x: int, y: int, rotation: int, label: str, last: bool) -> None:
        for dy, dx, char in text_board.STAMPS[rotation]:
            self.put(x, y, dx, dy, char)
        self.put(x, y, -(len(label) // 2), 0, label)
        if last:
            self.put(x, y, 0, -1, "@")


def every_corner(cells: list[int]) -> list[int]:
    """Each cell's six junctions in turn, shared ones again each time."""
    return [cid + d for cid in cells for d in CORNER_DELTAS]


def plain_board_lines(state: TrugoState) -> list[str]:
    with (
        mock.patch.object(text_board, "_Canvas", PlainCanvas),
        mock.patch.object(text_board, "_corners", every_corner),
    ):
        return text_board.board_lines(state)
