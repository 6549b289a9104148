"""The triangular lattice of Vasco and the six tile orientations.

A cell is `(col, row)`; rows grow downward. Cell `(c, r)` points up when
`c + r` is even. Its sides are numbered 0 (left, shared with `(c-1, r)`),
1 (right, shared with `(c+1, r)`) and 2 (horizontal: the bottom of an up
cell, shared with `(c, r+1)`; the top of a down cell, shared with `(c, r-1)`).

For speed the engine names a cell by one integer, its *id*:
`(row + OFFSET) * STRIDE + (col + OFFSET)` with an odd STRIDE, so an id is
even exactly when its cell points up, left and right neighbours are `id - 1`
and `id + 1`, and ids sort as cells do in canonical order (row, then column).
"""

from __future__ import annotations

STRIDE = 4097  # odd, so the parity of an id is the parity of col + row
OFFSET = 2048  # cells with |col|, |row| < 2048 have ids
LIMIT = OFFSET - 8  # cells with ids (and room for neighbours); the pool is at most 1000

RED, BLUE, PURPLE = 0, 1, 2
COLOUR_MARKS = "ox*"  # text marks: red path end, blue path end, both
COLOUR_NAMES = ("red (o)", "blue (x)", "purple (*)")
SIDE_NAMES = ("left", "right", "horizontal")

LETTERS = "abcdef"
# Colour on (left, right, horizontal) for each orientation a..f (RULINGS.md).
SIDE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (RED, BLUE, PURPLE),  # a
    (BLUE, RED, PURPLE),  # b
    (PURPLE, RED, BLUE),  # c
    (PURPLE, BLUE, RED),  # d
    (RED, PURPLE, BLUE),  # e
    (BLUE, PURPLE, RED),  # f
)
OPPOSITE_SIDE = (1, 0, 2)

# SHOWS[o][k]: the colour bit orientation o shows on side k.
SHOWS: tuple[tuple[int, int, int], ...] = tuple(
    (1 << first, 1 << second, 1 << third) for first, second, third in SIDE_COLOURS
)


def _orientation_masks() -> tuple[int, ...]:
    """For each (allowed colour bits on left, right, horizontal), packed as
    `left | right << 3 | horizontal << 6`, the bit mask of orientations that fit."""
    table = []
    for packed in range(512):
        allowed = (packed & 7, (packed >> 3) & 7, (packed >> 6) & 7)
        mask = 0
        for orientation, shows in enumerate(SHOWS):
            if all(shows[k] & allowed[k] for k in range(3)):
                mask |= 1 << orientation
        table.append(mask)
    return tuple(table)


ORIENTATION_MASK = _orientation_masks()
# SINGLE[mask]: the orientation when the mask holds exactly one, else -1.
SINGLE = tuple(
    (mask.bit_length() - 1) if mask and not mask & (mask - 1) else -1 for mask in range(64)
)


def cell_id(col: int, row: int) -> int:
    return (row + OFFSET) * STRIDE + col + OFFSET


def cell_of(cid: int) -> tuple[int, int]:
    row, col = divmod(cid, STRIDE)
    return col - OFFSET, row - OFFSET


def points_up(col: int, row: int) -> bool:
    return (col + row) % 2 == 0


def neighbour_ids(cid: int) -> tuple[int, int, int]:
    """Ids across the left, right and horizontal sides."""
    return (cid - 1, cid + 1, cid + STRIDE if cid & 1 == 0 else cid - STRIDE)


def neighbours(col: int, row: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Cells across the left, right and horizontal sides."""
    vertical = row + 1 if points_up(col, row) else row - 1
    return (col - 1, row), (col + 1, row), (col, vertical)


def corners(col: int, row: int) -> frozenset[tuple[int, int]]:
    """The three corners of a cell, as (x, y) with x in half-edge units: an up
    cell has its tip at the top, a down cell at the bottom."""
    if points_up(col, row):
        return frozenset({(col, row), (col - 1, row + 1), (col + 1, row + 1)})
    return frozenset({(col - 1, row), (col + 1, row), (col, row + 1)})


def touching(col: int, row: int) -> list[tuple[int, int]]:
    """The twelve cells that share an edge or a corner with a cell (a
    placed tile must touch a tile on the board this way), in canonical order."""
    mine = corners(col, row)
    return [
        (c, r)
        for r in range(row - 1, row + 2)
        for c in range(col - 2, col + 3)
        if (c, r) != (col, row) and corners(c, r) & mine
    ]


def _touching_offsets(up: bool) -> tuple[int, ...]:
    start = cell_id(0, 0) if up else cell_id(1, 0)
    col, row = cell_of(start)
    return tuple(cell_id(c, r) - start for c, r in touching(col, row))


_TOUCHING = (_touching_offsets(up=True), _touching_offsets(up=False))


def touching_offsets(cid: int) -> tuple[int, ...]:
    """Id offsets of the twelve cells touching `cid` by an edge or a corner."""
    return _TOUCHING[cid & 1]


def offsets_within(distance: int, up: bool) -> tuple[int, ...]:
    """Id offsets of the other cells within `distance` steps of an up (or a
    down) cell, nearest first."""
    start = 0 if up else 1  # an even id points up
    reached = [start]
    ring = [start]
    for _ in range(distance):
        ring = [n for cid in ring for n in neighbour_ids(cid) if n not in reached]
        ring = list(dict.fromkeys(ring))
        reached += ring
    return tuple(cid - start for cid in reached[1:])


_RING2 = (offsets_within(2, up=True), offsets_within(2, up=False))


def ring2_offsets(cid: int) -> tuple[int, ...]:
    """Offsets of the cells within two steps of `cid`: those whose possible
    orientations a tile at `cid` can change."""
    return _RING2[cid & 1]
