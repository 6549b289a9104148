"""Monte Carlo tree search (UCT) with solved wins and losses.

One search grows a tree from a `SearchPosition`: each iteration walks down
by the UCB1 rule, adds one new position, plays it out at random (the game's
`play_out`) and counts the result on the way back up. A position whose game
is over is solved; a position where the player to move has a solved win, or
where every move is solved, is solved too (the MCTS-solver of Winands et
al.), so a win in one is always played and a proven loss never chosen while
anything else is left. Values are kept as player 0's share of the game
(1 a win, 0 a loss, 0.5 a draw) and turned to the mover's view where they
are compared, so the search does not rely on turns alternating.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable

from ..games.base import SearchPosition, score_of
from . import vacu_tree
from .tree import (
    RANKED,
    RESERVE,
    Analysis,
    Budget,
    Candidate,
    Node,
    SearchSettings,
    own_share,
    rave_tables,
    rave_weight,
    root_analysis,
)

# The search's API: its own, and what it shares with `vacu_tree` (`tree.py`), named here too.
__all__ = [
    "DEFAULT",
    "RANKED",
    "RESERVE",
    "Analysis",
    "Budget",
    "Candidate",
    "Node",
    "SearchSettings",
    "new_node",
    "search",
    "tree_search",
]

DEFAULT = SearchSettings()  # what a search given no settings uses


def new_node(position: SearchPosition, move: Hashable | None) -> Node:
    """A node for `position` (just reached by `move`), solved if it is over."""
    to_move = position.to_move
    if to_move is None:
        return Node(move, None, [], solved=score_of(position.winner))
    return Node(move, to_move, None)


def search(
    position: SearchPosition,
    budget: Budget,
    rng: random.Random,
    settings: SearchSettings = DEFAULT,
) -> Analysis:
    """Search from `position` (left unchanged; its game must not be over)
    within `budget` and rank the moves of the player to move: in the
    compiled tree the position's game keeps for these settings, where it
    keeps one (`vacu_tree.compiled_tree`), else `tree_search`."""
    if position.to_move is None:
        raise ValueError("the game is over: there is no move to search")
    started = time.perf_counter()
    tree = vacu_tree.compiled_tree(position, settings)
    if tree is not None:
        return vacu_tree.search_tree(tree, position, budget, rng, started)
    return tree_search(position, budget, rng, settings)


def tree_search(
    position: SearchPosition,
    budget: Budget,
    rng: random.Random,
    settings: SearchSettings = DEFAULT,
) -> Analysis:
    """`search` in Python, over any game's search position: the reference
    a game's compiled tree (`vacu_tree`) is tested against."""
    if position.to_move is None:
        raise ValueError("the game is over: there is no move to search")
    root = new_node(position, None)
    started = time.perf_counter()
    deadline = None if budget.seconds is None else started + budget.seconds * (1 - RESERVE)
    limit = budget.iterations
    iterations = 0
    # The budget is a promise to the player waiting, and one iteration can
    # cost tens of milliseconds (expanding a node lists a position's moves and
    # tries each for a win in one): an iteration starts only if the slowest so
    # far would still end before the deadline. The first always runs.
    slowest = 0.0
    now = started
    while root.solved is None:
        if limit is not None and iterations >= limit:
            break
        if deadline is not None and iterations > 0 and now + slowest >= deadline:
            break
        _iterate(root, position.copy(), rng, settings)
        iterations += 1
        before, now = now, time.perf_counter()
        slowest = max(slowest, now - before)
    return root_analysis(root, position, iterations, time.perf_counter() - started)


def _iterate(
    root: Node, position: SearchPosition, rng: random.Random, settings: SearchSettings
) -> None:
    """One iteration: select, expand one node, play out, back up."""
    if settings.rave:
        _iterate_rave(root, position, rng, settings)
        return
    path = [root]
    node = root
    while node.solved is None:
        if node.untried is None:
            node.untried = position.legal_moves()
            if settings.decisive and settings.solver:
                _look_for_a_win(node, position)
                if node.solved is not None:
                    break
        if node.untried:
            break
        node = _select(node, settings.exploration)
        position.play(node.move)
        path.append(node)
    if node.solved is None:
        untried = node.untried
        assert untried
        index = int(rng.random() * len(untried))
        move = untried[index]
        untried[index] = untried[-1]
        untried.pop()
        position.play(move)
        child = new_node(position, move)
        node.children.append(child)
        path.append(child)
        node = child
    value = node.solved if node.solved is not None else position.play_out(rng).score
    for visited in reversed(path):
        visited.visits += 1
        visited.value += value
        if settings.solver and visited.solved is None and visited.children:
            _prove(visited)


PENDING = -1  # a RAVE child's `to_move` until the search first walks to it


def _iterate_rave(
    root: Node, position: SearchPosition, rng: random.Random, settings: SearchSettings
) -> None:
    """One iteration with RAVE. A node lists its moves, as children not yet
    looked at (`PENDING`), on its second visit (the root on its first); the
    walk goes down by `_select_rave` until it reaches a child walked for
    the first time, plays out from there, and backs the result up: to each
    node's own visits, and to the AMAF counts of every move its player to
    move made further down, in the tree or in the playout."""
    path = [root]
    walked: list[Hashable] = []  # the move from path[i] to path[i + 1]
    node = root
    while node.solved is None and (node.visits or node is root):
        if node.by_move is None:
            _list_moves(node, position, settings)
            if node.solved is not None:
                break
        child = _select_rave(node, settings)
        position.play(child.move)
        walked.append(child.move)
        path.append(child)
        node = child
        if node.to_move == PENDING:
            node.to_move = position.to_move
            if node.to_move is None:
                node.solved = score_of(position.winner)
    played: list[Hashable] = []
    if node.solved is not None:
        value = node.solved
        first = 0
    else:
        first = position.to_move or 0
        value = position.play_out(rng, played).score
    # The moves made below each node, by player (they alternate in a
    # playout, `first` first): the playout's, then the walk's on the way up.
    made: list[set[Hashable]] = [set(), set()]
    made[first] = set(played[0::2])
    made[first ^ 1] = set(played[1::2])
    for depth in range(len(path) - 1, -1, -1):
        visited = path[depth]
        visited.visits += 1
        visited.value += value
        if depth < len(walked):
            mover = visited.to_move
            assert mover is not None and mover >= 0
            made[mover].add(walked[depth])
        by_move = visited.by_move
        if by_move is not None and visited.to_move is not None:
            for move in made[visited.to_move]:
                played_here = by_move.get(move)
                if played_here is not None:
                    played_here.amaf_visits += 1
                    played_here.amaf_value += value
        if settings.solver and visited.solved is None and visited.children:
            _prove(visited)


def _list_moves(node: Node, position: SearchPosition, settings: SearchSettings) -> None:
    """Give `node` its children, pending, and their index by move; with
    `decisive`, a move that wins at once (`_look_for_a_win`, run over the
    moves as if untried) becomes the node's one, solved, child and solves
    the node."""
    moves = position.legal_moves()
    node.untried = []
    node.children = [Node(move, PENDING, None) for move in moves]
    node.by_move = {child.move: child for child in node.children}
    if settings.decisive and settings.solver:
        node.untried = moves
        _look_for_a_win(node, position)
        if node.solved is not None:
            won = node.children.pop()
            node.children = [won]
        node.untried = []


def _select_rave(node: Node, settings: SearchSettings) -> Node:
    """The child to walk to: each move's own mean blended with its AMAF
    mean (`SearchSettings.rave`), plus UCB1's exploration; proven moves as in
    `_select`. (Means are blended in player 0's terms and turned to the
    mover's once: the blend of the shares is the share of the blend.)"""
    player = node.to_move
    assert player is not None
    first_play = settings.first_play
    explore = settings.exploration * math.sqrt(math.log(node.visits) if node.visits > 1 else 0.0)
    betas, shrink = rave_tables(settings.rave)
    top = len(betas)
    best: Node | None = None
    best_score = -math.inf
    for child in node.children:
        solved = child.solved
        visits = child.visits
        if solved is not None:
            score = _proven_score(solved, player)
        else:
            seen = child.amaf_visits
            if seen:
                mean = child.amaf_value / seen
                if visits:
                    beta = betas[visits] if visits < top else rave_weight(settings.rave, visits)
                    mean = (1 - beta) * (child.value / visits) + beta * mean
            elif visits:
                mean = child.value / visits
            else:
                mean = 1.0 - first_play if player else first_play
            if player:
                mean = 1.0 - mean
            score = mean + explore * (shrink[visits] if visits < top else (visits + 1) ** -0.5)
        if score > best_score:
            best, best_score = child, score
    assert best is not None
    return best


def _look_for_a_win(node: Node, position: SearchPosition) -> None:
    """Try each listed move of `node` (at `position`); one that ends the game
    in the mover's favour becomes a solved child, which solves `node`."""
    player = node.to_move
    assert player is not None and node.untried is not None
    for index, move in enumerate(node.untried):
        if not position.may_win(move):
            continue  # (the game's cheap test: it certainly does not win at once)
        after = position.copy()
        after.play(move)
        if after.to_move is None and after.winner == player:
            node.untried[index] = node.untried[-1]
            node.untried.pop()
            won = score_of(player)
            node.children.append(Node(move, None, [], solved=won))
            node.solved = won
            return


def _select(node: Node, exploration: float) -> Node:
    """The child UCB1 prefers for the player to move at `node`; a child proven
    lost for that player only when every child is (the solver then marks
    `node` solved before it is walked again)."""
    player = node.to_move
    assert player is not None
    log_visits = math.log(node.visits) if node.visits > 1 else 0.0
    best: Node | None = None
    best_score = -math.inf
    for child in node.children:
        if child.solved is not None:
            score = _proven_score(child.solved, player)
        else:
            score = child.share(player) + exploration * math.sqrt(log_visits / child.visits)
        if score > best_score:
            best, best_score = child, score
    assert best is not None
    return best


def _proven_score(solved: float, player: int) -> float:
    """How selection scores a proven move for `player`: a proven loss never
    while anything else is left, a proven win always."""
    share = own_share(solved, player)
    return -1e9 if share == 0.0 else share + 1e6 * (share == 1.0)


def _prove(node: Node) -> None:
    """Mark `node` solved when its player to move has a proven win, or when
    every move is expanded and proven (the best of them, for that player)."""
    player = node.to_move
    assert player is not None
    best: float | None = None
    open_moves = node.untried is None or bool(node.untried)
    for child in node.children:
        if child.solved is None:
            open_moves = True
            continue
        share = own_share(child.solved, player)
        if share == 1.0:
            node.solved = child.solved
            return
        if best is None or share > own_share(best, player):
            best = child.solved
    if not open_moves and best is not None:
        node.solved = best
