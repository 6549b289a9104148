"""Trugo random games compiled with numba: `search.play_out`, its
`random_move` and the `Board` they play on, again, over flat arrays, for
the search's playouts.

The pure-Python position stays the reference. Given the same random
numbers (SplitMix64, `splitmix.py`) both play the same game move for move:
the same draws over cells, tiles, pieces and destinations numbered in id
order, the same captures and the same end (`tests/games/
test_trugo_compiled.py` compares the records, the results, the generators'
states and the final boards).

Points (cells and vertices) lie in a window of the fine lattice around the
tiles, wide enough that no move of the playout reaches its rim: a point is
`(y - y0) * width + (x - x0)` with `x0` a multiple of three, so a point's
colour is read from its column as the engine reads it, and points sort as
the engine's ids do. What a board keeps in dicts and sets is arrays here:
`count`, up to three `arches` a vertex, stacks of at most two pieces
(`height`, `bottom`, `top`), and the frontier, the tiles and the occupied
junctions as sorted lists. The window's arrays are kept between playouts
(`_scratch`) and cleaned around every tile the playout saw; marks are
stamps that count on from one playout to the next.

The loop compiles on first use (some seconds) and is cached on disk
(numba's `cache=True`); `warm_up()` does that ahead of the first search.
"""

from __future__ import annotations

import random
import threading
from functools import cache, lru_cache
from typing import Any

import numpy as np

from ..base import Playout, score_of
from ..splitmix import AVAILABLE, SplitMix64, njit, random_double
from .board import _FREE_RUN, _ONE_RUN, MOVE, ORIGIN, PASS, PASS_MOVE, PLACE, REMOVE, Board, Move
from .geometry import ARCHES, CORNER_OFFSETS, SIDE_OFFSETS, point_id, point_of
from .search import CAP, MAX_DRAWS, TrugoSearchPosition, material_score

_LOCK = threading.Lock()  # the kept windows serve one playout at a time

__all__ = ["AVAILABLE", "CompiledPosition", "play_out", "warm_up"]

MAX_WINDOW = 1 << 21  # points: a larger window plays the pure path

_CORNERS = np.array(CORNER_OFFSETS, dtype=np.int64)  # (dx, dy) of the six corners
_SIDES = np.array(SIDE_OFFSETS, dtype=np.int64)  # (dx, dy) of the six cells across
_STEPS = np.array(((-1, -1), (-1, 1), (2, 0), (1, -1), (1, 1), (-2, 0)), dtype=np.int64)
_ARCHES = np.array(ARCHES, dtype=np.int64)  # [rotation, colour, end]: a corner
_FREE = np.array(_FREE_RUN, dtype=np.int64)
_ONE = np.array(_ONE_RUN, dtype=np.int64)
_MAX_DRAWS = MAX_DRAWS
_PLACE, _REMOVE, _MOVE, _PASS = PLACE, REMOVE, MOVE, PASS
_OVER, _CAPPED = 1, 0

# The board's arrays, by index into the tuple `b`.
_TILES, _COUNT, _ARCH, _NARCH, _HEIGHT, _BOTTOM, _TOP, _FRONT_MARK = range(8)
_SEEN, _MARK, _CHANGED_MARK = 8, 9, 10
# Sorted lists and buffers, by index into the tuple `lists`, each with its
# length in `st` at the same index.
_FRONTIER, _TILE_LIST, _OCCUPIED, _CHANGED, _NEAR, _GROUPS, _REACHED, _TAKEN = range(8)
_STAMP, _PLAYER, _PASSES, _RESULT, _LOGGED = 8, 9, 10, 11, 12  # _LOGGED: the log's length
# The counts, in the int64 array `c`.
_HAND, _CAPTURED, _REMOVED, _ON, _POOL, _NO_STACK = 0, 2, 4, 6, 8, 9


# -- lists ------------------------------------------------------------------------


@njit(cache=True)
def _insert(items: Any, st: Any, which: int, value: int) -> None:
    """Put `value` in the sorted list `items` (`st[which]` long)."""
    n = st[which]
    i = n
    while i > 0 and items[i - 1] > value:
        items[i] = items[i - 1]
        i -= 1
    items[i] = value
    st[which] = n + 1


@njit(cache=True)
def _delete(items: Any, st: Any, which: int, value: int) -> None:
    """Take `value` out of the sorted list `items` (`st[which]` long)."""
    n = st[which]
    i = 0
    while items[i] != value:
        i += 1
    while i < n - 1:
        items[i] = items[i + 1]
        i += 1
    st[which] = n - 1


@njit(cache=True)
def _colour(v: int, width: int) -> int:
    """WHITE (0) or BLUE (1): `geometry.colour_of` (x0 is a multiple of 3)."""
    return 0 if (v % width) % 3 == 2 else 1


@njit(cache=True)
def _frontier_add(b: Any, lists: Any, st: Any, cid: int) -> None:
    if not b[_FRONT_MARK][cid]:
        b[_FRONT_MARK][cid] = 1
        _insert(lists[_FRONTIER], st, _FRONTIER, cid)


@njit(cache=True)
def _frontier_discard(b: Any, lists: Any, st: Any, cid: int) -> None:
    if b[_FRONT_MARK][cid]:
        b[_FRONT_MARK][cid] = 0
        _delete(lists[_FRONTIER], st, _FRONTIER, cid)


@njit(cache=True)
def _change(b: Any, lists: Any, st: Any, v: int) -> None:
    """Add `v` to the junctions changed since captures were looked for."""
    if not b[_CHANGED_MARK][v]:
        b[_CHANGED_MARK][v] = 1
        lists[_CHANGED][st[_CHANGED]] = v
        st[_CHANGED] += 1


# -- the board ----------------------------------------------------------------------


@njit(cache=True)
def _remove_arch(b: Any, a: int, partner: int) -> None:
    arch, n = b[_ARCH], b[_NARCH][a]
    for k in range(n):
        if arch[3 * a + k] == partner:
            arch[3 * a + k] = arch[3 * a + n - 1]
            break
    b[_NARCH][a] = n - 1


@njit(cache=True)
def _place(
    b: Any,
    lists: Any,
    st: Any,
    c: Any,
    log: Any,
    cid: int,
    rotation: int,
    corners: Any,
    sides: Any,
    width: int,
) -> None:
    """`Board.place`, and `TrugoSearchPosition.play`'s count of the pieces
    it brings and its changed junctions."""
    tiles = b[_TILES]
    tiles[cid] = rotation
    c[_POOL] -= 1
    _frontier_discard(b, lists, st, cid)
    for k in range(6):
        if tiles[cid + sides[k]] < 0:
            _frontier_add(b, lists, st, cid + sides[k])
    _insert(lists[_TILE_LIST], st, _TILE_LIST, cid)
    log[st[_LOGGED]] = cid
    st[_LOGGED] += 1
    count = b[_COUNT]
    for k in range(6):
        v = cid + corners[k]
        count[v] += 1
        if count[v] == 3:
            owner = _colour(v, width)
            if c[_HAND + owner] > 0:
                c[_HAND + owner] -= 1
                b[_HEIGHT][v] = 1
                b[_BOTTOM][v] = owner
                b[_TOP][v] = owner
                _insert(lists[_OCCUPIED], st, _OCCUPIED, v)
                c[_ON + owner] += 1
                _change(b, lists, st, v)
    arch, narch = b[_ARCH], b[_NARCH]
    for colour in range(2):
        u = cid + corners[_ARCHES[rotation, colour, 0]]
        v = cid + corners[_ARCHES[rotation, colour, 1]]
        arch[3 * u + narch[u]] = v
        narch[u] += 1
        arch[3 * v + narch[v]] = u
        narch[v] += 1


@njit(cache=True)
def _remove(b: Any, lists: Any, st: Any, c: Any, cid: int, corners: Any, sides: Any) -> None:
    """`Board.remove`, with the pieces that leave counted off the board."""
    tiles = b[_TILES]
    rotation = tiles[cid]
    tiles[cid] = -1
    _delete(lists[_TILE_LIST], st, _TILE_LIST, cid)
    for k in range(6):
        if tiles[cid + sides[k]] >= 0:
            _frontier_add(b, lists, st, cid)
            break
    for k in range(6):
        n = cid + sides[k]
        if b[_FRONT_MARK][n]:
            alone = True
            for j in range(6):
                if tiles[n + sides[j]] >= 0:
                    alone = False
                    break
            if alone:
                _frontier_discard(b, lists, st, n)
    height, count = b[_HEIGHT], b[_COUNT]
    for k in range(6):
        v = cid + corners[k]
        if height[v] > 0:
            c[_REMOVED + b[_BOTTOM][v]] += 1
            c[_ON + b[_BOTTOM][v]] -= 1
            if height[v] == 2:
                c[_REMOVED + b[_TOP][v]] += 1
                c[_ON + b[_TOP][v]] -= 1
            height[v] = 0
            _delete(lists[_OCCUPIED], st, _OCCUPIED, v)
            _change(b, lists, st, v)
        count[v] -= 1
    for colour in range(2):
        u = cid + corners[_ARCHES[rotation, colour, 0]]
        v = cid + corners[_ARCHES[rotation, colour, 1]]
        _remove_arch(b, u, v)
        _remove_arch(b, v, u)


@njit(cache=True)
def _move_piece(b: Any, lists: Any, st: Any, start: int, end: int) -> None:
    """`Board.move_piece`."""
    height, bottom, top = b[_HEIGHT], b[_BOTTOM], b[_TOP]
    player = top[start]
    if height[start] == 1:
        height[start] = 0
        _delete(lists[_OCCUPIED], st, _OCCUPIED, start)
    else:
        height[start] = 1
        top[start] = bottom[start]
    if height[end] == 0:
        height[end] = 1
        bottom[end] = player
        top[end] = player
        _insert(lists[_OCCUPIED], st, _OCCUPIED, end)
    else:
        height[end] = 2
        top[end] = player


# -- questions ------------------------------------------------------------------------


@njit(cache=True)
def _removable(b: Any, st: Any, cid: int, sides: Any) -> bool:
    """`Board.removable` for a tile on the board."""
    tiles = b[_TILES]
    mask = 0
    for k in range(6):
        if tiles[cid + sides[k]] >= 0:
            mask |= 1 << k
    if not _FREE[mask]:
        return False
    if _ONE[mask]:  # (fewer than two neighbours make one run too)
        return True
    st[_STAMP] += 1
    stamp = st[_STAMP]
    seen, goal = b[_SEEN], b[_MARK]
    first = -1
    goals = 0
    for k in range(6):
        n = cid + sides[k]
        if tiles[n] >= 0:
            if first < 0:
                first = n
            else:
                goal[n] = stamp
                goals += 1
    seen[cid] = stamp
    seen[first] = stamp
    todo = np.empty(st[_TILE_LIST] + 1, dtype=np.int64)
    todo[0] = first
    top = 1
    while top > 0:
        top -= 1
        here = todo[top]
        for k in range(6):
            there = here + sides[k]
            if tiles[there] >= 0 and seen[there] != stamp:
                seen[there] = stamp
                if goal[there] == stamp:
                    goals -= 1
                    if goals == 0:
                        return True
                todo[top] = there
                top += 1
    return False


@njit(cache=True)
def _destinations(
    b: Any, lists: Any, st: Any, c: Any, start: int, out: Any, at: int, steps: Any, width: int
) -> int:
    """`Board.destinations(start)`, sorted, written into `out` from `at`:
    how many."""
    st[_STAMP] += 1
    stamp = st[_STAMP]
    seen, mark = b[_SEEN], b[_MARK]
    arch, narch, height, count = b[_ARCH], b[_NARCH], b[_HEIGHT], b[_COUNT]
    stackable = c[_NO_STACK] == 0
    reached = lists[_REACHED]
    reached[0] = start
    n_reached = 1
    seen[start] = stamp
    found = at
    i = 0
    while i < n_reached:
        here = reached[i]
        i += 1
        for k in range(narch[here]):
            there = arch[3 * here + k]
            if seen[there] == stamp:
                continue
            seen[there] = stamp
            h = height[there]
            if h == 0:
                reached[n_reached] = there
                n_reached += 1
                if count[there] == 3 and mark[there] != stamp:
                    mark[there] = stamp
                    out[found] = there
                    found += 1
            elif stackable and h == 1 and mark[there] != stamp:
                mark[there] = stamp
                out[found] = there
                found += 1
    first = 3 * _colour(start, width)
    for j in range(n_reached):
        here = reached[j]
        for k in range(first, first + 3):
            there = here + steps[k]
            if count[there] == 3 and mark[there] != stamp:
                h = height[there]
                if h == 0 or (stackable and h == 1):
                    mark[there] = stamp
                    out[found] = there
                    found += 1
    out[at:found].sort()
    return found - at


@njit(cache=True)
def _random_move(
    b: Any,
    lists: Any,
    st: Any,
    c: Any,
    rng: Any,
    origin: int,
    player: int,
    starts: Any,
    counts: Any,
    ends: Any,
    corners: Any,
    sides: Any,
    steps: Any,
    width: int,
) -> tuple[int, int, int]:
    """`search.random_move`: (kind, a, b)."""
    n_starts = 0
    pieces = 0
    occupied, top = lists[_OCCUPIED], b[_TOP]
    for i in range(st[_OCCUPIED]):
        v = occupied[i]
        if top[v] == player:
            n = _destinations(b, lists, st, c, v, ends, pieces, steps, width)
            if n:
                starts[n_starts] = v
                counts[n_starts] = n
                n_starts += 1
                pieces += n
    tile_list = lists[_TILE_LIST]
    n_tiles = st[_TILE_LIST]
    if c[_POOL] > 0:
        n_cells = st[_FRONTIER] if n_tiles else 1
        placements = 3 * n_cells
        pick = int(random_double(rng) * (placements + pieces))
        if pick < placements:
            index = pick // 3
            cell = lists[_FRONTIER][index] if n_tiles else origin
            return _PLACE, cell, pick % 3
        return _piece_move(starts, counts, ends, n_starts, pick - placements)
    for _ in range(_MAX_DRAWS if n_tiles else 0):
        pick = int(random_double(rng) * (n_tiles + pieces))
        if pick >= n_tiles:
            return _piece_move(starts, counts, ends, n_starts, pick - n_tiles)
        if _removable(b, st, tile_list[pick], sides):
            return _REMOVE, tile_list[pick], 0
    removals = np.empty(n_tiles + 1, dtype=np.int64)
    n_removals = 0
    for i in range(n_tiles):
        if _removable(b, st, tile_list[i], sides):
            removals[n_removals] = tile_list[i]
            n_removals += 1
    if n_removals == 0 and pieces == 0:
        return _PASS, 0, 0
    pick = int(random_double(rng) * (n_removals + pieces))
    if pick < n_removals:
        return _REMOVE, removals[pick], 0
    return _piece_move(starts, counts, ends, n_starts, pick - n_removals)


@njit(cache=True)
def _piece_move(
    starts: Any, counts: Any, ends: Any, n_starts: int, index: int
) -> tuple[int, int, int]:
    at = 0
    for i in range(n_starts):
        if index < counts[i]:
            return _MOVE, starts[i], ends[at + index]
        index -= counts[i]
        at += counts[i]
    return _PASS, -1, -1  # (never: the index is below the piece moves' count)


# -- a turn ----------------------------------------------------------------------------


@njit(cache=True)
def _take(b: Any, lists: Any, st: Any, c: Any, v: int) -> None:
    """`Board.take` of one member of a group, counted off the board."""
    height, bottom, top = b[_HEIGHT], b[_BOTTOM], b[_TOP]
    player = top[v]
    c[_CAPTURED + player] += 1
    c[_ON + player] -= 1
    if height[v] == 2 and bottom[v] == player:
        c[_CAPTURED + player] += 1
        c[_ON + player] -= 1
        height[v] = 0
    elif height[v] == 2:
        height[v] = 1
        top[v] = bottom[v]
    else:
        height[v] = 0
    if height[v] == 0:
        _delete(lists[_OCCUPIED], st, _OCCUPIED, v)


@njit(cache=True)
def _capture(b: Any, lists: Any, st: Any, c: Any, mover: int, steps: Any, width: int) -> None:
    """`TrugoSearchPosition._capture`: the opponent's surrounded groups
    around the changed junctions, then the mover's own; leaves in the
    changed list the junctions the mover's captures changed."""
    height, top, count = b[_HEIGHT], b[_TOP], b[_COUNT]
    changed_mark = b[_CHANGED_MARK]
    changed, near, groups, taken = lists[_CHANGED], lists[_NEAR], lists[_GROUPS], lists[_TAKEN]
    for turn in range(2):
        player = mover ^ 1 if turn == 0 else mover
        n_near = 0
        for i in range(st[_CHANGED]):
            v = changed[i]
            near[n_near] = v
            n_near += 1
            first = 3 * _colour(v, width)
            for k in range(first, first + 3):
                near[n_near] = v + steps[k]
                n_near += 1
        # `Board.surrounded_groups(player, near)`: every group found first.
        st[_STAMP] += 1
        stamp = st[_STAMP]
        seen = b[_SEEN]
        n_members = 0
        for i in range(n_near):
            v = near[i]
            if height[v] == 0 or seen[v] == stamp or top[v] != player:
                continue
            begin = n_members
            groups[n_members] = v
            n_members += 1
            seen[v] = stamp
            free = False
            j = begin
            while j < n_members:
                here = groups[j]
                j += 1
                first = 3 * _colour(here, width)
                for k in range(first, first + 3):
                    there = here + steps[k]
                    if height[there] == 0:
                        free = True
                    elif top[there] == player:
                        if seen[there] != stamp:
                            seen[there] = stamp
                            groups[n_members] = there
                            n_members += 1
                    elif count[there] != 3:
                        free = True
            if free:
                n_members = begin
        n_taken = 0
        for i in range(n_members):
            v = groups[i]
            _take(b, lists, st, c, v)
            taken[n_taken] = v
            n_taken += 1
        if player == mover:
            for i in range(st[_CHANGED]):
                changed_mark[changed[i]] = 0
            st[_CHANGED] = 0
        for i in range(n_taken):
            _change(b, lists, st, taken[i])


@njit(cache=True)
def _play(
    b: Any,
    lists: Any,
    st: Any,
    c: Any,
    log: Any,
    kind: int,
    x: int,
    y: int,
    corners: Any,
    sides: Any,
    steps: Any,
    width: int,
) -> None:
    """`TrugoSearchPosition.play`: the move, its captures, and the end."""
    mover = st[_PLAYER]
    before = c[_ON] + c[_ON + 1]
    if kind == _PLACE:
        _place(b, lists, st, c, log, x, y, corners, sides, width)
    elif kind == _MOVE:
        _move_piece(b, lists, st, x, y)
        _change(b, lists, st, x)
        _change(b, lists, st, y)
    elif kind == _REMOVE:
        _remove(b, lists, st, c, x, corners, sides)
    if st[_CHANGED]:
        _capture(b, lists, st, c, mover, steps, width)
    if kind == _PASS:
        st[_PASSES] += 1
        if st[_PASSES] >= 2:
            st[_PLAYER] = -1
            st[_RESULT] = -1
            return
    else:
        st[_PASSES] = 0
    on0, on1 = c[_ON], c[_ON + 1]
    if not (on0 and on1):  # `end.turn_result`
        result = -2
        if on0 + on1 == 0 and before > 0:
            result = mover
        elif c[_POOL] > 0:
            result = -2
        elif on0 == 0 and on1 == 0:
            result = -1
        elif c[_ON + mover] == 0:
            result = mover ^ 1
        elif c[_ON + (mover ^ 1)] == 0:
            result = mover
        if result != -2:
            st[_PLAYER] = -1
            st[_RESULT] = result
            return
    st[_PLAYER] = mover ^ 1


@njit(cache=True)
def _run(
    b: Any,
    lists: Any,
    st: Any,
    c: Any,
    log: Any,
    rng: Any,
    origin: int,
    cap: int,
    corners: Any,
    sides: Any,
    steps: Any,
    width: int,
    ends_size: int,
    moves: Any,
) -> tuple[int, int, int]:
    """`search.play_out` from the position in the arrays: (turns, tiles
    placed, `_OVER` or `_CAPPED`); each move drawn goes in `moves` (three
    numbers each, when it has room)."""
    starts = np.empty(ends_size, dtype=np.int64)
    counts = np.empty(ends_size, dtype=np.int64)
    ends = np.empty(ends_size, dtype=np.int64)
    turns = 0
    placed = 0
    while turns < cap:
        player = st[_PLAYER]
        if player < 0:
            return turns, placed, _OVER
        kind, x, y = _random_move(
            b, lists, st, c, rng, origin, player, starts, counts, ends, corners, sides, steps, width
        )
        if 3 * turns + 2 < moves.shape[0]:
            moves[3 * turns] = kind
            moves[3 * turns + 1] = x
            moves[3 * turns + 2] = y
        _play(b, lists, st, c, log, kind, x, y, corners, sides, steps, width)
        turns += 1
        if kind == _PLACE:
            placed += 1
    return turns, placed, _OVER if st[_PLAYER] < 0 else _CAPPED


@njit(cache=True)
def _clean(b: Any, lists: Any, st: Any, log: Any, corners: Any, sides: Any) -> None:
    """Leave the window as `_scratch` made it: every mark of a playout lies
    on a cell that held a tile, a cell beside one or a corner of one."""
    for i in range(st[_LOGGED]):
        cid = log[i]
        b[_TILES][cid] = -1
        b[_FRONT_MARK][cid] = 0
        for k in range(6):
            b[_FRONT_MARK][cid + sides[k]] = 0
            v = cid + corners[k]
            b[_COUNT][v] = 0
            b[_NARCH][v] = 0
            b[_HEIGHT][v] = 0
            b[_CHANGED_MARK][v] = 0
    for which in range(8):
        st[which] = 0
    st[_LOGGED] = 0


# -- from a position ---------------------------------------------------------------------


@lru_cache(maxsize=4)
def _scratch(width: int, height: int) -> tuple[tuple[Any, ...], tuple[Any, ...], Any]:
    """A clean window's arrays, kept for the next playout on a window of
    this size: the board's (`b`), the lists' (`lists`) and the scalars
    (`st`: the stamps count on from one playout to the next)."""
    points = width * height
    b = (
        np.full(points, -1, dtype=np.int64),  # tiles
        np.zeros(points, dtype=np.int64),  # count
        np.zeros(3 * points, dtype=np.int64),  # arches
        np.zeros(points, dtype=np.int64),  # arches a vertex
        np.zeros(points, dtype=np.int64),  # height
        np.zeros(points, dtype=np.int64),  # bottom
        np.zeros(points, dtype=np.int64),  # top
        np.zeros(points, dtype=np.int8),  # on the frontier
        np.zeros(points, dtype=np.int64),  # seen stamps
        np.zeros(points, dtype=np.int64),  # mark stamps
        np.zeros(points, dtype=np.int8),  # changed
    )
    lists = tuple(np.zeros((4 if k == _NEAR else 1) * points, dtype=np.int64) for k in range(8))
    return b, lists, np.zeros(13, dtype=np.int64)


def _rounded(length: int) -> int:
    return -(-length // 64) * 64


class _Window:
    """Where a position's points lie in a window: `local` and `point` convert."""

    __slots__ = ("height", "width", "x0", "y0")

    def __init__(self, centres: list[tuple[int, int]], pool: int) -> None:
        xs = [x for x, _ in centres] or [0]
        ys = [y for _, y in centres] or [0]
        # Each new tile lies beside one already there: three columns and two
        # rows of points further out at most; the rest is room to look around.
        across, down = 3 * pool + 10, 2 * pool + 10
        self.x0 = min(xs) - across
        self.x0 -= self.x0 % 3
        self.y0 = min(ys) - down
        # Rounded up, so that most positions share a few kept windows.
        self.width = _rounded(max(xs) + across - self.x0 + 1)
        self.height = _rounded(max(ys) + down - self.y0 + 1)

    @classmethod
    def around(cls, position: TrugoSearchPosition) -> _Window:
        board = position.board
        return cls([point_of(cid) for cid in board.tiles], board.pool)

    def local(self, pid: int) -> int:
        x, y = point_of(pid)
        return (y - self.y0) * self.width + x - self.x0

    def point(self, local: int) -> int:
        y, x = divmod(local, self.width)
        return point_id(x + self.x0, y + self.y0)

    def delta(self, dx: int, dy: int) -> int:
        return dy * self.width + dx


@cache
def _offsets(width: int) -> tuple[Any, Any, Any]:
    """The corner, side and vertex-step offsets for windows of this width."""

    def row(pairs: Any) -> Any:
        return np.array([dy * width + dx for dx, dy in pairs.tolist()], dtype=np.int64)

    return row(_CORNERS), row(_SIDES), row(_STEPS)


def _load(position: TrugoSearchPosition, window: _Window, s: Any) -> Any:
    """Put the position on the clean window; the counts `c`."""
    b, lists, st = s
    board = position.board
    local = window.local
    for cid, rotation in board.tiles.items():
        here = local(cid)
        b[_TILES][here] = rotation
        lists[_TILE_LIST][st[_TILE_LIST]] = here
        st[_TILE_LIST] += 1
    lists[_TILE_LIST][: st[_TILE_LIST]].sort()
    for v, count in board.count.items():
        b[_COUNT][local(v)] = count
    for v, partners in board.arches.items():
        here = local(v)
        b[_NARCH][here] = len(partners)
        for k, partner in enumerate(partners):
            b[_ARCH][3 * here + k] = local(partner)
    for v, stack in board.stacks.items():
        here = local(v)
        b[_HEIGHT][here] = len(stack)
        b[_BOTTOM][here] = stack[0]
        b[_TOP][here] = stack[-1]
    occupied = sorted(local(v) for v in board.stacks)
    lists[_OCCUPIED][: len(occupied)] = occupied
    st[_OCCUPIED] = len(occupied)
    frontier = sorted(local(cid) for cid in board.frontier)
    lists[_FRONTIER][: len(frontier)] = frontier
    st[_FRONTIER] = len(frontier)
    for cid in frontier:
        b[_FRONT_MARK][cid] = 1
    for v in position.changed:
        here = local(v)
        b[_CHANGED_MARK][here] = 1
        lists[_CHANGED][st[_CHANGED]] = here
        st[_CHANGED] += 1
    st[_PLAYER] = position.player
    st[_PASSES] = position.passes
    st[_RESULT] = -1
    return np.array(
        [
            *board.hand,
            *board.captured,
            *board.removed,
            *position.on_board,
            board.pool,
            int(board.no_stack),
        ],
        dtype=np.int64,
    )


def _played(
    position: TrugoSearchPosition,
    rand: SplitMix64,
    record: list[Move] | None = None,
    window: _Window | None = None,
) -> tuple[Playout, dict[str, Any]]:
    """The compiled playout from `position` (used up: its board is not
    brought up to date), and the final board (for the tests): tiles,
    stacks, frontier, hand, captured, removed and pool, in engine ids."""
    assert AVAILABLE, "numba is not installed"
    board = position.board
    window = window or _Window.around(position)
    width = window.width
    s = _scratch(width, window.height)
    b, lists, st = s
    corners, sides, steps = _offsets(width)
    cap = CAP if position.cutoff is None else position.cutoff
    log = np.empty(len(board.tiles) + board.pool + 1, dtype=np.int64)
    tiled = [window.local(cid) for cid in board.tiles]
    log[: len(tiled)] = tiled
    total = len(board.tiles) + board.pool
    moves = np.empty(3 * cap if record is not None else 0, dtype=np.int64)
    rng = np.array([rand.state], dtype=np.uint64)
    with _LOCK:  # one playout at a time on the kept windows
        try:
            st[_LOGGED] = len(tiled)
            c = _load(position, window, s)
            turns, placed, how = _run(
                b,
                lists,
                st,
                c,
                log,
                rng,
                window.local(ORIGIN),
                cap,
                corners,
                sides,
                steps,
                width,
                4 * total * total + 64,
                moves,
            )
            final = _final(window, b, lists, st, c)
            player, result = int(st[_PLAYER]), int(st[_RESULT])
        finally:
            _clean(b, lists, st, log, corners, sides)
    rand.state = int(rng[0])
    if record is not None:
        record.extend(_moves(window, moves[: 3 * turns].tolist()))
    position.player = None  # used up: its board is not the game's
    if how == _OVER:
        winner = None if result < 0 else result
        position.result = winner
        return Playout(score_of(winner), winner, int(turns), int(placed)), final
    assert player >= 0
    position.result = None
    on, hand, pool = final["on_board"], final["hand"], final["pool"]
    share = material_score(on, hand, pool)
    return Playout(share, None, int(turns), int(placed), capped=True), final


def _moves(window: _Window, numbers: list[int]) -> list[Move]:
    """The engine's moves from the loop's triples of numbers."""
    moves: list[Move] = []
    point = window.point
    for i in range(0, len(numbers), 3):
        kind, a, b = numbers[i : i + 3]
        if kind == PASS:
            moves.append(PASS_MOVE)
        elif kind == MOVE:
            moves.append((kind, point(a), point(b)))
        else:
            moves.append((kind, point(a), b))
    return moves


def _final(window: _Window, b: Any, lists: Any, st: Any, c: Any) -> dict[str, Any]:
    point = window.point
    tiles = {point(cid): int(b[_TILES][cid]) for cid in lists[_TILE_LIST][: st[_TILE_LIST]]}
    stacks = {}
    for v in lists[_OCCUPIED][: st[_OCCUPIED]].tolist():
        bottom, top = int(b[_BOTTOM][v]), int(b[_TOP][v])
        stacks[point(v)] = (bottom,) if b[_HEIGHT][v] == 1 else (bottom, top)
    counts = c.tolist()
    return {
        "tiles": tiles,
        "stacks": stacks,
        "frontier": {point(cid) for cid in lists[_FRONTIER][: st[_FRONTIER]].tolist()},
        "hand": counts[_HAND : _HAND + 2],
        "captured": counts[_CAPTURED : _CAPTURED + 2],
        "removed": counts[_REMOVED : _REMOVED + 2],
        "on_board": counts[_ON : _ON + 2],
        "pool": counts[_POOL],
    }


def play_out(
    position: TrugoSearchPosition, rand: SplitMix64, record: list[Move] | None = None
) -> Playout:
    """`search.play_out`, compiled: the same game from the same random
    numbers (`rand`, whose state moves on as the pure path's would). The
    position is used up: copy it first to keep it. A game over, or a window
    too large to keep, plays the pure path."""
    from .search import play_out as pure_play_out

    if position.player is None or not AVAILABLE:
        return pure_play_out(position, rand, record)  # type: ignore[arg-type]
    window = _Window.around(position)
    if window.width * window.height > MAX_WINDOW:
        return pure_play_out(position, rand, record)  # type: ignore[arg-type]
    return _played(position, rand, record, window)[0]


class CompiledPosition(TrugoSearchPosition):
    """The search position whose random games run compiled: what
    `TrugoState.search_position()` gives when numba is installed."""

    __slots__ = ()

    def play_out(self, rng: random.Random, record: list[Move] | None = None) -> Playout:
        """The compiled game (`play_out` here), from a seed drawn from
        `rng`: the pure function's game from the same random numbers. The
        position is used up (copy it first to keep it)."""
        return play_out(self, SplitMix64(rng.getrandbits(64)), record)


def warm_up() -> None:
    """Compile (or load from the disk cache) the loop now, with a small
    game, so the first search does not wait for it."""
    if AVAILABLE:
        play_out(TrugoSearchPosition(Board(6, 4, False), 0), SplitMix64(1))
