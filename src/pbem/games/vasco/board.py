"""The Vasco engine: tiles on the lattice, possible orientations, auto moves,
legality, paths and loops. Mutable and fast; `VascoState` wraps it immutably.

Cells are ids (see geometry). The board keeps, for every empty cell next to a
tile, the colour bits its tiled neighbours show it (`seen`): a cell is dead when
two neighbours show the same colour, so a placement may never show a colour
already in a neighbouring empty cell's `seen`.

A placed tile must touch a tile already on the board by an edge or a corner
(RULINGS.md), so the candidate cells of a move are the empty cells among the
twelve touching some tile; a tile touching only at a corner is legal exactly
when its auto moves join it to the group by edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .geometry import (
    BLUE,
    OPPOSITE_SIDE,
    ORIENTATION_MASK,
    PURPLE,
    RED,
    SHOWS,
    SIDE_COLOURS,
    SINGLE,
    STRIDE,
    cell_id,
    neighbour_ids,
    ring2_offsets,
    touching_offsets,
)

ORIGIN = cell_id(0, 0)

# Why an attempted placement failed (see VascoState for the words).
OCCUPIED, NOT_ORIGIN, MISFIT, POOL, DISCONNECTED, NO_CONTACT = range(1, 7)

# ARC_SIDES[o][colour]: the two sides joined by the arc of that colour.
ARC_SIDES = tuple(
    tuple(
        (colours.index(colour), colours.index(PURPLE)) if colour != PURPLE else (-1, -1)
        for colour in (RED, BLUE)
    )
    for colours in SIDE_COLOURS
)


class Board:
    """Tiles by cell id, in placement order, with the empty cells' `seen` bits."""

    __slots__ = ("auto", "order", "seen", "tiles")

    def __init__(self) -> None:
        self.tiles: dict[int, int] = {}
        self.seen: dict[int, int] = {}
        self.order: list[int] = []
        self.auto: set[int] = set()

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.tiles = self.tiles.copy()
        other.seen = self.seen.copy()
        other.order = self.order.copy()
        other.auto = self.auto.copy()
        return other

    # -- possible orientations -------------------------------------------------

    def options_mask(self, cid: int) -> int:
        """Bit mask of the orientations that fit the empty cell `cid`: they match
        every tiled neighbour and show no empty neighbour a colour it already sees."""
        tiles = self.tiles
        seen = self.seen
        t = tiles.get(cid - 1)
        left = SHOWS[t][1] if t is not None else 7 & ~seen.get(cid - 1, 0)
        t = tiles.get(cid + 1)
        right = SHOWS[t][0] if t is not None else 7 & ~seen.get(cid + 1, 0)
        vertical = cid + STRIDE if cid & 1 == 0 else cid - STRIDE
        t = tiles.get(vertical)
        horizontal = SHOWS[t][2] if t is not None else 7 & ~seen.get(vertical, 0)
        return ORIENTATION_MASK[left | right << 3 | horizontal << 6]

    def _seen_of(self, cid: int) -> int:
        tiles = self.tiles
        bits = 0
        for side, n in enumerate(neighbour_ids(cid)):
            t = tiles.get(n)
            if t is not None:
                bits |= SHOWS[t][OPPOSITE_SIDE[side]]
        return bits

    # -- placing and taking back ----------------------------------------------

    def put(self, cid: int, orientation: int) -> None:
        """Place a tile with no checks."""
        tiles = self.tiles
        seen = self.seen
        tiles[cid] = orientation
        seen.pop(cid, None)
        shows = SHOWS[orientation]
        for side, n in enumerate(neighbour_ids(cid)):
            if n not in tiles:
                seen[n] = seen.get(n, 0) | shows[side]

    def take(self, cid: int) -> None:
        """Remove the tile at `cid` (the exact inverse of `put`)."""
        tiles = self.tiles
        seen = self.seen
        del tiles[cid]
        for n in neighbour_ids(cid):
            if n not in tiles:
                bits = self._seen_of(n)
                if bits:
                    seen[n] = bits
                else:
                    seen.pop(n, None)
        bits = self._seen_of(cid)
        if bits:
            seen[cid] = bits

    def take_all(self, cells: list[int]) -> None:
        for cid in reversed(cells):
            self.take(cid)

    def fill(self, start: int, limit: int, placed: list[int]) -> bool:
        """Auto moves after a tile was put at `start`: while an empty cell has
        exactly one possible orientation, put it there, the least cell (row,
        then column) first. Appends to `placed` (which holds the tile at
        `start`); False if `placed` would grow past `limit` tiles (the caller
        takes `placed` back)."""
        forced: dict[int, int] = {}
        self._rescan(start, forced)
        while forced:
            if len(placed) >= limit:
                return False
            cid = min(forced)
            orientation = forced.pop(cid)
            self.put(cid, orientation)
            placed.append(cid)
            self._rescan(cid, forced)
        return True

    def _rescan(self, cid: int, forced: dict[int, int]) -> None:
        """Refresh `forced` for the cells whose possible orientations a tile at
        `cid` can change: those within distance two of it."""
        tiles = self.tiles
        for offset in ring2_offsets(cid):
            other = cid + offset
            if other in tiles:
                continue
            orientation = SINGLE[self.options_mask(other)]
            if orientation >= 0:
                forced[other] = orientation
            elif other in forced:
                del forced[other]

    def connected(self, new: list[int]) -> bool:
        """Whether the new tiles, joined to the old group, leave one
        edge-connected group (the old group is connected already)."""
        tiles = self.tiles
        fresh = set(new)
        if len(fresh) == len(tiles):
            return True
        reached = [
            cid for cid in new if any(n in tiles and n not in fresh for n in neighbour_ids(cid))
        ]
        fresh.difference_update(reached)
        while reached and fresh:
            cid = reached.pop()
            for n in neighbour_ids(cid):
                if n in fresh:
                    fresh.remove(n)
                    reached.append(n)
        return not fresh

    def attempt(self, cid: int, orientation: int, pool: int) -> list[int] | int:
        """Try a move: on success the board holds it and the new cells are
        returned (the placed one first); on failure the board is unchanged and
        a reason code is returned."""
        tiles = self.tiles
        if cid in tiles:
            return OCCUPIED
        if not tiles:
            if cid != ORIGIN:
                return NOT_ORIGIN
        elif not self.touches(cid):
            return NO_CONTACT
        if not (self.options_mask(cid) >> orientation) & 1:
            return MISFIT
        self.put(cid, orientation)
        placed = [cid]
        if not self.fill(cid, pool, placed):
            self.take_all(placed)
            return POOL
        if not self.connected(placed):
            self.take_all(placed)
            return DISCONNECTED
        return placed

    def commit(self, placed: list[int]) -> None:
        """Record a successful attempt's cells in the placement order."""
        self.order.extend(placed)
        self.auto.update(placed[1:])

    # -- legal moves ----------------------------------------------------------

    def touches(self, cid: int) -> bool:
        """Whether a tile lies on a cell sharing an edge or a corner with `cid`."""
        tiles = self.tiles
        return any(cid + offset in tiles for offset in touching_offsets(cid))

    def candidate_cells(self) -> set[int]:
        """The empty cells a move may place its tile on: those touching a tile
        by an edge or a corner (the origin on an empty board)."""
        tiles = self.tiles
        if not tiles:
            return {ORIGIN}
        near = {cid + offset for cid in tiles for offset in touching_offsets(cid)}
        near.difference_update(tiles)
        return near

    def legal_moves(self, pool: int) -> list[tuple[int, int]]:
        """Every legal (cell id, orientation), in canonical cell order."""
        return list(self._legal(pool, sorted(self.candidate_cells())))

    def has_legal_move(self, pool: int) -> bool:
        # Cells touching the group are tried first: they are almost always legal.
        cells = sorted(self.candidate_cells(), key=lambda cid: cid not in self.seen)
        return next(self._legal(pool, cells), None) is not None

    def _legal(self, pool: int, cells: Iterable[int]) -> Iterator[tuple[int, int]]:
        for cid in cells:
            mask = self.options_mask(cid)
            for orientation in range(6):
                if not (mask >> orientation) & 1:
                    continue
                placed = self.attempt(cid, orientation, pool)
                if isinstance(placed, list):
                    self.take_all(placed)
                    yield cid, orientation

    # -- paths and loops ------------------------------------------------------

    def _walk(self, start: int, colour: int, side: int) -> tuple[bool, list[int]]:
        """Follow the `colour` path from the tile at `start` out of `side`:
        (whether it came back to `start`, the tiles passed on the way)."""
        tiles = self.tiles
        passed: list[int] = []
        cid = start
        while True:
            if side == 0:
                n = cid - 1
            elif side == 1:
                n = cid + 1
            else:
                n = cid + STRIDE if cid & 1 == 0 else cid - STRIDE
            orientation = tiles.get(n)
            if orientation is None:
                return False, passed
            if n == start:
                return True, passed
            passed.append(n)
            entry = OPPOSITE_SIDE[side]
            a, b = ARC_SIDES[orientation][colour]
            side = b if entry == a else a
            cid = n

    def component(self, cid: int, colour: int) -> tuple[bool, list[int]]:
        """The path or loop of `colour` through the tile at `cid`:
        (is it a loop, its tiles)."""
        a, b = ARC_SIDES[self.tiles[cid]][colour]
        closed, one_way = self._walk(cid, colour, a)
        if closed:
            return True, [cid, *one_way]
        _, other_way = self._walk(cid, colour, b)
        return False, [*reversed(other_way), cid, *one_way]

    def loops_through(self, cells: Iterable[int]) -> tuple[list[int], list[int]]:
        """Lengths of the red and the blue loops passing through `cells`."""
        found: tuple[list[int], list[int]] = ([], [])
        for colour in (RED, BLUE):
            done: set[int] = set()
            for cid in cells:
                if cid in done:
                    continue
                closed, path = self.component(cid, colour)
                done.update(path)
                if closed:
                    found[colour].append(len(path))
        return found

    def path_summary(self) -> tuple[tuple[list[int], int], tuple[list[int], int]]:
        """For red and for blue: the lengths of all loops (ascending) and the
        length of the longest open path, in tiles."""
        summary = []
        for colour in (RED, BLUE):
            done: set[int] = set()
            loops = []
            longest = 0
            for cid in self.tiles:
                if cid in done:
                    continue
                closed, path = self.component(cid, colour)
                done.update(path)
                if closed:
                    loops.append(len(path))
                else:
                    longest = max(longest, len(path))
            summary.append((sorted(loops), longest))
        return summary[0], summary[1]
