"""The Trugo text board: golden boards (reviewed by eye) and its marks."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import get_game
from pbem.games.trugo import TrugoState
from pbem.games.trugo.text_board import RUNS, STAMPS, YS, _Canvas, board_lines
from tests.conftest import examples
from tests.games.trugo_text_reference import PlainCanvas, plain_board_lines

TRUGO = get_game("trugo")
GOLDEN = Path(__file__).parent / "golden"

STACKS = "b0,0 a0,1 a-1,1 a-1,0 b1,0 c2,0 b1,1 a0,-1 c3,0 1,0w--1,0e a0,2 a-1,2"
WANING = "b0,0 b1,0 b0,-1 c1,-2 c2,1 b0,1 b-1,0 b1,-1 a-1,1 b2,0 b-2,2 a-2,1 -2,1e--1,0e x2,1"
BOARDS = {
    "opening": ((), "a0,0"),
    "three_pieces": ((), "a0,0 a0,-1 a1,0 a2,0 a1,-1"),
    "stacks": (("-size=12",), STACKS),  # X on a pinned o at -1,0e; a capture
    "waning": (("-size=12",), WANING),  # a removal took a piece
    "panels": (("-size=20",), " ".join(f"a{col},0" for col in range(14))),
}


def board(name: str) -> TrugoState:
    options, moves = BOARDS[name]
    state = TRUGO.start(options)
    for text in moves.split():
        state = state.play_text(text)
    return state


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_golden_text_board(name: str) -> None:
    path = GOLDEN / f"trugo_{name}.txt"
    text = board(name).text_board()
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def drawing(state: TrugoState) -> list[str]:
    return board_lines(state)


def test_stacks_show_the_top_piece_in_capitals_over_the_pinned_one() -> None:
    state = board("stacks")
    assert {p["junction"]: p["stack"] for p in state.position()["pieces"]}["-1,0e"] == [0, 1]
    text = "\n".join(drawing(state))
    assert "Xo" in text  # X on top of White's pinned o
    assert "Last move: a-1,2 by Blue (X) (new X at 0,2w; captured O at -1,1e)." in (
        state.text_board()
    )


def test_marks_for_junctions_partial_junctions_positions_and_last_tile() -> None:
    state = board("three_pieces")
    text = "\n".join(drawing(state))
    assert text.count("@") == 1  # the placed tile
    for number in range(1, len(state.positions) + 1):
        assert re.search(rf"(?<![\d,-]){number}(?![\d,])", text)
    assert "O" in text and "X" in text and "." in text
    for cell in ("0,0", "0,-1", "1,0", "2,0", "1,-1"):
        assert cell in text
    assert "in hand 24, 23" in state.text_board()


def test_wide_boards_come_in_panels_that_fit_a_mail() -> None:
    text = board("panels").text_board()
    assert (
        re.search(r"Columns -?\d+ to \d+:", text)
        and max(len(line) for line in text.splitlines()) <= 80
    )
    for col in range(14):
        assert f"{col},0" in text


def test_waning_board_names_the_phase_and_gives_examples() -> None:
    text = board("waning").text_board()
    assert "Waning phase" in text and "gone with tiles 1, 0" in " ".join(text.split())
    assert re.search(r"For example: x-?\d+,-?\d+ removes one; \S+ moves a piece\.", text)


@pytest.mark.parametrize("rotation", range(3))
def test_a_tile_drawn_by_runs_is_the_tile_drawn_by_characters(rotation: int) -> None:
    """Every rotation, at every offset a panel's edges can cut it at."""
    assert len(RUNS[rotation]) == 2 * YS + 1 and len(STAMPS[rotation]) > 2 * YS + 1
    for x in range(-4, 9):
        for y in range(-2, 5):
            fast, plain = _Canvas(0, 0, 20, 10), PlainCanvas(0, 0, 20, 10)
            for canvas in (fast, plain):
                canvas.tile(x, y, rotation, f"{x},{y}", last=(x + y) % 2 == 0)
            assert fast.lines == plain.lines, (x, y)


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([6, 20, 36]))
def test_the_drawing_is_the_plain_one_at_every_position_of_random_games(
    seed: int, size: int
) -> None:
    """Tiles by runs and each junction once draw what a character at a time
    and every tile's corners drew: wide boards (panels), captures, removals."""
    rng = random.Random(seed)
    state = TRUGO.start([f"-size={size}"])
    while True:
        assert board_lines(state) == plain_board_lines(state)
        if state.result is not None or len(state.moves) > 150:
            break
        state = state.play(rng.choice(state.legal_moves()))
