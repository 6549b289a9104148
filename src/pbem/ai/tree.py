"""What every search of `ai/` shares: its budget and settings, the tree's
node, the analysis a search gives back and how the root's moves are ranked
into it, and RAVE's weights.

The Python tree (`mcts.py`) and the driver of a game's compiled tree
(`vacu_tree.py`) both build on this module, and it on neither, so the two
searches rank their moves and weigh RAVE with the very same code and
numbers.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cache

from ..games.base import SearchPosition

RANKED = 10  # root moves an analysis ranks and names (a hint shows three)
RESERVE = 0.02  # of a time budget, left for the ranking after the search and the caller's copy


@dataclass(frozen=True)
class Budget:
    """How long one search may run: at most `seconds` of wall time and at
    most `iterations` iterations (either may be None, not both)."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a search budget needs seconds, iterations or both")


@dataclass(frozen=True)
class SearchSettings:
    """How the search chooses: `exploration` is UCB1's constant for values in
    [0, 1]; `solver` proves wins and losses (plain UCT does not); with
    `decisive`, a position's moves are tried once when they are listed, and
    a move that wins at once solves the position (so a win in one is never
    missed, and a move that allows one is proven lost on its second visit).
    With `rave`, the search counts every move of a playout for the moves
    of the positions above it (all moves as first, Gelly and Silver's
    RAVE) and weighs that against a move's own visits: the AMAF mean's
    weight is `sqrt(rave / (3 n + rave))` after `n` visits of the move (a
    half at `n = rave`); a move never seen scores `first_play`."""

    exploration: float = 0.7
    solver: bool = True
    decisive: bool = True
    rave: float = 0.0  # RAVE's equivalence visits (0: off; the RAVE iteration of `mcts.py`)
    first_play: float = 1.0  # with RAVE: the value of a move nothing is known of


@dataclass(frozen=True)
class Candidate:
    """One move at the root as the search saw it: its canonical text, how
    many iterations went through it, and the mover's estimated share of the
    game after it (1.0 once it is a proven win, 0.0 a proven loss)."""

    move: str
    visits: int
    win_rate: float
    proven: bool = False


@dataclass(frozen=True)
class Analysis:
    """The result of one search: the move to play, the best root moves
    ranked best first (at most `RANKED`), and what the search cost."""

    best: str
    candidates: tuple[Candidate, ...]
    iterations: int
    seconds: float
    share: float  # player 0's estimated share of the game from the root (exact once proven)
    proven: bool = False  # the root is solved: `share` is exact

    def top(self, count: int) -> tuple[Candidate, ...]:
        return self.candidates[:count]


@dataclass(eq=False, slots=True)
class Node:
    """A position in the tree, reached by `move` from its parent. `value` is
    the sum of player 0's shares over the `visits` that passed through it;
    `solved` is player 0's exact share once proven, else None. `untried`
    lists the moves not expanded yet, from the second visit on (None
    before: most nodes are visited once, and listing moves can cost more
    than the playout)."""

    move: Hashable | None
    to_move: int | None
    untried: list[Hashable] | None
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    value: float = 0.0
    solved: float | None = None
    # With RAVE: the children by move, once listed; and, for this node as a
    # child, the AMAF visits and sum of player 0's shares: the iterations
    # through its parent in which the parent's player to move played its move.
    by_move: dict[Hashable, Node] | None = None
    amaf_visits: int = 0
    amaf_value: float = 0.0

    def share(self, player: int) -> float:
        """The average share of `player` over this node's visits."""
        mean = self.value / self.visits if self.visits else 0.5
        return mean if player == 0 else 1.0 - mean


def own_share(value: float, player: int) -> float:
    """`player`'s share of the game from player 0's share `value`."""
    return value if player == 0 else 1.0 - value


def rave_weight(rave: float, visits: int) -> float:
    """RAVE's weight of the AMAF mean after `visits` of a move's own
    (`SearchSettings.rave` is `rave`)."""
    return math.sqrt(rave / (3 * visits + rave))


@cache
def rave_tables(rave: float, size: int = 1 << 14) -> tuple[list[float], list[float]]:
    """For visits below `size`: RAVE's weights (`rave_weight`), and the
    shrinking of the exploration bonus, `1 / sqrt(visits + 1)`, looked up
    rather than worked out for every child at every step. Both searches
    use these very numbers."""
    return (
        [rave_weight(rave, visits) for visits in range(size)],
        [(visits + 1) ** -0.5 for visits in range(size)],
    )


def root_analysis(
    root: Node, position: SearchPosition, iterations: int, seconds: float
) -> Analysis:
    """Rank the root's moves (`root.children`, at `position`): a proven win
    first, proven losses last, the rest by visits (the robust child), then
    by win rate; keep the best `RANKED`."""
    player = root.to_move
    assert player is not None

    def rank(child: Node) -> tuple[int, int, float]:
        if child.solved is not None:
            share = own_share(child.solved, player)
            tier = 2 if share == 1.0 else (0 if share == 0.0 else 1)
        else:
            tier = 1
        return (tier, child.visits, child.share(player))

    # Only the best few get their texts: writing every root move's text
    # (hundreds in Vasco or Vacu 19x19) would run past the budget.
    ranked = heapq.nlargest(RANKED, root.children, key=rank)
    candidates = tuple(
        Candidate(
            move=position.move_text(child.move),
            visits=child.visits,
            win_rate=(
                child.share(player) if child.solved is None else own_share(child.solved, player)
            ),
            proven=child.solved is not None,
        )
        for child in ranked
    )
    if not candidates:  # no iteration ran: any legal move
        move = position.legal_moves()[0]
        candidates = (Candidate(position.move_text(move), 0, 0.5),)
    share = root.solved if root.solved is not None else root.share(0)
    return Analysis(
        candidates[0].move, candidates, iterations, seconds, share, root.solved is not None
    )
