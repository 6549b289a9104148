"""The Trugo text board drawn the plain way, a character at a time and every
tile's six corners each time, as text_board.py drew it before it drew runs
of characters and each junction once: the slow twin the fast drawing is
checked against."""

from __future__ import annotations

from pbem.games.trugo import TrugoState
from pbem.games.trugo.board import MOVE, PLACE, REMOVE
from pbem.games.trugo.geometry import CORNER_DELTAS, cell_of, cell_text, point_of
from pbem.games.trugo.text_board import STAMPS, XS, YS, _Canvas, _corner_mark, _panels


class PlainCanvas(_Canvas):
    def tile(self, x: int, y: int, rotation: int, label: str, last: bool) -> None:
        for dy, dx, char in STAMPS[rotation]:
            self.put(x, y, dx, dy, char)
        self.put(x, y, -(len(label) // 2), 0, label)
        if last:
            self.put(x, y, 0, -1, "@")


def plain_board_lines(state: TrugoState) -> list[str]:
    board = state.board
    kind, a, b = state.last.move.raw if state.last is not None else (None, 0, 0)
    numbers = {cid: n for n, cid in enumerate(state.positions, start=1)}
    cells = [*board.tiles, *numbers, *([a] if kind == REMOVE else [])]
    if not cells:
        return []
    columns = [cell_of(cid)[0] for cid in cells]
    y_low = min(point_of(cid)[1] for cid in cells) - 1
    y_high = max(point_of(cid)[1] for cid in cells) + 1
    lines: list[str] = []
    panels = _panels(min(columns), max(columns))
    for first, final in panels:
        if len(panels) > 1:
            lines.append(f"Columns {first} to {final}:")
        left, right = 3 * first - 2, 3 * final + 2
        canvas = PlainCanvas(left, y_low, XS * (right - left) + 2, YS * (y_high - y_low) + 1)
        shown = [cid for cid in board.order if first <= cell_of(cid)[0] <= final]
        for cid in shown:
            x, y = point_of(cid)
            col, row = cell_of(cid)
            canvas.tile(x, y, board.tiles[cid], f"{col},{row}", kind == PLACE and cid == a)
        for cid, number in numbers.items():
            if first <= cell_of(cid)[0] <= final:
                x, y = point_of(cid)
                canvas.number(x, y, number, cell_text(cid))
        if kind == REMOVE and first <= cell_of(a)[0] <= final:
            canvas.put(*point_of(a), 0, 0, "@")
        for cid in shown:
            for d in CORNER_DELTAS:
                v = cid + d
                canvas.corner(v, _corner_mark(state, v), kind == MOVE and v == b)
        drawn = ["".join(chars).rstrip() for chars in canvas.lines]
        while drawn and not drawn[-1]:
            drawn.pop()
        lines.extend(line for line in drawn[next(i for i, t in enumerate(drawn) if t) :])
        lines.append("")
    return lines
