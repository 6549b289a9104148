"""A slow, literal reading of the Trugo rulings, to test the fast engine against.

Nothing here is shared with `board.py` but the notation: points are found
from real coordinates (circumradius 1, y down), every question is answered
by recomputing it from the tiles, and the code follows RULINGS.md sentence by
sentence. Tests play random games through both and compare every position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

ROTATION_LETTERS = "abc"
CORNER_LETTERS = ("e", "ne", "nw", "w", "sw", "se")
SQRT3 = math.sqrt(3)

Cell = tuple[int, int]
Point = tuple[int, int]  # a vertex: (round(4x), round(4y / sqrt 3)) of its real position


def centre(cell: Cell) -> tuple[float, float]:
    col, row = cell
    return 1.5 * col, SQRT3 * (row + 0.5 * (col % 2))


def corner(cell: Cell, k: int) -> Point:
    """Corner k (counter-clockwise from east, on the page) of a cell."""
    cx, cy = centre(cell)
    x = cx + math.cos(math.radians(60 * k))
    y = cy - math.sin(math.radians(60 * k))
    return round(4 * x), round(4 * y / SQRT3)


def neighbours(cell: Cell) -> list[Cell]:
    """The six cells sharing a side, found by the distance of their centres."""
    col, row = cell
    cx, cy = centre(cell)
    found = []
    for c in range(col - 1, col + 2):
        for r in range(row - 1, row + 2):
            ox, oy = centre((c, r))
            if (c, r) != cell and abs(math.hypot(ox - cx, oy - cy) - SQRT3) < 1e-9:
                found.append((c, r))
    return found


def side_neighbour(cell: Cell, k: int) -> Cell:
    """The cell across side k (between corners k and k + 1)."""
    ends = {corner(cell, k), corner(cell, (k + 1) % 6)}
    for other in neighbours(cell):
        if ends <= {corner(other, j) for j in range(6)}:
            return other
    raise AssertionError("every side has a cell across it")


def tile_arches(rotation: int) -> list[tuple[int, int]]:
    """The corner pairs joined by the tile's two arches: the white tip sits at
    corner 2 * rotation, the blue tip opposite; each arch joins the other two
    corners of its colour (even corners are white: the east corner is)."""
    white_tip = 2 * rotation
    blue_tip = (white_tip + 3) % 6
    white = [k for k in (0, 2, 4) if k != white_tip]
    blue = [k for k in (1, 3, 5) if k != blue_tip]
    return [(white[0], white[1]), (blue[0], blue[1])]


@dataclass
class Reference:
    """A whole Trugo position, recomputed from scratch for every question."""

    pool: int
    pieces: int
    no_stack: bool = False
    tiles: dict[Cell, int] = field(default_factory=dict)
    order: list[Cell] = field(default_factory=list)
    stacks: dict[Point, list[int]] = field(default_factory=dict)
    hand: list[int] = field(default_factory=list)
    captured: list[int] = field(default_factory=lambda: [0, 0])
    removed: list[int] = field(default_factory=lambda: [0, 0])
    to_move: int | None = 0
    passes: int = 0
    winner: int | None = None
    over: bool = False

    def __post_init__(self) -> None:
        self.hand = [self.pieces, self.pieces]

    # -- the shape of the board -------------------------------------------

    def corners_of(self, point: Point) -> list[tuple[Cell, int]]:
        """(tile, corner index) for every tile having `point` as a corner."""
        return [(cell, k) for cell in self.tiles for k in range(6) if corner(cell, k) == point]

    def junction(self, point: Point) -> bool:
        return len(self.corners_of(point)) == 3

    def vertices(self) -> set[Point]:
        return {corner(cell, k) for cell in self.tiles for k in range(6)}

    def arch_links(self) -> dict[Point, set[Point]]:
        links: dict[Point, set[Point]] = {}
        for cell, rotation in self.tiles.items():
            for i, j in tile_arches(rotation):
                a, b = corner(cell, i), corner(cell, j)
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        return links

    def edge_links(self) -> dict[Point, set[Point]]:
        """Points joined by a side of some tile."""
        links: dict[Point, set[Point]] = {}
        for cell in self.tiles:
            for k in range(6):
                a, b = corner(cell, k), corner(cell, (k + 1) % 6)
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        return links

    def connected(self, tiles: set[Cell]) -> bool:
        if not tiles:
            return True
        start = next(iter(tiles))
        seen = {start}
        todo = [start]
        while todo:
            for other in neighbours(todo.pop()):
                if other in tiles and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen == tiles

    # -- moves ------------------------------------------------------------

    def placements(self) -> list[tuple[Cell, int]]:
        if not self.tiles:
            return [((0, 0), r) for r in range(3)]
        cells = {n for cell in self.tiles for n in neighbours(cell) if n not in self.tiles}
        return [(cell, r) for cell in cells for r in range(3)]

    def removals(self) -> list[Cell]:
        found = []
        for cell in self.tiles:
            free = [side_neighbour(cell, k) not in self.tiles for k in range(6)]
            run = any(all(free[(s + i) % 6] for i in range(3)) for s in range(6))
            if run and self.connected(set(self.tiles) - {cell}):
                found.append(cell)
        return found

    def piece_moves(self, player: int) -> list[tuple[Point, Point]]:
        arches = self.arch_links()
        edges = self.edge_links()
        found = []
        for start, stack in self.stacks.items():
            if stack[-1] != player:
                continue
            reached = {start}
            todo = [start]
            while todo:  # along arches, through empty points only
                here = todo.pop()
                for there in arches.get(here, ()):
                    if there not in reached and there not in self.stacks:
                        reached.add(there)
                        todo.append(there)
            ends = set()
            for here in reached:
                for there in arches.get(here, ()):
                    ends.add(there)  # landing in the region
            for here in reached:
                for there in edges.get(here, ()):
                    ends.add(there)  # the final step along a tile edge
            for end in ends:
                if end == start or not self.junction(end):
                    continue
                below = self.stacks.get(end, [])
                if not below or (len(below) == 1 and not self.no_stack):
                    found.append((start, end))
        return found

    def legal(self) -> list[tuple[Any, ...]]:
        if self.over:
            return []
        assert self.to_move is not None
        moves: list[tuple[Any, ...]] = []
        if self.pool > 0:
            moves += [("place", cell, r) for cell, r in self.placements()]
        else:
            moves += [("remove", cell) for cell in self.removals()]
        moves += [("move", a, b) for a, b in self.piece_moves(self.to_move)]
        return moves or [("pass",)]

    # -- playing ----------------------------------------------------------

    def play(self, move: tuple[Any, ...]) -> None:
        assert move in self.legal(), move
        mover = self.to_move
        assert mover is not None
        before = sum(len(s) for s in self.stacks.values())
        if move[0] == "pass":
            self.passes += 1
        else:
            self.passes = 0
        if move[0] == "place":
            _, cell, rotation = move
            old = self.vertices()
            was = {p: len(self.corners_of(p)) for p in old}
            self.tiles[cell] = rotation
            self.order.append(cell)
            self.pool -= 1
            for k in range(6):  # counter-clockwise from the east corner
                point = corner(cell, k)
                if was.get(point, 0) == 2:
                    owner = k % 2
                    if self.hand[owner] > 0:
                        self.hand[owner] -= 1
                        self.stacks[point] = [owner]
        elif move[0] == "remove":
            cell = move[1]
            for k in range(6):
                for player in self.stacks.pop(corner(cell, k), []):
                    self.removed[player] += 1
            del self.tiles[cell]
            self.order.remove(cell)
        elif move[0] == "move":
            _, start, end = move
            piece = self.stacks[start].pop()
            if not self.stacks[start]:
                del self.stacks[start]
            self.stacks.setdefault(end, []).append(piece)
        self.capture(1 - mover)
        self.capture(mover)
        self.judge(mover, before)

    def capture(self, player: int) -> None:
        edges = self.edge_links()
        tops = {p for p, s in self.stacks.items() if s[-1] == player}
        doomed: list[Point] = []
        seen: set[Point] = set()
        for first in tops:
            if first in seen:
                continue
            group = {first}
            todo = [first]
            while todo:
                for there in edges.get(todo.pop(), ()):
                    if there in tops and there not in group:
                        group.add(there)
                        todo.append(there)
            seen |= group
            around = {n for p in group for n in edges[p]} - group
            if all(
                self.junction(n) and n in self.stacks and self.stacks[n][-1] != player
                for n in around
            ):
                doomed.extend(group)
        for point in doomed:
            stack = self.stacks[point]
            top = stack.pop()
            self.captured[top] += 1
            if stack and stack[-1] == top:
                stack.pop()
                self.captured[top] += 1
            if not stack:
                del self.stacks[point]

    def judge(self, mover: int, before: int) -> None:
        on = [0, 0]
        for stack in self.stacks.values():
            for player in stack:
                on[player] += 1
        ended, winner = False, None
        if self.passes >= 2:
            ended = True
        elif sum(on) == 0 and before > 0:
            ended, winner = True, mover
        elif self.pool == 0:
            if on == [0, 0]:
                ended = True
            elif on[mover] == 0:
                ended, winner = True, 1 - mover
            elif on[1 - mover] == 0:
                ended, winner = True, mover
        self.over, self.winner = ended, winner
        self.to_move = None if ended else 1 - mover

    # -- notation ---------------------------------------------------------

    @staticmethod
    def point_name(point: Point) -> str:
        """White points as the e corner of the cell west of them, blue ones
        as the w corner of the cell east of them."""
        x, y = point[0] / 4, point[1] * SQRT3 / 4
        for shift, k in ((-1.0, 0), (1.0, 3)):
            col = round((x + shift) / 1.5)
            row = round(y / SQRT3 - 0.5 * (col % 2))
            if corner((col, row), k) == point:
                return f"{col},{row}{CORNER_LETTERS[k]}"
        raise AssertionError("every point is the e or the w corner of a cell")

    def text(self, move: tuple[Any, ...]) -> str:
        if move[0] == "place":
            (col, row), rotation = move[1], move[2]
            return f"{ROTATION_LETTERS[rotation]}{col},{row}"
        if move[0] == "remove":
            col, row = move[1]
            return f"x{col},{row}"
        if move[0] == "move":
            return f"{self.point_name(move[1])}-{self.point_name(move[2])}"
        return "pass"

    def position(self) -> dict[str, Any]:
        """The engine's JSON position, computed here."""
        on = [0, 0]
        for stack in self.stacks.values():
            for player in stack:
                on[player] += 1
        pieces = [
            {"junction": self.point_name(p), "stack": list(s)} for p, s in self.stacks.items()
        ]
        return {
            "phase": "waxing" if self.pool > 0 else "waning",
            "pool": self.pool,
            "tiles": [
                {"cell": list(cell), "rotation": ROTATION_LETTERS[self.tiles[cell]]}
                for cell in self.order
            ],
            "pieces": sorted(pieces, key=lambda piece: piece["junction"]),
            "hand": list(self.hand),
            "on_board": on,
            "captured": list(self.captured),
            "removed": list(self.removed),
        }
