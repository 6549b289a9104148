"""The compiled Vasco playout (games/vasco/compiled.py) against the pure
loop it repeats (`VascoSearchPosition.play_out`): from the same random
numbers, the same moves, the same result and the same final board, from
random positions of every pool size and phase, and after a move that
leaves the player to move with none; and its win-in-one test against the
pure one and the clean API."""

from __future__ import annotations

import random
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import Playout
from pbem.games.splitmix import SplitMix64
from pbem.games.vasco import VascoState, compiled
from pbem.games.vasco.search import VascoSearchPosition
from tests.conftest import examples
from tests.games.racing import in_threads

NO_LEGAL_MOVE_GAME = ("f0,0", "f1,-1", "f2,0")  # -size=5: Red cannot move after it


def position_after(size: int, turns: int, seed: int) -> VascoState:
    """A game of the clean API after `turns` uniformly random moves."""
    state = cast(VascoState, get_game("vasco").start([f"-size={size}"]))
    rng = random.Random(seed)
    for _ in range(turns):
        if state.to_move is None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def both(position: VascoSearchPosition, seed: int) -> tuple[Playout, VascoSearchPosition]:
    """The pure and the compiled playout from copies of `position`, with the
    same numbers: they must be the same game. Returns the result and the
    pure position at the end."""
    pure, fast = position.copy(), position.copy()
    pure_record: list[int] = []
    fast_record: list[int] = []
    pure_rand, fast_rand = SplitMix64(seed), SplitMix64(seed)
    played = VascoSearchPosition.play_out(pure, pure_rand, pure_record)  # type: ignore[arg-type]
    fast_played, final = compiled._played(fast, fast_rand, fast_record)
    assert fast_played == played
    assert fast_record == pure_record
    assert fast_rand.state == pure_rand.state
    assert final == pure.board.tiles
    assert (fast.to_move, fast.winner) == (None, played.winner)
    return played, pure


@settings(max_examples=examples(120), deadline=None)
@given(
    size=st.sampled_from([1, 2, 3, 5, 9, 20, 54, 100]),
    turns=st.integers(0, 30),
    seed=st.integers(0, 2**64 - 1),
)
def test_the_same_game_from_the_same_numbers(size: int, turns: int, seed: int) -> None:
    state = position_after(size, turns, seed % 2**32)
    if state.to_move is None:
        return
    played, pure = both(state.search_position(), seed)
    assert played.placed <= size
    # The pure game's end is the clean API's: replaying its moves there ends alike.
    clean = state
    record: list[int] = []
    VascoSearchPosition.play_out(state.search_position(), SplitMix64(seed), record)  # type: ignore[arg-type]
    for move in record:
        clean = clean.play_text(pure.move_text(move))
    assert clean.result is not None
    assert clean.result.winner == played.winner


def test_a_window_reused_after_many_games_starts_clean() -> None:
    """The kept window is cleaned after each playout: a thousand games on
    the same window each match the pure loop."""
    opening = VascoSearchPosition.opening(54)
    for seed in range(1000):
        both(opening, seed)


def test_a_player_left_without_a_legal_move_loses_by_the_longest_path() -> None:
    """After a move that leaves Red no legal move, the compiled loop ends
    at once as the clean API does."""
    state = position_after(5, 0, 0)
    for text in NO_LEGAL_MOVE_GAME[:2]:
        state = state.play_text(text)
    position = state.search_position()
    [move] = [m for m in position.legal_moves() if position.move_text(m) == NO_LEGAL_MOVE_GAME[2]]
    position.play(move)
    final = state.play_text(NO_LEGAL_MOVE_GAME[2])
    assert final.result is not None and "no legal move" in final.result.reason
    played, _ = both(position, 3)
    assert (played.turns, played.placed, played.winner) == (0, 0, final.result.winner)


def test_the_search_position_plays_out_compiled() -> None:
    """`play_out` on the clean state's search position is the compiled loop,
    seeded from the caller's generator."""
    position = position_after(54, 6, 4).search_position()
    assert isinstance(position, compiled.CompiledPosition)
    method = position.copy().play_out(random.Random(5))
    seed = random.Random(5).getrandbits(64)
    assert method == compiled.play_out(position.copy(), SplitMix64(seed))
    pure = VascoSearchPosition.play_out(position.copy(), SplitMix64(seed))  # type: ignore[arg-type]
    assert method == pure


@pytest.mark.parametrize("why", ["over", "too wide"])
def test_what_the_loop_cannot_hold_plays_the_pure_path(
    why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game already over, or a window larger than `MAX_WINDOW`, plays the
    pure loop: the same result, and nothing compiled is called."""
    position = position_after(54, 4, 9).search_position()
    expected = VascoSearchPosition.play_out(position.copy(), SplitMix64(2))  # type: ignore[arg-type]
    if why == "over":
        position = position.copy()
        VascoSearchPosition.play_out(position, SplitMix64(2))  # type: ignore[arg-type]
        expected = Playout(expected.score, expected.winner, 0, 0)
    else:
        monkeypatch.setattr(compiled, "MAX_WINDOW", 100)
    monkeypatch.setattr(compiled, "_played", None)  # any call of it fails
    assert compiled.play_out(position.copy(), SplitMix64(2)) == expected


def test_threads_playing_out_at_once_each_get_their_own_game() -> None:
    """The kept windows serve one playout at a time: four threads playing
    out together, switching as often as the interpreter can, each get the
    pure loop's game."""
    opening = position_after(54, 3, 1).search_position()
    in_threads(lambda seed: both(opening, seed), 300)


# -- the win-in-one test ------------------------------------------------------------


def how_it_ends(state: VascoState, text: str) -> str | None:
    """How the clean API says move `text` ends the game with its mover
    winning ('loop', 'pool' or 'stuck'), or None when it does not."""
    mover = state.to_move
    result = state.play_text(text).result
    if result is None or result.winner != mover:
        return None
    if "pool is empty" in result.reason:
        return "pool"
    return "stuck" if "has no legal move" in result.reason else "loop"


def test_the_compiled_win_in_one_test_finds_every_kind_of_win() -> None:
    """Along whole random games, at every position, the moves the compiled
    position's `may_win` passes (judged in one compiled pass) and those the
    pure one passes are exactly the moves the clean API says win at once;
    the games hold wins of all three kinds: a loop, the last tiles of the
    pool, and an opponent left without a legal move."""
    kinds: dict[str, int] = {}
    for size, seeds in ((4, 60), (5, 60), (6, 60), (9, 40), (54, 4)):
        for seed in range(seeds):
            rng = random.Random(seed)
            state = cast(VascoState, get_game("vasco").start([f"-size={size}"]))
            while state.to_move is not None:
                position = state.search_position()
                assert isinstance(position, compiled.CompiledPosition)
                moves = position.legal_moves()
                truth = {move: how_it_ends(state, position.move_text(move)) for move in moves}
                winning = [move for move in moves if truth[move]]
                assert [move for move in moves if position.may_win(move)] == winning
                pure = [m for m in moves if VascoSearchPosition.may_win(position, m)]
                assert pure == winning
                for move in winning:
                    kind = truth[move]
                    assert kind is not None
                    kinds[kind] = kinds.get(kind, 0) + 1
                state = state.play_text(position.move_text(rng.choice(moves)))
    assert set(kinds) == {"loop", "pool", "stuck"}, kinds


def test_a_change_of_position_forgets_the_judged_moves() -> None:
    """The judgement is of the position it was made on: after a move, or on
    a copy, `may_win` judges the position as it is then."""
    state = position_after(54, 3, 7)
    position = state.search_position()
    assert isinstance(position, compiled.CompiledPosition)
    moves = position.legal_moves()
    assert not any(position.may_win(move) for move in moves)  # (judged: none wins)
    finishing = position.copy()
    while finishing.to_move is not None:
        listed = finishing.legal_moves()
        won = [m for m in listed if finishing.may_win(m)]
        truth = [m for m in listed if VascoSearchPosition.may_win(finishing, m)]
        assert won == truth
        finishing.play(listed[0])
    assert position.legal_moves() == moves  # the original was left as it was
