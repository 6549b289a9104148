"""Every game's playout writes down the moves it played (`SearchPosition.
play_out`'s `record`, which RAVE counts): played again with `play` on a
copy, each is legal when it comes, the players alternate from the player to
move, and the game ends as the playout said. The compiled loops and the
pure ones are held to this alike."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import SearchPosition
from tests.conftest import examples

GAMES = {
    "vasco": ["-size=20"],
    "trugo": ["-size=8", "-pieces=6"],
    "vacu": ["-size=5", "-komi=3"],
    "convacu": ["-size=5", "-komi=3"],
}


def mid_game(name: str, turns: int, seed: int) -> Any:
    state = get_game(name).start(GAMES[name])
    rng = random.Random(seed)
    for _ in range(turns):
        if state.to_move is None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@settings(max_examples=examples(40), deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), turns=st.integers(0, 12), seed=st.integers(0, 9999))
def test_a_playout_s_record_replays_legally_turn_by_turn(name: str, turns: int, seed: int) -> None:
    state = mid_game(name, turns, seed)
    if state.to_move is None:
        return
    position: SearchPosition = state.search_position()
    replay = position.copy()
    record: list[Any] = []
    outcome = position.copy().play_out(random.Random(seed), record)
    assert len(record) == outcome.turns
    player = replay.to_move
    for move in record:
        assert replay.to_move == player
        assert move in replay.legal_moves()
        replay.play(move)
        player = None if player is None else player ^ 1
    if outcome.capped:
        assert replay.to_move is not None
    else:
        assert replay.to_move is None and replay.winner == outcome.winner


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_playout_without_a_record_plays_the_same_game(name: str) -> None:
    state = mid_game(name, 4, 1)
    position = state.search_position()
    record: list[Any] = []
    assert position.copy().play_out(random.Random(3), record) == position.copy().play_out(
        random.Random(3)
    )
    assert record
