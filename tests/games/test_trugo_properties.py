"""Invariants of Trugo over random legal games (hypothesis)."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.base import IllegalMove
from pbem.games.trugo import TrugoMove, TrugoState
from pbem.games.trugo.board import MOVE, PLACE, REMOVE
from pbem.games.trugo.geometry import CORNER_DELTAS, ROTATIONS, cell_text
from tests.conftest import examples

TRUGO = get_game("trugo")


@st.composite
def random_games(draw: st.DrawFn) -> TrugoState:
    """A position reached by uniformly random legal moves."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.sampled_from([4, 10, 20, 36]))
    pieces = draw(st.sampled_from([1, 3, 25]))
    options = [f"-size={size}", f"-pieces={pieces}"]
    if draw(st.booleans()):
        options.append("-no_stack")
    state = TRUGO.start(options)
    for _ in range(draw(st.integers(0, 90))):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@settings(max_examples=examples(60), deadline=None)
@given(random_games())
def test_pieces_are_conserved_and_stand_on_junctions_at_most_two_high(state: TrugoState) -> None:
    board = state.board
    issued = state.options["pieces"]
    on = board.on_board()
    for player in (0, 1):
        total = on[player] + board.hand[player] + board.captured[player] + board.removed[player]
        assert total == issued
    for vid, stack in board.stacks.items():
        assert 1 <= len(stack) <= 2
        assert board.count[vid] == 3  # never on a partial junction
        if state.options["no_stack"]:
            assert len(stack) == 1
    assert (
        board.pool
        + len(board.tiles)
        + sum(1 for record in state.history if record.text.startswith("x"))
        == state.options["size"]
    )


@settings(max_examples=examples(40), deadline=None)
@given(random_games())
def test_every_listed_move_plays_and_nearby_others_are_refused(state: TrugoState) -> None:
    legal = {move.raw for move in state.legal_moves()}
    for raw in legal:
        after = state.play(TrugoMove(raw))
        assert after.history[-1].text == TrugoMove(raw).text
    if state.result is not None:
        return
    board = state.board
    cells = set(board.tiles) | set(board.frontier)
    candidates = {(PLACE, c, r) for c in cells for r in range(3)}
    candidates |= {(REMOVE, c, 0) for c in cells}
    points = {c + d for c in board.tiles for d in CORNER_DELTAS}
    mine = [v for v, s in board.stacks.items() if s[-1] == state.to_move][:3]
    candidates |= {(MOVE, a, b) for a in [*mine, *list(points)[:2]] for b in points}
    for raw in candidates - legal:
        try:
            state.play(TrugoMove(raw))
        except IllegalMove as error:
            assert len(error.reason) > 10
        else:
            raise AssertionError(f"{TrugoMove(raw).text} is not legal but was played")


@settings(max_examples=examples(40), deadline=None)
@given(random_games())
def test_notation_round_trips_through_every_name(state: TrugoState) -> None:
    for move in state.legal_moves():
        assert state.parse_move(move.text) == move
        assert state.parse_move(move.text.upper().replace(",", " , ")) == move
        kind, a, b = move.raw
        if kind == PLACE:
            number = state.position_number(a)
            assert number is not None
            assert state.parse_move(f"{ROTATIONS[b]}{number}") == move
        if kind == MOVE:
            start, end = re.fullmatch(r"(.*?[a-z]+)-(.*)", move.text).groups()
            assert state.parse_move(f"{start}:{end}") == move


@settings(max_examples=examples(30), deadline=None)
@given(random_games())
def test_text_board_fits_a_mail_and_shows_every_cell(state: TrugoState) -> None:
    text = state.text_board()
    assert max(len(line) for line in text.splitlines()) <= 80
    for record in state.history[-1:]:
        assert record.text in text
    for cid in state.board.tiles:
        assert cell_text(cid) in text  # every tile is labelled with its cell
    assert state.status_line() in " ".join(text.split())
