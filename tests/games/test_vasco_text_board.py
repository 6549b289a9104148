"""The Vasco text board: golden boards (reviewed by eye) and its marks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.games import get_game
from pbem.games.vasco import VascoState

VASCO = get_game("vasco")
GOLDEN = Path(__file__).parent / "golden"

BOARDS = {
    "opening": ((), ["a0,0", "b1,0"]),
    "figure3": ((), ["a0,0", "b1,0", "a2,1"]),
    "red_loop": (("-size=12",), ["c0,0", "a1,-1", "f-1,-1"]),
    "strict_lost_turn": (("-strict",), ["a0,0", "b2,0"]),
}


def board(name: str) -> VascoState:
    options, moves = BOARDS[name]
    state = VASCO.start(options)
    for text in moves:
        state = state.play_text(text)
    return state


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_golden_text_board(name: str) -> None:
    path = GOLDEN / f"vasco_{name}.txt"
    text = board(name).text_board()
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_marks_last_move_auto_tiles_and_positions() -> None:
    state = board("figure3")
    text = state.text_board()
    assert text.count("@") == 4 + 1  # four tiles of the last move, one in the legend
    assert text.count("~") == 3 + 1  # three auto tiles, one in the legend
    assert "Last move: a2,1 by Red (O) (auto a2,0 a0,1 b1,1)." in text
    assert "Pool: 48 tiles left." in text
    assert len(state.positions) == 18  # the empty cells touching a tile, all playable here
    for number in range(1, 19):
        assert f" {number} " in text or f" {number}\n" in text


def test_a_wide_board_is_split_into_panels_within_80_columns() -> None:
    state = VASCO.start(["-size=60"])
    for col in range(26):  # a straight strip along row 0: a, b, a, b ...
        state = state.play_text(f"{'ab'[col % 2]}{col},0")
    text = state.text_board()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.count("Columns") == 2
    assert "Columns -2 to 12:" in text and "Columns 13 to 27:" in text
