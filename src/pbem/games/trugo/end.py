"""How a Trugo game ends, shared by `TrugoState` and the random playout."""

from __future__ import annotations

from ..base import Result
from .board import Board

SIDE_WORDS = ("White (O)", "Blue (X)")


def turn_result(board: Board, mover: int, pieces_before: int) -> Result | None:
    """The result after a turn's captures, or None when play goes on.

    A move that takes the last pieces off the board wins for the mover, in
    either phase. In the Waning phase a player with no piece on the board
    (pinned ones count) loses; when neither has one, the game is drawn.
    """
    on = board.on_board()
    if on[0] + on[1] == 0 and pieces_before > 0:
        return Result(mover, f"{SIDE_WORDS[mover]} took the last pieces off the board")
    if board.pool > 0:
        return None
    if on[0] == 0 and on[1] == 0:
        return Result(None, "neither player has a piece on the board in the Waning phase")
    for loser in (mover, 1 - mover):
        if on[loser] == 0:
            return Result(
                1 - loser, f"{SIDE_WORDS[loser]} has no piece left on the board in the Waning phase"
            )
    return None


def passes_result() -> Result:
    return Result(None, "both players passed in a row")
