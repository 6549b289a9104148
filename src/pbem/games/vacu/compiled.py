"""Vacu and Convacu random games compiled with numba: the loop of
`search.VacuSearchPosition._run` and the board of `board.Board`, again,
over flat arrays, for the search's playouts.

The pure-Python position stays the reference. Given the same random
numbers both play the same game move for move (`tests/games/
test_vacu_compiled.py` compares the records, the ends, the winners and
the final boards over random games of every size and phase), so the
random numbers come from a generator both can run: SplitMix64
(`splitmix.py`), seeded from the caller's `random.Random`.

Arrays instead of the Board's dicts: a group is its head point (its first
stone) with its pseudo-liberty sums, its edge bits and its size at that
index, and its stones are a linked list (`nxt`, -1 at the end, `tail`
the last), kept in the Board's member order, since the order in which
suppressed stones come back to the empty points decides later draws. The
positions seen so far, for the repetition rule, are an open-addressing
table of their keys with a log of what a game added, so a search can take
its walk and random game back (`seen_undo`) instead of copying the table.

`run` is the one loop that applies moves of play, as the pure position's
`_run` is: a given move, or moves drawn at random. The compiled search
tree (`compiled_tree.py`) walks with it (one given move a call) and plays
its random games with it, so the search and the random games apply the
rules through one function.

The loop compiles on first use (a few seconds) and is cached on disk
(numba's `cache=True`, in `__pycache__` or the user's cache folder);
`warm_up()` does that ahead of the first search (the bot worker calls it
at start). Without numba, `AVAILABLE` is False and the search keeps to
the pure path.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..base import Playout, score_of
from ..splitmix import AVAILABLE, SplitMix64, njit, random_double
from .board import BLACK, EDGE, EMPTY, NEEDS, WHITE, ZOBRIST, Board, _tables
from .search import (
    BUTTON_KEY,
    BUTTON_MOVE,
    CAPPED,
    CONNECTION,
    MAX_DRAWS,
    PASS_MOVE,
    PASSES,
    REMOVAL,
    REPETITION,
    SWITCH_KEY,
    TO_MOVE_KEYS,
    VacuSearchPosition,
    default_cap,
    opening_steps,
    outcome,
)

# How the compiled loop says a game ended (0: it did not, the cap came first).
_ENDS = {1: CONNECTION, 2: PASSES, 3: REMOVAL, 4: REPETITION}
_NEEDS_BLACK, _NEEDS_WHITE = NEEDS[BLACK], NEEDS[WHITE]


_BUTTON_KEY, _SWITCH_KEY = np.uint64(BUTTON_KEY), np.uint64(SWITCH_KEY)
_TO_MOVE_KEYS = np.array(TO_MOVE_KEYS, dtype=np.uint64)
_NO_MOVE = -100  # none drawn yet


@njit(cache=True)
def placement(b: Any, p: int, c: int) -> int:
    colour, neighbours, group, libs, lsum, lsq = b[0], b[1], b[2], b[3], b[4], b[5]
    if colour[p] != EMPTY:
        return 0
    for k in range(4):
        if colour[neighbours[p, k]] == EMPTY:
            return 1
    square = p * p
    flips = 0
    for k in range(4):
        n = neighbours[p, k]
        cn = colour[n]
        if cn != EDGE:
            g = group[n]
            count = libs[g]
            if count * p == lsum[g] and count * square == lsq[g]:
                if cn != c:
                    flips = 2
            elif cn == c:
                return 1
    return flips


@njit(cache=True)
def _merge(b: Any, links: Any, a: int, other: int) -> int:
    group, libs, lsum, lsq = b[2], b[3], b[4], b[5]
    nxt, tail, size, reach = links[0], links[1], links[2], links[3]
    if a == other:
        return a
    if size[a] < size[other]:
        a, other = other, a
    s = other
    while s != -1:
        group[s] = a
        s = nxt[s]
    nxt[tail[a]] = other
    tail[a] = tail[other]
    size[a] += size[other]
    libs[a] += libs[other]
    lsum[a] += lsum[other]
    lsq[a] += lsq[other]
    reach[a] |= reach[other]
    return a


@njit(cache=True)
def _suppress(b: Any, links: Any, counts: Any, zobrist: Any, hashes: Any, g: int,
              out: Any, k: int) -> int:  # fmt: skip
    colour, neighbours, group, libs, lsum, lsq = b[0], b[1], b[2], b[3], b[4], b[5]
    nxt, size = links[0], links[2]
    c = colour[g]
    start = k
    h = hashes[0]
    s = g
    while s != -1:
        colour[s] = EMPTY
        h ^= zobrist[s, c]
        out[k] = s
        k += 1
        s = nxt[s]
    hashes[0] = h
    counts[c] -= size[g]
    for i in range(start, k):
        s = out[i]
        square = s * s
        for j in range(4):
            n = neighbours[s, j]
            cn = colour[n]
            if cn in (BLACK, WHITE):
                head = group[n]
                libs[head] += 1
                lsum[head] += s
                lsq[head] += square
    return k


@njit(cache=True)
def _flip(b: Any, links: Any, counts: Any, zobrist: Any, hashes: Any, g: int, c: int,
          out: Any, k: int) -> int:  # fmt: skip
    colour, neighbours, group = b[0], b[1], b[2]
    nxt = links[0]
    old = 3 - c
    start = k
    h = hashes[0]
    s = g
    while s != -1:
        colour[s] = c
        h ^= zobrist[s, old] ^ zobrist[s, c]
        out[k] = s
        k += 1
        s = nxt[s]
    hashes[0] = h
    counts[old] -= k - start
    counts[c] += k - start
    head = g
    for i in range(start, k):
        s = out[i]
        for j in range(4):
            n = neighbours[s, j]
            if colour[n] == c and group[n] != head:
                head = _merge(b, links, head, group[n])
    return k


@njit(cache=True)
def _play(b: Any, links: Any, counts: Any, zobrist: Any, edges: Any, hashes: Any,
          p: int, c: int, suppressed: Any, flipped: Any) -> Any:  # fmt: skip
    """Board.play: the counts of suppressed and flipped stones, written
    into the two buffers in the Board's order."""
    colour, neighbours, group, libs, lsum, lsq = b[0], b[1], b[2], b[3], b[4], b[5]
    nxt, tail, size, reach = links[0], links[1], links[2], links[3]
    colour[p] = c
    counts[c] += 1
    hashes[0] ^= zobrist[p, c]
    square = p * p
    count = total = squares = 0
    head = 0
    dead = np.empty(4, np.int64)
    nd = 0
    for k in range(4):
        n = neighbours[p, k]
        cn = colour[n]
        if cn == EMPTY:
            count += 1
            total += n
            squares += n * n
        elif cn != EDGE:
            g = group[n]
            libs[g] -= 1
            lsum[g] -= p
            lsq[g] -= square
            if cn == c:
                if head == 0:
                    head = g
                elif g != head:
                    head = _merge(b, links, head, g)
            elif libs[g] == 0:
                dead[nd] = g
                nd += 1
    if head != 0:
        group[p] = head
        nxt[tail[head]] = p
        nxt[p] = -1
        tail[head] = p
        size[head] += 1
        reach[head] |= edges[p]
        libs[head] += count
        lsum[head] += total
        lsq[head] += squares
    else:
        head = p
        group[p] = p
        nxt[p] = -1
        tail[p] = p
        size[p] = 1
        reach[p] = edges[p]
        libs[p] = count
        lsum[p] = total
        lsq[p] = squares
    if nd > 1:  # in the order their stones come among p's neighbours
        rank = np.empty(4, np.int64)
        enemy = 3 - c
        for i in range(nd):
            rank[i] = 4
            for k in range(4):
                n = neighbours[p, k]
                if colour[n] == enemy and group[n] == dead[i]:
                    rank[i] = k
                    break
        for i in range(1, nd):  # a stable insertion sort
            j = i
            while j > 0 and rank[j - 1] > rank[j]:
                rank[j - 1], rank[j] = rank[j], rank[j - 1]
                dead[j - 1], dead[j] = dead[j], dead[j - 1]
                j -= 1
    ns = nf = 0
    if libs[head] != 0:
        for i in range(nd):
            ns = _suppress(b, links, counts, zobrist, hashes, dead[i], suppressed, ns)
        return ns, nf
    ns = _suppress(b, links, counts, zobrist, hashes, head, suppressed, ns)
    for i in range(nd):
        nf = _flip(b, links, counts, zobrist, hashes, dead[i], c, flipped, nf)
    return ns, nf


@njit(cache=True)
def points_leader(b: Any, counts: Any, points: Any, komi: int, black: int, button: int) -> int:
    """The player ahead on points (`score.score`), -1 on a tie."""
    colour, neighbours = b[0], b[1]
    seen = np.zeros(colour.shape[0], np.bool_)
    stack = np.empty(colour.shape[0], np.int64)
    land = np.zeros(3, np.int64)
    for start in points:
        if colour[start] != EMPTY or seen[start]:
            continue
        seen[start] = True
        stack[0] = start
        top, region, touches = 1, 0, 0
        while top:
            top -= 1
            here = stack[top]
            region += 1
            for k in range(4):
                n = neighbours[here, k]
                cn = colour[n]
                if cn == EMPTY:
                    if not seen[n]:
                        seen[n] = True
                        stack[top] = n
                        top += 1
                elif cn != EDGE:
                    touches |= cn
        if touches in (BLACK, WHITE):
            land[touches] += region
    scores = np.zeros(2)
    scores[black] = counts[BLACK] + land[BLACK]
    scores[1 - black] = counts[WHITE] + land[WHITE] + komi
    if button >= 0:
        scores[button] += 0.5
    if scores[0] == scores[1]:
        return -1
    return 0 if scores[0] > scores[1] else 1


@njit(cache=True)
def _joins(b: Any, links: Any, p: int) -> bool:
    need = _NEEDS_BLACK if b[0][p] == BLACK else _NEEDS_WHITE
    return bool(links[3][b[2][p]] & need == need)


# What a compiled position keeps besides its board, in one int64 array
# (`st`): the player to move, the button's taker (-1 while untaken), the
# passes in a row, how many points are empty, and how many entries the
# repetition table's log holds.
ST_PLAYER, ST_BUTTON, ST_PASSES, ST_EMPTY, ST_LOGGED = range(5)
NO_MOVE = _NO_MOVE  # `run`'s first move when every move is to be drawn


@njit(cache=True)
def run(b: Any, links: Any, counts: Any, zobrist: Any, edges: Any, points: Any,
        hashes: Any, empty: Any, where: Any, seen_keys: Any, seen_counts: Any,
        log: Any, st: Any, connection: bool, komi: int, black: int, move: int,
        cap: int, rng: Any, record: Any) -> Any:  # fmt: skip
    """`VacuSearchPosition._run` over the arrays: `move` first unless it is
    NO_MOVE, then moves drawn with `rng` (as `draw_move` draws), each
    applied and the game judged after it, until the game ends or `cap`
    turns have been played; `st` and the arrays are left as the position
    then stands (`st`'s player the mover of the last turn once the game
    is over). Returns (turns, stones placed, end code or 0, winner or -1,
    moves recorded in `record`, none when it is empty)."""
    colour = b[0]
    total = colour.shape[0]
    suppressed = np.empty(total, np.int64)
    flipped = np.empty(total, np.int64)
    legal = np.empty(total + 1, np.int64)
    player, button, passes, n_empty = st[ST_PLAYER], st[ST_BUTTON], st[ST_PASSES], st[ST_EMPTY]
    c = BLACK if player == black else WHITE
    taken = button >= 0
    other = PASS_MOVE if taken else BUTTON_MOVE
    if taken and connection:
        other = 0
    next_key = _TO_MOVE_KEYS[player ^ 1]  # with the button's key once it is taken
    if taken:
        next_key ^= _BUTTON_KEY
    recording = record.shape[0] > 0
    turns = others = end = 0
    winner = -1
    for turn in range(1, cap + 1):
        turns = turn
        if move == _NO_MOVE:  # draw_move
            draws = n_empty + 1 if other != 0 else n_empty
            for _ in range(MAX_DRAWS):
                i = int(random_double(rng) * draws)
                if i == n_empty:
                    move = other if other != 0 else PASS_MOVE
                    break
                p = empty[i]
                if placement(b, p, c):
                    move = p
                    break
            if move == _NO_MOVE:
                n_legal = 0
                for i in range(n_empty):
                    if placement(b, empty[i], c):
                        legal[n_legal] = empty[i]
                        n_legal += 1
                if other != 0:
                    legal[n_legal] = other
                    n_legal += 1
                move = PASS_MOVE if n_legal == 0 else legal[int(random_double(rng) * n_legal)]
        if recording:
            record[turn - 1] = move
        if move >= 0:
            ns, nf = _play(b, links, counts, zobrist, edges, hashes, move, c,
                           suppressed, flipped)  # fmt: skip
            n_empty -= 1
            last = empty[n_empty]
            if last != move:
                i = where[move]
                empty[i] = last
                where[last] = i
            for i in range(ns):
                p = suppressed[i]
                where[p] = n_empty
                empty[n_empty] = p
                n_empty += 1
            passes = 0
            occurrences = seen_add(seen_keys, seen_counts, log, st, hashes[0] ^ next_key)
            if connection:
                joined = False
                if colour[move] != EMPTY:
                    joined = _joins(b, links, move)
                else:
                    for i in range(nf):
                        if _joins(b, links, flipped[i]):
                            joined = True
                            break
                if joined:
                    end, winner = 1, player
                    break
            if (ns or nf) and counts[c ^ 3] == 0:
                end, winner = 3, points_leader(b, counts, points, komi, black, button)
                break
            if occurrences >= 3:
                end, winner = 4, -1
                break
        else:
            others += 1
            if move == BUTTON_MOVE:
                button = player
                other = 0 if connection else PASS_MOVE
                next_key ^= _BUTTON_KEY
                passes = 0
            else:
                passes += 1
            seen_add(seen_keys, seen_counts, log, st, hashes[0] ^ next_key)
            if passes >= 2:
                end, winner = 2, points_leader(b, counts, points, komi, black, button)
                break
        player ^= 1
        c ^= 3
        next_key ^= _SWITCH_KEY
        move = _NO_MOVE
    st[ST_PLAYER], st[ST_BUTTON], st[ST_PASSES], st[ST_EMPTY] = player, button, passes, n_empty
    recorded = turns if recording else 0
    return turns, turns - others, end, winner, recorded


@njit(cache=True)
def seen_add(keys: Any, counts: Any, log: Any, st: Any, key: Any) -> int:
    """Count one more occurrence of the repetition `key` in the table
    (`keys`, `counts`: open addressing, a slot is free while its count is 0)
    and note the slot in `log` (at `st[ST_LOGGED]`), so `seen_undo` can take
    it back; the key's occurrences so far."""
    mask = keys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while counts[i] != 0 and keys[i] != key:
        i = (i + 1) & mask
    keys[i] = key
    counts[i] += 1
    log[st[ST_LOGGED]] = i
    st[ST_LOGGED] += 1
    return int(counts[i])


@njit(cache=True)
def seen_undo(counts: Any, log: Any, st: Any, logged: int) -> None:
    """Take back the occurrences counted since the log held `logged`
    entries, last first (so a slot another key probed past is never freed
    before that key's own entry is gone)."""
    for j in range(st[ST_LOGGED] - 1, logged - 1, -1):
        counts[log[j]] -= 1
    st[ST_LOGGED] = logged


@njit(cache=True)
def seen_table(add_keys: Any, add_counts: Any, room: int) -> Any:
    """The repetition table holding `add_counts[i]` occurrences of each
    `add_keys[i]`, with room for `room` more keys (at most half full, so
    probes stay short): (keys, counts)."""
    size = 64
    while size < 2 * (add_keys.shape[0] + room):
        size *= 2
    keys = np.zeros(size, np.uint64)
    counts = np.zeros(size, np.int64)
    mask = size - 1
    for j in range(add_keys.shape[0]):
        key = add_keys[j]
        i = np.int64(key & np.uint64(mask))
        while counts[i] != 0 and keys[i] != key:
            i = (i + 1) & mask
        keys[i] = key
        counts[i] = add_counts[j]
    return keys, counts


@njit(cache=True)
def _play_on(b: Any, links: Any, counts: Any, zobrist: Any, edges: Any, points: Any,
             hashes: Any, empty: Any, where: Any, add_keys: Any, add_counts: Any, st: Any,
             connection: bool, komi: int, black: int, cap: int, rng: Any,
             record: Any) -> Any:  # fmt: skip
    """A random game by `run` from a position whose repetition table is
    still to be made (from the occurrences `add_keys`, `add_counts`), in
    one call from Python: (turns, stones placed, end code or 0, winner or
    -1, the leader on points when capped or -1, moves recorded)."""
    seen_keys, seen_counts = seen_table(add_keys, add_counts, cap)
    log = np.empty(cap, np.int64)
    turns, placed, end, winner, recorded = run(
        b, links, counts, zobrist, edges, points, hashes, empty, where, seen_keys,
        seen_counts, log, st, connection, komi, black, _NO_MOVE, cap, rng, record,
    )  # fmt: skip
    leader = -1 if end else points_leader(b, counts, points, komi, black, st[ST_BUTTON])
    return turns, placed, end, winner, leader, recorded


def occurrences(seen: dict[int, int]) -> tuple[Any, Any]:
    """A position's `seen` as the arrays `seen_table` takes."""
    return (
        np.fromiter(seen.keys(), np.uint64, len(seen)),
        np.fromiter(seen.values(), np.int64, len(seen)),
    )


@cache
def statics(size: int) -> tuple[Any, Any, Any, Any]:
    """Per board size: the neighbours, the edge bits, the points; and the
    Zobrist keys (one table for every size)."""
    _, points, neighbours, edges = _tables(size)
    return (
        np.array(neighbours, dtype=np.int64),
        np.array(edges, dtype=np.int64),
        np.array(points, dtype=np.int64),
        np.array(ZOBRIST, dtype=np.uint64),
    )


def board_rows(board: Board) -> Any:
    """The board's changing arrays as one (9, points) int64 array, whose
    rows are colour, group, libs, lsum, lsq, nxt, tail, size and reach
    (`views` names them): a position's copy is one array copy."""
    total = len(board.colour)
    nxt, tail, size, reach = [-1] * total, [0] * total, [0] * total, [0] * total
    libs, lsum, lsq = [0] * total, [0] * total, [0] * total
    for head, stones in board.members.items():
        previous = head
        for stone in stones[1:]:
            nxt[previous] = stone
            previous = stone
        tail[head] = previous
        size[head] = len(stones)
        reach[head] = board.reach[head]
        libs[head] = board.libs[head]
        lsum[head] = board.lsum[head]
        lsq[head] = board.lsq[head]
    return np.array(
        (board.colour, board.group, libs, lsum, lsq, nxt, tail, size, reach), dtype=np.int64
    )


@njit(cache=True)
def views(rows: Any, neighbours: Any) -> Any:
    """The compiled loop's two tuples over `board_rows`' rows: (colour,
    neighbours, group, libs, lsum, lsq) and (nxt, tail, size, reach)."""
    b = (rows[0], neighbours, rows[1], rows[2], rows[3], rows[4])
    return b, (rows[5], rows[6], rows[7], rows[8])


def _arrays(board: Board) -> tuple[Any, Any]:
    """The board as the compiled loop's arrays (`views` of `board_rows`)."""
    arrays: tuple[Any, Any] = views.py_func(board_rows(board), statics(board.size)[0])
    return arrays  # (`views` as Python: no boxing)


def places(position: VacuSearchPosition) -> tuple[Any, Any, Any]:
    """The position's empty points (in its order) and each one's index
    there, as arrays the size of the board's, and its `st` array."""
    board = position.board
    total = len(board.colour)
    empty = np.zeros(total, np.int64)
    count = len(position.empty)
    empty[:count] = position.empty
    where = np.array(position.where, dtype=np.int64)
    assert position.to_move is not None
    button = -1 if position.button is None else position.button
    st = np.array((position.to_move, button, position.passes, count, 0), np.int64)
    return empty, where, st  # (st: ST_PLAYER, ST_BUTTON, ST_PASSES, ST_EMPTY, ST_LOGGED)


def play_out(
    position: VacuSearchPosition,
    rand: SplitMix64,
    record: list[Any] | None = None,
    cap: int | None = None,
) -> Playout:
    """`search.play_out`, compiled: the same game from the same random
    numbers (`rand`, whose state moves on as the pure path's would). The
    position is used up: its board is not brought up to date, so copy it
    first to keep it."""
    return _played(position, rand, record, cap)[0]


def _played(
    position: VacuSearchPosition,
    rand: SplitMix64,
    record: list[Any] | None,
    cap: int | None,
) -> tuple[Playout, Any]:
    """The playout, and the compiled loop's final arrays when it ran (for
    the tests: colour, hash and stone counts), else None."""
    assert AVAILABLE, "numba is not installed"
    if cap is None:
        cap = default_cap(position.board.size)
    turns = opening_steps(position, rand, record, cap)
    player = position.to_move
    if player is None or turns >= cap:
        return outcome(position, turns, 0), None
    assert position.komi is not None and position.black is not None
    board = position.board
    b, links = _arrays(board)
    _, edges, points, zobrist = statics(board.size)
    hashes = np.array([board.hash], dtype=np.uint64)
    counts = np.array(board.stones, dtype=np.int64)
    rng = np.array([rand.state], dtype=np.uint64)
    moves = np.empty(cap - turns if record is not None else 0, np.int64)
    empty, where, st = places(position)
    played, placed, end, winner, leader, recorded = _play_on(
        b, links, counts, zobrist, edges, points, hashes, empty, where,
        *occurrences(position.seen), st, position.connection, position.komi,
        position.black, cap - turns, rng, moves,
    )  # fmt: skip
    rand.state = int(rng[0])
    if record is not None:
        record.extend(moves[:recorded].tolist())
    turns += played
    final = (b[0], int(hashes[0]), counts)
    if end:
        won = None if winner < 0 else int(winner)
        position._finish(won, _ENDS[end])
        return Playout(score_of(won), won, turns, placed), final
    position.end = CAPPED
    position._to_move = None  # (used up: its board is not the game's)
    ahead = None if leader < 0 else int(leader)
    return Playout(score_of(ahead), None, turns, placed, capped=True), final


def warm_up() -> None:
    """Compile (or load from the disk cache) the loop now, with a tiny game,
    so the first search does not wait for it."""
    if not AVAILABLE:
        return
    for connection in (False, True):
        play_out(VacuSearchPosition(Board(3), 0, connection=connection), SplitMix64(1))
