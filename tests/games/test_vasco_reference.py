"""The fast engine against the slow, obviously correct reference rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.vasco import VascoState
from pbem.games.vasco import reference as ref
from pbem.games.vasco.geometry import cell_of
from pbem.games.vasco.playout import random_playout
from tests.conftest import examples

VASCO = get_game("vasco")

SEED_GAMES = [
    ("-size=54", ["a0,0", "b1,0", "a2,1"]),
    ("-size=12", ["c0,0", "a1,-1", "f-1,-1"]),
    ("-size=8", ["b0,0", "d-1,1", "e-2,0"]),
    ("-size=3", ["b0,0", "c2,0"]),
    ("-size=5", ["b0,0", "b2,0", "b1,-1"]),
    ("-size=54", ["a0,0", "e1,1", "a-2,0", "b3,1", "a3,2", "b2,-1", "d1,-2", "a-2,-1"]),
    ("-size=54", ["d0,0", "e2,0", "a-1,1", "f3,2", "a5,2", "b1,-1", "d3,-1"]),
]


def check_game(state: VascoState, game: ref.ReferenceGame) -> None:
    """Same tiles in the same order, same auto marks, pool, turn and winner."""
    assert list(game.tiles.items()) == [((c, r), o) for c, r, o, _ in state.tiles()]
    assert game.auto == {(c, r) for c, r, _, auto in state.tiles() if auto}
    assert game.pool == state.pool
    assert game.to_move == state.to_move
    if state.result is not None:
        assert game.over and game.winner == state.result.winner


@pytest.mark.parametrize(("option", "moves"), SEED_GAMES)
def test_seed_games_agree_with_the_reference(option: str, moves: list[str]) -> None:
    state = VASCO.start([option])
    game = ref.ReferenceGame(size=state.options["size"])
    for text in moves:
        move = state.parse_move(text)
        state = state.play(move)
        game.play(move.cell, move.orientation)
        check_game(state, game)
    assert state.result is not None or len(moves) == 3


def test_the_reference_refuses_a_tile_touching_no_tile() -> None:
    with pytest.raises(ValueError, match="touches no tile"):
        ref.place({(0, 0): 0}, 53, (3, 0), 0)
    legal = ref.legal_moves({(0, 0): 0, (1, 0): 1}, 52)
    assert ((-3, 0), 0) not in legal  # its auto moves would join it, but it touches nothing
    assert ((2, 1), 0) in legal  # a corner placement joined by its auto moves (Figure 3)


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([3, 5, 8, 12, 16]))
def test_random_games_agree_with_the_reference(seed: int, size: int) -> None:
    """Every legal move (the reference tries every cell within 5 steps, far
    past the cells touching a tile that the engine tries), every auto tile and
    every result."""
    rng = random.Random(seed)
    state = VASCO.start([f"-size={size}"])
    game = ref.ReferenceGame(size=size)
    while state.result is None:
        fast = [(move.cell, move.orientation) for move in state.legal_moves()]
        assert fast == ref.legal_moves(game.tiles, game.pool)
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        game.play(move.cell, move.orientation)
        check_game(state, game)
    assert game.over


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([5, 8, 12, 16]))
def test_random_playouts_are_legal_games_by_the_reference(seed: int, size: int) -> None:
    """The fast playout's moves, each placed tile touching the group, replay on
    the reference rules to the same winner."""
    record: list[tuple[int, int]] = []
    playout = random_playout(size, random.Random(seed), record)
    game = ref.ReferenceGame(size=size)
    for cid, orientation in record:
        game.play(cell_of(cid), orientation)
    assert game.over and game.winner == playout.winner
    assert len(game.tiles) == playout.tiles
