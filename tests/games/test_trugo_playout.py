"""The fast Trugo playout agrees with `TrugoState` and draws every legal move
with the same probability."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.trugo import TrugoMove, TrugoState
from pbem.games.trugo import playout as trugo_playout
from pbem.games.trugo import search as trugo_search
from pbem.games.trugo.board import MOVE, ORIGIN, PASS, PASS_MOVE, PLACE, REMOVE, Board, Move
from pbem.games.trugo.playout import Playout, play_out, random_move, random_playout
from tests.conftest import examples

TRUGO = get_game("trugo")


def words(size: int, pieces: int, no_stack: bool) -> list[str]:
    return [f"-size={size}", f"-pieces={pieces}", *(["-no_stack"] if no_stack else [])]


def replay(start: TrugoState, record: list[Move]) -> TrugoState:
    """Play the recorded raw moves through the clean API, each one legal there."""
    state = start
    for number, raw in enumerate(record, start=1):
        assert state.result is None, f"move {number} follows the end of the game"
        legal = {move.raw for move in state.legal_moves()}
        assert raw in legal, f"move {number} {TrugoMove(raw).text} is not legal"
        state = state.play(TrugoMove(raw))
    return state


def snapshot(board: Board) -> dict[str, Any]:
    return {name: getattr(board, name) for name in Board.__slots__}


def assert_agree(playout: Playout, record: list[Move], board: Board, state: TrugoState) -> None:
    """The playout and the replayed state end in the same position and result."""
    assert playout.moves == len(record)
    assert playout.tiles == sum(raw[0] == PLACE for raw in record)
    assert snapshot(board) == snapshot(state.board)
    end = TrugoState(state.game, state.options, board, None, (), None)
    assert end.position() == state.position()
    if playout.capped:
        assert state.result is None
        assert state.to_move is not None
    else:
        assert state.result is not None
        assert playout.winner == state.result.winner


def play_and_replay(
    size: int, pieces: int, no_stack: bool, seed: int, cap: int = trugo_playout.CAP
) -> tuple[Playout, list[Move]]:
    board = Board(size, pieces, no_stack)
    record: list[Move] = []
    playout = play_out(board, 0, random.Random(seed), record, cap)
    state = replay(TRUGO.start(words(size, pieces, no_stack)), record)
    assert_agree(playout, record, board, state)
    return playout, record


@pytest.mark.parametrize("seed", range(6))
def test_default_games_replay_through_the_clean_api(seed: int) -> None:
    playout, record = play_and_replay(36, 25, False, seed)
    assert playout.tiles == 36
    assert not playout.capped
    assert {raw[0] for raw in record} >= {PLACE, REMOVE, MOVE}


@settings(max_examples=examples(60), deadline=None)
@given(
    size=st.integers(1, 24),
    pieces=st.integers(1, 8),
    no_stack=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_small_games_replay_through_the_clean_api(
    size: int, pieces: int, no_stack: bool, seed: int
) -> None:
    play_and_replay(size, pieces, no_stack, seed)


def test_random_playout_is_play_out_on_a_new_board() -> None:
    record: list[Move] = []
    playout = random_playout(12, random.Random(5), record, pieces=4, no_stack=True)
    again: list[Move] = []
    assert play_out(Board(12, 4, True), 0, random.Random(5), again) == playout
    assert again == record


def test_a_game_stops_at_the_cap_undecided() -> None:
    playout, record = play_and_replay(36, 25, False, 1, cap=40)
    assert playout == Playout(None, 40, playout.tiles, capped=True)
    assert len(record) == 40


def test_play_out_continues_a_state_of_the_clean_api() -> None:
    rng = random.Random(11)
    state = TRUGO.start(words(16, 5, False))
    for _ in range(12):
        state = state.play(rng.choice(state.legal_moves()))
    assert state.result is None
    assert state.board.stacks
    board = state.board.copy()
    record: list[Move] = []
    assert state.to_move is not None
    playout = play_out(board, state.to_move, rng, record, passes=state.passes)
    assert_agree(playout, record, board, replay(state, record))


def test_passes_capture_and_two_in_a_row_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random Trugo games never pass (some tile can always be removed), so here
    no tile may be removed, in the clean API and the playout alike: players
    with no piece move pass, and the pass rules are exercised."""
    monkeypatch.setattr(Board, "removable", lambda self, cid: False)
    seen: Counter[str] = Counter()
    for seed in range(40):
        size, pieces, no_stack = (5, 2, False) if seed % 2 else (12, 4, True)
        playout, record = play_and_replay(size, pieces, no_stack, seed, cap=60)
        kinds = [raw[0] for raw in record]
        seen["pass"] += PASS in kinds
        seen["double pass"] += kinds[-2:] == [PASS, PASS] and not playout.capped
        seen["capped"] += playout.capped
    assert seen["pass"] > 10
    assert seen["double pass"] > 5
    assert seen["capped"] > 0


def test_a_pass_captures(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone Blue piece, surrounded and unable to move, is taken when Blue
    passes, and White wins: found among random tilings with pieces set by hand
    (no tile may be removed here, as above, so that Blue must pass)."""
    monkeypatch.setattr(Board, "removable", lambda self, cid: False)
    rng = random.Random(84)
    while True:
        board = Board(10, 0, True)
        board.place(ORIGIN, rng.randrange(3))
        while board.pool:
            board.place(rng.choice(sorted(board.frontier)), rng.randrange(3))
        junctions = sorted(v for v, count in board.count.items() if count == 3)
        blue = rng.choice(junctions)
        board.stacks = {v: (0,) for v in junctions if rng.random() < 0.8} | {blue: (1,)}
        if board.legal_moves(1) == [PASS_MOVE] and board.surrounded_groups(1):
            break
    state = TrugoState(TRUGO, TRUGO.options(size=10, no_stack=True), board.copy(), 1, (), None)
    record: list[Move] = []
    playout = play_out(board, 1, rng, record)
    assert record[0] == PASS_MOVE
    assert playout.winner == 0
    assert_agree(playout, record, board, replay(state, record))


# -- uniformity -------------------------------------------------------------------


def find_position(waning: bool) -> TrugoState:
    """A position with tile moves and piece moves; when waning, with tiles
    that cannot be removed too, so that the draw rejects some."""
    rng = random.Random(2026)
    while True:
        state = TRUGO.start(words(20, 6, False))
        while state.result is None:
            legal = [move.raw for move in state.legal_moves()]
            kinds = Counter(raw[0] for raw in legal)
            if waning and 0 < kinds[REMOVE] < len(state.board.tiles) and kinds[MOVE] >= 4:
                return state
            if not waning and state.board.tiles and kinds[MOVE] >= 6:
                return state
            state = state.play(TrugoMove(rng.choice(legal)))


@pytest.mark.parametrize("max_draws", [0, 1, trugo_search.MAX_DRAWS])
@pytest.mark.parametrize("waning", [False, True])
def test_random_move_is_uniform_over_the_legal_moves(
    waning: bool, max_draws: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square of many draws from one position against the legal moves."""
    monkeypatch.setattr(trugo_search, "MAX_DRAWS", max_draws)
    state = find_position(waning)
    assert state.phase == ("waning" if waning else "waxing")
    assert state.to_move is not None
    legal = [move.raw for move in state.legal_moves()]
    before = snapshot(state.board.copy())
    rng = random.Random(7)
    runs = 40 * len(legal)
    drawn = Counter(random_move(state.board, state.to_move, rng) for _ in range(runs))
    assert snapshot(state.board) == before
    assert set(drawn) <= set(legal), "drew a move that is not legal"
    expected = runs / len(legal)
    statistic = sum((drawn[raw] - expected) ** 2 / expected for raw in legal)
    freedom = len(legal) - 1
    assert statistic < freedom + 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert statistic > freedom - 6 * (2 * freedom) ** 0.5, (statistic, freedom)
