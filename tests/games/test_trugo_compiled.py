"""The compiled Trugo playout (games/trugo/compiled.py) against the pure
loop it repeats (`search.play_out`): from the same random numbers, the same
moves, the same result and the same final board (tiles, stacks, frontier,
hands, captures, pieces removed, pool), from random positions of both
phases, with and without stacking, cut off or played to the end."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import Playout
from pbem.games.splitmix import SplitMix64
from pbem.games.trugo import compiled
from pbem.games.trugo import search as trugo_search
from pbem.games.trugo.board import MOVE, REMOVE, Move
from pbem.games.trugo.search import TrugoSearchPosition
from pbem.games.trugo.state import TrugoState
from tests.conftest import examples
from tests.games.racing import in_threads


def position_after(words: list[str], turns: int, seed: int) -> TrugoState:
    """A game of the clean API after `turns` uniformly random turns."""
    state = cast(TrugoState, get_game("trugo").start(words))
    rng = random.Random(seed)
    for _ in range(turns):
        if state.result is not None:
            break
        position = state.search_position()
        state = cast(TrugoState, state.play_text(position.move_text(position.random_move(rng))))
    return state


def both(position: TrugoSearchPosition, seed: int) -> tuple[Playout, list[Move], dict[str, Any]]:
    """The pure and the compiled playout from copies of `position`, with the
    same numbers: they must be the same game. Returns the result, the moves
    and the final board."""
    pure, fast = position.copy(), position.copy()
    pure_record: list[Move] = []
    fast_record: list[Move] = []
    pure_rand, fast_rand = SplitMix64(seed), SplitMix64(seed)
    played = trugo_search.play_out(pure, pure_rand, pure_record)  # type: ignore[arg-type]
    fast_played, final = compiled._played(fast, fast_rand, fast_record)
    assert fast_played == played
    assert fast_record == pure_record
    assert fast_rand.state == pure_rand.state
    board = pure.board
    assert final == {
        "tiles": board.tiles,
        "stacks": board.stacks,
        "frontier": board.frontier,
        "hand": board.hand,
        "captured": board.captured,
        "removed": board.removed,
        "on_board": pure.on_board,
        "pool": board.pool,
    }
    return played, pure_record, final


@settings(max_examples=examples(150), deadline=None)
@given(
    size=st.sampled_from([1, 3, 6, 12, 36]),
    pieces=st.sampled_from([1, 3, 25]),
    no_stack=st.booleans(),
    turns=st.integers(0, 90),
    cutoff=st.sampled_from([None, 1, 7, 40]),
    seed=st.integers(0, 2**64 - 1),
)
def test_the_same_game_from_the_same_numbers(
    size: int, pieces: int, no_stack: bool, turns: int, cutoff: int | None, seed: int
) -> None:
    words = [f"-size={size}", f"-pieces={pieces}"] + (["-no_stack"] if no_stack else [])
    state = position_after(words, turns, seed % 2**32)
    if state.result is not None:
        return
    both(state.search_position(cutoff=cutoff), seed)


def test_many_games_on_kept_windows_cover_every_rule() -> None:
    """Two hundred whole games on the default board, each the pure loop's:
    the windows kept between them start clean, and the games between them
    place, move, remove, capture and pass."""
    seen = {"captures": 0, "removals": 0, "moves": 0, "ends": 0}
    opening = position_after([], 0, 0).search_position(cutoff=None)
    for seed in range(200):
        played, record, final = both(opening, seed)
        seen["captures"] += sum(final["captured"])
        seen["removals"] += sum(move[0] == REMOVE for move in record)
        seen["moves"] += sum(move[0] == MOVE for move in record)
        seen["ends"] += not played.capped
    assert all(seen.values()), seen


def test_the_search_position_plays_out_compiled() -> None:
    """`play_out` on the clean state's search position is the compiled loop,
    seeded from the caller's generator."""
    position = position_after([], 12, 4).search_position()
    assert isinstance(position, compiled.CompiledPosition)
    method = position.copy().play_out(random.Random(5))
    seed = random.Random(5).getrandbits(64)
    assert method == compiled.play_out(position.copy(), SplitMix64(seed))
    pure = trugo_search.play_out(position.copy(), SplitMix64(seed))  # type: ignore[arg-type]
    assert method == pure


@pytest.mark.parametrize("why", ["over", "too wide"])
def test_what_the_loop_cannot_hold_plays_the_pure_path(
    why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game already over, or a window larger than `MAX_WINDOW`, plays the
    pure loop: the same result, and nothing compiled is called."""
    position = position_after([], 10, 9).search_position(cutoff=None)
    expected = trugo_search.play_out(position.copy(), SplitMix64(2))  # type: ignore[arg-type]
    if why == "over":
        position = position.copy()
        trugo_search.play_out(position, SplitMix64(2))  # type: ignore[arg-type]
        assert position.player is None
        expected = trugo_search.play_out(position.copy(), SplitMix64(2))  # type: ignore[arg-type]
    else:
        monkeypatch.setattr(compiled, "MAX_WINDOW", 100)
    monkeypatch.setattr(compiled, "_played", None)  # any call of it fails
    assert compiled.play_out(position.copy(), SplitMix64(2)) == expected


def test_threads_playing_out_at_once_each_get_their_own_game() -> None:
    """The kept windows serve one playout at a time: four threads playing
    out together, switching as often as the interpreter can, each get the
    pure loop's game."""
    opening = position_after([], 6, 1).search_position(cutoff=60)
    in_threads(lambda seed: both(opening, seed), 200)
