"""Trugo, the game: seats, options and the opening position."""

from __future__ import annotations

from ..base import Game, Options, OptionSpec, Side
from .board import Board
from .state import TrugoState


class TrugoGame(Game):
    """Cameron Browne's Trugo (2007): hexagonal tiles, Go-like capture."""

    name = "trugo"
    title = "Trugo"
    summary = (
        "Hexagonal tiles grow a board, then come away; pieces on its junctions capture "
        "as in Go. Take the last of your opponent's pieces to win."
    )
    sides = (Side("White", "O", "white"), Side("Blue", "X", "blue"))
    picture_moves = 9
    option_specs = (
        OptionSpec("size", 36, "tiles in the shared pool", minimum=1, maximum=1000),
        OptionSpec("pieces", 25, "pieces each player starts with", minimum=1, maximum=1000),
        OptionSpec("no_stack", False, "no piece may land on another"),
    )
    can_pass = True
    can_undo = True

    def new_state(self, options: Options) -> TrugoState:
        board = Board(options["size"], options["pieces"], options["no_stack"])
        return TrugoState(self, options, board, 0, (), None)
