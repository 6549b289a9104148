"""Entering a Vacu or Convacu move by clicking: a playable point is its move
(`data-move` on the board); the rest are buttons: the komi step (name a
komi, then choose a colour), the button, and the pass."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import MoveButton
from .notation import BUTTON, COLOUR, KOMI, PASS, STONE

if TYPE_CHECKING:
    from .state import VacuState


def buttons(state: VacuState) -> list[MoveButton]:
    """The moves of the player to move that are no stone on a point."""
    if state.result is not None or state.to_move is None:
        return []
    kinds = {move.kind for move in state.legal_moves() if move.kind != STONE}
    found: list[MoveButton] = []
    if KOMI in kinds:
        limit = state.board.size**2
        found.append(
            MoveButton(
                "Offer komi",
                "komi",
                f"Name White's komi, a whole number from {-limit} to {limit}; the other "
                "player then chooses a colour, so make both colours equally good.",
                (-limit, limit),
                "Komi for White",
            )
        )
    if COLOUR in kinds:
        komi = state.komi
        found += [
            MoveButton(
                "Play Black",
                "black",
                f"Take Black and play the first stone; White gets the komi of {komi} "
                "(the same as the swap command).",
            ),
            MoveButton(
                "Play White",
                "white",
                f"Take White and the komi of {komi}; the other player plays Black and starts.",
            ),
        ]
    if BUTTON in kinds:
        found.append(
            MoveButton(
                "Take the button",
                "button",
                "Half a point for you at the count, instead of placing a stone; nobody "
                "may pass until the button is taken.",
            )
        )
    if PASS in kinds:
        hint = "Place no stone this turn; a pass right after the other player's ends the game."
        if state.game.connection:
            hint = "You have no other legal move, so you pass."
        found.append(MoveButton("Pass", "pass", hint))
    return found
