"""The Trugo engine: a mutable board that places, removes and moves, fast.

`TrugoState` wraps a `Board` it never changes after creation; the random
playout drives one board in place. Everything is keyed by the integer ids of
`geometry`: tiles by cell id, pieces by vertex id.

What the board keeps, so that a turn touches only the points near it:
- `count[v]`: how many tiles have vertex v as a corner (3 makes a junction);
- `arches[v]`: the vertices joined to v by an arch (same colour, one per tile);
- `stacks[v]`: the pieces on junction v, bottom first, as player indices;
- `frontier`: the empty cells that share a side with a tile.
"""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import ARCHES, CORNER_DELTAS, SIDE_DELTAS, VERTEX_NEIGHBOURS, cell_id, colour_of

PLACE, REMOVE, MOVE, PASS = 0, 1, 2, 3
# A move: (PLACE, cell, rotation), (REMOVE, cell, 0), (MOVE, from, to) or (PASS, 0, 0).
Move = tuple[int, int, int]
PASS_MOVE: Move = (PASS, 0, 0)
ORIGIN = cell_id(0, 0)

# Indexed by the 6-bit mask of a tile's occupied sides. Removal needs a run
# of at least three cyclically consecutive free sides. Cells across two
# consecutive sides touch each other, so when the occupied sides form one
# cyclic run the neighbours stay joined without the tile and no search for a
# split is needed.
_FREE_RUN = tuple(
    any(all(not mask >> ((start + i) % 6) & 1 for i in range(3)) for start in range(6))
    for mask in range(64)
)
_ONE_RUN = tuple(
    sum((mask >> k & 1) and not (mask >> ((k + 1) % 6) & 1) for k in range(6)) <= 1
    for mask in range(64)
)


class Board:
    """Tiles, junctions, pieces, hands and the pool of one Trugo position."""

    __slots__ = (
        "arches",
        "captured",
        "count",
        "frontier",
        "hand",
        "no_stack",
        "pool",
        "removed",
        "stacks",
        "tiles",
    )

    def __init__(self, pool: int, pieces: int, no_stack: bool) -> None:
        self.tiles: dict[int, int] = {}  # cell id -> rotation 0..2
        self.count: dict[int, int] = {}
        self.arches: dict[int, tuple[int, ...]] = {}
        self.stacks: dict[int, tuple[int, ...]] = {}
        self.hand = [pieces, pieces]
        self.captured = [0, 0]  # each player's pieces captured by surrounding
        self.removed = [0, 0]  # each player's pieces that left the game with a tile
        self.pool = pool
        self.frontier: set[int] = set()
        self.no_stack = no_stack

    @property
    def order(self) -> list[int]:
        """The tiles on the board in the order they were placed (a dict keeps it)."""
        return list(self.tiles)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.tiles = dict(self.tiles)
        other.count = dict(self.count)
        other.arches = dict(self.arches)
        other.stacks = dict(self.stacks)
        other.hand = list(self.hand)
        other.captured = list(self.captured)
        other.removed = list(self.removed)
        other.pool = self.pool
        other.frontier = set(self.frontier)
        other.no_stack = self.no_stack
        return other

    # -- questions --------------------------------------------------------------

    def on_board(self) -> list[int]:
        """How many pieces each player has on the board, pinned ones included."""
        counts = [0, 0]
        for stack in self.stacks.values():
            for player in stack:
                counts[player] += 1
        return counts

    def occupied_sides(self, cid: int) -> int:
        tiles = self.tiles
        mask = 0
        for k, d in enumerate(SIDE_DELTAS):
            if cid + d in tiles:
                mask |= 1 << k
        return mask

    def has_free_run(self, cid: int) -> bool:
        """Whether the tile has at least three cyclically consecutive free sides."""
        return _FREE_RUN[self.occupied_sides(cid)]

    def splits(self, cid: int) -> bool:
        """Whether removing the tile at `cid` would leave the rest in pieces."""
        tiles = self.tiles
        neighbours = [cid + d for d in SIDE_DELTAS if cid + d in tiles]
        if len(neighbours) < 2:
            return False
        if _ONE_RUN[self.occupied_sides(cid)]:
            return False
        goal = set(neighbours[1:])
        seen = {cid, neighbours[0]}
        todo = [neighbours[0]]
        while todo:
            here = todo.pop()
            for d in SIDE_DELTAS:
                there = here + d
                if there in tiles and there not in seen:
                    seen.add(there)
                    goal.discard(there)
                    if not goal:
                        return False
                    todo.append(there)
        return True

    def removable(self, cid: int) -> bool:
        return cid in self.tiles and self.has_free_run(cid) and not self.splits(cid)

    def destinations(self, start: int) -> set[int]:
        """Where the top piece at `start` can go: along arches of its region
        through empty points to a junction that is empty or holds one piece,
        then optionally one step along a tile edge from the start or any empty
        point reached, to a junction of the other colour."""
        stacks = self.stacks
        arches = self.arches
        count = self.count
        stackable = not self.no_stack
        reached = [start]
        seen = {start}
        targets: set[int] = set()
        i = 0
        while i < len(reached):
            here = reached[i]
            i += 1
            for there in arches.get(here, ()):
                if there in seen:
                    continue
                seen.add(there)
                stack = stacks.get(there)
                if stack is None:
                    reached.append(there)
                    if count[there] == 3:
                        targets.add(there)
                elif stackable and len(stack) == 1:
                    targets.add(there)
        steps = VERTEX_NEIGHBOURS[colour_of(start)]  # arches keep to one colour
        for here in reached:
            for d in steps:
                there = here + d
                if count.get(there, 0) == 3:
                    stack = stacks.get(there)
                    if stack is None or (stackable and len(stack) == 1):
                        targets.add(there)
        return targets

    def movable(self, player: int) -> list[int]:
        """The junctions whose top piece belongs to `player`, in id order."""
        return sorted(v for v, stack in self.stacks.items() if stack[-1] == player)

    def legal_moves(self, player: int) -> list[Move]:
        """Every legal move of `player` (a lone pass when nothing else is legal)."""
        moves: list[Move] = []
        if self.pool > 0:
            if not self.tiles:
                moves = [(PLACE, ORIGIN, r) for r in range(3)]
            else:
                moves = [(PLACE, c, r) for c in sorted(self.frontier) for r in range(3)]
        else:
            moves = [(REMOVE, c, 0) for c in sorted(self.tiles) if self.removable(c)]
        for start in self.movable(player):
            moves.extend((MOVE, start, to) for to in sorted(self.destinations(start)))
        return moves or [PASS_MOVE]

    # -- changes ---------------------------------------------------------------

    def place(self, cid: int, rotation: int) -> list[int]:
        """Put a pool tile at `cid`; each junction it creates gets a piece of
        its colour while the owner has one (counter-clockwise from the tile's
        east corner). Returns the junctions that got a piece."""
        tiles = self.tiles
        tiles[cid] = rotation
        self.pool -= 1
        frontier = self.frontier
        frontier.discard(cid)
        for d in SIDE_DELTAS:
            if cid + d not in tiles:
                frontier.add(cid + d)
        count = self.count
        filled: list[int] = []
        hand = self.hand
        for d in CORNER_DELTAS:
            v = cid + d
            c = count.get(v, 0) + 1
            count[v] = c
            if c == 3:
                owner = colour_of(v)
                if hand[owner]:
                    hand[owner] -= 1
                    self.stacks[v] = (owner,)
                    filled.append(v)
        arches = self.arches
        for i, j in ARCHES[rotation]:
            u, v = cid + CORNER_DELTAS[i], cid + CORNER_DELTAS[j]
            arches[u] = (*arches.get(u, ()), v)
            arches[v] = (*arches.get(v, ()), u)
        return filled

    def remove(self, cid: int) -> list[tuple[int, tuple[int, ...]]]:
        """Take the tile at `cid` off the board with every piece on its
        corners (they leave the game). Returns those (junction, stack)."""
        tiles = self.tiles
        rotation = tiles.pop(cid)
        frontier = self.frontier
        if any(cid + d in tiles for d in SIDE_DELTAS):
            frontier.add(cid)
        for d in SIDE_DELTAS:
            n = cid + d
            if n in frontier and not any(n + e in tiles for e in SIDE_DELTAS):
                frontier.discard(n)
        gone: list[tuple[int, tuple[int, ...]]] = []
        count = self.count
        stacks = self.stacks
        for d in CORNER_DELTAS:
            v = cid + d
            stack = stacks.pop(v, None)
            if stack is not None:
                gone.append((v, stack))
                for player in stack:
                    self.removed[player] += 1
            c = count[v] - 1
            if c:
                count[v] = c
            else:
                del count[v]
        arches = self.arches
        for i, j in ARCHES[rotation]:
            u, v = cid + CORNER_DELTAS[i], cid + CORNER_DELTAS[j]
            for a, b in ((u, v), (v, u)):
                rest = tuple(x for x in arches[a] if x != b)
                if rest:
                    arches[a] = rest
                else:
                    del arches[a]
        return gone

    def move_piece(self, start: int, end: int) -> None:
        """Move the top piece at `start` onto `end` (checked by the caller)."""
        stacks = self.stacks
        stack = stacks[start]
        player = stack[-1]
        if len(stack) == 1:
            del stacks[start]
        else:
            stacks[start] = stack[:-1]
        stacks[end] = (*stacks.get(end, ()), player)

    def surrounded_groups(
        self, player: int, around: Iterable[int] | None = None
    ) -> list[list[int]]:
        """The groups of `player`'s top pieces with an opposing top piece on
        every adjacent junction (an empty or partial neighbour saves a group):
        every such group, or only those with a member among the junctions
        `around` (the search looks only where stacks changed)."""
        stacks = self.stacks
        count = self.count
        seen: set[int] = set()
        groups: list[list[int]] = []
        for v in sorted(stacks) if around is None else around:
            stack = stacks.get(v)
            if stack is None or v in seen or stack[-1] != player:
                continue
            group = [v]
            seen.add(v)
            free = False
            i = 0
            while i < len(group):
                here = group[i]
                i += 1
                for d in VERTEX_NEIGHBOURS[colour_of(here)]:
                    there = here + d
                    stack = stacks.get(there)
                    if stack is None:
                        free = True  # empty, or a partial junction
                    elif stack[-1] == player:
                        if there not in seen:
                            seen.add(there)
                            group.append(there)
                    elif count[there] != 3:
                        free = True  # unreachable: pieces stand only on junctions
            if not free:
                groups.append(group)
        return groups

    def take(self, group: list[int]) -> list[tuple[int, int]]:
        """Capture a group: each stack loses its top piece, and the piece below
        too when it is the same colour. Returns (junction, player) captured."""
        stacks = self.stacks
        taken: list[tuple[int, int]] = []
        for v in group:
            stack = stacks[v]
            top = stack[-1]
            taken.append((v, top))
            self.captured[top] += 1
            if len(stack) == 2 and stack[0] == top:
                taken.append((v, top))
                self.captured[top] += 1
                del stacks[v]
            elif len(stack) == 2:
                stacks[v] = stack[:1]
            else:
                del stacks[v]
        return taken

    def capture(self, mover: int) -> list[tuple[int, int]]:
        """End-of-turn captures: the opponent's surrounded groups, then (checked
        again) the mover's own."""
        taken: list[tuple[int, int]] = []
        for player in (1 - mover, mover):
            for group in self.surrounded_groups(player):
                taken.extend(self.take(group))
        return taken
