"""The search on noughts and crosses, where the truth is known: it takes a
win in one, blocks a loss in one, proves what it can, never picks a proven
loss while something else is left, keeps to its budget and is repeatable;
with RAVE as without, and RAVE counts each playout's moves as it says."""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.ai import mcts
from pbem.ai.mcts import Budget, SearchSettings, new_node, search
from tests.ai.tictactoe import TicTacToe, solve
from tests.conftest import examples

PLAIN = SearchSettings()
RAVE = SearchSettings(rave=300, exploration=0.2)
BOTH = pytest.mark.parametrize("how", [SearchSettings(), RAVE], ids=["uct", "rave"])


def best(cells: str, iterations: int = 2000, seed: int = 1, how: SearchSettings = PLAIN) -> str:
    budget = Budget(iterations=iterations)
    return search(TicTacToe(cells), budget, random.Random(seed), how).best


@BOTH
def test_takes_a_win_in_one(how: SearchSettings) -> None:
    # X to move: X X . / O O . / . . .  -> c2 wins at once
    assert best("XX.OO....", iterations=50, how=how) == "c2"


@BOTH
def test_blocks_a_loss_in_one(how: SearchSettings) -> None:
    # O to move: X X . / . O . / . . . -> only c2 stops X's row
    assert best("XX..O....", how=how) == "c2"


@BOTH
def test_a_proven_position_ends_the_search_early_with_its_exact_share(how: SearchSettings) -> None:
    budget = Budget(iterations=100_000)
    analysis = search(TicTacToe("XX.OO...."), budget, random.Random(3), how)
    assert analysis.proven
    assert analysis.share == 1.0
    assert analysis.iterations < 100_000
    assert analysis.candidates[0].proven and analysis.candidates[0].win_rate == 1.0


def test_a_drawn_position_is_proven_a_draw() -> None:
    # X O X / . O . / . . . with X to move: best play draws
    budget = Budget(iterations=200_000)
    analysis = search(TicTacToe("XOX.O...."), budget, random.Random(5))
    assert analysis.proven
    assert analysis.share == 0.5


def test_rave_finds_the_drawing_move_of_a_drawn_position() -> None:
    """RAVE's small exploration proves draws slowly (every reply must be
    proven), but it plays the one move that holds the draw."""
    position = TicTacToe("XOX.O....")
    analysis = search(position, Budget(iterations=20_000), random.Random(5), RAVE)
    after = position.copy()
    after.play(int(analysis.best[1:]))
    assert solve(after) == 0.5
    assert analysis.share == pytest.approx(0.5, abs=0.05)


@BOTH
def test_a_lost_position_ranks_its_proven_losses_last(how: SearchSettings) -> None:
    # O to move and lost: X threatens row 0 (c2) and column 0 (c6) at once,
    # and O can block only one.
    analysis = search(TicTacToe("XX.XO...O"), Budget(iterations=5000), random.Random(2), how)
    assert analysis.proven and analysis.share == 1.0  # X wins whatever O does
    assert all(candidate.win_rate == 0.0 for candidate in analysis.candidates)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.integers(0, 8), max_size=6, unique=True),
    st.integers(0, 1000),
    st.sampled_from([SearchSettings(), RAVE]),
)
def test_never_chooses_a_move_that_loses_against_perfect_play_when_it_need_not(
    opening: list[int], seed: int, how: SearchSettings
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
    analysis = search(position, Budget(iterations=3000), random.Random(seed), how)
    chosen = int(analysis.best[1:])
    after = position.copy()
    after.play(chosen)
    got = solve(after)
    assert (got if player == 0 else 1 - got) == own, (position.cells, analysis.best)


def test_leaves_the_position_it_searched_unchanged() -> None:
    position = TicTacToe("X...O....")
    search(position, Budget(iterations=500), random.Random(1))
    assert position.cells == list("X...O....") and position.to_move == 0


@BOTH
def test_the_same_seed_gives_the_same_analysis(how: SearchSettings) -> None:
    first = search(TicTacToe("X........"), Budget(iterations=800), random.Random(9), how)
    again = search(TicTacToe("X........"), Budget(iterations=800), random.Random(9), how)
    assert first.candidates == again.candidates


@pytest.mark.parametrize("how", [SearchSettings(solver=False), RAVE], ids=["plain", "rave"])
def test_keeps_to_its_time_budget(how: SearchSettings) -> None:
    """A search of 0.2 s stops near then: it reads the clock, and its CPU
    (which other processes on the machine cannot stretch, as they can the
    wall time the test would see) stays within the budget and a margin."""
    started = time.process_time()
    analysis = search(TicTacToe(), Budget(seconds=0.2), random.Random(1), how)
    assert time.process_time() - started < 0.5
    assert analysis.iterations > 0


class Clock:
    """The search's clock, moved on only by the games it plays."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


class Slow(TicTacToe):
    """Noughts and crosses whose random games take 30 ms each, by `clock`
    (exactly, whatever else the machine is doing)."""

    clock: ClassVar[Clock]

    def copy(self) -> Slow:
        other = Slow("".join(self.cells))
        other._to_move, other._winner = self._to_move, self._winner
        return other

    def play_out(self, rng: random.Random, record: list[Any] | None = None) -> Any:
        Slow.clock.now += 0.03
        return super().play_out(rng, record)


@pytest.mark.parametrize("how", [SearchSettings(solver=False), RAVE], ids=["plain", "rave"])
def test_an_iteration_starts_only_if_it_can_end_within_the_budget(
    how: SearchSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 30 ms iterations and 0.1 s, reading the clock before each would
    start a fourth at 90 ms and end at 120; the search stops after three."""
    Slow.clock = Clock()
    monkeypatch.setattr(mcts, "time", Slow.clock)
    analysis = search(Slow(), Budget(seconds=0.1), random.Random(1), how)
    assert analysis.seconds == pytest.approx(0.09)
    assert analysis.iterations == 3


def test_plain_uct_still_plays_legal_moves_and_counts_every_iteration() -> None:
    analysis = search(
        TicTacToe("X...O...."),
        Budget(iterations=400),
        random.Random(4),
        SearchSettings(solver=False),
    )
    assert analysis.iterations == 400
    assert sum(candidate.visits for candidate in analysis.candidates) == 400
    assert {c.move for c in analysis.candidates} <= {f"c{i}" for i in (1, 2, 3, 5, 6, 7, 8)}


def test_a_budget_needs_a_limit_and_an_over_game_has_no_move() -> None:
    with pytest.raises(ValueError, match="needs seconds"):
        Budget()
    with pytest.raises(ValueError, match="over"):
        search(TicTacToe("XXXOO...."), Budget(iterations=1), random.Random(1))


class Recorded(TicTacToe):
    """Noughts and crosses whose playouts are written down (`PLAYED`), to
    check RAVE's counts against them."""

    PLAYED: ClassVar[list[tuple[list[object], list[Any]]]] = []

    def copy(self) -> Recorded:
        other = Recorded("".join(self.cells))
        other._to_move, other._winner = self._to_move, self._winner
        other.path = list(self.path)
        return other

    def __init__(self, cells: str = ".........") -> None:
        super().__init__(cells)
        self.path: list[object] = []  # the moves played on this copy

    def play(self, move: object) -> None:
        self.path.append(move)
        super().play(move)

    def play_out(self, rng: random.Random, record: list[Any] | None = None) -> Any:
        played: list[Any] = []
        walked = list(self.path)
        outcome = super().play_out(rng, played)
        Recorded.PLAYED.append((walked, played))
        if record is not None:
            record.extend(played)
        return outcome


def test_rave_counts_every_later_move_of_the_player_to_move_once() -> None:
    """After some iterations from the empty board, the root's AMAF count of
    each move is the number of iterations in which X played it anywhere
    below the root (in the walk or the playout), and its sum the sum of
    those iterations' results; the root's children are every move."""
    Recorded.PLAYED = []
    start = Recorded()
    root = new_node(start, None)
    rng = random.Random(4)
    for _ in range(60):
        mcts._iterate(root, start.copy(), rng, RAVE)
    assert root.by_move is not None and root.visits == 60
    assert {child.move for child in root.children} == set(range(9))
    expected: dict[object, list[float]] = {move: [0, 0.0] for move in range(9)}
    results = []
    for walked, played in Recorded.PLAYED:
        moves = walked + played
        board = TicTacToe()
        for move in moves:
            board.play(move)
        result = 0.5 if board.winner is None else 1.0 - board.winner
        results.append(result)
        for move in set(moves[0::2]):  # X's moves: X moves first
            expected[move][0] += 1
            expected[move][1] += result
    # iterations ending on a proven (finished) node play no playout: none here
    assert len(Recorded.PLAYED) == 60
    counted = {move: [child.amaf_visits, child.amaf_value] for move, child in root.by_move.items()}
    assert {move: [c, pytest.approx(v)] for move, (c, v) in expected.items()} == counted
    assert root.value == pytest.approx(sum(results))
