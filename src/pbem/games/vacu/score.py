"""Vacu's score, shared by `VacuState` and the random playout."""

from __future__ import annotations

from .board import BLACK, WHITE, Board


def score(board: Board, komi: int, black: int, button: int | None) -> tuple[float, float]:
    """Each player's points (by player index): stones and territory, the
    komi for White, half a point for the button's holder (RULINGS.md)."""
    black_land, white_land, _ = board.territory()
    points = [0.0, 0.0]
    points[black] = board.stones[BLACK] + len(black_land)
    points[1 - black] = board.stones[WHITE] + len(white_land) + komi
    if button is not None:
        points[button] += 0.5
    return points[0], points[1]
