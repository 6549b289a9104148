"""The slow, obviously correct Vasco rules, read straight off RULINGS.md.

No cell ids, no incremental bookkeeping, no pruning argument: every question is
answered by recomputing it from the tiles. It is far too slow to host games
and exists so the tests can check the fast engine (`board.py`) against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import BLUE, OPPOSITE_SIDE, PURPLE, RED, SIDE_COLOURS, corners, neighbours

Cell = tuple[int, int]
Tiles = dict[Cell, int]  # cell -> orientation 0..5, in placement order


def canonical(cell: Cell) -> tuple[int, int]:
    """Sort key of canonical cell order: row, then column."""
    return cell[1], cell[0]


def shown_to(tiles: Tiles, cell: Cell) -> list[int]:
    """The colours the tiled neighbours of `cell` show on the edges they share with it."""
    colours = []
    for side, other in enumerate(neighbours(*cell)):
        if other in tiles:
            colours.append(SIDE_COLOURS[tiles[other]][OPPOSITE_SIDE[side]])
    return colours


def is_dead(tiles: Tiles, cell: Cell) -> bool:
    colours = shown_to(tiles, cell)
    return cell not in tiles and len(colours) != len(set(colours))


def matches(tiles: Tiles, cell: Cell, orientation: int) -> bool:
    for side, other in enumerate(neighbours(*cell)):
        if other in tiles and (
            SIDE_COLOURS[tiles[other]][OPPOSITE_SIDE[side]] != SIDE_COLOURS[orientation][side]
        ):
            return False
    return True


def possible(tiles: Tiles, cell: Cell) -> list[int]:
    """Orientations that match every tiled neighbour and make no cell dead."""
    found = []
    for orientation in range(6):
        if not matches(tiles, cell, orientation):
            continue
        after = {**tiles, cell: orientation}
        if not any(is_dead(after, other) for other in neighbours(*cell)):
            found.append(orientation)
    return found


def empty_near(tiles: Tiles, distance: int) -> set[Cell]:
    """Empty cells reachable from a tile in at most `distance` steps."""
    reached = set(tiles)
    ring = set(tiles)
    for _ in range(distance):
        ring = {n for cell in ring for n in neighbours(*cell)} - reached
        reached |= ring
    return reached - set(tiles)


def touches(tiles: Tiles, cell: Cell) -> bool:
    """Whether some tile shares at least one corner (so perhaps an edge) with `cell`."""
    mine = corners(*cell)
    return any(corners(*other) & mine for other in tiles)


def connected(tiles: Tiles) -> bool:
    if not tiles:
        return True
    start = next(iter(tiles))
    seen = {start}
    todo = [start]
    while todo:
        for other in neighbours(*todo.pop()):
            if other in tiles and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(tiles)


def place(tiles: Tiles, pool: int, cell: Cell, orientation: int) -> tuple[Tiles, list[Cell]]:
    """A whole move: the tile, then its auto moves. Returns the new tiles and
    the cells filled (placed tile first); raises ValueError if illegal."""
    if cell in tiles:
        raise ValueError("occupied")
    if not tiles and cell != (0, 0):
        raise ValueError("first tile not at 0,0")
    if tiles and not touches(tiles, cell):
        raise ValueError("touches no tile")
    if orientation not in possible(tiles, cell):
        raise ValueError("no fit")
    tiles = {**tiles, cell: orientation}
    filled = [cell]
    while True:
        # A cell with no tile within two steps has all six orientations possible.
        forced = [
            c for c in sorted(empty_near(tiles, 2), key=canonical) if len(possible(tiles, c)) == 1
        ]
        if not forced:
            break
        if len(filled) == pool:
            raise ValueError("pool")
        tiles[forced[0]] = possible(tiles, forced[0])[0]
        filled.append(forced[0])
    if not connected(tiles):
        raise ValueError("disconnected")
    return tiles, filled


def legal_moves(tiles: Tiles, pool: int, reach: int = 5) -> list[tuple[Cell, int]]:
    """Every legal move, trying every orientation on every empty cell within
    `reach` steps of a tile (more than the engine's proven bound of 3)."""
    cells = empty_near(tiles, reach) if tiles else {(0, 0)}
    moves = []
    for cell in sorted(cells, key=canonical):
        for orientation in range(6):
            try:
                place(tiles, pool, cell, orientation)
            except ValueError:
                continue
            moves.append((cell, orientation))
    return moves


def components(tiles: Tiles, colour: int) -> list[tuple[bool, int]]:
    """(is it a loop, its length in tiles) for every path of `colour`: tiles
    are joined across an edge showing `colour` or purple on both sides."""
    links: dict[Cell, list[Cell]] = {cell: [] for cell in tiles}
    for cell, orientation in tiles.items():
        for side, other in enumerate(neighbours(*cell)):
            if other in tiles and SIDE_COLOURS[orientation][side] in (colour, PURPLE):
                links[cell].append(other)
    found = []
    seen: set[Cell] = set()
    for start in tiles:
        if start in seen:
            continue
        part = {start}
        todo = [start]
        while todo:
            for other in links[todo.pop()]:
                if other not in part:
                    part.add(other)
                    todo.append(other)
        seen |= part
        edges = sum(len(links[cell]) for cell in part) // 2
        found.append((edges == len(part), len(part)))
    return found


@dataclass
class ReferenceGame:
    """A whole game by the reference rules (no -strict)."""

    size: int = 54
    tiles: Tiles = field(default_factory=dict)
    auto: set[Cell] = field(default_factory=set)
    to_move: int | None = 0
    winner: int | None = None
    over: bool = False

    @property
    def pool(self) -> int:
        return self.size - len(self.tiles)

    def play(self, cell: Cell, orientation: int) -> None:
        assert not self.over
        self.tiles, filled = place(self.tiles, self.pool, cell, orientation)
        self.auto |= set(filled[1:])
        mover = self.to_move
        assert mover is not None
        self.to_move = 1 - mover
        loops = [
            [length for closed, length in components(self.tiles, colour) if closed]
            for colour in (RED, BLUE)
        ]
        if loops[RED] or loops[BLUE]:
            if not loops[BLUE]:
                self._end(RED)
            elif not loops[RED]:
                self._end(BLUE)
            else:
                self._end_by_length(max(loops[RED]), max(loops[BLUE]))
        elif self.pool == 0 or not legal_moves(self.tiles, self.pool):
            paths = [
                max(length for _, length in components(self.tiles, colour))
                for colour in (RED, BLUE)
            ]
            self._end_by_length(paths[RED], paths[BLUE])

    def _end(self, winner: int | None) -> None:
        self.over = True
        self.winner = winner
        self.to_move = None

    def _end_by_length(self, red: int, blue: int) -> None:
        """The owner of the longer loop or path loses; equal lengths draw."""
        self._end(None if red == blue else (BLUE if red > blue else RED))
