"""How Vacu and Convacu write their moves and stones: the column letters (no
I, as in Go), the stone letters of the text board, and the kinds of move.
Shared by the state and its drawings, so neither imports the other."""

from __future__ import annotations

from .board import BLACK, WHITE

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
COLOUR_WORDS = {BLACK: "black", WHITE: "white"}
STONE_LETTERS = {BLACK: "X", WHITE: "O"}
STONE, PASS, BUTTON, KOMI, COLOUR = "stone", "pass", "button", "komi", "colour"
