"""The compiled Vacu and Convacu playout (games/vacu/compiled.py) against
the pure-Python loop it repeats (search.play_out): from the same random
numbers, the same game move for move, the same end and winner, and the
same board at the end, over random positions of every size and phase."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.vacu import VacuState, compiled
from pbem.games.vacu import search as vacu_search
from pbem.games.vacu.compiled import SplitMix64
from tests.conftest import examples


def position_after(name: str, size: int, komi: int | None, turns: int, seed: int) -> VacuState:
    """A game of the clean API after `turns` random turns (from the komi
    step without a komi)."""
    words = [f"-size={size}"] + ([] if komi is None else [f"-komi={komi}"])
    state = cast(VacuState, get_game(name).start(words))
    rng = random.Random(seed)
    for _ in range(turns):
        if state.result is not None:
            break
        position = state.search_position()
        state = cast(VacuState, state.play_text(position.move_text(position.random_move(rng))))
    return state


def both(state: VacuState, seed: int, cap: int | None = None) -> tuple[Any, Any]:
    """The pure and the compiled playout from `state` with the same numbers."""
    pure, fast = state.search_position(), state.search_position()
    pure_record: list[Any] = []
    fast_record: list[Any] = []
    pure_rand, fast_rand = SplitMix64(seed), SplitMix64(seed)
    played = vacu_search.play_out(pure, pure_rand, pure_record, cap)  # type: ignore[arg-type]
    fast_played, final = compiled._played(fast, fast_rand, fast_record, cap)
    assert fast_played == played
    assert fast_record == pure_record
    assert fast.end == pure.end
    assert fast_rand.state == pure_rand.state
    return pure, final


@settings(max_examples=examples(150), deadline=None)
@given(
    name=st.sampled_from(["vacu", "convacu"]),
    size=st.integers(5, 13),
    komi=st.sampled_from([None, -3, 0, 6]),
    turns=st.integers(0, 120),
    seed=st.integers(0, 2**64 - 1),
)
def test_the_same_game_from_the_same_numbers(
    name: str, size: int, komi: int | None, turns: int, seed: int
) -> None:
    state = position_after(name, size, komi, turns, seed % 2**32)
    if state.result is not None:
        return
    pure, final = both(state, seed)
    if final is not None:  # the compiled loop ran: its board is the pure one's
        colour, key, stones = final
        assert colour.tolist() == pure.board.colour
        assert key == pure.board.hash
        assert stones.tolist() == pure.board.stones


@pytest.mark.parametrize("name", ["vacu", "convacu"])
@pytest.mark.parametrize("cap", [1, 2, 7, 30])
def test_capped_games_agree_and_score_the_board(name: str, cap: int) -> None:
    for seed in range(20):
        state = position_after(name, 7, 4 if seed % 2 else None, seed, seed)
        if state.result is None:
            both(state, seed, cap)


def test_split_mix_is_vigna_s() -> None:
    """The first output of SplitMix64 from state 0 is 0xE220A8397B1DCDAF."""
    assert SplitMix64(0).random() == (0xE220A8397B1DCDAF >> 11) * 2.0**-53


def test_the_search_position_plays_out_compiled() -> None:
    """`play_out` on the search position is the compiled loop, seeded from
    the caller's generator."""
    state = position_after("vacu", 9, 6, 10, 4)
    method = state.search_position().play_out(random.Random(5))
    seed = random.Random(5).getrandbits(64)
    assert method == compiled.play_out(state.search_position(), SplitMix64(seed))
    assert method == vacu_search.play_out(state.search_position(), SplitMix64(seed))  # type: ignore[arg-type]
