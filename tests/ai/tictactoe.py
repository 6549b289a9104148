"""Noughts and crosses as a `SearchPosition`: small enough to solve, so the
search's choices can be checked against the truth."""

from __future__ import annotations

import random
from typing import Any, Self

from pbem.games.base import Playout, score_of

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)
)  # fmt: skip


class TicTacToe:
    """Cells 0..8 row by row; player 0 is X and moves first."""

    def __init__(self, cells: str = ".........", to_move: int | None = None) -> None:
        self.cells = list(cells)
        if to_move is None:
            to_move = 0 if cells.count("X") == cells.count("O") else 1
        self._to_move: int | None = to_move
        self._winner: int | None = None
        self._judge()

    def _judge(self) -> None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                self._winner = 0 if self.cells[a] == "X" else 1
                self._to_move = None
                return
        if "." not in self.cells:
            self._to_move = None

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def winner(self) -> int | None:
        return self._winner

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.cells = self.cells[:]
        twin._to_move = self._to_move
        twin._winner = self._winner
        return twin

    def legal_moves(self) -> list[int]:
        if self._to_move is None:
            return []
        return [i for i, cell in enumerate(self.cells) if cell == "."]

    def random_move(self, rng: random.Random) -> int:
        return rng.choice(self.legal_moves())

    def play(self, move: object) -> None:
        assert isinstance(move, int) and self._to_move is not None
        self.cells[move] = "XO"[self._to_move]
        self._to_move ^= 1
        self._judge()

    def move_text(self, move: object) -> str:
        return f"c{move}"

    def may_win(self, move: object) -> bool:
        return True

    def play_out(self, rng: random.Random, record: list[Any] | None = None) -> Playout:
        turns = 0
        while self._to_move is not None:
            move = self.random_move(rng)
            if record is not None:
                record.append(move)
            self.play(move)
            turns += 1
        return Playout(score_of(self._winner), self._winner, turns, turns)


def solve(position: TicTacToe) -> float:
    """Player 0's exact share with perfect play (plain minimax)."""
    if position.to_move is None:
        return score_of(position.winner)
    values = []
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        values.append(solve(child))
    return max(values) if position.to_move == 0 else min(values)
