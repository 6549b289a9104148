"""Invariants of Vasco over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import IllegalMove
from pbem.games.vasco import VascoMove, VascoState
from pbem.games.vasco import reference as ref
from pbem.games.vasco.geometry import LETTERS, cell_of, neighbours
from pbem.games.vasco.playout import random_playout
from tests.conftest import examples

VASCO = get_game("vasco")


@st.composite
def random_games(draw: st.DrawFn) -> VascoState:
    """A position reached by uniformly random legal moves."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.sampled_from([6, 12, 24, 54]))
    length = draw(st.integers(0, 25))
    state = VASCO.start([f"-size={size}", *(["-strict"] if draw(st.booleans()) else [])])
    for _ in range(length):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def tile_map(state: VascoState) -> dict[tuple[int, int], int]:
    return {(col, row): o for col, row, o, _ in state.tiles()}


@settings(max_examples=examples(40), deadline=None)
@given(random_games())
def test_legal_moves_play_and_every_other_nearby_move_is_refused(state: VascoState) -> None:
    legal = set(state.legal_moves())
    nearby = {cell_of(cid) for cid in state.board.candidate_cells()}
    nearby |= {n for cell in nearby for n in neighbours(*cell)}
    nearby |= {(col, row) for col, row, _, _ in state.tiles()}
    for col, row in nearby:
        for orientation in range(6):
            move = VascoMove(col, row, orientation)
            if move in legal:
                after = state.play(move)
                assert after.history[-1].text == move.text
                assert not after.history[-1].note.startswith("illegal")
            elif (
                state.options["strict"]
                and state.result is None
                and (col, row) not in tile_map(state)
            ):
                after = state.play(move)  # -strict: taken back, turn lost
                assert after.history[-1].note.startswith("illegal, tile taken back")
                assert after.tiles() == state.tiles()
            else:
                try:
                    state.play(move)
                except IllegalMove as error:
                    assert len(error.reason) > 10
                else:
                    raise AssertionError(f"{move.text} is not legal but was played")


@settings(max_examples=examples(60), deadline=None)
@given(random_games())
def test_no_dead_cell_and_one_edge_connected_group(state: VascoState) -> None:
    tiles = tile_map(state)
    near = ref.empty_near(tiles, 2)
    assert not any(ref.is_dead(tiles, cell) for cell in near)
    assert ref.connected(tiles)
    if tiles:
        assert (0, 0) in tiles
    assert state.pool == state.options["size"] - len(tiles)


@settings(max_examples=examples(60), deadline=None)
@given(random_games())
def test_notation_round_trips_and_position_numbers_name_the_same_moves(
    state: VascoState,
) -> None:
    board_text = state.text_board()
    for move in state.legal_moves():
        assert state.parse_move(move.text) == move
        assert state.parse_move(move.text.upper().replace(",", " , ")) == move
        number = state.position_number(move.col, move.row)
        assert number is not None
        assert state.parse_move(f"{LETTERS[move.orientation]}{number}") == move
        assert str(number) in board_text
    assert len(state.positions) == len({move.cell for move in state.legal_moves()})


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([6, 20, 54]))
def test_fast_playout_plays_legal_games_with_the_same_result(seed: int, size: int) -> None:
    record: list[tuple[int, int]] = []
    playout = random_playout(size, random.Random(seed), record)
    state = VASCO.start([f"-size={size}"])
    for cid, orientation in record:
        state = state.play(VascoMove(*cell_of(cid), orientation))
    assert state.result is not None
    assert playout.winner == state.result.winner
    assert playout.moves == len(state.history)
    assert playout.tiles == size - state.pool
