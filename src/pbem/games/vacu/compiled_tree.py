"""Vacu's and Convacu's compiled search position and tree: the AI's RAVE
search (`pbem.ai.mcts`) again, compiled with numba over the arrays of
`compiled.py`, behind the search position (`CompiledPosition`, what
`VacuState.search_position()` gives when numba is installed: its random
games run compiled, and in play its `compiled_tree` makes a `VacuTree`,
the contract's `CompiledTree` in `games/base.py`).

The AI's Python tree spent most of its time outside the compiled random
game: copying the position, turning it into arrays for each random game,
choosing among children in Python. Here the whole iteration runs compiled
over the arrays of `compiled.py` (its walk and its random game both
through that module's `run`, as the random games are), about five times
the iterations in the same time. The AI drives it (`pbem.ai.vacu_tree`):
how many iterations a call runs, when the arrays grow, and the ranking of
the root's moves are its own, and it reaches this module only through
the position's `compiled_tree`.

It is the same search, not a look-alike: iteration by iteration it walks,
lists, tries wins in one, plays out, counts AMAF and proves as the Python
tree's RAVE iteration does, from the same random games (each playout's
seed given in the order the Python tree draws it from its generator), so
with the same seed and an iteration budget both give the same analysis,
visit for visit (`tests/ai/test_vacu_tree.py` compares them on random
positions). The Python tree stays: it is the reference, what the komi and
colour steps search, and what runs without numba.

The tree is a set of flat arrays (a node's children are consecutive,
listed at once), values are kept in half points (a share of 0, 0.5 or 1
per random game: exact sums, as the Python floats are), and a walk deeper
than `MAX_DEPTH` plays out from there (the Python walk has no such bound;
no real search comes near it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..base import CompiledTree, Playout, TreeNode
from ..splitmix import AVAILABLE, SplitMix64, njit
from .board import BLACK, EDGE, EMPTY, NEEDS, WHITE
from .compiled import (
    NO_MOVE,
    ST_BUTTON,
    ST_EMPTY,
    ST_LOGGED,
    ST_PASSES,
    ST_PLAYER,
    board_rows,
    occurrences,
    placement,
    places,
    play_out,
    points_leader,
    run,
    seen_table,
    seen_undo,
    statics,
    views,
)
from .search import BUTTON_MOVE, PASS_MOVE, VacuSearchPosition, default_cap

MAX_DEPTH = 1000  # moves a walk goes down at most
PENDING, OVER = -1, 2  # a node's `mover` before its first walk, and once its game is over
_NEEDS_BLACK, _NEEDS_WHITE = NEEDS[BLACK], NEEDS[WHITE]

# The tree's arrays, one entry a node (the root is node 0), in this order.
MOVE, MOVER, SOLVED, VISITS, VALUE, AMAF_VISITS, AMAF_VALUE, FIRST, COUNT = range(9)
_COLUMNS = (np.int16, np.int8, np.int8, np.int32, np.int32, np.int32, np.int32, np.int32, np.int32)
FIRST_SIZE = 1 << 14  # nodes the arrays hold before they first grow


class CompiledPosition(VacuSearchPosition):
    """The search position whose random games run compiled, and which in
    play keeps a compiled search tree (the contract's
    `CompiledTreePosition`): what `VacuState.search_position()` gives when
    numba is installed."""

    __slots__ = ()

    def play_out(self, rng: random.Random, record: list[Any] | None = None) -> Playout:
        """The compiled game (`compiled.play_out`), from a seed drawn from
        `rng`: the pure method's game from the same random numbers. The
        position is used up (copy it first to keep it)."""
        return play_out(self, SplitMix64(rng.getrandbits(64)), record)

    def compiled_tree(
        self,
        *,
        exploration: float,
        rave: float,
        first_play: float,
        solver: bool,
        decisive: bool,
        betas: Sequence[float],
        shrink: Sequence[float],
    ) -> CompiledTree | None:
        """The compiled search tree rooted here (`VacuTree`; the contract's
        `CompiledTreePosition` says what it takes and gives), in play only:
        the komi and colour steps, and a game over, keep none."""
        if not AVAILABLE or self.komi is None or self.black is None or self.to_move is None:
            return None
        return VacuTree(
            self,
            exploration=exploration,
            rave=rave,
            first_play=first_play,
            solver=solver,
            decisive=decisive,
            betas=betas,
            shrink=shrink,
        )


class VacuTree:
    """One compiled search's arrays (a `base.CompiledTree`): the root
    position, the scratch positions of a walk and of a win check, the
    tree, and the buffers."""

    def __init__(
        self,
        position: VacuSearchPosition,
        *,
        exploration: float,
        rave: float,
        first_play: float,
        solver: bool,
        decisive: bool,
        betas: Sequence[float],
        shrink: Sequence[float],
    ) -> None:
        """The tree rooted at `position` (in play, not over; left unchanged)."""
        board = position.board
        assert position.komi is not None and position.black is not None
        neighbours, edges, points, zobrist = statics(board.size)
        total = len(board.colour)
        self.cap = default_cap(board.size)
        room = MAX_DEPTH + self.cap + 1  # keys one iteration may add
        self.root_arrays = (
            board_rows(board),
            np.array(board.stones, dtype=np.int64),
            np.array([board.hash], dtype=np.uint64),
            *places(position),
        )
        self.work = tuple(array.copy() for array in self.root_arrays)
        self.check = tuple(array.copy() for array in self.root_arrays)
        keys, counts = seen_table(*occurrences(position.seen), room)
        self.shared = (neighbours, zobrist, edges, points, keys, counts, np.empty(room, np.int64))
        self.rules = np.array(
            (int(position.connection), position.komi, position.black, self.cap), dtype=np.int64
        )
        self.how = np.array(
            (exploration, rave, first_play, float(solver), float(decisive and solver))
        )
        self.tables = (np.asarray(betas, dtype=np.float64), np.asarray(shrink, dtype=np.float64))
        self.buffers = (
            np.zeros(MAX_DEPTH + 1, np.int64),  # the walk's nodes
            np.zeros(MAX_DEPTH, np.int64),  # the walk's moves
            np.zeros((2, total + 2), np.int64),  # AMAF: the stamp of a move made, by player
            np.zeros(1, np.int64),  # the stamp of this iteration
            np.zeros(self.cap, np.int64),  # the random game's moves
            np.zeros(total + 2, np.int64),  # a node's moves as they are listed
            np.zeros(0, np.int64),  # no record: a walk's moves are not written down
            np.zeros(1, np.uint64),  # the random game's generator
        )
        self.widest = total + 2  # the most children one listing adds
        self.tree = tuple(np.zeros(FIRST_SIZE, dtype) for dtype in _COLUMNS)
        self.used = np.zeros(1, np.int64)
        _start(self.tree, self.used, int(position.to_move or 0))

    @property
    def nodes(self) -> int:
        return int(self.used[0])

    @property
    def capacity(self) -> int:
        return len(self.tree[0])

    def solved(self) -> bool:
        return bool(self.tree[SOLVED][0] >= 0)

    def iterate(self, n: int, seeds: Sequence[int]) -> tuple[int, int]:
        """Run up to `n` iterations (fewer if the root is solved; the tree
        must have room for them) with the random games' seeds from `seeds`,
        in order; how many ran and how many seeds they used."""
        assert self.has_room(n)
        done, used = _iterate(
            self.tree, self.used, self.root_arrays, self.work, self.check, self.shared,
            self.rules, self.how, self.tables, np.array(seeds[:n], np.uint64), n,
            self.buffers,
        )  # fmt: skip
        return int(done), int(used)

    def has_room(self, n: int) -> bool:
        """Whether `n` iterations fit in the tree's arrays (each lists at
        most one position's moves)."""
        return int(self.used[0]) + n * self.widest + 1 <= len(self.tree[0])

    def grow(self, n: int, projected: int = 0) -> None:
        """Grow the tree's arrays (doubling) until `n` iterations fit, and
        to `projected` nodes if that is more: one early copy of a small
        tree, not a late one of a large tree."""
        size = len(self.tree[0])
        need = max(int(self.used[0]) + n * self.widest + 1, projected)
        while size < need:
            size *= 2
        grown = []
        for column in self.tree:
            bigger = np.zeros(size, column.dtype)
            bigger[: len(column)] = column
            grown.append(bigger)
        self.tree = tuple(grown)

    def root(self) -> TreeNode:
        return self._node(0)

    def children(self) -> list[TreeNode]:
        t = self.tree
        start = int(t[FIRST][0])
        if start < 0:
            return []
        return [self._node(c) for c in range(start, start + int(t[COUNT][0]))]

    def _node(self, i: int) -> TreeNode:
        """Node `i`'s counts, in the Python tree's terms (shares, not half
        points; no player to move before its first walk or once over)."""
        t = self.tree
        mover = int(t[MOVER][i])
        solved = int(t[SOLVED][i])
        return TreeNode(
            move=None if i == 0 else int(t[MOVE][i]),
            to_move=None if mover in (PENDING, OVER) else mover,
            visits=int(t[VISITS][i]),
            value=int(t[VALUE][i]) * 0.5,
            solved=None if solved < 0 else solved * 0.5,
        )


@njit(cache=True)
def _start(t: Any, used: Any, player: int) -> None:
    """Make node 0 the root, `player` to move, nothing known."""
    t[MOVE][0] = 0
    t[MOVER][0] = player
    t[SOLVED][0] = -1
    t[FIRST][0] = -1
    t[COUNT][0] = 0
    used[0] = 1


@njit(cache=True)
def _half_points(winner: int) -> int:
    """`score_of(winner)` in half points: player 0's share times two."""
    if winner == 0:
        return 2
    return 0 if winner == 1 else 1


@njit(cache=True)
def _slot(move: int, total: int) -> int:
    """Where a move is marked in the AMAF stamps: a point is its index,
    then the pass, then the button."""
    if move >= 0:
        return move
    return total if move == PASS_MOVE else total + 1


@njit(cache=True)
def _select(t: Any, node: int, how: Any, betas: Any, shrink: Any) -> int:
    """The Python tree's RAVE selection, over the arrays (the same
    arithmetic in the same order, so the same child)."""
    visits, value, amaf_visits, amaf_value = t[VISITS], t[VALUE], t[AMAF_VISITS], t[AMAF_VALUE]
    solved = t[SOLVED]
    player = t[MOVER][node]
    exploration, rave, first_play = how[0], how[1], how[2]
    n = visits[node]
    explore = exploration * math.sqrt(math.log(n) if n > 1 else 0.0)
    top = betas.shape[0]
    best = -1
    best_score = -math.inf
    start = t[FIRST][node]
    for child in range(start, start + t[COUNT][node]):
        s = solved[child]
        v = visits[child]
        if s >= 0:
            share = s * 0.5 if player == 0 else 1.0 - s * 0.5
            score = -1e9 if share == 0.0 else share + 1e6 * (share == 1.0)
        else:
            seen = amaf_visits[child]
            if seen:
                mean = amaf_value[child] * 0.5 / seen
                if v:
                    beta = betas[v] if v < top else math.sqrt(rave / (3 * v + rave))
                    mean = (1 - beta) * (value[child] * 0.5 / v) + beta * mean
            elif v:
                mean = value[child] * 0.5 / v
            else:
                mean = 1.0 - first_play if player else first_play
            if player:
                mean = 1.0 - mean
            score = mean + explore * (shrink[v] if v < top else (v + 1) ** -0.5)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def _prove(t: Any, node: int) -> None:
    """The Python tree's proof of a listed node (shares in half points)."""
    solved = t[SOLVED]
    player = t[MOVER][node]
    best = -1
    open_moves = False
    start = t[FIRST][node]
    for child in range(start, start + t[COUNT][node]):
        s = solved[child]
        if s < 0:
            open_moves = True
            continue
        share = s if player == 0 else 2 - s
        if share == 2:
            solved[node] = s
            return
        if best < 0 or share > (best if player == 0 else 2 - best):
            best = s
    if not open_moves and best >= 0:
        solved[node] = best


@njit(cache=True)
def _may_win(b: Any, links: Any, edges: Any, st: Any, move: int, c: int, connection: bool) -> bool:
    """`VacuSearchPosition.may_win` over the arrays."""
    if move == PASS_MOVE:
        return bool(st[ST_PASSES] >= 1)
    if move < 0:
        return False
    colour, neighbours, group, libs, lsum, lsq = b
    reach_of = links[3]
    square = move * move
    reach = edges[move]
    for k in range(4):
        n = neighbours[move, k]
        cn = colour[n]
        if cn in (EMPTY, EDGE):
            continue
        g = group[n]
        count = libs[g]
        if cn != c and count * move == lsum[g] and count * square == lsq[g]:
            return True
        if cn == c:
            reach |= reach_of[g]
    if connection:
        need = _NEEDS_BLACK if c == BLACK else _NEEDS_WHITE
        return bool(reach & need == need)
    return False


@njit(cache=True)
def _copy(source: Any, target: Any) -> None:
    """One position's arrays into another's (the same shapes)."""
    target[0][:, :] = source[0]
    target[1][:] = source[1]
    target[2][:] = source[2]
    target[3][:] = source[3]
    target[4][:] = source[4]
    target[5][:] = source[5]


@njit(cache=True)
def _list(t: Any, used: Any, node: int, work: Any, check: Any, shared: Any, rules: Any,
          decisive: bool, listed: Any, rng: Any, none: Any) -> None:  # fmt: skip
    """List a node's moves as the Python tree does: give `node` its
    children (pending), the moves of the position `work` holds in the
    Python position's order; with
    `decisive`, a move that wins at once (tried on `check`) becomes its
    one child, solved, and solves it."""
    neighbours, zobrist, edges, points, keys, counts, log = shared
    connection, komi, black = rules[0] != 0, rules[1], rules[2]
    b, links = views(work[0], neighbours)
    st = work[5]
    player = st[ST_PLAYER]
    c = BLACK if player == black else WHITE
    empty = work[3]
    n = 0
    for i in range(st[ST_EMPTY]):
        p = empty[i]
        if placement(b, p, c):
            listed[n] = p
            n += 1
    if st[ST_BUTTON] < 0:
        listed[n] = BUTTON_MOVE
        n += 1
    elif not connection or n == 0:
        listed[n] = PASS_MOVE
        n += 1
    start = used[0]
    for j in range(n):
        k = start + j
        t[MOVE][k] = listed[j]
        t[MOVER][k] = PENDING
        t[SOLVED][k] = -1
        t[VISITS][k] = 0
        t[VALUE][k] = 0
        t[AMAF_VISITS][k] = 0
        t[AMAF_VALUE][k] = 0
        t[FIRST][k] = -1
        t[COUNT][k] = 0
    t[FIRST][node] = start
    t[COUNT][node] = n
    used[0] = start + n
    if not decisive:
        return
    for j in range(n):
        move = listed[j]
        if not _may_win(b, links, edges, st, move, c, connection):
            continue
        _copy(work, check)
        after_b, after_links = views(check[0], neighbours)
        after = check[5]
        logged = after[ST_LOGGED]
        _, _, end, winner, _ = run(after_b, after_links, check[1], zobrist, edges, points,
                                   check[2], check[3], check[4], keys, counts, log, after,
                                   connection, komi, black, move, 1, rng, none)  # fmt: skip
        seen_undo(counts, log, after, logged)
        if end != 0 and winner == player:
            won = _half_points(player)
            t[MOVE][start] = move
            t[MOVER][start] = OVER
            t[SOLVED][start] = won
            t[COUNT][node] = 1
            t[SOLVED][node] = won
            used[0] = start + 1
            return


@njit(cache=True)
def _iterate(t: Any, used: Any, root: Any, work: Any, check: Any, shared: Any, rules: Any,
             how: Any, tables: Any, seeds: Any, n: int, buffers: Any) -> Any:  # fmt: skip
    """Up to `n` iterations of the Python tree's RAVE iteration (fewer once
    the root is solved): (iterations run, seeds used)."""
    neighbours, zobrist, edges, points, keys, counts, log = shared
    connection, komi, black, cap = rules[0] != 0, rules[1], rules[2], rules[3]
    solver, decisive = how[3] != 0.0, how[4] != 0.0
    betas, shrink = tables
    path, walked, marks, stamp, record, listed, none, rng = buffers
    move, mover, solved, visits, value = t[MOVE], t[MOVER], t[SOLVED], t[VISITS], t[VALUE]
    amaf_visits, amaf_value, first, count = t[AMAF_VISITS], t[AMAF_VALUE], t[FIRST], t[COUNT]
    b, links = views(work[0], neighbours)
    board_counts, hashes, empty, where, st = work[1], work[2], work[3], work[4], work[5]
    total = work[0].shape[1]
    seeds_used = 0
    done = 0
    for _ in range(n):
        if solved[0] >= 0:
            break
        _copy(root, work)
        node = 0
        depth = 0
        path[0] = 0
        while solved[node] < 0 and (visits[node] > 0 or node == 0) and depth < MAX_DEPTH:
            if first[node] < 0:
                _list(t, used, node, work, check, shared, rules, decisive, listed, rng, none)
                if solved[node] >= 0:
                    break
            child = _select(t, node, how, betas, shrink)
            m = move[child]
            _, _, end, winner, _ = run(b, links, board_counts, zobrist, edges, points, hashes,
                                       empty, where, keys, counts, log, st, connection, komi,
                                       black, m, 1, rng, none)  # fmt: skip
            walked[depth] = m
            depth += 1
            path[depth] = child
            node = child
            if mover[node] == PENDING:
                if end != 0:
                    mover[node] = OVER
                    solved[node] = _half_points(winner)
                else:
                    mover[node] = st[ST_PLAYER]
        played = 0
        first_player = 0
        if solved[node] >= 0:
            half = int(solved[node])
        else:
            first_player = st[ST_PLAYER]
            rng[0] = seeds[seeds_used]
            seeds_used += 1
            _, _, end, winner, played = run(
                b, links, board_counts, zobrist, edges, points, hashes, empty, where, keys,
                counts, log, st, connection, komi, black, NO_MOVE, cap, rng, record,
            )  # fmt: skip
            if end == 0:  # capped: scored as the board stands
                winner = points_leader(b, board_counts, points, komi, black, st[ST_BUTTON])
            half = _half_points(winner)
        stamp[0] += 1
        mark = stamp[0]
        for i in range(played):
            marks[first_player ^ (i & 1), _slot(record[i], total)] = mark
        for d in range(depth, -1, -1):
            here = path[d]
            visits[here] += 1
            value[here] += half
            player = mover[here]
            if d < depth:
                marks[player, _slot(walked[d], total)] = mark
            start = first[here]
            if start >= 0 and (player == 0 or player == 1):
                for child in range(start, start + count[here]):
                    if marks[player, _slot(move[child], total)] == mark:
                        amaf_visits[child] += 1
                        amaf_value[child] += half
            if solver and solved[here] < 0 and count[here] > 0:
                _prove(t, here)
        seen_undo(counts, log, st, 0)
        done += 1
    return done, seeds_used
