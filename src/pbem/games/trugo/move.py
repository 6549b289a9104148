"""A Trugo move and its canonical text, apart from the state, so that the
search position (`search.py`) writes moves as the clean API does without
importing it."""

from __future__ import annotations

from dataclasses import dataclass

from .board import MOVE, PLACE, REMOVE
from .board import Move as RawMove
from .geometry import ROTATIONS, cell_text, vertex_name


@dataclass(frozen=True, order=True)
class TrugoMove:
    """A move as the engine sees it: (kind, a, b) with ids from `geometry`:
    place (cell, rotation), remove (cell, 0), move (from, to), pass (0, 0)."""

    raw: RawMove

    @property
    def kind(self) -> str:
        return ("place", "remove", "move", "pass")[self.raw[0]]

    @property
    def text(self) -> str:
        kind, a, b = self.raw
        if kind == PLACE:
            return f"{ROTATIONS[b]}{cell_text(a)}"
        if kind == REMOVE:
            return f"x{cell_text(a)}"
        if kind == MOVE:
            return f"{vertex_name(a)}-{vertex_name(b)}"
        return "pass"
