"""Vacu and Convacu, the games: seats, options and the opening position."""

from __future__ import annotations

from typing import ClassVar

from ..base import Game, OptionError, Options, OptionSpec, Side
from .board import Board
from .state import VacuState

KOMI_LIMIT = 625  # the points of the largest board: no komi beyond that means anything


class VacuGame(Game):
    """Luis Bolaños Mures' Vacu (2021): Go-like territory with flips and suppressions.

    Seats: with `-komi=N` the first player is Black and starts; without it the
    game opens with the komi step and the second player chooses a colour, so
    `sides` names the seats by their usual colours and the state says which
    colour each player really has (`VacuState.side_text`)."""

    name = "vacu"
    title = "Vacu"
    summary = (
        "Go where a group without liberties flips or vanishes: score stones and territory, "
        "or take the last enemy group. The players set the komi; there is a button."
    )
    has_sgf = True  # Go programs read its records
    sides = (Side("Black", "X", "black"), Side("White", "O", "white"))
    option_specs = (
        OptionSpec("size", 9, "points on each side of the board", minimum=5, maximum=25),
        OptionSpec(
            "komi",
            None,
            "White's komi, agreed in advance (no komi step)",
            minimum=-KOMI_LIMIT,
            maximum=KOMI_LIMIT,
            example=6,
        ),
    )
    can_pass = True
    can_undo = True
    swap_move = "black"  # the komi step: the second player takes Black, the first mover's side
    connection: ClassVar[bool] = False

    def check_options(self, options: Options) -> None:
        """A komi is bounded by the board's points, as in the komi step."""
        komi, limit = options["komi"], options["size"] ** 2
        if komi is not None and not -limit <= komi <= limit:
            raise OptionError(
                f"Option -komi={komi} is out of range for a {options['size']}x"
                f"{options['size']} board: the komi lies between {-limit} and {limit}."
            )

    def new_state(self, options: Options) -> VacuState:
        komi = options["komi"]
        return VacuState(
            self,
            options,
            Board(options["size"]),
            komi=komi,
            black=None if komi is None else 0,
        )


class ConvacuGame(VacuGame):
    """Convacu: Vacu where Black joins top and bottom, White left and right."""

    name = "convacu"
    title = "Convacu"
    summary = (
        "Vacu where joining your edges wins at once (Black top and bottom, White the sides); "
        "otherwise it is scored as Vacu."
    )
    rules_file = "vacu.md"  # one document covers both games
    connection = True
