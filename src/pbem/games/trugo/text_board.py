r"""The Trugo board as text for a mail, after pbmserv's help figure.

Each tile is a hexagon 13 characters wide and 7 lines tall with its cell in
the middle; the blue half is dotted, the white half blank, so each arch shows
as the band of its colour curling round the other colour's tip. Tile `a0,0`
alone, then with pieces on its east and north-west corners:

       .-----.                 O-----.
      /    :::\               /    :::\
     /:    ::: \             /:    ::: \
    .::  0,0::  .           .::  0,0::  Xo----
     \:    ::: /             \:    ::: /
      \    :::/               \    :::/
       .-----.                 .-----.

At the corners: `O` or `X` a piece, a stack as its top piece in capitals
and the pinned piece below in small letters (`Xo`: X on top of o), `+` an
empty junction, `.` a partial junction (fewer than three tiles). An empty
cell where a tile may be placed shows its position number and its cell. `@`
marks the last move: inside the tile placed, in the cell of the tile
removed, or beside the piece that moved. Boards wider than a mail's 80
columns are printed in panels.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING

from .board import MOVE, PLACE, REMOVE
from .geometry import CORNER_DELTAS, ROTATIONS, WHITE_TIP, cell_of, cell_text, colour_of, point_of

if TYPE_CHECKING:
    from .state import TrugoState

WIDTH = 80
XS, YS = 3, 3  # characters per lattice step across, lines per lattice step down
HALF_WIDTH = 2 * XS  # from a cell's centre to its east corner
PIECES = "OX"
LEGEND = (
    "O X: White's and Blue's pieces; a stack shows its top piece in capitals\n"
    "and the pinned one below it in small letters (Ox: O on top of x).\n"
    "+ empty junction   . partial junction   : blue half of a tile\n"
    "@ the last move: in the tile placed, where the tile removed was, or beside\n"
    "the piece that moved. (3,-1) under a number: the cell of that position.\n"
    "A junction is a tile's cell and corner: the corner at the right end of the\n"
    "middle line of tile 1,0 is 1,0e, at its left end 1,0w (also ne nw sw se).\n"
    "Moves, written as shown: a0,0 places a tile (its rotation a b c and its cell,\n"
    "or a position number: b3); x1,0 removes one; 1,0e-0,1w moves a piece; pass."
)


def _half_of_rotation_a(px: float, py: float) -> int:
    """The colour (0 white, 1 blue) at a point of a tile in rotation a, in
    units of the circumradius: blue right of the middle line, white left of
    it, but white within half an edge of the east corner and blue within
    half an edge of the west corner (the tips)."""
    if math.hypot(px - 1, py) < 0.5:
        return 0
    if math.hypot(px + 1, py) < 0.5:
        return 1
    return 1 if px > 0 else 0


def _colour_at(rotation: int, dx: int, dy: int) -> int:
    """The colour under the character `dx` columns and `dy` lines from the
    centre of a tile in `rotation` (turned back to rotation a)."""
    px = dx / XS * 0.5
    py = dy / YS * math.sqrt(3) / 2
    angle = -math.radians(60 * WHITE_TIP[rotation])  # page y grows down: this turns clockwise
    rx = px * math.cos(angle) + py * math.sin(angle)
    ry = -px * math.sin(angle) + py * math.cos(angle)
    return _half_of_rotation_a(rx, ry)


def _pattern(rotation: int) -> dict[tuple[int, int], str]:
    """The tile's inside, character by character: ':' blue, ' ' white."""
    inside: dict[tuple[int, int], str] = {}
    for dy in range(-YS + 1, YS):
        reach = HALF_WIDTH - abs(dy) * XS // YS - 1  # the last column inside the slant
        for dx in range(-reach, reach + 1):
            inside[dx, dy] = ":" if _colour_at(rotation, dx, dy) else " "
    return inside


PATTERNS = tuple(_pattern(rotation) for rotation in range(3))


def _stamp(rotation: int) -> tuple[tuple[int, int, str], ...]:
    """A tile's characters in drawing order (later ones overwrite earlier):
    its colour pattern, then its six edges; drawn once per rotation, not per
    tile per board."""
    marks = [(dy, dx, char) for (dx, dy), char in PATTERNS[rotation].items()]
    for dy in (-YS, YS):
        marks += [(dy, dx, "-") for dx in range(-XS + 1, XS)]
    for i in range(1, YS):
        marks += [(-YS + i, -XS - i, "/"), (-YS + i, XS + i, "\\")]
        marks += [(YS - i, -XS - i, "\\"), (YS - i, XS + i, "/")]
    return tuple(marks)


STAMPS = tuple(_stamp(rotation) for rotation in range(3))


def _runs(stamp: tuple[tuple[int, int, str], ...]) -> tuple[tuple[int, int, str], ...]:
    """The stamp as one run of characters per line, (dy, first dx, text):
    what it leaves on each line, so a tile is drawn with a slice a line
    instead of a character at a time (a mail's board drew its tiles
    character by character in a third of its time). Each line of a tile is
    one unbroken run; this checks it."""
    left: dict[int, dict[int, str]] = {}
    for dy, dx, char in stamp:
        left.setdefault(dy, {})[dx] = char
    runs = []
    for dy, chars in sorted(left.items()):
        first, last = min(chars), max(chars)
        if len(chars) != last - first + 1:
            raise ValueError(f"line {dy} of a tile has gaps")
        runs.append((dy, first, "".join(chars[dx] for dx in range(first, last + 1))))
    return tuple(runs)


RUNS = tuple(_runs(stamp) for stamp in STAMPS)


class _Canvas:
    """Characters at lattice points: column XS * x, line YS * y (shifted)."""

    def __init__(self, x0: int, y0: int, width: int, height: int) -> None:
        self.x0, self.y0 = x0, y0
        self.width = width
        self.lines = [[" "] * width for _ in range(height)]

    def put(self, x: int, y: int, dx: int, dy: int, text: str) -> None:
        line = YS * (y - self.y0) + dy
        col = XS * (x - self.x0) + dx
        if 0 <= line < len(self.lines):
            for i, char in enumerate(text):
                if 0 <= col + i < self.width:
                    self.lines[line][col + i] = char

    def tile(self, x: int, y: int, rotation: int, label: str, last: bool) -> None:
        line0, col0 = YS * (y - self.y0), XS * (x - self.x0)
        lines, height, width = self.lines, len(self.lines), self.width
        for dy, dx, text in RUNS[rotation]:
            line, start = line0 + dy, col0 + dx
            if 0 <= line < height:
                begin, end = max(start, 0), min(start + len(text), width)  # (a panel's edge)
                if begin < end:
                    lines[line][begin:end] = text[begin - start : end - start]
        self.put(x, y, -(len(label) // 2), 0, label)
        if last:
            self.put(x, y, 0, -1, "@")

    def number(self, x: int, y: int, number: int, cell: str) -> None:
        """A placeable cell: its position number, and its cell below it."""
        text = str(number)
        self.put(x, y, -(len(text) // 2), 0, text)
        self.put(x, y, -((len(cell) + 2) // 2), 1, f"({cell})")

    def corner(self, vid: int, mark: str, last: bool = False) -> None:
        """A junction's mark; a stack's two letters spread along the tile edge
        that leaves the junction sideways (right of a white one, left of a
        blue one), and `@` beyond them when the last move ended there."""
        x, y = point_of(vid)
        white = colour_of(vid) == 0
        self.put(x, y, 0 if white or len(mark) == 1 else -1, 0, mark)
        if last:
            self.put(x, y, len(mark) if white else -len(mark), 0, "@")


def _corner_mark(state: TrugoState, vid: int) -> str:
    board = state.board
    stack = board.stacks.get(vid)
    if stack is None:
        return "+" if board.count.get(vid, 0) == 3 else "."
    if len(stack) == 1:
        return PIECES[stack[0]]
    return PIECES[stack[1]] + PIECES[stack[0]].lower()


def _panels(low: int, high: int) -> list[tuple[int, int]]:
    """Ranges of cell columns, each drawn no wider than WIDTH, of even widths,
    each sharing its last column with the next so every tile is seen whole."""
    widest = (WIDTH - 2 * XS * 2 - 2) // (3 * XS)  # column steps that fit in one panel
    if high - low <= widest:
        return [(low, high)]
    count = math.ceil((high - low) / widest)
    step = math.ceil((high - low) / count)
    return [(start, min(start + step, high)) for start in range(low, high, step)]


def _corners(cells: list[int]) -> list[int]:
    """The junctions around `cells`, each once, in the order of its last
    turn when each cell's six are drawn in turn: neighbouring tiles share
    their corners, and drawing one again only wrote the same marks over
    what the corners drawn since had written (so the board is the same)."""
    order: dict[int, None] = {}
    for cid in cells:
        for d in CORNER_DELTAS:
            order.pop(cid + d, None)
            order[cid + d] = None
    return list(order)


def board_lines(state: TrugoState) -> list[str]:
    """The drawing alone, as lines (panels separated by a blank line)."""
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
        canvas = _Canvas(left, y_low, XS * (right - left) + 2, YS * (y_high - y_low) + 1)
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
        for v in _corners(shown):
            canvas.corner(v, _corner_mark(state, v), kind == MOVE and v == b)
        drawn = ["".join(chars).rstrip() for chars in canvas.lines]
        while drawn and not drawn[-1]:
            drawn.pop()
        lines.extend(line for line in drawn[next(i for i, t in enumerate(drawn) if t) :])
        lines.append("")
    return lines


def render_text(state: TrugoState) -> str:
    """The whole text board: status lines, the drawing, the legend."""
    lines = [line for text in _status(state) for line in _wrap(text)]
    lines.append("")
    lines.extend(board_lines(state))
    lines.append(LEGEND)
    return "\n".join(lines) + "\n"


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH - 2, subsequent_indent="  ")


def _status(state: TrugoState) -> list[str]:
    board = state.board
    out: list[str] = []
    last_move = state.last_move_line()
    if last_move:
        out.append(last_move)
    if board.pool:
        phase = f"Waxing phase: {board.pool} tile{'' if board.pool == 1 else 's'} in the pool."
    else:
        phase = "Waning phase: the pool is empty; tiles are removed now."
    on = board.on_board()
    out.append(
        f"{phase} Pieces (White O, Blue X): on the board {on[0]}, {on[1]}; "
        f"in hand {board.hand[0]}, {board.hand[1]}; lost to capture {board.captured[0]}, "
        f"{board.captured[1]}; gone with tiles {board.removed[0]}, {board.removed[1]}."
    )
    out.append(state.status_line())
    if state.result is None:
        out.append(_example(state))
    return out


def _example(state: TrugoState) -> str:
    """One legal move of each kind, written out, so a reader sees the forms."""
    examples: dict[int, str] = {}
    for move in state.legal_moves():
        kind = move.raw[0]
        if kind not in examples:
            text = move.text
            if kind == PLACE:
                number = state.position_number(move.raw[1])
                text = f"{ROTATIONS[move.raw[2]]}{number} (the same as {text})"
            examples[kind] = text
    if not examples or list(examples) == [3]:
        return "No legal move: the only move is pass."
    said = {PLACE: "places a tile", REMOVE: "removes one", MOVE: "moves a piece"}
    parts = []
    for kind in sorted(examples):
        text, _, same = examples[kind].partition(" (the same as ")
        parts.append(f"{text} {said[kind]}" + (f" (the same as {same}" if same else ""))
    return "For example: " + "; ".join(parts) + "."
