"""The compiled Vacu and Convacu search (the game's compiled tree,
games/vacu/compiled_tree.py, driven by ai/vacu_tree.py) against the Python
tree it repeats (mcts.tree_search): from the same seed and the same
number of iterations, the same analysis (every ranked move's visits and
win rate, the root's share, what is proven), over random positions of
both games, every size and phase of play, and several settings; however
its iterations fall into batches; within a time budget; and only where it
fits."""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.ai import mcts, vacu_tree
from pbem.ai.levels import knowledge
from pbem.ai.mcts import Analysis, Budget, SearchSettings
from pbem.games.base import CompiledTreePosition
from pbem.games.vacu import VacuState
from pbem.games.vacu.compiled_tree import VacuTree
from pbem.games.vacu.search import VacuSearchPosition
from tests.conftest import examples
from tests.games.test_vacu_compiled import position_after as after
from tests.processes import Processes

RAVE = knowledge("vacu")
HOWS = [
    RAVE,
    SearchSettings(exploration=0.5, rave=50.0),
    SearchSettings(exploration=0.2, rave=300.0, decisive=False),
    SearchSettings(exploration=0.3, rave=1000.0, solver=False),
    SearchSettings(exploration=0.2, rave=300.0, first_play=0.6),
]


def seen(analysis: Analysis) -> tuple[Any, ...]:
    """What a search found, without its wall time."""
    return (analysis.candidates, analysis.iterations, analysis.share, analysis.proven)


def both(state: VacuState, iterations: int, seed: int, how: SearchSettings) -> Analysis:
    position = state.search_position()
    assert vacu_tree.fits(position, how)
    budget = Budget(iterations=iterations)
    python = mcts.tree_search(state.search_position(), budget, random.Random(seed), how)
    fast = vacu_tree.search(position, budget, random.Random(seed), how)
    assert seen(fast) == seen(python)
    return fast


@settings(max_examples=examples(60), deadline=None)
@given(
    name=st.sampled_from(["vacu", "convacu"]),
    size=st.integers(5, 9),
    komi=st.sampled_from([None, -2, 0, 5]),
    turns=st.integers(0, 90),
    iterations=st.sampled_from([1, 30, 400]),
    how=st.sampled_from(HOWS),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_same_analysis_from_the_same_seed(
    name: str,
    size: int,
    komi: int | None,
    turns: int,
    iterations: int,
    how: SearchSettings,
    seed: int,
) -> None:
    state = after(name, size, komi, turns + 2, seed)  # past a komi step's two turns
    if state.result is not None or state.komi is None or state.black is None:
        return
    both(state, iterations, seed, how)


@pytest.mark.parametrize("name", ["vacu", "convacu"])
def test_endgames_agree_where_the_solver_works(name: str) -> None:
    """Late positions of small boards, where wins in one, proven moves and
    whole solved roots are common: the same proofs."""
    proven = 0
    for seed in range(40):
        state = after(name, 5, 2, 14 + seed % 11, seed)
        if state.result is None:
            proven += both(state, 2000, seed, RAVE).proven
    assert proven  # some root was solved: the solver's path was compared


@pytest.mark.parametrize("batch", [1e-9, 1.0])
def test_batches_do_not_change_the_search(batch: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """One iteration a call, or all of them in one: the same search."""
    monkeypatch.setattr(vacu_tree, "BATCH_SECONDS", batch)
    monkeypatch.setattr(vacu_tree, "FIRST_BATCH", 1 if batch < 1 else 10_000)
    for seed in range(3):
        both(after("convacu", 7, 3, 10 + seed, seed), 300, seed, RAVE)


def test_keeps_to_its_time_and_runs_more_than_python() -> None:
    state = after("vacu", 9, 6, 10, 3)
    budget = Budget(seconds=0.3)
    vacu_tree.warm_up()  # loaded, not loading inside the timed search
    fast = vacu_tree.search(state.search_position(), budget, random.Random(1), RAVE)
    python = mcts.tree_search(state.search_position(), budget, random.Random(1), RAVE)
    assert fast.seconds <= 0.3
    assert fast.iterations > 2 * python.iterations


def test_a_slow_growth_of_the_tree_never_runs_past_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Growing the tree's arrays copies them (a tenth of a second at
    millions of nodes, which once made a 6 s move take 6.035 s): with each
    growth made to take 0.2 s, a search of 0.5 s stops rather than grow
    a second time, where growing would end at 0.6 s or later."""
    grow = VacuTree.grow

    def slow(self: Any, n: int, projected: int = 0) -> None:
        time.sleep(0.2)
        grow(self, n, projected)

    state = after("vacu", 9, 6, 4, 3)
    vacu_tree.warm_up()  # loaded, not loading inside the timed search
    monkeypatch.setattr(VacuTree, "grow", slow)
    analysis = vacu_tree.search(
        state.search_position(),
        Budget(seconds=0.5),
        random.Random(1),
        RAVE,
    )
    assert analysis.seconds <= 0.5
    assert analysis.iterations > 16_384 // 123  # it did grow once: more than the first arrays hold


def test_a_timed_search_grows_its_tree_early_and_seldom(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search with a deadline grows its arrays to what its time will
    likely use, not by doubling to the end: 6 s Convacu searches copied
    their tree seven times, the last (over 0.12 s, at 4 million nodes)
    in their last half second. A 1 s search grew five times before."""
    grow = VacuTree.grow
    sizes: list[int] = []

    def counted(self: Any, n: int, projected: int = 0) -> None:
        grow(self, n, projected)
        sizes.append(self.capacity)

    state = after("convacu", 9, 6, 4, 3)
    vacu_tree.warm_up()
    monkeypatch.setattr(VacuTree, "grow", counted)
    analysis = vacu_tree.search(
        state.search_position(),
        Budget(seconds=1.0),
        random.Random(1),
        RAVE,
    )
    assert analysis.seconds <= 1.0
    assert 1 <= len(sizes) <= 3, sizes
    assert analysis.iterations > 1_000


def test_search_takes_the_compiled_tree_where_it_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    compiled_search = vacu_tree.search_tree

    def spy(*args: Any) -> Analysis:
        calls.append(args[0])
        return compiled_search(*args)

    monkeypatch.setattr(vacu_tree, "search_tree", spy)
    playing = after("convacu", 7, 3, 4, 1)
    komi_step = after("convacu", 7, None, 0, 1)
    colour_step = after("convacu", 7, None, 1, 1)
    for state in (playing, komi_step, colour_step):
        mcts.search(state.search_position(), Budget(iterations=20), random.Random(1), RAVE)
    mcts.search(
        playing.search_position(), Budget(iterations=20), random.Random(1), SearchSettings()
    )
    assert len(calls) == 1  # in play, with RAVE: not the komi or colour step, not plain UCT


def test_fits_only_compiled_positions_in_play_searched_with_rave() -> None:
    playing = after("vacu", 7, 3, 4, 1)
    assert vacu_tree.fits(playing.search_position(), RAVE)
    assert not vacu_tree.fits(playing.search_position(), SearchSettings())
    pure = VacuSearchPosition.from_state(playing)  # the pure twin: no compiled random games
    assert not vacu_tree.fits(pure, RAVE)
    assert not vacu_tree.fits(after("vacu", 7, None, 0, 1).search_position(), RAVE)
    assert not vacu_tree.fits(after("vacu", 7, None, 1, 1).search_position(), RAVE)
    with pytest.raises(ValueError, match="no compiled tree"):
        vacu_tree.search(pure, Budget(iterations=5), random.Random(1), RAVE)


def test_the_tree_is_the_game_s_behind_its_search_position() -> None:
    """The contract's `CompiledTreePosition`: the compiled Vacu position
    offers its tree, the pure twin none; a tree made and read back through
    the contract alone counts every iteration at its root."""
    playing = after("convacu", 7, 3, 4, 1)
    position = playing.search_position()
    assert isinstance(position, CompiledTreePosition)
    assert not isinstance(VacuSearchPosition.from_state(playing), CompiledTreePosition)
    tree = vacu_tree.compiled_tree(position, RAVE)
    assert tree is not None and tree.nodes == 1 and not tree.children()
    seeds = random.Random(1)
    assert tree.iterate(50, [seeds.getrandbits(64) for _ in range(50)]) == (50, 50)
    root, children = tree.root(), tree.children()
    assert root.visits == 50 and root.to_move == playing.to_move and root.solved is None
    assert sum(child.visits for child in children) == 50  # (the root lists its moves at once)
    assert {child.move for child in children} == set(position.legal_moves())


@pytest.mark.usefixtures("numba_cache")
def test_loads_from_numba_s_cache_in_under_two_seconds(processes: Processes) -> None:
    """Once a first process compiled the search and wrote numba's cache, a
    later one (a bot's search process starting) loads it in well under the
    time of one move: under two seconds of CPU (a compile takes tens)."""
    timed = (
        "import time; t = time.process_time(); "
        "from pbem.ai import vacu_tree; vacu_tree.warm_up(); print(time.process_time() - t)"
    )
    out = processes.run([sys.executable, "-c", timed], check=True, timeout=120)
    assert float(out.stdout) < 2.0, f"warm-up took {out.stdout!r} s of CPU"
