"""The fast random playout draws every legal move with the same probability."""

from __future__ import annotations

import random
from collections import Counter

from pbem.games import get_game
from pbem.games.vasco.board import Board
from pbem.games.vasco.playout import random_playout

VASCO = get_game("vasco")


def test_first_two_moves_are_uniform_over_the_legal_moves() -> None:
    """Chi-square over (first move, second move) pairs: each second move is
    expected n / 6 / (legal replies to that first move) times."""
    rng = random.Random(20260101)
    runs = 6000
    pairs: Counter[tuple[tuple[int, int], tuple[int, int]]] = Counter()
    for _ in range(runs):
        record: list[tuple[int, int]] = []
        random_playout(54, rng, record)
        pairs[record[0], record[1]] += 1
    statistic = 0.0
    categories = 0
    for orientation in range(6):
        board = Board()
        first = board.attempt(board.candidate_cells().pop(), orientation, 54)
        assert isinstance(first, list)
        board.commit(first)
        replies = board.legal_moves(53)
        expected = runs / 6 / len(replies)
        for reply in replies:
            observed = pairs.pop(((first[0], orientation), reply), 0)
            statistic += (observed - expected) ** 2 / expected
        categories += len(replies)
    assert not pairs, "the playout drew a move that is not legal"
    freedom = categories - 1
    assert statistic < freedom + 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert statistic > freedom - 6 * (2 * freedom) ** 0.5, (statistic, freedom)
