"""Invariants of Vacu and Convacu over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.vacu import VacuState
from pbem.games.vacu.board import BLACK, EMPTY, WHITE
from tests.conftest import examples


@st.composite
def random_games(draw: st.DrawFn) -> VacuState:
    """A position reached by uniformly random legal moves, sometimes through
    the komi step (whose komi is drawn from a short range)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    name = draw(st.sampled_from(["vacu", "convacu"]))
    size = draw(st.sampled_from([5, 7, 9]))
    game = get_game(name)
    if draw(st.booleans()):
        state = game.start([f"-size={size}", f"-komi={draw(st.integers(-5, 10))}"])
    else:
        state = game.start([f"-size={size}"]).play_text(f"komi{rng.randrange(-3, 8)}")
        state = state.play_text(rng.choice(["black", "white"]))
    for _ in range(draw(st.integers(0, 120))):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def liberties(state: VacuState, p: int) -> set[int]:
    board = state.board
    colour = board.colour[p]
    seen, todo, free = {p}, [p], set()
    while todo:
        for n in board.neighbours[todo.pop()]:
            if board.colour[n] == EMPTY:
                free.add(n)
            elif board.colour[n] == colour and n not in seen:
                seen.add(n)
                todo.append(n)
    return free


@settings(max_examples=examples(60), deadline=None)
@given(random_games())
def test_no_group_is_without_liberties_and_the_books_balance(state: VacuState) -> None:
    board = state.board
    for p in board.points:
        if board.colour[p] in (BLACK, WHITE):
            assert liberties(state, p), state.point_name(p)
    for head, stones in board.members.items():
        assert all(board.group[s] == head for s in stones)
        real = {n for s in stones for n in board.neighbours[s] if board.colour[n] == EMPTY}
        pseudo = [n for s in stones for n in board.neighbours[s] if board.colour[n] == EMPTY]
        assert board.libs[head] == len(pseudo) and set(pseudo) == real
        assert board.lsum[head] == sum(pseudo)
    assert board.stones[BLACK] == sum(row.count("B") for row in state.rows())


@settings(max_examples=examples(60), deadline=None)
@given(random_games())
def test_the_score_adds_up_to_the_board_plus_komi_and_button(state: VacuState) -> None:
    if state.black is None:
        return
    _, _, neutral = state.board.territory()
    total = state.board.size**2 - len(neutral) + (state.komi or 0)
    total += 0.5 if state.button is not None else 0
    assert sum(state.score()) == total
