"""The Vacu and Convacu text boards: golden boards (reviewed by eye) and marks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.games import get_game
from pbem.games.vacu import VacuState
from pbem.games.vacu.board import star_points

GOLDEN = Path(__file__).parent / "golden"

BOARDS = {
    "vacu_komi_step": ("vacu", (), "komi6"),
    "vacu_opening": ("vacu", ("-komi=6",), "E5 D5 D4 button C4"),
    "vacu_flip": ("vacu", ("-size=5", "-komi=0"), "C5 B5 B4 A4 A3 E1 A5"),
    "vacu_finished": ("vacu", ("-size=5", "-komi=0"), "button C3 pass pass"),
    "convacu_win": ("convacu", ("-size=5", "-komi=2"), "C5 A2 C4 B2 C3 D2 C2 E3 C1"),
    "vacu_19": ("vacu", ("-size=19", "-komi=6"), "D4 Q16"),
}


def board(name: str) -> VacuState:
    game, options, moves = BOARDS[name]
    state = get_game(game).start(options)
    for text in moves.split():
        state = state.play_text(text)
    return state


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_golden_text_board(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = board(name).text_board()
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_last_stone_coordinates_and_star_points() -> None:
    text = board("vacu_opening").text_board()
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHJ")
    row4 = next(line for line in lines if line.startswith("  4"))
    assert "(X)" in row4 and row4.index("(X)") + 1 == lines[0].index("C")
    assert set(star_points(9)) == {(2, 2), (2, 6), (6, 2), (6, 6), (4, 4)}
    assert len(star_points(19)) == 9 and len(star_points(13)) == 5


def test_flip_board_reports_what_happened() -> None:
    text = board("vacu_flip").text_board()
    assert "Last move: A5 by Black (X) (suicide of A5; flipped" in text
    assert "Flipped so far: Black 0, White" in text


def test_convacu_frame_shows_the_edges_and_the_win() -> None:
    text = board("convacu_win").text_board()
    assert "+===========+" in text and "| 5" in text
    assert "joined the top and bottom edges" in text


def test_komi_step_board_says_who_does_what() -> None:
    text = board("vacu_komi_step").text_board()
    assert "the second player chooses a colour" in text.lower()
