"""The Vacu engine: a mutable Go-style board with incremental groups.

Points are indices into a padded array (a frame of EDGE around the N x N
grid), row 0 at the top. Each group keeps its stones and three running
sums over its *pseudo-liberties* (one per stone and empty neighbour): their
count, the sum of their indices and the sum of their squares. A group has no
liberty when the count is 0, and its only liberty is p when every
pseudo-liberty is p: count * p == sum and count * p * p == squares. So a
move costs a few additions per neighbour, never a flood fill; only a flip
(rare) walks the flipped group. Each group also keeps the edges it touches
(`reach`), so a Convacu connection is one lookup.

Rules (RULINGS.md): a stone whose group has a liberty suppresses every enemy
group left without one; a stone whose group has none suppresses its own
group and flips every enemy group that had none before, and is illegal
unless at least one flips.
"""

from __future__ import annotations

import random

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
TOP, BOTTOM, LEFT, RIGHT = 1, 2, 4, 8  # edge bits a group touches
NEEDS = {BLACK: TOP | BOTTOM, WHITE: LEFT | RIGHT}  # Convacu: the edges each colour joins

_ZOBRIST = random.Random(20260621)
ZOBRIST = [[_ZOBRIST.getrandbits(64) for _ in range(3)] for _ in range(27 * 27)]


Tables = tuple[list[int], list[int], list[tuple[int, int, int, int]], list[int]]
_TABLES: dict[int, Tables] = {}


def _tables(size: int) -> Tables:
    """What every board of this size shares: the empty colours (with the EDGE
    frame), the points, each point's neighbours and the edge bits it touches.
    Built once per size; boards share all but the colours, which they copy."""
    tables = _TABLES.get(size)
    if tables is None:
        stride = size + 2
        colour = [EDGE] * (stride * stride)
        points: list[int] = []
        for row in range(size):
            for col in range(size):
                p = (row + 1) * stride + col + 1
                colour[p] = EMPTY
                points.append(p)
        neighbours = [(p - stride, p - 1, p + 1, p + stride) for p in range(stride * stride)]
        edges = [0] * (stride * stride)
        for p in points:
            row, col = divmod(p, stride)
            edges[p] = (
                (TOP if row == 1 else 0)
                | (BOTTOM if row == size else 0)
                | (LEFT if col == 1 else 0)
                | (RIGHT if col == size else 0)
            )
        tables = _TABLES[size] = (colour, points, neighbours, edges)
    return tables


class Board:
    """Stones, groups and their pseudo-liberties on an N x N board."""

    __slots__ = (
        "colour",
        "edges",
        "group",
        "hash",
        "libs",
        "lsq",
        "lsum",
        "members",
        "neighbours",
        "points",
        "reach",
        "size",
        "stones",
        "stride",
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = stride = size + 2
        colour, self.points, self.neighbours, self.edges = _tables(size)
        self.colour = colour[:]
        self.group = [0] * (stride * stride)  # the group's head point, for stones
        self.members: dict[int, list[int]] = {}
        self.libs: dict[int, int] = {}
        self.lsum: dict[int, int] = {}
        self.lsq: dict[int, int] = {}
        self.reach: dict[int, int] = {}  # the edge bits the group touches
        self.stones = [0, 0, 0]  # by colour
        self.hash = 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.size = self.size
        other.stride = self.stride
        other.colour = self.colour[:]
        other.points = self.points
        other.neighbours = self.neighbours
        other.edges = self.edges
        other.group = self.group[:]
        other.members = {g: stones[:] for g, stones in self.members.items()}
        other.libs = dict(self.libs)
        other.lsum = dict(self.lsum)
        other.lsq = dict(self.lsq)
        other.reach = dict(self.reach)
        other.stones = self.stones[:]
        other.hash = self.hash
        return other

    # -- questions --------------------------------------------------------------

    def placement(self, p: int, c: int) -> int:
        """0 if a stone of colour c cannot go at p; 1 if its group would have
        a liberty; 2 if it would have none but would flip an enemy group."""
        colour = self.colour
        if colour[p] != EMPTY:
            return 0
        near = self.neighbours[p]
        for n in near:
            if colour[n] == EMPTY:
                return 1
        group, libs, lsum, lsq = self.group, self.libs, self.lsum, self.lsq
        square = p * p
        flips = 0
        for n in near:  # stones or the frame: is p the only liberty of n's group?
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

    def legal_points(self, c: int) -> list[int]:
        return [p for p in self.points if self.placement(p, c)]

    def key(self) -> bytes:
        """The stones, exactly, for repetition checks by the clean API."""
        return bytes(self.colour)

    # -- changes ----------------------------------------------------------------

    def play(self, p: int, c: int) -> tuple[list[int], list[int]]:
        """Play a legal stone of colour c at p. Returns the points whose stones
        were suppressed and those flipped (to colour c)."""
        colour = self.colour
        group = self.group
        libs, lsum, lsq = self.libs, self.lsum, self.lsq
        colour[p] = c
        self.stones[c] += 1
        self.hash ^= ZOBRIST[p][c]
        square = p * p
        count = total = squares = 0
        head = 0  # the head of the stone's group, once it joins one
        dead: list[int] = []  # enemy groups left without a pseudo-liberty
        for n in self.neighbours[p]:
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
                    if not head:
                        head = g
                    elif g != head:
                        head = self._merge(head, g)
                elif not libs[g]:  # each group reaches 0 once: no duplicates
                    dead.append(g)
        if head:  # join the stone to its group, as `_merge` would
            group[p] = head
            self.members[head].append(p)
            self.reach[head] |= self.edges[p]
            libs[head] += count
            lsum[head] += total
            lsq[head] += squares
        else:
            head = group[p] = p
            self.members[p] = [p]
            self.reach[p] = self.edges[p]
            libs[p], lsum[p], lsq[p] = count, total, squares
        if len(dead) > 1:  # in the order their stones come among p's neighbours
            enemy = 3 - c
            order = [group[n] for n in self.neighbours[p] if colour[n] == enemy]
            dead.sort(key=order.index)
        if libs[head]:
            if not dead:
                return [], []
            if len(dead) == 1:
                return self._suppress(dead[0]), []
            suppressed: list[int] = []
            for g in dead:
                suppressed.extend(self._suppress(g))
            return suppressed, []
        assert dead, "an illegal suicide: check placement() first"
        suppressed = self._suppress(head)
        flipped: list[int] = []
        for g in dead:
            flipped.extend(self._flip(g, c))
        return suppressed, flipped

    def _merge(self, a: int, b: int) -> int:
        """Join groups a and b; returns the head of the joined group."""
        if a == b:
            return a
        members = self.members
        if len(members[a]) < len(members[b]):
            a, b = b, a
        group = self.group
        moved = members.pop(b)
        for s in moved:
            group[s] = a
        members[a].extend(moved)
        self.libs[a] += self.libs.pop(b)
        self.lsum[a] += self.lsum.pop(b)
        self.lsq[a] += self.lsq.pop(b)
        self.reach[a] |= self.reach.pop(b)
        return a

    def _suppress(self, g: int) -> list[int]:
        """Remove group g from the board; its points become liberties."""
        colour = self.colour
        group = self.group
        stones = self.members.pop(g)
        del self.libs[g], self.lsum[g], self.lsq[g], self.reach[g]
        c = colour[stones[0]]
        zobrist = ZOBRIST
        h = self.hash
        for s in stones:
            colour[s] = EMPTY
            h ^= zobrist[s][c]
        self.hash = h
        self.stones[c] -= len(stones)
        libs, lsum, lsq = self.libs, self.lsum, self.lsq
        neighbours = self.neighbours
        for s in stones:
            square = s * s
            for n in neighbours[s]:
                if colour[n] in (BLACK, WHITE):
                    h = group[n]
                    libs[h] += 1
                    lsum[h] += s
                    lsq[h] += square
        return stones

    def _flip(self, g: int, c: int) -> list[int]:
        """Turn group g to colour c and join it to the groups of c it touches."""
        colour = self.colour
        stones = list(self.members[g])
        old = 3 - c
        zobrist = ZOBRIST
        h = self.hash
        for s in stones:
            colour[s] = c
            h ^= zobrist[s][old] ^ zobrist[s][c]
        self.hash = h
        self.stones[old] -= len(stones)
        self.stones[c] += len(stones)
        head = g
        group = self.group
        for s in stones:
            for n in self.neighbours[s]:
                if colour[n] == c and group[n] != head:
                    head = self._merge(head, group[n])
        return stones

    # -- whole-board answers (scoring and Convacu) --------------------------------

    def connected(self, c: int) -> bool:
        """Whether a group of colour c touches both of its edges (Convacu:
        Black top and bottom, White left and right)."""
        need = NEEDS[c]
        colour = self.colour
        return any(mask & need == need and colour[head] == c for head, mask in self.reach.items())

    def joins_edges(self, p: int) -> bool:
        """Whether the group of the stone at p touches both edges of its colour."""
        need = NEEDS[self.colour[p]]
        return self.reach[self.group[p]] & need == need

    def territory(self) -> tuple[list[int], list[int], list[int]]:
        """Empty points owned by Black, by White, and owned by nobody: an
        empty region is owned when every stone next to it has one colour
        (and at least one stone does)."""
        colour = self.colour
        seen: set[int] = set()
        owned: tuple[list[int], list[int], list[int]] = ([], [], [])
        for start in self.points:
            if colour[start] != EMPTY or start in seen:
                continue
            region = [start]
            seen.add(start)
            touches = 0
            i = 0
            while i < len(region):
                here = region[i]
                i += 1
                for n in self.neighbours[here]:
                    cn = colour[n]
                    if cn == EMPTY:
                        if n not in seen:
                            seen.add(n)
                            region.append(n)
                    elif cn != EDGE:
                        touches |= cn
            if touches == BLACK:
                owned[0].extend(region)
            elif touches == WHITE:
                owned[1].extend(region)
            else:
                owned[2].extend(region)
        return owned


def star_points(size: int) -> list[tuple[int, int]]:
    """(column, row) indices of the star points, 0-based from the top left:
    the Go points on 9, 13 and 19 (3-3 or 4-4 corners, the centre, and the
    sides on big boards), and the same pattern scaled on any other size."""
    if size < 7:
        return [(size // 2, size // 2)] if size % 2 else []
    inset = 2 if size < 12 else 3
    far = size - 1 - inset
    marks = {(c, r) for c in (inset, far) for r in (inset, far)}
    if size % 2:
        middle = size // 2
        marks.add((middle, middle))
        if size >= 15:
            marks |= {(middle, inset), (middle, far), (inset, middle), (far, middle)}
    return sorted(marks, key=lambda cr: (cr[1], cr[0]))
