"""A Vasco move and its canonical text, apart from the state, so that the
search position (`search.py`) writes moves as the clean API does without
importing it."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import LETTERS


@dataclass(frozen=True, order=True)
class VascoMove:
    """Place a tile in `orientation` (0..5 for a..f) at cell (col, row)."""

    col: int
    row: int
    orientation: int

    @property
    def cell(self) -> tuple[int, int]:
        return self.col, self.row

    @property
    def text(self) -> str:
        return f"{LETTERS[self.orientation]}{self.col},{self.row}"
