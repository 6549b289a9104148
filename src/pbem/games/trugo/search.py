"""Trugo as a fast, mutable search position (`base.SearchPosition`) over the
bare `Board`: the rules of `TrugoState` again, applied in place, for the AI's
tree search and for uniformly random games (`playout.py` is built on it).

Moves are the engine's raw triples `(kind, a, b)` of `board.Move`, exactly
`Board.legal_moves` (and `TrugoMove.raw`): `(PLACE, cell, rotation)`,
`(REMOVE, cell, 0)`, `(MOVE, from, to)` and `PASS_MOVE`, the lone move of a
player with no other.

A turn is applied as `TrugoState.play` applies it: the move, then the
captures (a pass captures too), then two passes in a row draw, else
`turn_result` judges the board. Two things are kept on the side so that a
turn costs no scan of the whole board:
- the pieces each player has on the board, updated from what `Board.place`,
  `Board.remove` and `Board.take` report, so `turn_result` is asked only when
  a player has none left (it can end the game only then);
- the junctions whose stack changed since captures were last looked for
  (`changed`). A group whose members and neighbours all kept their stacks
  kept its state, and a turn's captures leave no group surrounded (a piece
  uncovered under a taken one joins the groups next to it, which each had a
  free neighbour), so only groups on or next to a changed junction can be
  surrounded: captures look for those alone, and take the same groups as
  `Board.capture`'s search of the whole board. To rely on less, the
  junctions the mover's own captures changed stay in `changed` for the next
  turn's look; a new position counts those of any group already surrounded
  (a board set by hand may have one).

Random moves are uniform over the legal moves: the piece moves are counted
in full (the tile moves are weighed against them), a placement is drawn
directly (every frontier cell takes each of the three rotations), a removal
by rejection among every tile (see `random_move`).

A random game (`play_out`) stops after `cutoff` turns (default `CAP`); a
game cut off there has no winner and scores the material estimate of
`material_share`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self, cast

from ..base import Playout, score_of
from .board import MOVE, ORIGIN, PASS, PASS_MOVE, PLACE, REMOVE, Board, Move
from .end import turn_result
from .geometry import CORNER_DELTAS, VERTEX_NEIGHBOURS, colour_of
from .move import TrugoMove

if TYPE_CHECKING:
    from .state import TrugoState

CAP = 1000  # turns, passes included, after which a random game stops undecided
# The cutoff the AI's search plays with (`TrugoState.search_position`): full
# random games are slow and say little, while 40 random turns and the
# material they leave give 2 to 3 times the playouts.
SEARCH_CUTOFF = 40
MAX_DRAWS = 16  # rejected removals before the removable tiles are listed
# The pieces of material ahead that make a cut-off game e times as likely a
# win as a loss (`material_share`): the best log-loss against the outcome of
# 3,000 random games on the default board, seen every ten turns (from 5 to
# 7 the fit hardly changes; material says little about a random game).
MATERIAL_SCALE = 6.0


def material_share(board: Board, on_board: list[int] | None = None) -> float:
    """Player 0's estimated share of the game from material alone, for a
    random game cut off undecided: `1 / (1 + exp(-d / MATERIAL_SCALE))` with
    `d` player 0's pieces on the board less player 1's (pinned pieces count),
    plus the same for the pieces in hand while the pool still has tiles (in
    the Waning phase no piece enters any more). Captures and pieces that left
    with a tile are in `d` already: they are on the board no more."""
    on = board.on_board() if on_board is None else on_board
    return material_score(on, board.hand, board.pool)


def material_score(on_board: list[int], hand: list[int], pool: int) -> float:
    """`material_share` from the counts alone: pieces on the board and in
    hand by player, and the tiles left in the pool."""
    lead = on_board[0] - on_board[1]
    if pool > 0:
        lead += hand[0] - hand[1]
    return 1.0 / (1.0 + math.exp(-lead / MATERIAL_SCALE))


def random_move(board: Board, player: int, rng: random.Random) -> Move:
    """A move drawn uniformly from `board.legal_moves(player)`.

    Every piece move is counted (each piece's destinations), so that tile
    moves and piece moves are weighed right. In the Waxing phase every
    frontier cell (the origin for the first tile) takes a tile in each of the
    three rotations, so a placement is drawn directly. In the Waning phase a
    removal is drawn by rejection: draw uniformly among every tile and every
    piece move, keep a piece move, keep a tile if it is removable, else draw
    again; after `MAX_DRAWS` rejections the removable tiles are listed in
    full (which also finds a player with no legal move, who passes). Both
    ways give each legal move the same chance.

    Cells, pieces and destinations are numbered in id order, not in the
    order the board's sets keep, so that the compiled loop (`compiled.py`)
    draws the same move from the same random number."""
    rand = rng.random
    destinations = board.destinations
    starts: list[int] = []
    ends: list[list[int]] = []
    pieces = 0  # piece moves
    for start in board.movable(player):
        targets = destinations(start)
        if targets:
            starts.append(start)
            ends.append(sorted(targets))
            pieces += len(targets)
    if board.pool > 0:
        cells = sorted(board.frontier) if board.tiles else [ORIGIN]
        placements = 3 * len(cells)
        pick = int(rand() * (placements + pieces))
        if pick < placements:
            index, rotation = divmod(pick, 3)
            return (PLACE, cells[index], rotation)
        return _piece_move(starts, ends, pick - placements)
    tiles = sorted(board.tiles)
    removable = board.removable
    for _ in range(MAX_DRAWS if tiles else 0):
        pick = int(rand() * (len(tiles) + pieces))
        if pick >= len(tiles):
            return _piece_move(starts, ends, pick - len(tiles))
        if removable(tiles[pick]):
            return (REMOVE, tiles[pick], 0)
    removals = [cid for cid in tiles if removable(cid)]
    if not removals and not pieces:
        return PASS_MOVE
    pick = int(rand() * (len(removals) + pieces))
    if pick < len(removals):
        return (REMOVE, removals[pick], 0)
    return _piece_move(starts, ends, pick - len(removals))


def _piece_move(starts: list[int], ends: list[list[int]], index: int) -> Move:
    """The piece move numbered `index` when each start's destinations are
    numbered in turn."""
    for start, targets in zip(starts, ends, strict=True):
        if index < len(targets):
            return (MOVE, start, targets[index])
        index -= len(targets)
    raise AssertionError("a piece move number beyond the piece moves")


@dataclass(frozen=True, slots=True)
class WinNeeds:
    """What a turn must do for its mover to win: take every junction in
    `pieces` (those holding the opponent's pieces) off the board, and for
    a capture, fill every `free` neighbour of the opponent's groups;
    `pinned`, the junctions where an opponent piece lies under one of the
    mover's (no capture takes it while covered: it goes with its tile, or
    when the mover's piece leaves it and it is taken then)."""

    pieces: frozenset[int]
    free: frozenset[int]
    pinned: frozenset[int]


def win_needs(board: Board, mover: int, on_board: list[int]) -> WinNeeds | bool:
    """What `may_win` tests each move against, found once a position: True
    when any move might win, with no cheap test: the opponent has no piece
    on the board already (in the Waxing phase), so the last tile placed, or
    the mover's own last pieces leaving, may end the game."""
    opponent = mover ^ 1
    if on_board[opponent] == 0:
        return True
    stacks = board.stacks
    count = board.count
    pieces = frozenset(v for v, stack in stacks.items() if opponent in stack)
    pinned = frozenset(v for v in pieces if stacks[v][-1] != opponent)
    free: set[int] = set()
    for v in pieces:
        if stacks[v][-1] != opponent:
            continue
        for d in VERTEX_NEIGHBOURS[colour_of(v)]:
            there = v + d
            stack = stacks.get(there)
            if stack is None or (stack[-1] != opponent and count.get(there, 0) != 3):
                free.add(there)
    return WinNeeds(pieces, frozenset(free), pinned)


class TrugoSearchPosition:
    """A Trugo position for search, changed in place (see the module
    docstring for its moves, turns and random games)."""

    __slots__ = (
        "_needs",
        "board",
        "changed",
        "cutoff",
        "on_board",
        "passes",
        "player",
        "result",
    )

    def __init__(
        self,
        board: Board,
        player: int,
        passes: int = 0,
        cutoff: int | None = None,
    ) -> None:
        """An undecided position on `board` (kept, not copied) with `player`
        to move after `passes` passes in a row; `play_out` stops after
        `cutoff` turns (None: `CAP`)."""
        self.board = board
        self.player: int | None = player
        self.passes = passes
        self.cutoff = cutoff
        self.result: int | None = None  # the winner once over; None a draw
        self.on_board = board.on_board()  # pieces on the board by player
        # Junctions to look for captures around: to begin with, those of the
        # groups already surrounded (a board made by hand may have some).
        self.changed = {v for p in (0, 1) for group in board.surrounded_groups(p) for v in group}
        self._needs: WinNeeds | bool | None = None  # (for `may_win`: see `win_needs`)

    @classmethod
    def from_state(cls, state: TrugoState, cutoff: int | None = None) -> Self:
        """The clean `state` (not over) as a search position, sharing nothing with it."""
        if state.result is not None or state.to_move is None:
            raise ValueError("the game is over: there is no position to search")
        return cls(state.board.copy(), state.to_move, state.passes, cutoff)

    # -- the protocol ---------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self.player

    @property
    def winner(self) -> int | None:
        return self.result

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.board = self.board.copy()
        other.player = self.player
        other.passes = self.passes
        other.cutoff = self.cutoff
        other.result = self.result
        other.on_board = self.on_board[:]
        other.changed = self.changed.copy()
        other._needs = self._needs
        return other

    def legal_moves(self) -> list[Hashable]:
        """`Board.legal_moves`: a lone pass when nothing else is legal."""
        if self.player is None:
            return []
        return list(self.board.legal_moves(self.player))

    def random_move(self, rng: random.Random) -> Move:
        """`random_move` for the player to move: each legal move equally likely."""
        assert self.player is not None, "the game is over"
        return random_move(self.board, self.player, rng)

    def play(self, move: Hashable) -> None:
        """Apply a legal move, its captures, and judge the game after it."""
        self._needs = None
        board = self.board
        mover = self.player
        assert mover is not None, "the game is over"
        on = self.on_board
        before = on[0] + on[1]
        changed = self.changed
        kind, a, b = cast(Move, move)
        if kind == PLACE:
            for v in board.place(a, b):
                on[colour_of(v)] += 1
                changed.add(v)
        elif kind == MOVE:
            board.move_piece(a, b)
            changed.add(a)
            changed.add(b)
        elif kind == REMOVE:
            for v, stack in board.remove(a):
                for owner in stack:
                    on[owner] -= 1
                changed.add(v)
        if changed:
            self._capture(mover)
        if kind == PASS:
            self.passes += 1
            if self.passes >= 2:
                self.player = self.result = None
                return
        else:
            self.passes = 0
        if not (on[0] and on[1]):  # else no end can come of this turn
            result = turn_result(board, mover, before)
            if result is not None:
                self.player = None
                self.result = result.winner
                return
        self.player = mover ^ 1

    def _capture(self, mover: int) -> None:
        """`Board.capture` around the changed junctions: the opponent's
        surrounded groups, then (checked again) the mover's own. Leaves in
        `changed` the junctions the mover's captures changed."""
        board = self.board
        on = self.on_board
        changed = self.changed
        for player in (mover ^ 1, mover):
            near = set(changed)
            for v in changed:
                for d in VERTEX_NEIGHBOURS[colour_of(v)]:
                    near.add(v + d)
            taken: set[int] = set()
            groups = board.surrounded_groups(player, near)
            for group in groups:
                for _, owner in board.take(group):
                    on[owner] -= 1
                taken.update(group)
            if player == mover:
                self.changed = taken
            else:
                changed |= taken

    def move_text(self, move: Hashable) -> str:
        return TrugoMove(cast(Move, move)).text

    def may_win(self, move: Hashable) -> bool:
        """Whether `move` might end the game at once with the mover winning
        (False only when it certainly does not). A turn is won only by
        leaving the opponent no piece on the board (`end.turn_result`), so
        every opponent piece must go in this turn: a removed tile takes
        only the pieces on its corners, a capture only top pieces whose
        group has no free neighbour left, and a turn fills at most the
        corners of the tile it places or the junction a piece moves to,
        and uncovers at most the junction a piece leaves (`win_needs` says
        what must go)."""
        needs = self._needs
        if needs is None:
            assert self.player is not None, "the game is over"
            needs = self._needs = win_needs(self.board, self.player, self.on_board)
        if needs is True:
            return True
        if needs is False:
            return False
        kind, a, b = cast(Move, move)
        if kind == REMOVE:
            return needs.pieces <= {a + d for d in CORNER_DELTAS}
        if kind == MOVE:  # (uncovering the one pinned piece may let it be taken)
            return needs.pinned <= {a} and needs.free <= {b}
        if needs.pinned:
            return False
        if kind == PLACE:
            return needs.free <= {a + d for d in CORNER_DELTAS}
        return True  # (a pass: never wins, but costs one look)

    def play_out(self, rng: random.Random, record: list[Move] | None = None) -> Playout:
        """Play on at random to the end or the cutoff (`play_out`)."""
        return play_out(self, rng, record)


def play_out(
    position: TrugoSearchPosition, rng: random.Random, record: list[Move] | None = None
) -> Playout:
    """Play on from `position` (in place) with uniformly random legal moves
    until the game ends or `position.cutoff` more turns (None: `CAP`) have
    been played; `record`, if given, receives each move. A game cut off
    scores `material_share`; `placed` counts the tiles placed."""
    cap = CAP if position.cutoff is None else position.cutoff
    board = position.board
    play = position.play
    turns = placed = 0
    while turns < cap:
        player = position.player
        if player is None:
            winner = position.result
            return Playout(score_of(winner), winner, turns, placed)
        move = random_move(board, player, rng)
        if record is not None:
            record.append(move)
        play(move)
        turns += 1
        if move[0] == PLACE:
            placed += 1
    if position.player is None:
        winner = position.result
        return Playout(score_of(winner), winner, turns, placed)
    return Playout(material_share(board, position.on_board), None, turns, placed, capped=True)
