"""The search on noughts and crosses, where the truth is known: it takes a
win in one, blocks a loss in one, proves what it can, never picks a proven
loss while something else is left, keeps to its budget and is repeatable."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.ai.mcts import Budget, Settings, search
from tests.ai.tictactoe import TicTacToe, solve


def best(cells: str, iterations: int = 2000, seed: int = 1) -> str:
    return search(TicTacToe(cells), Budget(iterations=iterations), random.Random(seed)).best


def test_takes_a_win_in_one() -> None:
    # X to move: X X . / O O . / . . .  -> c2 wins at once
    assert best("XX.OO....", iterations=50) == "c2"


def test_blocks_a_loss_in_one() -> None:
    # O to move: X X . / . O . / . . . -> only c2 stops X's row
    assert best("XX..O....") == "c2"


def test_a_proven_position_ends_the_search_early_with_its_exact_share() -> None:
    analysis = search(TicTacToe("XX.OO...."), Budget(iterations=100_000), random.Random(3))
    assert analysis.proven
    assert analysis.share == 1.0
    assert analysis.iterations < 100_000
    assert analysis.candidates[0].proven and analysis.candidates[0].win_rate == 1.0


def test_a_drawn_position_is_proven_a_draw() -> None:
    # X O X / . O . / . . . with X to move: best play draws
    analysis = search(TicTacToe("XOX.O...."), Budget(iterations=200_000), random.Random(5))
    assert analysis.proven
    assert analysis.share == 0.5


def test_a_lost_position_ranks_its_proven_losses_last() -> None:
    # O to move and lost: X threatens row 0 (c2) and column 0 (c6) at once,
    # and O can block only one.
    analysis = search(TicTacToe("XX.XO...O"), Budget(iterations=5000), random.Random(2))
    assert analysis.proven and analysis.share == 1.0  # X wins whatever O does
    assert all(candidate.win_rate == 0.0 for candidate in analysis.candidates)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=6, unique=True), st.integers(0, 1000))
def test_never_chooses_a_move_that_loses_against_perfect_play_when_it_need_not(
    opening: list[int], seed: int
) -> None:
    position = TicTacToe()
    for cell in opening:
        if position.to_move is None:
            break
        position.play(cell)
    if position.to_move is None:
        return
    player = position.to_move
    value = solve(position)
    own = value if player == 0 else 1 - value
    analysis = search(position, Budget(iterations=3000), random.Random(seed))
    chosen = int(analysis.best[1:])
    after = position.copy()
    after.play(chosen)
    got = solve(after)
    assert (got if player == 0 else 1 - got) == own, (position.cells, analysis.best)


def test_leaves_the_position_it_searched_unchanged() -> None:
    position = TicTacToe("X...O....")
    search(position, Budget(iterations=500), random.Random(1))
    assert position.cells == list("X...O....") and position.to_move == 0


def test_the_same_seed_gives_the_same_analysis() -> None:
    first = search(TicTacToe("X........"), Budget(iterations=800), random.Random(9))
    again = search(TicTacToe("X........"), Budget(iterations=800), random.Random(9))
    assert first.candidates == again.candidates


def test_keeps_to_its_time_budget() -> None:
    started = time.perf_counter()
    analysis = search(TicTacToe(), Budget(seconds=0.2), random.Random(1), Settings(solver=False))
    assert time.perf_counter() - started < 0.5
    assert analysis.iterations > 0


def test_plain_uct_still_plays_legal_moves_and_counts_every_iteration() -> None:
    analysis = search(
        TicTacToe("X...O...."), Budget(iterations=400), random.Random(4), Settings(solver=False)
    )
    assert analysis.iterations == 400
    assert sum(candidate.visits for candidate in analysis.candidates) == 400
    assert {c.move for c in analysis.candidates} <= {f"c{i}" for i in (1, 2, 3, 5, 6, 7, 8)}


def test_a_budget_needs_a_limit_and_an_over_game_has_no_move() -> None:
    with pytest.raises(ValueError, match="needs seconds"):
        Budget()
    with pytest.raises(ValueError, match="over"):
        search(TicTacToe("XXXOO...."), Budget(iterations=1), random.Random(1))
