"""Vasco random games compiled with numba: `VascoSearchPosition.play_out`
and the `Board` it plays on, again, over flat arrays, for the search's
playouts.

The pure-Python position stays the reference. Given the same random
numbers (SplitMix64, `splitmix.py`) both play the same game move for move:
the same rejection draws over the same candidate list in the same order,
the same fallback to the full list of legal moves, the same auto moves,
loops and end (`tests/games/test_vasco_compiled.py` compares the records,
the results, the generators' states and the final boards).

The lattice is a window of the plane around the tiles, wide enough that no
move of the playout can reach its rim: a cell is `(row - r0) * width +
(col - c0)` with an odd width and `r0 + c0` even, so, as with the engine's
ids, an even cell points up, its side neighbours are one apart, its
horizontal one a width away, and cells sort as the engine's ids do. The
window's arrays (a few sizes of them, rounded up) are kept between playouts
(`_scratch`) and cleaned around the final tiles after each, so a playout
costs its moves, not the window.
Windows too large to keep (pools of hundreds of tiles) play the pure path.

The search's win-in-one test runs here too (`winning_moves`): every move of
a listing put on the window, judged as `VascoSearchPosition.may_win` judges
it and taken back, in one compiled pass.

The loop compiles on first use (a few seconds) and is cached on disk
(numba's `cache=True`); `warm_up()` does that ahead of the first search.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Hashable
from functools import cache, lru_cache
from typing import Any, cast

import numpy as np

from ..base import Playout, score_of
from ..splitmix import AVAILABLE, SplitMix64, njit, random_double
from .board import ARC_SIDES, ORIGIN
from .geometry import (
    ORIENTATION_MASK,
    SHOWS,
    SINGLE,
    STRIDE,
    cell_id,
    cell_of,
    ring2_offsets,
    touching_offsets,
)
from .search import MAX_DRAWS, VascoSearchPosition, search_move

_LOCK = threading.Lock()  # the kept windows serve one playout at a time

__all__ = ["AVAILABLE", "CompiledPosition", "play_out", "warm_up", "winning_moves"]

MAX_WINDOW = 1 << 21  # cells: a larger window plays the pure path

_SHOWS = np.array(SHOWS, dtype=np.int64)  # [orientation, side]: colour bit
_MASKS = np.array(ORIENTATION_MASK, dtype=np.int64)
_SINGLE = np.array(SINGLE, dtype=np.int64)
_ARCS = np.array(ARC_SIDES, dtype=np.int64)  # [orientation, colour]: its two sides
_OPPOSITE = np.array((1, 0, 2), dtype=np.int64)
_MAX_DRAWS = MAX_DRAWS
_NOT_OVER, _DRAW = -2, -1

# Scalars of a running game, in one int64 array `st`.
_TILES, _CANDIDATES, _STAMP, _FORCED = 0, 1, 2, 3


def _steps(offsets: tuple[int, ...]) -> list[tuple[int, int]]:
    """Engine id offsets as (columns, rows)."""
    steps = []
    for offset in offsets:
        rows = round(offset / STRIDE)
        steps.append((offset - rows * STRIDE, rows))
    return steps


# (columns, rows) of the twelve touching cells and the nine cells within two
# steps, for an up cell and for a down one, in the engine's order.
_TOUCH_STEPS = (_steps(touching_offsets(0)), _steps(touching_offsets(1)))
_RING_STEPS = (_steps(ring2_offsets(0)), _steps(ring2_offsets(1)))


# -- the board ------------------------------------------------------------------


@njit(cache=True)
def _vertical(cid: int, width: int) -> int:
    return cid + width if cid & 1 == 0 else cid - width


@njit(cache=True)
def _mask(tiles: Any, seen: Any, cid: int, width: int) -> int:
    """`Board.options_mask`."""
    t = tiles[cid - 1]
    left = _SHOWS[t, 1] if t >= 0 else 7 & ~np.int64(seen[cid - 1])
    t = tiles[cid + 1]
    right = _SHOWS[t, 0] if t >= 0 else 7 & ~np.int64(seen[cid + 1])
    v = _vertical(cid, width)
    t = tiles[v]
    horizontal = _SHOWS[t, 2] if t >= 0 else 7 & ~np.int64(seen[v])
    return int(_MASKS[left | right << 3 | horizontal << 6])


@njit(cache=True)
def _seen_of(tiles: Any, cid: int, width: int) -> int:
    bits = 0
    t = tiles[cid - 1]
    if t >= 0:
        bits |= _SHOWS[t, 1]
    t = tiles[cid + 1]
    if t >= 0:
        bits |= _SHOWS[t, 0]
    t = tiles[_vertical(cid, width)]
    if t >= 0:
        bits |= _SHOWS[t, 2]
    return bits


@njit(cache=True)
def _put(tiles: Any, seen: Any, order: Any, st: Any, cid: int, o: int, width: int) -> None:
    """`Board.put`, and the tile listed last in `order`."""
    tiles[cid] = o
    seen[cid] = 0
    n = cid - 1
    if tiles[n] < 0:
        seen[n] |= _SHOWS[o, 0]
    n = cid + 1
    if tiles[n] < 0:
        seen[n] |= _SHOWS[o, 1]
    n = _vertical(cid, width)
    if tiles[n] < 0:
        seen[n] |= _SHOWS[o, 2]
    order[st[_TILES]] = cid
    st[_TILES] += 1


@njit(cache=True)
def _take_all(tiles: Any, seen: Any, st: Any, placed: Any, count: int, width: int) -> None:
    """`Board.take_all`: the last `count` tiles put, newest first."""
    for i in range(count - 1, -1, -1):
        cid = placed[i]
        tiles[cid] = -1
        for n in (cid - 1, cid + 1, _vertical(cid, width)):
            if tiles[n] < 0:
                seen[n] = _seen_of(tiles, n, width)
        seen[cid] = _seen_of(tiles, cid, width)
        st[_TILES] -= 1


@njit(cache=True)
def _rescan(
    tiles: Any, seen: Any, forced: Any, flist: Any, st: Any, cid: int, ring: Any, width: int
) -> None:
    """`Board._rescan`: `forced[cell]` is the cell's one orientation or -1,
    and `flist` lists the forced cells (`st[_FORCED]` of them)."""
    offsets = ring[cid & 1]
    for k in range(offsets.shape[0]):
        other = cid + offsets[k]
        if tiles[other] >= 0:
            continue
        o = _SINGLE[_mask(tiles, seen, other, width)]
        if o >= 0:
            if forced[other] < 0:
                flist[st[_FORCED]] = other
                st[_FORCED] += 1
            forced[other] = o
        elif forced[other] >= 0:
            forced[other] = -1
            count = st[_FORCED]
            for j in range(count):
                if flist[j] == other:
                    flist[j] = flist[count - 1]
                    break
            st[_FORCED] = count - 1


@njit(cache=True)
def _fill(s: Any, st: Any, placed: Any, limit: int, ring: Any, width: int) -> int:
    """`Board.fill` after a tile at `placed[0]`: the tiles placed, or minus
    that many when the pool ran out (the caller takes them back)."""
    tiles, seen, order, forced, flist = s[0], s[1], s[2], s[4], s[5]
    count = 1
    st[_FORCED] = 0
    _rescan(tiles, seen, forced, flist, st, placed[0], ring, width)
    while st[_FORCED] > 0:
        if count >= limit:
            for j in range(st[_FORCED]):
                forced[flist[j]] = -1
            st[_FORCED] = 0
            return -count
        n = st[_FORCED]
        best = 0
        for j in range(1, n):
            if flist[j] < flist[best]:
                best = j
        cid = flist[best]
        o = forced[cid]
        forced[cid] = -1
        flist[best] = flist[n - 1]
        st[_FORCED] = n - 1
        _put(tiles, seen, order, st, cid, o, width)
        placed[count] = cid
        count += 1
        _rescan(tiles, seen, forced, flist, st, cid, ring, width)
    return count


@njit(cache=True)
def _connected(
    tiles: Any, fresh: Any, stack: Any, st: Any, placed: Any, count: int, width: int
) -> bool:
    """`Board.connected`: the new tiles join the old group by edges."""
    if count == st[_TILES]:
        return True
    for i in range(count):
        fresh[placed[i]] = 1
    top = 0
    for i in range(count):
        cid = placed[i]
        for n in (cid - 1, cid + 1, _vertical(cid, width)):
            if tiles[n] >= 0 and fresh[n] == 0:
                stack[top] = cid
                top += 1
                break
    for i in range(top):
        fresh[stack[i]] = 2
    while top > 0:
        top -= 1
        cid = stack[top]
        for n in (cid - 1, cid + 1, _vertical(cid, width)):
            if fresh[n] == 1:
                fresh[n] = 2
                stack[top] = n
                top += 1
    joined = True
    for i in range(count):
        if fresh[placed[i]] == 1:
            joined = False
        fresh[placed[i]] = 0
    return joined


@njit(cache=True)
def _attempt(
    s: Any,
    st: Any,
    placed: Any,
    cid: int,
    o: int,
    pool: int,
    origin: int,
    touch: Any,
    ring: Any,
    width: int,
) -> int:
    """`Board.attempt`: the tiles the move placed (in `placed`, the tile
    first), or 0 when it is not legal (the board unchanged)."""
    tiles, seen, order = s[0], s[1], s[2]
    if tiles[cid] >= 0:
        return 0
    if st[_TILES] == 0:
        if cid != origin:
            return 0
    else:
        offsets = touch[cid & 1]
        touches = False
        for k in range(offsets.shape[0]):
            if tiles[cid + offsets[k]] >= 0:
                touches = True
                break
        if not touches:
            return 0
    if not (_mask(tiles, seen, cid, width) >> o) & 1:
        return 0
    _put(tiles, seen, order, st, cid, o, width)
    placed[0] = cid
    count = _fill(s, st, placed, pool, ring, width)
    if count < 0:
        _take_all(tiles, seen, st, placed, -count, width)
        return 0
    if not _connected(tiles, s[6], s[7], st, placed, count, width):
        _take_all(tiles, seen, st, placed, count, width)
        return 0
    return count


# -- paths and loops --------------------------------------------------------------


@njit(cache=True)
def _walk(
    tiles: Any, done: Any, stamp: int, start: int, colour: int, side: int, width: int
) -> tuple[bool, int]:
    """`Board._walk`: (back at `start`, tiles passed), marking them done."""
    cid = start
    passed = 0
    while True:
        if side == 0:
            n = cid - 1
        elif side == 1:
            n = cid + 1
        else:
            n = _vertical(cid, width)
        o = tiles[n]
        if o < 0:
            return False, passed
        if n == start:
            return True, passed
        done[n] = stamp
        passed += 1
        entry = _OPPOSITE[side]
        a = _ARCS[o, colour, 0]
        side = _ARCS[o, colour, 1] if entry == a else a
        cid = n


@njit(cache=True)
def _component(
    tiles: Any, done: Any, stamp: int, cid: int, colour: int, width: int
) -> tuple[bool, int]:
    """`Board.component`: (is it a loop, its length in tiles)."""
    done[cid] = stamp
    o = tiles[cid]
    closed, one_way = _walk(tiles, done, stamp, cid, colour, _ARCS[o, colour, 0], width)
    if closed:
        return True, 1 + one_way
    _, other_way = _walk(tiles, done, stamp, cid, colour, _ARCS[o, colour, 1], width)
    return False, 1 + one_way + other_way


@njit(cache=True)
def _loop_winner(s: Any, st: Any, cells: Any, count: int, width: int) -> int:
    """`end.loop_result` of the loops through `cells`: the winner, `_DRAW`,
    or `_NOT_OVER` when no loop closed."""
    tiles, done = s[0], s[3]
    longest = np.zeros(2, dtype=np.int64)
    for colour in range(2):
        st[_STAMP] += 1
        stamp = st[_STAMP]
        for i in range(count):
            cid = cells[i]
            if done[cid] == stamp:
                continue
            closed, length = _component(tiles, done, stamp, cid, colour, width)
            if closed and length > longest[colour]:
                longest[colour] = length
    red, blue = longest[0], longest[1]
    if red == 0 and blue == 0:
        return _NOT_OVER
    if blue == 0:
        return 0
    if red == 0:
        return 1
    if red == blue:
        return _DRAW
    return 1 if red > blue else 0


@njit(cache=True)
def _path_winner(s: Any, st: Any, width: int) -> int:
    """`end.path_result`: the longest open path loses; equal ones draw."""
    tiles, order, done = s[0], s[2], s[3]
    longest = np.zeros(2, dtype=np.int64)
    for colour in range(2):
        st[_STAMP] += 1
        stamp = st[_STAMP]
        for i in range(st[_TILES]):
            cid = order[i]
            if done[cid] == stamp:
                continue
            closed, length = _component(tiles, done, stamp, cid, colour, width)
            if not closed and length > longest[colour]:
                longest[colour] = length
    if longest[0] == longest[1]:
        return _DRAW
    return 1 if longest[0] > longest[1] else 0


# -- the win-in-one test --------------------------------------------------------


@njit(cache=True)
def _can_move(
    s: Any, st: Any, placed: Any, pool: int, origin: int, touch: Any, ring: Any, width: int
) -> bool:
    """`Board.has_legal_move`: whether the player to move has a legal move with
    `pool` tiles left (the board left as it was); the cells touching a
    tile by an edge first, then those touching one at a corner."""
    tiles, seen, order = s[0], s[1], s[2]
    count = st[_TILES]
    for by_edge in (True, False):
        for i in range(count):
            cid = order[i]
            offsets = touch[cid & 1]
            for k in range(offsets.shape[0]):
                near = cid + offsets[k]
                if tiles[near] >= 0:
                    continue
                edge = near == cid - 1 or near == cid + 1 or near == _vertical(cid, width)
                if edge != by_edge:
                    continue
                mask = _mask(tiles, seen, near, width)
                for o in range(6):
                    if (mask >> o) & 1:
                        n = _attempt(s, st, placed, near, o, pool, origin, touch, ring, width)
                        if n:
                            _take_all(tiles, seen, st, placed, n, width)
                            return True
    return False


@njit(cache=True)
def _winners(
    s: Any,
    st: Any,
    moves: Any,
    wins: Any,
    pool: int,
    mover: int,
    origin: int,
    touch: Any,
    ring: Any,
    width: int,
) -> None:
    """`VascoSearchPosition.may_win` for each of `moves` (1 in `wins` for a
    move that ends the game with `mover` winning), each taken back after."""
    tiles, seen = s[0], s[1]
    placed = np.empty(pool + 1, dtype=np.int64)
    probe = np.empty(pool + 1, dtype=np.int64)
    for i in range(moves.shape[0]):
        m = moves[i]
        count = _attempt(s, st, placed, m >> 3, m & 7, pool, origin, touch, ring, width)
        if count == 0:
            continue  # (not legal: never, for a listed move; `wins` stays 0)
        winner = _loop_winner(s, st, placed, count, width)
        left = pool - count
        if winner == _NOT_OVER and (
            left == 0 or not _can_move(s, st, probe, left, origin, touch, ring, width)
        ):
            winner = _path_winner(s, st, width)
        wins[i] = 1 if winner == mover else 0
        _take_all(tiles, seen, st, placed, count, width)


# -- the game ---------------------------------------------------------------------


@njit(cache=True)
def _draw(
    s: Any,
    st: Any,
    placed: Any,
    candidates: Any,
    legal: Any,
    rng: Any,
    pool: int,
    origin: int,
    touch: Any,
    ring: Any,
    width: int,
) -> int:
    """`VascoSearchPosition._draw`: put a uniformly random legal move on the
    board (its tiles in `placed`) and return how many; 0 when the player to
    move has none."""
    tiles, seen = s[0], s[1]
    draws = 0
    while draws < _MAX_DRAWS:
        count = st[_CANDIDATES]
        if count == 0:  # (never: a group always has empty cells around it)
            break
        x = int(random_double(rng) * 6.0 * count)
        index = x // 6
        o = x % 6
        cid = candidates[index]
        if tiles[cid] >= 0:
            candidates[index] = candidates[count - 1]
            st[_CANDIDATES] = count - 1
            continue
        draws += 1
        if not (_mask(tiles, seen, cid, width) >> o) & 1:
            continue
        placed_count = _attempt(s, st, placed, cid, o, pool, origin, touch, ring, width)
        if placed_count:
            return placed_count
    live = 0  # `_live_cells`: the stale candidates dropped, the rest sorted
    for i in range(st[_CANDIDATES]):
        cid = candidates[i]
        if tiles[cid] < 0:
            candidates[live] = cid
            live += 1
    candidates[:live].sort()
    st[_CANDIDATES] = live
    found = 0
    for i in range(live):
        cid = candidates[i]
        mask = _mask(tiles, seen, cid, width)
        for o in range(6):
            if (mask >> o) & 1:
                placed_count = _attempt(s, st, placed, cid, o, pool, origin, touch, ring, width)
                if placed_count:
                    _take_all(tiles, seen, st, placed, placed_count, width)
                    legal[found] = cid << 3 | o
                    found += 1
    if found == 0:
        return 0
    move = legal[int(random_double(rng) * found)]
    return _attempt(s, st, placed, move >> 3, move & 7, pool, origin, touch, ring, width)


@njit(cache=True)
def _run(
    s: Any,
    st: Any,
    candidates: Any,
    rng: Any,
    pool: int,
    origin: int,
    touch: Any,
    ring: Any,
    width: int,
    moves: Any,
) -> tuple[int, int, int]:
    """`VascoSearchPosition.play_out` from the position in the arrays, the
    player to move having to move: (turns, tiles placed, winner or
    `_DRAW`); each move drawn goes in `moves` (when it has room)."""
    tiles, known = s[0], s[8]
    placed = np.empty(pool + 1, dtype=np.int64)
    legal = np.empty(6 * (candidates.shape[0] + 1), dtype=np.int64)
    turns = 0
    placed_tiles = 0
    while True:
        count = _draw(s, st, placed, candidates, legal, rng, pool, origin, touch, ring, width)
        if count == 0:
            return turns, placed_tiles, _path_winner(s, st, width)
        if turns < moves.shape[0]:
            moves[turns] = placed[0] << 3 | tiles[placed[0]]
        pool -= count
        for i in range(count):  # `_apply`: the new candidate cells
            cid = placed[i]
            offsets = touch[cid & 1]
            for k in range(offsets.shape[0]):
                near = cid + offsets[k]
                if not known[near]:
                    known[near] = 1
                    candidates[st[_CANDIDATES]] = near
                    st[_CANDIDATES] += 1
        turns += 1
        placed_tiles += count
        winner = _loop_winner(s, st, placed, count, width)
        if winner == _NOT_OVER and pool == 0:
            winner = _path_winner(s, st, width)
        if winner != _NOT_OVER:
            return turns, placed_tiles, winner


@njit(cache=True)
def _load(s: Any, st: Any, cells: Any, orientations: Any, known_cells: Any, width: int) -> None:
    """Put the position's tiles and known cells on the clean window."""
    for i in range(cells.shape[0]):
        _put(s[0], s[1], s[2], st, cells[i], orientations[i], width)
    for i in range(known_cells.shape[0]):
        s[8][known_cells[i]] = 1


@njit(cache=True)
def _clean(s: Any, st: Any, known_cells: Any, touch: Any, width: int) -> None:
    """Leave the window as `_scratch` made it: every mark of a playout lies
    on a final tile, a cell touching one (failed attempts were taken back)
    or a cell the position knew; the done stamps stay and count on."""
    tiles, seen, order, known = s[0], s[1], s[2], s[8]
    for i in range(st[_TILES]):
        cid = order[i]
        offsets = touch[cid & 1]
        for k in range(offsets.shape[0]):
            near = cid + offsets[k]
            seen[near] = 0
            known[near] = 0
        tiles[cid] = -1
        seen[cid] = 0
    for i in range(known_cells.shape[0]):
        known[known_cells[i]] = 0
    st[_TILES] = 0
    st[_CANDIDATES] = 0
    st[_FORCED] = 0


# -- from a position ----------------------------------------------------------------


@lru_cache(maxsize=4)
def _scratch(width: int, height: int) -> tuple[tuple[Any, ...], Any]:
    """A clean window's arrays, kept for the next playout on a window of
    this size: tiles (-1 empty), seen, the tiles in order, done stamps,
    forced orientations (-1 none), the forced list, fresh marks, a stack,
    known marks; and the scalars (`st`: the done stamps' count goes on
    from one playout to the next, so no stamp is ever seen twice)."""
    cells = width * height
    arrays = (
        np.full(cells, -1, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.full(cells, -1, dtype=np.int64),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
        np.zeros(cells, dtype=np.int64),
        np.zeros(cells, dtype=np.int8),
    )
    return arrays, np.zeros(4, dtype=np.int64)


@cache
def _offsets(width: int) -> tuple[Any, Any]:
    """The touching and the two-step offsets for windows of this width."""
    touch = np.array([[r * width + c for c, r in steps] for steps in _TOUCH_STEPS])
    ring = np.array([[r * width + c for c, r in steps] for steps in _RING_STEPS])
    return touch, ring


class _Window:
    """Where a position's cells lie in a window: `local` and `cell` convert."""

    __slots__ = ("c0", "height", "r0", "width")

    def __init__(self, cells: list[tuple[int, int]], pool: int) -> None:
        cols = [c for c, _ in cells] or [0]
        rows = [r for _, r in cells] or [0]
        # A move puts at most `pool` tiles, each within two columns and a row
        # of one before; the rest is room for the neighbours looked at.
        across, down = 2 * pool + 8, pool + 8
        self.c0, self.r0 = min(cols) - across, min(rows) - down
        if (self.c0 + self.r0) & 1:
            self.c0 -= 1
        # Rounded up, so that most positions share a few kept windows.
        self.width = -(-(max(cols) + across - self.c0 + 1) // 64) * 64 + 1
        self.height = -(-(max(rows) + down - self.r0 + 1) // 64) * 64

    @classmethod
    def around(cls, position: VascoSearchPosition) -> _Window:
        """The window for a playout from `position`."""
        return cls([cell_of(cid) for cid in position.board.tiles], position.pool)

    def local(self, cid: int) -> int:
        col, row = cell_of(cid)
        return (row - self.r0) * self.width + col - self.c0

    def cell(self, local: int) -> int:
        row, col = divmod(local, self.width)
        return cell_id(col + self.c0, row + self.r0)


def _played(
    position: VascoSearchPosition,
    rand: SplitMix64,
    record: list[int] | None = None,
    window: _Window | None = None,
) -> tuple[Playout, dict[int, int]]:
    """The compiled playout from `position` (used up: its board is not
    brought up to date), and the final board as {engine cell id:
    orientation} (for the tests)."""
    assert AVAILABLE, "numba is not installed"
    board = position.board
    window = window or _Window.around(position)
    width = window.width
    s, st = _scratch(width, window.height)
    touch, ring = _offsets(width)
    local = window.local
    known = np.array([local(cid) for cid in position.known], dtype=np.int64)
    listed = position.candidates
    candidates = np.empty(len(listed) + 12 * position.pool + 12, dtype=np.int64)
    candidates[: len(listed)] = [local(cid) for cid in listed]
    rng = np.array([rand.state], dtype=np.uint64)
    moves = np.empty(position.pool if record is not None else 0, dtype=np.int64)
    with _LOCK:  # one playout at a time on the kept windows
        try:
            _load(
                s,
                st,
                np.array([local(cid) for cid in board.tiles], dtype=np.int64),
                np.array(list(board.tiles.values()), dtype=np.int64),
                known,
                width,
            )
            st[_CANDIDATES] = len(listed)
            turns, placed, won = _run(
                s, st, candidates, rng, position.pool, local(ORIGIN), touch, ring, width, moves
            )
            final = {window.cell(int(cid)): int(s[0][cid]) for cid in s[2][: st[_TILES]]}
        finally:
            _clean(s, st, known, touch, width)
    rand.state = int(rng[0])
    if record is not None:
        record.extend(
            search_move(window.cell(move >> 3), move & 7) for move in moves[:turns].tolist()
        )
    winner = None if won == _DRAW else int(won)
    position.finish(winner)
    return Playout(score_of(winner), winner, int(turns), int(placed)), final


def play_out(
    position: VascoSearchPosition, rand: SplitMix64, record: list[int] | None = None
) -> Playout:
    """`VascoSearchPosition.play_out`, compiled: the same game from the same
    random numbers (`rand`, whose state moves on as the pure path's would).
    The position is used up: copy it first to keep it. A game over, or a
    window too large to keep, plays the pure path."""
    if position._to_move is None or not AVAILABLE:
        return VascoSearchPosition.play_out(position, rand, record)  # type: ignore[arg-type]
    window = _Window.around(position)
    if window.width * window.height > MAX_WINDOW:
        return VascoSearchPosition.play_out(position, rand, record)  # type: ignore[arg-type]
    return _played(position, rand, record, window)[0]


def winning_moves(position: VascoSearchPosition, moves: list[int]) -> frozenset[int]:
    """The legal `moves` of `position` that end the game at once with the
    mover winning (`VascoSearchPosition.may_win` of each), judged in one
    compiled pass; a window too large to keep judges them the pure way."""
    mover = position._to_move
    window = _Window.around(position)
    if mover is None or not AVAILABLE or window.width * window.height > MAX_WINDOW:
        return frozenset(m for m in moves if VascoSearchPosition.may_win(position, m))
    width = window.width
    s, st = _scratch(width, window.height)
    touch, ring = _offsets(width)
    local = window.local
    tiles = position.board.tiles
    cells = np.array([local(cid) for cid in tiles], dtype=np.int64)
    orientations = np.array(list(tiles.values()), dtype=np.int64)
    local_moves = np.array([local(m >> 3) << 3 | (m & 7) for m in moves], dtype=np.int64)
    wins = np.zeros(len(moves), dtype=np.int8)
    nothing_known = np.empty(0, dtype=np.int64)
    with _LOCK:  # the kept windows serve one caller at a time
        try:
            _load(s, st, cells, orientations, nothing_known, width)
            args = (position.pool, mover, local(ORIGIN), touch, ring, width)
            _winners(s, st, local_moves, wins, *args)
        finally:
            _clean(s, st, nothing_known, touch, width)
    return frozenset(m for m, won in zip(moves, wins.tolist(), strict=True) if won)


class CompiledPosition(VascoSearchPosition):
    """The search position whose random games run compiled: what
    `VascoState.search_position()` gives when numba is installed. Its
    win-in-one test judges every listed move in one compiled pass, the
    first time the search asks about one of them."""

    __slots__ = ("_listed", "_wins")
    _listed: list[Hashable] | None  # the moves `legal_moves` last listed here
    _wins: frozenset[int] | None  # those of them that win at once, once judged

    def legal_moves(self) -> list[Hashable]:
        moves = super().legal_moves()
        self._listed = moves
        return moves

    def may_win(self, move: Hashable) -> bool:
        """`VascoSearchPosition.may_win`, for a move of the last listing
        from the judgement of all of them (`winning_moves`)."""
        if self._listed is None:
            return super().may_win(move)
        if self._wins is None:
            self._wins = winning_moves(self, cast(list[int], self._listed))
        return move in self._wins

    def _changed(self) -> None:
        super()._changed()
        self._listed = None
        self._wins = None

    def play_out(self, rng: random.Random, record: list[int] | None = None) -> Playout:
        """The compiled game (`play_out` here), from a seed drawn from
        `rng`: the pure method's game from the same random numbers. The
        position is used up (copy it first to keep it)."""
        return play_out(self, SplitMix64(rng.getrandbits(64)), record)


def warm_up() -> None:
    """Compile (or load from the disk cache) the loop and the win-in-one
    test now, with a small game, so the first search does not wait for them."""
    if AVAILABLE:
        play_out(VascoSearchPosition.opening(6), SplitMix64(1))
        opening = CompiledPosition.opening(6)
        winning_moves(opening, cast(list[int], opening.legal_moves()))
