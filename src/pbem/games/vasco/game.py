"""Vasco, the game: seats, options and the opening position."""

from __future__ import annotations

from ..base import Game, Options, OptionSpec, Side
from .board import Board
from .state import VascoState


class VascoGame(Game):
    """Cameron Browne's Vasco (2008): triangular path tiles, first loop wins."""

    name = "vasco"
    title = "Vasco"
    summary = (
        "Triangular path tiles: close a loop of your colour to win; if the tiles run "
        "out first, the longer path loses."
    )
    sides = (Side("Red", "O", "red"), Side("Blue", "X", "blue"))
    picture_moves = 7
    option_specs = (
        OptionSpec("size", 54, "tiles in the shared pool", minimum=1, maximum=1000),
        OptionSpec("strict", False, "an illegal placement is taken back and the turn is lost"),
    )
    can_pass = False
    can_undo = True

    def new_state(self, options: Options) -> VascoState:
        return VascoState(self, options, Board(), options["size"], 0, (), None)
