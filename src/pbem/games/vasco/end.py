"""How a Vasco game ends, checked after each whole move (RULINGS.md, Vasco).

Shared by `VascoState` and the fast playout so the end rules exist once.
"""

from __future__ import annotations

from ..base import Result
from .board import Board
from .geometry import BLUE, RED


def tiles_text(count: int) -> str:
    """'1 tile', '6 tiles'."""
    return f"{count} tile" if count == 1 else f"{count} tiles"


def loop_result(red: list[int], blue: list[int]) -> Result | None:
    """The end by loops, after a move that closed `red` and `blue` loops."""
    if red and not blue:
        return Result(RED, f"O (red) closed a loop of {max(red)} tiles")
    if blue and not red:
        return Result(BLUE, f"X (blue) closed a loop of {max(blue)} tiles")
    if red and blue:
        longest_red, longest_blue = max(red), max(blue)
        if longest_red == longest_blue:
            return Result(
                None, f"both colours closed loops; the longest of each is {longest_red} tiles"
            )
        loser = RED if longest_red > longest_blue else BLUE
        return Result(
            1 - loser,
            f"both colours closed loops and the longest, "
            f"{max(longest_red, longest_blue)} tiles, is "
            f"{'red' if loser == RED else 'blue'}'s (red {longest_red}, "
            f"blue {longest_blue}), so {'red' if loser == RED else 'blue'} loses",
        )
    return None


def path_result(board: Board, pool: int, player: int) -> Result:
    """The end by exhaustion (empty pool, or `player` cannot move) with no loop."""
    (_, red), (_, blue) = board.path_summary()
    why = (
        "the pool is empty"
        if pool == 0
        else f"{'O (red)' if player == RED else 'X (blue)'} has no legal move"
    )
    if red == blue:
        return Result(
            None, f"{why} and no loop was closed; both longest paths are {tiles_text(red)}"
        )
    loser = "red" if red > blue else "blue"
    return Result(
        BLUE if red > blue else RED,
        f"{why} and no loop was closed; the longest path, {tiles_text(max(red, blue))}, is "
        f"{loser}'s (red {red}, blue {blue}), so {loser} loses",
    )
