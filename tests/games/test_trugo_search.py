"""The Trugo search position agrees with `TrugoState` move by move, draws
every legal move with the same chance, and its random games replay through
the clean API."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import Playout, random_game, score_of
from pbem.games.trugo import TrugoMove, TrugoState
from pbem.games.trugo import search as trugo_search
from pbem.games.trugo.board import MOVE, PASS, PLACE, REMOVE, Board, Move
from pbem.games.trugo.search import (
    CAP,
    MATERIAL_SCALE,
    TrugoSearchPosition,
    material_share,
    play_out,
)
from tests.conftest import examples

TRUGO = get_game("trugo")


def start(size: int = 36, pieces: int = 25, no_stack: bool = False) -> TrugoState:
    words = [f"-size={size}", f"-pieces={pieces}", *(["-no_stack"] if no_stack else [])]
    state = TRUGO.start(words)
    assert isinstance(state, TrugoState)
    return state


def snapshot(position: TrugoSearchPosition) -> dict[str, Any]:
    """Everything a position holds, its board's parts copied."""
    board = position.board
    parts = {name: getattr(board, name) for name in Board.__slots__}
    for name, value in parts.items():
        if isinstance(value, dict | set | list):
            parts[name] = value.copy()
    return {
        **parts,
        "player": position.player,
        "passes": position.passes,
        "result": position.result,
        "on_board": position.on_board[:],
        "changed": set(position.changed),
        "cutoff": position.cutoff,
    }


def assert_same(position: TrugoSearchPosition, state: TrugoState) -> None:
    """The same legal moves (as texts), player to move, board and result."""
    assert position.to_move == state.to_move
    texts = sorted(position.move_text(move) for move in position.legal_moves())
    assert texts == sorted(state.move_text(move) for move in state.legal_moves())
    assert position.on_board == position.board.on_board()
    assert {name: getattr(position.board, name) for name in Board.__slots__} == {
        name: getattr(state.board, name) for name in Board.__slots__
    }
    if state.result is None:
        assert position.passes == state.passes
    else:
        assert position.to_move is None
        assert position.winner == state.result.winner


def lockstep(state: TrugoState, rng: random.Random, turns: int = CAP) -> TrugoState:
    """Play `random_move`s of a search position made from `state` on it and
    on the clean API side by side, checking they agree after every turn."""
    position = state.search_position(cutoff=None)
    assert_same(position, state)
    for _ in range(turns):
        if state.result is not None:
            break
        move = position.random_move(rng)
        position.play(move)
        state = state.play(TrugoMove(move))
        assert_same(position, state)
    return state


@settings(max_examples=examples(50), deadline=None)
@given(
    size=st.sampled_from([1, 2, 4, 10, 20, 36]),
    pieces=st.sampled_from([1, 3, 8, 25]),
    no_stack=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_games_agree_with_the_clean_api_move_by_move(
    size: int, pieces: int, no_stack: bool, seed: int
) -> None:
    lockstep(start(size, pieces, no_stack), random.Random(seed))


@pytest.mark.parametrize("seed", range(4))
def test_default_games_agree_to_the_end(seed: int) -> None:
    end = lockstep(start(), random.Random(seed))
    assert end.result is not None


def test_passes_agree_with_the_clean_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random Trugo games hardly ever pass, so here no tile may be removed (in
    both APIs alike): players with no piece move pass, a pass captures, and
    two in a row draw."""
    monkeypatch.setattr(Board, "removable", lambda self, cid: False)
    seen: Counter[str] = Counter()
    for seed in range(16):
        size, pieces, no_stack = (5, 2, False) if seed % 2 else (12, 4, True)
        end = lockstep(start(size, pieces, no_stack), random.Random(seed), turns=60)
        texts = [record.text for record in end.history]
        seen["pass"] += "pass" in texts
        seen["double pass"] += texts[-2:] == ["pass", "pass"] and end.result is not None
    assert seen["pass"] > 4
    assert seen["double pass"] > 2


def test_a_search_position_continues_a_game_of_the_clean_api() -> None:
    rng = random.Random(3)
    state = start(16, 5)
    for _ in range(20):
        state = state.play(rng.choice(state.legal_moves()))
    assert state.result is None and state.board.stacks
    lockstep(state, rng)


def test_a_finished_game_has_no_search_position() -> None:
    state = lockstep(start(4, 1), random.Random(1))
    assert state.result is not None
    resigned = start().ended("White resigned", 1)
    for over in (state, resigned):
        with pytest.raises(ValueError, match="game is over"):
            over.search_position()


def test_moves_are_the_engine_triples_and_their_texts_the_clean_ones() -> None:
    state = start()
    position = state.search_position(cutoff=None)
    assert [position.move_text(move) for move in position.legal_moves()] == ["a0,0", "b0,0", "c0,0"]
    rng = random.Random(4)
    for _ in range(50):
        state = state.play(rng.choice(state.legal_moves()))
    assert state.result is None and state.phase == "waning"
    position = state.search_position(cutoff=None)
    assert position.legal_moves() == [move.raw for move in state.legal_moves()]
    assert {move.raw[0] for move in state.legal_moves()} == {REMOVE, MOVE}


# -- copies -------------------------------------------------------------------------


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 80))
def test_a_copy_is_independent(seed: int, turns: int) -> None:
    rng = random.Random(seed)
    position = start(20, 6).search_position(cutoff=None)
    for _ in range(turns):
        if position.to_move is None:
            return
        position.play(position.random_move(rng))
    if position.to_move is None:
        return
    before = snapshot(position)
    copy = position.copy()
    assert snapshot(copy) == before
    play_out(copy, rng)
    assert snapshot(position) == before
    assert position.copy().play_out(random.Random(seed)) == position.copy().play_out(
        random.Random(seed)
    )


# -- random moves ---------------------------------------------------------------------


def find_position(waning: bool) -> TrugoState:
    """A position with tile moves and piece moves; when waning, with tiles
    that cannot be removed too, so that the draw rejects some."""
    rng = random.Random(2027)
    while True:
        state = start(20, 6)
        while state.result is None:
            legal = [move.raw for move in state.legal_moves()]
            kinds = Counter(raw[0] for raw in legal)
            if waning and 0 < kinds[REMOVE] < len(state.board.tiles) and kinds[MOVE] >= 4:
                return state
            if not waning and state.board.tiles and kinds[MOVE] >= 6:
                return state
            state = state.play(TrugoMove(rng.choice(legal)))


@pytest.mark.parametrize("max_draws", [0, 2, trugo_search.MAX_DRAWS])
@pytest.mark.parametrize("waning", [False, True])
def test_random_move_is_uniform_over_the_legal_moves(
    waning: bool, max_draws: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square of many draws from one position against its legal moves."""
    monkeypatch.setattr(trugo_search, "MAX_DRAWS", max_draws)
    position = find_position(waning).search_position(cutoff=None)
    legal = position.legal_moves()
    before = snapshot(position)
    rng = random.Random(8)
    runs = 40 * len(legal)
    drawn: Counter[Hashable] = Counter(position.random_move(rng) for _ in range(runs))
    assert snapshot(position) == before
    assert set(drawn) <= set(legal), "drew a move that is not legal"
    expected = runs / len(legal)
    statistic = sum((drawn[move] - expected) ** 2 / expected for move in legal)
    freedom = len(legal) - 1
    assert abs(statistic - freedom) < 6 * (2 * freedom) ** 0.5, (statistic, freedom)


# -- random games -----------------------------------------------------------------------


def replay(state: TrugoState, record: list[Move]) -> TrugoState:
    """Play recorded moves through the clean API, each one legal there."""
    for number, raw in enumerate(record, start=1):
        assert state.result is None, f"move {number} follows the end of the game"
        assert raw in {move.raw for move in state.legal_moves()}, f"move {number} is illegal"
        state = state.play(TrugoMove(raw))
    return state


def assert_replays(state: TrugoState, seed: int, cutoff: int | None = None) -> Playout:
    """`play_out` from `state` replays through the clean API to the same end."""
    position = state.search_position(cutoff)
    record: list[Move] = []
    playout = play_out(position, random.Random(seed), record)
    end = replay(state, record)
    assert playout.turns == len(record)
    assert playout.placed == sum(raw[0] == PLACE for raw in record)
    assert_same(position, end)
    if playout.capped:
        assert end.result is None
        assert playout.turns == (CAP if cutoff is None else cutoff)
        assert playout.winner is None
        assert playout.score == material_share(end.board)
    else:
        assert end.result is not None
        assert playout.winner == end.result.winner
        assert playout.score == score_of(end.result.winner)
    return playout


@settings(max_examples=examples(40), deadline=None)
@given(
    size=st.sampled_from([1, 3, 10, 24, 36]),
    pieces=st.sampled_from([1, 4, 25]),
    no_stack=st.booleans(),
    seed=st.integers(0, 2**32),
    cutoff=st.sampled_from([None, 1, 10, 60]),
)
def test_play_out_replays_through_the_clean_api(
    size: int, pieces: int, no_stack: bool, seed: int, cutoff: int | None
) -> None:
    assert_replays(start(size, pieces, no_stack), seed, cutoff)


def test_play_out_from_mid_game_replays_and_passes_too(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    state = start(24, 8)
    for _ in range(30):
        state = state.play(rng.choice(state.legal_moves()))
    for seed in range(4):
        assert_replays(state, seed)
    monkeypatch.setattr(Board, "removable", lambda self, cid: False)
    passes = 0
    for seed in range(10):
        position = start(5, 2).search_position(cutoff=None)
        record: list[Move] = []
        play_out(position, random.Random(seed), record)
        passes += PASS in {raw[0] for raw in record}
        assert_same(position, replay(start(5, 2), record))
    assert passes


def test_a_cut_off_game_scores_the_material() -> None:
    """The pure loop plays in place, so its board is the one scored (the
    compiled twin, which leaves the position used up, is held to the same
    score in test_trugo_compiled.py)."""
    position = TrugoSearchPosition.from_state(start(), cutoff=25)
    playout = position.play_out(random.Random(2))
    assert playout.capped and playout.turns == 25 and playout.winner is None
    assert position.to_move is not None
    assert playout.score == material_share(position.board)
    assert 0.0 < playout.score < 1.0


def test_material_share_is_a_logistic_of_the_lead() -> None:
    board = Board(36, 25, False)
    assert material_share(board) == 0.5
    board.stacks = {1: (0,), 2: (0, 1), 3: (0,)}  # White 3 on the board, Blue 1
    board.hand = [22, 24]  # in hand while the pool has tiles: 25 each in all
    assert material_share(board) == 0.5
    board.hand = [24, 24]
    assert material_share(board) == pytest.approx(1 / (1 + math.exp(-2 / MATERIAL_SCALE)))
    board.pool = 0  # the Waning phase: hands no longer count
    assert material_share(board) == pytest.approx(1 / (1 + math.exp(-2 / MATERIAL_SCALE)))
    board.stacks = {2: (0, 1), 3: (1,)}  # pinned pieces count: White 1, Blue 2
    assert material_share(board) == pytest.approx(1 / (1 + math.exp(1 / MATERIAL_SCALE)))


@pytest.mark.parametrize("seed", range(6))
def test_every_random_game_ends(seed: int) -> None:
    """`play_out` and its slow twin `random_game` (the same moves drawn the
    same way) play the same default games to the end well within the cap;
    both stop at a cap otherwise."""
    state = start()
    fast = play_out(state.search_position(cutoff=None), random.Random(seed))
    position = state.search_position(cutoff=None)
    slow = random_game(position, random.Random(seed), CAP)
    assert position.to_move is None
    assert (slow.score, slow.winner, slow.turns, slow.capped) == (
        fast.score,
        fast.winner,
        fast.turns,
        False,
    )
    assert slow.winner == position.winner
    assert 0 < fast.turns < CAP
    for playout in (
        random_game(state.search_position(cutoff=None), random.Random(seed), 7),
        state.search_position(cutoff=7).play_out(random.Random(seed)),
    ):
        assert playout.capped and playout.turns == 7 and playout.winner is None


def test_the_search_plays_cut_off_games_by_default() -> None:
    from pbem.games.trugo.search import SEARCH_CUTOFF

    state = get_game("trugo").start()
    assert state.search_position().cutoff == SEARCH_CUTOFF
    outcome = state.search_position().play_out(random.Random(3))
    assert outcome.turns <= SEARCH_CUTOFF


@settings(max_examples=examples(120), deadline=None)
@given(
    size=st.sampled_from([6, 10, 16]),
    pieces=st.sampled_from([2, 4, 25]),
    no_stack=st.booleans(),
    turns=st.integers(0, 200),
    seed=st.integers(0, 10**6),
)
def test_may_win_never_hides_a_move_that_wins_at_once(
    size: int, pieces: int, no_stack: bool, turns: int, seed: int
) -> None:
    """Every legal move that ends the game with its mover winning is one
    `may_win` lets through (the search tries only those for a win in one),
    in both phases, with few pieces (so that captures and removals end
    games) or many."""
    state = start(size, pieces, no_stack)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.result is not None:
            return
        position = state.search_position()
        state = state.play_text(position.move_text(position.random_move(rng)))
    if state.result is not None:
        return
    position = state.search_position()
    mover = position.to_move
    for move in position.legal_moves():
        after = position.copy()
        after.play(move)
        if after.to_move is None and after.winner == mover:
            assert position.may_win(move), position.move_text(move)


def test_may_win_lets_through_only_the_moves_that_could_take_every_enemy_piece() -> None:
    """With the opponent's pieces spread over the board, no placement,
    piece move or removal could take them all: the filter spares the search
    every try. Where the mover can take the last pieces (the position of
    tests/ai/test_tactics.py), the few moves let through include the win."""
    state = start(36, 25)
    rng = random.Random(3)
    while len(state.board.stacks) < 12:
        position = state.search_position()
        state = state.play_text(position.move_text(position.random_move(rng)))
    position = state.search_position()
    assert position.to_move is not None
    assert not any(position.may_win(move) for move in position.legal_moves())

    won: Any = TRUGO.start(["-size=12", "-pieces=4"])
    for text in LAST_PIECES.split():
        won = won.play_text(text)
    position = won.search_position()
    mover = position.to_move
    through = [move for move in position.legal_moves() if position.may_win(move)]
    assert 0 < len(through) < len(position.legal_moves())
    for move in through:
        after = position.copy()
        after.play(move)
        if after.to_move is None and after.winner == mover:
            return
    raise AssertionError("no move let through wins")


LAST_PIECES = (
    "c0,0 b1,0 b2,0 b-1,-1 a-2,0 c1,-1 a0,1 c2,-1 a-3,0 b-4,1 a0,2 c3,0 x3,0 2,0w-1,0w x0,2 x2,0"
)


def test_may_win_lets_every_winning_move_through_along_whole_games() -> None:
    """Along 300 whole random games with few pieces (which end by captures,
    by removals and by piece moves), every move that wins at once at any
    point passes the filter; the games hold some of each kind."""
    kinds: Counter[int] = Counter()
    for seed in range(300):
        rng = random.Random(seed)
        pieces = 1 + seed % 4
        position = TrugoSearchPosition.from_state(start(6 + seed % 7, pieces), cutoff=None)
        while position.to_move is not None:
            mover = position.to_move
            for move in position.legal_moves():
                after = position.copy()
                after.play(move)
                if after.to_move is None and after.winner == mover:
                    kinds[move[0]] += 1
                    assert position.may_win(move), position.move_text(move)
            position.play(position.random_move(rng))
    assert kinds[PLACE] and kinds[MOVE] and kinds[REMOVE], kinds
