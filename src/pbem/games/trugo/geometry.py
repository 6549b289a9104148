"""The honeycomb of Trugo: cells, their corners (vertices), sides and arches.

Tiles are flat-topped hexagons. A cell is named `(col, row)`: columns of
hexagons side by side, rows growing downward, odd columns set half a hexagon
lower (so `1,0` touches `0,0` at its lower right). Cell `0,0` holds the first
tile.

Inside, the engine uses one *fine lattice* for cells and vertices alike:
a point `(x, y)` in half-edge steps across and half-hexagon-height steps down.
Cell `(col, row)` has its centre at `x = 3*col`, `y = 2*row + (col odd)`; its
corners sit at `x +- 2, y` (east, west) and `x +- 1, y +- 1`. A point with
`x % 3 == 0` is a cell centre; `x % 3 == 2` is a white vertex (the east corner
of the cell two steps to its west), `x % 3 == 1` a blue vertex (the west
corner of the cell two steps to its east). So every tile's east corner is
white, as RULINGS.md fixes.

For speed a point is one integer, its *id*: `(y + OFFSET) * STRIDE + x + OFFSET`,
so ids sort as points read on a page (row by row, left to right).
"""

from __future__ import annotations

STRIDE = 1 << 13
OFFSET = 1 << 12  # points with |x|, |y| < 4096 have ids
LIMIT = 1200  # cells with |col|, |row| <= LIMIT are in reach: the pool is at most 1000

WHITE, BLUE = 0, 1  # a vertex's colour is also the index of the player who owns it
COLOUR_NAMES = ("white", "blue")

# Corners counter-clockwise from the east (as seen on the page): (dx, dy).
CORNER_NAMES = ("e", "ne", "nw", "w", "sw", "se")
CORNER_OFFSETS = ((2, 0), (1, -1), (-1, -1), (-2, 0), (-1, 1), (1, 1))
# How the notation writes a cell (`1,-2`) and a corner (`ne`): regex groups.
CELL_PATTERN = r"([+-]?\d{1,9}),([+-]?\d{1,9})"
CORNER_PATTERN = "(" + "|".join(sorted(CORNER_NAMES, key=len, reverse=True)) + ")"
# Side k lies between corners k and k + 1; the cell across it is this far away.
SIDE_OFFSETS = ((3, -1), (0, -2), (-3, -1), (-3, 1), (0, 2), (3, 1))

ROTATIONS = "abc"
# Rotation k puts the white tip at corner 2k and the blue tip opposite it; each
# arch joins the two other corners of its colour.
WHITE_TIP = (0, 2, 4)
ARCHES: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = tuple(
    (((2 * k + 2) % 6, (2 * k + 4) % 6), ((2 * k + 1) % 6, (2 * k + 5) % 6)) for k in range(3)
)  # ARCHES[k] = (white arch corners, blue arch corners)


def point_id(x: int, y: int) -> int:
    return (y + OFFSET) * STRIDE + x + OFFSET


def point_of(pid: int) -> tuple[int, int]:
    y, x = divmod(pid, STRIDE)
    return x - OFFSET, y - OFFSET


def delta(dx: int, dy: int) -> int:
    return dy * STRIDE + dx


def cell_id(col: int, row: int) -> int:
    return point_id(3 * col, 2 * row + (col & 1))


def cell_of(cid: int) -> tuple[int, int]:
    x, y = point_of(cid)
    col = x // 3
    return col, (y - (col & 1)) // 2


def in_reach(col: int, row: int) -> bool:
    return abs(col) <= LIMIT and abs(row) <= LIMIT


CORNER_DELTAS = tuple(delta(dx, dy) for dx, dy in CORNER_OFFSETS)
SIDE_DELTAS = tuple(delta(dx, dy) for dx, dy in SIDE_OFFSETS)
# The three vertices a tile edge joins to a white (then a blue) vertex.
VERTEX_NEIGHBOURS = (
    (delta(-1, -1), delta(-1, 1), delta(2, 0)),
    (delta(1, -1), delta(1, 1), delta(-2, 0)),
)


def colour_of(vid: int) -> int:
    """WHITE or BLUE for a vertex id (a point whose x is not a multiple of 3)."""
    x = vid % STRIDE - OFFSET
    return WHITE if x % 3 == 2 else BLUE


def vertex_name(vid: int) -> str:
    """The canonical name: a white vertex as the east corner of the cell to its
    west (`1,0e`), a blue one as the west corner of the cell to its east."""
    if colour_of(vid) == WHITE:
        return cell_text(vid + delta(-2, 0)) + "e"
    return cell_text(vid + delta(2, 0)) + "w"


def cell_text(cid: int) -> str:
    col, row = cell_of(cid)
    return f"{col},{row}"
