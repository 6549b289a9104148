"""The search in a game's compiled tree: Vacu's and Convacu's.

`mcts.search` asks the position first (`compiled_tree`): where its game
keeps a compiled search tree for the search's settings (the contract's
`CompiledTreePosition`, `games/base.py`: Vacu and Convacu in play, with
their random games compiled, searched with RAVE as every bot level does
in these games, `levels.knowledge`), the search runs there, about five
times the iterations of the Python tree in the same time. The tree is
the game's (`games/vacu/compiled_tree.py`); this module knows only the
contract. It keeps the budget (how many iterations each call into the
compiled code runs, when the tree's arrays grow, when to stop) and ranks
the root's moves with the Python tree's own ranking
(`tree.root_analysis`), so the analysis is the one the Python tree would
give: from the same seed and an iteration budget, the same, visit for
visit (`tests/ai/test_vacu_tree.py` compares them on random positions).
The Python tree stays: it is the reference, what the komi and colour
steps search, and what runs without numba.
"""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

from ..games import get_game
from ..games.base import CompiledTree, CompiledTreePosition, SearchPosition, TreeNode
from .tree import RESERVE, Analysis, Budget, Node, SearchSettings, rave_tables, root_analysis

MOST_PROJECTED = 1 << 24  # the most nodes a growth makes room for ahead of need (448 MB)
BATCH_SECONDS = 0.005  # about how long one call into the compiled loop runs
FIRST_BATCH = 8  # iterations, before there is a rate to size batches by


def compiled_tree(position: SearchPosition, settings: SearchSettings) -> CompiledTree | None:
    """A new compiled tree rooted at `position` (left unchanged) for a
    search with `settings`, where the position's game keeps one for them
    (it takes RAVE searches only), else None."""
    if settings.rave <= 0 or not isinstance(position, CompiledTreePosition):
        return None
    betas, shrink = _tables(settings.rave)
    return position.compiled_tree(
        exploration=settings.exploration,
        rave=settings.rave,
        first_play=settings.first_play,
        solver=settings.solver,
        decisive=settings.decisive,
        betas=betas,
        shrink=shrink,
    )


def fits(position: SearchPosition, settings: SearchSettings) -> bool:
    """Whether `position`'s game keeps a compiled tree for a search with
    `settings` there (Vacu and Convacu in play, compiled, with RAVE)."""
    return compiled_tree(position, settings) is not None


def search(
    position: SearchPosition, budget: Budget, rng: random.Random, settings: SearchSettings
) -> Analysis:
    """`mcts.search` for a position that `fits`, in its compiled tree."""
    started = time.perf_counter()
    tree = compiled_tree(position, settings)
    if tree is None:
        raise ValueError("the position's game keeps no compiled tree for this search")
    return search_tree(tree, position, budget, rng, started)


def search_tree(
    tree: CompiledTree,
    position: SearchPosition,
    budget: Budget,
    rng: random.Random,
    started: float | None = None,
) -> Analysis:
    """Search in `tree` (new, rooted at `position`) within `budget`, which
    runs from `started` (by default now): the analysis the Python tree
    gives from the same seed (the budget kept the same way: a batch of
    iterations starts only if, at the slowest rate seen, it ends before
    the deadline; the first iteration always runs). Growing the tree's
    arrays copies them (a tenth of a second at millions of nodes), so a
    time-bound search grows them at once to what the rest of its time will
    likely use (new arrays cost nothing until written), and a growth that
    might not end well before the deadline ends the search instead."""
    if started is None:
        started = time.perf_counter()
    deadline = None if budget.seconds is None else started + budget.seconds * (1 - RESERVE)
    limit = budget.iterations
    iterations = 0
    seeds: list[int] = []  # drawn for a batch and not used by it: the next one's first
    cost = 0.0  # the most one iteration has cost on average over a batch
    per_slot = 0.0  # the most a growth has taken per slot of the arrays it copied
    now = started
    while not tree.solved():
        n = FIRST_BATCH if not cost else max(1, int(BATCH_SECONDS / cost))
        if limit is not None:
            n = min(n, limit - iterations)
            if n <= 0:
                break
        if not tree.has_room(n):
            copied = tree.capacity
            if deadline is not None and iterations > 0 and now + 2 * per_slot * copied >= deadline:
                break
            tree.grow(n, projected(tree.nodes, started, now, deadline))
            before, now = now, time.perf_counter()
            per_slot = max(per_slot, (now - before) / copied)
        if deadline is not None and iterations > 0:
            n = min(n, int((deadline - now) / max(cost, 1e-9)))
            if n <= 0:
                break
        seeds.extend(rng.getrandbits(64) for _ in range(n - len(seeds)))
        done, used = tree.iterate(n, seeds)
        del seeds[:used]
        iterations += done
        before, now = now, time.perf_counter()
        cost = max(cost, (now - before) / max(done, 1))
    root = _node(tree.root())
    root.children = [_node(child) for child in tree.children()]
    root.untried = []
    return root_analysis(root, position, iterations, time.perf_counter() - started)


def projected(nodes: int, started: float, now: float, deadline: float | None) -> int:
    """How many nodes a search holding `nodes` at `now` will likely hold at
    `deadline` (0 without one): the nodes so far, at the rate so far, with
    a quarter more. The tree grows about as fast late in a search as early
    (6 s Convacu searches passed 1, 2 and 4 million nodes at 1.2, 2.6 and
    5.4 s)."""
    if deadline is None or now <= started:
        return 0
    rate = nodes / (now - started)
    return min(int(rate * (deadline - started) * 1.25), MOST_PROJECTED)


@cache
def _tables(rave: float) -> tuple[Any, Any]:
    """`tree.rave_tables` as float64 arrays, made once: the very numbers
    the Python tree uses, which the compiled tree takes as they are."""
    import numpy as np  # (with the compiled tree: a search's, not an import's)

    betas, shrink = rave_tables(rave)
    return np.array(betas), np.array(shrink)


def _node(counts: TreeNode) -> Node:
    """A compiled tree's node as a Python tree's (its counts)."""
    return Node(
        counts.move,
        counts.to_move,
        None,
        visits=counts.visits,
        value=counts.value,
        solved=counts.solved,
    )


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the compiled trees now, on
    a tiny board of each game that keeps one, so that no bot's first move
    waits for them."""
    how = SearchSettings(rave=300.0)
    for name in ("vacu", "convacu"):
        state = get_game(name).start(["-size=5", "-komi=2"])
        position = state.search_position()
        if fits(position, how):
            search(position, Budget(iterations=20), random.Random(1), how)
