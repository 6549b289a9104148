"""Vacu and Convacu records as SGF, read back with an SGF library of its own
(sgfmill, from PyPI): the file parses, names the size, komi and players by
colour, and its moves replay in our rules to the very position the game
reached, with and without the komi step, through passes and the button."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from pbem.games import get_game
from pbem.games.base import State
from pbem.games.vacu.notation import COLUMNS
from tests.conftest import examples

NAMES = ("ann", "bob]\\")  # a name SGF must escape


def random_game(name: str, options: list[str], seed: int, length: int) -> State:
    state = get_game(name).start(options)
    rng = random.Random(seed)
    for _ in range(length):
        if state.to_move is None:
            break
        moves = state.legal_moves()
        state = state.play(moves[int(rng.random() * len(moves))])
    return state


def replayed_from_sgf(
    text: str, name: str, options: list[str], names: tuple[str, str] = NAMES
) -> State:
    """Our own game replayed from the moves sgfmill reads: a pass while the
    button is untaken is the button (see games/vacu/sgf.py)."""
    game = sgf.Sgf_game.from_string(text)
    root = game.get_root()
    size = game.get_size()
    moves: list[str] = []
    if not any(word.startswith("-komi") for word in options):
        komi = root.get("KM")
        moves.append(f"komi{komi:g}")
        moves.append("black" if root.get("PB") == names[1] else "white")
    state = get_game(name).replay(get_game(name).parse_options(options), moves)
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        assert colour is not None
        assert state.to_move is not None
        assert state.colour_of(state.to_move) == (1 if colour == "b" else 2)  # type: ignore[attr-defined]
        if point is None:
            text = "button" if state.button is None else "pass"  # type: ignore[attr-defined]
        else:
            row, col = point  # sgfmill: row 0 at the bottom
            text = f"{COLUMNS[col]}{row + 1}"
        state = state.play_text(text)
        assert size == state.board.size  # type: ignore[attr-defined]
    return state


@pytest.mark.parametrize("name", ["vacu", "convacu"])
@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(5, 13),
    komi=st.sampled_from([None, 0, 6, -3]),
    length=st.integers(0, 400),
)
def test_the_sgf_replays_to_the_same_position(
    name: str, seed: int, size: int, komi: int | None, length: int
) -> None:
    options = [f"-size={size}"] + ([] if komi is None else [f"-komi={komi}"])
    state = random_game(name, options, seed, length)
    text = state.sgf(NAMES)
    assert text is not None
    game = sgf.Sgf_game.from_string(text)
    root = game.get_root()
    assert game.get_size() == size
    if state.black is not None:  # type: ignore[attr-defined]
        black = state.black  # type: ignore[attr-defined]
        assert root.get("PB") == NAMES[black] and root.get("PW") == NAMES[1 - black]
        assert root.get("KM") == state.komi  # type: ignore[attr-defined]
        again = replayed_from_sgf(text, name, options)
        assert again.text_board() == state.text_board()
        assert again.to_move == state.to_move
        assert (again.result is None) == (state.result is None)


def test_a_scored_game_gives_its_margin_and_a_button_its_comment() -> None:
    state = get_game("vacu").start(["-size=5", "-komi=6"])
    for text in ("button", "C3", "pass", "pass"):
        state = state.play_text(text)
    assert state.result is not None and state.result.scores is not None
    text = state.sgf(("ann", "bob"))
    assert text is not None
    root = sgf.Sgf_game.from_string(text).get_root()
    black, white = state.result.scores  # by seat: with -komi the first player is Black
    winner = "B" if state.result.winner == 0 else "W"
    assert root.get("RE") == f"{winner}+{abs(black - white):g}"
    assert "takes the button" in text
    nodes = sgf.Sgf_game.from_string(text).get_main_sequence()
    played = [node.get_move() for node in nodes[1:]]
    assert played == [("b", None), ("w", (2, 2)), ("b", None), ("w", None)]


def test_other_games_have_no_sgf() -> None:
    for name in ("vasco", "trugo"):
        assert get_game(name).start().sgf(NAMES) is None
