"""Vasco's search position agrees with the clean `VascoState` (hypothesis and
seeded random games), draws uniformly, copies independently, always ends,
and judges a win in one exactly."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import random_game, score_of
from pbem.games.vasco import VascoState
from pbem.games.vasco import search as vasco_search
from pbem.games.vasco.playout import random_playout
from pbem.games.vasco.search import (
    VascoSearchPosition,
    move_placement,
    search_move,
    search_move_text,
)
from tests.conftest import examples

VASCO = get_game("vasco")
NO_LEGAL_MOVE_GAME = ("f0,0", "f1,-1", "f2,0")  # -size=5: Red cannot move after it


def start(size: int, strict: bool = False) -> VascoState:
    state = VASCO.start([f"-size={size}", *(["-strict"] if strict else [])])
    assert isinstance(state, VascoState)
    return state


def texts(position: VascoSearchPosition) -> list[str]:
    return sorted(position.move_text(move) for move in position.legal_moves())


def clean_texts(state: VascoState) -> list[str]:
    return sorted(state.move_text(move) for move in state.legal_moves())


def random_state(seed: int, size: int, length: int) -> VascoState:
    """A position reached by `length` uniformly random legal moves (fewer if
    the game ends first)."""
    rng = random.Random(seed)
    state = start(size)
    for _ in range(length):
        if state.to_move is None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


# -- agreement with the clean API ------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([2, 3, 5, 8, 20, 54]),
    ask_to_move_first=st.booleans(),
)
def test_random_games_agree_with_the_clean_state_at_every_step(
    seed: int, size: int, ask_to_move_first: bool
) -> None:
    """Moves drawn by `random_move` or from `legal_moves`, played on both: the
    same legal texts and player to move at every step, the same winner at the
    end, and a position made afresh from the clean state agrees too."""
    rng = random.Random(seed)
    state = start(size)
    position = state.search_position()
    while True:
        if ask_to_move_first:
            assert position.to_move == state.to_move
        assert texts(position) == clean_texts(state)
        assert position.to_move == state.to_move
        if state.to_move is None:
            break
        fresh = state.search_position()
        assert fresh.to_move == state.to_move
        assert texts(fresh) == clean_texts(state)
        if rng.random() < 0.5:
            move = position.random_move(rng)
        else:
            move = rng.choice(position.legal_moves())
        state = state.play_text(position.move_text(move))
        position.play(move)
    assert state.result is not None
    assert position.winner == state.result.winner
    assert position.legal_moves() == []


@pytest.mark.parametrize("seed", range(12))
def test_seeded_full_games_of_the_default_size_agree(seed: int) -> None:
    state = random_state(seed, 54, 0)
    position = state.search_position()
    rng = random.Random(seed)
    while state.to_move is not None:
        assert position.to_move == state.to_move
        assert texts(position) == clean_texts(state)
        move = position.random_move(rng)
        state = state.play_text(position.move_text(move))
        position.play(move)
    assert position.to_move is None
    assert state.result is not None
    assert position.winner == state.result.winner


@pytest.mark.parametrize("read_to_move", [True, False])
def test_a_player_with_no_legal_move_ends_the_game_as_the_clean_state_does(
    read_to_move: bool,
) -> None:
    """After this game's third move Red has no legal move: the clean state
    ends the game there, and so does the position, whichever it is asked first."""
    state = start(5)
    position = state.search_position()
    for text in NO_LEGAL_MOVE_GAME:
        [move] = [m for m in position.legal_moves() if position.move_text(m) == text]
        position.play(move)
        state = state.play_text(text)
    assert state.result is not None and "has no legal move" in state.result.reason
    if read_to_move:
        assert position.to_move is None
    assert position.legal_moves() == []
    assert position.to_move is None
    assert position.winner == state.result.winner
    copied = position.copy()
    assert copied.to_move is None and copied.winner == state.result.winner


def test_the_last_move_before_no_legal_move_ends_a_play_out() -> None:
    state = start(5)
    for text in NO_LEGAL_MOVE_GAME[:2]:
        state = state.play_text(text)
    position = state.search_position()
    [move] = [m for m in position.legal_moves() if position.move_text(m) == NO_LEGAL_MOVE_GAME[2]]
    position.play(move)
    played = position.play_out(random.Random(1))
    final = state.play_text(NO_LEGAL_MOVE_GAME[2])
    assert final.result is not None
    assert (played.turns, played.placed, played.capped) == (0, 0, False)
    assert played.winner == final.result.winner
    assert played.score == score_of(final.result.winner)


def test_a_strict_game_after_a_lost_turn_gives_the_same_position() -> None:
    """-strict: an illegal placement loses the turn; the position made then
    lists the clean legal moves (the search offers legal placements only)."""
    state = start(54, strict=True).play_text("a0,0")
    after = state.play_text("a1,0")  # a misfit: taken back, Blue's turn lost
    assert after.history[-1].note.startswith("illegal")
    position = after.search_position()
    assert position.to_move == after.to_move == 0
    assert texts(position) == clean_texts(after)


def test_a_finished_game_has_no_search_position() -> None:
    state = start(5)
    for text in NO_LEGAL_MOVE_GAME:
        state = state.play_text(text)
    with pytest.raises(ValueError, match="game is over"):
        state.search_position()


def test_moves_are_small_ints_with_canonical_texts() -> None:
    state = random_state(3, 54, 4)
    position = state.search_position()
    moves = position.legal_moves()
    assert all(type(move) is int for move in moves)
    assert len(set(moves)) == len(moves)
    for move, clean in zip(
        sorted(moves, key=position.move_text),
        sorted(state.legal_moves(), key=state.move_text),
        strict=True,
    ):
        assert position.move_text(move) == search_move_text(move) == state.move_text(clean)
        cid, orientation = move_placement(move)
        assert search_move(cid, orientation) == move


def test_an_illegal_move_is_refused_and_the_position_is_unchanged() -> None:
    position = start(54).search_position()
    position.play(position.legal_moves()[0])
    taken = next(iter(position.board.tiles))
    with pytest.raises(ValueError, match="not a legal move"):
        position.play(search_move(taken, 0))
    assert position.to_move == 1


# -- random moves -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("max_draws", "length"),
    [(0, 1), (1, 1), (vasco_search.MAX_DRAWS, 1), (vasco_search.MAX_DRAWS, 4)],
)
def test_random_move_draws_every_legal_move_equally_often(
    max_draws: int, length: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square over the legal moves of a position after `length` moves, by
    rejection and with the full list drawn from after 0 or 1 rejected draws."""
    monkeypatch.setattr(vasco_search, "MAX_DRAWS", max_draws)
    state = random_state(11, 54, length)
    assert state.to_move is not None
    position = state.search_position()
    legal = position.legal_moves()
    assert len(legal) > 20
    rng = random.Random(20260102)
    runs = 30 * len(legal)
    counts = Counter(position.random_move(rng) for _ in range(runs))
    assert set(counts) <= set(legal), "a drawn move is not legal"
    expected = runs / len(legal)
    statistic = sum((counts[move] - expected) ** 2 / expected for move in legal)
    freedom = len(legal) - 1
    assert statistic < freedom + 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert statistic > freedom - 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert texts(position) == clean_texts(state)  # drawing left the position as it was


# -- copies ---------------------------------------------------------------------


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32), length=st.integers(0, 10))
def test_playing_on_a_copy_leaves_the_original_unchanged(seed: int, length: int) -> None:
    state = random_state(seed, 54, length)
    if state.to_move is None:
        return
    position = state.search_position()
    before = (
        dict(position.board.tiles),
        dict(position.board.seen),
        position.pool,
        position.to_move,
        texts(position),
    )
    copied = position.copy()
    assert texts(copied) == before[4]
    copied.play(copied.random_move(random.Random(seed)))
    copied.play_out(random.Random(seed))
    assert copied.to_move is None
    after = (
        dict(position.board.tiles),
        dict(position.board.seen),
        position.pool,
        position.to_move,
        texts(position),
    )
    assert after == before
    assert texts(position) == clean_texts(state)


# -- random games ---------------------------------------------------------------


@settings(max_examples=examples(30), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([1, 2, 5, 13, 54]),
    length=st.integers(0, 8),
)
def test_play_out_replays_through_the_clean_api_to_the_same_result(
    seed: int, size: int, length: int
) -> None:
    state = random_state(seed, size, length)
    if state.to_move is None:
        return
    position = state.search_position()
    record: list[int] = []
    played = position.play_out(random.Random(seed + 1), record)
    assert len(record) == played.turns
    tiles_before = len(state.board.tiles)
    for move in record:
        state = state.play_text(search_move_text(move))
    assert state.result is not None
    assert position.to_move is None
    assert played.winner == position.winner == state.result.winner
    assert played.score == score_of(state.result.winner)
    assert played.placed == len(state.board.tiles) - tiles_before
    assert not played.capped


@pytest.mark.parametrize("seed", range(40))
def test_random_game_and_play_out_end_every_game(seed: int) -> None:
    """Every move takes a tile from the pool, so both loops end uncapped."""
    size = [1, 3, 8, 20, 54][seed % 5]
    slow = random_game(VascoSearchPosition.opening(size), random.Random(seed), 10 * size)
    fast = VascoSearchPosition.opening(size).play_out(random.Random(seed))
    for played in (slow, fast):
        assert not played.capped
        assert 1 <= played.turns <= size
        assert played.score == score_of(played.winner)
    assert 1 <= fast.placed <= size


def test_random_playout_is_play_out_from_the_empty_board() -> None:
    """The benchmark's `random_playout` is the search position's loop: the
    same seed draws the same game."""
    for seed in range(20):
        record: list[tuple[int, int]] = []
        old = random_playout(20, random.Random(seed), record)
        moves: list[int] = []
        new = VascoSearchPosition.opening(20).play_out(random.Random(seed), moves)
        assert record == [move_placement(move) for move in moves]
        assert (old.winner, old.moves, old.tiles) == (new.winner, new.turns, new.placed)


# -- the win-in-one test ------------------------------------------------------------


def wins_at_once(position: VascoSearchPosition, move: int) -> bool:
    """Whether `move` ends the game with its mover winning, found the long
    way: played on a copy of the whole position."""
    mover = position.to_move
    after = position.copy()
    after.play(move)
    return after.to_move is None and after.winner == mover


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32), size=st.sampled_from([5, 8, 12, 30, 54]), length=st.integers(0, 40)
)
def test_may_win_is_true_exactly_for_the_moves_that_win_at_once(
    seed: int, size: int, length: int
) -> None:
    """`may_win` judges a move on a scratch board as playing it would (its
    loops, an empty pool, an opponent left without a move), so the search
    plays only the winning moves on a copy; small pools reach the ends by
    exhaustion, the default one the loops. The position is left unchanged."""
    state = random_state(seed, size, length)
    if state.to_move is None:
        return
    position = state.search_position()
    moves = position.legal_moves()
    judged = [position.may_win(move) for move in moves]
    assert judged == [wins_at_once(position, move) for move in moves]
    assert position.legal_moves() == moves  # (the scratch board was put back)
    assert texts(position) == clean_texts(state)
