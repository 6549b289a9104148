r"""The Vasco board as text for a mail, in the style of pbmserv's help page.

Each tile side is 8 characters wide and 4 lines tall. A tile shows its path
end (`o` red, `x` blue, `*` both) at the middle of each edge and the same mark
just inside, where the arc leaves the edge:

       +            +---x---+
      / \            \  x  /
     oo xx     and    ** oo      (an up tile `a`, a down tile `d`)
    /  *  \            \ /
   +---*---+            +

`@` in the middle marks the tiles of the last move, `~` near the tip an auto
tile, and an empty cell where a legal move exists shows its position number.
Boards wider than a mail's 80 columns are printed in panels of columns.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from .geometry import COLOUR_MARKS, LETTERS, SIDE_COLOURS, cell_id, cell_of

if TYPE_CHECKING:
    from .state import VascoState

WIDTH = 80
LEGEND = (
    "o x *: red (O), blue (X), both path ends   @ last move   ~ auto tile\n"
    "Numbers: playable cells; move with a letter and a number (d3) or a cell (d3,-1)."
)


class _Canvas:
    """A grid of characters with the board's cells at fixed places."""

    def __init__(self, cols: range, rows: range, margin: int) -> None:
        self.cols = cols
        self.rows = rows
        self.margin = margin
        self.width = margin + 4 * (len(cols) - 1) + 9
        self.lines = [[" "] * self.width for _ in range(4 * len(rows) + 1)]

    def put(self, y: int, x: int, text: str) -> None:
        for offset, char in enumerate(text):
            if 0 <= x + offset < self.width:
                self.lines[y][x + offset] = char

    def centre(self, col: int, row: int) -> tuple[int, int]:
        """(top line, centre column) of a cell."""
        return 4 * (row - self.rows.start), self.margin + 4 * (col - self.cols.start) + 4

    def tile(self, col: int, row: int, orientation: int, marks: str) -> None:
        left, right, horizontal = (COLOUR_MARKS[c] for c in SIDE_COLOURS[orientation])
        y, x = self.centre(col, row)
        middle = "@" if "@" in marks else " "
        tip = "~" if "~" in marks else " "
        if (col + row) % 2 == 0:  # points up
            self.put(y, x, "+")
            self.put(y + 1, x - 1, f"/{tip}\\")
            self.put(y + 2, x - 2, f"{left}{left}{middle}{right}{right}")
            self.put(y + 3, x - 3, f"/  {horizontal}  \\")
            self.put(y + 4, x - 4, f"+---{horizontal}---+")
        else:
            self.put(y, x - 4, f"+---{horizontal}---+")
            self.put(y + 1, x - 3, f"\\  {horizontal}  /")
            self.put(y + 2, x - 2, f"{left}{left}{middle}{right}{right}")
            self.put(y + 3, x - 1, f"\\{tip}/")
            self.put(y + 4, x, "+")

    def number(self, col: int, row: int, number: int) -> None:
        """A position number in the cell's middle, clear of its neighbours'
        edge marks, and dots on the cell's free corners to show its shape."""
        y, x = self.centre(col, row)
        text = str(number)
        start = x - 1 if len(text) > 1 else x
        if len(text) == 2 and self.lines[y + 2][x - 2] != " " and self.lines[y + 2][x + 2] == " ":
            start = x
        self.put(y + 2, start, text)
        corners = ((y, x), (y + 4, x - 4), (y + 4, x + 4))
        if (col + row) % 2:
            corners = ((y, x - 4), (y, x + 4), (y + 4, x))
        for cy, cx in corners:
            if self.lines[cy][cx] == " ":
                self.lines[cy][cx] = "."

    def render(self) -> list[str]:
        header = [" "] * self.width
        for col in self.cols:
            _, x = self.centre(col, self.rows.start)
            text = str(col)
            start = x - len(text) // 2
            header[start : start + len(text)] = text
        column_line = "".join(header).rstrip()
        out = [column_line]
        for index, chars in enumerate(self.lines):
            if index % 4 == 2:
                label = str(self.rows.start + index // 4).rjust(self.margin - 1)
                chars[: self.margin - 1] = label
            out.append("".join(chars).rstrip())
        out.append(column_line)
        return out


def render_text(state: VascoState) -> str:
    """The whole text board with its status lines and legend."""
    last = set(state.last)
    cells: dict[tuple[int, int], tuple[int, str]] = {}
    for col, row, orientation, auto in state.tiles():
        marks = ("~" if auto else "") + ("@" if cell_id(col, row) in last else "")
        cells[col, row] = (orientation, marks)
    numbers = {cell_of(cid): n for n, cid in enumerate(state.positions, start=1)}
    lines = []
    spots = [*cells, *numbers]
    if spots:
        cols = [col for col, _ in spots]
        rows = [row for _, row in spots]
        margin = max(len(str(min(rows))), len(str(max(rows)))) + 2
        low, high = min(cols), max(cols)
        widest = (WIDTH - margin - 9) // 4 + 1  # columns that fit in one panel
        count = -(-(high - low + 1) // widest)
        span = -(-(high - low + 1) // count)  # panels of even width
        panels = [range(start, min(start + span, high + 1)) for start in range(low, high + 1, span)]
        for panel in panels:
            if len(panels) > 1:
                lines.append(f"Columns {panel.start} to {panel.stop - 1}:")
            canvas = _Canvas(panel, range(min(rows), max(rows) + 1), margin)
            for (col, row), (orientation, marks) in cells.items():
                if col in panel:
                    canvas.tile(col, row, orientation, marks)
            for (col, row), number in numbers.items():
                if col in panel:
                    canvas.number(col, row, number)
            lines.extend(canvas.render())
            lines.append("")
    lines.append(LEGEND)
    lines.append("")
    for line in _status(state):
        lines.extend(textwrap.wrap(line, WIDTH - 2, subsequent_indent="  "))
    return "\n".join(lines) + "\n"


def _status(state: VascoState) -> list[str]:
    last_move = state.last_move_line()
    lines = [last_move] if last_move else []
    (red_loops, red), (blue_loops, blue) = state.board.path_summary()
    lines.append(
        f"Pool: {state.pool} tile{'' if state.pool == 1 else 's'} left. "
        f"Longest paths: red {red}, blue {blue}."
        + (f" Loops: red {red_loops}, blue {blue_loops}." if red_loops or blue_loops else "")
    )
    lines.append(state.status_line())
    if state.result is None and state.positions:
        legal = state.legal_moves()
        sample = next((move for move in legal if state.touches_group(move)), legal[0])
        number = state.position_number(sample.col, sample.row)
        lines.append(
            f"For example: {LETTERS[sample.orientation]}{number} (the same as {sample.text})."
        )
    return lines
