"""Uniformly random Vacu and Convacu games for benchmarks and tests: thin
wrappers over the search position (`search.VacuSearchPosition`), whose one
loop draws and applies every move (its docstring gives the rules, the draw and
the cap). They report a game as `Playout` with how it ended (`end`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from .board import Board
from .search import (
    BUTTON_KEY,
    BUTTON_MOVE,
    CAP_PER_POINT,
    CAPPED,
    CONNECTION,
    PASS_MOVE,
    PASSES,
    REMOVAL,
    REPETITION,
    TO_MOVE_KEYS,
    VacuSearchPosition,
    default_cap,
    position_hash,
)
from .search import play_out as play_out_position

if TYPE_CHECKING:
    from .search import SearchMove
    from .state import VacuState

__all__ = [
    "BUTTON_KEY",
    "BUTTON_MOVE",
    "CAPPED",
    "CAP_PER_POINT",
    "CONNECTION",
    "PASSES",
    "PASS_MOVE",
    "REMOVAL",
    "REPETITION",
    "TO_MOVE_KEYS",
    "Playout",
    "default_cap",
    "play_out",
    "play_out_state",
    "position_hash",
    "random_playout",
]


@dataclass(frozen=True)
class Playout:
    """How a random game went: `winner` is a player index, None for a draw, a
    tie on points or a capped game."""

    winner: int | None
    moves: int  # turns played: stones, the button and passes
    stones: int  # stones placed, suicides included
    capped: bool = False  # stopped at the cap, undecided
    end: str = ""  # CONNECTION, PASSES, REMOVAL, REPETITION or CAPPED


def random_playout(
    size: int = 9,
    rng: random.Random | None = None,
    record: list[int] | None = None,
    connection: bool = False,
    komi: int = 6,
    cap: int | None = None,
) -> Playout:
    """Play one uniformly random legal game of Vacu (Convacu with `connection`)
    on an empty size x size board, with `komi` for White and no komi step:
    player 0 is Black and starts. `record`, if given, receives each move: a
    point index for a stone, else `PASS_MOVE` or `BUTTON_MOVE`."""
    position = VacuSearchPosition(Board(size), 0, connection=connection, komi=komi)
    return _played(position, rng or random.Random(), record, cap)


def play_out_state(
    state: VacuState,
    rng: random.Random,
    record: list[int] | None = None,
    cap: int | None = None,
) -> Playout:
    """Play on at random from an undecided position of the clean API, past
    its komi step, leaving the state as it was."""
    assert state.result is None and state.black is not None
    return _played(VacuSearchPosition.from_state(state), rng, record, cap)


def play_out(
    board: Board,
    player: int,
    rng: random.Random,
    record: list[int] | None = None,
    *,
    connection: bool = False,
    komi: int = 6,
    black: int = 0,
    button: int | None = None,
    passes: int = 0,
    seen: dict[int, int] | None = None,
    cap: int | None = None,
) -> Playout:
    """Play on from an undecided position: `board` (changed in place), `player`
    to move, `black` the player playing Black, `button` the player holding the
    button (None while untaken) after `passes` passes in a row, with `seen` the
    occurrences of each position key so far (changed in place), until the game
    ends or `cap` more turns (default: `default_cap`) have been played."""
    position = VacuSearchPosition(
        board,
        player,
        connection=connection,
        komi=komi,
        black=black,
        button=button,
        passes=passes,
        seen={} if seen is None else seen,
    )
    return _played(position, rng, record, cap)


def _played(
    position: VacuSearchPosition, rng: random.Random, record: list[int] | None, cap: int | None
) -> Playout:
    """Play `position` out; past any komi step, so every move it records is an int."""
    played = play_out_position(position, rng, cast("list[SearchMove] | None", record), cap)
    return Playout(played.winner, played.turns, played.placed, played.capped, position.end)
