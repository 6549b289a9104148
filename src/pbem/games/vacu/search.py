"""Vacu and Convacu as a fast, mutable search position (`base.SearchPosition`)
over the bare `Board`: the rules of `VacuState` again, applied in place, for
the AI's tree search and for uniformly random games.

Phases, as in the clean API: without a `-komi` option the game opens with the
komi step (the first player names White's komi), then the colour step (the
second player takes black or white), then play. In the komi step a position
offers only komi -size .. +size, a documented subset of the clean API's
-size² .. +size² (a komi beyond the board's side is rarely worth searching);
it plays any komi it is given. In the other phases its moves are exactly the
clean API's.

Moves are small values, no two phases sharing one: in play a stone is its
point index (>= 0), and `PASS_MOVE` and `BUTTON_MOVE` are negative ints; the
colour step's moves are `BLACK_MOVE` and `WHITE_MOVE` (the colour the second
player takes); a komi is the pair `(KOMI_MOVE, komi)`.

Each turn of play is applied as `VacuState.play` applies it (RULINGS.md,
Vacu and Convacu): a stone (suppressing or flipping as `Board.play` does),
the button while it is untaken, or a pass once it is taken (in Convacu only
when no stone is legal). After each turn, in this order: Convacu's connection
win; two passes in a row, scored; a move that removes the last enemy stone,
scored; and, after a stone, the third occurrence of the same position
(stones, whether the button is taken, player to move), a draw. Positions are
told apart by the board's Zobrist hash plus a key for the button and one for
the player to move, where the clean API compares the stones exactly; 64
random bits make a false repetition vanishingly unlikely. The positions seen
before the search position was made count too (`from_state` hashes
`VacuState.seen`).

Random moves are uniform over the legal moves, drawn by rejection: draw
uniformly among the empty points plus the one move that is not a stone when
there is one (the button while untaken, else a pass in Vacu), keep it if it
is that move or a legal point, else draw again. After `MAX_DRAWS` rejections
the legal points are listed in full (which also finds a Convacu player with
no stone to play, who must pass). Both ways give each legal move the same
chance. The empty points are kept in a list (with each point's index in it)
as stones come and go, so a draw costs no scan of the board.

One drawer (`draw_move`) and one loop that applies moves of play
(`VacuSearchPosition._run`) serve both `play` and the random games
(`play_out`), so the search and the playouts cannot drift apart.

A random game stops after `CAP_PER_POINT` turns per point of the board
(random 9x9 games take under 4). A capped game has no winner and scores the
board as it stands: 1.0, 0.0 or 0.5 as player 0 leads, trails or ties on
`score` (stones, territory, komi and the button), which says more than a flat
0.5.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Protocol, Self, cast

from ..base import Playout, score_of
from .board import BLACK, EDGE, EMPTY, NEEDS, WHITE, ZOBRIST, Board
from .notation import BUTTON, COLOUR_WORDS, COLUMNS, KOMI, PASS
from .score import score

if TYPE_CHECKING:
    from .state import VacuState

SearchMove = int | tuple[int, int]


class Uniform(Protocol):
    """What the random games draw from: `random.Random`, or the compiled
    loop's `SplitMix64` (compiled.py)."""

    def random(self) -> float: ...


PASS_MOVE, BUTTON_MOVE = -1, -2  # in play; a stone is its point index
BLACK_MOVE, WHITE_MOVE = -3, -4  # the colour step: the colour the second player takes
KOMI_MOVE = -5  # the komi step: (KOMI_MOVE, komi)
NO_MOVE = -6  # none given: `_run` draws one
_MOVE_WORDS = {
    PASS_MOVE: PASS,
    BUTTON_MOVE: BUTTON,
    BLACK_MOVE: COLOUR_WORDS[BLACK],
    WHITE_MOVE: COLOUR_WORDS[WHITE],
}
MAX_DRAWS = 16
CAP_PER_POINT = 10  # turns per point of the board

_KEYS = random.Random(20260622)
BUTTON_KEY = _KEYS.getrandbits(64)  # the button is taken
TO_MOVE_KEYS = (_KEYS.getrandbits(64), _KEYS.getrandbits(64))  # by player
SWITCH_KEY = TO_MOVE_KEYS[0] ^ TO_MOVE_KEYS[1]  # the other player to move

# How a game ended (`VacuSearchPosition.end`).
CONNECTION, PASSES, REMOVAL, REPETITION, CAPPED = (
    "connection",
    "passes",
    "removal",
    "repetition",
    "capped",
)


def default_cap(size: int) -> int:
    """The turns after which a random game on a size x size board stops."""
    return CAP_PER_POINT * size * size


def position_hash(stones: bytes) -> int:
    """The Zobrist hash of a board from its `Board.key()`."""
    h = 0
    for p, c in enumerate(stones):
        if c != EMPTY and c != EDGE:
            h ^= ZOBRIST[p][c]
    return h


def point_name(size: int, p: int) -> str:
    """A point's name as `VacuState.point_name` writes it: D4."""
    row, col = divmod(p, size + 2)
    return f"{COLUMNS[col - 1]}{size - row + 1}"


def draw_move(
    rand: Callable[[], float],
    empty: list[int],
    placement: Callable[[int, int], int],
    colour: int,
    other: int,
) -> int:
    """A uniformly random legal move of play for `colour`: a point of `empty`
    where `placement` allows a stone, or `other` (BUTTON_MOVE or PASS_MOVE,
    0 when there is none, Convacu's pass being only for want of a stone)."""
    n = len(empty)
    draws = n + 1 if other else n
    tries = MAX_DRAWS
    while tries:  # cheaper than a range for the one draw it mostly takes
        i = int(rand() * draws)
        if i == n:  # the other move, or a Convacu player facing a full board
            return other or PASS_MOVE
        p = empty[i]
        if placement(p, colour):
            return p
        tries -= 1
    legal = [p for p in empty if placement(p, colour)]
    if other:
        legal.append(other)
    elif not legal:
        return PASS_MOVE
    return legal[int(rand() * len(legal))]


class VacuSearchPosition:
    """A Vacu or Convacu position for search, changed in place (see the module
    docstring for its phases, moves and random games)."""

    __slots__ = (
        "_to_move",
        "_winner",
        "black",
        "board",
        "button",
        "colour",
        "connection",
        "empty",
        "end",
        "komi",
        "passes",
        "seen",
        "where",
    )

    def __init__(
        self,
        board: Board,
        player: int,
        *,
        connection: bool = False,
        komi: int | None = 6,
        black: int | None = 0,
        button: int | None = None,
        passes: int = 0,
        seen: dict[int, int] | None = None,
    ) -> None:
        """An undecided position on `board` (kept, not copied) with `player`
        to move; `komi` None is the komi step (player 0 to move), `black` None
        the colour step (player 1 to move), else `black` is the player playing
        Black, `button` the player who took it and `seen` the occurrences of
        each position key so far (kept, not copied; by default the position
        itself once)."""
        self.board = board
        self._to_move: int | None = player
        self.connection = connection
        self.komi = komi
        self.black = black
        self.button = button
        self.passes = passes
        self.colour = BLACK if player == black else WHITE  # of the player to move, in play
        self._winner: int | None = None  # once over; None a draw
        self.end = ""  # how it ended: CONNECTION, PASSES, REMOVAL, REPETITION or CAPPED
        if seen is None:
            seen = {}
            if komi is not None and black is not None:
                seen[self._key(player)] = 1
        self.seen = seen
        colours = board.colour
        self.empty = [p for p in board.points if colours[p] == EMPTY]
        self.where = [0] * len(colours)  # each empty point's index in `empty`
        for i, p in enumerate(self.empty):
            self.where[p] = i

    @classmethod
    def from_state(cls, state: VacuState) -> Self:
        """The clean `state` (not over) as a search position, sharing nothing with it."""
        if state.result is not None or state.to_move is None:
            raise ValueError("the game is over: there is no position to search")
        seen: dict[int, int] = {}
        for (stones, taken, to_move), count in state.seen.items():
            if to_move >= 0:
                key = position_hash(stones) ^ (BUTTON_KEY if taken else 0) ^ TO_MOVE_KEYS[to_move]
                seen[key] = count
        return cls(
            state.board.copy(),
            state.to_move,
            connection=state.game.connection,
            komi=state.komi,
            black=state.black,
            button=state.button,
            passes=state.passes,
            seen=seen,
        )

    def _key(self, player: int) -> int:
        """The repetition key of the board with `player` to move."""
        key = self.board.hash ^ TO_MOVE_KEYS[player]
        return key ^ BUTTON_KEY if self.button is not None else key

    # -- the protocol ---------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def winner(self) -> int | None:
        return self._winner

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.board = self.board.copy()
        other._to_move = self._to_move
        other.connection = self.connection
        other.komi = self.komi
        other.black = self.black
        other.button = self.button
        other.passes = self.passes
        other.colour = self.colour
        other._winner = self._winner
        other.end = self.end
        other.seen = self.seen.copy()
        other.empty = self.empty[:]
        other.where = self.where[:]
        return other

    def legal_moves(self) -> list[Hashable]:
        """Every legal move; in the komi step, komi -size .. +size only."""
        if self._to_move is None:
            return []
        if self.komi is None:
            size = self.board.size
            return [(KOMI_MOVE, komi) for komi in range(-size, size + 1)]
        if self.black is None:
            return [BLACK_MOVE, WHITE_MOVE]
        placement, colour = self.board.placement, self.colour
        moves: list[Hashable] = [p for p in self.empty if placement(p, colour)]
        if self.button is None:
            moves.append(BUTTON_MOVE)
        elif not self.connection or not moves:
            moves.append(PASS_MOVE)
        return moves

    def random_move(self, rng: Uniform) -> SearchMove:
        """A uniformly random legal move (from the komi step's subset there)."""
        if self.black is None:
            if self.komi is None:
                size = self.board.size
                return (KOMI_MOVE, int(rng.random() * (2 * size + 1)) - size)
            return BLACK_MOVE if rng.random() < 0.5 else WHITE_MOVE
        other = BUTTON_MOVE if self.button is None else 0 if self.connection else PASS_MOVE
        return draw_move(rng.random, self.empty, self.board.placement, self.colour, other)

    def play(self, move: Hashable) -> None:
        """Apply a legal move, and judge the game after it."""
        if type(move) is tuple:  # the komi step
            self.komi = move[1]
            self._to_move = 1
        elif cast(int, move) >= BUTTON_MOVE:
            self._run(cast(int, move), random.random, 1, None)  # draws nothing
        else:  # the colour step: the second player chose, Black moves first
            black = 1 if move == BLACK_MOVE else 0
            self.black = self._to_move = black
            self.colour = BLACK
            self.seen[self._key(black)] = 1

    def _run(
        self,
        move: int,
        rand: Callable[[], float],
        cap: int,
        record: list[SearchMove] | None,
    ) -> tuple[int, int]:
        """The one loop that applies moves of play, judging the game after
        each: `move` first unless it is NO_MOVE, then moves drawn with `rand`
        (`draw_move`), until the game ends or `cap` turns have been played.
        Returns the turns played and the stones placed."""
        board = self.board
        player = self._to_move
        assert player is not None, "the game is over"
        colour = self.colour
        taken = self.button is not None
        passes = self.passes
        connection = self.connection
        empty, where, seen = self.empty, self.where, self.seen
        placement, play, joins_edges = board.placement, board.play, board.joins_edges
        counts = board.stones
        other = PASS_MOVE if taken else BUTTON_MOVE
        if taken and connection:
            other = 0
        # the key of the player to move next, with the button's when it is taken
        next_key = TO_MOVE_KEYS[player ^ 1] ^ (BUTTON_KEY if taken else 0)
        turns = others = 0  # others: turns that placed no stone
        for turns in range(1, cap + 1):  # noqa: B007 (the count is the result)
            if move == NO_MOVE:
                move = draw_move(rand, empty, placement, colour, other)
            if record is not None:
                record.append(move)
            if move >= 0:
                suppressed, flipped = play(move, colour)
                last = empty.pop()
                if last != move:
                    i = where[move]
                    empty[i] = last
                    where[last] = i
                for p in suppressed:
                    where[p] = len(empty)
                    empty.append(p)
                passes = 0
                key = board.hash ^ next_key
                occurrences = seen[key] = seen.get(key, 0) + 1
                if connection and (
                    joins_edges(move) if board.colour[move] else any(map(joins_edges, flipped))
                ):
                    self._finish(player, CONNECTION)
                    break
                if (suppressed or flipped) and not counts[colour ^ 3]:
                    self._finish(self._leader(), REMOVAL)
                    break
                if occurrences >= 3:
                    self._finish(None, REPETITION)
                    break
            else:
                others += 1
                if move == BUTTON_MOVE:
                    self.button = player
                    other = 0 if connection else PASS_MOVE
                    next_key ^= BUTTON_KEY
                    passes = 0
                else:
                    passes += 1
                key = board.hash ^ next_key
                seen[key] = seen.get(key, 0) + 1
                if passes >= 2:
                    self._finish(self._leader(), PASSES)
                    break
            player ^= 1
            colour ^= 3
            next_key ^= SWITCH_KEY
            move = NO_MOVE
        else:
            self._to_move = player
            self.colour = colour
        self.passes = passes
        return turns, turns - others

    def _finish(self, winner: int | None, end: str) -> None:
        self._to_move = None
        self._winner = winner
        self.end = end

    def _leader(self) -> int | None:
        """The player ahead on points (`score`), None on a tie."""
        assert self.komi is not None and self.black is not None
        points = score(self.board, self.komi, self.black, self.button)
        if points[0] == points[1]:
            return None
        return 0 if points[0] > points[1] else 1

    def may_win(self, move: Hashable) -> bool:
        """Whether `move` might end the game at once with the mover winning
        (False only when it certainly does not). Only these can: a second
        pass in a row (the game is scored); a stone taking the last
        liberty of an enemy group (it is suppressed or flipped, and the
        enemy's last stones may go: the game is scored); a Convacu stone
        whose group joins its colour's edges. The komi and colour steps,
        the button and a first pass end nothing, nor does a repetition
        (a draw)."""
        if type(move) is tuple:
            return False
        if move == PASS_MOVE:
            return self.passes >= 1
        if cast(int, move) < 0:
            return False  # the button, or a colour
        p = cast(int, move)
        board, colour = self.board, self.colour
        stones, group = board.colour, board.group
        libs, lsum, lsq = board.libs, board.lsum, board.lsq
        square = p * p
        reach = board.edges[p]
        for n in board.neighbours[p]:
            cn = stones[n]
            if cn in (EMPTY, EDGE):
                continue
            g = group[n]
            count = libs[g]
            if cn != colour and count * p == lsum[g] and count * square == lsq[g]:
                return True  # p is the enemy group's last liberty
            if cn == colour:
                reach |= board.reach[g]
        if self.connection:
            need = NEEDS[colour]
            return reach & need == need
        return False

    def move_text(self, move: Hashable) -> str:
        if type(move) is tuple:
            return f"{KOMI}{move[1]}"
        if cast(int, move) >= 0:
            return point_name(self.board.size, cast(int, move))
        return _MOVE_WORDS[cast(int, move)]

    def play_out(self, rng: random.Random, record: list[SearchMove] | None = None) -> Playout:
        """Play on at random to the end or the cap (`play_out`; the compiled
        twin, `compiled_tree.CompiledPosition`, overrides it)."""
        return play_out(self, rng, record)


def play_out(
    position: VacuSearchPosition,
    rng: Uniform,
    record: list[SearchMove] | None = None,
    cap: int | None = None,
) -> Playout:
    """Play on from `position` (in place) with uniformly random legal moves
    until the game ends or `cap` more turns (default: `default_cap`) have been
    played; `record`, if given, receives each move. A capped game scores the
    board as it stands (see the module docstring) and sets `position.end` to
    CAPPED."""
    if cap is None:
        cap = default_cap(position.board.size)
    turns = opening_steps(position, rng, record, cap)
    placed = 0
    if position._to_move is not None and turns < cap:
        played, placed = position._run(NO_MOVE, rng.random, cap - turns, record)
        turns += played
    return outcome(position, turns, placed)


def opening_steps(
    position: VacuSearchPosition, rng: Uniform, record: list[SearchMove] | None, cap: int
) -> int:
    """Play the komi and colour steps, if the position is in them, at
    random (within `cap` turns); how many turns that took."""
    turns = 0
    while position.black is None and position._to_move is not None and turns < cap:
        move = position.random_move(rng)
        if record is not None:
            record.append(move)
        position.play(move)
        turns += 1
    return turns


def outcome(position: VacuSearchPosition, turns: int, placed: int) -> Playout:
    """The playout that stopped here: the game over, or capped (scored as
    the board stands, `position.end` set to CAPPED)."""
    if position._to_move is not None:
        position.end = CAPPED
        if position.black is None:
            return Playout(0.5, None, turns, placed, capped=True)
        return Playout(score_of(position._leader()), None, turns, placed, capped=True)
    return Playout(score_of(position._winner), position._winner, turns, placed)
