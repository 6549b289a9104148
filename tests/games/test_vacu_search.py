"""The Vacu and Convacu search position agrees with `VacuState` in every phase
(the komi step's documented subset, the colour step, play), draws its random
moves uniformly, plays out games that replay through the clean API, and copies
independently."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import Playout, random_game, score_of
from pbem.games.vacu import VacuState
from pbem.games.vacu import search as vacu_search
from pbem.games.vacu.board import EMPTY, Board
from pbem.games.vacu.search import (
    BLACK_MOVE,
    BUTTON_MOVE,
    KOMI_MOVE,
    PASS_MOVE,
    WHITE_MOVE,
    VacuSearchPosition,
    default_cap,
    play_out,
)
from tests.conftest import examples

GAMES = ("vacu", "convacu")


def start(name: str, size: int, komi: int | None) -> VacuState:
    """A new game; without a komi, it opens with the komi step."""
    words = [f"-size={size}"] + ([] if komi is None else [f"-komi={komi}"])
    return cast(VacuState, get_game(name).start(words))


def texts(position: VacuSearchPosition) -> set[str]:
    return {position.move_text(move) for move in position.legal_moves()}


def clean_texts(state: VacuState) -> set[str]:
    return {state.move_text(move) for move in state.legal_moves()}


def assert_same(position: VacuSearchPosition, state: VacuState) -> None:
    """The same phase's moves, player to move and result."""
    assert position.to_move == state.to_move
    if state.result is not None:
        assert position.legal_moves() == []
        assert position.winner == state.result.winner
        return
    if state.phase == "komi":  # the documented subset: komi -size .. +size
        size = state.board.size
        assert texts(position) == {f"komi{k}" for k in range(-size, size + 1)}
        assert texts(position) <= clean_texts(state)
    else:
        assert texts(position) == clean_texts(state)
    moves = position.legal_moves()
    assert len(set(moves)) == len(moves)
    assert position.winner is None


def step(position: VacuSearchPosition, state: VacuState, move: Hashable) -> VacuState:
    """Play `move` on the position and, by its text, on the clean state."""
    text = position.move_text(move)
    position.play(move)
    return cast(VacuState, state.play_text(text))


def random_state(name: str, seed: int, turns: int, *, komi_step: bool = False) -> VacuState:
    """A position reached by random moves of the clean API, through the komi
    step (komi 3, the second player taking Black) with `komi_step`."""
    rng = random.Random(seed)
    if komi_step:
        state = start(name, 7, None).play_text("komi3").play_text("black")
        state = cast(VacuState, state)
    else:
        state = start(name, 7, 4)
    for _ in range(turns):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


# -- agreement with the clean API, move by move ----------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(GAMES),
    size=st.sampled_from([5, 6, 7, 9]),
    komi=st.one_of(st.none(), st.integers(-6, 8)),
    remake=st.integers(0, 60),
)
def test_random_games_agree_with_the_clean_api_in_every_phase(
    seed: int, name: str, size: int, komi: int | None, remake: int
) -> None:
    """Moves drawn by `random_move`, played on both; after `remake` turns the
    position is made again from the clean state (its repetition history
    hashed from `VacuState.seen`) and play goes on."""
    rng = random.Random(seed)
    state = start(name, size, komi)
    position = state.search_position()
    assert isinstance(position, VacuSearchPosition)
    turns = 0
    while True:
        assert_same(position, state)
        if state.result is not None:
            break
        if turns == remake:
            position = state.search_position()
            assert_same(position, state)
        move = position.random_move(rng)
        assert move in position.legal_moves()
        state = step(position, state, move)
        turns += 1
        assert turns < default_cap(size)
    assert position.to_move is None


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_of_a_position_agrees(name: str) -> None:
    """From each of many positions, each legal move played on a copy and on
    the clean state leads to the same moves, player and result."""
    tried = Counter[str]()
    for seed in range(12):
        state = random_state(name, seed, 2 + 3 * seed, komi_step=seed % 2 == 1)
        if state.result is not None:
            continue
        position = state.search_position()
        for move in position.legal_moves():
            after = position.copy()
            assert_same(after, step(after, state, move))
            tried[position.move_text(move)] += 1
    assert tried["button"] + tried["pass"] >= 5 and len(tried) > 30


def test_the_komi_and_colour_steps() -> None:
    state = start("vacu", 7, None)
    position = state.search_position()
    assert position.to_move == 0
    assert set(position.legal_moves()) == {(KOMI_MOVE, k) for k in range(-7, 8)}
    state = step(position, state, (KOMI_MOVE, -3))
    assert state.komi == position.komi == -3
    assert position.to_move == 1
    assert position.legal_moves() == [BLACK_MOVE, WHITE_MOVE]
    assert [position.move_text(move) for move in position.legal_moves()] == ["black", "white"]
    for move, black in ((BLACK_MOVE, 1), (WHITE_MOVE, 0)):
        chosen = position.copy()
        after = step(chosen, state, move)
        assert chosen.to_move == chosen.black == after.black == black
        assert_same(chosen, after)


def test_a_komi_beyond_the_subset_is_played_and_kept() -> None:
    """A komi named by a person (the clean API's wider range) is searched on."""
    state = start("convacu", 5, None).play_text("komi20")
    position = cast(VacuState, state).search_position()
    assert position.komi == 20 and position.to_move == 1
    assert_same(position, cast(VacuState, state))


def test_moves_are_small_distinct_values() -> None:
    """Ints, or a pair of ints in the komi step; no move of one phase is the
    same value as a move of another."""
    state = start("vacu", 5, None)
    position = state.search_position()
    seen: set[Hashable] = set()
    komi_moves = position.legal_moves()
    seen.update(komi_moves)
    position.play(komi_moves[0])
    colour_moves = position.legal_moves()
    position.play(BLACK_MOVE)
    play_moves = position.legal_moves()
    board = position.board
    every_point = [*board.points, PASS_MOVE, BUTTON_MOVE]
    assert seen.isdisjoint(colour_moves) and seen.isdisjoint(every_point)
    assert set(colour_moves).isdisjoint(every_point)
    assert set(play_moves) <= set(every_point)
    for move in komi_moves:
        assert isinstance(move, tuple) and all(isinstance(part, int) for part in move)
    assert all(isinstance(move, int) for move in colour_moves + play_moves)


def test_a_finished_game_has_no_search_position() -> None:
    state = start("vacu", 5, 0).play_text("button").play_text("pass").play_text("pass")
    assert state.result is not None
    with pytest.raises(ValueError, match="over"):
        cast(VacuState, state).search_position()


# -- repetition, with the history before the search position ----------------------


def with_button(name: str, count: int) -> list[VacuState]:
    """Undecided positions after 12 random moves, the button taken."""
    found = []
    for seed in range(1000):
        state = random_state(name, seed, 12)
        if state.result is None and state.button is not None:
            found.append(state)
            if len(found) == count:
                return found
    raise AssertionError("too few such positions")


@pytest.mark.parametrize(("times", "draw"), [(1, False), (2, True)])
@pytest.mark.parametrize("name", GAMES)
def test_positions_seen_before_the_search_count_for_repetition(
    name: str, times: int, draw: bool
) -> None:
    """Count every position one stone away as seen `times` already in the
    clean state's history: with 2, each stone is a third occurrence, a draw,
    for the search position as for the clean API."""
    stones = 0
    for state in with_button(name, 6):
        for clean_move in state.legal_moves():
            if clean_move.kind == "stone":
                after = state.play(clean_move)
                state.seen[after._key(after.to_move)] = times
        position = state.search_position()
        for move in position.legal_moves():
            after_position = position.copy()
            after = step(after_position, state, move)
            assert_same(after_position, after)
            if isinstance(move, int) and move >= 0:
                ended = after.result is not None and "third time" in after.result.reason
                if after.result is None or ended:  # not won first (judged before)
                    assert ended == draw
                    stones += 1
    assert stones > 50


# -- uniform random moves -----------------------------------------------------------


def find_position(name: str) -> VacuState:
    """A position, the button taken, where some empty points are illegal for
    the player to move and some stones would flip."""
    for seed in range(1000):
        state = random_state(name, seed, 45)
        if state.result is not None or state.button is None:
            continue
        board = state.board
        assert state.to_move is not None
        colour = state.colour_of(state.to_move)
        kinds = Counter(board.placement(p, colour) for p in board.points if not board.colour[p])
        if kinds[0] and kinds[2] and kinds[1] >= 5:
            return state
    raise AssertionError("no such position")


def assert_uniform(position: VacuSearchPosition, rng: random.Random, per_move: int = 40) -> None:
    """Chi-square of many `random_move` draws against the legal moves."""
    legal = position.legal_moves()
    runs = per_move * len(legal)
    drawn: Counter[Hashable] = Counter(position.random_move(rng) for _ in range(runs))
    assert set(drawn) <= set(legal), "drew a move that is not legal"
    expected = runs / len(legal)
    statistic = sum((drawn[move] - expected) ** 2 / expected for move in legal)
    freedom = len(legal) - 1
    assert statistic < freedom + 6 * (2 * freedom) ** 0.5, (statistic, freedom)
    assert statistic > freedom - 6 * (2 * freedom) ** 0.5, (statistic, freedom)


@pytest.mark.parametrize("max_draws", [0, 1, vacu_search.MAX_DRAWS])
@pytest.mark.parametrize("name", GAMES)
def test_random_move_is_uniform_over_the_legal_moves(
    name: str, max_draws: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a pass among the moves in Vacu, not in Convacu; by rejection, by
    the full list after too many rejections, and both."""
    monkeypatch.setattr(vacu_search, "MAX_DRAWS", max_draws)
    state = find_position(name)
    position = state.search_position()
    assert (PASS_MOVE in position.legal_moves()) == (name == "vacu")
    assert_uniform(position, random.Random(7))


def test_random_move_is_uniform_with_the_button_untaken_and_in_the_komi_steps() -> None:
    rng = random.Random(8)
    position = start("convacu", 5, 2).search_position()
    assert BUTTON_MOVE in position.legal_moves()
    assert_uniform(position, rng)
    komi_step = start("vacu", 9, None).search_position()
    assert_uniform(komi_step, rng, per_move=200)
    komi_step.play((KOMI_MOVE, 4))
    assert_uniform(komi_step, rng, per_move=2000)


def test_a_convacu_player_with_no_stone_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stones nowhere legal (a monkeypatched board): the only move is a pass."""
    position = random_state("convacu", 3, 6).search_position()
    if position.button is None:
        position.play(BUTTON_MOVE)
    monkeypatch.setattr(Board, "placement", lambda board, p, c: 0)
    assert position.legal_moves() == [PASS_MOVE]
    assert {position.random_move(random.Random(seed)) for seed in range(20)} == {PASS_MOVE}


# -- random games -----------------------------------------------------------------


def replay(state: VacuState, position: VacuSearchPosition, record: list[Any]) -> VacuState:
    """Play the recorded moves through the clean API, each one legal there.
    `position` is a copy of the search position the record started from."""
    for number, move in enumerate(record, start=1):
        assert state.result is None, f"move {number} follows the end of the game"
        assert move in position.legal_moves(), f"move {number} is not legal"
        state = step(position, state, move)
    return state


def estimate(state: VacuState) -> float:
    """Player 0's share of a capped game: who leads on points."""
    first, second = state.score()
    return 0.5 if first == second else float(first > second)


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(GAMES),
    turns=st.integers(0, 40),
    komi_step=st.booleans(),
    cap=st.one_of(st.none(), st.integers(0, 30)),
)
def test_play_out_replays_through_the_clean_api(
    seed: int, name: str, turns: int, komi_step: bool, cap: int | None
) -> None:
    state = random_state(name, seed, turns, komi_step=komi_step)
    if state.result is not None:
        return
    position = state.search_position()
    before = position.copy()
    record: list[Any] = []
    playout = play_out(position, random.Random(seed), record, cap)
    end = replay(state, before, record)
    assert playout.turns == len(record)
    assert playout.placed == sum(isinstance(move, int) and move >= 0 for move in record)
    assert before.board.colour == position.board.colour
    assert before.board.hash == position.board.hash
    if playout.capped:
        assert len(record) == cap
        assert end.result is None and position.to_move == end.to_move is not None
        assert playout.winner is None
        assert playout.score == estimate(end)
    else:
        assert end.result is not None and position.to_move is None
        assert playout.winner == end.result.winner == position.winner
        assert playout.score == score_of(playout.winner)


@pytest.mark.parametrize("name", GAMES)
def test_play_out_from_the_komi_step_replays_too(name: str) -> None:
    for seed in range(15):
        state = start(name, 5 + seed % 3, None)
        position = state.search_position()
        record: list[Any] = []
        playout = play_out(position, random.Random(seed), record)
        assert isinstance(record[0], tuple) and record[1] in (BLACK_MOVE, WHITE_MOVE)
        end = replay(state, start(name, 5 + seed % 3, None).search_position(), record)
        assert end.result is not None and playout.winner == end.result.winner


def test_a_capped_game_in_the_komi_step_is_even() -> None:
    position = start("vacu", 5, None).search_position()
    assert play_out(position, random.Random(1), cap=1) == Playout(0.5, None, 1, 0, capped=True)


@pytest.mark.parametrize("name", GAMES)
def test_play_out_and_random_game_end_every_game(name: str) -> None:
    """Neither meets the cap, from the start or from the komi step; each
    ends the position it plays on."""
    rng = random.Random(11)
    for seed in range(60):
        size = 5 + seed % 5
        state = start(name, size, None if seed % 3 == 0 else seed % 7)
        for run in (play_out, None):
            position = state.search_position()
            if run is None:
                playout = random_game(position, rng, default_cap(size))
            else:
                playout = run(position, rng)
            assert not playout.capped and position.to_move is None
            assert playout.winner == position.winner
            assert playout.score == score_of(position.winner)


# -- copies ---------------------------------------------------------------------


def snapshot(position: VacuSearchPosition) -> dict[str, Any]:
    board = position.board
    return {
        "board": {name: repr(getattr(board, name)) for name in type(board).__slots__},
        **{
            name: repr(getattr(position, name))
            for name in VacuSearchPosition.__slots__
            if name != "board"
        },
        "legal": sorted(texts(position)),
    }


@pytest.mark.parametrize("komi_step", [False, True])
@pytest.mark.parametrize("name", GAMES)
def test_a_copy_is_equal_and_independent(name: str, komi_step: bool) -> None:
    for seed in range(10):
        state = random_state(name, seed, 3 * seed, komi_step=komi_step)
        if state.result is not None:
            continue
        position = state.search_position()
        before = snapshot(position)
        copy = position.copy()
        assert snapshot(copy) == before
        play_out(copy, random.Random(seed))
        assert copy.to_move is None
        assert snapshot(position) == before
        again = position.copy()  # and the copy agrees with the clean API still
        assert_same(again, state)


def test_empty_points_are_tracked_through_suppressions() -> None:
    """The list of empty points (and each one's index in it) stays right."""
    for seed in range(20):
        position = VacuSearchPosition(Board(7), 0, connection=seed % 2 == 1)
        rng = random.Random(seed)
        while position.to_move is not None:
            position.play(position.random_move(rng))
            colours = position.board.colour
            empty = position.empty
            assert sorted(empty) == [p for p in position.board.points if colours[p] == EMPTY]
            assert all(position.where[p] == i for i, p in enumerate(empty))


# -- the win-in-one filter --------------------------------------------------------


@settings(max_examples=examples(80), deadline=None)
@given(
    name=st.sampled_from(GAMES),
    size=st.integers(5, 8),
    turns=st.integers(0, 150),
    seed=st.integers(0, 10**6),
)
def test_may_win_never_hides_a_move_that_wins_at_once(
    name: str, size: int, turns: int, seed: int
) -> None:
    """Every legal move that ends the game with its mover winning is one
    `may_win` lets through (the search tries only those for a win in one)."""
    state = start(name, size, 3)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.result is not None:
            return
        state = cast(VacuState, state.play(rng.choice(state.legal_moves())))
    if state.result is not None:
        return
    position = state.search_position()
    mover = position.to_move
    for move in position.legal_moves():
        after = position.copy()
        after.play(move)
        if after.to_move is None and after.winner == mover:
            assert position.may_win(move), position.move_text(move)


def test_may_win_lets_no_quiet_move_through() -> None:
    """On an open board no stone, the button or a first pass can win at
    once: the filter spares the search every one of those tries."""
    position = start("vacu", 9, 6).search_position()
    assert not any(position.may_win(move) for move in position.legal_moves())
    position.play(BUTTON_MOVE)
    assert not any(position.may_win(move) for move in position.legal_moves())
    position.play(PASS_MOVE)  # a second pass would end the game: that one may win
    assert [move for move in position.legal_moves() if position.may_win(move)] == [PASS_MOVE]
